// The Command Phase: command actions, chain of command, orders, messengers.
#include <gtest/gtest.h>

#include <algorithm>

#include "rules/core/dice.hpp"
#include "rules/malbrook/basing.hpp"
#include "rules/malbrook/command.hpp"
#include "rules/malbrook/engine.hpp"
#include "tests/rules/malbrook/test_state.hpp"

namespace galloper::rules::malbrook {
namespace {

using test::act;
using test::brigade;
using test::leader;
using test::move_to;
using test::steps_answer;
using test::replaced;
using test::tiny_state;

// Every acting leader answers "none" except the given answers.
std::vector<Answer> with_defaults(const GameState& s, std::vector<Answer> given) {
  for (const auto& d : pending(s)) {
    const bool answered =
        std::any_of(given.begin(), given.end(), [&](const Answer& a) { return a.decision_id == d.id; });
    if (!answered) given.push_back(test::option_answer(d.id, d.seat, d.default_option));
  }
  return given;
}

// Resolves the French half of the command phase with `given`; the Allies'
// half is then pending.
GameState french_actions(const GameState& s, std::vector<Answer> given, std::vector<Event>* events = nullptr) {
  FixedDice none{};
  auto r = resolve(s, with_defaults(s, std::move(given)), none);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().reason);
  if (!r.ok()) return s;
  if (events != nullptr) *events = r->events;
  return r->next;
}

Verdict check_steps(const GameState& s, const std::string& leader_id, const std::string& seat,
                    std::vector<OrderStep> steps) {
  return check(s, steps_answer("command/" + leader_id, seat, std::move(steps)));
}

OrderStep orders(std::string order, std::string target) {
  OrderStep st = act("issue_orders", std::move(target));
  st.order = std::move(order);
  return st;
}

TEST(CommandActions, CountByRankModifierAndWounds) {
  Leader mg;
  mg.rank = LeaderRank::kMajorGeneral;
  Leader lg;
  lg.rank = LeaderRank::kLieutenantGeneral;
  Leader m;
  m.rank = LeaderRank::kMarshal;
  EXPECT_EQ(command_actions(mg), 1);
  EXPECT_EQ(command_actions(lg), 2);
  EXPECT_EQ(command_actions(m), 2);
  m.action_modifier = 1;  // Marlborough
  EXPECT_EQ(command_actions(m), 3);
  m.action_modifier = -1;  // Burgundy
  EXPECT_EQ(command_actions(m), 1);
  // "Lieutenant Generals and higher may now make only one command decision per turn"
  m.action_modifier = 1;
  m.wounds = 1;
  EXPECT_EQ(command_actions(m), 1);
  lg.wounds = 1;
  EXPECT_EQ(command_actions(lg), 1);
  // "Major Generals may no longer inspire or steady" -- but keep their action.
  mg.wounds = 1;
  EXPECT_EQ(command_actions(mg), 1);
  EXPECT_FALSE(may_influence(mg));
  EXPECT_TRUE(may_influence(lg));
  // "A previously wounded leader, wounded for a second time is killed."
  lg.killed = true;
  EXPECT_EQ(command_actions(lg), 0);
  Leader cap;
  cap.rank = LeaderRank::kMarshal;
  cap.captured = true;
  EXPECT_EQ(command_actions(cap), 0);
}

TEST(CommandActions, MoveActionsGroupDetachMoveAttach) {
  EXPECT_EQ(count_actions({act("detach"), move_to({1, 1}), act("attach", "b")}), 1);
  EXPECT_EQ(count_actions({move_to({1, 1}), move_to({2, 2})}), 2);
  EXPECT_EQ(count_actions({act("attach", "b"), act("inspire")}), 2);
  EXPECT_EQ(count_actions({act("steady"), act("inspire"), act("listen")}), 3);
  EXPECT_EQ(count_actions({act("attach", "b"), act("detach")}), 2);  // out of order: two moves
}

TEST(CommandPhase, OneDecisionPerLeaderForItsOwnSeat) {
  GameState s = tiny_state();
  leader(s, "fr_mg5").killed = true;
  auto ds = pending(s);
  std::map<std::string, std::string> seat;
  for (const auto& d : ds) seat[d.id] = d.seat;
  EXPECT_EQ(seat.size(), 5u);  // the killed Major General has none; the Allies wait
  EXPECT_EQ(seat["command/fr_m"], "fr/army");
  EXPECT_EQ(seat["command/fr_lg"], "fr/left");
  EXPECT_EQ(seat["command/fr_mg1"], "fr/left");
  EXPECT_EQ(seat["command/fr_lg2"], "fr/right");
  for (const auto& d : ds) {
    EXPECT_EQ(d.kind, "command_actions");
    EXPECT_EQ(d.default_option, "none");
  }
  // Another seat's decision is answered as one that does not exist (RULINGS R21).
  auto wrong = check_steps(s, "fr_mg1", "fr/army", {move_to({10, 5})});
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.error().code, "unknown_decision");
  auto enemy = check_steps(s, "al_mg3", "al/right", {move_to({46, 40})});
  ASSERT_FALSE(enemy.ok());
  EXPECT_EQ(enemy.error().code, "unknown_decision");  // not the Allies' turn to act
}

