// The sheet's "Move Distances" and "Fatigue and Disorder" tables. Each row
// at its boundaries, and exact distributions over every face (an average
// die's six faces are 2, 3, 3, 4, 4, 5) against counts written out from the
// sheet.
#include <gtest/gtest.h>

#include <map>
#include <vector>

#include "rules/cfeo/move_tables.hpp"
#include "rules/core/dice.hpp"
#include "tests/rules/cfeo/enumerate.hpp"

namespace galloper::rules::cfeo::tables {
namespace {

using test::for_each_roll;
using test::kAvd;
using test::kD6;

// ---- Limits without dice ----

TEST(CfeoMoveDistances, MarchMoveLimits) {
  EXPECT_EQ(march_move_limit(Mover::kInfantry, false), 160);
  EXPECT_EQ(march_move_limit(Mover::kInfantry, true), 240);
  EXPECT_EQ(march_move_limit(Mover::kCavalry, false), 240);
  EXPECT_EQ(march_move_limit(Mover::kCavalry, true), 240);
  EXPECT_EQ(march_move_limit(Mover::kGuns, false), 160);  // T14: at infantry speed
  EXPECT_EQ(march_move_limit(Mover::kGuns, true), 240);
  EXPECT_EQ(kTacticalZone, 120);
  EXPECT_EQ(kTacticalRoadMove, 120);
}

TEST(CfeoMoveDistances, DetachedLeadersAndMessengers) {
  EXPECT_EQ(leader_move_limit(false), 120);
  EXPECT_EQ(leader_move_limit(true), 240);
}

// ---- Move dice ----

TEST(CfeoMoveDistances, TacticalDice) {
  for (Mover m : {Mover::kInfantry, Mover::kGuns}) {
    EXPECT_TRUE(tactical_dice_allowed(m, {1, false}));
    EXPECT_TRUE(tactical_dice_allowed(m, {1, true}));
    EXPECT_FALSE(tactical_dice_allowed(m, {2, false}));
    EXPECT_FALSE(tactical_dice_allowed(m, {0, true}));
  }
  EXPECT_TRUE(tactical_dice_allowed(Mover::kCavalry, {1, false}));
  EXPECT_TRUE(tactical_dice_allowed(Mover::kCavalry, {2, true}));
  EXPECT_FALSE(tactical_dice_allowed(Mover::kCavalry, {3, false}));
  EXPECT_FALSE(tactical_dice_allowed(Mover::kCavalry, {0, true}));
}

TEST(CfeoMoveDistances, FastMoveTakesMaximumDice) {
  EXPECT_EQ(fast_move_dice(Mover::kInfantry), (MoveDice{1, true}));
  EXPECT_EQ(fast_move_dice(Mover::kGuns), (MoveDice{1, true}));
  EXPECT_EQ(fast_move_dice(Mover::kCavalry), (MoveDice{2, true}));
}

TEST(CfeoMoveDistances, YardsFromTheDice) {
  using F = std::vector<int>;
  EXPECT_EQ(move_yards(F{3, 4}, false, false), 70);
  EXPECT_EQ(move_yards(F{3, 4}, true, false), 90);    // +10 each die, inspired
  EXPECT_EQ(move_yards(F{3, 4}, false, true), 90);    // +10 each die, initial fast move
  EXPECT_EQ(move_yards(F{3, 4}, true, true), 110);    // T15: both
  EXPECT_EQ(move_yards(F{5, 5, 6}, false, true), 190);
  EXPECT_EQ(move_yards(F{2}, false, false), 20);
  EXPECT_EQ(move_yards(F{}, true, true), 0);
}

TEST(CfeoMoveDistances, AverageDiceFirstThenTheD6) {
  FixedDice dice{5, 3, 6};
  const MoveRoll r = roll_move(dice, fast_move_dice(Mover::kCavalry), false, true);
  EXPECT_EQ(r.faces, (std::vector<int>{5, 3, 6}));
  EXPECT_EQ(r.yards, 170);
  ASSERT_EQ(dice.log().size(), 3u);
  EXPECT_EQ(dice.log()[0].kind, DieKind::kAverage);
  EXPECT_EQ(dice.log()[1].kind, DieKind::kAverage);
  EXPECT_EQ(dice.log()[2].kind, DieKind::kD6);
  FixedDice one{4};
  EXPECT_EQ(roll_move(one, {1, false}, true, false), (MoveRoll{{4}, 50}));
}

std::map<int, int> yard_counts(const std::vector<std::vector<int>>& dice, const MoveDice& which, bool inspired,
                               bool initial) {
  std::map<int, int> out;
  for_each_roll(dice, [&](const std::vector<int>& faces) {
    FixedDice d(faces);
    ++out[roll_move(d, which, inspired, initial).yards];
  });
  return out;
}

TEST(CfeoMoveDistances, ExactDistributions) {
  // 1 AvD + D6: pips 3..11 in 1, 3, 5, 6, 6, 6, 5, 3, 1 ways of 36.
  EXPECT_EQ(yard_counts({kAvd, kD6}, {1, true}, false, false),
            (std::map<int, int>{
                {30, 1}, {40, 3}, {50, 5}, {60, 6}, {70, 6}, {80, 6}, {90, 5}, {100, 3}, {110, 1}}));
  // The same, inspired: 20 yds more.
  EXPECT_EQ(yard_counts({kAvd, kD6}, {1, true}, true, false),
            (std::map<int, int>{
                {50, 1}, {60, 3}, {70, 5}, {80, 6}, {90, 6}, {100, 6}, {110, 5}, {120, 3}, {130, 1}}));
  // 2 AvD: pips 4..10 in 1, 4, 8, 10, 8, 4, 1 ways of 36.
  EXPECT_EQ(yard_counts({kAvd, kAvd}, {2, false}, false, false),
            (std::map<int, int>{{40, 1}, {50, 4}, {60, 8}, {70, 10}, {80, 8}, {90, 4}, {100, 1}}));
  // 1 AvD alone: 20, 30, 30, 40, 40, 50.
  EXPECT_EQ(yard_counts({kAvd}, {1, false}, false, false), (std::map<int, int>{{20, 1}, {30, 2}, {40, 2}, {50, 1}}));
}

// ---- Fatigue and Disorder ----

TEST(CfeoFatigue, Thresholds) {
  using F = MoveFormation;
  // No penalty in march column or unformed.
  for (Arm a : {Arm::kInfantry, Arm::kCavalry, Arm::kGuns}) {
    for (bool rough : {false, true}) {
      EXPECT_EQ(fatigue_threshold(a, F::kMarchColumn, rough), 7);
      EXPECT_EQ(fatigue_threshold(a, F::kUnformed, rough), 7);
    }
  }
  // Good terrain: 6 if in line or gun; nothing in assault column.
  EXPECT_EQ(fatigue_threshold(Arm::kInfantry, F::kLine, false), 6);
  EXPECT_EQ(fatigue_threshold(Arm::kCavalry, F::kLine, false), 6);
  EXPECT_EQ(fatigue_threshold(Arm::kGuns, F::kLine, false), 6);
  EXPECT_EQ(fatigue_threshold(Arm::kInfantry, F::kAssaultColumn, false), 7);
  // Rough: line 5-6; cavalry or gun 4 as well; assault column 6 only.
  EXPECT_EQ(fatigue_threshold(Arm::kInfantry, F::kLine, true), 5);
  EXPECT_EQ(fatigue_threshold(Arm::kCavalry, F::kLine, true), 4);
  EXPECT_EQ(fatigue_threshold(Arm::kGuns, F::kLine, true), 4);
  EXPECT_EQ(fatigue_threshold(Arm::kInfantry, F::kAssaultColumn, true), 6);
  // T16: formed cavalry are the cavalry row whatever their formation.
  EXPECT_EQ(fatigue_threshold(Arm::kCavalry, F::kAssaultColumn, true), 4);
  EXPECT_EQ(fatigue_threshold(Arm::kCavalry, F::kAssaultColumn, false), 6);
}

TEST(CfeoFatigue, OneDpForEachDieAtTheThreshold) {
  using F = std::vector<int>;
  EXPECT_EQ(fatigue_dps(F{5, 6}, Arm::kInfantry, MoveFormation::kLine, false), 1);
  EXPECT_EQ(fatigue_dps(F{4, 5}, Arm::kInfantry, MoveFormation::kLine, true), 1);
  EXPECT_EQ(fatigue_dps(F{5, 6}, Arm::kInfantry, MoveFormation::kLine, true), 2);
  EXPECT_EQ(fatigue_dps(F{3, 4}, Arm::kGuns, MoveFormation::kLine, true), 1);
  EXPECT_EQ(fatigue_dps(F{4, 4, 3}, Arm::kCavalry, MoveFormation::kLine, true), 2);
  EXPECT_EQ(fatigue_dps(F{5, 6}, Arm::kInfantry, MoveFormation::kAssaultColumn, true), 1);
  EXPECT_EQ(fatigue_dps(F{6}, Arm::kInfantry, MoveFormation::kAssaultColumn, false), 0);
  EXPECT_EQ(fatigue_dps(F{6, 6}, Arm::kInfantry, MoveFormation::kMarchColumn, true), 0);
  EXPECT_EQ(fatigue_dps(F{6, 6}, Arm::kCavalry, MoveFormation::kUnformed, true), 0);
}

std::map<int, int> fatigue_counts(const std::vector<std::vector<int>>& dice, const MoveDice& which, Arm arm,
                                  MoveFormation formation, bool rough) {
  std::map<int, int> out;
  for_each_roll(dice, [&](const std::vector<int>& faces) {
    FixedDice d(faces);
    ++out[fatigue_dps(roll_move(d, which, false, false).faces, arm, formation, rough)];
  });
  return out;
}

TEST(CfeoFatigue, ExactDistributions) {
  const std::vector<std::vector<int>> foot{kAvd, kD6};
  // Good terrain, line: only the D6 shows a 6: 30 none, 6 one.
  EXPECT_EQ(fatigue_counts(foot, {1, true}, Arm::kInfantry, MoveFormation::kLine, false),
            (std::map<int, int>{{0, 30}, {1, 6}}));
  // Rough, line: AvD 5 (1 of 6), D6 5-6 (2 of 6): 5x4 = 20, 1x4 + 5x2 = 14, 1x2 = 2.
  EXPECT_EQ(fatigue_counts(foot, {1, true}, Arm::kInfantry, MoveFormation::kLine, true),
            (std::map<int, int>{{0, 20}, {1, 14}, {2, 2}}));
  // Rough, assault column: a 6 only.
  EXPECT_EQ(fatigue_counts(foot, {1, true}, Arm::kInfantry, MoveFormation::kAssaultColumn, true),
            (std::map<int, int>{{0, 30}, {1, 6}}));
  // Rough, gun: 4-6 on either die, each 3 of 6: 9, 18, 9.
  EXPECT_EQ(fatigue_counts(foot, {1, true}, Arm::kGuns, MoveFormation::kLine, true),
            (std::map<int, int>{{0, 9}, {1, 18}, {2, 9}}));
  // Rough, cavalry on 2 AvD + D6: each die 4-6 half the time: 27, 81, 81, 27 of 216.
  EXPECT_EQ(fatigue_counts({kAvd, kAvd, kD6}, {2, true}, Arm::kCavalry, MoveFormation::kLine, true),
            (std::map<int, int>{{0, 27}, {1, 81}, {2, 81}, {3, 27}}));
  // March column: never.
  EXPECT_EQ(fatigue_counts(foot, {1, true}, Arm::kInfantry, MoveFormation::kMarchColumn, true),
            (std::map<int, int>{{0, 36}}));
}

}  // namespace
}  // namespace galloper::rules::cfeo::tables
