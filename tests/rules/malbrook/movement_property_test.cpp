// Properties of the movement phase over many seeded random legal moves, made
// by a small random-move "bot": no two units overlap after any legal move;
// DPs stay within 0..max; the same seed and the same answers give the same
// state hash.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "rules/core/dice.hpp"
#include "rules/malbrook/basing.hpp"
#include "rules/malbrook/movement.hpp"
#include "tests/rules/malbrook/movement_helpers.hpp"

namespace galloper::rules::malbrook {
namespace {

using namespace test;

// std::mt19937's output is fixed by the standard (distributions are not), so
// draws use the raw output.
struct Rng {
  std::mt19937 g;
  explicit Rng(std::uint32_t seed) : g(seed) {}
  std::uint32_t below(std::uint32_t n) { return n == 0 ? 0 : static_cast<std::uint32_t>(g() % n); }
  double uniform(double lo, double hi) { return lo + (hi - lo) * (static_cast<double>(g()) / 4294967296.0); }
};

// A random battlefield: n brigades a side on a grid with random jitter, some
// cavalry, some columns, a wood and a stream. No overlaps at the start.
GameState random_state(std::uint32_t seed, int per_side) {
  Rng r(seed);
  GameState s = movement_state();
  s.brigades.clear();
  Feature wood;
  wood.id = "wood";
  wood.kind = TerrainKind::kWood;
  wood.points = {{30, 20}, {38, 20}, {38, 26}, {30, 26}};
  wood.closed = true;
  Feature stream;
  stream.id = "stream";
  stream.kind = TerrainKind::kStream;
  stream.points = {{0, 30}, {72, 33}};
  stream.major = r.below(2) == 0;
  s.features = {wood, stream};
  s.terrain = make_terrain_map(s.features);
  for (int side = 0; side < 2; ++side) {
    for (int i = 0; i < per_side; ++i) {
      const bool fr = side == 0;
      Brigade b = make_brigade((fr ? "fr_x" : "al_x") + std::to_string(i), fr ? "fr" : "al", fr ? "left" : "right",
                               fr ? (i % 2 ? "c1" : "c2") : "c3", {}, fr ? 0 : 180);
      const int col = i % 6;
      const int row = i / 6;
      b.position = {6 + col * 11 + r.uniform(-1, 1), fr ? 12 - row * 5.0 : 40 - row * 5.0 + 4};
      if (!fr) b.position.y = 36 + row * 5.0;
      b.bases = 3 + r.below(2);
      switch (r.below(5)) {
        case 0: b.type = TroopType::kHorse; break;
        case 1: b.formation = Formation::kMarchColumn; break;
        case 2: b.formation = Formation::kFieldColumn; break;
        default: break;
      }
      if (b.formation == Formation::kMarchColumn) b.position.y += fr ? 0 : -0.0;
      b.grade = static_cast<Grade>(r.below(5));
      b.dps = r.below(4);
      s.brigades.push_back(b);
    }
  }
  return s;
}

std::vector<std::string> option_ids(const Decision& d) {
  std::vector<std::string> out;
  for (const auto& o : d.options) out.push_back(o.id);
  return out;
}

// The movement bot: random declarations; for each order a few random tries
// (a wheel, a formation change, forward the rest), checked with
// movement_check; the fallback is to halt.
std::vector<Answer> bot_declarations(const GameState& s, Rng& r) {
  std::vector<Answer> out;
  for (const auto& d : movement_pending(s)) {
    const auto opts = option_ids(d);
    out.push_back(option_answer(d.id, d.seat, opts[r.below(static_cast<std::uint32_t>(opts.size()))]));
  }
  return out;
}

std::vector<OrderStep> random_order(const Decision& d, Rng& r) {
  double allowance = 0;
  for (const auto& [k, v] : d.limits) {
    if (k == "allowance") allowance = v;
  }
  std::vector<OrderStep> steps;
  if (allowance <= 0) {
    switch (r.below(4)) {
      case 0: steps.push_back(step_of("about_face")); break;
      case 1: steps.push_back(formation_step(r.below(2) ? "line" : "march column")); break;
      case 2: steps.push_back(step_of("step_back", r.uniform(0.2, 1))); break;
      default: break;
    }
    return steps;
  }
  double left = allowance;
  if (r.below(3) == 0) {
    const double angle = r.uniform(5, 30);
    OrderStep w = wheel_step(r.below(2) ? angle : -angle, r.below(2) ? "left" : "right");
    steps.push_back(w);
    left = -1;  // unknown width: let forward try a few lengths
  }
  const double dev = r.uniform(-22.5, 22.5);
  if (left > 0) {
    steps.push_back(fwd(left, dev));
  } else {
    steps.push_back(fwd(allowance * r.uniform(0.3, 0.9), dev));
  }
  return steps;
}

std::vector<Answer> bot_orders(const GameState& s, Rng& r) {
  std::vector<Answer> out;
  for (const auto& d : movement_pending(s)) {
    Answer a = option_answer(d.id, d.seat, d.default_option);
    if (d.kind == "move") {
      for (int attempt = 0; attempt < 4; ++attempt) {
        Answer t = steps_answer(d.id, d.seat, random_order(d, r));
        if (movement_check(s, t)) {
          a = t;
          break;
        }
      }
    } else if (d.kind == "leader_move" && r.below(2) == 0) {
      const Leader* l = s.find_leader(d.subjects.front());
      Answer t = steps_answer(d.id, d.seat, {move_to(l->position + Vec2{r.uniform(-3, 3), r.uniform(0, 4)})});
      if (movement_check(s, t)) a = t;
    }
    out.push_back(std::move(a));
  }
  return out;
}

// Resolves; if moves that were each legal alone collide at the end, the bot
// halts one of them and tries again.
GameState resolve_with_fallback(const GameState& s, std::vector<Answer> answers, std::uint64_t seed_step) {
  for (int tries = 0; tries < 64; ++tries) {
    GameState next = s;
    KeyedDice dice(Seed{}, seed_step);
    std::vector<Event> ev;
    auto v = movement_resolve(next, answers, dice, ev);
    if (v) return next;
    // Halt the first answer the rejection names.
    bool changed = false;
    for (auto& a : answers) {
      const std::string unit = a.decision_id.substr(a.decision_id.find('/') + 1);
      if (!a.steps.empty() && v.error().reason.find(unit) != std::string::npos) {
        a.steps.clear();
        a.option = "halt";
        changed = true;
        break;
      }
    }
    EXPECT_TRUE(changed) << v.error().reason;
    if (!changed) break;
  }
  return s;
}

bool any_overlap(const GameState& s, std::string* which) {
  std::vector<std::pair<std::string, OrientedRect>> bodies;
  for (const auto& b : s.brigades) bodies.emplace_back(b.id, pose_envelope(pose_of(b)));
  for (const auto& g : s.guns) bodies.emplace_back(g.id, pose_envelope(pose_of(g)));
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    for (std::size_t j = i + 1; j < bodies.size(); ++j) {
      // Within a thousandth of an inch is contact, not overlap (the
      // engine's tolerance, RULINGS M18).
      if (overlaps(bodies[i].second, bodies[j].second, 1e-3)) {
        *which = bodies[i].first + " / " + bodies[j].first;
        return true;
      }
    }
  }
  return false;
}

TEST(MovementProperty, RandomLegalMovesNeverOverlapAndKeepDpsInRange) {
  int moved = 0;
  for (std::uint32_t seed = 1; seed <= 24; ++seed) {
    GameState s = random_state(seed, 12);
    std::string which;
    ASSERT_FALSE(any_overlap(s, &which)) << "seed " << seed << " starts overlapping: " << which;
    Rng r(seed * 7919u);
    for (int half = 0; half < 4; ++half) {
      s.half = static_cast<std::uint32_t>(half % 2);
      s.turn = 1 + static_cast<std::uint32_t>(half / 2);
      std::map<std::string, std::uint32_t> dps_before;
      for (const auto& b : s.brigades) dps_before[b.id] = b.dps;
      s = resolve_with_fallback(s, bot_declarations(s, r), static_cast<std::uint64_t>(half) * 2);
      s = resolve_with_fallback(s, bot_orders(s, r), static_cast<std::uint64_t>(half) * 2 + 1);
      if (!movement_pending(s).empty()) s = resolve_with_fallback(s, default_answers(movement_pending(s)), 99);
      ASSERT_FALSE(any_overlap(s, &which)) << "seed " << seed << " half " << half << ": " << which;
      for (const auto& b : s.brigades) {
        if (b.has(Status::kMoved)) ++moved;
        const std::uint32_t before = dps_before.count(b.id) ? dps_before[b.id] : 0;
        EXPECT_LE(b.dps, std::max<std::uint32_t>(before, kMovementDpCap)) << b.id;
        EXPECT_GE(b.dps, before) << b.id;
      }
      for (auto& b : s.brigades) b.status &= ~static_cast<std::uint32_t>(Status::kMoved);
    }
  }
  EXPECT_GT(moved, 60);  // the bot really moves things
}

TEST(MovementProperty, SameSeedAndAnswersGiveTheSameHash) {
  for (std::uint32_t seed = 1; seed <= 10; ++seed) {
    StateHash first = 0;
    for (int run = 0; run < 2; ++run) {
      GameState s = random_state(seed, 10);
      Rng r(seed);
      s = resolve_with_fallback(s, bot_declarations(s, r), 1);
      s = resolve_with_fallback(s, bot_orders(s, r), 2);
      if (run == 0) first = state_hash(s);
      else EXPECT_EQ(state_hash(s), first) << "seed " << seed;
    }
  }
}

TEST(MovementProperty, RejectedAnswersChangeNothing) {
  GameState s = random_state(3, 8);
  Rng r(3);
  s = resolve_with_fallback(s, bot_declarations(s, r), 1);
  const StateHash h = state_hash(s);
  for (const auto& d : movement_pending(s)) {
    if (d.kind != "move") continue;
    EXPECT_FALSE(movement_check(s, steps_answer(d.id, d.seat, {fwd(1000)})));
  }
  EXPECT_EQ(state_hash(s), h);
}

}  // namespace
}  // namespace galloper::rules::malbrook
