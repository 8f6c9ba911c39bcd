// The CF&EO movement phase with fixed dice: march moves beyond 120 yds,
// the dice of a tactical move and their fatigue, each step of an order and
// every refusal (too far, within 20 yds of the enemy, off the table, onto a
// friend, a march move ending within 120 yds), two orders that collide, and
// a rout going on in the turns after it began.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "rules/cfeo/engine.hpp"
#include "rules/cfeo/movement.hpp"
#include "rules/cfeo/setup.hpp"
#include "rules/core/dice.hpp"
#include "tests/rules/cfeo/specs.hpp"
#include "rules/core/tell.hpp"

namespace galloper::rules::cfeo {
namespace {

using specs::leader;
using specs::unit;

// Blue's foot (x 960-1040) and horse (x 1160-1240) face north from y 300;
// red's six-base battalion (x 880-1120) faces south at y `red_y`. No guns, so the bombardment and musketry ask nothing when red
// is far away.
ScenarioSpec spec(double red_y) {
  ScenarioSpec s;
  s.name = "moves";
  s.table_width = 2000;
  s.table_depth = 2000;
  s.turn_limit = 2;
  s.attacker = "blue";
  s.no_control_tests = true;  // the commanders stand at the rear
  for (const std::string side : {"blue", "red"}) {
    const bool blue = side == "blue";
    SideSpec a;
    a.id = side;
    a.style = CavalryStyle::kTraditional;
    const Vec2 rear{100, blue ? 20.0 : 1980.0};
    a.marshal = leader(side + "_m", rear);
    WingSpec w;
    w.id = "w";
    w.general = leader(side + "_g", rear);
    BrigadeSpec b;
    b.id = side + "_b";
    b.brigadier = leader(side + "_bde", rear);
    if (blue) {
      b.units.push_back(unit("foot", Arm::kFoot, 2, {1000, 300}, 0));
      b.units.push_back(unit("horse", Arm::kHorse, 2, {1200, 300}, 0));
    } else {
      b.units.push_back(unit("red_foot", Arm::kFoot, 6, {1000, red_y}, 180));
    }
    w.brigades.push_back(b);
    a.wings.push_back(w);
    s.sides.push_back(a);
  }
  return s;
}

// The state at blue's first movement orders (or dice), resolving whatever
// comes before with defaults.
GameState at_movement(double red_y) {
  GameState s = initial_state(spec(red_y));
  FixedDice none({});
  for (int i = 0; i < 20 && !(s.phase == Phase::kMovement && s.started); ++i) {
    std::vector<Answer> answers;
    for (const auto& d : pending(s)) answers.push_back({d.id, d.seat, d.default_option, {}});
    auto r = resolve(s, answers, none);
    EXPECT_TRUE(r.ok());
    s = r->next;
  }
  EXPECT_EQ(s.phase, Phase::kMovement);
  return s;
}

const Decision* find(const std::vector<Decision>& ds, const std::string& id) {
  for (const auto& d : ds) {
    if (d.id == id) return &d;
  }
  return nullptr;
}

Answer order(const Decision& d, std::vector<OrderStep> steps) { return {d.id, d.seat, "", std::move(steps)}; }

OrderStep forward(double yards) {
  OrderStep st;
  st.action = "forward";
  st.distance = yards;
  return st;
}

TEST(CfeoMarchMove, FootMarchUpTo160YardsAndNoFarther) {
  const GameState s = at_movement(1500);
  const auto owed = pending(s);
  const Decision* d = find(owed, "move/foot");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->limits, (std::vector<std::pair<std::string, double>>{{"max_distance", 160}}));
  EXPECT_TRUE(check(s, order(*d, {forward(160)})).ok());
  const auto far = check(s, order(*d, {forward(161)}));
  ASSERT_FALSE(far.ok());
  EXPECT_EQ(far.error().code, "too_far");
  EXPECT_EQ(plain_text(far.error().reason), "foot has 160 yds of its move left, not 161 yds.");
  // Horse march 240.
  const Decision* h = find(owed, "move/horse");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(h->limits.front().second, 240);
}

TEST(CfeoMarchMove, AnOrderMovesTheUnitAndAnEmptyOneHalts) {
  const GameState s = at_movement(1500);
  const auto owed = pending(s);
  std::vector<Answer> answers;
  for (const auto& d : owed) answers.push_back(order(d, d.id == "move/foot" ? std::vector<OrderStep>{forward(100)}
                                                                              : std::vector<OrderStep>{}));
  FixedDice none({});
  auto r = resolve(s, answers, none);
  ASSERT_TRUE(r.ok()) << r.error().reason;
  EXPECT_NEAR(r->next.units[0].position.y, 400, 1e-9);
  EXPECT_TRUE(r->next.units[0].moved);
  EXPECT_NEAR(r->next.units[1].position.y, 300, 1e-9);
  EXPECT_FALSE(r->next.units[1].moved);
}

TEST(CfeoMarchMove, AMarchMoveMayNotEndWithin120YardsOfTheEnemy) {
  // Red's front at 560, 260 yds from blue's: a march move may close to 140
  // but not to 110.
  const GameState s = at_movement(560);
  const auto owed = pending(s);
  const Decision* d = find(owed, "move/foot");
  ASSERT_NE(d, nullptr);
  EXPECT_TRUE(check(s, order(*d, {forward(120)})).ok());
  const auto close = check(s, order(*d, {forward(150)}));
  ASSERT_FALSE(close.ok());
  EXPECT_EQ(close.error().code, "march_into_contact");
}

TEST(CfeoTacticalMove, DiceAreOfferedByArmAndGiveTheYardsOfTheOrder) {
  // Red at 400: 100 yds from blue's front, within 120.
  const GameState s = at_movement(400);
  const auto owed = pending(s);
  const Decision* foot = find(owed, "move_dice/foot");
  const Decision* horse = find(owed, "move_dice/horse");
  ASSERT_NE(foot, nullptr);
  ASSERT_NE(horse, nullptr);
  auto ids = [](const Decision& d) {
    std::vector<std::string> out;
    for (const auto& o : d.options) out.push_back(o.id);
    return out;
  };
  EXPECT_EQ(ids(*foot), (std::vector<std::string>{"1", "1+d6", "halt"}));
  EXPECT_EQ(ids(*horse), (std::vector<std::string>{"1", "1+d6", "2", "2+d6", "halt"}));
  // Foot: AvD 4 + D6 6 = 100 yds; the 6 in line on good ground is 1 DP.
  FixedDice dice({4, 6});
  auto r = resolve(s, {{foot->id, foot->seat, "1+d6", {}}, {horse->id, horse->seat, "halt", {}}}, dice);
  ASSERT_TRUE(r.ok()) << r.error().reason;
  const GameState& next = r->next;
  EXPECT_EQ(next.units[0].allowance, 100);
  EXPECT_EQ(next.units[0].dps, 1u);
  EXPECT_EQ(next.units[1].allowance, 0);
  const auto orders = pending(next);
  ASSERT_EQ(orders.size(), 1u);
  EXPECT_EQ(orders[0].id, "move/foot");
  // 100 yds, but the enemy's front is 100 yds off: it must halt at 20.
  EXPECT_TRUE(check(next, order(orders[0], {forward(80)})).ok());
  const auto too_close = check(next, order(orders[0], {forward(81)}));
  ASSERT_FALSE(too_close.ok());
  EXPECT_EQ(too_close.error().code, "too_close");
}

TEST(CfeoManoeuvre, AWheelCostsItsOuterArcAndADpWithin120YardsOfTheEnemy) {
  const GameState s = at_movement(400);
  FixedDice dice({5, 5});  // foot 1 AvD + D6: 100 yds, no 6
  auto r = resolve(s, {{"move_dice/foot", "blue/w", "1+d6", {}}, {"move_dice/horse", "blue/w", "halt", {}}}, dice);
  ASSERT_TRUE(r.ok()) << r.error().reason;
  const auto orders = pending(r->next);
  ASSERT_EQ(orders.size(), 1u);
  // On its left corner a wheel turns left: a negative (anticlockwise) angle.
  OrderStep wheel;
  wheel.action = "wheel";
  wheel.pivot = "left";
  wheel.angle_deg = -60;  // an 80-yd front: an arc of 83.8 yds
  FixedDice none({});
  auto moved = resolve(r->next, {order(orders[0], {wheel})}, none);
  ASSERT_TRUE(moved.ok()) << moved.error().reason;
  const Unit& u = moved->next.units[0];
  EXPECT_NEAR(u.facing_deg, 300, 1e-9);
  EXPECT_EQ(u.dps, 1u);
  wheel.angle_deg = -75;  // 104.7 yds: more than 100
  EXPECT_EQ(check(r->next, order(orders[0], {wheel})).error().code, "too_far");
  wheel.angle_deg = 30;  // on the left corner, clockwise: backwards
  EXPECT_EQ(check(r->next, order(orders[0], {wheel})).error().code, "bad_wheel");
}

TEST(CfeoManoeuvre, BeyondTheEnemyAChangeOfFormationIsHalfAMoveAndNoDp) {
  const GameState s = at_movement(1500);
  const auto owed = pending(s);
  const Decision* d = find(owed, "move/foot");
  ASSERT_NE(d, nullptr);
  OrderStep column;
  column.action = "formation";
  column.formation = "march column";
  EXPECT_TRUE(check(s, order(*d, {column, forward(80)})).ok());
  EXPECT_EQ(check(s, order(*d, {column, forward(81)})).error().code, "too_far");
  OrderStep bad = column;
  bad.formation = "square";
  EXPECT_EQ(check(s, order(*d, {bad})).error().code, "bad_formation");
}

TEST(CfeoMarchMove, AnOrderOntoAFriendOrOffTheTableIsRefused) {
  GameState s = at_movement(1500);
  // The horse 120 yds straight ahead of the foot.
  s.units[1].position = {1000, 420};
  const auto owed = pending(s);
  const Decision* d = find(owed, "move/foot");
  ASSERT_NE(d, nullptr);
  EXPECT_TRUE(check(s, order(*d, {forward(80)})).ok());
  const auto onto = check(s, order(*d, {forward(120)}));
  ASSERT_FALSE(onto.ok());
  EXPECT_EQ(onto.error().code, "overlap");
  EXPECT_EQ(plain_text(onto.error().reason), "foot would end on horse.");
  // The horse at the east edge, facing it.
  s.units[1].position = {1960, 300};
  s.units[1].facing_deg = 90;
  const auto now = pending(s);
  const Decision* h = find(now, "move/horse");
  ASSERT_NE(h, nullptr);
  EXPECT_EQ(check(s, order(*h, {forward(100)})).error().code, "off_table");
  EXPECT_EQ(check(s, order(*h, {forward(-5)})).error().code, "bad_distance");
  OrderStep skip;
  skip.action = "charge";
  EXPECT_EQ(check(s, order(*h, {skip})).error().code, "bad_action");
}

TEST(CfeoMarchMove, TwoOrdersThatEndOnEachOtherAreRefusedNamingBoth) {
  GameState s = at_movement(1500);
  // The horse 150 yds behind the foot, both facing north: the foot marches
  // 100, the horse 240 through where the foot stood, onto its new place.
  s.units[1].position = {1000, 150};
  const auto owed = pending(s);
  EXPECT_TRUE(check(s, order(*find(owed, "move/foot"), {forward(100)})).ok());
  EXPECT_TRUE(check(s, order(*find(owed, "move/horse"), {forward(240)})).ok());
  FixedDice none({});
  auto r = resolve(s, {order(*find(owed, "move/foot"), {forward(100)}), order(*find(owed, "move/horse"), {forward(240)})},
                   none);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, "collision");
  EXPECT_EQ(r.error().decisions, (std::vector<std::string>{"move/foot", "move/horse"}));
}

