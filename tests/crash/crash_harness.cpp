// crash_harness: kills the real `galloper serve` with SIGKILL at random
// moments while many clients play, and checks after every kill that nothing
// acknowledged was lost and nothing is half there.
//
// One cycle:
//   1. every seat of every game is played by its own thread, each a WebSocket
//      client over loopback: answer each owed decision (its default option),
//      lock, wait for the step to resolve, again. Every AnswerAccepted and
//      AnswersLocked a client receives is recorded;
//   2. after a random delay (seeded RNG) the server gets SIGKILL;
//   3. the store is opened with SQLite, read-only: PRAGMA integrity_check must
//      say ok; every log row must decode; every acknowledged answer and lock
//      must be in the log;
//   4. `galloper replay --all` must pass (every state hash replays);
//   5. the server restarts; each seat that had acknowledgements joins again and
//      must be shown its acknowledged answers (DecisionsOwed.answers) and lock
//      for the open step, or the step must have resolved; a step every owing
//      seat had locked must resolve.
// Games that end are replaced by new ones; every 25 cycles the store starts
// afresh, so that `replay --all` (which grows with the store) keeps a cycle
// within seconds.
//
//   crash_harness [--cycles N] [--seed S] [--games G] [--max-seconds T] [--binary GALLOPER] [--keep]
// Prints the seed first: rerun with --seed S to repeat the kill schedule
// (thread timing still varies). Exit 0 when every cycle passed.
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "galloper/v1/protocol.pb.h"
#include "galloper/v1/store.pb.h"
#include "persistence/sqlite.hpp"

#include "tests/spawn.hpp"

namespace {

namespace fs = std::filesystem;
namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
namespace v1 = galloper::v1;
namespace sqlite = galloper::persistence::sqlite;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// The galloper under test: the build's own, or --binary.
std::string g_binary = GALLOPER_BINARY;

// ---- The server process. ----

class Server {
 public:
  explicit Server(fs::path data) : data_(std::move(data)) {}
  ~Server() { kill(); }

  bool start() {
    const fs::path ready = data_ / "ready";
    fs::remove(ready);
    std::vector<std::string> args = {g_binary,        "serve",      "--listen",     "127.0.0.1:0", "--data",
                                     data_.string(),  "--ready-file", ready.string(), "--log-level", "warn",
                                     "--threads",     "2",
                                     // Games and requests come faster than from any person: the
                                     // abuse limits are not what this harness tests.
                                     "--games-per-ip-per-hour", "1000000", "--message-rate", "100000",
                                     "--connection-rate", "100000"};
    pid_ = galloper::testing::spawn_logged(args, data_ / "server.log");
    if (pid_ < 0) return false;
    const auto deadline = Clock::now() + 20s;
    while (Clock::now() < deadline) {
      if (fs::exists(ready)) {
        std::ifstream in(ready);
        in >> port_;
        if (port_ != 0) return true;
      }
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return false;
      }
      std::this_thread::sleep_for(10ms);
    }
    return false;
  }

  void kill() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
  }

  unsigned short port() const { return port_; }

 private:
  fs::path data_;
  pid_t pid_ = -1;
  unsigned short port_ = 0;
};

// ---- A WebSocket client. Every operation is bounded in time; any error (the
// server died, a timeout) leaves it dead, and callers reconnect. ----

