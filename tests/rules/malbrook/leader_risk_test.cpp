// "Risk to Leaders": attached leaders hit with their brigade, lone leaders and
// messengers fired on by foot, captured by cavalry.
#include <gtest/gtest.h>

#include "rules/core/dice.hpp"
#include "rules/malbrook/artillery.hpp"
#include "rules/malbrook/basing.hpp"
#include "rules/malbrook/damage.hpp"
#include "tests/rules/malbrook/artillery_helpers.hpp"

namespace galloper::rules::malbrook {
namespace {

using test::answers_with;
using test::brigade;
using test::find_decision;
using test::gun_state;
using test::has_event;
using test::leader;
using test::option_answer;
using test::option_ids;

GameState attached() {
  GameState s = gun_state();
  leader(s, "al_mg3").attached_to = "al_b1";
  leader(s, "al_mg3").position = attached_leader_position(brigade(s, "al_b1"));
  s.phase = Phase::kBombardment;
  return s;
}

TEST(LeaderHitTable, Rows) {
  EXPECT_EQ(leader_hit_result(1, 0), LeaderFate::kKilled);
  for (int d : {2, 3, 4}) EXPECT_EQ(leader_hit_result(d, 0), LeaderFate::kWounded);
  for (int d : {2, 3, 4}) EXPECT_EQ(leader_hit_result(d, 1), LeaderFate::kKilled);  // second wound kills
  for (int d : {5, 6}) EXPECT_EQ(leader_hit_result(d, 0), LeaderFate::kNearMiss);
  for (int d : {5, 6}) EXPECT_EQ(leader_hit_result(d, 1), LeaderFate::kNearMiss);
}

TEST(RiskToLeaders, OneToBeHitThenKilled) {
  GameState s = attached();
  std::vector<Event> ev;
  FixedDice dice{1, 1};
  risk_to_attached_leaders(s, brigade(s, "al_b1"), RiskCause::kFire, dice, ev);
  const Leader& l = leader(s, "al_mg3");
  EXPECT_TRUE(l.killed);
  EXPECT_TRUE(l.attached_to.empty());
  ASSERT_EQ(s.fallen_leaders.size(), 1u);
  EXPECT_EQ(s.fallen_leaders[0].leader, "al_mg3");
  EXPECT_EQ(s.fallen_leaders[0].rank, LeaderRank::kMajorGeneral);
  EXPECT_FALSE(s.fallen_leaders[0].captured);
  EXPECT_EQ(s.fallen_leaders[0].turn, 1u);
  EXPECT_TRUE(has_event(ev, "leader_killed"));
  ASSERT_FALSE(ev.empty());
  EXPECT_EQ(ev.back().dice.size(), 2u);
}

TEST(RiskToLeaders, WoundedThenSecondWoundKills) {
  GameState s = attached();
  std::vector<Event> ev;
  FixedDice dice{1, 3};
  risk_to_attached_leaders(s, brigade(s, "al_b1"), RiskCause::kFire, dice, ev);
  EXPECT_EQ(leader(s, "al_mg3").wounds, 1u);
  EXPECT_FALSE(leader(s, "al_mg3").killed);
  EXPECT_TRUE(has_event(ev, "leader_wounded"));
  FixedDice again{1, 4};
  risk_to_attached_leaders(s, brigade(s, "al_b1"), RiskCause::kCombat, again, ev);
  EXPECT_TRUE(leader(s, "al_mg3").killed);
}

TEST(RiskToLeaders, NearMissAndNotHit) {
  GameState s = attached();
  std::vector<Event> ev;
  FixedDice dice{1, 5};
  risk_to_attached_leaders(s, brigade(s, "al_b1"), RiskCause::kFire, dice, ev);
  EXPECT_EQ(leader(s, "al_mg3").wounds, 0u);
  EXPECT_FALSE(leader(s, "al_mg3").killed);
  GameState t = attached();
  FixedDice miss{2};
  risk_to_attached_leaders(t, brigade(t, "al_b1"), RiskCause::kFire, miss, ev);
  EXPECT_EQ(miss.remaining(), 0u);
  EXPECT_EQ(leader(t, "al_mg3").wounds, 0u);
}

TEST(RiskToLeaders, OnceForFireAndOnceForCombatPerPhase) {
  GameState s = attached();
  std::vector<Event> ev;
  FixedDice dice{6, 6};
  risk_to_attached_leaders(s, brigade(s, "al_b1"), RiskCause::kFire, dice, ev);
  risk_to_attached_leaders(s, brigade(s, "al_b1"), RiskCause::kFire, dice, ev);  // no roll
  EXPECT_EQ(dice.remaining(), 1u);
  risk_to_attached_leaders(s, brigade(s, "al_b1"), RiskCause::kCombat, dice, ev);
  EXPECT_EQ(dice.remaining(), 0u);
  // A new phase tests again.
  s.phase = Phase::kCloseFire;
  FixedDice next{6};
  risk_to_attached_leaders(s, brigade(s, "al_b1"), RiskCause::kFire, next, ev);
  EXPECT_EQ(next.remaining(), 0u);
}

TEST(RiskToLeaders, ArtilleryHitsTestTheAttachedLeaderOnce) {
  GameState s = attached();
  std::vector<Event> ev;
  FixedDice dice{6};
  inflict_damage(s, brigade(s, "al_b1"), 2, 0, DpCause::kFire, dice, ev);
  EXPECT_EQ(dice.remaining(), 0u);
  FixedDice none{};
  inflict_damage(s, brigade(s, "al_b1"), 1, 0, DpCause::kFire, none, ev);  // tested already this phase
}

TEST(RiskToLeaders, DetachedLeadersAreNotTested) {
  GameState s = gun_state();
  std::vector<Event> ev;
  FixedDice none{};
  inflict_damage(s, brigade(s, "al_b1"), 2, 1, DpCause::kFire, none, ev);
  EXPECT_EQ(brigade(s, "al_b1").bases, 3u);
}

// ---- Lone leaders ----

// An Allied Major General alone 0.5" in front of French foot fr_b1 at (10, 10).
GameState lone_leader() {
  GameState s = gun_state();
  s.phase = Phase::kCloseFire;
  leader(s, "al_mg3").position = {10, 11.75};  // his stand (1.25" deep, facing north) covers y 10.5..11.75
  leader(s, "al_mg3").facing_deg = 0;
  return s;
}

TEST(LoneLeaders, FootFireOnALoneLeaderWithinAnInch) {
  GameState s = lone_leader();
  const auto ds = artillery_pending(s);
  const Decision* d = find_decision(ds, "musket/fr_b1");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(option_ids(*d), (std::vector<std::string>{"hold", "al_mg3"}));
  std::vector<Event> ev;
  FixedDice dice{5, 3};  // 5: hit; 3: wounded
  artillery_resolve(s, answers_with(ds, {option_answer("musket/fr_b1", "fr/left", "al_mg3")}), dice, ev);
  EXPECT_EQ(leader(s, "al_mg3").wounds, 1u);
}

TEST(LoneLeaders, FourOrLessMisses) {
  GameState s = lone_leader();
  std::vector<Event> ev;
  FixedDice dice{4};
  musket_at_lone(s, brigade(s, "fr_b1"), "al_mg3", dice, ev);
  EXPECT_EQ(dice.remaining(), 0u);
  EXPECT_EQ(leader(s, "al_mg3").wounds, 0u);
  FixedDice kill{6, 1};
  musket_at_lone(s, brigade(s, "fr_b1"), "al_mg3", kill, ev);
  EXPECT_TRUE(leader(s, "al_mg3").killed);
}

TEST(LoneLeaders, NotLoneWithinFourInchesOfAFriend) {
  GameState s = lone_leader();
  brigade(s, "al_b2").position = {10, 15};  // Allied foot 3.25" behind him
  EXPECT_EQ(find_decision(artillery_pending(s), "musket/fr_b1"), nullptr);
}

TEST(LoneLeaders, CavalryAndFarFootDoNotFire) {
  GameState s = lone_leader();
  brigade(s, "fr_b1").type = TroopType::kHorse;
  EXPECT_EQ(find_decision(artillery_pending(s), "musket/fr_b1"), nullptr);
  s = lone_leader();
  leader(s, "al_mg3").position = {10, 12.5};  // 2.5" away
  EXPECT_EQ(find_decision(artillery_pending(s), "musket/fr_b1"), nullptr);
  s = lone_leader();
  brigade(s, "fr_b1").type = TroopType::kDismountedDragoons;
  brigade(s, "fr_b1").formation = Formation::kUnformed;
  EXPECT_NE(find_decision(artillery_pending(s), "musket/fr_b1"), nullptr);
}

TEST(LoneLeaders, MessengersShotDownLoseTheMessage) {
  GameState s = lone_leader();
  leader(s, "al_mg3").position = {60, 46};
  Messenger m;
  m.id = "msg1";
  m.army = "al";
  m.from = "al_m";
  m.to = "al_mg3";
  m.position = {10, 11.5};
  s.messengers = {m};
  const auto ds = artillery_pending(s);
  const Decision* d = find_decision(ds, "musket/fr_b1");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(option_ids(*d), (std::vector<std::string>{"hold", "msg1"}));
  std::vector<Event> ev;
  FixedDice dice{6, 2};
  artillery_resolve(s, answers_with(ds, {option_answer("musket/fr_b1", "fr/left", "msg1")}), dice, ev);
  EXPECT_TRUE(s.messengers.empty());
  EXPECT_TRUE(has_event(ev, "messenger_shot"));
}

TEST(LoneLeaders, CavalryInContactCaptures) {
  GameState s = lone_leader();
  Brigade& cav = brigade(s, "fr_b1");
  cav.type = TroopType::kHorse;
  std::vector<Event> ev;
  leader(s, "al_mg3").position = {10, 12};  // 0.75" away: not in contact
  capture_lone_leaders(s, cav, ev);
  EXPECT_FALSE(leader(s, "al_mg3").captured);
  leader(s, "al_mg3").position = {10, 11.25};  // touching
  capture_lone_leaders(s, cav, ev);
  EXPECT_TRUE(leader(s, "al_mg3").captured);
  ASSERT_EQ(s.fallen_leaders.size(), 1u);
  EXPECT_TRUE(s.fallen_leaders[0].captured);
  EXPECT_TRUE(has_event(ev, "leader_captured"));
}

TEST(LoneLeaders, CavalryDoNotCaptureALeaderWithFriendsNear) {
  GameState s = lone_leader();
  Brigade& cav = brigade(s, "fr_b1");
  cav.type = TroopType::kHorse;
  leader(s, "al_mg3").position = {10, 11.25};
  brigade(s, "al_b2").position = {10, 15};
  std::vector<Event> ev;
  capture_lone_leaders(s, cav, ev);
  EXPECT_FALSE(leader(s, "al_mg3").captured);
}

TEST(LoneLeaders, CavalryCaptureMessengersAtTheCloseFirePhase) {
  GameState s = lone_leader();
  brigade(s, "fr_b1").type = TroopType::kHorse;
  leader(s, "al_mg3").position = {60, 46};
  Messenger m;
  m.id = "msg1";
  m.army = "al";
  m.from = "al_m";
  m.to = "al_mg3";
  m.position = {10, 10.25};
  s.messengers = {m};
  std::vector<Event> ev;
  FixedDice none{};
  artillery_resolve(s, {}, none, ev);
  EXPECT_TRUE(s.messengers.empty());
  EXPECT_TRUE(has_event(ev, "messenger_captured"));
}

}  // namespace
}  // namespace galloper::rules::malbrook
