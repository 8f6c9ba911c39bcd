// The real dice against the exact tables: 10^5 shots of KeyedDice, each at its
// own step (as in a game), chi-square against odds.hpp. The seed is fixed, so
// the test is deterministic; the thresholds are the 0.1% critical values.
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "rules/core/dice.hpp"
#include "rules/malbrook/artillery.hpp"
#include "rules/malbrook/damage.hpp"
#include "rules/malbrook/odds.hpp"

namespace galloper::rules::malbrook {
namespace {

constexpr int kRolls = 100000;

Seed test_seed(std::uint8_t salt) {
  Seed s{};
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<std::uint8_t>(i * 37 + salt);
  return s;
}

// Critical values of chi-square at p = 0.001 for 1..8 degrees of freedom.
double critical(int dof) {
  constexpr std::array<double, 8> k{10.828, 13.816, 16.266, 18.467, 20.515, 22.458, 24.322, 26.124};
  return k[static_cast<std::size_t>(dof - 1)];
}

// Pearson's statistic over the cells with non-zero expected probability;
// a cell with zero probability must never be observed.
void expect_fits(const std::vector<long>& observed, const std::vector<double>& p, const char* what) {
  double chi2 = 0;
  int cells = 0;
  for (std::size_t i = 0; i < observed.size(); ++i) {
    if (p[i] == 0) {
      EXPECT_EQ(observed[i], 0) << what << ": impossible cell " << i << " observed";
      continue;
    }
    const double e = p[i] * kRolls;
    chi2 += (observed[i] - e) * (observed[i] - e) / e;
    ++cells;
  }
  ASSERT_GE(cells, 2) << what;
  EXPECT_LT(chi2, critical(cells - 1)) << what << ": chi2 " << chi2 << " with " << cells - 1 << " dof";
}

void direct_fire_fits(int modifier, RangeBand band, std::uint8_t salt) {
  const Seed seed = test_seed(salt);
  std::vector<long> observed(4, 0);
  for (int i = 0; i < kRolls; ++i) {
    KeyedDice dice(seed, static_cast<std::uint64_t>(i));
    ++observed[static_cast<std::size_t>(roll_direct_fire(dice, modifier, band))];
  }
  const ShotOdds o = direct_fire_odds(modifier, band);
  std::vector<double> p;
  for (const auto& f : o.p) p.push_back(f.value());
  expect_fits(observed, p, "direct fire");
}

TEST(ArtilleryStats, DirectFireCloseRange) { direct_fire_fits(0, RangeBand::kClose, 1); }
TEST(ArtilleryStats, DirectFireCloseRangeMinusTwo) { direct_fire_fits(-2, RangeBand::kClose, 2); }
TEST(ArtilleryStats, DirectFireEffectiveRange) { direct_fire_fits(0, RangeBand::kEffective, 3); }
TEST(ArtilleryStats, DirectFireBeyondEffective) { direct_fire_fits(-1, RangeBand::kBeyond, 4); }

TEST(ArtilleryStats, IndirectFireScatter) {
  const Seed seed = test_seed(5);
  std::vector<long> observed(7, 0);  // 0: on target; k: off by k x 1/2"
  std::vector<long> quadrant(4, 0);  // the bearing, in quarters
  long off = 0;
  for (int i = 0; i < kRolls; ++i) {
    KeyedDice dice(seed, static_cast<std::uint64_t>(i));
    const IndirectShot s = roll_indirect_fire(dice, {0, 0});
    if (s.scatter.on_target) {
      ++observed[0];
    } else {
      ++observed[static_cast<std::size_t>(s.distance_die)];
      ++quadrant[static_cast<std::size_t>(s.scatter.bearing_deg / 90)];
      ++off;
    }
  }
  const IndirectOdds o = indirect_fire_odds();
  std::vector<double> p{o.on_target.value()};
  for (const auto& f : o.off_by) p.push_back(f.value());
  expect_fits(observed, p, "indirect fire");
  // Bearings uniform: each quarter a quarter of the off-target shots.
  double chi2 = 0;
  for (long q : quadrant) {
    const double e = off / 4.0;
    chi2 += (q - e) * (q - e) / e;
  }
  EXPECT_LT(chi2, critical(3)) << "bearing quadrants";
}

void leader_risk_fits(int hit_faces, std::uint32_t wounds, std::uint8_t salt) {
  const Seed seed = test_seed(salt);
  std::vector<long> observed(4, 0);
  for (int i = 0; i < kRolls; ++i) {
    KeyedDice dice(seed, static_cast<std::uint64_t>(i));
    const int first = dice.d6();
    const bool hit = hit_faces == 1 ? first == 1 : first >= 5;
    const LeaderFate f = hit ? leader_hit_result(dice.d6(), wounds) : LeaderFate::kUnhurt;
    ++observed[static_cast<std::size_t>(f)];
  }
  const LeaderRiskOdds o = leader_risk_odds(hit_faces, wounds);
  std::vector<double> p;
  for (const auto& f : o.p) p.push_back(f.value());
  expect_fits(observed, p, "leader risk");
}

TEST(ArtilleryStats, RiskToAttachedLeaders) { leader_risk_fits(1, 0, 6); }
TEST(ArtilleryStats, RiskToAWoundedLeader) { leader_risk_fits(1, 1, 7); }
TEST(ArtilleryStats, LoneLeaderFiredOnByFoot) { leader_risk_fits(2, 0, 8); }

// The same through the engine's own function: risk_to_attached_leaders.
TEST(ArtilleryStats, RiskFunctionUsesTheTable) {
  const Seed seed = test_seed(9);
  std::vector<long> observed(4, 0);
  GameState s;
  s.brigades.resize(1);
  s.brigades[0].id = "b";
  s.brigades[0].bases = 4;
  s.leaders.resize(1);
  s.leaders[0].id = "l";
  s.leaders[0].attached_to = "b";
  for (int i = 0; i < kRolls; ++i) {
    GameState t = s;
    KeyedDice dice(seed, static_cast<std::uint64_t>(i));
    std::vector<Event> ev;
    risk_to_attached_leaders(t, t.brigades[0], RiskCause::kFire, dice, ev);
    const Leader& l = t.leaders[0];
    LeaderFate f = LeaderFate::kUnhurt;
    if (l.killed) {
      f = LeaderFate::kKilled;
    } else if (l.wounds > 0) {
      f = LeaderFate::kWounded;
    } else if (!ev.empty() && ev.back().dice.size() == 2) {
      f = LeaderFate::kNearMiss;
    }
    ++observed[static_cast<std::size_t>(f)];
  }
  const LeaderRiskOdds o = leader_risk_odds(1, 0);
  std::vector<double> p;
  for (const auto& f : o.p) p.push_back(f.value());
  expect_fits(observed, p, "risk_to_attached_leaders");
}

}  // namespace
}  // namespace galloper::rules::malbrook