class Conn {
 public:
  // Players give up on a quiet connection after 2 s and join again; the checks
  // after a restart wait longer, since a join then replays the game's log.
  explicit Conn(unsigned short port, std::chrono::milliseconds timeout = 2s) : ws_(ioc_), timeout_(timeout) {
    beast::error_code ec;
    ws_.next_layer().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port), ec);
    if (ec) return;
    bool done = false;
    ws_.async_handshake("127.0.0.1:" + std::to_string(port), "/ws", [&](beast::error_code e) {
      ec = e;
      done = true;
    });
    if (!run(done) || ec) return;
    ws_.binary(true);
    alive_ = true;
  }

  bool alive() const { return alive_; }

  std::optional<v1::Envelope> receive() {
    if (!alive_) return std::nullopt;
    beast::flat_buffer buffer;
    beast::error_code ec;
    bool done = false;
    ws_.async_read(buffer, [&](beast::error_code e, std::size_t) {
      ec = e;
      done = true;
    });
    v1::Envelope env;
    if (!run(done) || ec || !env.ParseFromString(beast::buffers_to_string(buffer.data()))) {
      alive_ = false;
      return std::nullopt;
    }
    return env;
  }

  // The reply to `request`; pushes read meanwhile go to `pushes`.
  std::optional<v1::Envelope> call(v1::Envelope request, std::vector<v1::Envelope>& pushes) {
    if (!alive_) return std::nullopt;
    request.set_correlation_id(++next_id_);
    std::string out;
    request.SerializeToString(&out);
    beast::error_code ec;
    bool done = false;
    ws_.async_write(net::buffer(out), [&](beast::error_code e, std::size_t) {
      ec = e;
      done = true;
    });
    if (!run(done) || ec) {
      alive_ = false;
      return std::nullopt;
    }
    for (int i = 0; i < 200; ++i) {
      auto m = receive();
      if (!m) return std::nullopt;
      if (m->correlation_id() == request.correlation_id()) return m;
      pushes.push_back(std::move(*m));
    }
    alive_ = false;
    return std::nullopt;
  }

 private:
  // Runs the pending operation for at most timeout_; on timeout cancels it
  // (the stream is unusable after that) and answers false.
  bool run(const bool& done) {
    ioc_.restart();
    ioc_.run_for(timeout_);
    if (done) return true;
    beast::error_code ignored;
    ws_.next_layer().close(ignored);
    ioc_.restart();
    ioc_.run_for(timeout_);
    return false;
  }

  net::io_context ioc_;
  websocket::stream<tcp::socket> ws_;
  std::chrono::milliseconds timeout_;
  bool alive_ = false;
  std::uint64_t next_id_ = 0;
};

constexpr auto kLoadTimeout = 60s;

// ---- Games and what was acknowledged. ----

struct Game {
  std::string id;
  std::map<std::string, std::string> tokens;  // seat -> invite token
  std::atomic<bool> ended{false};
};

struct Ack {
  std::string game;
  std::string seat;
  std::uint64_t step = 0;
  std::string decision;  // empty for a lock
  std::string option;
};

class AckLog {
 public:
  void add(Ack a) {
    std::lock_guard lock(mu_);
    acks_.push_back(std::move(a));
  }
  std::vector<Ack> take() {
    std::lock_guard lock(mu_);
    return std::exchange(acks_, {});
  }

 private:
  std::mutex mu_;
  std::vector<Ack> acks_;
};

std::optional<Game*> create_game(unsigned short port, std::vector<std::unique_ptr<Game>>& games) {
  Conn c(port);
  std::vector<v1::Envelope> pushes;
  v1::Envelope hello;
  hello.mutable_hello()->mutable_protocol()->set_major(1);
  hello.mutable_hello()->set_client_name("crash-harness");
  if (!c.call(hello, pushes)) return std::nullopt;
  v1::Envelope create;
  create.mutable_create_game()->set_scenario_name("demo");
  auto created = c.call(create, pushes);
  if (!created || !created->has_game_created()) return std::nullopt;
  auto g = std::make_unique<Game>();
  g->id = created->game_created().game_id();
  for (const auto& inv : created->game_created().invites()) g->tokens[inv.seat()] = inv.token();
  games.push_back(std::move(g));
  return games.back().get();
}

// Joins a seat: the reply and the DecisionsOwed push that follows it.
struct Joined {
  v1::Joined joined;
  v1::DecisionsOwed owed;
  std::optional<v1::SeatStatus> status;
};

