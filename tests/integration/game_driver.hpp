#pragma once
// Plays games over the wire for the durability and tools tests: create a demo
// game, then resolve whole steps with every owing seat taking each decision's
// default (or first) option and locking. Also: run the galloper command line
// and the sqlite3 shell, and read a store's rows as text.
#include <array>
#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include "tests/integration/harness.hpp"

namespace galloper::testing {

struct CommandResult {
  int status = -1;  // exit code; -1 if it did not exit normally
  std::string out;  // stdout and stderr together
};

// Runs `command` through the shell with a time bound.
inline CommandResult run_command(const std::string& command, int timeout_s = 60) {
  CommandResult r;
  const std::string cmd = "timeout " + std::to_string(timeout_s) + " " + command + " 2>&1";
  std::FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), buf.size(), p) != nullptr) r.out += buf.data();
  const int st = ::pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

inline std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

inline CommandResult galloper(const std::string& args, int timeout_s = 60) {
  return run_command(std::string(GALLOPER_BINARY) + " " + args, timeout_s);
}

// The sqlite3 shell on `db`, e.g. to damage a store the way a disk or a person might.
inline CommandResult sqlite3(const std::filesystem::path& db, const std::string& sql) {
  return run_command("sqlite3 -batch " + shell_quote(db.string()) + " " + shell_quote(sql));
}

struct DemoGame {
  std::string id;
  std::string seed_commitment;
  std::map<std::string, std::string> tokens;  // seat -> invite token
};

inline DemoGame create_demo_game(unsigned short port) {
  DemoGame g;
  Client c(port);
  EXPECT_TRUE(c.hello().has_welcome());
  v1::Envelope e;
  e.mutable_create_game()->set_scenario_name("demo");
  auto created = c.call(e);
  EXPECT_TRUE(created.has_game_created()) << created.DebugString();
  g.id = created.game_created().game_id();
  g.seed_commitment = created.game_created().seed_commitment();
  for (const auto& inv : created.game_created().invites()) g.tokens[inv.seat()] = inv.token();
  g.tokens["spectator"] = created.game_created().spectators().token();
  return g;
}

template <class Pred>
std::optional<v1::Envelope> read_until(Client& c, Pred pred, int limit = 100) {
  for (int i = 0; i < limit; ++i) {
    auto m = c.receive();
    if (!m) return std::nullopt;
    if (pred(*m)) return m;
  }
  return std::nullopt;
}

inline v1::Envelope join_game(Client& c, const std::string& game, const std::string& token) {
  v1::Envelope e;
  e.mutable_join_game()->set_game_id(game);
  e.mutable_join_game()->set_token(token);
  return c.call(e);
}

// Resolves `steps` steps of `game`; returns how many resolved (fewer if the
// game ended or something failed, which the caller's expectations will show).
inline int play_steps(unsigned short port, const DemoGame& game, int steps) {
  int resolved = 0;
  for (int n = 0; n < steps; ++n) {
    Client umpire(port);
    if (!umpire.hello().has_welcome()) return resolved;
    if (!join_game(umpire, game.id, game.tokens.at("umpire")).has_joined()) return resolved;
    auto status = read_until(umpire, [](const v1::Envelope& m) {
      return m.has_seat_status() && m.seat_status().owing_size() > 0;
    });
    if (!status) return resolved;
    const std::uint64_t step = status->seat_status().step();
    std::vector<std::unique_ptr<Client>> players;
    for (const auto& seat : status->seat_status().owing()) {
      auto& c = *players.emplace_back(std::make_unique<Client>(port));
      c.hello();
      if (!join_game(c, game.id, game.tokens.at(seat)).has_joined()) return resolved;
      auto owed = read_until(c, [](const v1::Envelope& m) { return m.has_decisions(); });
      if (!owed) return resolved;
      for (const auto& d : owed->decisions().decisions()) {
        std::string option = d.default_option();
        if (option.empty() && d.options_size() > 0) option = d.options(0).id();
        v1::Envelope a;
        auto* s = a.mutable_submit_answer();
        s->set_game_id(game.id);
        s->set_step(step);
        s->mutable_answer()->set_decision_id(d.id());
        s->mutable_answer()->set_option(option);
        EXPECT_TRUE(c.call(a).has_answer_accepted()) << "step " << step << " decision " << d.id();
      }
      v1::Envelope l;
      l.mutable_lock_answers()->set_game_id(game.id);
      l.mutable_lock_answers()->set_step(step);
      EXPECT_TRUE(c.call(l).has_answers_locked()) << "step " << step << " seat " << seat;
    }
    auto done = read_until(umpire, [step](const v1::Envelope& m) {
      return m.has_step_resolved() && m.step_resolved().step() == step;
    });
    if (!done) return resolved;
    ++resolved;
  }
  return resolved;
}