TEST(CommandActions, MoveUpToSixInchesDoubleBeyondSixOfEnemy) {
  GameState s = tiny_state();
  // Far from the enemy: 12".
  EXPECT_TRUE(check_steps(s, "fr_mg1", "fr/left", {move_to({10, 14})}).ok());
  auto far = check_steps(s, "fr_mg1", "fr/left", {move_to({10, 14.5})});
  ASSERT_FALSE(far.ok());
  EXPECT_EQ(far.error().code, "too_far");
  EXPECT_NE(far.error().reason.find("12\""), std::string::npos) << far.error().reason;
  // Ending within 6" of the enemy: 6".
  GameState t = tiny_state();
  leader(t, "fr_m").position = {36, 27};
  EXPECT_TRUE(check_steps(t, "fr_m", "fr/army", {move_to({36, 31})}).ok());
  auto near = check_steps(t, "fr_m", "fr/army", {move_to({36, 33.5})});
  ASSERT_FALSE(near.ok());
  EXPECT_EQ(near.error().code, "too_far");
  // Two move actions.
  GameState after = french_actions(s, {steps_answer("command/fr_lg", "fr/left", {move_to({20, 14}), move_to({26, 14})})});
  EXPECT_EQ(leader(after, "fr_lg").position, (Vec2{26, 14}));
  // Off the table.
  auto off = check_steps(s, "fr_mg1", "fr/left", {move_to({-1, 2})});
  ASSERT_FALSE(off.ok());
  EXPECT_EQ(off.error().code, "off_table");
}

TEST(CommandActions, AttachMovesToTheBrigadeUnderHisCommand) {
  GameState s = tiny_state();
  std::vector<Event> ev;
  GameState t = french_actions(s, {steps_answer("command/fr_mg1", "fr/left", {act("attach", "fr_b1")})}, &ev);
  const Leader& l = leader(t, "fr_mg1");
  EXPECT_EQ(l.attached_to, "fr_b1");
  EXPECT_EQ(l.position, attached_leader_position(brigade(t, "fr_b1")));
  EXPECT_TRUE(std::any_of(ev.begin(), ev.end(), [](const Event& e) { return e.kind == "attached"; }));
  // Not his command.
  auto other = check_steps(s, "fr_mg1", "fr/left", {act("attach", "fr_b3")});
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.error().code, "not_in_chain");
  // A Lieutenant General may attach to any brigade of his wing, not another wing's.
  EXPECT_TRUE(check_steps(s, "fr_lg", "fr/left", {act("attach", "fr_b4")}).ok());  // command c2
  auto wing = check_steps(s, "fr_lg", "fr/left", {act("attach", "fr_b5")});
  ASSERT_FALSE(wing.ok());
  EXPECT_EQ(wing.error().code, "not_in_chain");
  // An enemy brigade: answered as an id that does not exist (RULINGS R21).
  auto enemy = check_steps(s, "fr_lg", "fr/left", {act("attach", "al_b1")});
  ASSERT_FALSE(enemy.ok());
  EXPECT_EQ(enemy.error().code, "unknown_brigade");
  auto made_up = check_steps(s, "fr_lg", "fr/left", {act("attach", "zz_b9")});
  ASSERT_FALSE(made_up.ok());
  EXPECT_EQ(made_up.error().code, enemy.error().code);
  EXPECT_EQ(made_up.error().reason, replaced(enemy.error().reason, "al_b1", "zz_b9"));
  // Too far to reach in one move.
  GameState near = tiny_state();
  leader(near, "fr_mg1").position = {10, 40};  // 31" from fr_b1
  auto far = check_steps(near, "fr_mg1", "fr/left", {act("attach", "fr_b1")});
  ASSERT_FALSE(far.ok());
  EXPECT_EQ(far.error().code, "too_far");
}