std::optional<Joined> join(Conn& c, const Game& g, const std::string& seat, std::string* why = nullptr) {
  std::vector<v1::Envelope> pushes;
  v1::Envelope hello;
  hello.mutable_hello()->mutable_protocol()->set_major(1);
  hello.mutable_hello()->set_client_name("crash-harness");
  if (!c.call(hello, pushes)) return std::nullopt;
  v1::Envelope e;
  e.mutable_join_game()->set_game_id(g.id);
  e.mutable_join_game()->set_token(g.tokens.at(seat));
  auto r = c.call(e, pushes);
  if (!r || !r->has_joined()) {
    if (why != nullptr) *why = r ? r->DebugString() : std::string("no answer");
    return std::nullopt;
  }
  Joined out;
  out.joined = r->joined();
  bool have_owed = false;
  for (int i = 0; i < 20; ++i) {
    auto m = c.receive();
    if (!m) return std::nullopt;
    if (m->has_decisions()) {
      out.owed = m->decisions();
      have_owed = true;
    }
    if (m->has_seat_status()) out.status = m->seat_status();
    if (have_owed && out.status) break;
  }
  if (!have_owed) return std::nullopt;
  return out;
}

// One seat, played until `stop`: answer everything owed, lock, wait.
void play_seat(unsigned short port, Game& g, const std::string& seat, AckLog& acks, const std::atomic<bool>& stop) {
  while (!stop && !g.ended) {
    Conn c(port);
    if (!c.alive()) {
      std::this_thread::sleep_for(20ms);
      continue;
    }
    auto j = join(c, g, seat);
    if (!j) {
      std::this_thread::sleep_for(20ms);
      continue;
    }
    if (j->joined.view().phase() == "ended") g.ended = true;
    v1::DecisionsOwed owed = j->owed;
    std::vector<v1::Envelope> pushes;
    while (!stop && c.alive() && !g.ended) {
      if (owed.decisions_size() > 0 && !owed.locked()) {
        bool open = true;
        for (const auto& d : owed.decisions()) {
          v1::Envelope e;
          auto* s = e.mutable_submit_answer();
          s->set_game_id(g.id);
          s->set_step(owed.step());
          s->mutable_answer()->set_decision_id(d.id());
          const std::string option = d.default_option().empty() && d.options_size() > 0 ? d.options(0).id()
                                                                                       : d.default_option();
          s->mutable_answer()->set_option(option);
          auto r = c.call(e, pushes);
          if (!r) break;
          if (r->has_answer_accepted()) {
            acks.add({g.id, seat, owed.step(), d.id(), option});
          } else if (r->has_error() && r->error().code() != v1::ERROR_CODE_ILLEGAL_ANSWER) {
            open = false;  // resolving, locked, or reloading: wait for what comes next
            break;
          }
        }
        if (!c.alive()) break;
        if (open) {
          v1::Envelope l;
          l.mutable_lock_answers()->set_game_id(g.id);
          l.mutable_lock_answers()->set_step(owed.step());
          auto r = c.call(l, pushes);
          if (!r) break;
          if (r->has_answers_locked()) acks.add({g.id, seat, owed.step(), "", ""});
        }
        owed.set_locked(true);
      }
      // Wait for the step to resolve (or anything that means "look again").
      std::optional<v1::Envelope> next;
      if (!pushes.empty()) {
        next = std::move(pushes.front());
        pushes.erase(pushes.begin());
      } else {
        next = c.receive();
      }
      if (!next) break;  // dead or quiet for 2 s: reconnect and join again
      if (next->has_step_resolved()) {
        owed = next->step_resolved().next();
        if (next->step_resolved().view().phase() == "ended") g.ended = true;
      } else if (next->has_error()) {
        break;  // a step that could not resolve, or the room failed: join again
      }
    }
  }
}

// ---- Checks. ----

struct Failure {
  std::string what;
};

using AnswerKey = std::tuple<std::string, std::uint64_t, std::string, std::string, std::string>;
using LockKey = std::tuple<std::string, std::uint64_t, std::string>;

struct OnDisk {
  std::set<AnswerKey> answers;
  std::set<LockKey> locks;
  std::set<std::pair<std::string, std::uint64_t>> resolved;  // (game, step)
  std::uint64_t rows = 0;
};

