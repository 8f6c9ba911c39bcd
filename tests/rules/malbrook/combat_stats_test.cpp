// The engine's combat dice against the exact distribution (STYLE.md: "the
// engine's outcome distributions checked against exact probabilities"):
// 10^5 resolutions with KeyedDice, a chi-square test on the bands.
#include <gtest/gtest.h>

#include <array>

#include "rules/core/dice.hpp"
#include "rules/malbrook/combat.hpp"
#include "rules/malbrook/odds.hpp"
#include "tests/rules/malbrook/combat_helpers.hpp"

namespace galloper::rules::malbrook {
namespace {

using test::brigade;
using test::combat_state;
using test::unit;

TEST(CombatStats, BandsMatchTheExactOddsChiSquare) {
  // A real assessed combat: A-grade foot (4 bases +2: 6 dice) against B-grade
  // foot with a DP (4 bases +1 -1: 4 dice), both hitting on 5-6.
  GameState s = combat_state({unit("fr_b1", "fr", TroopType::kFoot, {16, 10}, 0),
                              unit("al_b1", "al", TroopType::kFoot, {16, 10.5}, 180)});
  brigade(s, "fr_b1").grade = Grade::kA;
  brigade(s, "al_b1").grade = Grade::kB;
  brigade(s, "al_b1").dps = 1;
  const auto assessed = assess_combat_of(s, "fr_b1");
  ASSERT_TRUE(assessed.has_value());
  const CombatOdds odds = combat_odds(*assessed);
  ASSERT_FALSE(odds.exact.empty());

  constexpr int kRuns = 100000;
  Seed seed{};
  for (std::size_t i = 0; i < seed.size(); ++i) seed[i] = static_cast<std::uint8_t>(31 * i + 7);
  std::array<int, kCombatBandCount> seen{};
  for (int i = 0; i < kRuns; ++i) {
    CombatResult r = *assessed;
    KeyedDice dice(seed, static_cast<std::uint64_t>(i));
    roll_combat(r, dice);
    ASSERT_EQ(r.band_a, combat_band(r.difference));
    ++seen[static_cast<std::size_t>(r.band_a)];
  }
  // Pool bands expected fewer than 5 times into their neighbour.
  double chi2 = 0;
  int cells = 0;
  double pooled_expected = 0;
  double pooled_seen = 0;
  for (std::size_t b = 0; b < seen.size(); ++b) {
    pooled_expected += odds.band_a_exact[b].value() * kRuns;
    pooled_seen += seen[b];
    if (pooled_expected >= 5) {
      chi2 += (pooled_seen - pooled_expected) * (pooled_seen - pooled_expected) / pooled_expected;
      ++cells;
      pooled_expected = 0;
      pooled_seen = 0;
    }
  }
  if (pooled_expected > 0) chi2 += (pooled_seen - pooled_expected) * (pooled_seen - pooled_expected) / std::max(pooled_expected, 1e-9);
  ASSERT_GE(cells, 3);
  // 99.9th percentile of chi-square with up to 6 degrees of freedom: 22.46.
  EXPECT_LT(chi2, 22.46) << "cells " << cells;
}

}  // namespace
}  // namespace galloper::rules::malbrook
