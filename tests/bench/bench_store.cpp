// The store's durable write path (docs/PERFORMANCE.md).
//
//  BM_DurableAppend/<max_delay_us>: 10 000 append_step calls from 4 threads (4 games), timed
//    from the first submission to the last acknowledgement (every one on disk,
//    synchronous=FULL). In the same iteration, untimed by the framework, the
//    same rows go through raw SQLite the way a hand-written batch loader would:
//    one prepared INSERT, one transaction per 256 rows, WAL, synchronous=FULL.
//    Counters: store_steps/s, raw_steps/s, store_vs_raw (store / raw), commits.
//  BM_PacedAckLatency/<max_delay_us>: one append every millisecond for 1.5 s
//    (a busy server's rate of answers); latency from submission to `done`.
//    Counters: p50_us, p99_us, max_us, rate/s, commits. Arg 0 shows what the
//    group-commit delay costs when the load is light.
#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <future>
#include <mutex>
#include <thread>
#include <vector>

#include "persistence/migrations.hpp"
#include "persistence/sqlite.hpp"
#include "persistence/store.hpp"

#include "tests/bench/bench_util.hpp"

namespace {

using namespace galloper::persistence;
using Clock = std::chrono::steady_clock;

using galloper::bench::TempDir;

// Built with append: GCC 12 at -O3 warns falsely (-Wrestrict, PR 105329) on
// "literal" + std::to_string(...).
std::string game_id(std::uint64_t t) {
  std::string id = "g";
  id += std::to_string(t);
  return id;
}

GameRecord game(const std::string& id) {
  GameRecord g;
  g.id = id;
  g.title = "bench";
  g.ruleset = "malbrook";
  g.scenario_name = "blenheim";
  g.scenario_text = std::string(2000, 's');
  g.seed.assign(32, 0x5A);
  g.seed_commitment = std::string(64, 'c');
  g.settings = "vision: SIDE_SHARED";
  return g;
}

// About the size of an answer: a few orders for a wing, serialized.
StepRecord step(const std::string& game_id, std::uint64_t seq) {
  StepRecord s;
  s.game_id = game_id;
  s.seq = seq;
  s.kind = "answer";
  s.payload.assign(120, static_cast<std::uint8_t>(seq));
  s.state_hash = seq * 0x9E3779B97F4A7C15ULL;
  s.created_unix = 1'700'000'000;
  return s;
}

class Latch {
 public:
  explicit Latch(std::size_t n) : left_(n) {}
  void count_down() {
    std::lock_guard lock(mu_);
    if (--left_ == 0) cv_.notify_all();
  }
  void wait() {
    std::unique_lock lock(mu_);
    cv_.wait(lock, [&] { return left_ == 0; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::size_t left_;
};

std::unique_ptr<Store> open_store(const std::filesystem::path& file, StoreOptions options = {}) {
  options.run_integrity_check = false;
  OpenResult r = open_sqlite_store(file, options);
  if (!r.store) throw std::runtime_error("open: " + r.error->message);
  for (int t = 0; t < 4; ++t) {
    std::promise<Status> p;
    r.store->create_game(game(game_id(t)), {}, [&](Status s) { p.set_value(s); });
    if (!p.get_future().get().ok()) throw std::runtime_error("create_game failed");
  }
  return std::move(r.store);
}

constexpr int kThreads = 4;
constexpr std::uint64_t kStepsPerThread = 2500;
constexpr std::uint64_t kSteps = kThreads * kStepsPerThread;

double store_run(const std::filesystem::path& file, std::uint32_t max_delay_us, std::uint64_t& commits) {
  StoreOptions options;
  options.max_delay_us = max_delay_us;
  auto store = open_store(file, options);
  const auto commits_before = store->stats().transactions_committed;
  Latch acked(kSteps);
  std::atomic<std::uint64_t> failures{0};
  const auto t0 = Clock::now();
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const std::string id = game_id(t);
      for (std::uint64_t seq = 1; seq <= kStepsPerThread; ++seq) {
        store->append_step(step(id, seq), [&](Status s) {
          if (!s.ok()) ++failures;
          acked.count_down();
        });
      }
    });
  }
  for (auto& th : threads) th.join();
  acked.wait();
  const double seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  if (failures != 0) throw std::runtime_error("some appends failed");
  commits = store->stats().transactions_committed - commits_before;
  return seconds;
}

double raw_run(const std::filesystem::path& file) {
  sqlite::Database db(file, sqlite::OpenFlags::kReadWrite | sqlite::OpenFlags::kCreate);
  db.pragma("journal_mode", "WAL");
  db.pragma("synchronous", "FULL");
  db.pragma("foreign_keys", "ON");
  migrate(db);
  {
    sqlite::Statement g(db,
                        "INSERT INTO games (id, title, ruleset, scenario_name, scenario_text, seed, seed_commitment, "
                        "created_unix, settings) VALUES (?1, 't', 'r', 's', 'x', x'00', 'c', 0, '')");
    for (int t = 0; t < kThreads; ++t) {
      auto use = g.use();
      g.bind_text(1, game_id(t));
      g.run();
    }
  }
  sqlite::Statement insert(db,
                           "INSERT INTO steps (game_id, seq, kind, payload, state_hash, created_unix) "
                           "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  // The same rows, interleaved across the games as the store sees them.
  std::vector<StepRecord> rows;
  rows.reserve(kSteps);
  for (std::uint64_t seq = 1; seq <= kStepsPerThread; ++seq) {
    for (int t = 0; t < kThreads; ++t) rows.push_back(step(game_id(t), seq));
  }
  const auto t0 = Clock::now();
  for (std::size_t i = 0; i < rows.size();) {
    sqlite::Transaction tx(db);
    for (std::size_t end = std::min(rows.size(), i + 256); i < end; ++i) {
      const StepRecord& s = rows[i];
      auto use = insert.use();
      insert.bind_text(1, s.game_id);
      insert.bind_int64(2, static_cast<std::int64_t>(s.seq));
      insert.bind_text(3, s.kind);
      insert.bind_blob(4, s.payload);
      insert.bind_int64(5, static_cast<std::int64_t>(s.state_hash));
      insert.bind_int64(6, s.created_unix);
      insert.run();
    }
    tx.commit();
  }
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

void BM_DurableAppend(benchmark::State& state) {
  double store_total = 0;
  double raw_total = 0;
  std::uint64_t commits_total = 0;
  for (auto _ : state) {
    TempDir dir;
    std::uint64_t commits = 0;
    const double store_s = store_run(dir.path() / "store.db", static_cast<std::uint32_t>(state.range(0)), commits);
    const double raw_s = raw_run(dir.path() / "raw.db");
    state.SetIterationTime(store_s);
    store_total += store_s;
    raw_total += raw_s;
    commits_total += commits;
  }
  const double n = static_cast<double>(state.iterations());
  state.counters["store_steps/s"] = static_cast<double>(kSteps) * n / store_total;
  state.counters["raw_steps/s"] = static_cast<double>(kSteps) * n / raw_total;
  state.counters["store_vs_raw"] = raw_total / store_total;  // store throughput / raw throughput
  state.counters["commits"] = static_cast<double>(commits_total) / n;
  state.SetItemsProcessed(static_cast<std::int64_t>(kSteps) * state.iterations());
}
BENCHMARK(BM_DurableAppend)->Arg(1000)->Arg(0)->UseManualTime()->Iterations(3)->Unit(benchmark::kMillisecond);

void BM_PacedAckLatency(benchmark::State& state) {
  constexpr std::uint64_t kCount = 1500;
  constexpr auto kInterval = std::chrono::microseconds(1000);
  std::vector<double> latencies_us;
  double seconds = 0;
  std::uint64_t commits = 0;
  for (auto _ : state) {
    TempDir dir;
    StoreOptions options;
    options.max_delay_us = static_cast<std::uint32_t>(state.range(0));
    auto store = open_store(dir.path() / "store.db", options);
    const auto commits_before = store->stats().transactions_committed;
    std::vector<double> lat(kCount);
    Latch acked(kCount);
    const auto t0 = Clock::now();
    for (std::uint64_t i = 0; i < kCount; ++i) {
      std::this_thread::sleep_until(t0 + i * kInterval);
      const auto sent = Clock::now();
      store->append_step(step(game_id(i % 4), i / 4 + 1), [&, i, sent](Status s) {
        lat[i] = s.ok() ? std::chrono::duration<double, std::micro>(Clock::now() - sent).count() : 1e12;
        acked.count_down();
      });
    }
    acked.wait();
    seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    commits += store->stats().transactions_committed - commits_before;
    latencies_us.insert(latencies_us.end(), lat.begin(), lat.end());
  }
  std::sort(latencies_us.begin(), latencies_us.end());
  auto pct = [&](double p) {
    return latencies_us[std::min(latencies_us.size() - 1, static_cast<std::size_t>(p * latencies_us.size()))];
  };
  state.counters["p50_us"] = pct(0.50);
  state.counters["p99_us"] = pct(0.99);
  state.counters["max_us"] = latencies_us.back();
  state.counters["rate/s"] = static_cast<double>(latencies_us.size()) / seconds;
  state.counters["commits"] = static_cast<double>(commits) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_PacedAckLatency)->Arg(1000)->Arg(0)->Iterations(1)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
