// startup_at_scale: a server with many stored games must be serving within a
// second (docs/PERFORMANCE.md). Fills a store with --games games (default
// 10 000; the demo scenario, its seats, --steps log entries each) through the
// Store API, then times `galloper serve` from exec to the first `/healthz` ok,
// --runs times. Also times the store's open-time checks on that file alone,
// and the query a server makes at start for the games due to wake (1 game in
// 100 has a wake-up in the past, most others one in the future, some none),
// once for now and once as if every wake-up had passed.
//
//   startup_at_scale [--games N] [--steps K] [--runs R] [--limit-ms L] [--keep]
// Exit 1 if the best run exceeds --limit-ms (0: report only).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "codec/scenario_codec.hpp"
#include "galloper/v1/store.pb.h"
#include "persistence/sqlite.hpp"
#include "persistence/store.hpp"

#include "tests/spawn.hpp"

namespace {

namespace fs = std::filesystem;
namespace persistence = galloper::persistence;
using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

std::int64_t unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Game g's wake-up, relative to `now_ms`: 1 in 100 overdue (a deadline passed
// while the server was down), 1 in 10 never (nothing timed), the rest in the
// next hours. Distinct times, so the order due_games answers in is known.
std::int64_t wake_for(int g, std::int64_t now_ms) {
  if (g % 100 == 0) return now_ms - 1'000 * (g + 1);
  if (g % 10 == 5) return 0;
  return now_ms + 3'600'000 + 1'000 * g;
}
bool overdue(int g) { return g % 100 == 0; }

bool fill(const fs::path& db, int games, int steps, std::int64_t now_ms) {
  persistence::StoreOptions options;
  options.run_integrity_check = false;
  auto opened = persistence::open_sqlite_store(db, options);
  if (!opened.store) {
    std::cerr << "open: " << opened.error->message << "\n";
    return false;
  }
  auto& store = *opened.store;
  const auto* demo = galloper::codec::find_bundled_scenario("demo");
  if (demo == nullptr) return false;
  std::atomic<int> failures{0};
  auto check = [&failures](persistence::Status s) {
    if (!s.ok()) ++failures;
  };
  for (int g = 0; g < games; ++g) {
    persistence::GameRecord r;
    r.id = "g" + std::to_string(1'000'000 + g);
    r.title = "Meeting engagement at Altdorf";
    r.ruleset = "malbrook";
    r.scenario_name = "demo";
    r.scenario_text = std::string(demo->text);
    r.seed.assign(32, static_cast<std::uint8_t>(g));
    r.seed_commitment = std::string(64, 'c');
    r.created_unix = 1'700'000'000 + g;
    // Overdue games get theirs the way a server sets it, after creation.
    if (!overdue(g)) r.wake_ms = wake_for(g, now_ms);
    std::vector<persistence::SeatRecord> seats;
    for (const char* s : {"umpire", "allies/army", "allies/left", "allies/right", "french/army", "french/left",
                          "french/right", "spectator"}) {
      seats.push_back({r.id, s, s, std::string(64, 'a')});
    }
    store.create_game(std::move(r), std::move(seats), check);
    for (int k = 1; k <= steps; ++k) {
      galloper::v1::StoredAnswer a;
      a.set_step(static_cast<std::uint64_t>(k));
      a.mutable_answer()->set_seat("allies/left");
      a.mutable_answer()->mutable_answer()->set_decision_id("move/b" + std::to_string(k));
      a.mutable_answer()->mutable_answer()->set_option("halt");
      persistence::StepRecord e;
      e.game_id = "g" + std::to_string(1'000'000 + g);
      e.seq = static_cast<std::uint64_t>(k);
      e.kind = "answer";
      const std::string bytes = a.SerializeAsString();
      e.payload.assign(bytes.begin(), bytes.end());
      store.append_step(std::move(e), check);
    }
    if (overdue(g)) store.set_wake("g" + std::to_string(1'000'000 + g), wake_for(g, now_ms), check);
    if (g % 1000 == 999) store.flush();  // bounded queue
  }
  store.close();
  if (failures != 0) std::cerr << failures << " writes failed\n";
  return failures == 0;
}

bool healthz(unsigned short port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  timeval tv{2, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  bool ok = false;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
    const std::string req = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    if (::send(fd, req.data(), req.size(), 0) == static_cast<ssize_t>(req.size())) {
      char buf[256] = {};
      const auto n = ::recv(fd, buf, sizeof buf - 1, 0);
      ok = n > 0 && std::string(buf, static_cast<std::size_t>(n)).rfind("HTTP/1.1 200", 0) == 0;
    }
  }
  ::close(fd);
  return ok;
}

// Milliseconds from exec to /healthz ok; nullopt if it never came up.
std::optional<double> time_startup(const fs::path& data) {
  const fs::path ready = data / "ready";
  fs::remove(ready);
  std::vector<std::string> args = {GALLOPER_BINARY, "serve",      "--listen",     "127.0.0.1:0", "--data",
                                   data.string(),   "--ready-file", ready.string(), "--log-level", "warn"};
  std::fflush(nullptr);
  const auto t0 = Clock::now();
  const pid_t pid = galloper::testing::spawn_logged(args, data / "server.log");
  if (pid < 0) return std::nullopt;
  std::optional<double> result;
  unsigned short port = 0;
  while (ms_since(t0) < 60'000) {
    if (port == 0 && fs::exists(ready)) {
      std::ifstream in(ready);
      in >> port;
    }
    if (port != 0 && healthz(port)) {
      result = ms_since(t0);
      break;
    }
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) return std::nullopt;
    std::this_thread::sleep_for(1ms);
  }
  ::kill(pid, SIGTERM);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return result;
}

