// Visibility for every seat of a big battle: 120 brigades, 40 guns, 30
// leaders, 60 terrain features, 8 seats (per side: the army and three wings).
// The requirement is <= 1 ms for all seats together in a Release build.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "rules/core/visibility.hpp"

namespace galloper::rules {
namespace {

struct Lcg {
  std::uint64_t s;
  double next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(s >> 11) / static_cast<double>(1ull << 53);
  }
};

Polygon blob(Lcg& g, Vec2 c, double rx, double ry) {
  // A convex-ish irregular outline with 8 vertices.
  Polygon p;
  for (int i = 0; i < 8; ++i) {
    const double a = i * 45.0 + g.next() * 10;
    const double k = 0.8 + g.next() * 0.4;
    p.points.push_back(c + Vec2{rx * k * facing_unit(a).x, ry * k * facing_unit(a).y});
  }
  return p;
}

TerrainMap battlefield(Lcg& g) {
  std::vector<Hill> hills;
  std::vector<Area> areas;
  std::vector<Linear> linears;
  for (int i = 0; i < 15; ++i) {
    const Vec2 c{g.next() * 96, g.next() * 72};
    hills.push_back({"hill" + std::to_string(i), blob(g, c, 6 + g.next() * 6, 4 + g.next() * 4), 1, i % 3 == 0, i % 5 == 0});
    if (i % 3 == 0) hills.push_back({"top" + std::to_string(i), blob(g, c, 3, 2), 2, true, true});
  }
  for (int i = 0; i < 27; ++i) {
    const Vec2 c{g.next() * 96, g.next() * 72};
    const AreaKind kind = i < 12 ? AreaKind::kWood : i < 19 ? AreaKind::kTown : i < 23 ? AreaKind::kMarsh : AreaKind::kRough;
    areas.push_back({"area" + std::to_string(i), kind, blob(g, c, 2 + g.next() * 4, 2 + g.next() * 3)});
  }
  for (int i = 0; i < 13; ++i) {
    Polyline l;
    Vec2 p{g.next() * 96, g.next() * 72};
    for (int k = 0; k < 6; ++k) {
      l.points.push_back(p);
      p = p + Vec2{g.next() * 10 - 5, g.next() * 10 - 5};
    }
    const LinearKind kind = static_cast<LinearKind>(i % 9);
    linears.push_back({"lin" + std::to_string(i), kind, l, kind == LinearKind::kRoad ? 1.0 : 0.3, i % 2 == 0, false});
  }
  return TerrainMap(std::move(hills), std::move(areas), std::move(linears), {});
}

void place(SceneObject& o, const TerrainMap& t) {
  const Vec2 c = o.bases[0].center;
  if (const Hill* h = t.top_hill_at(c)) {
    o.elevation = h->elevation;
    o.significantly_high = h->significantly_high;
  }
  const Polygon env = envelope(o.bases, o.bases[0].facing_deg).polygon();
  o.at_cover_edge = t.at_edge_of(env, AreaKind::kWood, 1) != nullptr || t.at_edge_of(env, AreaKind::kTown, 1) != nullptr;
}

// Two armies facing each other across the middle of an 8' x 6' table, each
// in three wings of two or three lines, with guns in front and leaders behind.
Scene battle(const TerrainMap& t, Lcg& g, bool side_shared) {
  Scene s;
  std::uint32_t id = 0;
  for (int side = 0; side < 2; ++side) {
    const double facing = side == 0 ? 0 : 180;
    const double dir = side == 0 ? 1 : -1;
    const double front_y = 36 - dir * 7;  // fronts 14" apart
    const SeatMask army_bit = SeatMask{1} << (side * 4);
    const SeatMask side_bits = SeatMask{0xF} << (side * 4);
    auto seats_of = [&](int wing) { return side_shared ? side_bits : (army_bit | SeatMask{1} << (side * 4 + 1 + wing)); };
    // 60 brigades: 20 per line, 3 lines, 4.6" apart along the front.
    for (int line = 0; line < 3; ++line) {
      for (int k = 0; k < 20; ++k) {
        const int wing = k / 7 > 2 ? 2 : k / 7;
        const double x = 3 + k * 4.6 + (line % 2) * 1.5;
        const double y = front_y - dir * (line * 4.5);
        SceneObject o;
        o.id = id++;
        const double r = g.next();
        if (r < 0.1) {
          o.kind = SceneKind::kUnformed;
          for (int b = 0; b < 3; ++b) o.bases.push_back(OrientedRect{{x - 1.5 + b * 1.5, y - dir * 0.6}, 1, 1.25, facing});
        } else if (r < 0.25) {
          o.kind = SceneKind::kFormed;  // field column
          o.bases = layout_ranks({x, y}, facing, 1, 1, 4, 2);
        } else {
          o.kind = SceneKind::kFormed;  // line
          o.bases = layout_ranks({x, y}, facing, 1, 1, 4, 4);
        }
        o.observer_for = seats_of(wing);
        place(o, t);
        s.objects.push_back(std::move(o));
      }
    }
    for (int k = 0; k < 20; ++k) {
      SceneObject o;
      o.id = id++;
      o.kind = SceneKind::kGun;
      o.bases = {OrientedRect::from_front_mid({5 + k * 4.6, front_y + dir * 2}, 1.5, 1, facing)};
      o.shot_this_turn = g.next() < 0.3;
      o.observer_for = seats_of(k / 7 > 2 ? 2 : k / 7);
      place(o, t);
      s.objects.push_back(std::move(o));
    }
    for (int k = 0; k < 15; ++k) {
      SceneObject o;
      o.id = id++;
      o.kind = SceneKind::kLeader;
      o.bases = {OrientedRect::from_front_mid({4 + k * 6.2, front_y - dir * (11 + g.next() * 4)}, 0.75, 0.75, facing)};
      o.observer_for = seats_of(k / 5);
      place(o, t);
      s.objects.push_back(std::move(o));
    }
  }
  return s;
}

VisibilityRules malbrook_numbers() {
  VisibilityRules r;
  r.open_range = 36;
  r.elevated_range = 48;
  r.cover_range = 2;
  r.cover_edge_seen_range = 2;
  r.cover_edge_depth = 1;
  r.see_over_min_distance = 2;
  r.unformed_see_beyond = 2;
  return r;
}

void run(benchmark::State& state, bool side_shared) {
  Lcg g{20260521};
  const TerrainMap terrain = battlefield(g);
  const Scene scene = battle(terrain, g, side_shared);
  const VisibilityRules rules = malbrook_numbers();
  VisibilityEngine engine;
  std::size_t seen = 0;
  for (auto _ : state) {
    const auto& masks = engine.compute(scene, terrain, rules);
    benchmark::DoNotOptimize(masks.data());
    seen = 0;
    for (SeatMask m : masks) seen += static_cast<std::size_t>(__builtin_popcountll(m));
  }
  state.counters["objects"] = static_cast<double>(scene.objects.size());
  state.counters["terrain"] = static_cast<double>(terrain.hills().size() + terrain.areas().size() + terrain.linears().size());
  state.counters["seat_sightings"] = static_cast<double>(seen);
}

void BM_VisibilityAllSeats_WingVision(benchmark::State& state) { run(state, false); }
void BM_VisibilityAllSeats_SideSharedVision(benchmark::State& state) { run(state, true); }

// BM_VisibilityNextStep/<moved>/<vision>[/<chained>]: a step's table worked
// out from the last one (VisibilityEngine::compute_from), as a game does
// after each step: `moved` pieces (drawn at random, the same each run) moved
// up to 2" or, for guns, fired; vision 0 side-shared, 1 wing-only. chained 0
// (the default): every run from the same last table, whose prepared objects
// the engine no longer holds; 1: each run from the table the run before
// worked out, by the same engine, as a game's tables follow one another (the
// scene goes back and forth between the two sets of places). Counter
// from_last: 1 if the engine started from the last table (0: it fell back to
// a whole compute).
void BM_VisibilityNextStep(benchmark::State& state) {
  const int moved = static_cast<int>(state.range(0));
  const bool side_shared = state.range(1) == 0;
  const bool chained = state.range(2) == 1;
  Lcg g{20260521};
  const TerrainMap terrain = battlefield(g);
  const Scene scene = battle(terrain, g, side_shared);
  const VisibilityRules rules = malbrook_numbers();
  VisibilityEngine engine;
  SightRecord last;
  engine.compute(scene, terrain, rules, &last);
  Scene next = scene;
  for (int k = 0; k < moved; ++k) {
    SceneObject& o = next.objects[static_cast<std::size_t>(g.next() * static_cast<double>(next.objects.size()))];
    if (o.kind == SceneKind::kGun && g.next() < 0.5) {
      o.shot_this_turn = !o.shot_this_turn;
    } else {
      const Vec2 d{g.next() * 4 - 2, g.next() * 4 - 2};
      for (auto& b : o.bases) b.center = b.center + d;
    }
  }
  std::vector<std::uint32_t> index(scene.objects.size());
  for (std::size_t i = 0; i < index.size(); ++i) index[i] = static_cast<std::uint32_t>(i);
  if (chained) {
    SightRecord records[2];
    engine.compute(scene, terrain, rules, &records[0]);
    const Scene* scenes[2] = {&scene, &next};
    std::size_t at = 0;
    for (auto _ : state) {
      const auto& masks = engine.compute_from(records[at], index, *scenes[1 - at], terrain, rules, &records[1 - at]);
      benchmark::DoNotOptimize(masks.data());
      at = 1 - at;
    }
  } else {
    for (auto _ : state) {
      const auto& masks = engine.compute_from(last, index, next, terrain, rules);
      benchmark::DoNotOptimize(masks.data());
    }
  }
  state.counters["from_last"] = engine.started_from_last() ? 1 : 0;
}

BENCHMARK(BM_VisibilityAllSeats_WingVision)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_VisibilityAllSeats_SideSharedVision)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_VisibilityNextStep)
    ->Args({0, 0, 0})
    ->Args({4, 0, 0})
    ->Args({12, 0, 0})
    ->Args({24, 0, 0})
    ->Args({12, 1, 0})
    ->Args({4, 0, 1})
    ->Args({12, 0, 1})
    ->Args({24, 0, 1})
    ->Args({12, 1, 1})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace galloper::rules
