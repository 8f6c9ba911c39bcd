// DPs, casualties and destruction ("DPs", "Maximum DPs", "Casualties",
// "Casualty").
#include <gtest/gtest.h>

#include "rules/core/dice.hpp"
#include "rules/core/geometry.hpp"
#include "rules/malbrook/basing.hpp"
#include "rules/malbrook/damage.hpp"
#include "tests/rules/malbrook/artillery_helpers.hpp"

namespace galloper::rules::malbrook {
namespace {

using test::brigade;
using test::gun_state;
using test::has_event;
using test::leader;

Brigade& b1(GameState& s) { return brigade(s, "al_b1"); }

TEST(Dps, ManoeuvreDpsStopAtThreeAndNeverCauseCasualties) {
  GameState s = gun_state();
  std::vector<Event> ev;
  b1(s).bases = 2;
  EXPECT_EQ(add_dps(s, b1(s), 2, DpCause::kManoeuvre, ev), 0);
  EXPECT_EQ(b1(s).dps, 2u);
  EXPECT_EQ(add_dps(s, b1(s), 5, DpCause::kManoeuvre, ev), 0);
  EXPECT_EQ(b1(s).dps, 3u);  // 3 even with only 2 bases; no casualty
  EXPECT_EQ(b1(s).bases, 2u);
  EXPECT_EQ(add_dps(s, b1(s), 1, DpCause::kManoeuvre, ev), 0);
  EXPECT_EQ(b1(s).dps, 3u);
}

TEST(Dps, ManoeuvreDpsStopOnceThreeFromAnyCause) {
  GameState s = gun_state();
  std::vector<Event> ev;
  b1(s).dps = 4;  // from fire
  add_dps(s, b1(s), 1, DpCause::kManoeuvre, ev);
  EXPECT_EQ(b1(s).dps, 4u);
}

class DpCap : public ::testing::TestWithParam<DpCause> {};

TEST_P(DpCap, DpsBeyondBasesBecomeCasualties) {
  GameState s = gun_state();
  std::vector<Event> ev;
  EXPECT_EQ(add_dps(s, b1(s), 4, GetParam(), ev), 0);
  EXPECT_EQ(b1(s).dps, 4u);
  EXPECT_EQ(add_dps(s, b1(s), 1, GetParam(), ev), 1);
  EXPECT_EQ(b1(s).dps, 4u);
  EXPECT_EQ(b1(s).bases, 3u);
  EXPECT_TRUE(has_event(ev, "dp_casualty"));
  EXPECT_TRUE(has_event(ev, "casualty"));
}

TEST_P(DpCap, PartlyDpsPartlyCasualties) {
  GameState s = gun_state();
  std::vector<Event> ev;
  b1(s).dps = 3;
  EXPECT_EQ(add_dps(s, b1(s), 3, GetParam(), ev), 2);  // one DP to 4, then two casualties
  EXPECT_EQ(b1(s).dps, 4u);
  EXPECT_EQ(b1(s).bases, 2u);
}

TEST_P(DpCap, CapIsSixDpsForBigBrigades) {
  GameState s = gun_state();
  std::vector<Event> ev;
  b1(s).bases = 8;
  b1(s).dps = 5;
  EXPECT_EQ(add_dps(s, b1(s), 1, GetParam(), ev), 0);
  EXPECT_EQ(b1(s).dps, 6u);
  EXPECT_EQ(add_dps(s, b1(s), 1, GetParam(), ev), 1);
  EXPECT_EQ(b1(s).dps, 6u);
  EXPECT_EQ(b1(s).bases, 7u);
}

INSTANTIATE_TEST_SUITE_P(FireCombatMorale, DpCap,
                         ::testing::Values(DpCause::kFire, DpCause::kCombat, DpCause::kMorale));

TEST(Dps, GunsHoldUpToSixDpsAndNeverLoseBasesToThem) {
  GameState s = gun_state();
  std::vector<Event> ev;
  add_dps(s, s.guns[0], 8, DpCause::kFire, ev);
  EXPECT_EQ(s.guns[0].dps, 6u);
  s.guns[0].dps = 2;
  add_dps(s, s.guns[0], 3, DpCause::kManoeuvre, ev);
  EXPECT_EQ(s.guns[0].dps, 3u);
}

TEST(Casualties, SingleLineLosesOuterFlanksInTurn) {
  GameState s = gun_state();
  Brigade& b = b1(s);  // facing south: its right is west (-x)
  const Vec2 start = b.position;
  EXPECT_EQ(casualty_base(b), 3u);  // 4 bases: the right-hand base
  std::vector<Event> ev;
  take_casualty(s, b, ev);
  EXPECT_EQ(b.bases, 3u);
  // The three remaining bases stay where they were: the left three of four.
  EXPECT_NEAR(b.position.x, start.x + 0.5, 1e-9);
  const auto after = footprint(b);
  EXPECT_NEAR(after.front().center.x, 31.5, 1e-9);  // the left-hand base (east end) did not move
  EXPECT_EQ(casualty_base(b), 0u);  // 3 bases: now the left-hand base
  take_casualty(s, b, ev);
  EXPECT_EQ(b.bases, 2u);
  EXPECT_NEAR(b.position.x, start.x, 1e-9);
}

TEST(Casualties, MultiRankBrigadesLoseTheRearRank) {
  GameState s = gun_state();
  Brigade& b = b1(s);
  b.formation = Formation::kMarchColumn;
  const Vec2 front = b.position;
  EXPECT_EQ(casualty_base(b), 3u);  // the last base of the column
  std::vector<Event> ev;
  take_casualty(s, b, ev);
  EXPECT_EQ(b.bases, 3u);
  EXPECT_NEAR(distance(b.position, front), 0, 1e-9);  // the head of the column stays
  b.bases = 6;
  b.formation = Formation::kTwoRankLine;
  EXPECT_EQ(casualty_base(b), 5u);  // rear rank
  take_casualty(s, b, ev);
  EXPECT_EQ(b.bases, 5u);
  EXPECT_EQ(bases_per_rank(b.formation, b.bases), 3);  // the front rank kept its three
  EXPECT_NEAR(distance(b.position, front), 0, 1e-9);
}

// Bot seeds demo 28 and cavalry_clash 6: an unformed brigade whose two bases
// were placed side by side (no gap) lost one; its remaining base jumped to
// the layout of one base and onto the enemy brigade touching it.
TEST(Casualties, PlacedBasesStayWhereTheyStand) {
  GameState s = gun_state();
  Brigade& b = b1(s);  // facing south: its right is west (-x)
  b.formation = Formation::kUnformed;
  b.bases = 2;
  // Touching, not spaced apart as an unformed layout would be.
  b.base_poses = {{{30.5, 20.5}, 180}, {{29.5, 20.5}, 180}};
  b.position = {30, 20};
  std::vector<Event> ev;
  take_casualty(s, b, ev);
  ASSERT_EQ(b.bases, 1u);
  const auto after = footprint(b);
  ASSERT_EQ(after.size(), 1u);
  EXPECT_NEAR(after.front().center.x, 30.5, 1e-9);  // the left-hand base stays put
  EXPECT_NEAR(after.front().center.y, 20.5, 1e-9);
  EXPECT_NEAR(b.position.x, 30.5, 1e-9);  // front middle of what is left
  EXPECT_NEAR(b.position.y, 20, 1e-9);
}

TEST(Casualties, RefusedLineKeepsItsBasesAndBecomesPlainWhenTheRefusedBaseGoes) {
  GameState s = gun_state();
  Brigade& b = b1(s);  // 4 bases facing south, front middle (30, 10 + range)
  const Vec2 start = b.position;
  auto poses = poses_of(footprint(b));
  poses[0].center.y += 1.0;  // the left-hand base steps back
  b.base_poses = poses;
  std::vector<Event> ev;
  take_casualty(s, b, ev);  // 4 bases: the right-hand one
  ASSERT_EQ(b.bases, 3u);
  ASSERT_EQ(b.base_poses.size(), 3u);
  const auto three = footprint(b);
  for (std::size_t i = 0; i < 3; ++i) EXPECT_NEAR(distance(three[i].center, poses[i].center), 0, 1e-9);
  EXPECT_NEAR(b.position.x, start.x + 0.5, 1e-9);  // the line's middle, as for a laid-out line
  take_casualty(s, b, ev);  // 3 bases: the left-hand one, the refused base
  ASSERT_EQ(b.bases, 2u);
  EXPECT_TRUE(b.base_poses.empty());  // a plain line again
  const auto two = footprint(b);
  EXPECT_NEAR(distance(two[0].center, poses[1].center), 0, 1e-9);
  EXPECT_NEAR(distance(two[1].center, poses[2].center), 0, 1e-9);
}

TEST(Casualties, BrigadeDestroyedAtZeroBases) {
  GameState s = gun_state();
  Brigade& b = b1(s);
  b.bases = 1;
  std::vector<Event> ev;
  EXPECT_EQ(take_casualty(s, b, ev, 3), 1);
  EXPECT_EQ(b.bases, 0u);
  EXPECT_TRUE(b.has(Status::kDestroyed));
  EXPECT_FALSE(brigade_on_table(b));
  EXPECT_TRUE(has_event(ev, "destroyed"));
  // Nothing more happens to it.
  EXPECT_EQ(add_dps(s, b, 2, DpCause::kFire, ev), 0);
}

TEST(Casualties, InflictDamageTestsAttachedLeadersAndReleasesThemWhenDestroyed) {
  GameState s = gun_state();
  Brigade& b = b1(s);
  leader(s, "al_mg3").attached_to = "al_b1";
  b.bases = 1;
  b.dps = 1;
  FixedDice dice{6};  // the leader's test: not hit
  std::vector<Event> ev;
  const DamageResult r = inflict_damage(s, b, 1, 0, DpCause::kFire, dice, ev);
  EXPECT_EQ(r.casualties, 1);
  EXPECT_TRUE(r.destroyed);
  EXPECT_EQ(dice.remaining(), 0u);
  EXPECT_TRUE(leader(s, "al_mg3").attached_to.empty());
  EXPECT_FALSE(leader(s, "al_mg3").killed);
}

TEST(Casualties, MoraleCasualtyTestsLeadersButMoraleDpsAloneDoNot) {
  GameState s = gun_state();
  Brigade& b = b1(s);
  leader(s, "al_mg3").attached_to = "al_b1";
  std::vector<Event> ev;
  FixedDice none{};
  inflict_damage(s, b, 2, 0, DpCause::kMorale, none, ev);  // DPs only: no test
  EXPECT_EQ(b.dps, 2u);
  FixedDice dice{4};
  inflict_damage(s, b, 0, 1, DpCause::kMorale, dice, ev);  // a casualty "in any circumstances"
  EXPECT_EQ(dice.remaining(), 0u);
  EXPECT_EQ(b.bases, 3u);
}

}  // namespace
}  // namespace galloper::rules::malbrook