// One due_games call on a freshly opened store, as a starting server makes
// it: milliseconds from the call to its answer. Checks the answer too.
std::optional<double> time_due_games(const fs::path& db, int games, std::int64_t now_ms, std::int64_t until_ms,
                                     const std::string& what) {
  constexpr std::size_t kLimit = 1000;
  persistence::StoreOptions options;
  options.read_only = true;
  options.run_integrity_check = false;
  auto opened = persistence::open_sqlite_store(db, options);
  if (!opened.store) {
    std::cerr << "open: " << opened.error->message << "\n";
    return std::nullopt;
  }
  std::promise<std::pair<std::vector<persistence::GameWake>, persistence::Status>> answer;
  const auto t0 = Clock::now();
  opened.store->due_games(until_ms, kLimit, [&](std::vector<persistence::GameWake> due, persistence::Status s) {
    answer.set_value({std::move(due), std::move(s)});
  });
  auto [found, status] = answer.get_future().get();
  const double ms = ms_since(t0);
  if (!status.ok()) {
    std::cerr << "due_games: " << status.error->message << "\n";
    return std::nullopt;
  }
  std::vector<std::pair<std::int64_t, std::string>> all;
  for (int g = 0; g < games; ++g) {
    const std::int64_t wake = wake_for(g, now_ms);
    if (wake > 0 && wake <= until_ms) all.emplace_back(wake, "g" + std::to_string(1'000'000 + g));
  }
  std::sort(all.begin(), all.end());
  const std::size_t expected = std::min(all.size(), kLimit);
  bool same = found.size() == expected;
  for (std::size_t i = 0; same && i < found.size(); ++i) {
    same = found[i].game_id == all[i].second && found[i].wake_ms == all[i].first;
  }
  if (!same) {
    std::cerr << "due_games answered " << found.size() << " games, expected " << expected << " in order\n";
    return std::nullopt;
  }
  std::cout << "due_games, " << what << " (" << all.size() << " of " << games << " games due, limit " << kLimit
            << "): " << ms << " ms" << std::endl;
  return ms;
}

double time_pragma(const fs::path& db, const std::string& pragma) {
  persistence::sqlite::Database d(db, persistence::sqlite::OpenFlags::kReadOnly);
  const auto t0 = Clock::now();
  const auto rows = d.pragma_rows(pragma);
  const double ms = ms_since(t0);
  if (rows.size() != 1 || rows.front() != "ok") std::cerr << pragma << " is not ok\n";
  return ms;
}

}  // namespace

int main(int argc, char** argv) {
  int games = 10'000;
  int steps = 20;
  int runs = 5;
  double limit_ms = 0;
  bool keep = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--keep") {
      keep = true;
      continue;
    }
    if (i + 1 >= argc) {
      std::cerr << "usage: startup_at_scale [--games N] [--steps K] [--runs R] [--limit-ms L] [--keep]\n";
      return 2;
    }
    const std::string v = argv[++i];
    if (a == "--games") games = std::stoi(v);
    else if (a == "--steps") steps = std::stoi(v);
    else if (a == "--runs") runs = std::max(1, std::stoi(v));
    else if (a == "--limit-ms") limit_ms = std::stod(v);
    else return 2;
  }
  std::random_device rd;
  const fs::path dir = fs::temp_directory_path() / ("galloper-startup-" + std::to_string(::getpid()) + "-" +
                                                    std::to_string(rd()));
  const fs::path data = dir / "data";
  fs::create_directories(data);
  const fs::path db = data / "galloper.db";

  const auto t0 = Clock::now();
  const std::int64_t now_ms = unix_ms();
  if (!fill(db, games, steps, now_ms)) return 1;
  std::cout << "filled " << games << " games x " << steps << " log entries in " << ms_since(t0) / 1000 << " s; "
            << fs::file_size(db) / (1024.0 * 1024.0) << " MiB" << std::endl;
  std::cout << "PRAGMA integrity_check: " << time_pragma(db, "integrity_check") << " ms; quick_check: "
            << time_pragma(db, "quick_check") << " ms" << std::endl;
  // Before any server runs: a server that wakes games moves their wake-ups.
  if (!time_due_games(db, games, now_ms, now_ms, "now")) return 1;
  // After a long outage every wake-up has passed: the first page of many.
  if (!time_due_games(db, games, now_ms, std::numeric_limits<std::int64_t>::max(), "every wake-up passed")) return 1;

  std::vector<double> times;
  for (int r = 0; r < runs; ++r) {
    auto ms = time_startup(data);
    if (!ms) {
      std::cout << "the server did not come up; see " << (data / "server.log").string() << std::endl;
      return 1;
    }
    times.push_back(*ms);
  }
  std::sort(times.begin(), times.end());
  std::cout << "serve start to /healthz ok: best " << times.front() << " ms, median " << times[times.size() / 2]
            << " ms, worst " << times.back() << " ms (" << runs << " runs)" << std::endl;
  const bool ok = limit_ms <= 0 || times.front() <= limit_ms;
  if (!ok) std::cout << "FAILED: more than " << limit_ms << " ms" << std::endl;
  if (keep) {
    std::cout << "data kept in " << dir.string() << std::endl;
  } else {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  return ok ? 0 : 1;
}
