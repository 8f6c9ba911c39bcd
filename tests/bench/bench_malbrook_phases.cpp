// The Malbrook phases on a big battle: 120 brigades, 40 guns, 30 leaders, 60
// terrain features, built deterministically here. Measures the movement phase
// for a whole side (declarations with their dice, then every order checked
// and applied), the pending-decision lists, and the command phase's control
// determination; and a whole turn as a room plays it (BM_FullTurn).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "codec/view_codec.hpp"
#include "rules/core/dice.hpp"
#include "rules/malbrook/control.hpp"
#include "rules/malbrook/game.hpp"
#include "rules/malbrook/movement.hpp"
#include "rules/malbrook/sequence.hpp"
#include "rules/malbrook/state.hpp"
#include "tests/bench/bench_util.hpp"
#include "tests/rules/malbrook/bot.hpp"

namespace galloper::rules::malbrook {
namespace {

struct Lcg {
  std::uint64_t s;
  double next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(s >> 11) / static_cast<double>(1ull << 53);
  }
};

Feature feature(std::string id, TerrainKind kind, std::vector<Vec2> pts, bool closed) {
  Feature f;
  f.id = std::move(id);
  f.kind = kind;
  f.points = std::move(pts);
  f.closed = closed;
  return f;
}

std::vector<Vec2> box(Vec2 c, double rx, double ry) { return {c + Vec2{-rx, -ry}, c + Vec2{rx, -ry}, c + Vec2{rx, ry}, c + Vec2{-rx, ry}}; }

// Two armies of 60 brigades (3 wings x 4 commands x 5 brigades), 20 guns and
// 15 leaders each, 24" apart across a 144" x 72" table; terrain on the flanks
// and in no-man's land.
GameState big_battle() {
  Lcg g{42};
  GameState s;
  s.scenario = "bench";
  s.table_width = 144;
  s.table_depth = 72;
  for (int i = 0; i < 60; ++i) {
    const Vec2 c{4 + g.next() * 136, 30 + g.next() * 12};
    switch (i % 6) {
      case 0: s.features.push_back(feature("w" + std::to_string(i), TerrainKind::kWood, box(c, 2, 1.5), true)); break;
      case 1: s.features.push_back(feature("r" + std::to_string(i), TerrainKind::kRough, box(c, 3, 2), true)); break;
      case 2: s.features.push_back(feature("h" + std::to_string(i), TerrainKind::kHill, box(c, 4, 3), true)); break;
      case 3: s.features.push_back(feature("t" + std::to_string(i), TerrainKind::kTown, box(c, 1.5, 1.5), true)); break;
      case 4: s.features.push_back(feature("s" + std::to_string(i), TerrainKind::kStream, {c, c + Vec2{6, 1}}, false)); break;
      default: s.features.push_back(feature("hd" + std::to_string(i), TerrainKind::kHedge, {c, c + Vec2{4, 0}}, false)); break;
    }
  }
  s.terrain = make_terrain_map(s.features);
  for (int side = 0; side < 2; ++side) {
    const bool fr = side == 0;
    Army a;
    a.id = fr ? "fr" : "al";
    a.name = a.id;
    a.marshals = {a.id + "_m"};
    Leader m;
    m.id = a.id + "_m";
    m.army = a.id;
    m.rank = LeaderRank::kMarshal;
    m.position = {72, fr ? 2.0 : 70.0};
    m.facing_deg = fr ? 0 : 180;
    s.leaders.push_back(m);
    for (int w = 0; w < 3; ++w) {
      Wing wing;
      wing.id = "w" + std::to_string(w);
      wing.lieutenant_general = a.id + "_lg" + std::to_string(w);
      Leader lg = m;
      lg.id = wing.lieutenant_general;
      lg.rank = LeaderRank::kLieutenantGeneral;
      lg.wing = wing.id;
      lg.position = {24 + 48.0 * w, fr ? 4.0 : 68.0};
      s.leaders.push_back(lg);
      for (int c = 0; c < 4; ++c) {
        const int ci = w * 4 + c;
        Command cmd{a.id + "_c" + std::to_string(ci), "", a.id + "_mg" + std::to_string(ci)};
        wing.commands.push_back(cmd);
        Leader mg = lg;
        mg.id = cmd.major_general;
        mg.rank = LeaderRank::kMajorGeneral;
        mg.command = cmd.id;
        mg.position = {6 + 11.5 * ci + 5, fr ? 7.0 : 65.0};
        s.leaders.push_back(mg);
        for (int k = 0; k < 5; ++k) {
          Brigade b;
          b.id = a.id + "_b" + std::to_string(ci * 5 + k);
          b.army = a.id;
          b.wing = wing.id;
          b.command = cmd.id;
          b.type = (w == 0 || w == 2) && c == 0 ? TroopType::kHorse : TroopType::kFoot;
          b.bases = 3;
          b.formation = k == 4 ? Formation::kMarchColumn : Formation::kLine;
          const double x = 4 + 11.5 * ci + (k % 2) * 5.0 + (k == 4 ? 9 : 0);
          const double depth = (k / 2) * 3.5;
          b.position = {x, fr ? 22.0 - depth : 50.0 + depth};
          b.facing_deg = fr ? 0 : 180;
          b.control = ControlResult::kAsWished;
          s.brigades.push_back(b);
        }
      }
      a.wings.push_back(wing);
    }
    for (int i = 0; i < 20; ++i) {
      Gun gun;
      gun.id = a.id + "_g" + std::to_string(i);
      gun.army = a.id;
      gun.wing = "w" + std::to_string(i % 3);
      gun.weight = static_cast<GunWeight>(i % 3);
      gun.limbered = i % 4 == 0;
      gun.position = {3 + 7.0 * i, fr ? 26.0 : 46.0};
      gun.facing_deg = fr ? 0 : 180;
      s.guns.push_back(gun);
    }
    s.armies.push_back(a);
  }
  s.phase = Phase::kMovement;
  s.initiative = "fr";
  s.turn = 2;
  return s;
}

std::vector<Answer> declarations(const GameState& s) {
  std::vector<Answer> out;
  for (const auto& d : movement_pending(s)) {
    Answer a;
    a.decision_id = d.id;
    a.seat = d.seat;
    a.option = d.default_option;
    for (const auto& o : d.options) {
      if (o.id == "1+d6" || o.id == "2") a.option = o.id;
    }
    out.push_back(a);
  }
  return out;
}

// Forward the whole allowance where that is legal; otherwise halt.
std::vector<Answer> orders(const GameState& s) {
  std::vector<Answer> out;
  for (const auto& d : movement_pending(s)) {
    Answer a;
    a.decision_id = d.id;
    a.seat = d.seat;
    a.option = d.default_option;
    if (d.kind == "move") {
      double allowance = 0;
      for (const auto& [k, v] : d.limits) {
        if (k == "allowance") allowance = v;
      }
      Answer t = a;
      t.option.clear();
      OrderStep st;
      st.action = "forward";
      st.distance = allowance;
      t.steps = {st};
      if (allowance > 0 && movement_check(s, t)) a = t;
    }
    out.push_back(a);
  }
  return out;
}

struct Prepared {
  GameState start;
  std::vector<Answer> declare;
  GameState declared;
  std::vector<Answer> execute;
};

Prepared prepare() {
  Prepared p;
  p.start = big_battle();
  p.declare = declarations(p.start);
  p.declared = p.start;
  KeyedDice dice(Seed{}, 1);
  std::vector<Event> ev;
  if (!movement_resolve(p.declared, p.declare, dice, ev)) std::abort();
  p.execute = orders(p.declared);
  // Orders legal alone may still collide at the end: halt until they do not.
  for (int i = 0; i < 200; ++i) {
    GameState t = p.declared;
    KeyedDice d2(Seed{}, 2);
    auto v = movement_resolve(t, p.execute, d2, ev);
    if (v) break;
    for (auto& a : p.execute) {
      const std::string unit = a.decision_id.substr(a.decision_id.find('/') + 1);
      if (!a.steps.empty() && v.error().reason.find(unit) != std::string::npos) {
        a.steps.clear();
        a.option = "halt";
        break;
      }
    }
  }
  return p;
}

void BM_MovementPhaseFullSide(benchmark::State& state) {
  const Prepared p = prepare();
  std::size_t moved = 0;
  for (auto _ : state) {
    GameState s = p.start;
    std::vector<Event> ev;
    KeyedDice d1(Seed{}, 1);
    if (!movement_resolve(s, p.declare, d1, ev)) state.SkipWithError("declarations rejected");
    KeyedDice d2(Seed{}, 2);
    if (!movement_resolve(s, p.execute, d2, ev)) state.SkipWithError("orders rejected");
    moved = ev.size();
    benchmark::DoNotOptimize(s);
  }
  std::size_t orders_given = 0;
  for (const auto& a : p.execute) orders_given += a.steps.empty() ? 0 : 1;
  state.counters["orders"] = static_cast<double>(orders_given);
  state.counters["events"] = static_cast<double>(moved);
}
BENCHMARK(BM_MovementPhaseFullSide)->Unit(benchmark::kMillisecond);

void BM_MovementExecuteOnly(benchmark::State& state) {
  const Prepared p = prepare();
  for (auto _ : state) {
    GameState s = p.declared;
    std::vector<Event> ev;
    KeyedDice d2(Seed{}, 2);
    if (!movement_resolve(s, p.execute, d2, ev)) state.SkipWithError("orders rejected");
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_MovementExecuteOnly)->Unit(benchmark::kMillisecond);

void BM_MovementCheckOneOrder(benchmark::State& state) {
  const Prepared p = prepare();
  const Answer* one = nullptr;
  for (const auto& a : p.execute) {
    if (!a.steps.empty()) one = &a;
  }
  for (auto _ : state) {
    if (one != nullptr) benchmark::DoNotOptimize(movement_check(p.declared, *one));
  }
}
BENCHMARK(BM_MovementCheckOneOrder)->Unit(benchmark::kMicrosecond);

void BM_MovementPending(benchmark::State& state) {
  const GameState s = big_battle();
  for (auto _ : state) benchmark::DoNotOptimize(movement_pending(s));
}
BENCHMARK(BM_MovementPending)->Unit(benchmark::kMicrosecond);

void BM_CommandDetermineControl(benchmark::State& state) {
  const GameState start = big_battle();
  for (auto _ : state) {
    GameState s = start;
    s.phase = Phase::kCommand;
    determine_control(s);
    benchmark::DoNotOptimize(s);
  }
}
BENCHMARK(BM_CommandDetermineControl)->Unit(benchmark::kMillisecond);

// ---- A full turn as a room plays it ----
//
// BM_FullTurn/<turn>/<vision>: the big battle (8 player seats: 2 armies x (army + 3
// wings), and the umpire) from the start of turn 2 — initiative not yet
// settled — played by the library bot (tests/rules/malbrook/bot.hpp, seed 7)
// until the measured turn begins; that turn's answers are recorded (untimed).
// Timed: every step of that turn, from its initiative to the next turn's start
// (initiative, bombardment, command actions and control, movement, close
// fire, combat and after combat, morale — whatever of these has decisions
// for someone is a step, the rest runs on inside the steps), each step as the
// room does it: the pending decisions, every answer checked, the step
// resolved with its keyed dice, and for every seat the events it may learn
// of and its view, told as a change to the view it was last sent (as the
// room sends it), converted and serialized. Turn 2 opens with the lines 28"
// apart; by turn 4 they are closing. Counters: steps in the turn, seats,
// events, ms per step (mean), slowest step (wall), and the share of the
// time spent resolving (pending + check + resolve) against the views, and
// the StepResolved bytes sent to all seats per step.
//
// With GALLOPER_BENCH_STEPS set in the environment, each case also prints
// (to stderr) a line per step: the phase the step resolves, its resolution
// and its views in ms (wall, the mean of the passes), and each seat's units
// new or changed / gone -- where a turn's time goes, step by step.

struct TurnCase {
  std::unique_ptr<Game> first;                // the state the turn starts in
  std::vector<std::vector<Answer>> answers;   // per step of the turn
};

TurnCase record_turn(std::uint32_t measured_turn) {
  GameState s = big_battle();
  s.phase = Phase::kInitiative;
  s.initiative.clear();
  s.initiative_winner.clear();
  s.turn = 2;
  s.turn_limit = 50;
  s.seed = test::bot_seed(7);
  begin_turn(s);
  test::Bot bot(7);
  TurnCase out;
  for (int guard = 0; guard < 400 && !finished(s); ++guard) {
    if (s.turn > measured_turn) return out;
    std::vector<Answer> used;
    auto r = test::resolve_bot_step(s, bot.answers(s), &used);
    if (!r) throw std::runtime_error("bot step rejected: " + r.error().reason);
    if (s.turn == measured_turn) {
      if (!out.first) out.first = std::make_unique<MalbrookGame>(s);
      out.answers.push_back(used);
    }
    s = std::move(r->next);
  }
  throw std::runtime_error("the measured turn did not end");
}

void BM_FullTurn(benchmark::State& state) {
  TurnCase c;
  try {
    c = record_turn(static_cast<std::uint32_t>(state.range(0)));
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  // Vision: 0 side-shared (the room's default), 1 wing-only, set on the game
  // as a room does (GameOptions), so the engine works out each seat's sight.
  const bool wing_only = state.range(1) == 1;
  if (wing_only) c.first = c.first->with_options(GameOptions{.simultaneous = false, .seat_vision = true});
  const auto seats = c.first->seats();
  ViewSettings settings;
  settings.side_shared_vision = !wing_only;
  const Seed seed = static_cast<const MalbrookGame&>(*c.first).state().seed;
  // The views the seats hold when the turn starts (sent after the last step).
  const std::vector<View> held = bench::views_of(*c.first, seats, settings);
  std::vector<View> shown;
  std::size_t wire_bytes = 0;
  double slowest = 0;
  double resolving = 0;
  double total = 0;
  std::size_t events = 0;
  std::string bytes;
  const bool per_step = std::getenv("GALLOPER_BENCH_STEPS") != nullptr;
  struct StepRow {
    std::string phase;    // of the state the step starts in
    double resolve_ms = 0;  // summed over the passes
    double views_ms = 0;
    std::string changed;  // each seat's (the same every pass)
  };
  std::vector<StepRow> rows(per_step ? c.answers.size() : 0);
  for (auto _ : state) {
    state.PauseTiming();
    shown = held;
    state.ResumeTiming();
    std::unique_ptr<Game> game = c.first->clone();
    events = 0;
    for (std::size_t step = 0; step < c.answers.size(); ++step) {
      const auto& answers = c.answers[step];
      using Clock = std::chrono::steady_clock;
      if (per_step) rows[step].phase = game->phase();
      const auto started = Clock::now();
      benchmark::DoNotOptimize(game->pending());
      for (const auto& a : answers) {
        if (!game->check(a)) state.SkipWithError("a recorded answer is refused");
      }
      KeyedDice dice(seed, game->step());
      auto resolved = game->resolve(answers, dice);
      if (!resolved) {
        state.SkipWithError(resolved.error().reason.c_str());
        return;
      }
      const auto resolved_at = Clock::now();
      const Game& next = *resolved.value().next;
      if (per_step) rows[step].changed.clear();
      const std::size_t seen = bench::show_every_seat(next, resolved.value().events, seats, settings, shown, bytes,
                                                      wire_bytes, per_step ? &rows[step].changed : nullptr);
      benchmark::DoNotOptimize(seen);
      events += resolved.value().events.size();
      game = std::move(resolved.value().next);
      const auto done = Clock::now();
      const double ms = std::chrono::duration<double, std::milli>(done - started).count();
      const double resolve_ms = std::chrono::duration<double, std::milli>(resolved_at - started).count();
      if (per_step) {
        rows[step].resolve_ms += resolve_ms;
        rows[step].views_ms += ms - resolve_ms;
      }
      slowest = std::max(slowest, ms);
      total += ms;
      resolving += resolve_ms;
    }
    if (game->turn() != c.first->turn() + 1) state.SkipWithError("the turn did not end where recorded");
  }
  if (per_step && state.iterations() > 0) {
    // Google Benchmark runs a case a few times to find how many passes to
    // time: the last report printed is the timed run's.
    const double passes = static_cast<double>(state.iterations());
    std::fprintf(stderr, "BM_FullTurn/%lld/%lld, %lld passes, mean ms per step:\n",
                 static_cast<long long>(state.range(0)), static_cast<long long>(state.range(1)),
                 static_cast<long long>(state.iterations()));
    for (const auto& r : rows) {
      std::fprintf(stderr, "  %-12s resolve %6.3f  views %6.3f  changed/gone:%s\n", r.phase.c_str(),
                   r.resolve_ms / passes, r.views_ms / passes, r.changed.c_str());
    }
  }
  const double steps = static_cast<double>(c.answers.size());
  state.counters["steps"] = steps;
  state.counters["seats"] = static_cast<double>(seats.size());
  state.counters["events"] = static_cast<double>(events);
  state.counters["ms_per_step"] =
      state.iterations() > 0 ? total / (steps * static_cast<double>(state.iterations())) : 0.0;
  state.counters["max_step_ms"] = slowest;
  state.counters["resolve_share"] = total > 0 ? resolving / total : 0.0;
  // What the seats were sent: StepResolved bytes per step, all seats.
  state.counters["sent_kB_per_step"] =
      state.iterations() > 0 ? static_cast<double>(wire_bytes) / 1024.0 / (steps * static_cast<double>(state.iterations()))
                             : 0.0;
}
BENCHMARK(BM_FullTurn)->Args({2, 0})->Args({4, 0})->Args({2, 1})->Args({4, 1})->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace galloper::rules::malbrook