// An order left unanswered takes its default, "halt": the unit stands. The
// option is "halt" with no steps, or steps with none.
TEST(CfeoMarchMove, HaltIsTheDefaultAndTakesNoSteps) {
  const GameState s = at_movement(1500);
  const auto owed = pending(s);
  const Decision* d = find(owed, "move/foot");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->default_option, "halt");
  EXPECT_TRUE(check(s, {d->id, d->seat, "halt", {}}).ok());
  EXPECT_EQ(check(s, {d->id, d->seat, "halt", {forward(10)}}).error().code, "bad_option");
  EXPECT_EQ(check(s, {d->id, d->seat, "charge", {}}).error().code, "bad_option");
}

// Both sides moving at once (RULINGS F10): the foot and red's battalion, 120
// yds apart, each advance 60 yds: legal alone, they would meet; both halt
// where they stood and the step goes on.
TEST(CfeoSimultaneousMove, EnemiesWhoseMovesWouldMeetBothHalt) {
  GameState s = at_movement(420);
  s.options.simultaneous = true;
  s.half = 0;
  std::vector<Answer> dice_answers;
  for (const auto& d : pending(s)) dice_answers.push_back({d.id, d.seat, d.kind == "move_dice" ? "1+d6" : "", {}});
  ASSERT_EQ(dice_answers.size(), 2u);  // the foot and red's battalion; the horse marches later
  FixedDice dice({5, 6, 5, 6});       // 110 yds each (and a DP each for the 6)
  auto rolled = resolve(s, dice_answers, dice);
  ASSERT_TRUE(rolled.ok()) << rolled.error().reason;
  const GameState& at = rolled->next;
  const auto owed = pending(at);
  std::vector<Answer> orders;
  for (const auto& d : owed) {
    orders.push_back(order(d, d.id == "move/foot" || d.id == "move/red_foot" ? std::vector<OrderStep>{forward(60)}
                                                                             : std::vector<OrderStep>{}));
    EXPECT_TRUE(check(at, orders.back()).ok()) << d.id;
  }
  FixedDice none({});
  auto r = resolve(at, orders, none);
  ASSERT_TRUE(r.ok()) << r.error().reason;
  EXPECT_EQ(r->next.units[0].position, at.units[0].position);
  EXPECT_EQ(r->next.units[2].position, at.units[2].position);
  int halted = 0;
  for (const Event& e : r->events) {
    if (e.kind != "halted") continue;
    ++halted;
    EXPECT_EQ(e.subjects.size(), 1u);
    EXPECT_NE(plain_text(e.text).find("meets the enemy moving at the same time and halts"), std::string::npos);
  }
  EXPECT_EQ(halted, 2);
}


