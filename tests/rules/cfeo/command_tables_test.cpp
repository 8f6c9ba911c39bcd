// The sheet's command and morale tables: Control Test, Risk to Leader,
// Morale DPs, Redress Ranks, Maximum DPs. Each row at its boundaries, and
// exact distributions over every face against counts written out from the
// sheet.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rules/cfeo/command_tables.hpp"
#include "rules/core/dice.hpp"
#include "tests/rules/cfeo/enumerate.hpp"

namespace galloper::rules::cfeo::tables {
namespace {

using test::d6s;
using test::for_each_roll;

// ---- Control Test ----

// T13: each +/-1 is the player's to take or leave, and only where it applies.
TEST(CfeoControlTest, OptionalModifiers) {
  const ControlTestTerms none{false, false};
  EXPECT_EQ(control_test_modifier(none, {0, 0}), 0);
  EXPECT_EQ(control_test_modifier(none, {1, 0}), std::nullopt);
  EXPECT_EQ(control_test_modifier(none, {0, -1}), std::nullopt);
  const ControlTestTerms leader{true, false};
  EXPECT_EQ(control_test_modifier(leader, {1, 0}), 1);
  EXPECT_EQ(control_test_modifier(leader, {-1, 0}), -1);
  EXPECT_EQ(control_test_modifier(leader, {0, 0}), 0);
  EXPECT_EQ(control_test_modifier(leader, {2, 0}), std::nullopt);
  EXPECT_EQ(control_test_modifier(leader, {0, 1}), std::nullopt);
  const ControlTestTerms grade{false, true};
  EXPECT_EQ(control_test_modifier(grade, {0, -1}), -1);
  EXPECT_EQ(control_test_modifier(grade, {1, 0}), std::nullopt);
  const ControlTestTerms both{true, true};
  EXPECT_EQ(control_test_modifier(both, {1, 1}), 2);
  EXPECT_EQ(control_test_modifier(both, {-1, -1}), -2);
  EXPECT_EQ(control_test_modifier(both, {1, -1}), 0);
  EXPECT_EQ(control_test_modifier(both, {-2, 0}), std::nullopt);
}

TEST(CfeoControlTest, ResultRows) {
  for (int t : {-1, 0, 1, 2}) EXPECT_EQ(control_test_result(t, false), ControlResult::kHalt) << t;
  for (int t : {3, 4}) EXPECT_EQ(control_test_result(t, false), ControlResult::kAsWished) << t;
  for (int t : {5, 6, 8}) EXPECT_EQ(control_test_result(t, false), ControlResult::kRepeatLastMove) << t;
  // "Continue rout/pursuit/loot/charge unless 3-4 result."
  for (int t : {-1, 2, 5, 8}) EXPECT_EQ(control_test_result(t, true), ControlResult::kContinue) << t;
  for (int t : {3, 4}) EXPECT_EQ(control_test_result(t, true), ControlResult::kAsWished) << t;
}

TEST(CfeoControlTest, OneDieAndTheChosenModifier) {
  FixedDice dice{4};
  EXPECT_EQ(roll_control_test(dice, 1, false), (ControlTestRoll{4, 5, ControlResult::kRepeatLastMove}));
  FixedDice low{3};
  EXPECT_EQ(roll_control_test(low, -1, false), (ControlTestRoll{3, 2, ControlResult::kHalt}));
  FixedDice rout{1};
  EXPECT_EQ(roll_control_test(rout, 2, true), (ControlTestRoll{1, 3, ControlResult::kAsWished}));
  EXPECT_EQ(rout.remaining(), 0u);
}

std::map<std::string, int> control_counts(int modifier, bool continuing) {
  std::map<std::string, int> out;
  for_each_roll(d6s(1), [&](const std::vector<int>& faces) {
    FixedDice dice(faces);
    ++out[std::string(to_string(roll_control_test(dice, modifier, continuing).result))];
  });
  return out;
}

TEST(CfeoControlTest, ExactDistributionsOverTheSixFaces) {
  using M = std::map<std::string, int>;
  EXPECT_EQ(control_counts(-2, false), (M{{"halt", 4}, {"act as player wishes", 2}}));
  EXPECT_EQ(control_counts(-1, false), (M{{"halt", 3}, {"act as player wishes", 2}, {"repeat last move", 1}}));
  EXPECT_EQ(control_counts(0, false), (M{{"halt", 2}, {"act as player wishes", 2}, {"repeat last move", 2}}));
  EXPECT_EQ(control_counts(1, false), (M{{"halt", 1}, {"act as player wishes", 2}, {"repeat last move", 3}}));
  EXPECT_EQ(control_counts(2, false), (M{{"act as player wishes", 2}, {"repeat last move", 4}}));
  for (int m : {-2, 0, 2}) EXPECT_EQ(control_counts(m, true), (M{{"continue", 4}, {"act as player wishes", 2}})) << m;
}

// ---- Risk to Leader ----

TEST(CfeoRiskToLeader, SecondDieRows) {
  EXPECT_EQ(leader_hit_result(1, 0), LeaderFate::kKilled);
  for (int d : {2, 3, 4}) EXPECT_EQ(leader_hit_result(d, 0), LeaderFate::kWounded) << d;
  for (int d : {2, 3, 4}) EXPECT_EQ(leader_hit_result(d, 1), LeaderFate::kKilled) << d;  // 2nd wound
  for (int d : {5, 6}) EXPECT_EQ(leader_hit_result(d, 0), LeaderFate::kNearMiss) << d;
  for (int d : {5, 6}) EXPECT_EQ(leader_hit_result(d, 1), LeaderFate::kNearMiss) << d;
  EXPECT_EQ(kWoundActionsLost, 1);
}

TEST(CfeoRiskToLeader, HitOnlyOnAOneThenRollAgain) {
  FixedDice miss{2};
  EXPECT_EQ(roll_risk_to_leader(miss, 0), (LeaderRiskRoll{2, 0, LeaderFate::kUnhurt}));
  EXPECT_EQ(miss.remaining(), 0u);
  FixedDice killed{1, 1};
  EXPECT_EQ(roll_risk_to_leader(killed, 0), (LeaderRiskRoll{1, 1, LeaderFate::kKilled}));
  FixedDice wounded{1, 4};
  EXPECT_EQ(roll_risk_to_leader(wounded, 0), (LeaderRiskRoll{1, 4, LeaderFate::kWounded}));
  FixedDice again{1, 2};
  EXPECT_EQ(roll_risk_to_leader(again, 1), (LeaderRiskRoll{1, 2, LeaderFate::kKilled}));
  FixedDice near{1, 5};
  EXPECT_EQ(roll_risk_to_leader(near, 0), (LeaderRiskRoll{1, 5, LeaderFate::kNearMiss}));
}

std::map<std::string, int> risk_counts(int wounds_before) {
  // All 36 pairs of faces; the second die is used only after a 1.
  std::map<std::string, int> out;
  for_each_roll(d6s(2), [&](const std::vector<int>& faces) {
    FixedDice dice(faces);
    ++out[std::string(to_string(roll_risk_to_leader(dice, wounds_before).fate))];
  });
  return out;
}

TEST(CfeoRiskToLeader, ExactDistributionOverThirtySixPairs) {
  using M = std::map<std::string, int>;
  EXPECT_EQ(risk_counts(0), (M{{"unhurt", 30}, {"killed", 1}, {"wounded", 3}, {"near miss", 2}}));
  EXPECT_EQ(risk_counts(1), (M{{"unhurt", 30}, {"killed", 4}, {"near miss", 2}}));
}

// ---- Morale DPs ----

TEST(CfeoMoraleDps, EachLine) {
  EXPECT_EQ(morale_dps(MoraleCause::kGeneralOrMarshalKilledOrRouting), 2);
  EXPECT_EQ(morale_dps(MoraleCause::kEqualOrHigherRoutingOrDestroyed), 2);
  EXPECT_EQ(morale_dps(MoraleCause::kLowerRoutingOrDestroyed), 1);
  EXPECT_EQ(morale_dps(MoraleCause::kEqualOrHigherFootRetiring), 1);
  EXPECT_EQ(morale_dps(MoraleCause::kEvading), 1);
  EXPECT_EQ(morale_dps(MoraleCause::kRideThroughOrTakePosition), -1);
}

TEST(CfeoMoraleDps, WhichLineAFriendFallsUnder) {
  using C = MoraleCause;
  const Grade c = Grade::kC;
  EXPECT_EQ(morale_cause(c, {FriendFate::kRouting, Grade::kB, Arm::kInfantry, 100}), C::kEqualOrHigherRoutingOrDestroyed);
  EXPECT_EQ(morale_cause(c, {FriendFate::kDestroyed, Grade::kC, Arm::kCavalry, 120}), C::kEqualOrHigherRoutingOrDestroyed);
  EXPECT_EQ(morale_cause(c, {FriendFate::kRouting, Grade::kA, Arm::kGuns, 0}), C::kEqualOrHigherRoutingOrDestroyed);
  EXPECT_EQ(morale_cause(c, {FriendFate::kRouting, Grade::kD, Arm::kInfantry, 50}), C::kLowerRoutingOrDestroyed);
  EXPECT_EQ(morale_cause(c, {FriendFate::kDestroyed, Grade::kE, Arm::kCavalry, 120}), C::kLowerRoutingOrDestroyed);
  EXPECT_EQ(morale_cause(c, {FriendFate::kRouting, Grade::kA, Arm::kInfantry, 120.5}), std::nullopt);  // T3
  EXPECT_EQ(morale_cause(c, {FriendFate::kRetiring, Grade::kC, Arm::kInfantry, 120}), C::kEqualOrHigherFootRetiring);
  EXPECT_EQ(morale_cause(c, {FriendFate::kRetiring, Grade::kA, Arm::kInfantry, 10}), C::kEqualOrHigherFootRetiring);
  EXPECT_EQ(morale_cause(c, {FriendFate::kRetiring, Grade::kD, Arm::kInfantry, 10}), std::nullopt);
  EXPECT_EQ(morale_cause(c, {FriendFate::kRetiring, Grade::kA, Arm::kCavalry, 10}), std::nullopt);
  EXPECT_EQ(morale_cause(Grade::kA, {FriendFate::kRouting, Grade::kB, Arm::kInfantry, 10}), C::kLowerRoutingOrDestroyed);
  EXPECT_EQ(morale_cause(Grade::kE, {FriendFate::kRouting, Grade::kE, Arm::kInfantry, 10}),
            C::kEqualOrHigherRoutingOrDestroyed);
}

// ---- Redress Ranks ----

TEST(CfeoRedress, GradeRows) {
  auto allowance = [](Grade g, bool stationary, bool under_fire = false) {
    return redress_allowance({g, stationary, under_fire, false, false});
  };
  for (Grade g : {Grade::kA, Grade::kB}) {
    EXPECT_EQ(allowance(g, true), 2);
    EXPECT_EQ(allowance(g, false), 1);
    EXPECT_EQ(allowance(g, true, true), 2);
  }
  for (Grade g : {Grade::kC, Grade::kD}) {
    EXPECT_EQ(allowance(g, true), 1);
    EXPECT_EQ(allowance(g, false), 0);
    EXPECT_EQ(allowance(g, true, true), 1);
  }
  EXPECT_EQ(allowance(Grade::kE, true), 1);
  EXPECT_EQ(allowance(Grade::kE, true, true), 0);
  EXPECT_EQ(allowance(Grade::kE, false), 0);
}

TEST(CfeoRedress, NoneInCombatOrAfterArtilleryDps) {
  EXPECT_EQ(redress_allowance({Grade::kA, true, false, true, false}), 0);
  EXPECT_EQ(redress_allowance({Grade::kA, true, false, false, true}), 0);
  EXPECT_EQ(redress_allowance({Grade::kC, true, false, true, true}), 0);
}

// ---- Maximum DPs ----

// T17: DPs for movement or manoeuvre stop at 3.
TEST(CfeoMaximumDps, MovementDpsStopAtThree) {
  EXPECT_EQ(kMovementDpCap, 3);
  EXPECT_EQ(movement_dps_taken(0, 2), 2);
  EXPECT_EQ(movement_dps_taken(0, 5), 3);
  EXPECT_EQ(movement_dps_taken(2, 1), 1);
  EXPECT_EQ(movement_dps_taken(2, 2), 1);
  EXPECT_EQ(movement_dps_taken(3, 1), 0);
  EXPECT_EQ(movement_dps_taken(4, 2), 0);
  EXPECT_EQ(movement_dps_taken(1, 0), 0);
}

}  // namespace
}  // namespace galloper::rules::cfeo::tables
