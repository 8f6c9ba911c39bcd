// Snapshots of a Malbrook game (rules/malbrook/snapshot.hpp): encode and
// restore times and sizes for the demo and Blenheim, at the start and after
// their recorded golden games (tests/rules/malbrook/golden: the demo to its
// end, Blenheim's first two turns), the states a store would snapshot.
//
// Restore is what loading pays instead of replaying the log: checksum, decode,
// the checks against the initial game, and the copy of its terrain.
// Counters: bytes (the snapshot's size), bytes_per_second.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "proto/codec/scenario_codec.hpp"
#include "rules/malbrook/engine.hpp"
#include "rules/malbrook/game.hpp"
#include "rules/malbrook/snapshot.hpp"
#include "tests/rules/malbrook/bot.hpp"
#include "tests/rules/malbrook/golden_files.hpp"

namespace galloper::rules::malbrook {
namespace {

struct Case {
  GameState initial;
  GameState state;
  std::vector<std::uint8_t> bytes;
};

GameState initial_of(const std::string& scenario, std::uint32_t bot_seed) {
  const auto* bundled = codec::find_bundled_scenario(scenario);
  if (bundled == nullptr) return {};
  auto loaded = codec::load_scenario(bundled->text, test::bot_seed(bot_seed));
  auto* game = std::get_if<codec::NewGame>(&loaded);
  if (game == nullptr) return {};
  return dynamic_cast<const MalbrookGame&>(*game->game).state();
}

// index 0: demo start, 1: demo at the end of its golden game,
// 2: Blenheim start, 3: Blenheim after its golden game's two turns.
const Case& case_of(int index) {
  static std::map<int, Case> cases;
  auto it = cases.find(index);
  if (it != cases.end()) return it->second;
  const bool blenheim = index >= 2;
  const bool played = index % 2 == 1;
  const auto golden =
      test::golden_read(test::read_text(test::golden_dir() / (blenheim ? "blenheim.golden" : "demo.golden")));
  Case c;
  c.initial = initial_of(blenheim ? "blenheim" : "demo", golden ? golden->seed : 1);
  c.state = c.initial;
  if (played && golden) {
    for (const auto& step : golden->steps) {
      if (finished(c.state)) break;
      KeyedDice dice(c.state.seed, c.state.step);
      auto r = resolve(c.state, step, dice);
      if (!r.ok()) break;
      c.state = std::move(r->next);
    }
  }
  c.bytes = encode_snapshot(c.state);
  return cases.emplace(index, std::move(c)).first->second;
}

const char* kNames[] = {"demo_start", "demo_end", "blenheim_start", "blenheim_turn2"};

void BM_SnapshotEncode(benchmark::State& st) {
  const Case& c = case_of(static_cast<int>(st.range(0)));
  st.SetLabel(kNames[st.range(0)]);
  for (auto _ : st) {
    auto bytes = encode_snapshot(c.state);
    benchmark::DoNotOptimize(bytes.data());
  }
  st.counters["bytes"] = static_cast<double>(c.bytes.size());
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations()) * static_cast<std::int64_t>(c.bytes.size()));
}
BENCHMARK(BM_SnapshotEncode)->DenseRange(0, 3)->Unit(benchmark::kMicrosecond);

void BM_SnapshotRestore(benchmark::State& st) {
  const Case& c = case_of(static_cast<int>(st.range(0)));
  st.SetLabel(kNames[st.range(0)]);
  for (auto _ : st) {
    auto restored = restore_snapshot(c.initial, c.bytes);
    if (!restored.ok()) {
      st.SkipWithError(restored.error().reason.c_str());
      break;
    }
    benchmark::DoNotOptimize(restored.value().step);
  }
  st.counters["bytes"] = static_cast<double>(c.bytes.size());
  st.SetBytesProcessed(static_cast<std::int64_t>(st.iterations()) * static_cast<std::int64_t>(c.bytes.size()));
}
BENCHMARK(BM_SnapshotRestore)->DenseRange(0, 3)->Unit(benchmark::kMicrosecond);

// For scale: copying the whole state, terrain included (what
// MalbrookGame::clone pays).
void BM_StateCopy(benchmark::State& st) {
  const Case& c = case_of(static_cast<int>(st.range(0)));
  st.SetLabel(kNames[st.range(0)]);
  for (auto _ : st) {
    GameState copy = c.state;
    benchmark::DoNotOptimize(copy.step);
  }
}
BENCHMARK(BM_StateCopy)->DenseRange(0, 3)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace galloper::rules::malbrook