TEST(CommandActions, DetachAndReattachInOneMoveAction) {
  GameState s = tiny_state();
  Leader& l = leader(s, "fr_mg1");
  l.attached_to = "fr_b1";
  l.position = attached_leader_position(brigade(s, "fr_b1"));
  auto moving = check_steps(s, "fr_mg1", "fr/left", {move_to({10, 5})});
  ASSERT_FALSE(moving.ok());
  EXPECT_EQ(moving.error().code, "attached");
  auto again = check_steps(s, "fr_mg1", "fr/left", {act("attach", "fr_b2")});
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().code, "attached");
  // A Major General has one action: detach + attach is one move action.
  GameState t = french_actions(s, {steps_answer("command/fr_mg1", "fr/left", {act("detach"), act("attach", "fr_b2")})});
  EXPECT_EQ(leader(t, "fr_mg1").attached_to, "fr_b2");
  GameState u = french_actions(s, {steps_answer("command/fr_mg1", "fr/left", {act("detach"), move_to({12, 4})})});
  EXPECT_TRUE(leader(u, "fr_mg1").attached_to.empty());
  EXPECT_EQ(leader(u, "fr_mg1").position, (Vec2{12, 4}));
  auto detached = check_steps(s, "fr_mg2", "fr/left", {act("detach")});
  ASSERT_FALSE(detached.ok());
  EXPECT_EQ(detached.error().code, "not_attached");
}

TEST(CommandActions, SteadyRemovesADisorderPointAndHalts) {
  GameState s = tiny_state();
  brigade(s, "fr_b1").dps = 2;
  Leader& l = leader(s, "fr_lg");
  l.attached_to = "fr_b1";
  l.position = attached_leader_position(brigade(s, "fr_b1"));
  GameState t = french_actions(s, {steps_answer("command/fr_lg", "fr/left", {act("steady")})});
  EXPECT_EQ(brigade(t, "fr_b1").dps, 1u);
  EXPECT_TRUE(brigade(t, "fr_b1").has(Status::kHalted));
  // "This could be to steady and inspire or do one of those actions twice."
  GameState u = french_actions(s, {steps_answer("command/fr_lg", "fr/left", {act("steady"), act("steady")})});
  EXPECT_EQ(brigade(u, "fr_b1").dps, 0u);
  GameState v = french_actions(s, {steps_answer("command/fr_lg", "fr/left", {act("steady"), act("inspire")})});
  EXPECT_EQ(brigade(v, "fr_b1").dps, 1u);
  EXPECT_EQ(brigade(v, "fr_b1").inspire_actions, 1u);
}

TEST(CommandActions, InspireCountsEachAction) {
  GameState s = tiny_state();
  Leader& l = leader(s, "fr_lg");
  l.attached_to = "fr_b2";
  l.position = attached_leader_position(brigade(s, "fr_b2"));
  GameState t = french_actions(s, {steps_answer("command/fr_lg", "fr/left", {act("inspire"), act("inspire")})});
  EXPECT_EQ(brigade(t, "fr_b2").inspire_actions, 2u);
  EXPECT_TRUE(brigade(t, "fr_b2").has(Status::kInspired));
  EXPECT_FALSE(brigade(t, "fr_b2").has(Status::kHalted));
  // Attach then inspire in the same phase (two actions).
  GameState u = french_actions(tiny_state(),
                               {steps_answer("command/fr_lg", "fr/left", {act("attach", "fr_b1"), act("inspire")})});
  EXPECT_EQ(brigade(u, "fr_b1").inspire_actions, 1u);
}

TEST(CommandActions, InfluenceNeedsAnAttachedUnwoundedLeader) {
  GameState s = tiny_state();
  auto detached = check_steps(s, "fr_lg", "fr/left", {act("steady")});
  ASSERT_FALSE(detached.ok());
  EXPECT_EQ(detached.error().code, "not_attached");
  auto insp = check_steps(s, "fr_lg", "fr/left", {act("inspire")});
  ASSERT_FALSE(insp.ok());
  EXPECT_EQ(insp.error().code, "not_attached");
  Leader& mg = leader(s, "fr_mg1");
  mg.attached_to = "fr_b1";
  mg.position = attached_leader_position(brigade(s, "fr_b1"));
  mg.wounds = 1;
  auto wounded = check_steps(s, "fr_mg1", "fr/left", {act("steady")});
  ASSERT_FALSE(wounded.ok());
  EXPECT_EQ(wounded.error().code, "wounded");
}