// A fixture for tests of one stored demo game: a real server over a store in
// its own temporary directory, stopped and started again as the test needs,
// and the store read with the sqlite3 shell.
class StoredGameTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = make_temp_dir("stored-game");
    data_ = dir_ / "data";
    start();
    game_ = create_demo_game(server_->port());
  }
  void TearDown() override {
    if (server_) server_->stop(SIGKILL);
    std::filesystem::remove_all(dir_);
  }
  void start() {
    server_.emplace(data_);
    server_->start();
  }
  void stop() {
    ASSERT_EQ(server_->stop(SIGTERM), 0) << server_->log();
    server_.reset();
  }
  unsigned short port() const { return server_->port(); }
  std::filesystem::path db() const { return data_ / "galloper.db"; }
  // The shell's whole output.
  std::string query(const std::string& sql) {
    auto r = sqlite3(db(), sql);
    EXPECT_EQ(r.status, 0) << sql << "\n" << r.out;
    return r.out;
  }
  static std::string first_line(std::string s) { return s.substr(0, s.find('\n')); }
  std::string data_arg() const { return "--data " + shell_quote(data_.string()); }
  // Rows of the game's log: a refused request must leave it as it was.
  std::string steps_rows() { return first_line(query("SELECT count(*) FROM steps WHERE game_id = '" + game_.id + "';")); }
  // A client joined to `seat` of the game.
  std::unique_ptr<Client> joined(const std::string& seat) {
    auto c = std::make_unique<Client>(port());
    EXPECT_TRUE(c->hello().has_welcome());
    auto j = join_game(*c, game_.id, game_.tokens.at(seat));
    EXPECT_TRUE(j.has_joined()) << j.DebugString();
    return c;
  }
  // What `seat` is shown on joining now.
  v1::GameView view_of(const std::string& seat) {
    Client c(port());
    c.hello();
    auto j = join_game(c, game_.id, game_.tokens.at(seat));
    EXPECT_TRUE(j.has_joined()) << j.DebugString();
    return j.joined().view();
  }

  // The umpire ends the game (so an export carries the seed).
  void end_game(Client& umpire) {
    v1::Envelope end;
    end.mutable_umpire_action()->set_game_id(game_.id);
    end.mutable_umpire_action()->set_reason("time");
    end.mutable_umpire_action()->mutable_end_game()->set_result("a draw");
    ASSERT_TRUE(umpire.call(end).has_umpire_done());
  }
  // With the server stopped: the game replays from the store, exports, and
  // the export verifies. Returns what `galloper verify` printed.
  CommandResult expect_replays_and_verifies() {
    auto replay = galloper("replay " + data_arg() + " " + game_.id);
    EXPECT_EQ(replay.status, 0) << replay.out;
    const auto file = dir_ / "game.export";
    auto exported = galloper("export " + data_arg() + " " + game_.id + " " + shell_quote(file.string()));
    EXPECT_EQ(exported.status, 0) << exported.out;
    auto verified = galloper("verify " + shell_quote(file.string()));
    EXPECT_EQ(verified.status, 0) << verified.out;
    return verified;
  }

  std::filesystem::path dir_;
  std::filesystem::path data_;
  std::optional<ServerProcess> server_;
  DemoGame game_;
};

}  // namespace galloper::testing