// Reads the store the way a person with the sqlite3 shell would, read-only.
std::optional<Failure> read_store(const fs::path& db_file, OnDisk& out) {
  try {
    sqlite::Database db(db_file, sqlite::OpenFlags::kReadOnly);
    const auto check = db.pragma_rows("integrity_check");
    if (check.size() != 1 || check.front() != "ok") {
      std::string msg = "PRAGMA integrity_check:";
      for (const auto& l : check) msg += "\n  " + l;
      return Failure{msg};
    }
    sqlite::Statement s(db, "SELECT game_id, seq, kind, payload FROM steps ORDER BY game_id, seq");
    while (s.step()) {
      ++out.rows;
      const std::string game = s.column_text(0);
      const auto seq = s.column_int64(1);
      const std::string kind = s.column_text(2);
      const auto payload = s.column_blob(3);
      const auto where = "game " + game + " log entry " + std::to_string(seq) + " (" + kind + ")";
      const void* data = payload.data();
      const int size = static_cast<int>(payload.size());
      if (kind == "answer") {
        v1::StoredAnswer a;
        if (!a.ParseFromArray(data, size)) return Failure{where + " does not decode"};
        out.answers.insert({game, a.step(), a.answer().seat(), a.answer().answer().decision_id(),
                            a.answer().answer().option()});
      } else if (kind == "lock") {
        v1::StoredLock l;
        if (!l.ParseFromArray(data, size)) return Failure{where + " does not decode"};
        out.locks.insert({game, l.step(), l.seat()});
      } else if (kind == "resolve") {
        v1::StoredStep st;
        if (!st.ParseFromArray(data, size)) return Failure{where + " does not decode"};
        out.resolved.insert({game, st.step()});
      }
      // Other kinds (deadline, umpire, chat, ...) are decoded by `galloper replay`.
    }
  } catch (const sqlite::Error& e) {
    return Failure{std::string("reading the store: ") + e.what()};
  }
  return std::nullopt;
}

std::optional<Failure> acks_on_disk(const std::vector<Ack>& acks, const OnDisk& disk) {
  for (const auto& a : acks) {
    const bool found = a.decision.empty() ? disk.locks.contains({a.game, a.step, a.seat})
                                          : disk.answers.contains({a.game, a.step, a.seat, a.decision, a.option});
    if (!found) {
      return Failure{"acknowledged but not in the log: game " + a.game + " step " + std::to_string(a.step) + " seat " +
                     a.seat + (a.decision.empty() ? " lock" : " answer " + a.decision + "=" + a.option)};
    }
  }
  return std::nullopt;
}

std::optional<Failure> replay_all(const fs::path& data) {
  // Bounded, but generously: on a loaded machine a Debug replay of a store's
  // games takes a while, and a killed replay prints nothing (its output is
  // still buffered), so the exit status is reported.
  const std::string cmd = "timeout 300 " + g_binary + " replay --all --data '" + data.string() +
                          "' 2>&1";
  std::FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return Failure{"cannot run galloper replay"};
  std::string out;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, p) != nullptr) out += buf;
  const int st = ::pclose(p);
  if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    const std::string why = !WIFEXITED(st)               ? "killed"
                            : WEXITSTATUS(st) == 124 ? "exit status 124: it ran past its 300 s bound"
                                                     : "exit status " + std::to_string(WEXITSTATUS(st));
    return Failure{"galloper replay --all failed (" + why + "):\n" + out};
  }
  return std::nullopt;
}

