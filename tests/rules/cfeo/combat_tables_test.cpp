// The sheet's "Combat and Close Fire" tables: modifiers, dice per base, hits,
// the Combat Results table and its reactions, the free hack. Each row at its
// boundaries, and exact distributions over every face against counts written
// out from the sheet.
#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "rules/cfeo/combat_tables.hpp"
#include "rules/core/dice.hpp"
#include "tests/rules/cfeo/enumerate.hpp"

namespace galloper::rules::cfeo::tables {
namespace {

using test::d6s;
using test::for_each_roll;

// ---- Modifiers ----

TEST(CfeoCombatModifiers, Grades) {
  auto of = [](Grade g) {
    CombatFactors f;
    f.grade = g;
    return combat_modifier(f);
  };
  EXPECT_EQ(of(Grade::kA), 2);
  EXPECT_EQ(of(Grade::kB), 1);
  EXPECT_EQ(of(Grade::kC), 0);
  EXPECT_EQ(of(Grade::kD), -1);
  EXPECT_EQ(of(Grade::kE), -2);
  EXPECT_TRUE(combat_modifiers(CombatFactors{}).empty());
}

// T6: +1 each inspire action, +2 at most.
TEST(CfeoCombatModifiers, LeaderInspiringOneEachActionToTwo) {
  auto of = [](int actions) {
    CombatFactors f;
    f.inspire_actions = actions;
    return combat_modifier(f);
  };
  EXPECT_EQ(of(0), 0);
  EXPECT_EQ(of(1), 1);
  EXPECT_EQ(of(2), 2);
  EXPECT_EQ(of(3), 2);
}

TEST(CfeoCombatModifiers, EachOtherLine) {
  using V = std::vector<Modifier>;
  auto one = [](auto change) {
    CombatFactors f;
    change(f);
    return combat_modifiers(f);
  };
  EXPECT_EQ(one([](CombatFactors& f) { f.grade = Grade::kA; }), (V{{"A Grade", 2}}));
  EXPECT_EQ(one([](CombatFactors& f) { f.grade = Grade::kE; }), (V{{"E Grade", -2}}));
  EXPECT_EQ(one([](CombatFactors& f) { f.inspire_actions = 1; }), (V{{"leader inspiring", 1}}));
  EXPECT_EQ(one([](CombatFactors& f) { f.advantage_of_ground = true; }), (V{{"advantage of ground", 1}}));
  EXPECT_EQ(one([](CombatFactors& f) { f.charging_or_pursuing = true; }),
            (V{{"charging, counter-charging or pursuing", 1}}));
  EXPECT_EQ(one([](CombatFactors& f) { f.a_outrance_vs_cavalry = true; }), (V{{"charging à l'outrance vs. cavalry", 1}}));
  EXPECT_EQ(one([](CombatFactors& f) { f.cavalry_pursuing = true; }), (V{{"cavalry pursuing", 1}}));
  EXPECT_EQ(one([](CombatFactors& f) { f.traditional_cavalry_deeper_vs_cavalry = true; }),
            (V{{"traditional cavalry in deeper formation vs. cavalry", 1}}));
  EXPECT_EQ(one([](CombatFactors& f) { f.foot_line_not_fired_by_platoons = true; }),
            (V{{"foot in line that did not fire by platoons", 1}}));
  EXPECT_EQ(one([](CombatFactors& f) { f.dps = 1; }), (V{{"each DP", -1}}));
  EXPECT_EQ(one([](CombatFactors& f) { f.dps = 3; }), (V{{"each DP", -3}}));
  EXPECT_EQ(one([](CombatFactors& f) { f.foot_moved_charged_by_cavalry = true; }),
            (V{{"foot that moved charged by cavalry", -2}}));
  EXPECT_EQ(one([](CombatFactors& f) { f.hit_in_flank_or_rear = true; }), (V{{"hit in flank/rear", -2}}));
}

TEST(CfeoCombatModifiers, AdditionalLinesComeOnTopOfCharging) {
  CombatFactors f;
  f.grade = Grade::kA;                 // +2
  f.inspire_actions = 2;               // +2
  f.charging_or_pursuing = true;       // +1
  f.a_outrance_vs_cavalry = true;      // +1 additional
  f.dps = 1;                           // -1
  EXPECT_EQ(combat_modifier(f), 5);
  CombatFactors p;
  p.charging_or_pursuing = true;       // +1
  p.cavalry_pursuing = true;           // +1 additional
  p.hit_in_flank_or_rear = true;       // -2
  p.grade = Grade::kD;                 // -1
  EXPECT_EQ(combat_modifier(p), -1);
}

// ---- Dice per base ----

TEST(CfeoCombatDice, AssaultColumnRanks) {
  using R = std::vector<int>;
  // Charging: the first two ranks, half the third and fourth (T7: together, up).
  EXPECT_EQ(assault_column_bases(R{2, 2, 2, 2}, true), 6);
  EXPECT_EQ(assault_column_bases(R{2, 2, 2}, true), 5);
  EXPECT_EQ(assault_column_bases(R{2, 2, 1}, true), 5);
  EXPECT_EQ(assault_column_bases(R{2, 2, 1, 1}, true), 5);
  EXPECT_EQ(assault_column_bases(R{2, 2}, true), 4);
  EXPECT_EQ(assault_column_bases(R{3, 3, 3, 3, 3}, true), 9);  // no fifth rank
  EXPECT_EQ(assault_column_bases(R{4}, true), 4);
  // Otherwise the front rank only.
  EXPECT_EQ(assault_column_bases(R{2, 2, 2, 2}, false), 2);
  EXPECT_EQ(assault_column_bases(R{}, false), 0);
}

TEST(CfeoCombatDice, PikeBases) {
  EXPECT_EQ(pike_base_dice(Arm::kCavalry, false), 2);
  EXPECT_EQ(pike_base_dice(Arm::kCavalry, true), 2);
  EXPECT_EQ(pike_base_dice(Arm::kInfantry, true), 1);
  EXPECT_EQ(pike_base_dice(Arm::kInfantry, false), 0);
  EXPECT_EQ(pike_base_dice(Arm::kGuns, true), 1);
  EXPECT_EQ(pike_base_dice(Arm::kGuns, false), 1);  // T8
}

TEST(CfeoCombatDice, BasesPlusModifiersNeverBelowNone) {
  EXPECT_EQ(combat_dice(4, 2), 6);
  EXPECT_EQ(combat_dice(4, -4), 0);
  EXPECT_EQ(combat_dice(3, -5), 0);
}

// ---- Hits ----

TEST(CfeoCombatHits, SixOrFiveUp) {
  EXPECT_EQ(hit_threshold(false, false), 5);
  EXPECT_EQ(hit_threshold(true, false), 6);
  EXPECT_EQ(hit_threshold(false, true), 6);
  EXPECT_EQ(hit_threshold(true, true), 6);
  EXPECT_EQ(count_hits(std::vector<int>{4, 5, 6}, 5), 2);
  EXPECT_EQ(count_hits(std::vector<int>{4, 5, 6}, 6), 1);
  FixedDice dice{5, 1, 6};
  const CombatRoll r = roll_combat(dice, 3, 5);
  EXPECT_EQ(r.faces, (std::vector<int>{5, 1, 6}));
  EXPECT_EQ(r.hits, 2);
  EXPECT_EQ(dice.remaining(), 0u);
}

// ---- Combat Results ----

TEST(CfeoCombatResults, EachDifferenceToItsRow) {
  using C = CombatResult;
  const std::map<int, C> table = {
      {12, C::kVictory},    {5, C::kVictory},    {4, C::kVictory},      {3, C::kSuccess},      {1, C::kSuccess},
      {0, C::kInconclusive}, {-1, C::kDrivenBack}, {-2, C::kDrivenBack}, {-3, C::kDefeat},      {-4, C::kDefeat},
      {-5, C::kDefeat},     {-7, C::kDefeat},    {-8, C::kBreak},       {-12, C::kBreak},
  };
  for (const auto& [d, r] : table) EXPECT_EQ(combat_result(d), r) << "difference " << d;
}

TEST(CfeoCombatResults, DpsAsPrinted) {
  EXPECT_EQ(combat_result_dps(CombatResult::kVictory), 1);
  EXPECT_EQ(combat_result_dps(CombatResult::kSuccess), 1);
  EXPECT_EQ(combat_result_dps(CombatResult::kInconclusive), 2);
  EXPECT_EQ(combat_result_dps(CombatResult::kDrivenBack), 3);
  EXPECT_EQ(combat_result_dps(CombatResult::kDefeat), 4);
  EXPECT_EQ(combat_result_dps(CombatResult::kBreak), 5);
}

CombatUnit unit(Arm arm, Grade grade = Grade::kC) {
  CombatUnit u;
  u.arm = arm;
  u.grade = grade;
  return u;
}
CombatUnit charger(Arm arm, Grade grade = Grade::kC, bool a_outrance = false) {
  CombatUnit u = unit(arm, grade);
  u.charged = true;
  u.a_outrance = a_outrance;
  return u;
}
CombatUnit charged(Arm arm, Grade grade = Grade::kC) {
  CombatUnit u = unit(arm, grade);
  u.was_charged = true;
  return u;
}
Opponents foot() { return {true, false, false, false, false}; }
Opponents skirmishers() { return {false, true, false, false, false}; }
Opponents cavalry() { return {false, false, true, false, false}; }
Opponents deep_cavalry() { return {false, false, true, true, false}; }
Opponents guns() { return {false, false, false, false, true}; }
Opponents foot_and_guns() { return {true, false, false, false, true}; }

Reaction reaction(int d, const CombatUnit& u, const Opponents& o) { return combat_outcome(d, u, o).reaction; }

TEST(CfeoCombatResults, VictoryReactions) {
  for (int d : {4, 9}) {
    EXPECT_EQ(reaction(d, charger(Arm::kCavalry, Grade::kC), foot()), Reaction::kPursue) << d;
    EXPECT_EQ(reaction(d, unit(Arm::kInfantry, Grade::kE), foot()), Reaction::kPursue) << d;
    EXPECT_EQ(reaction(d, charger(Arm::kCavalry, Grade::kB), cavalry()), Reaction::kAnyPermittedAction) << d;
    EXPECT_EQ(reaction(d, unit(Arm::kInfantry, Grade::kA), foot()), Reaction::kAnyPermittedAction) << d;
    EXPECT_EQ(reaction(d, unit(Arm::kGuns, Grade::kC), foot()), Reaction::kAnyPermittedAction) << d;  // T11
    EXPECT_EQ(combat_outcome(d, charger(Arm::kCavalry), foot()).dps, 1) << d;
  }
}

TEST(CfeoCombatResults, SuccessReactions) {
  for (int d : {1, 3}) {
    EXPECT_EQ(reaction(d, charger(Arm::kCavalry), foot()), Reaction::kRetire) << d;
    EXPECT_EQ(reaction(d, charger(Arm::kCavalry), foot_and_guns()), Reaction::kRetire) << d;
    EXPECT_EQ(reaction(d, charged(Arm::kInfantry), cavalry()), Reaction::kRemainInPlace) << d;
    EXPECT_EQ(reaction(d, unit(Arm::kGuns), cavalry()), Reaction::kRemainInPlace) << d;
    EXPECT_EQ(reaction(d, charger(Arm::kCavalry), guns()), Reaction::kRideThrough) << d;
    EXPECT_EQ(reaction(d, charger(Arm::kCavalry), cavalry()), Reaction::kAnyPermittedAction) << d;
    EXPECT_EQ(reaction(d, charged(Arm::kCavalry), cavalry()), Reaction::kAnyPermittedAction) << d;
    EXPECT_EQ(reaction(d, charger(Arm::kInfantry), foot()), Reaction::kAnyPermittedAction) << d;
    EXPECT_EQ(combat_outcome(d, charger(Arm::kCavalry), foot()).dps, 1) << d;
  }
}

TEST(CfeoCombatResults, InconclusiveReactions) {
  EXPECT_EQ(reaction(0, charger(Arm::kCavalry), foot()), Reaction::kRetire);
  EXPECT_EQ(reaction(0, charged(Arm::kInfantry), cavalry()), Reaction::kRemainInPlace);
  EXPECT_EQ(reaction(0, charger(Arm::kInfantry), foot()), Reaction::kRemainInPlace);
  EXPECT_EQ(reaction(0, unit(Arm::kGuns), foot()), Reaction::kRemainInPlace);
  const CombatUnit outrance = charger(Arm::kCavalry, Grade::kC, true);
  EXPECT_EQ(reaction(0, outrance, guns()), Reaction::kRideThrough);
  EXPECT_EQ(reaction(0, outrance, skirmishers()), Reaction::kRideThrough);  // T12
  EXPECT_EQ(reaction(0, outrance, cavalry()), Reaction::kRideThrough);
  EXPECT_EQ(reaction(0, outrance, deep_cavalry()), Reaction::kRemainOrRetire);
  EXPECT_EQ(reaction(0, outrance, foot()), Reaction::kRetire);
  EXPECT_EQ(reaction(0, outrance, foot_and_guns()), Reaction::kRetire);
  EXPECT_EQ(reaction(0, charger(Arm::kCavalry), guns()), Reaction::kRemainOrRetire);
  EXPECT_EQ(reaction(0, charged(Arm::kCavalry), cavalry()), Reaction::kRemainOrRetire);
  EXPECT_EQ(combat_outcome(0, charged(Arm::kCavalry), cavalry()).dps, 2);
}

TEST(CfeoCombatResults, DrivenBackReactions) {
  for (int d : {-1, -2}) {
    EXPECT_EQ(reaction(d, charged(Arm::kInfantry), cavalry()), Reaction::kRemainInPlace) << d;
    EXPECT_EQ(reaction(d, charged(Arm::kGuns), cavalry()), Reaction::kRemainInPlace) << d;
    EXPECT_EQ(reaction(d, charged(Arm::kInfantry), foot()), Reaction::kRetire) << d;
    EXPECT_EQ(reaction(d, unit(Arm::kInfantry), cavalry()), Reaction::kRetire) << d;  // not charged
    EXPECT_EQ(reaction(d, charged(Arm::kGuns), foot()), Reaction::kGunsAbandoned) << d;
    EXPECT_EQ(reaction(d, charged(Arm::kCavalry), cavalry()), Reaction::kRetire) << d;
    const CombatOutcome cav = combat_outcome(d, charger(Arm::kCavalry), foot());
    EXPECT_EQ(cav.reaction, Reaction::kRetire) << d;
    EXPECT_EQ(cav.extra_dps, 1) << d;
    EXPECT_EQ(cav.dps, 4) << d;
    EXPECT_EQ(combat_outcome(d, charger(Arm::kCavalry), cavalry()).dps, 3) << d;
    EXPECT_EQ(combat_outcome(d, charged(Arm::kInfantry), cavalry()).dps, 3) << d;
  }
}

TEST(CfeoCombatResults, DefeatAndBreakReactions) {
  for (int d : {-3, -4, -5, -7}) {
    EXPECT_EQ(reaction(d, charged(Arm::kGuns), cavalry()), Reaction::kGunsAbandonedCrewKilled) << d;
    EXPECT_EQ(reaction(d, charged(Arm::kInfantry), cavalry()), Reaction::kRetire) << d;
    EXPECT_EQ(reaction(d, charger(Arm::kCavalry), foot()), Reaction::kRetire) << d;
    EXPECT_EQ(combat_outcome(d, charger(Arm::kCavalry), foot()).dps, 4) << d;
  }
  for (int d : {-8, -11}) {
    EXPECT_EQ(reaction(d, unit(Arm::kGuns), foot()), Reaction::kGunsAbandonedCrewKilled) << d;
    EXPECT_EQ(reaction(d, charged(Arm::kInfantry), cavalry()), Reaction::kRout) << d;
    EXPECT_EQ(reaction(d, charger(Arm::kCavalry), foot()), Reaction::kRout) << d;
    EXPECT_EQ(combat_outcome(d, charger(Arm::kCavalry), foot()).dps, 5) << d;
  }
}

// Both sides roll; each reads its own row by its own difference (T9).
// Counts: side -> row -> ways out of 6^(a+b).
std::map<std::string, int> results(int dice_a, int hit_a, int dice_b, int hit_b, bool side_a) {
  std::map<std::string, int> out;
  for_each_roll(d6s(dice_a + dice_b), [&](const std::vector<int>& faces) {
    FixedDice dice(faces);
    const int a = roll_combat(dice, dice_a, hit_a).hits;
    const int b = roll_combat(dice, dice_b, hit_b).hits;
    ++out[std::string(to_string(combat_result(side_a ? a - b : b - a)))];
  });
  return out;
}

TEST(CfeoCombatResults, ExactDistributionTwoDiceAgainstOne) {
  // A: 2 dice on 5-6 (0 hits 16, 1 hit 16, 2 hits 4 of 36); B: 1 die (0: 4, 1: 2 of 6).
  // A's difference: +2: 4x4 = 16, +1: 16x4 + 4x2 = 72, 0: 16x4 + 16x2 = 96, -1: 16x2 = 32.
  EXPECT_EQ(results(2, 5, 1, 5, true),
            (std::map<std::string, int>{{"Success", 88}, {"Inconclusive", 96}, {"Driven Back", 32}}));
  EXPECT_EQ(results(2, 5, 1, 5, false),
            (std::map<std::string, int>{{"Driven Back", 88}, {"Inconclusive", 96}, {"Success", 32}}));
}

TEST(CfeoCombatResults, ExactDistributionFourDiceAgainstNone) {
  // Hits of 4 dice on 5-6, of 1296: C(4,k) 2^k 4^(4-k) = 256, 512, 384, 128, 16.
  EXPECT_EQ(results(4, 5, 0, 5, true), (std::map<std::string, int>{{"Inconclusive", 256}, {"Success", 1024}, {"Victory", 16}}));
  EXPECT_EQ(results(4, 5, 0, 5, false),
            (std::map<std::string, int>{{"Inconclusive", 256}, {"Driven Back", 896}, {"Defeat", 144}}));
  // On 6 only: 625, 500, 150, 20, 1.
  EXPECT_EQ(results(4, 6, 0, 5, false),
            (std::map<std::string, int>{{"Inconclusive", 625}, {"Driven Back", 650}, {"Defeat", 21}}));
}

TEST(CfeoCombatResults, ExactDistributionEightDiceReachBreak) {
  // 8 dice on 5-6, of 6^8 = 1679616: C(8,k) 2^k 4^(8-k) for k = 0..8 is
  // 65536, 262144, 458752, 458752, 286720, 114688, 28672, 4096, 256.
  // The faces go straight to count_hits, counted by row and named after:
  // rolling them through FixedDice, as the smaller cases do, takes seconds.
  std::array<int, 6> by_row{};
  for_each_roll(d6s(8), [&](const std::vector<int>& faces) {
    ++by_row[static_cast<std::size_t>(combat_result(0 - count_hits(faces, 5)))];
  });
  std::map<std::string, int> opponent;
  for (std::size_t r = 0; r < by_row.size(); ++r) {
    if (by_row[r] > 0) opponent[std::string(to_string(static_cast<CombatResult>(r)))] = by_row[r];
  }
  EXPECT_EQ(opponent, (std::map<std::string, int>{{"Inconclusive", 65536},
                                                                    {"Driven Back", 720896},
                                                                    {"Defeat", 892928},
                                                                    {"Break", 256}}));
}

// ---- Free hack ----

TEST(CfeoFreeHack, OneCasualtyForEachFourUp) {
  EXPECT_EQ(free_hack_casualties(std::vector<int>{3}), 0);
  EXPECT_EQ(free_hack_casualties(std::vector<int>{4}), 1);
  EXPECT_EQ(free_hack_casualties(std::vector<int>{6, 4, 1, 3, 5}), 3);
  FixedDice dice{4, 3};
  EXPECT_EQ(roll_free_hack(dice, 2), (FreeHackRoll{{4, 3}, 1}));
  EXPECT_EQ(dice.remaining(), 0u);
}

TEST(CfeoFreeHack, ExactDistributionThreeStands) {
  std::map<int, int> out;
  for_each_roll(d6s(3), [&](const std::vector<int>& faces) {
    FixedDice dice(faces);
    ++out[roll_free_hack(dice, 3).casualties];
  });
  EXPECT_EQ(out, (std::map<int, int>{{0, 27}, {1, 81}, {2, 81}, {3, 27}}));
}

}  // namespace
}  // namespace galloper::rules::cfeo::tables
