// What the fuzzers found, each held as a test that does not depend on the
// compiler: the corpus inputs index the states of a bot game, and those
// states are not the same in every build (docs/SECURITY.md, "Fuzzing").
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "rules/core/bytes.hpp"
#include "rules/core/decision.hpp"
#include "rules/malbrook/snapshot.hpp"
#include "rules/malbrook/types.hpp"
#include "tests/fuzz/bundled_games.hpp"

namespace galloper::fuzz {
namespace {

// answers: an order with a NaN angle passed the checks of a decision that
// takes no such number, and resolving put NaN into the next state, where
// turning it into a grid cell is undefined behaviour (found by UBSan).
// Then a distance of 1e223 overflowed the terrain grid's cell numbers while
// the move was checked.
TEST(FuzzFindings, OrdersWithNumbersNoTableHoldsAreRefused) {
  const double bad[] = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                        -std::numeric_limits<double>::infinity(), 1.14069e+223, -1e7};
  for (const auto& game : demo_states()) {
    for (const auto& d : game->pending()) {
      for (const double x : bad) {
        for (int field = 0; field < 4; ++field) {
          rules::Answer a;
          a.decision_id = d.id;
          a.seat = d.seat;
          a.option = d.options.empty() ? d.default_option : d.options.front().id;
          rules::OrderStep step;
          step.action = "forward";
          (field == 0 ? step.distance : field == 1 ? step.angle_deg : field == 2 ? step.to.x : step.to.y) = x;
          a.steps.push_back(step);
          const auto verdict = game->check(a);
          ASSERT_FALSE(verdict.ok()) << "step " << game->step() << " " << d.id << " field " << field;
          EXPECT_EQ(verdict.error().code, "bad_number");
        }
      }
    }
  }
}

}  // namespace
}  // namespace galloper::fuzz

namespace galloper::fuzz {
namespace {

// snapshot: a sealed body with a position of 1e228 restored, and the
// restored game's first pending() overflowed the terrain grid (UBSan). The
// decoder refuses numbers no table holds; every real state still restores.
TEST(FuzzFindings, SnapshotsWithNumbersNoTableHoldsAreRefused) {
  for (const auto& game : demo_states()) {
    EXPECT_TRUE(demo_game().from_snapshot(game->snapshot()).ok()) << "step " << game->step();
  }
  std::ifstream in(std::string(GALLOPER_FUZZ_CORPUS) + "/snapshot/huge-position", std::ios::binary);
  const std::vector<std::uint8_t> input{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  ASSERT_FALSE(input.empty());
  ASSERT_EQ(input[0] & 1, 1) << "a sealed body (snapshot_target.cpp)";
  auto w = rules::begin_snapshot(rules::malbrook::kRulesetName, rules::malbrook::kSnapshotFormat);
  w.raw(std::span<const std::uint8_t>(input).subspan(1));
  EXPECT_FALSE(demo_game().from_snapshot(rules::seal_snapshot(std::move(w))).ok());
}

}  // namespace
}  // namespace galloper::fuzz