// After the restart: each seat with acknowledgements sees them.
std::optional<Failure> acks_over_the_wire(unsigned short port, const std::vector<Ack>& acks,
                                          const std::vector<std::unique_ptr<Game>>& games, const OnDisk& disk,
                                          const fs::path& db_file) {
  std::map<std::pair<std::string, std::string>, std::vector<const Ack*>> by_seat;
  for (const auto& a : acks) by_seat[{a.game, a.seat}].push_back(&a);
  for (const auto& [key, list] : by_seat) {
    const Game* g = nullptr;
    for (const auto& x : games) {
      if (x->id == key.first) g = x.get();
    }
    if (g == nullptr) return Failure{"unknown game " + key.first};
    Conn c(port, kLoadTimeout);
    std::string why;
    auto j = join(c, *g, key.second, &why);
    if (!j) return Failure{"after the restart, seat " + key.second + " of game " + g->id + " cannot join: " + why};
    const auto& owed = j->owed;
    for (const Ack* a : list) {
      const std::string what = "game " + a->game + " step " + std::to_string(a->step) + " seat " + a->seat +
                               (a->decision.empty() ? " lock" : " answer " + a->decision);
      if (a->step > owed.step()) return Failure{what + ": acknowledged for a step after the open one"};
      if (a->step < owed.step()) {
        // Resolved before the kill, or by the restarted server just now.
        OnDisk now;
        if (!disk.resolved.contains({a->game, a->step}) &&
            (read_store(db_file, now) || !now.resolved.contains({a->game, a->step}))) {
          return Failure{what + ": the game moved past step " + std::to_string(a->step) + " without resolving it"};
        }
        continue;
      }
      if (a->decision.empty()) {
        if (!owed.locked()) return Failure{what + ": acknowledged, but the seat is not locked after the restart"};
        continue;
      }
      bool shown = false;
      for (const auto& ans : owed.answers()) shown = shown || (ans.decision_id() == a->decision && ans.option() == a->option);
      if (!shown) return Failure{what + ": acknowledged, but not among the seat's answers after the restart"};
    }
  }
  return std::nullopt;
}

// A step that every owing seat had locked must resolve once the game loads.
std::optional<Failure> no_stuck_steps(unsigned short port, const std::vector<Game*>& active) {
  for (const Game* g : active) {
    Conn c(port, kLoadTimeout);
    std::string why;
    auto j = join(c, *g, "umpire", &why);
    if (!j) return Failure{"after the restart, the umpire of game " + g->id + " cannot join: " + why};
    if (!j->status || j->status->owing_size() == 0 || j->status->owing_size() != j->status->locked_size()) continue;
    const auto step = j->status->step();
    bool resolved = false;
    for (int i = 0; i < 20 && !resolved; ++i) {
      auto m = c.receive();
      if (!m) break;
      resolved = m->has_step_resolved() && m->step_resolved().step() == step;
    }
    if (!resolved) {
      return Failure{"game " + g->id + " step " + std::to_string(step) +
                     ": every owing seat locked before the kill, and the step does not resolve after the restart"};
    }
  }
  return std::nullopt;
}