TEST(CommandActions, TooManyActionsAndUnknownActionsAreRefused) {
  GameState s = tiny_state();
  auto many = check_steps(s, "fr_mg1", "fr/left", {move_to({10, 4}), move_to({10, 6})});
  ASSERT_FALSE(many.ok());
  EXPECT_EQ(many.error().code, "too_many_actions");
  leader(s, "fr_lg").wounds = 1;
  auto wounded = check_steps(s, "fr_lg", "fr/left", {move_to({20, 4}), move_to({20, 6})});
  ASSERT_FALSE(wounded.ok());
  EXPECT_EQ(wounded.error().code, "too_many_actions");
  auto unknown = check_steps(s, "fr_m", "fr/army", {act("pray")});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().code, "unknown_action");
  // A refused step changes nothing.
  const StateHash before = state_hash(s);
  FixedDice none{};
  auto r = resolve(s, with_defaults(s, {steps_answer("command/fr_mg1", "fr/left", {move_to({10, 4}), move_to({10, 6})})}),
                   none);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, "too_many_actions");
  EXPECT_EQ(state_hash(s), before);
}

TEST(Orders, OnlyDetachedLieutenantGeneralsAndMarshalsIssueOrders) {
  GameState s = tiny_state();
  leader(s, "fr_m").position = {20, 3.3};  // in contact with fr_lg at (20, 2)
  auto mg = check_steps(s, "fr_mg1", "fr/left", {orders("reassign", "fr_lg")});
  ASSERT_FALSE(mg.ok());
  EXPECT_EQ(mg.error().code, "not_authorised");
  Leader& m = leader(s, "fr_m");
  m.attached_to = "fr_b1";
  auto attached = check_steps(s, "fr_m", "fr/army", {orders("advance_and_attack", "fr_lg")});
  ASSERT_FALSE(attached.ok());
  EXPECT_EQ(attached.error().code, "attached");
  // A Lieutenant General does not change his wing's orders.
  GameState t = tiny_state();
  leader(t, "fr_lg").position = {60, 3.3};  // in contact with fr_lg2
  auto lg = check_steps(t, "fr_lg", "fr/left", {orders("defend", "fr_lg2")});
  ASSERT_FALSE(lg.ok());
  EXPECT_EQ(lg.error().code, "not_authorised");
}

TEST(Orders, InPersonTheMarshalSpeaksAndTheLieutenantGeneralListens) {
  GameState s = tiny_state();
  leader(s, "fr_m").position = {20, 3.3};  // stands touch fr_lg at (20, 2)
  auto far = check_steps(tiny_state(), "fr_m", "fr/army", {orders("advance_and_attack", "fr_lg")});
  ASSERT_FALSE(far.ok());
  EXPECT_EQ(far.error().code, "not_in_contact");

  std::vector<Event> ev;
  GameState t = french_actions(s,
                               {steps_answer("command/fr_m", "fr/army", {orders("advance_and_attack", "fr_lg")}),
                                steps_answer("command/fr_lg", "fr/left", {act("listen", "fr_m")})},
                               &ev);
  EXPECT_EQ(t.armies[0].wings[0].order, WingOrder::kAdvanceAndAttack);
  EXPECT_EQ(t.armies[0].wings[0].orders_from, "fr_m");
  EXPECT_TRUE(std::any_of(ev.begin(), ev.end(), [](const Event& e) { return e.kind == "orders_changed"; }));

  // Without a listen action nothing changes.
  GameState u = french_actions(s, {steps_answer("command/fr_m", "fr/army", {orders("advance_and_attack", "fr_lg")})}, &ev);
  EXPECT_EQ(u.armies[0].wings[0].order, WingOrder::kDefend);
  EXPECT_TRUE(std::any_of(ev.begin(), ev.end(), [](const Event& e) { return e.kind == "orders_not_heard"; }));

  // An advance-and-defend order needs its position.
  auto nowhere = check_steps(s, "fr_m", "fr/army", {orders("advance_and_defend", "fr_lg")});
  ASSERT_FALSE(nowhere.ok());
  EXPECT_EQ(nowhere.error().code, "no_objective");
  OrderStep st = orders("advance_and_defend", "fr_lg");
  st.has_objective = true;
  st.to = {20, 30};
  EXPECT_TRUE(check_steps(s, "fr_m", "fr/army", {st}).ok());
  auto bad = check_steps(s, "fr_m", "fr/army", {orders("charge!", "fr_lg")});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, "bad_order");
}

