// CF&EO's command phase with fixed dice (RULINGS K1-K7): each leader's
// command actions (move, attach and detach, steady, inspire), who must take
// a control test (out of command, or a failed charge), its optional
// modifiers, and what each result does to the unit's turn.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>

#include "rules/cfeo/command.hpp"
#include "rules/cfeo/engine.hpp"
#include "rules/cfeo/movement.hpp"
#include "rules/cfeo/setup.hpp"
#include "rules/core/dice.hpp"
#include "rules/core/tell.hpp"
#include "tests/rules/cfeo/specs.hpp"

namespace galloper::rules::cfeo {
namespace {

using specs::unit;

// Blue faces north (+y) from y 530. Its brigadier stands at the west end
// of "near" (50 yds from it); "line" stands 5 yds to its right; "support"
// 40 yds behind it; "far" and "far_support" 500 yds east, out of command.
// Its general and marshal stand 200 yds and more behind. Red's one
// battalion, with its brigadier attached, is 970 yds away unless `red_y`
// brings it closer.
ScenarioSpec spec(double red_y = 1500) {
  ScenarioSpec s = specs::two_sides(
      {unit("near", Arm::kFoot, 2, {1000, 530}, 0), unit("line", Arm::kFoot, 2, {1085, 530}, 0),
       unit("support", Arm::kFoot, 2, {1000, 470}, 0), unit("far", Arm::kFoot, 2, {1500, 530}, 0),
       unit("far_support", Arm::kFoot, 2, {1500, 470}, 0)},
      {unit("red_foot", Arm::kFoot, 2, {1000, red_y}, 180)});
  s.no_control_tests = false;
  s.sides[0].wings[0].brigades[0].brigadier->position = Vec2{900, 530};
  s.sides[0].wings[0].general->position = Vec2{1000, 300};
  s.sides[0].marshal->position = Vec2{1100, 300};
  s.sides[1].wings[0].brigades[0].brigadier->attached_to = "red_foot";
  return s;
}

Answer answer(const Decision& d, std::string option, std::vector<OrderStep> steps = {}) {
  return {d.id, d.seat, std::move(option), std::move(steps)};
}

std::optional<Decision> owed(const GameState& s, const std::string& id) {
  for (auto& d : pending(s)) {
    if (d.id == id) return d;
  }
  return std::nullopt;
}

// Every decision answered with its default until blue's command actions
// are owed (turn 1, no dice on the way).
GameState at_command(const ScenarioSpec& sp) {
  GameState s = initial_state(sp);
  FixedDice none({});
  for (int guard = 0; guard < 20 && !(s.started && s.phase == Phase::kCommand); ++guard) {
    std::vector<Answer> as;
    for (const auto& d : pending(s)) as.push_back(answer(d, d.default_option));
    auto r = resolve(s, as, none);
    EXPECT_TRUE(r.ok()) << r.error().reason;
    s = std::move(r->next);
  }
  EXPECT_EQ(s.phase, Phase::kCommand);
  return s;
}

// Red's halves passed with defaults and no dice: on to blue's next decisions.
GameState skip_red(GameState s) {
  FixedDice none({});
  for (int guard = 0; guard < 20; ++guard) {
    const auto owed_now = pending(s);
    if (owed_now.empty() || std::any_of(owed_now.begin(), owed_now.end(), [](const Decision& d) { return d.seat.starts_with("blue"); })) {
      return s;
    }
    std::vector<Answer> as;
    for (const auto& d : owed_now) as.push_back(answer(d, d.default_option));
    auto r = resolve(s, as, none);
    EXPECT_TRUE(r.ok()) << r.error().reason;
    s = std::move(r->next);
  }
  return s;
}

// The next turn's command phase, blue acting, as the turn's start leaves a
// unit: no marks of the last turn.
GameState next_command(GameState s) {
  s.phase = Phase::kCommand;
  s.command_stage = CommandStage::kActions;
  s.half = 0;
  ++s.turn;
  for (Unit& u : s.units) {
    u.control = Control::kFree;
    u.moved = false;
  }
  return s;
}

// Resolves one step: `given` answers, every other decision its default.
StepResult step(const GameState& s, std::vector<Answer> given, std::vector<int> faces) {
  std::vector<Answer> as = given;
  for (const auto& d : pending(s)) {
    if (std::none_of(given.begin(), given.end(), [&](const Answer& a) { return a.decision_id == d.id; })) {
      as.push_back(answer(d, d.default_option));
    }
  }
  FixedDice dice(std::move(faces));
  auto r = resolve(s, as, dice);
  EXPECT_TRUE(r.ok()) << r.error().reason;
  EXPECT_EQ(dice.remaining(), 0u);
  return std::move(r.value());
}

std::size_t index_of(const GameState& s, const std::string& id) {
  return static_cast<std::size_t>(std::find_if(s.units.begin(), s.units.end(), [&](const Unit& u) { return u.id == id; }) -
                                  s.units.begin());
}
const Unit& named(const GameState& s, const std::string& id) { return s.units[index_of(s, id)]; }
const Leader& leader(const GameState& s, const std::string& id) {
  return *std::find_if(s.leaders.begin(), s.leaders.end(), [&](const Leader& l) { return l.id == id; });
}

OrderStep act(std::string action, std::string target = {}) {
  OrderStep st;
  st.action = std::move(action);
  st.target = std::move(target);
  return st;
}
OrderStep move_to(Vec2 to) {
  OrderStep st;
  st.action = "move_to";
  st.to = to;
  return st;
}

std::vector<std::string> texts(const std::vector<Event>& ev, const std::string& kind) {
  std::vector<std::string> out;
  for (const auto& e : ev) {
    if (e.kind == kind) out.push_back(plain_text(e.text));
  }
  return out;
}

TEST(CfeoCommand, ActionsAreTwoForAMarshalOrGeneralOneForABrigadierLessOneAWound) {
  Leader l;
  l.rank = LeaderRank::kMarshal;
  EXPECT_EQ(command_actions(l), 2);
  l.rank = LeaderRank::kGeneral;
  EXPECT_EQ(command_actions(l), 2);
  l.wounds = 1;
  EXPECT_EQ(command_actions(l), 1);
  l.rank = LeaderRank::kBrigadier;
  EXPECT_EQ(command_actions(l), 0);
  l.wounds = 0;
  EXPECT_EQ(command_actions(l), 1);
  l.action_modifier = 1;
  EXPECT_EQ(command_actions(l), 2);
  l.killed = true;
  EXPECT_EQ(command_actions(l), 0);
}

TEST(CfeoCommand, EachLeaderOfTheActingSideOwesHisActions) {
  const GameState s = at_command(spec());
  std::vector<std::string> ids;
  for (const auto& d : pending(s)) ids.push_back(d.id + "@" + d.seat);
  EXPECT_EQ(ids, (std::vector<std::string>{"command/blue_m@blue/army", "command/blue_g@blue/w", "command/blue_bde@blue/w"}));
  EXPECT_EQ(owed(s, "command/blue_bde")->limits.front(), (std::pair<std::string, double>{"actions", 1}));
  EXPECT_EQ(owed(s, "command/blue_g")->limits.front(), (std::pair<std::string, double>{"actions", 2}));
}

TEST(CfeoCommand, UnitsBeyondTheirLeadersReachTestUnlessInLineOrBehindAControlledOne) {
  const GameState s = at_command(spec());
  const auto tests = control_tests_owed(s);
  EXPECT_EQ(tests[index_of(s, "near")], 0);     // 50 yds from its brigadier
  EXPECT_EQ(tests[index_of(s, "line")], 0);     // in line with "near"
  EXPECT_EQ(tests[index_of(s, "support")], 0);  // 40 yds behind "near"
  EXPECT_EQ(tests[index_of(s, "far")], 1);
  EXPECT_EQ(tests[index_of(s, "far_support")], 1);  // behind a unit itself out of command
  EXPECT_EQ(tests[index_of(s, "red_foot")], 0);     // red does not act in blue's half
  // The marshal commands at 120 yds: 40 yds behind far_support and 100
  // behind far, both are in command.
  ScenarioSpec sp = spec();
  sp.sides[0].marshal->position = Vec2{1500, 410};
  const GameState m = at_command(sp);
  EXPECT_EQ(control_tests_owed(m)[index_of(m, "far_support")], 0);
  EXPECT_EQ(control_tests_owed(m)[index_of(m, "far")], 0);
  // A brigadier commands at 60 yds only: there, far is beyond him.
  sp = spec();
  sp.sides[0].wings[0].brigades[0].brigadier->position = Vec2{1500, 410};
  const GameState b = at_command(sp);
  EXPECT_EQ(control_tests_owed(b)[index_of(b, "far_support")], 0);
  EXPECT_EQ(control_tests_owed(b)[index_of(b, "far")], 1);
  // The umpire's call: no control tests at all.
  sp = spec();
  sp.no_control_tests = true;
  const GameState off = at_command(sp);
  EXPECT_EQ(control_tests_owed(off)[index_of(off, "far")], 0);
}

TEST(CfeoCommand, ALeaderMoves240YdsFarFromTheEnemyAnd120WithinReachOfIt) {
  const GameState s = at_command(spec());
  const auto g = owed(s, "command/blue_g");  // at (1000, 300); red is far away
  ASSERT_TRUE(g);
  EXPECT_TRUE(check(s, answer(*g, "", {move_to({1240, 300})})).ok());
  auto far = check(s, answer(*g, "", {move_to({1250, 300})}));
  ASSERT_FALSE(far.ok());
  EXPECT_EQ(far.error().code, "too_far");
  EXPECT_EQ(plain_text(far.error().reason), "blue_g moves 250 yds; a move action is up to 240 yds.");
  // Two moves are two actions: a general has two, a brigadier one.
  EXPECT_TRUE(check(s, answer(*g, "", {move_to({1240, 300}), move_to({1240, 500})})).ok());
  const auto b = owed(s, "command/blue_bde");
  auto many = check(s, answer(*b, "", {move_to({900, 600}), move_to({900, 700})}));
  ASSERT_FALSE(many.ok());
  EXPECT_EQ(many.error().code, "too_many_actions");
  // With red 100 yds beyond "near", a move ending within 120 yds of it is
  // 120 yds at most.
  const GameState close = at_command(spec(640));
  const auto c = owed(close, "command/blue_bde");  // at (900, 530)
  ASSERT_TRUE(c);
  EXPECT_TRUE(check(close, answer(*c, "", {move_to({900, 650})})).ok());
  auto near = check(close, answer(*c, "", {move_to({900, 660})}));
  ASSERT_FALSE(near.ok());
  EXPECT_EQ(plain_text(near.error().reason),
            "blue_bde moves 130 yds; a move action is up to 120 yds within 120 yds of an enemy his side sees.");
}

TEST(CfeoCommand, AnAttachedLeaderSteadiesOrInspiresHisUnitAndGoesWhereItGoes) {
  ScenarioSpec sp = spec();
  sp.sides[0].wings[0].brigades[0].units[0].dps = 2;  // near
  GameState s = at_command(sp);
  const auto b = owed(s, "command/blue_bde");
  // Not attached: neither steady nor inspire.
  auto loose = check(s, answer(*b, "", {act("steady")}));
  ASSERT_FALSE(loose.ok());
  EXPECT_EQ(loose.error().code, "not_attached");
  // The general rides to "near" and inspires it (two actions); the
  // brigadier joins "line" (one).
  const auto g = owed(s, "command/blue_g");
  StepResult r = step(s, {answer(*g, "", {act("attach", "near"), act("inspire")}),
                          answer(*b, "", {act("attach", "line")})},
                      {3, 4});  // far and far_support: act as they wish
  const GameState& after = r.next;
  EXPECT_EQ(leader(after, "blue_g").attached_to, static_cast<Index>(index_of(after, "near")));
  EXPECT_NEAR(leader(after, "blue_g").position.y, 510, 1e-9);  // behind near's rear edge
  EXPECT_EQ(named(after, "near").inspired, 1u);
  EXPECT_EQ(texts(r.events, "inspire"), (std::vector<std::string>{"blue_g inspires near (+1)."}));
  EXPECT_EQ(texts(r.events, "control_test"),
            (std::vector<std::string>{"far takes a control test: 3, it acts as its player wishes.",
                                      "far_support takes a control test: 4, it acts as its player wishes."}));
  // Next turn the general steadies "near": a DP off, and it stays put.
  const GameState t2 = next_command(after);
  const auto g2 = owed(t2, "command/blue_g");
  ASSERT_TRUE(g2);
  StepResult r2 = step(t2, {answer(*g2, "", {act("steady")})}, {3, 3});
  EXPECT_EQ(named(r2.next, "near").dps, 1u);
  EXPECT_TRUE(named(r2.next, "near").steadied);
  const GameState moving = skip_red(r2.next);
  EXPECT_EQ(moving.phase, Phase::kMovement);
  EXPECT_FALSE(owed(moving, "move/near"));
  ASSERT_TRUE(owed(moving, "move/line"));
  // The brigadier with "line" moves with it.
  const auto line = owed(moving, "move/line");
  OrderStep fwd;
  fwd.action = "forward";
  fwd.distance = 100;
  StepResult r3 = step(moving, {answer(*line, "", {fwd})}, {});
  EXPECT_NEAR(leader(r3.next, "blue_bde").position.y, 610, 1e-9);
  EXPECT_NEAR(leader(r3.next, "blue_bde").position.x, 1085, 1e-9);
}

TEST(CfeoCommand, InspireAddsToCombatAndToEachMoveDieTwiceAtMost) {
  GameState s = at_command(spec(640));
  const auto g = owed(s, "command/blue_g");
  const auto m = owed(s, "command/blue_m");
  StepResult r = step(s, {answer(*g, "", {act("attach", "near"), act("inspire")}),
                          answer(*m, "", {act("attach", "near"), act("inspire")})},
                      {3, 3});
  // The marshal's inspire is a second action on the unit: +2, the most.
  EXPECT_EQ(named(r.next, "near").inspired, 2u);
  // "Inspired unit: +10 yds for each die rolled": 1 AvD of 3 is 40 yds.
  const GameState moving = skip_red(r.next);
  const auto move_dice = owed(moving, "move_dice/near");
  ASSERT_TRUE(move_dice);
  StepResult rolled = step(moving, {answer(*move_dice, "1")}, {3});
  EXPECT_EQ(named(rolled.next, "near").allowance, 40);
  EXPECT_EQ(texts(rolled.events, "move_dice").front(), "near rolls 1 AvD, inspired, for its move: 40 yds.");
  // In the combat phase its charge fights with "+2 (leader inspiring)".
  GameState combat = r.next;
  combat.phase = Phase::kCombat;
  combat.combat_stage = CombatStage::kCharges;
  combat.half = 0;
  const auto ch = owed(combat, "charge/near");
  ASSERT_TRUE(ch);
  std::vector<int> faces{5, 6};  // 1 AvD + D6: 110 yds, contact
  faces.resize(40, 1);           // every combat die a miss
  FixedDice dice(faces);
  std::vector<Answer> as{answer(*ch, "red_foot")};
  for (const auto& d : pending(combat)) {
    if (d.id != ch->id) as.push_back(answer(d, d.default_option));
  }
  auto fought = resolve(combat, as, dice);
  ASSERT_TRUE(fought.ok()) << fought.error().reason;
  bool inspired = false;
  for (const auto& e : fought->events) inspired = inspired || plain_text(e.text).find("+2 (leader inspiring)") != std::string::npos;
  EXPECT_TRUE(inspired);
}

TEST(CfeoCommand, EachControlResultBindsTheUnitsTurn) {
  const GameState s = at_command(spec());
  // far: 1 halts; far_support: 6 repeats its last move, which is none.
  StepResult r = step(s, {}, {1, 6});
  EXPECT_EQ(named(r.next, "far").control, Control::kHalt);
  EXPECT_EQ(named(r.next, "far_support").control, Control::kRepeatLastMove);
  const GameState moving = skip_red(r.next);
  EXPECT_EQ(moving.phase, Phase::kMovement);
  EXPECT_FALSE(owed(moving, "move/far"));
  EXPECT_FALSE(owed(moving, "move/far_support"));
  EXPECT_TRUE(owed(moving, "move/near"));
  EXPECT_EQ(texts(r.events, "control_test").front(), "far takes a control test: 1, it halts this turn.");
}

TEST(CfeoCommand, RepeatLastMoveMakesTheSameStepsAgain) {
  GameState s = at_command(spec());
  StepResult r = step(s, {}, {3, 3});
  const GameState moving = skip_red(r.next);
  OrderStep fwd;
  fwd.action = "forward";
  fwd.distance = 50;
  ASSERT_TRUE(owed(moving, "move/far"));
  StepResult moved = step(moving, {answer(*owed(moving, "move/far"), "", {fwd})}, {});
  EXPECT_NEAR(named(moved.next, "far").position.y, 580, 1e-9);
  EXPECT_EQ(named(moved.next, "far").last_move, std::vector<OrderStep>{fwd});
  EXPECT_TRUE(named(moved.next, "far_support").last_move.empty());
  // The next turn's test: 6 for far, which marches its 50 yds again.
  StepResult again = step(next_command(moved.next), {}, {6, 3});
  EXPECT_EQ(named(again.next, "far").control, Control::kRepeatLastMove);
  EXPECT_NEAR(named(again.next, "far").position.y, 580, 1e-9);
  StepResult orders = step(skip_red(again.next), {}, {});  // the ordered units halt; far repeats as the half closes
  EXPECT_NEAR(named(orders.next, "far").position.y, 630, 1e-9);
  EXPECT_EQ(texts(orders.events, "moved"), (std::vector<std::string>{"far repeats its last move: 50 yds."}));
}

TEST(CfeoCommand, AGradeUnitsAndAttachedLeadersChooseTheOptionalModifiers) {
  ScenarioSpec sp = spec();
  sp.sides[0].wings[0].brigades[0].units[3].grade = Grade::kA;  // far
  const GameState s = at_command(sp);
  StepResult actions = step(s, {}, {});
  const auto c = owed(actions.next, "control/far");
  ASSERT_TRUE(c);
  std::vector<std::string> ids;
  for (const auto& o : c->options) ids.push_back(o.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"-1", "0", "+1"}));
  EXPECT_EQ(c->default_option, "0");
  EXPECT_FALSE(owed(actions.next, "control/far_support"));  // C Grade, no leader: rolled unasked
  auto bad = check(actions.next, answer(*c, "+2"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, "bad_option");
  StepResult r = step(actions.next, {answer(*c, "+1")}, {4, 3});
  EXPECT_EQ(named(r.next, "far").control, Control::kRepeatLastMove);
  EXPECT_EQ(texts(r.events, "control_test").front(), "far takes a control test: 4 +1 = 5, it repeats its last move.");
}

TEST(CfeoCommand, AFailedChargeTestsEvenInCommandAndMayBeHeldToChargeAgain) {
  GameState s = at_command(spec(640));
  s.units[index_of(s, "near")].charge_failed = true;
  EXPECT_EQ(control_tests_owed(s)[index_of(s, "near")], 1);
  // 2: "Continue ... charge unless 3-4 result".
  StepResult r = step(s, {}, {2, 3, 3});  // near, far, far_support
  EXPECT_EQ(named(r.next, "near").control, Control::kContinueCharge);
  EXPECT_FALSE(named(r.next, "near").charge_failed);
  const GameState moving = skip_red(r.next);
  EXPECT_EQ(moving.phase, Phase::kMovement);
  EXPECT_FALSE(owed(moving, "move_dice/near"));
  EXPECT_TRUE(owed(moving, "move_dice/line"));
  EXPECT_EQ(texts(r.events, "control_test").front(), "near takes a control test: 2, it continues its charge.");
  // In the combat phase it must charge: "none" is not offered.
  GameState combat = moving;
  combat.phase = Phase::kCombat;
  combat.combat_stage = CombatStage::kCharges;
  const auto ch = owed(combat, "charge/near");
  ASSERT_TRUE(ch);
  std::vector<std::string> ids;
  for (const auto& o : ch->options) ids.push_back(o.id);
  EXPECT_EQ(ids, std::vector<std::string>{"red_foot"});
  EXPECT_EQ(ch->default_option, "red_foot");
}

TEST(CfeoCommand, AnEnemyUnitAndAMadeUpIdAreRefusedInTheSameWords) {
  const GameState s = at_command(spec());
  const auto g = owed(s, "command/blue_g");
  auto enemy = check(s, answer(*g, "", {act("attach", "red_foot")}));
  auto made_up = check(s, answer(*g, "", {act("attach", "no_such_unit")}));
  ASSERT_FALSE(enemy.ok());
  ASSERT_FALSE(made_up.ok());
  EXPECT_EQ(enemy.error().code, made_up.error().code);
  EXPECT_EQ(plain_text(enemy.error().reason), "\"red_foot\" is not a unit blue_g commands.");
  EXPECT_EQ(plain_text(made_up.error().reason), "\"no_such_unit\" is not a unit blue_g commands.");
  // A step that is no command action is refused as such.
  auto other = check(s, answer(*g, "", {act("charge")}));
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.error().code, "bad_action");
}

}  // namespace
}  // namespace galloper::rules::cfeo