int usage() {
  std::cerr << "usage: crash_harness [--cycles N] [--seed S] [--games G] [--max-seconds T] [--binary GALLOPER] [--keep]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  int cycles = 50;
  int game_count = 3;
  std::uint64_t max_seconds = 0;  // 0: no limit; else stop (passing) after the cycle that crosses it
  bool keep = false;
  std::uint64_t seed = std::random_device{}();
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::optional<std::uint64_t> {
      if (i + 1 >= argc) return std::nullopt;
      try {
        return std::stoull(argv[++i]);
      } catch (const std::exception&) {
        return std::nullopt;
      }
    };
    if (a == "--keep") {
      keep = true;
    } else if (a == "--binary" && i + 1 < argc) {
      g_binary = argv[++i];
    } else if (a == "--cycles" || a == "--seed" || a == "--games" || a == "--max-seconds") {
      auto v = value();
      if (!v) return usage();
      if (a == "--max-seconds") max_seconds = *v;
      if (a == "--cycles") cycles = static_cast<int>(*v);
      if (a == "--seed") seed = *v;
      if (a == "--games") game_count = static_cast<int>(std::max<std::uint64_t>(1, *v));
    } else {
      return usage();
    }
  }
  std::cout << "crash_harness: seed " << seed << " (rerun with --seed " << seed << "), " << cycles << " cycles, "
            << game_count << " games" << std::endl;
  std::mt19937_64 rng(seed);

  std::random_device rd;
  const fs::path dir = fs::temp_directory_path() / ("galloper-crash-" + std::to_string(::getpid()) + "-" +
                                                    std::to_string(rd()));
  const fs::path data = dir / "data";
  fs::create_directories(data);
  auto finish = [&](int code) {
    if (code != 0 || keep) {
      std::cout << "data kept in " << dir.string() << std::endl;
    } else {
      std::error_code ec;
      fs::remove_all(dir, ec);
    }
    return code;
  };
  auto fail = [&](int cycle, const std::string& what) {
    std::cout << "FAILED in cycle " << cycle << " (seed " << seed << "): " << what << std::endl;
    return finish(1);
  };

  Server server(data);
  if (!server.start()) return fail(0, "the server does not start; see " + (data / "server.log").string());
  std::vector<std::unique_ptr<Game>> games;
  AckLog acks;
  std::uint64_t total_acks = 0;
  const auto started = Clock::now();

  int cycle = 1;
  for (; cycle <= cycles; ++cycle) {
    if (max_seconds != 0 && Clock::now() - started > std::chrono::seconds(max_seconds)) {
      std::cout << "time limit of " << max_seconds << " s reached" << std::endl;
      break;
    }
    const auto cycle_start = Clock::now();
    // `replay --all` grows with the store: a fresh store every kCyclesPerStore
    // cycles keeps each cycle within seconds.
    constexpr int kCyclesPerStore = 25;
    if (cycle > 1 && (cycle - 1) % kCyclesPerStore == 0) {
      server.kill();
      std::error_code ec;
      fs::remove_all(data, ec);
      fs::create_directories(data);
      games.clear();
      if (!server.start()) return fail(cycle, "the server does not start on a fresh store");
    }
    // Keep `game_count` games in play.
    std::vector<Game*> active;
    for (const auto& g : games) {
      if (!g->ended) active.push_back(g.get());
    }
    while (static_cast<int>(active.size()) < game_count) {
      auto g = create_game(server.port(), games);
      if (!g) return fail(cycle, "cannot create a game");
      active.push_back(*g);
    }

    std::atomic<bool> stop{false};
    std::vector<std::thread> players;
    for (Game* g : active) {
      for (const auto& [seat, token] : g->tokens) {
        if (seat == "spectator") continue;
        players.emplace_back(
            [&, g, seat = seat] { play_seat(server.port(), *g, seat, acks, stop); });
      }
    }
    const auto delay = std::chrono::milliseconds(std::uniform_int_distribution<int>(30, 1200)(rng));
    std::this_thread::sleep_for(delay);
    server.kill();
    stop = true;
    for (auto& t : players) t.join();
    const std::vector<Ack> cycle_acks = acks.take();
    total_acks += cycle_acks.size();

    OnDisk disk;
    if (auto f = read_store(data / "galloper.db", disk)) return fail(cycle, f->what);
    if (auto f = acks_on_disk(cycle_acks, disk)) return fail(cycle, f->what);
    if (auto f = replay_all(data)) return fail(cycle, f->what);
    if (!server.start()) return fail(cycle, "the server does not restart; see " + (data / "server.log").string());
    if (auto f = acks_over_the_wire(server.port(), cycle_acks, games, disk, data / "galloper.db")) return fail(cycle, f->what);
    if (auto f = no_stuck_steps(server.port(), active)) return fail(cycle, f->what);

    const double secs = std::chrono::duration<double>(Clock::now() - cycle_start).count();
    std::cout << "cycle " << cycle << ": killed after " << delay.count() << " ms, " << cycle_acks.size()
              << " acknowledgements checked, " << disk.rows << " log rows, " << disk.resolved.size()
              << " steps resolved in all; " << secs << " s" << std::endl;
    if (secs > 120) return fail(cycle, "a cycle took more than 120 s");
  }
  server.kill();
  const double secs = std::chrono::duration<double>(Clock::now() - started).count();
  std::cout << "ok: " << cycle - 1 << " cycles, " << total_acks << " acknowledgements all found after SIGKILL, "
            << games.size() << " games, " << secs << " s" << std::endl;
  return finish(0);
}
