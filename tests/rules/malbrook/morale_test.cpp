// The Morale phase (morale.hpp): re-dressing ranks by grade, and the morale
// DPs table, with the full text's clauses one by one.
#include <gtest/gtest.h>

#include "rules/core/dice.hpp"
#include "rules/malbrook/engine.hpp"
#include "rules/malbrook/morale.hpp"
#include "tests/rules/malbrook/movement_helpers.hpp"
#include "tests/rules/malbrook/test_state.hpp"

namespace galloper::rules::malbrook {
namespace {

using test::brigade;
using test::tiny_state;

constexpr std::uint32_t bit(Status s) { return static_cast<std::uint32_t>(s); }

GameState morale_state() {
  GameState s = tiny_state();
  s.phase = Phase::kMorale;
  return s;
}

// ---- Re-dress ranks ----

TEST(Redress, ByGradeWhenStationaryAndNotInCombat) {
  GameState s = morale_state();
  Brigade& b = brigade(s, "fr_b1");
  b.dps = 3;
  for (auto [grade, under_fire, expected] :
       {std::tuple{Grade::kA, false, 2u}, {Grade::kB, false, 2u}, {Grade::kA, true, 1u}, {Grade::kB, true, 1u},
        {Grade::kC, false, 1u}, {Grade::kD, false, 1u}, {Grade::kC, true, 0u}, {Grade::kD, true, 0u},
        {Grade::kE, false, 1u}, {Grade::kE, true, 0u}}) {
    b.grade = grade;
    b.status = under_fire ? bit(Status::kUnderFire) : 0;
    EXPECT_EQ(redress_allowance(s, b), expected) << to_string(grade) << (under_fire ? " under fire" : "");
  }
}

// "To count as stationary the brigade must not have moved at any time in that
// turn although they may change formation or facing": played through the
// movement phase, a formation change or an about face leaves a brigade
// stationary; a step forward does not.
TEST(Redress, AFormationChangeOrAboutFaceIsStillStationary) {
  for (const auto& [action, stationary] :
       {std::pair{"formation", true}, {"about_face", true}, {"forward", false}}) {
    GameState s = test::movement_state();
    Brigade& b = brigade(s, "fr_b1");
    b.grade = Grade::kC;
    b.dps = 2;
    ASSERT_TRUE(test::declare(s, {{"fr_b1", std::string(action) == "forward" ? "1" : "manoeuvre"}}, {4}));
    OrderStep st;
    st.action = action;
    if (st.action == "formation") st.formation = "march column";
    if (st.action == "forward") st.distance = 4;  // 2" doubled: beyond 6" of enemy
    auto v = test::execute(s, {{"fr_b1", {st}}});
    ASSERT_TRUE(v) << action << ": " << (v ? "" : v.error().reason);
    s.phase = Phase::kMorale;
    EXPECT_EQ(brigade(s, "fr_b1").has(Status::kMoved), !stationary) << action;
    EXPECT_EQ(redress_allowance(s, brigade(s, "fr_b1")), stationary ? 1u : 0u) << action;
  }
}

TEST(Redress, EGradeOnlyBeyondSixInchesOfEnemy) {
  GameState s = morale_state();
  Brigade& b = brigade(s, "fr_b1");
  b.dps = 2;
  b.grade = Grade::kE;
  EXPECT_EQ(redress_allowance(s, b), 1u);  // the Allies are 27" away
  brigade(s, "al_b1").position = {16, 15};  // 5" from fr_b1's front
  EXPECT_EQ(redress_allowance(s, brigade(s, "fr_b1")), 0u);
}

TEST(Redress, NotAfterMovingOrInCombatThisTurnAndNeverBelowZero) {
  GameState s = morale_state();
  Brigade& b = brigade(s, "fr_b1");
  b.grade = Grade::kA;
  b.dps = 1;
  EXPECT_EQ(redress_allowance(s, b), 1u);  // only what it has
  b.dps = 0;
  EXPECT_EQ(redress_allowance(s, b), 0u);
  b.dps = 3;
  b.status = bit(Status::kMoved);
  EXPECT_EQ(redress_allowance(s, b), 0u);  // "must not have moved at any time in that turn"
  b.status = 0;
  b.combat_turn = s.turn;
  EXPECT_EQ(redress_allowance(s, b), 0u);  // "not in combat that turn"
  b.combat_turn = s.turn - 1;
  b.status = bit(Status::kInCombat);
  EXPECT_EQ(redress_allowance(s, b), 0u);
}

TEST(Redress, MoraleDpsOfThisTurnAreNotRemoved) {
  GameState s = morale_state();
  Brigade& b = brigade(s, "fr_b1");
  b.grade = Grade::kA;
  b.dps = 3;
  b.morale_dps_turn = s.turn;
  b.morale_dps = 2;
  EXPECT_EQ(redress_allowance(s, b), 1u);  // only the third DP
  b.morale_dps = 3;
  EXPECT_EQ(redress_allowance(s, b), 0u);
  b.morale_dps_turn = s.turn - 1;  // acquired last turn: may go now
  EXPECT_EQ(redress_allowance(s, b), 2u);
}

// ---- Morale DPs ----

TEST(MoraleDps, TheTableRowByRow) {
  GameState s = morale_state();
  // fr_b2 stands beside fr_b1 (in contact); fr_b1 is grade C.
  struct Row {
    MoraleCauseKind kind;
    Grade grade;
    TroopType type;
    int expected;
    const char* what;
  };
  for (const Row& r : {Row{MoraleCauseKind::kRouted, Grade::kE, TroopType::kFoot, 1, "lower grade routing"},
                       Row{MoraleCauseKind::kDestroyed, Grade::kD, TroopType::kFoot, 1, "lower grade destroyed"},
                       Row{MoraleCauseKind::kRouted, Grade::kC, TroopType::kFoot, 2, "equal grade routing"},
                       Row{MoraleCauseKind::kDestroyed, Grade::kA, TroopType::kHorse, 2, "higher grade destroyed"},
                       Row{MoraleCauseKind::kRetired, Grade::kC, TroopType::kFoot, 1, "equal grade foot retiring"},
                       Row{MoraleCauseKind::kRetired, Grade::kB, TroopType::kFoot, 1, "higher grade foot retiring"},
                       Row{MoraleCauseKind::kRetired, Grade::kD, TroopType::kFoot, 0, "lower grade foot retiring"},
                       Row{MoraleCauseKind::kRetired, Grade::kA, TroopType::kHorse, 0, "cavalry retiring"}}) {
    GameState t = s;
    Brigade& cause = brigade(t, "fr_b2");
    cause.grade = r.grade;
    cause.type = r.type;
    record_cause(t, r.kind, cause);
    EXPECT_EQ(morale_dps_due(t, brigade(t, "fr_b1")), r.expected) << r.what;
  }
}

TEST(MoraleDps, OnlyFriendsWithinSixInchesAndThisTurn) {
  GameState s = morale_state();
  record_cause(s, MoraleCauseKind::kRouted, brigade(s, "fr_b1"));
  EXPECT_EQ(morale_dps_due(s, brigade(s, "fr_b2")), 2);  // in contact
  EXPECT_EQ(morale_dps_due(s, brigade(s, "fr_b5")), 0);  // 40" away
  EXPECT_EQ(morale_dps_due(s, brigade(s, "al_b1")), 0);  // the enemy does not care
  EXPECT_EQ(morale_dps_due(s, brigade(s, "fr_b1")), 0);  // nor the router itself
  s.turn = 2;
  EXPECT_EQ(morale_dps_due(s, brigade(s, "fr_b2")), 0);  // last turn's
}

TEST(MoraleDps, AWorseCauseReplacesAMilderOneForTheSameBrigade) {
  GameState s = morale_state();
  record_cause(s, MoraleCauseKind::kRetired, brigade(s, "fr_b1"));
  record_cause(s, MoraleCauseKind::kRouted, brigade(s, "fr_b1"));
  record_cause(s, MoraleCauseKind::kRetired, brigade(s, "fr_b1"));
  ASSERT_EQ(s.morale_causes.size(), 1u);
  EXPECT_EQ(morale_dps_due(s, brigade(s, "fr_b2")), 2);
}

TEST(MoraleDps, TheirLieutenantGeneralOrMarshalKilledWithinSixInches) {
  GameState s = morale_state();
  FallenLeader f;
  f.leader = "fr_lg";  // Lt Gen of the left wing, at (20, 2): 7" from fr_b2's front, 6" from its rear
  f.army = "fr";
  f.rank = LeaderRank::kLieutenantGeneral;
  f.position = {20, 5};
  f.turn = s.turn;
  s.fallen_leaders.push_back(f);
  EXPECT_EQ(morale_dps_due(s, brigade(s, "fr_b2")), 1);
  EXPECT_EQ(morale_dps_due(s, brigade(s, "fr_b5")), 0);  // another wing, and far
  s.fallen_leaders[0].leader = "fr_mg1";  // a Major General does not count
  EXPECT_EQ(morale_dps_due(s, brigade(s, "fr_b2")), 0);
  s.fallen_leaders[0].leader = "fr_m";  // a Marshal does
  EXPECT_EQ(morale_dps_due(s, brigade(s, "fr_b2")), 1);
  s.fallen_leaders[0].captured = true;  // captured is not killed
  EXPECT_EQ(morale_dps_due(s, brigade(s, "fr_b2")), 0);
}

TEST(MoraleDps, LeaderRoutingWithHisBrigade) {
  GameState s = morale_state();
  test::leader(s, "fr_lg").attached_to = "fr_b1";
  test::leader(s, "fr_lg").position = {16, 9};
  record_cause(s, MoraleCauseKind::kRouted, brigade(s, "fr_b1"));
  EXPECT_EQ(morale_dps_due(s, brigade(s, "fr_b2")), 3);  // 2 for the brigade, 1 for the general
}

TEST(MoralePhase, RedressFirstThenMoraleDpsThroughTheCapIntoCasualties) {
  GameState s = morale_state();
  Brigade& b2 = brigade(s, "fr_b2");
  b2.dps = 3;  // 4 bases: room for 1 more DP
  b2.grade = Grade::kC;
  record_cause(s, MoraleCauseKind::kRouted, brigade(s, "fr_b1"));
  brigade(s, "fr_b1").status |= bit(Status::kRouting) | bit(Status::kMoved);
  FixedDice dice{6};  // risk to leaders is not rolled (no leader attached); spare
  std::vector<Event> ev;
  run_morale_phase(s, dice, ev);
  // Re-dressed 3 -> 2 (C grade, not under fire), then +2 morale DPs -> 4: no casualty.
  EXPECT_EQ(brigade(s, "fr_b2").dps, 4u);
  EXPECT_EQ(brigade(s, "fr_b2").bases, 4u);
  EXPECT_EQ(morale_dps_this_turn(s, brigade(s, "fr_b2")), 2u);

  GameState t = morale_state();
  brigade(t, "fr_b2").dps = 4;
  brigade(t, "fr_b2").status = bit(Status::kMoved);  // no re-dress
  record_cause(t, MoraleCauseKind::kRouted, brigade(t, "fr_b1"));
  std::vector<Event> ev2;
  run_morale_phase(t, dice, ev2);
  EXPECT_EQ(brigade(t, "fr_b2").bases, 2u);  // both DPs beyond the cap became casualties
}

TEST(MoralePhase, DestroyedBrigadesAreFoundAndMournedOnce) {
  GameState s = morale_state();
  Brigade& b1 = brigade(s, "fr_b1");
  b1.bases = 0;
  b1.status |= bit(Status::kDestroyed);
  FixedDice dice{};
  std::vector<Event> ev;
  run_morale_phase(s, dice, ev);
  EXPECT_EQ(brigade(s, "fr_b2").dps, 2u);
  s.turn = 2;
  brigade(s, "fr_b2").status |= bit(Status::kMoved);
  run_morale_phase(s, dice, ev);
  EXPECT_EQ(brigade(s, "fr_b2").dps, 2u);  // not again
}

TEST(MoralePhase, PlayedByTheEngineWithNothingToDecide) {
  GameState s = morale_state();
  brigade(s, "fr_b1").dps = 2;
  EXPECT_TRUE(pending(s).empty());
  FixedDice dice{5, 2};  // turn 2's initiative
  auto r = resolve(s, {}, dice);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(brigade(r->next, "fr_b1").dps, 1u);
  bool redressed = false;
  for (const auto& e : r->events) redressed = redressed || e.kind == "redress";
  EXPECT_TRUE(redressed);
}

}  // namespace
}  // namespace galloper::rules::malbrook