std::vector<std::string> rout_texts(const std::vector<Event>& ev) {
  std::vector<std::string> out;
  for (const auto& e : ev) {
    if (e.kind == "rout") out.push_back(plain_text(e.text));
  }
  return out;
}

// RULINGS C13: blue's foot, routed from red's battalion 100 yds off, has
// turned its back on it.
TEST(CfeoRout, ARouterRoutsOnEachTurnUntil240YdsFromTheEnemy) {
  GameState s = at_movement(420);
  Unit& foot = s.units[0];
  foot.routing = true;
  foot.facing_deg = 180;
  foot.formation = Formation::kUnformed;
  EXPECT_NEAR(enemy_distance(s, foot), 100, 1e-9);
  // Its order is none: it routs.
  EXPECT_EQ(find(pending(s), "move/foot"), nullptr);
  std::vector<Event> ev;
  FixedDice dice({5, 6});  // 1 AvD + D6: 110 yds, with no +10 a die after the first rout
  close_movement(s, dice, ev);
  EXPECT_NEAR(s.units[0].position.y, 190, 1e-6);
  EXPECT_EQ(rout_texts(ev), std::vector<std::string>{"foot routs on 110 yds (110 yds rolled)."});
  // The next turn it stops 240 yds from red, 30 yds on.
  ev.clear();
  FixedDice more({4, 3});
  close_movement(s, more, ev);
  EXPECT_NEAR(s.units[0].position.y, 160, 1e-6);
  EXPECT_EQ(rout_texts(ev), std::vector<std::string>{"foot routs on 30 yds (70 yds rolled)."});
  // There it routs no further: the morale phase's test is its way out (C12).
  ev.clear();
  FixedDice none({});
  close_movement(s, none, ev);
  EXPECT_NEAR(s.units[0].position.y, 160, 1e-6);
  EXPECT_TRUE(rout_texts(ev).empty());
}

}  // namespace
}  // namespace galloper::rules::cfeo
