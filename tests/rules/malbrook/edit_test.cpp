// The umpire's edits (rules/malbrook/edit.hpp; RULINGS.md "Umpire edits"):
// every kind, and every refusal with its code.
#include "rules/malbrook/edit.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "rules/malbrook/basing.hpp"
#include "rules/malbrook/game.hpp"
#include "tests/rules/malbrook/test_state.hpp"

namespace galloper::rules::malbrook {
namespace {

GameState with_gun() {
  GameState s = test::tiny_state();
  Gun g;
  g.id = "fr_g1";
  g.name = "Battery";
  g.army = "fr";
  g.wing = "left";
  g.weight = GunWeight::kMedium;
  g.position = {50, 10};
  g.facing_deg = 0;
  s.guns.push_back(g);
  return s;
}

StateEdit edit(std::string kind, std::string subject) {
  StateEdit e;
  e.kind = std::move(kind);
  e.subject = std::move(subject);
  return e;
}

StateEdit move_to(std::string subject, Vec2 at, std::optional<double> facing = std::nullopt) {
  StateEdit e = edit("move", std::move(subject));
  e.position = at;
  e.facing_deg = facing;
  return e;
}

StateEdit valued(std::string kind, std::string subject, std::int64_t value) {
  StateEdit e = edit(std::move(kind), std::move(subject));
  e.value = value;
  return e;
}

StateEdit keyed(std::string kind, std::string subject, std::string key) {
  StateEdit e = edit(std::move(kind), std::move(subject));
  e.key = std::move(key);
  return e;
}

GameState ok(const GameState& s, const StateEdit& e) {
  auto r = apply_edit(s, e);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().reason);
  if (!r.ok()) return s;
  EXPECT_NE(state_hash(r.value()), state_hash(s)) << "an edit changes the state hash";
  return r.value();
}

std::string refused(const GameState& s, const StateEdit& e) {
  auto r = apply_edit(s, e);
  EXPECT_FALSE(r.ok());
  if (r.ok()) return "";
  EXPECT_FALSE(r.error().reason.empty());
  return r.error().code;
}

// ---- move ----

TEST(EditTest, MovesABrigadeAndKeepsItsFacingWhenNoneIsGiven) {
  const GameState s = test::tiny_state();
  const GameState n = ok(s, move_to("fr_b5", {60, 20}));
  EXPECT_EQ(n.find_brigade("fr_b5")->position, (Vec2{60, 20}));
  EXPECT_DOUBLE_EQ(n.find_brigade("fr_b5")->facing_deg, 0);
  EXPECT_EQ(s.find_brigade("fr_b5")->position, (Vec2{60, 10})) << "the original state is unchanged";
}

TEST(EditTest, MovesABrigadeToANewFacing) {
  const GameState n = ok(test::tiny_state(), move_to("fr_b5", {60, 20}, 450));
  EXPECT_DOUBLE_EQ(n.find_brigade("fr_b5")->facing_deg, 90) << "facings are normalised";
}

TEST(EditTest, ABrigadeWithPlacedBasesIsMovedWithThem) {
  GameState s = test::tiny_state();
  Brigade& b = s.brigades[4];  // fr_b5 at (60, 10) facing north
  auto poses = poses_of(footprint(b));
  poses.back().center.y -= 1;  // a refused flank: the right base stepped back
  b.base_poses = poses;
  const GameState n = ok(s, move_to("fr_b5", {60, 20}));
  const auto& moved = n.find_brigade("fr_b5")->base_poses;
  ASSERT_EQ(moved.size(), poses.size());
  for (std::size_t i = 0; i < poses.size(); ++i) {
    EXPECT_NEAR(moved[i].center.x, poses[i].center.x, 1e-9);
    EXPECT_NEAR(moved[i].center.y, poses[i].center.y + 10, 1e-9);
  }
  // Turned about its front middle: the stepped-back base follows.
  const GameState t = ok(s, move_to("fr_b5", {60, 20}, 180));
  const auto& turned = t.find_brigade("fr_b5")->base_poses;
  EXPECT_NEAR(turned.back().center.x, 60 - (poses.back().center.x - 60), 1e-9);
  EXPECT_NEAR(turned.back().center.y, 20 + (10 - poses.back().center.y), 1e-9);
  EXPECT_NEAR(turned.back().facing_deg, 180, 1e-9);
}

TEST(EditTest, AnAttachedLeaderMovesWithHisBrigade) {
  GameState s = test::tiny_state();
  s.leaders[4].attached_to = "fr_b5";  // fr_lg2
  const GameState n = ok(s, move_to("fr_b5", {60, 20}));
  EXPECT_EQ(n.find_leader("fr_lg2")->position, attached_leader_position(*n.find_brigade("fr_b5")));
}

TEST(EditTest, MovesAGun) {
  const GameState n = ok(with_gun(), move_to("fr_g1", {52, 14}, 30));
  EXPECT_EQ(n.find_gun("fr_g1")->position, (Vec2{52, 14}));
  EXPECT_DOUBLE_EQ(n.find_gun("fr_g1")->facing_deg, 30);
}

TEST(EditTest, MovingALeaderDetachesHim) {
  GameState s = test::tiny_state();
  s.leaders[1].attached_to = "fr_b2";  // fr_lg
  const GameState n = ok(s, move_to("fr_lg", {25, 5}));
  EXPECT_EQ(n.find_leader("fr_lg")->position, (Vec2{25, 5}));
  EXPECT_TRUE(n.find_leader("fr_lg")->attached_to.empty());
}

TEST(EditTest, RefusesAMoveOffTheTable) {
  const GameState s = with_gun();
  EXPECT_EQ(refused(s, move_to("fr_b5", {71.5, 20})), "off_table");
  EXPECT_EQ(refused(s, move_to("fr_g1", {50, 0.5})), "off_table") << "the gun's base would reach behind the edge";
  EXPECT_EQ(refused(s, move_to("fr_lg", {-1, 5})), "off_table");
}

TEST(EditTest, RefusesAMoveOntoAnotherUnit) {
  const GameState s = with_gun();
  EXPECT_EQ(refused(s, move_to("fr_b1", {21, 10})), "overlap");
  EXPECT_EQ(refused(s, move_to("fr_b5", {50, 10})), "overlap") << "onto the gun";
  EXPECT_EQ(refused(s, move_to("fr_g1", {36, 38.5})), "overlap");
  // Touching is not overlapping: fr_b1 moved flush against fr_b2's right flank.
  ok(s, move_to("fr_b1", {24, 10}));
}

TEST(EditTest, RefusesAMoveWithoutAPositionOrOfAnUnknownUnit) {
  const GameState s = test::tiny_state();
  EXPECT_EQ(refused(s, edit("move", "fr_b5")), "missing_field");
  EXPECT_EQ(refused(s, move_to("nobody", {10, 10})), "unknown_unit");
  EXPECT_EQ(refused(s, move_to("fr_b5", {std::nan(""), 10})), "bad_value");
}

TEST(EditTest, RefusesToMoveWhatIsOffTheTable) {
  GameState s = with_gun();
  s.brigades[4].status |= static_cast<std::uint32_t>(Status::kDestroyed);
  s.guns[0].status |= static_cast<std::uint32_t>(Status::kCrewEliminated);
  s.leaders[4].killed = true;
  EXPECT_EQ(refused(s, move_to("fr_b5", {60, 20})), "not_on_table");
  EXPECT_EQ(refused(s, move_to("fr_g1", {52, 20})), "not_on_table");
  EXPECT_EQ(refused(s, move_to("fr_lg2", {60, 5})), "not_on_table");
}

TEST(EditTest, AMoveToWhereItStandsChangesNothing) {
  EXPECT_EQ(refused(test::tiny_state(), move_to("fr_b5", {60, 10})), "no_change");
}

// ---- remove ----

TEST(EditTest, RemovesABrigadeAsDestroyedAndDetachesItsLeaders) {
  GameState s = test::tiny_state();
  s.leaders[4].attached_to = "fr_b5";
  const GameState n = ok(s, edit("remove", "fr_b5"));
  EXPECT_TRUE(n.find_brigade("fr_b5")->has(Status::kDestroyed));
  EXPECT_TRUE(n.find_leader("fr_lg2")->attached_to.empty());
  EXPECT_EQ(refused(n, edit("remove", "fr_b5")), "not_on_table");
  EXPECT_EQ(refused(s, keyed("remove", "fr_b5", "captured")), "bad_value");
}

TEST(EditTest, RemovesAGun) {
  const GameState n = ok(with_gun(), edit("remove", "fr_g1"));
  EXPECT_TRUE(n.find_gun("fr_g1")->has(Status::kDestroyed));
  EXPECT_TRUE(n.find_gun("fr_g1")->has(Status::kCrewEliminated));
  EXPECT_EQ(refused(n, edit("remove", "fr_g1")), "not_on_table");
}

TEST(EditTest, RemovesALeaderKilledOrCaptured) {
  const GameState s = test::tiny_state();
  const GameState killed = ok(s, edit("remove", "fr_lg"));
  EXPECT_TRUE(killed.find_leader("fr_lg")->killed);
  ASSERT_EQ(killed.fallen_leaders.size(), 1u);
  EXPECT_FALSE(killed.fallen_leaders[0].captured);
  const GameState captured = ok(s, keyed("remove", "fr_lg", "captured"));
  EXPECT_TRUE(captured.find_leader("fr_lg")->captured);
  EXPECT_FALSE(captured.find_leader("fr_lg")->killed);
  EXPECT_EQ(refused(killed, edit("remove", "fr_lg")), "not_on_table");
  EXPECT_EQ(refused(s, keyed("remove", "fr_lg", "lost")), "bad_value");
  EXPECT_EQ(refused(s, edit("remove", "nobody")), "unknown_unit");
}

// ---- set_dps ----

TEST(EditTest, SetsABrigadesDpsWithinItsCapacity) {
  const GameState s = test::tiny_state();
  EXPECT_EQ(ok(s, valued("set_dps", "fr_b1", 3)).find_brigade("fr_b1")->dps, 3u);
  EXPECT_EQ(ok(s, valued("set_dps", "fr_b1", 4)).find_brigade("fr_b1")->dps, 4u);
  EXPECT_EQ(refused(s, valued("set_dps", "fr_b1", 5)), "out_of_range") << "4 bases hold at most 4 DPs";
  EXPECT_EQ(refused(s, valued("set_dps", "fr_b1", -1)), "out_of_range");
  EXPECT_EQ(refused(s, valued("set_dps", "fr_b1", 0)), "no_change");
  EXPECT_EQ(refused(s, edit("set_dps", "fr_b1")), "missing_field");
}

TEST(EditTest, SetsAGunsDpsUpToSix) {
  const GameState s = with_gun();
  EXPECT_EQ(ok(s, valued("set_dps", "fr_g1", 6)).find_gun("fr_g1")->dps, 6u);
  EXPECT_EQ(refused(s, valued("set_dps", "fr_g1", 7)), "out_of_range");
}

TEST(EditTest, RefusesDpsForLeadersAndUnknownOrRemovedUnits) {
  GameState s = test::tiny_state();
  EXPECT_EQ(refused(s, valued("set_dps", "fr_lg", 1)), "bad_value");
  EXPECT_EQ(refused(s, valued("set_dps", "nobody", 1)), "unknown_unit");
  s.brigades[0].status |= static_cast<std::uint32_t>(Status::kDestroyed);
  EXPECT_EQ(refused(s, valued("set_dps", "fr_b1", 1)), "not_on_table");
}

// ---- leader_status ----

TEST(EditTest, SetsALeadersWoundsAndStatus) {
  const GameState s = test::tiny_state();
  const GameState wounded = ok(s, valued("leader_status", "fr_mg1", 1));
  EXPECT_EQ(wounded.find_leader("fr_mg1")->wounds, 1u);
  const GameState captured = ok(wounded, keyed("leader_status", "fr_mg1", "captured"));
  EXPECT_TRUE(captured.find_leader("fr_mg1")->captured);
  ASSERT_EQ(captured.fallen_leaders.size(), 1u);
  const GameState killed = ok(captured, keyed("leader_status", "fr_mg1", "killed"));
  EXPECT_TRUE(killed.find_leader("fr_mg1")->killed);
  EXPECT_FALSE(killed.find_leader("fr_mg1")->captured);
  EXPECT_EQ(killed.fallen_leaders.size(), 1u) << "one fallen leader, now killed";
  StateEdit back = keyed("leader_status", "fr_mg1", "active");
  back.value = 0;
  const GameState active = ok(killed, back);
  EXPECT_FALSE(active.find_leader("fr_mg1")->killed);
  EXPECT_EQ(active.find_leader("fr_mg1")->wounds, 0u);
  EXPECT_TRUE(active.fallen_leaders.empty()) << "no longer a fallen leader";
}

TEST(EditTest, RefusesABadLeaderStatus) {
  const GameState s = test::tiny_state();
  EXPECT_EQ(refused(s, valued("leader_status", "fr_mg1", 2)), "out_of_range") << "a second wound kills";
  EXPECT_EQ(refused(s, valued("leader_status", "fr_mg1", -1)), "out_of_range");
  EXPECT_EQ(refused(s, keyed("leader_status", "fr_mg1", "asleep")), "bad_value");
  EXPECT_EQ(refused(s, edit("leader_status", "fr_mg1")), "missing_field");
  EXPECT_EQ(refused(s, keyed("leader_status", "fr_b1", "killed")), "bad_value");
  EXPECT_EQ(refused(s, keyed("leader_status", "nobody", "killed")), "unknown_unit");
  EXPECT_EQ(refused(s, keyed("leader_status", "fr_mg1", "active")), "no_change");
}

// ---- attach ----

TEST(EditTest, AttachesAndDetachesALeader) {
  const GameState s = test::tiny_state();
  const GameState a = ok(s, keyed("attach", "fr_mg1", "fr_b1"));
  const Leader& l = *a.find_leader("fr_mg1");
  EXPECT_EQ(l.attached_to, "fr_b1");
  EXPECT_EQ(l.position, attached_leader_position(*a.find_brigade("fr_b1")));
  const GameState d = ok(a, keyed("attach", "fr_mg1", ""));
  EXPECT_TRUE(d.find_leader("fr_mg1")->attached_to.empty());
  EXPECT_EQ(d.find_leader("fr_mg1")->position, l.position) << "detached where he stands";
}

TEST(EditTest, RefusesABadAttachment) {
  GameState s = test::tiny_state();
  EXPECT_EQ(refused(s, keyed("attach", "fr_mg1", "al_b1")), "bad_value") << "an enemy brigade";
  EXPECT_EQ(refused(s, keyed("attach", "fr_mg1", "nobody")), "unknown_unit");
  EXPECT_EQ(refused(s, keyed("attach", "fr_b1", "fr_b2")), "bad_value");
  EXPECT_EQ(refused(s, keyed("attach", "fr_mg1", "")), "no_change");
  s.brigades[0].status |= static_cast<std::uint32_t>(Status::kDestroyed);
  EXPECT_EQ(refused(s, keyed("attach", "fr_mg1", "fr_b1")), "not_on_table");
  s.leaders[2].killed = true;
  EXPECT_EQ(refused(s, keyed("attach", "fr_mg1", "fr_b2")), "not_on_table");
}

// ---- advantage_of_ground ----

TEST(EditTest, RulesOnAdvantageOfGroundAndClearsTheRuling) {
  const GameState s = test::tiny_state();
  StateEdit yes = edit("advantage_of_ground", "fr_b1");
  yes.flag = true;
  const GameState a = ok(s, yes);
  EXPECT_EQ(a.advantage_of_ground.at("fr_b1"), true);
  StateEdit no = yes;
  no.flag = false;
  const GameState b = ok(a, no);
  EXPECT_EQ(b.advantage_of_ground.at("fr_b1"), false);
  const GameState c = ok(b, edit("advantage_of_ground", "fr_b1"));
  EXPECT_FALSE(c.advantage_of_ground.contains("fr_b1"));
  EXPECT_EQ(refused(c, edit("advantage_of_ground", "fr_b1")), "no_change");
  EXPECT_EQ(refused(s, edit("advantage_of_ground", "fr_lg")), "bad_value");
  EXPECT_EQ(refused(s, edit("advantage_of_ground", "nobody")), "unknown_unit");
}

// ---- any edit ----

TEST(EditTest, RefusesAnUnknownKindAMissingSubjectAndAnEndedGame) {
  GameState s = test::tiny_state();
  EXPECT_EQ(refused(s, edit("teleport", "fr_b1")), "unknown_edit");
  EXPECT_EQ(refused(s, move_to("", {10, 10})), "missing_field");
  s.phase = Phase::kEnded;
  EXPECT_EQ(refused(s, valued("set_dps", "fr_b1", 1)), "ended");
}

TEST(EditTest, TheGameTakesEditsAsNewGames) {
  const MalbrookGame game(test::tiny_state());
  auto edited = game.edit(valued("set_dps", "fr_b1", 2));
  ASSERT_TRUE(edited.ok());
  EXPECT_NE(edited.value()->state_hash(), game.state_hash());
  EXPECT_EQ(edited.value()->step(), game.step()) << "an edit is not a resolved step";
  auto refused_edit = game.edit(valued("set_dps", "fr_b1", 9));
  ASSERT_FALSE(refused_edit.ok());
  EXPECT_EQ(refused_edit.error().code, "out_of_range");
}

}  // namespace
}  // namespace galloper::rules::malbrook