TEST(Orders, AnActionMadeImpossibleByAnEarlierLeaderIsSkippedWithAReason) {
  GameState s = tiny_state();
  leader(s, "fr_m").position = {20, 3.3};  // in contact with fr_lg at (20, 2)
  // Both answers are legal on their own. fr_lg (same x, first by id) listens
  // and then rides off, so when fr_m speaks they are no longer in contact.
  std::vector<Event> ev;
  GameState t = french_actions(s,
                               {steps_answer("command/fr_m", "fr/army", {orders("advance_and_attack", "fr_lg")}),
                                steps_answer("command/fr_lg", "fr/left", {act("listen"), move_to({20, 10})})},
                               &ev);
  EXPECT_EQ(leader(t, "fr_lg").position, (Vec2{20, 10}));
  EXPECT_EQ(t.armies[0].wings[0].order, WingOrder::kDefend);
  auto failed = std::find_if(ev.begin(), ev.end(), [](const Event& e) { return e.kind == "action_failed"; });
  ASSERT_NE(failed, ev.end());
  EXPECT_NE(failed->text.find("base-to-base"), std::string::npos) << failed->text;
}

TEST(Orders, OnlyTheMarshalWhoIssuedThemChangesThem) {
  GameState s = tiny_state();
  s.armies[0].marshals.push_back("fr_m2");
  s.leaders.push_back(test::make_leader("fr_m2", "fr", LeaderRank::kMarshal, "", "", {20, 3.3}, 0));
  s.armies[0].wings[0].orders_from = "fr_m";
  auto r = check_steps(s, "fr_m2", "fr/army", {orders("defend", "fr_lg")});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, "not_your_orders");
  s.armies[0].wings[0].orders_from.clear();  // the scenario's orders: any Marshal of the army
  EXPECT_TRUE(check_steps(s, "fr_m2", "fr/army", {orders("defend", "fr_lg")}).ok());
}

TEST(Messengers, RideSixOrTwelveInchesAndDeliverOnContact) {
  GameState s = tiny_state();
  // The Marshal at (50, 2) sends new orders to fr_lg at (20, 2): 30" away.
  OrderStep send = act("send_messenger", "fr_lg");
  send.order = "advance_and_attack";
  std::vector<Event> ev;
  GameState t = french_actions(s, {steps_answer("command/fr_m", "fr/army", {send})}, &ev);
  ASSERT_EQ(t.messengers.size(), 1u);
  const Messenger& m = t.messengers[0];
  EXPECT_EQ(m.id, "msg1");
  EXPECT_EQ(m.from, "fr_m");
  EXPECT_EQ(m.to, "fr_lg");
  // Beyond 6" of the enemy: 12" this phase, straight towards the recipient.
  EXPECT_NEAR(m.position.x, 38, 1e-9);
  EXPECT_NEAR(m.position.y, 2, 1e-9);
  EXPECT_TRUE(std::any_of(ev.begin(), ev.end(), [](const Event& e) { return e.kind == "messenger_sent"; }));
  EXPECT_TRUE(std::any_of(ev.begin(), ev.end(), [](const Event& e) { return e.kind == "messenger_moved"; }));
  EXPECT_EQ(t.armies[0].wings[0].order, WingOrder::kDefend);

  // Next command phase: 12" more to (26, 2); the one after, contact.
  std::vector<Event> e2;
  move_messengers(t, "fr", e2);
  ASSERT_EQ(t.messengers.size(), 1u);
  EXPECT_NEAR(t.messengers[0].position.x, 26, 1e-9);
  std::vector<Event> e3;
  move_messengers(t, "fr", e3);
  EXPECT_TRUE(t.messengers.empty());
  EXPECT_EQ(t.armies[0].wings[0].order, WingOrder::kAdvanceAndAttack);
  EXPECT_EQ(t.armies[0].wings[0].orders_from, "fr_m");
  EXPECT_TRUE(std::any_of(e3.begin(), e3.end(), [](const Event& e) { return e.kind == "messenger_delivered"; }));
}

