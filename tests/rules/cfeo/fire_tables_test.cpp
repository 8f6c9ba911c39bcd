// The sheet's "Shooting" tables: ranges, direct artillery, indirect
// artillery's fall of shot, musketry beyond 40 yds. Each row at its
// boundaries with fixed dice, and exact distributions over every face
// against counts written out from the sheet.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "rules/cfeo/fire_tables.hpp"
#include "rules/core/dice.hpp"
#include "tests/rules/cfeo/enumerate.hpp"

namespace galloper::rules::cfeo::tables {
namespace {

using test::d6s;
using test::for_each_roll;

// ---- Ranges ----

TEST(CfeoRanges, TheSheetsFigures) {
  EXPECT_EQ(gun_ranges(GunClass::kHeavy).maximum, 720);
  EXPECT_EQ(gun_ranges(GunClass::kHeavy).effective, 360);
  EXPECT_EQ(gun_ranges(GunClass::kHeavy).close, 120);
  for (GunClass g : {GunClass::kField, GunClass::kBattalion}) {
    EXPECT_EQ(gun_ranges(g).maximum, 480);
    EXPECT_EQ(gun_ranges(g).effective, 240);
    EXPECT_EQ(gun_ranges(g).close, 120);
  }
  EXPECT_EQ(kMusketryMaximumRange, 120);
  EXPECT_EQ(kMusketryCloseRange, 40);
}

// T3: "within" a range includes its boundary.
TEST(CfeoRanges, HeavyGunBandsAtTheirBoundaries) {
  EXPECT_EQ(gun_range(GunClass::kHeavy, 0), GunRange::kClose);
  EXPECT_EQ(gun_range(GunClass::kHeavy, 120), GunRange::kClose);
  EXPECT_EQ(gun_range(GunClass::kHeavy, 120.01), GunRange::kEffective);
  EXPECT_EQ(gun_range(GunClass::kHeavy, 360), GunRange::kEffective);
  EXPECT_EQ(gun_range(GunClass::kHeavy, 360.01), GunRange::kLong);
  EXPECT_EQ(gun_range(GunClass::kHeavy, 720), GunRange::kLong);
  EXPECT_EQ(gun_range(GunClass::kHeavy, 720.01), GunRange::kOutOfRange);
}

TEST(CfeoRanges, FieldAndBattalionGunBandsAtTheirBoundaries) {
  for (GunClass g : {GunClass::kField, GunClass::kBattalion}) {
    EXPECT_EQ(gun_range(g, 120), GunRange::kClose);
    EXPECT_EQ(gun_range(g, 121), GunRange::kEffective);
    EXPECT_EQ(gun_range(g, 240), GunRange::kEffective);
    EXPECT_EQ(gun_range(g, 241), GunRange::kLong);
    EXPECT_EQ(gun_range(g, 480), GunRange::kLong);
    EXPECT_EQ(gun_range(g, 481), GunRange::kOutOfRange);
  }
}

TEST(CfeoRanges, MusketryBandsAtTheirBoundaries) {
  EXPECT_EQ(musket_range(0), MusketRange::kClose);
  EXPECT_EQ(musket_range(40), MusketRange::kClose);
  EXPECT_EQ(musket_range(40.5), MusketRange::kMusketry);
  EXPECT_EQ(musket_range(120), MusketRange::kMusketry);
  EXPECT_EQ(musket_range(120.5), MusketRange::kOutOfRange);
}

// ---- Direct artillery ----

// A field gun at effective range, firing again at the same target in another
// band: no line of the list applies.
DirectShot plain() {
  DirectShot s;
  s.gun = GunClass::kField;
  s.range = GunRange::kEffective;
  s.target = TargetHistory::kSameTargetOtherRange;
  return s;
}

TEST(CfeoDirectFire, EachModifierLine) {
  EXPECT_TRUE(direct_fire_modifiers(plain()).empty());
  EXPECT_EQ(direct_fire_modifier(plain()), 0);
  auto one = [](auto change) {
    DirectShot s = plain();
    change(s);
    return direct_fire_modifiers(s);
  };
  using V = std::vector<Modifier>;
  EXPECT_EQ(one([](DirectShot& s) { s.target = TargetHistory::kSameTargetAndRange; }), (V{{"same target and range", 1}}));
  EXPECT_EQ(one([](DirectShot& s) { s.target = TargetHistory::kNewTarget; }), (V{{"new target", -1}}));
  EXPECT_EQ(one([](DirectShot& s) { s.column_or_enfilade = true; }), (V{{"column or enfilade", 1}}));
  EXPECT_EQ(one([](DirectShot& s) { s.gun_dps = 1; }), (V{{"each DP", -1}}));
  EXPECT_EQ(one([](DirectShot& s) { s.gun_dps = 3; }), (V{{"each DP", -3}}));
  EXPECT_EQ(one([](DirectShot& s) { s.range = GunRange::kLong; }), (V{{"beyond effective range", -1}}));
  EXPECT_EQ(one([](DirectShot& s) { s.range = GunRange::kClose; }), V{});
  EXPECT_EQ(one([](DirectShot& s) { s.target_in_fieldworks = true; }), (V{{"target in fieldworks", -1}}));
  EXPECT_EQ(one([](DirectShot& s) { s.gun = GunClass::kHeavy; }), (V{{"heavy gun", 1}}));
  EXPECT_EQ(one([](DirectShot& s) { s.gun = GunClass::kBattalion; }), (V{{"battalion gun", -1}}));
}

TEST(CfeoDirectFire, ModifiersAddUp) {
  DirectShot s;
  s.gun = GunClass::kHeavy;                          // +1
  s.range = GunRange::kLong;                         // -1
  s.target = TargetHistory::kSameTargetAndRange;     // +1
  s.column_or_enfilade = true;                       // +1
  s.gun_dps = 2;                                     // -2
  s.target_in_fieldworks = true;                     // -1
  EXPECT_EQ(direct_fire_modifier(s), -1);
  s.gun = GunClass::kBattalion;                      // -1 instead of +1
  s.target = TargetHistory::kNewTarget;              // -1 instead of +1
  EXPECT_EQ(direct_fire_modifier(s), -5);
}

TEST(CfeoDirectFire, BeyondCloseRangeFourUpIsOneDp) {
  for (GunRange r : {GunRange::kEffective, GunRange::kLong}) {
    EXPECT_EQ(direct_fire_dps(-4, r), 0);
    EXPECT_EQ(direct_fire_dps(3, r), 0);
    EXPECT_EQ(direct_fire_dps(4, r), 1);
    EXPECT_EQ(direct_fire_dps(6, r), 1);
    EXPECT_EQ(direct_fire_dps(9, r), 1);  // T2: above 6 is still 4+
  }
}

TEST(CfeoDirectFire, CloseRangeTwoThreeOneDpFourUpTwo) {
  EXPECT_EQ(direct_fire_dps(-2, GunRange::kClose), 0);  // T2: below 1 does nothing
  EXPECT_EQ(direct_fire_dps(1, GunRange::kClose), 0);
  EXPECT_EQ(direct_fire_dps(2, GunRange::kClose), 1);
  EXPECT_EQ(direct_fire_dps(3, GunRange::kClose), 1);
  EXPECT_EQ(direct_fire_dps(4, GunRange::kClose), 2);
  EXPECT_EQ(direct_fire_dps(6, GunRange::kClose), 2);
  EXPECT_EQ(direct_fire_dps(8, GunRange::kClose), 2);
}

TEST(CfeoDirectFire, NothingBeyondMaximumRange) { EXPECT_EQ(direct_fire_dps(6, GunRange::kOutOfRange), 0); }

TEST(CfeoDirectFire, OneDiePerGunWithTheModifiedTotal) {
  DirectShot s = plain();
  s.target = TargetHistory::kSameTargetAndRange;
  FixedDice dice{3};
  EXPECT_EQ(roll_direct_fire(dice, s), (DirectFireRoll{3, 4, 1}));
  EXPECT_EQ(dice.remaining(), 0u);
  ASSERT_EQ(dice.log().size(), 1u);
  EXPECT_EQ(dice.log()[0].kind, DieKind::kD6);

  s.range = GunRange::kClose;
  s.gun_dps = 2;
  FixedDice low{2};
  EXPECT_EQ(roll_direct_fire(low, s), (DirectFireRoll{2, 1, 0}));
  FixedDice six{6};
  EXPECT_EQ(roll_direct_fire(six, s), (DirectFireRoll{6, 5, 2}));
}

// DPs -> how many of the six faces give them.
std::map<int, int> direct_counts(const DirectShot& s) {
  std::map<int, int> out;
  for_each_roll(d6s(1), [&](const std::vector<int>& faces) {
    FixedDice dice(faces);
    ++out[roll_direct_fire(dice, s).dps];
  });
  return out;
}

TEST(CfeoDirectFire, ExactDistributionsOverTheSixFaces) {
  DirectShot s = plain();
  s.range = GunRange::kClose;  // modifier 0: 1 nothing, 2-3 one DP, 4-6 two
  EXPECT_EQ(direct_counts(s), (std::map<int, int>{{0, 1}, {1, 2}, {2, 3}}));
  s.target = TargetHistory::kNewTarget;  // -1: totals 0..5
  EXPECT_EQ(direct_counts(s), (std::map<int, int>{{0, 2}, {1, 2}, {2, 2}}));
  s.target = TargetHistory::kSameTargetAndRange;
  s.gun = GunClass::kHeavy;  // +2: totals 3..8
  EXPECT_EQ(direct_counts(s), (std::map<int, int>{{1, 1}, {2, 5}}));

  s = plain();  // effective, modifier 0: 4-6
  EXPECT_EQ(direct_counts(s), (std::map<int, int>{{0, 3}, {1, 3}}));
  s.range = GunRange::kLong;
  s.target = TargetHistory::kNewTarget;  // -2: a 6 only
  EXPECT_EQ(direct_counts(s), (std::map<int, int>{{0, 5}, {1, 1}}));
  s.gun = GunClass::kBattalion;
  s.gun_dps = 2;
  s.target_in_fieldworks = true;  // -6: never
  EXPECT_EQ(direct_counts(s), (std::map<int, int>{{0, 6}}));
  s = plain();
  s.gun = GunClass::kHeavy;
  s.target = TargetHistory::kSameTargetAndRange;
  s.column_or_enfilade = true;  // +3: always
  EXPECT_EQ(direct_counts(s), (std::map<int, int>{{1, 6}}));
}

// ---- Indirect artillery ----

TEST(CfeoIndirectFire, FallOfShotRows) {
  EXPECT_EQ(fall_of_shot(1), FallOfShot::kShort);
  EXPECT_EQ(fall_of_shot(2), FallOfShot::kOver);
  EXPECT_EQ(fall_of_shot(3), FallOfShot::kRight);
  EXPECT_EQ(fall_of_shot(4), FallOfShot::kLeft);
  EXPECT_EQ(fall_of_shot(5), FallOfShot::kOnTarget);
  EXPECT_EQ(fall_of_shot(6), FallOfShot::kOnTarget);
  EXPECT_EQ(fall_of_shot(7), FallOfShot::kOnTarget);
  EXPECT_EQ(kFallOfShotRadius, 10);
  EXPECT_EQ(kFallOfShotDps, 1);
}

TEST(CfeoIndirectFire, PlusOneAtTheSameUnmovedTarget) {
  FixedDice a{1};
  EXPECT_EQ(roll_indirect_fire(a, false), (IndirectFireRoll{1, 1, FallOfShot::kShort}));
  FixedDice b{1};
  EXPECT_EQ(roll_indirect_fire(b, true), (IndirectFireRoll{1, 2, FallOfShot::kOver}));
  FixedDice c{4};
  EXPECT_EQ(roll_indirect_fire(c, true), (IndirectFireRoll{4, 5, FallOfShot::kOnTarget}));
}

std::map<std::string, int> fall_counts(bool same_target) {
  std::map<std::string, int> out;
  for_each_roll(d6s(1), [&](const std::vector<int>& faces) {
    FixedDice dice(faces);
    ++out[std::string(to_string(roll_indirect_fire(dice, same_target).fall))];
  });
  return out;
}

TEST(CfeoIndirectFire, ExactDistributionsOverTheSixFaces) {
  EXPECT_EQ(fall_counts(false), (std::map<std::string, int>{{"falls short", 1},
                                                            {"overshoots", 1},
                                                            {"falls to the right", 1},
                                                            {"falls to the left", 1},
                                                            {"on target", 2}}));
  EXPECT_EQ(fall_counts(true), (std::map<std::string, int>{
                                   {"overshoots", 1}, {"falls to the right", 1}, {"falls to the left", 1}, {"on target", 3}}));
}

// ---- Musketry ----

TEST(CfeoMusketry, DicePerBaseLessDpsOnTheFirer) {
  EXPECT_EQ(musketry_dice({6, 0, false, false}), 6);
  EXPECT_EQ(musketry_dice({6, 2, false, false}), 4);
  EXPECT_EQ(musketry_dice({2, 2, false, false}), 0);
  EXPECT_EQ(musketry_dice({2, 3, false, false}), 0);  // never below none
  EXPECT_EQ(musketry_dice({0, 0, false, false}), 0);
}

TEST(CfeoMusketry, HalvedOnceOnlyRoundedUp) {
  EXPECT_EQ(musketry_dice({6, 0, true, false}), 3);  // skirmishers
  EXPECT_EQ(musketry_dice({5, 0, true, false}), 3);  // 2.5 rounds up
  EXPECT_EQ(musketry_dice({4, 0, false, true}), 2);  // target in cover
  EXPECT_EQ(musketry_dice({1, 0, false, true}), 1);
  EXPECT_EQ(musketry_dice({5, 0, true, true}), 3);   // T4: both causes, halved once
  EXPECT_EQ(musketry_dice({8, 0, true, true}), 4);
  EXPECT_EQ(musketry_dice({5, 2, true, false}), 2);  // T4: DPs off first: 3, halved up to 2
  EXPECT_EQ(musketry_dice({1, 1, true, true}), 0);
}

TEST(CfeoMusketry, EachSixIsOneDp) {
  EXPECT_EQ(musketry_dps(std::vector<int>{}), 0);
  EXPECT_EQ(musketry_dps(std::vector<int>{5, 5, 1}), 0);
  EXPECT_EQ(musketry_dps(std::vector<int>{6}), 1);
  EXPECT_EQ(musketry_dps(std::vector<int>{6, 5, 6, 1}), 2);
}

TEST(CfeoMusketry, RollsOnlyTheDiceItHas) {
  FixedDice dice{6, 2, 6, 4};
  const MusketryRoll r = roll_musketry(dice, {5, 2, false, false});  // 3 dice
  EXPECT_EQ(r.faces, (std::vector<int>{6, 2, 6}));
  EXPECT_EQ(r.dps, 2);
  EXPECT_EQ(dice.remaining(), 1u);
}

std::map<int, int> volley_counts(const Volley& v, int dice_expected) {
  std::map<int, int> out;
  for_each_roll(d6s(dice_expected), [&](const std::vector<int>& faces) {
    FixedDice dice(faces);
    ++out[roll_musketry(dice, v).dps];
    EXPECT_EQ(dice.remaining(), 0u);
  });
  return out;
}

TEST(CfeoMusketry, ExactDistributions) {
  // 3 dice, each 6 a DP: 5^3 = 125 none, 3 x 5^2 = 75 one, 3 x 5 = 15 two, 1 three.
  EXPECT_EQ(volley_counts({3, 0, false, false}, 3), (std::map<int, int>{{0, 125}, {1, 75}, {2, 15}, {3, 1}}));
  // 5 bases, 2 DPs, target in hard cover: 2 dice: 25 none, 10 one, 1 two.
  EXPECT_EQ(volley_counts({5, 2, false, true}, 2), (std::map<int, int>{{0, 25}, {1, 10}, {2, 1}}));
}

}  // namespace
}  // namespace galloper::rules::cfeo::tables
