// Control at the end of the command phase, and the control test.
#include <gtest/gtest.h>

#include <algorithm>

#include "rules/core/dice.hpp"
#include "rules/malbrook/basing.hpp"
#include "rules/malbrook/control.hpp"
#include "rules/malbrook/engine.hpp"
#include "rules/malbrook/visibility.hpp"
#include "tests/rules/malbrook/bot.hpp"
#include "tests/rules/malbrook/golden_files.hpp"
#include "tests/rules/malbrook/test_state.hpp"

namespace galloper::rules::malbrook {
namespace {

using test::brigade;
using test::leader;
using test::option_answer;
using test::tiny_state;

// The French half of the control stage, control determined.
GameState control_stage(GameState s) {
  s.phase = Phase::kCommand;
  s.command_stage = CommandStage::kControl;
  s.half = 0;
  determine_control(s);
  return s;
}

void set(Brigade& b, Status st) { b.status |= static_cast<std::uint32_t>(st); }

const Decision* decision(const std::vector<Decision>& ds, std::string_view id) {
  for (const auto& d : ds) {
    if (d.id == id) return &d;
  }
  return nullptr;
}

std::vector<std::string> option_ids(const Decision& d) {
  std::vector<std::string> out;
  for (const auto& o : d.options) out.push_back(o.id);
  return out;
}

// Resolves the French control tests with these answers (defaults for the
// rest), after checking each answer as the engine would.
GameState resolve_french(const GameState& s, std::vector<Answer> given, FixedDice& dice,
                         std::vector<Event>* events = nullptr) {
  for (const auto& d : pending(s)) {
    const bool answered = std::any_of(given.begin(), given.end(), [&](const Answer& a) { return a.decision_id == d.id; });
    if (!answered) given.push_back(option_answer(d.id, d.seat, d.default_option));
  }
  for (const auto& a : given) {
    auto ok = check(s, a);
    EXPECT_TRUE(ok.ok()) << (ok.ok() ? "" : ok.error().reason);
  }
  GameState next = s;
  std::vector<Event> ev;
  resolve_control(next, given, dice, ev);
  if (events != nullptr) *events = ev;
  return next;
}

TEST(Control, WithinFourInchesOfAVisibleDetachedLeaderOfItsChain) {
  GameState s = tiny_state();
  leader(s, "fr_mg1").position = {16, 5.9};  // stand's front 3.1" from fr_b1's rear
  GameState t = control_stage(s);
  EXPECT_EQ(brigade(t, "fr_b1").control, ControlResult::kControlled);
  EXPECT_EQ(brigade(t, "fr_b1").controlled_by, "fr_mg1");
  EXPECT_EQ(brigade(t, "fr_b2").control, ControlResult::kControlled);
  EXPECT_EQ(brigade(t, "fr_b3").control, ControlResult::kTest);

  leader(s, "fr_mg1").position = {16, 4.9};  // 4.1"
  GameState u = control_stage(s);
  EXPECT_EQ(brigade(u, "fr_b1").control, ControlResult::kTest);
}

TEST(Control, SixInchesForAMarshalFourForALieutenantGeneral) {
  GameState s = tiny_state();
  leader(s, "fr_m").position = {60, 4};  // 5" from fr_b5
  GameState t = control_stage(s);
  EXPECT_EQ(brigade(t, "fr_b5").control, ControlResult::kControlled);
  EXPECT_EQ(brigade(t, "fr_b5").controlled_by, "fr_m");

  GameState v = tiny_state();
  leader(v, "fr_lg2").position = {60, 4};  // 5" from fr_b5
  EXPECT_EQ(brigade(control_stage(v), "fr_b5").control, ControlResult::kTest);
  leader(v, "fr_lg2").position = {60, 5};  // 4"
  EXPECT_EQ(brigade(control_stage(v), "fr_b5").control, ControlResult::kControlled);
}

TEST(Control, LeadersOutsideTheChainOfCommandDoNotControl) {
  GameState s = tiny_state();
  leader(s, "fr_mg2").position = {16, 6};  // c2's Major General by c1's brigade
  leader(s, "fr_lg2").position = {17, 6};  // the other wing's Lieutenant General
  GameState t = control_stage(s);
  EXPECT_EQ(brigade(t, "fr_b1").control, ControlResult::kTest);
  // Its own Lieutenant General does.
  leader(s, "fr_lg").position = {16, 7};
  EXPECT_EQ(brigade(control_stage(s), "fr_b1").controlled_by, "fr_lg");
}

TEST(Control, AttachedLeadersControlOnlyTheirOwnBrigade) {
  GameState s = tiny_state();
  s.brigades.push_back(test::make_brigade("fr_b6", "fr", "right", "c5", {66, 10}, 0));  // 2" right of fr_b5
  Leader& mg = leader(s, "fr_mg5");
  mg.attached_to = "fr_b5";
  mg.position = attached_leader_position(brigade(s, "fr_b5"));
  GameState t = control_stage(s);
  EXPECT_EQ(brigade(t, "fr_b5").control, ControlResult::kControlled);
  EXPECT_EQ(brigade(t, "fr_b5").controlled_by, "fr_mg5");
  EXPECT_EQ(brigade(t, "fr_b6").control, ControlResult::kTest);  // 3.6" from him, but he is attached
}

TEST(Control, TheLeaderMustSeeTheBrigade) {
  GameState s = tiny_state();
  leader(s, "fr_mg1").position = {15, 5.5};  // 3.5" behind fr_b1
  EXPECT_EQ(brigade(control_stage(s), "fr_b1").control, ControlResult::kControlled);
  // A formed brigade in between blocks the line of sight.
  brigade(s, "fr_b5").position = {15, 7.5};
  EXPECT_EQ(brigade(control_stage(s), "fr_b1").control, ControlResult::kTest);
}

TEST(Control, ContinuousLineConformsToAControlledBrigade) {
  GameState s = tiny_state();
  leader(s, "fr_mg1").position = {14, 5.9};  // controls fr_b1 only (fr_b2 is 4.8" away)
  s.brigades.push_back(test::make_brigade("fr_b6", "fr", "left", "c1", {24, 10}, 0));  // right of fr_b2
  GameState t = control_stage(s);
  EXPECT_EQ(brigade(t, "fr_b1").control, ControlResult::kControlled);
  EXPECT_EQ(brigade(t, "fr_b2").control, ControlResult::kConforming);
  EXPECT_EQ(brigade(t, "fr_b2").conform_to, "fr_b1");
  EXPECT_FALSE(brigade(t, "fr_b2").conform_behind);
  EXPECT_EQ(brigade(t, "fr_b6").control, ControlResult::kConforming);  // part of the same line
  EXPECT_EQ(brigade(t, "fr_b6").conform_to, "fr_b1");
  // The seat may conform (default) or test to act differently.
  const auto ds = pending(t);
  const Decision* d = decision(ds, "control/fr_b2");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->seat, "fr/left");
  EXPECT_EQ(d->default_option, "conform");
  EXPECT_EQ(option_ids(*d), (std::vector<std::string>{"conform", "test"}));
}

TEST(Control, HalfInchGapInsideACommandStillCounts) {
  GameState s = tiny_state();
  leader(s, "fr_mg1").position = {14, 5.9};
  brigade(s, "fr_b2").position = {20.5, 10};  // 1/2" gap
  EXPECT_EQ(brigade(control_stage(s), "fr_b2").control, ControlResult::kConforming);
  brigade(s, "fr_b2").position = {20.6, 10};  // 0.6"
  EXPECT_EQ(brigade(control_stage(s), "fr_b2").control, ControlResult::kTest);
}

TEST(Control, OnlyBrigadesOfTheSameCommandConform) {
  GameState s = tiny_state();
  leader(s, "fr_mg1").position = {14, 5.9};
  brigade(s, "fr_b3").position = {24, 10};  // c2, touching fr_b2's right
  GameState t = control_stage(s);
  EXPECT_EQ(brigade(t, "fr_b2").control, ControlResult::kConforming);
  EXPECT_EQ(brigade(t, "fr_b3").control, ControlResult::kTest);
}

TEST(Control, RearLineWithinFourInchesDirectlyBehindConforms) {
  GameState s = tiny_state();
  leader(s, "fr_mg2").position = {30, 14.5};  // 3.25" in front of fr_b3, 6.25" from fr_b4
  GameState t = control_stage(s);
  EXPECT_EQ(brigade(t, "fr_b3").control, ControlResult::kControlled);
  EXPECT_EQ(brigade(t, "fr_b4").control, ControlResult::kConforming);
  EXPECT_EQ(brigade(t, "fr_b4").conform_to, "fr_b3");
  EXPECT_TRUE(brigade(t, "fr_b4").conform_behind);
  brigade(s, "fr_b4").position = {30, 4.5};  // 4.5" behind
  EXPECT_EQ(brigade(control_stage(s), "fr_b4").control, ControlResult::kTest);
}

TEST(Control, FailedChargeMustTestEvenUnderControl) {
  GameState s = tiny_state();
  leader(s, "fr_mg1").position = {16, 5.9};
  set(brigade(s, "fr_b1"), Status::kFailedCharge);
  GameState t = control_stage(s);
  EXPECT_EQ(brigade(t, "fr_b1").control, ControlResult::kTest);
  EXPECT_EQ(brigade(t, "fr_b2").control, ControlResult::kControlled);
  // No choices (grade C, no leader attached): rolled at once. Right to left:
  // fr_b5, fr_b3, fr_b4 (untested: none is controlled), then fr_b1.
  FixedDice dice{4, 4, 4, 1};
  std::vector<Event> ev;
  GameState u = resolve_french(t, {}, dice, &ev);
  // 1 +1 (charging) = 2: continue the charge.
  EXPECT_EQ(brigade(u, "fr_b1").control, ControlResult::kContinue);
  EXPECT_EQ(brigade(u, "fr_b2").control, ControlResult::kControlled);
  auto e = std::find_if(ev.begin(), ev.end(), [](const Event& x) {
    return x.kind == "control_test" && x.subjects == std::vector<std::string>{"fr_b1"};
  });
  ASSERT_NE(e, ev.end());
  ASSERT_EQ(e->dice.size(), 1u);
  EXPECT_EQ(e->dice[0].face, 1);
  EXPECT_FALSE(e->is_public);
  EXPECT_EQ(e->where.size(), 1u);
}

// The bombardment asks one gun's control (gun_controlled) without working
// out the whole table's: over a bot-played demo game, as lines close and
// leaders move, it is what determine_control gives every gun in every state.
TEST(Control, OneGunsControlIsWhatTheWholeTableGivesIt) {
  GameState s = test::scenario_state("demo", test::bot_seed(3));
  test::Bot bot(3);
  int controlled = 0, not_controlled = 0;
  for (int step = 0; step < 80 && !finished(s); ++step) {
    GameState whole = s;
    determine_control(whole);
    const SceneLookup scene(s);
    for (std::size_t i = 0; i < s.guns.size(); ++i) {
      const bool want = whole.guns[i].control == ControlResult::kControlled;
      ASSERT_EQ(gun_controlled(s, scene, i), want) << "step " << step << " gun " << s.guns[i].id;
      ++(want ? controlled : not_controlled);
    }
    auto r = test::resolve_bot_step(s, bot.answers(s), nullptr);
    ASSERT_TRUE(r) << r.error().reason;
    s = std::move(r->next);
  }
  EXPECT_GT(controlled, 0);
  EXPECT_GT(not_controlled, 0);
}

TEST(ControlTest, ResultTable) {
  // Not routing, pursuing or charging.
  EXPECT_EQ(control_test_result(-1, false, false), ControlResult::kHalt);
  EXPECT_EQ(control_test_result(2, false, false), ControlResult::kHalt);
  EXPECT_EQ(control_test_result(3, false, false), ControlResult::kAsWished);
  EXPECT_EQ(control_test_result(4, false, false), ControlResult::kAsWished);
  EXPECT_EQ(control_test_result(5, false, false), ControlResult::kRepeatLastMove);
  EXPECT_EQ(control_test_result(8, false, false), ControlResult::kRepeatLastMove);
  // Routing, pursuing, charging: continue on 2- and 5+.
  EXPECT_EQ(control_test_result(2, true, false), ControlResult::kContinue);
  EXPECT_EQ(control_test_result(3, true, false), ControlResult::kAsWished);
  EXPECT_EQ(control_test_result(4, true, false), ControlResult::kAsWished);
  EXPECT_EQ(control_test_result(5, true, false), ControlResult::kContinue);
  // Looting (RULINGS.md): halt on 2-, continue looting on 5+.
  EXPECT_EQ(control_test_result(2, false, true), ControlResult::kHalt);
  EXPECT_EQ(control_test_result(5, false, true), ControlResult::kContinue);
}

TEST(ControlTest, RolledRightToLeftWithTheResultsOfTheTable) {
  GameState t = control_stage(tiny_state());  // no French brigade is controlled
  FixedDice dice{1, 2, 3, 4, 5};  // fr_b5, fr_b3, fr_b4, fr_b2, fr_b1
  std::vector<Event> ev;
  GameState u = resolve_french(t, {}, dice, &ev);
  EXPECT_EQ(dice.remaining(), 0u);
  EXPECT_EQ(brigade(u, "fr_b5").control, ControlResult::kHalt);
  EXPECT_TRUE(brigade(u, "fr_b5").has(Status::kHalted));
  EXPECT_EQ(brigade(u, "fr_b3").control, ControlResult::kHalt);
  EXPECT_EQ(brigade(u, "fr_b4").control, ControlResult::kAsWished);
  EXPECT_EQ(brigade(u, "fr_b2").control, ControlResult::kAsWished);
  EXPECT_FALSE(brigade(u, "fr_b2").has(Status::kHalted));
  EXPECT_EQ(brigade(u, "fr_b1").control, ControlResult::kRepeatLastMove);
  // The Allies' tests are theirs to roll in their half.
  EXPECT_EQ(brigade(u, "al_b1").control, ControlResult::kTest);
}

TEST(ControlTest, PlusOneWhenRoutingPursuingOrCharging) {
  for (Status st : {Status::kRouting, Status::kPursuing, Status::kCharging}) {
    GameState s = tiny_state();
    set(brigade(s, "fr_b5"), st);
    GameState t = control_stage(s);
    FixedDice dice{1, 6, 6, 6, 6};  // fr_b5 first
    GameState u = resolve_french(t, {}, dice);
    EXPECT_EQ(brigade(u, "fr_b5").control, ControlResult::kContinue) << to_string(st);  // 1+1 = 2
    FixedDice d2{2, 6, 6, 6, 6};
    EXPECT_EQ(brigade(resolve_french(t, {}, d2), "fr_b5").control, ControlResult::kAsWished);  // 2+1 = 3
    FixedDice d3{4, 6, 6, 6, 6};
    EXPECT_EQ(brigade(resolve_french(t, {}, d3), "fr_b5").control, ControlResult::kContinue);  // 4+1 = 5
  }
}

TEST(ControlTest, PlayersChooseTheLeaderAndGradeModifiersBeforeRolling) {
  GameState s = tiny_state();
  brigade(s, "fr_b5").grade = Grade::kA;
  set(brigade(s, "fr_b5"), Status::kFailedCharge);  // must test although its leader is attached
  Leader& mg = leader(s, "fr_mg5");
  mg.attached_to = "fr_b5";
  mg.position = attached_leader_position(brigade(s, "fr_b5"));
  brigade(s, "fr_b3").grade = Grade::kB;
  GameState t = control_stage(s);
  const auto ds = pending(t);
  const Decision* d5 = decision(ds, "control/fr_b5");
  ASSERT_NE(d5, nullptr);
  EXPECT_EQ(option_ids(*d5), (std::vector<std::string>{"test+2", "test+0", "test-2"}));
  EXPECT_EQ(d5->default_option, "test+0");
  const Decision* d3 = decision(ds, "control/fr_b3");
  ASSERT_NE(d3, nullptr);
  EXPECT_EQ(option_ids(*d3), (std::vector<std::string>{"test+1", "test-1"}));
  EXPECT_EQ(decision(ds, "control/fr_b1"), nullptr);  // grade C, nothing to choose: rolled

  // fr_b5: 3 +1 (charging) -2 = 2: continue the charge. fr_b3: 3 +1 = 4.
  FixedDice dice{3, 3, 6, 6, 6};
  GameState u = resolve_french(t, {option_answer("control/fr_b5", "fr/right", "test-2"),
                                   option_answer("control/fr_b3", "fr/left", "test+1")},
                               dice);
  EXPECT_EQ(brigade(u, "fr_b5").control, ControlResult::kContinue);
  EXPECT_EQ(brigade(u, "fr_b3").control, ControlResult::kAsWished);
  FixedDice again{3, 3, 6, 6, 6};
  GameState v = resolve_french(t, {option_answer("control/fr_b5", "fr/right", "test+0"),
                                   option_answer("control/fr_b3", "fr/left", "test-1")},
                               again);
  EXPECT_EQ(brigade(v, "fr_b5").control, ControlResult::kAsWished);  // 3+1+0
  EXPECT_EQ(brigade(v, "fr_b3").control, ControlResult::kHalt);      // 3-1

  // Options outside the list are refused, and nothing changes.
  auto bad = check(t, option_answer("control/fr_b3", "fr/left", "test+3"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, "bad_option");
  auto seat = check(t, option_answer("control/fr_b3", "fr/right", "test+1"));
  ASSERT_FALSE(seat.ok());
  EXPECT_EQ(seat.error().code, "unknown_decision");  // another seat's: as if none (RULINGS R21)
}

TEST(ControlTest, GunsChoosePlusOrMinusOne) {
  GameState s = tiny_state();
  Gun g;
  g.id = "fr_g1";
  g.army = "fr";
  g.wing = "left";
  g.command = "c1";
  g.position = {5, 10};
  s.guns.push_back(g);
  GameState t = control_stage(s);
  const auto ds = pending(t);
  const Decision* d = decision(ds, "control/fr_g1");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(option_ids(*d), (std::vector<std::string>{"test+1", "test-1"}));
  // Right to left: fr_b5, fr_b3, fr_b4, fr_b2, fr_b1, then the gun (x = 5).
  FixedDice dice{6, 6, 6, 6, 6, 4};
  GameState u = resolve_french(t, {option_answer("control/fr_g1", "fr/left", "test+1")}, dice);
  EXPECT_EQ(u.guns[0].control, ControlResult::kRepeatLastMove);  // 4+1
  // Within 4" of its Major General it is controlled.
  leader(s, "fr_mg1").position = {5, 14};
  EXPECT_EQ(control_stage(s).guns[0].control, ControlResult::kControlled);
}

TEST(ControlTest, ControlledRoutersMayCarryOnOrTestToCease) {
  GameState s = tiny_state();
  leader(s, "fr_lg2").position = {60, 5};  // controls fr_b5
  set(brigade(s, "fr_b5"), Status::kRouting);
  GameState t = control_stage(s);
  EXPECT_EQ(brigade(t, "fr_b5").control, ControlResult::kControlled);
  const auto ds = pending(t);
  const Decision* d = decision(ds, "control/fr_b5");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(option_ids(*d), (std::vector<std::string>{"continue", "test"}));
  EXPECT_EQ(d->default_option, "continue");
  FixedDice carry{6, 6, 6, 6};  // only the four uncontrolled brigades roll
  GameState u = resolve_french(t, {}, carry);
  EXPECT_EQ(brigade(u, "fr_b5").control, ControlResult::kControlled);
  EXPECT_EQ(carry.remaining(), 0u);
  FixedDice cease{3, 6, 6, 6, 6};  // 3+1 = 4: act as the player wishes
  GameState v = resolve_french(t, {option_answer("control/fr_b5", "fr/right", "test")}, cease);
  EXPECT_EQ(brigade(v, "fr_b5").control, ControlResult::kAsWished);
}

TEST(ControlTest, ConformingBrigadesMayTestToActDifferently) {
  GameState s = tiny_state();
  leader(s, "fr_mg1").position = {14, 5.9};
  GameState t = control_stage(s);
  // fr_b5, fr_b3, fr_b4 roll; fr_b2 chose to test.
  FixedDice dice{6, 6, 6, 5};
  GameState u = resolve_french(t, {option_answer("control/fr_b2", "fr/left", "test")}, dice);
  EXPECT_EQ(brigade(u, "fr_b2").control, ControlResult::kRepeatLastMove);
  EXPECT_TRUE(brigade(u, "fr_b2").conform_to.empty());
  FixedDice d2{6, 6, 6};
  GameState v = resolve_french(t, {}, d2);
  EXPECT_EQ(brigade(v, "fr_b2").control, ControlResult::kConforming);
}

}  // namespace
}  // namespace galloper::rules::malbrook