TEST(Messengers, SixInchesWithinSixOfTheEnemy) {
  GameState s = tiny_state();
  Messenger m;
  m.id = "msg1";
  m.army = "fr";
  m.from = "fr_m";
  m.to = "fr_lg";
  m.position = {36, 34};  // 4" from al_b1's front
  leader(s, "fr_lg").position = {20, 34};
  s.messengers.push_back(m);
  std::vector<Event> ev;
  move_messengers(s, "fr", ev);
  ASSERT_EQ(s.messengers.size(), 1u);
  EXPECT_NEAR(s.messengers[0].position.x, 30, 1e-9);
}

TEST(Messengers, LostWhenTheRecipientIsGone) {
  GameState s = tiny_state();
  Messenger m;
  m.id = "msg1";
  m.army = "fr";
  m.from = "fr_m";
  m.to = "fr_lg";
  m.position = {40, 2};
  s.messengers.push_back(m);
  leader(s, "fr_lg").killed = true;
  std::vector<Event> ev;
  move_messengers(s, "fr", ev);
  EXPECT_TRUE(s.messengers.empty());
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].kind, "messenger_lost");
}

TEST(Reassign, MarshalSendsABrigadeToAnotherWing) {
  GameState s = tiny_state();
  leader(s, "fr_m").position = {20, 3.3};
  OrderStep st = orders("reassign", "fr_lg");
  st.unit = "fr_b3";
  st.wing = "right";
  st.command = "c5";
  // Given to the Lieutenant General who loses it, not the one who gains it.
  OrderStep wrong = st;
  wrong.target = "fr_lg2";
  leader(s, "fr_lg2").position = {50, 3.3};
  auto w = check_steps(s, "fr_m", "fr/army", {act("send_messenger", "fr_lg2")});
  ASSERT_FALSE(w.ok());  // no order given
  OrderStep wrong_msg = wrong;
  wrong_msg.action = "send_messenger";
  auto bad = check_steps(s, "fr_m", "fr/army", {wrong_msg});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, "bad_recipient");

  GameState t = french_actions(s, {steps_answer("command/fr_m", "fr/army", {st}),
                                   steps_answer("command/fr_lg", "fr/left", {act("listen")})});
  EXPECT_EQ(brigade(t, "fr_b3").wing, "right");
  EXPECT_EQ(brigade(t, "fr_b3").command, "c5");
}

TEST(Reassign, LieutenantGeneralMovesBrigadesBetweenHisCommands) {
  GameState s = tiny_state();
  leader(s, "fr_lg").position = {10, 3.3};  // in contact with fr_mg1 at (10, 2)
  OrderStep st = orders("reassign", "fr_mg1");
  st.unit = "fr_b2";
  st.wing = "left";
  st.command = "c2";
  GameState t = french_actions(s, {steps_answer("command/fr_lg", "fr/left", {st}),
                                   steps_answer("command/fr_mg1", "fr/left", {act("listen")})});
  EXPECT_EQ(brigade(t, "fr_b2").command, "c2");
  // Not to another wing.
  OrderStep out = st;
  out.wing = "right";
  out.command = "c5";
  auto r = check_steps(s, "fr_lg", "fr/left", {out});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, "not_authorised");
}

TEST(Reassign, MarshalMovesAWholeCommand) {
  GameState s = tiny_state();
  leader(s, "fr_m").position = {20, 3.3};
  OrderStep st = orders("reassign", "fr_lg");
  st.unit = "c2";
  st.wing = "right";
  GameState t = french_actions(s, {steps_answer("command/fr_m", "fr/army", {st}),
                                   steps_answer("command/fr_lg", "fr/left", {act("listen")})});
  EXPECT_EQ(t.armies[0].wings[0].commands.size(), 1u);
  ASSERT_EQ(t.armies[0].wings[1].commands.size(), 2u);
  EXPECT_EQ(t.armies[0].wings[1].commands[1].id, "c2");
  EXPECT_EQ(brigade(t, "fr_b3").wing, "right");
  EXPECT_EQ(brigade(t, "fr_b4").wing, "right");
  EXPECT_EQ(leader(t, "fr_mg2").wing, "right");
}

}  // namespace
}  // namespace galloper::rules::malbrook
