// The movement phase, clause by clause ("Movement", the movement parts of
// "Close Combat"), with FixedDice. Geometry of tiny_state(): fr_b1 is a
// 4-base traditional foot line 4" wide whose front edge runs y=10 from x=14
// to x=18, facing north; the Allies stand 28" away unless a test moves them.
#include <gtest/gtest.h>

#include <cmath>

#include "rules/malbrook/basing.hpp"
#include "rules/malbrook/combat.hpp"
#include "rules/malbrook/movement.hpp"
#include "tests/rules/malbrook/movement_helpers.hpp"

namespace galloper::rules::malbrook {
namespace {

using namespace test;

GameState with_features(GameState s, std::vector<Feature> fs) {
  s.features = std::move(fs);
  s.terrain = make_terrain_map(s.features);
  return s;
}

Feature area(std::string id, TerrainKind kind, Vec2 lo, Vec2 hi) {
  Feature f;
  f.id = std::move(id);
  f.kind = kind;
  f.points = {{lo.x, lo.y}, {hi.x, lo.y}, {hi.x, hi.y}, {lo.x, hi.y}};
  f.closed = true;
  return f;
}

Feature linear(std::string id, TerrainKind kind, std::vector<Vec2> pts, bool major = false, bool impassable = false) {
  Feature f;
  f.id = std::move(id);
  f.kind = kind;
  f.points = std::move(pts);
  f.major = major;
  f.impassable = impassable;
  return f;
}

TEST(MovementDeclare, FootMayRollOneAverageDieAndAnOptionalD6) {
  GameState s = movement_state();
  const auto ds = movement_pending(s);
  const Decision* d = find_pending(ds, "dice/fr_b1");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->seat, "fr/left");
  std::vector<std::string> opts;
  for (const auto& o : d->options) opts.push_back(o.id);
  EXPECT_EQ(opts, (std::vector<std::string>{"none", "manoeuvre", "1", "1+d6"}));
  EXPECT_EQ(d->default_option, "none");
  // Only the acting army declares.
  EXPECT_EQ(find_pending(ds, "dice/al_b1"), nullptr);
}

TEST(MovementDeclare, DoubleMoveBeyondSixInchesOfKnownEnemy) {
  GameState s = movement_state();
  ASSERT_TRUE(declare(s, {{"fr_b1", "1+d6"}}, {4, 3}));
  EXPECT_DOUBLE_EQ(allowance_of(s, "fr_b1"), 7.0);  // (4+3) x 1/2" doubled
  EXPECT_EQ(s.movement.stage, MoveStage::kExecute);
}

TEST(MovementDeclare, SingleMoveWithinSixInchesOfEnemy) {
  GameState s = movement_state();
  brigade(s, "al_b1").position = {16, 15};  // 5" in front of fr_b1
  ASSERT_TRUE(declare(s, {{"fr_b1", "1+d6"}}, {4, 3}));
  EXPECT_DOUBLE_EQ(allowance_of(s, "fr_b1"), 3.5);
}

TEST(MovementDeclare, WoodNearbyMayHideEnemySoNoDoubleMove) {
  GameState s = with_features(movement_state(), {area("w", TerrainKind::kWood, {10, 14}, {22, 20})});
  ASSERT_TRUE(declare(s, {{"fr_b1", "1"}}, {4}));
  EXPECT_DOUBLE_EQ(allowance_of(s, "fr_b1"), 2.0);
}

TEST(MovementDeclare, InspiredAddsHalfInchPerDie) {
  GameState s = movement_state();
  brigade(s, "al_b1").position = {16, 15};
  brigade(s, "fr_b1").inspire_actions = 1;
  ASSERT_TRUE(declare(s, {{"fr_b1", "1+d6"}}, {4, 3}));
  EXPECT_DOUBLE_EQ(allowance_of(s, "fr_b1"), 4.5);  // 3.5 + 2 x 1/2
}

// "Eg: a brigade which rolls 2 dice resulting in a total of 6 on the dice
// moves 4 inches rather than the normal 3. A brigade which rolls 3 dice with
// a total of 9, moves 6 inches rather than 4½ inches."
TEST(MovementDeclare, InspiredExamplesOfTheText) {
  EXPECT_DOUBLE_EQ(move_inches({3, 3}, false, false), 3.0);
  EXPECT_DOUBLE_EQ(move_inches({3, 3}, true, false), 4.0);
  EXPECT_DOUBLE_EQ(move_inches({3, 3, 3}, false, false), 4.5);
  EXPECT_DOUBLE_EQ(move_inches({3, 3, 3}, true, false), 6.0);
  EXPECT_DOUBLE_EQ(move_inches({3, 3}, true, true), 8.0);  // then doubled (RULINGS M6)
}

// "In other circumstances, brigades which are not being controlled must roll
// individually."
TEST(MovementDeclare, BrigadesNotControlledRollIndividually) {
  GameState s = movement_state();
  for (auto id : {"fr_b1", "fr_b2"}) brigade(s, id).control = ControlResult::kAsWished;
  const auto ds = movement_pending(s);
  ASSERT_NE(find_pending(ds, "dice/fr_b1"), nullptr);
  ASSERT_NE(find_pending(ds, "dice/fr_b2"), nullptr);
  EXPECT_EQ(find_pending(ds, "dice/fr_b1")->subjects, (std::vector<std::string>{"fr_b1"}));
  ASSERT_TRUE(declare(s, {{"fr_b1", "1+d6"}, {"fr_b2", "1+d6"}}, {5, 2, 2, 2}));
  EXPECT_NE(allowance_of(s, "fr_b1"), allowance_of(s, "fr_b2"));
}

TEST(MovementDeclare, RejectsAnOptionNotOffered) {
  GameState s = movement_state();
  auto v = declare(s, {{"fr_b1", "2"}}, {4, 4});
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "bad_option");
  EXPECT_NE(v.error().reason.find("1+d6"), std::string::npos);
}

TEST(MovementDeclare, CavalryChangeOfSpeedByAtMostTwoDice) {
  Brigade b;
  b.type = TroopType::kHorse;
  EXPECT_EQ(cavalry_dice_allowed(b, 1), (std::vector<std::uint32_t>{0, 1, 2}));  // stationary: max two dice
  record_move_dice(b, 1, 3);
  EXPECT_EQ(move_dice_last_turn(b, 2), 3u);
  EXPECT_EQ(cavalry_dice_allowed(b, 2), (std::vector<std::uint32_t>{1, 2, 3}));  // moved 3: must move at least 1
  record_move_dice(b, 2, 2);  // a road move counts as two
  EXPECT_EQ(move_dice_last_turn(b, 3), 2u);
  EXPECT_EQ(cavalry_dice_allowed(b, 3), (std::vector<std::uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(move_dice_last_turn(b, 5), 0u);  // did not move in turn 4
}

TEST(MovementDeclare, CavalryOptionsFollowLastTurnsDice) {
  GameState s = movement_state();
  Brigade& c = brigade(s, "fr_b5");
  c.type = TroopType::kHorse;
  auto opts = [&]() {
    std::vector<std::string> out;
    const auto d = pending_decision(s, "dice/fr_b5");
    for (const auto& o : d->options) out.push_back(o.id);
    return out;
  };
  EXPECT_EQ(opts(), (std::vector<std::string>{"none", "manoeuvre", "1", "2", "1+d6"}));
  s.turn = 2;
  record_move_dice(c, 1, 3);
  EXPECT_EQ(opts(), (std::vector<std::string>{"1", "2", "1+d6", "2+d6"}));
}

TEST(MovementDeclare, BrigadesOfACommandControlledByOneLeaderShareDice) {
  GameState s = movement_state();
  for (auto id : {"fr_b1", "fr_b2"}) {
    brigade(s, id).control = ControlResult::kControlled;
    brigade(s, id).controlled_by = "fr_mg1";
  }
  const auto ds = movement_pending(s);
  EXPECT_EQ(find_pending(ds, "dice/fr_b1"), nullptr);
  const Decision* d = find_pending(ds, "dice/fr_b2");  // rightmost leads
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->subjects, (std::vector<std::string>{"fr_b2", "fr_b1"}));
  ASSERT_TRUE(declare(s, {{"fr_b2", "1+d6"}}, {5, 2}));
  EXPECT_DOUBLE_EQ(allowance_of(s, "fr_b1"), 7.0);
  EXPECT_DOUBLE_EQ(allowance_of(s, "fr_b2"), 7.0);
}

TEST(MovementDeclare, ConformingBrigadeUsesTheLeadsDice) {
  GameState s = movement_state();
  brigade(s, "fr_b3").control = ControlResult::kControlled;
  brigade(s, "fr_b3").controlled_by = "fr_mg2";
  brigade(s, "fr_b4").control = ControlResult::kConforming;
  brigade(s, "fr_b4").conform_to = "fr_b3";
  const auto d = pending_decision(s, "dice/fr_b3");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->subjects, (std::vector<std::string>{"fr_b3", "fr_b4"}));
}

TEST(MovementDeclare, BrigadeInCombatMayNotMove) {
  GameState s = movement_state();
  brigade(s, "fr_b1").status |= static_cast<std::uint32_t>(Status::kInCombat);
  EXPECT_FALSE(pending_decision(s, "dice/fr_b1").has_value());
}

TEST(MovementExecute, MustMoveTheFullAmountRolled) {
  GameState s = movement_state();
  ASSERT_TRUE(declare(s, {{"fr_b1", "1+d6"}}, {4, 3}));  // 7" double
  GameState t = s;
  auto v = execute(t, {{"fr_b1", {fwd(5)}}});
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "short_move");
  EXPECT_NE(v.error().reason.find("rolled 7\""), std::string::npos);
  t = s;
  v = execute(t, {{"fr_b1", {fwd(7.5)}}});
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "too_far");
  EXPECT_NE(v.error().reason.find("has 7\""), std::string::npos);
  EXPECT_NE(v.error().reason.find("needs 7.5\""), std::string::npos);
  ASSERT_TRUE(execute(s, {{"fr_b1", {fwd(7)}}}));
  EXPECT_NEAR(brigade(s, "fr_b1").position.y, 17, 1e-9);
  EXPECT_TRUE(brigade(s, "fr_b1").has(Status::kMoved));
  EXPECT_EQ(brigade(s, "fr_b1").dps, 0u);
  EXPECT_TRUE(movement_finished(s));
}

TEST(MovementExecute, DeclaredObjectiveMayHaltShort) {
  GameState s = movement_state();
  ASSERT_TRUE(declare(s, {{"fr_b1", "1+d6"}}, {4, 3}, nullptr, {"fr_b1"}));
  ASSERT_TRUE(execute(s, {{"fr_b1", {fwd(2)}}}));
  EXPECT_NEAR(brigade(s, "fr_b1").position.y, 12, 1e-9);
}

TEST(MovementExecute, NoMoreThan22AndAHalfDegreesOffTheFacing) {
  GameState s = movement_state();
  ASSERT_TRUE(declare(s, {{"fr_b1", "1+d6"}}, {4, 3}));
  GameState t = s;
  auto v = execute(t, {{"fr_b1", {fwd(7, 30)}}});
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "off_facing");
  ASSERT_TRUE(execute(s, {{"fr_b1", {fwd(7, 22.5)}}}));
  EXPECT_NEAR(brigade(s, "fr_b1").position.x, 16 + 7 * std::sin(deg_to_rad(22.5)), 1e-9);
}

TEST(MovementExecute, GoodTerrainOneDpPerSixUnlessMarchColumn) {
  GameState s = movement_state();
  ASSERT_TRUE(declare(s, {{"fr_b1", "1+d6"}, {"fr_b5", "1+d6"}}, {5, 6, 2, 6}));
  // Right to left: fr_b5 (x=60) rolls first.
  ASSERT_TRUE(execute(s, {{"fr_b5", {fwd(11)}}, {"fr_b1", {fwd(8)}}}));
  EXPECT_EQ(brigade(s, "fr_b1").dps, 1u);
  EXPECT_EQ(brigade(s, "fr_b5").dps, 1u);

  GameState c = movement_state();
  brigade(c, "fr_b1").formation = Formation::kMarchColumn;
  ASSERT_TRUE(declare(c, {{"fr_b1", "1+d6"}}, {5, 6}));
  ASSERT_TRUE(execute(c, {{"fr_b1", {fwd(11)}}}));
  EXPECT_EQ(brigade(c, "fr_b1").dps, 0u);
}

TEST(MovementExecute, RoughTerrainFootInLineFiveOrSix) {
  GameState s = with_features(movement_state(), {area("r", TerrainKind::kRough, {10, 8}, {24, 30})});
  ASSERT_TRUE(declare(s, {{"fr_b1", "1+d6"}}, {5, 5}));  // rough ground hides no one: double
  ASSERT_TRUE(execute(s, {{"fr_b1", {fwd(10)}}}));
  EXPECT_EQ(brigade(s, "fr_b1").dps, 2u);
}

TEST(MovementExecute, FatigueTable) {
  Pose line;
  line.formation = Formation::kLine;
  Pose fcol = line;
  fcol.formation = Formation::kFieldColumn;
  Pose mcol = line;
  mcol.formation = Formation::kMarchColumn;
  Pose unf = line;
  unf.formation = Formation::kUnformed;
  Pose cav = line;
  cav.type = TroopType::kHorse;
  Pose cav_col = cav;
  cav_col.formation = Formation::kMarchColumn;
  Pose gun;
  gun.gun = true;
  Pose limbered = gun;
  limbered.limbered = true;
  const std::vector<int> faces{4, 5, 6};
  // Good terrain: a DP per 6 unless march column, unformed or limbered guns.
  EXPECT_EQ(fatigue_dps(faces, line, false), 1);
  EXPECT_EQ(fatigue_dps(faces, fcol, false), 1);
  EXPECT_EQ(fatigue_dps(faces, cav, false), 1);
  EXPECT_EQ(fatigue_dps(faces, gun, false), 1);
  EXPECT_EQ(fatigue_dps(faces, mcol, false), 0);
  EXPECT_EQ(fatigue_dps(faces, unf, false), 0);
  EXPECT_EQ(fatigue_dps(faces, limbered, false), 0);
  // Rough: field column 6s, line 5-6, cavalry and guns 4-6, none unformed or foot march column.
  EXPECT_EQ(fatigue_dps(faces, fcol, true), 1);
  EXPECT_EQ(fatigue_dps(faces, line, true), 2);
  EXPECT_EQ(fatigue_dps(faces, cav, true), 3);
  EXPECT_EQ(fatigue_dps(faces, cav_col, true), 3);
  EXPECT_EQ(fatigue_dps(faces, limbered, true), 3);
  EXPECT_EQ(fatigue_dps(faces, mcol, true), 0);
  EXPECT_EQ(fatigue_dps(faces, unf, true), 0);
}

TEST(MovementExecute, MaximumThreeDpsForMovement) {
  std::uint32_t d = 2;
  add_movement_dps(d, 3);
  EXPECT_EQ(d, 3u);
  d = 4;
  add_movement_dps(d, 1);
  EXPECT_EQ(d, 4u);
  d = 0;
  add_movement_dps(d, 0);
  EXPECT_EQ(d, 0u);
}

TEST(MovementExecute, FootWithinOneInchOfEnemyToTheirFrontAreInCombat) {
  GameState s = movement_state();
  brigade(s, "al_b1").position = {16, 12.8};  // front edge 2.8" ahead of fr_b1
  ASSERT_TRUE(declare(s, {{"fr_b1", "1"}}, {4}));  // 2"
  std::vector<Event> ev;
  ASSERT_TRUE(execute(s, {{"fr_b1", {fwd(2)}}}, &ev));
  EXPECT_TRUE(brigade(s, "fr_b1").has(Status::kInCombat));
  bool combat_event = false;
  for (const auto& e : ev) combat_event = combat_event || e.kind == "combat";
  EXPECT_TRUE(combat_event);
}

TEST(MovementExecute, FootMayHaltUpToTwoInchesShortOfCombat) {
  GameState s = movement_state();
  brigade(s, "al_b1").position = {16, 13.5};
  ASSERT_TRUE(declare(s, {{"fr_b1", "1"}}, {5}));  // 2.5"
  GameState t = s;
  ASSERT_TRUE(execute(t, {{"fr_b1", {fwd(1)}}}));  // halts 1.5" short, 2.5" from the enemy
  EXPECT_FALSE(brigade(t, "fr_b1").has(Status::kInCombat));
  auto v = execute(s, {{"fr_b1", {fwd(0.4)}}});  // 2.1" short: too far short
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "short_move");
}

TEST(MovementExecute, CavalryMustHaltAtTwoInchesOfEnemyToTheirFront) {
  GameState s = movement_state();
  Brigade& c = brigade(s, "fr_b1");
  c.type = TroopType::kHorse;
  brigade(s, "al_b1").position = {16, 16};  // 6" ahead
  ASSERT_TRUE(declare(s, {{"fr_b1", "2"}}, {5, 5}));  // 5"
  EXPECT_DOUBLE_EQ(allowance_of(s, "fr_b1"), 5.0);
  GameState t = s;
  auto v = execute(t, {{"fr_b1", {fwd(5)}}});
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "cavalry_halt");
  ASSERT_TRUE(execute(s, {{"fr_b1", {fwd(4)}}}));  // halts at 2"
  EXPECT_NEAR(brigade(s, "fr_b1").position.y, 14, 1e-9);
  EXPECT_FALSE(brigade(s, "fr_b1").has(Status::kInCombat));
}

// "Unformed ... are considered to be facing all-round and therefore have no
// flanks or rear" (RULINGS M4, M13): enemy beside them is "to their front".
TEST(MovementExecute, UnformedCavalryFaceAllRoundSoMustHaltAtTwoInchesOfEnemyBesideThem) {
  for (const bool unformed : {false, true}) {
    SCOPED_TRACE(unformed ? "hussars, unformed" : "horse in line");
    GameState s = movement_state();
    Brigade& c = brigade(s, "fr_b1");
    c.type = unformed ? TroopType::kHussars : TroopType::kHorse;
    c.formation = unformed ? Formation::kUnformed : Formation::kLine;
    c.bases = 2;
    brigade(s, "al_b1").position = {20.5, 12};  // x 18.5..22.5, y 12..13: beside the path, behind its end's front edge
    ASSERT_TRUE(declare(s, {{"fr_b1", "2"}}, {5, 5}));  // 5"
    GameState t = s;
    const auto v = execute(t, {{"fr_b1", {fwd(5)}}});
    const double d = distance(pose_envelope(pose_of(brigade(s, "al_b1"))),
                              pose_envelope(pose_of(brigade(s, "fr_b1"))).translated({0, 5}));
    EXPECT_LT(d, 2.0);
    if (unformed) {
      ASSERT_FALSE(v);
      EXPECT_EQ(v.error().code, "cavalry_halt");
    } else {
      EXPECT_TRUE(v) << v.error().reason;  // the enemy is off its flank, not to its front
    }
  }
}

TEST(MovementExecute, UnformedFootFaceAllRoundSoEnemyWithinOneInchBesideThemMeansCombat) {
  for (const bool unformed : {false, true}) {
    SCOPED_TRACE(unformed ? "dismounted dragoons, unformed" : "foot in line");
    GameState s = movement_state();
    Brigade& f = brigade(s, "fr_b1");
    f.type = unformed ? TroopType::kDismountedDragoons : TroopType::kFoot;
    f.formation = unformed ? Formation::kUnformed : Formation::kLine;
    f.bases = 2;
    brigade(s, "al_b1").position = {19.75, 12};  // x 17.75..21.75, y 12..13
    ASSERT_TRUE(declare(s, {{"fr_b1", "1+d6"}}, {4, 2}));  // 3"
    ASSERT_TRUE(execute(s, {{"fr_b1", {fwd(3)}}}));
    const double d =
        distance(pose_envelope(pose_of(brigade(s, "al_b1"))), pose_envelope(pose_of(brigade(s, "fr_b1"))));
    EXPECT_LE(d, 1.0);
    EXPECT_EQ(brigade(s, "fr_b1").has(Status::kInCombat), unformed);
  }
}

TEST(MovementExecute, DoubleMoveHaltsAtSixInchesOfKnownEnemy) {
  GameState s = movement_state();
  brigade(s, "al_b1").position = {16, 24};  // 14" ahead
  ASSERT_TRUE(declare(s, {{"fr_b1", "1+d6"}}, {5, 6}));  // 11" double
  EXPECT_DOUBLE_EQ(allowance_of(s, "fr_b1"), 11.0);
  GameState t = s;
  auto v = execute(t, {{"fr_b1", {fwd(11)}}});
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "double_move");
  ASSERT_TRUE(execute(s, {{"fr_b1", {fwd(8)}}}));  // at 6": halts there
  EXPECT_NEAR(brigade(s, "fr_b1").position.y, 18, 1e-9);
}

TEST(MovementExecute, RoadMoveSixInchesDoubleBeyondSixOfEnemy) {
  GameState s = with_features(movement_state(), {linear("road", TerrainKind::kRoad, {{16, 0}, {16, 48}})});
  brigade(s, "fr_b1").formation = Formation::kMarchColumn;
  const auto d = pending_decision(s, "dice/fr_b1");
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->options.back().id, "road");
  ASSERT_TRUE(declare(s, {{"fr_b1", "road"}}, {}));
  EXPECT_DOUBLE_EQ(allowance_of(s, "fr_b1"), 12.0);
  GameState t = s;
  EXPECT_FALSE(execute(t, {{"fr_b1", {fwd(12.5)}}}));
  ASSERT_TRUE(execute(s, {{"fr_b1", {fwd(5)}}}));  // "up to": no full-move rule
  EXPECT_EQ(brigade(s, "fr_b1").move_dice, 2u);    // counts as two dice

  GameState n = with_features(movement_state(), {linear("road", TerrainKind::kRoad, {{16, 0}, {16, 48}})});
  brigade(n, "fr_b1").formation = Formation::kMarchColumn;
  brigade(n, "al_b1").position = {20, 14};
  ASSERT_TRUE(declare(n, {{"fr_b1", "road"}}, {}));
  EXPECT_DOUBLE_EQ(allowance_of(n, "fr_b1"), 6.0);
}

TEST(MovementExecute, CannotPassThroughEnemy) {
  GameState s = movement_state();
  Brigade& c = brigade(s, "fr_b1");
  c.type = TroopType::kHorse;
  Brigade& e = brigade(s, "al_b1");
  e.position = {16, 13};
  e.facing_deg = 0;  // its back to fr_b1: not "to the front" for the halt... but in the way
  ASSERT_TRUE(declare(s, {{"fr_b1", "2"}}, {5, 5}));
  auto v = execute(s, {{"fr_b1", {wheel_step(-10, "left"), fwd(4)}}});
  ASSERT_FALSE(v);
}

TEST(MovementExecute, CannotEndOnTopOfAFriend) {
  GameState s = movement_state();
  ASSERT_TRUE(declare(s, {{"fr_b4", "1"}}, {3}));  // 3" double = 3" ... single? 28" away: double
  const double a = allowance_of(s, "fr_b4");
  ASSERT_DOUBLE_EQ(a, 3.0);
  auto v = execute(s, {{"fr_b4", {fwd(3)}}});  // would end exactly on fr_b3
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "overlap");
}

TEST(MovementExecute, HaltShortOfAFriendAndPassageOfLinesThroughAStationaryFriend) {
  GameState s = movement_state();
  ASSERT_TRUE(declare(s, {{"fr_b4", "1"}}, {3}));
  GameState t = s;
  ASSERT_TRUE(execute(t, {{"fr_b4", {fwd(2)}}}));  // halts 1" short of fr_b3
  EXPECT_NEAR(brigade(t, "fr_b4").position.y, 9, 1e-9);
  // Right through the stationary fr_b3 and out the other side: no DP.
  GameState u = movement_state();
  ASSERT_TRUE(declare(u, {{"fr_b4", "1+d6"}}, {2, 2}));  // 4" double
  ASSERT_TRUE(execute(u, {{"fr_b4", {fwd(4)}}}));
  EXPECT_EQ(brigade(u, "fr_b4").dps, 0u);
  EXPECT_EQ(brigade(u, "fr_b3").dps, 0u);
}

TEST(MovementExecute, PassageOfLinesThroughAMovingFriendCostsEachADp) {
  GameState s = movement_state();
  ASSERT_TRUE(declare(s, {{"fr_b3", "1"}, {"fr_b4", "1+d6"}}, {2, 4, 4}));  // b3: 2" ; b4: 8"
  ASSERT_TRUE(execute(s, {{"fr_b3", {fwd(2)}}, {"fr_b4", {fwd(8)}}}));
  EXPECT_EQ(brigade(s, "fr_b3").dps, 1u);
  EXPECT_EQ(brigade(s, "fr_b4").dps, 1u);
}

// "No penalty if none are routing and one remains stationary and did not
// fire ... No penalty if moving through guns that did not fire this turn.
// Otherwise this causes 1DP to be incurred by each formed brigade involved."
TEST(MovementExecute, PassageOfLinesThroughRoutersOrGunsThatFiredCostsTheFormedBrigadeADp) {
  {
    SCOPED_TRACE("through a routing friend");
    GameState s = movement_state();
    Brigade& r = brigade(s, "fr_b3");
    r.status |= static_cast<std::uint32_t>(Status::kRouting);
    r.formation = Formation::kUnformed;
    ASSERT_TRUE(declare(s, {{"fr_b4", "1+d6"}}, {2, 2}));  // 4" double
    ASSERT_TRUE(execute(s, {{"fr_b4", {fwd(4)}}}));
    EXPECT_EQ(brigade(s, "fr_b4").dps, 1u);
    EXPECT_EQ(brigade(s, "fr_b3").dps, 0u);  // unformed: not a formed brigade
  }
  for (const bool fired : {false, true}) {
    SCOPED_TRACE(fired ? "through a gun that fired" : "through a silent gun");
    GameState s = movement_state();
    brigade(s, "fr_b3").bases = 0;  // off the table: a gun stands in its place
    Gun g;
    g.id = "g1";
    g.army = "fr";
    g.wing = "left";
    g.command = "c2";
    g.position = {30, 10};
    if (fired) g.status |= static_cast<std::uint32_t>(Status::kFired);
    s.guns.push_back(g);
    ASSERT_TRUE(declare(s, {{"fr_b4", "1+d6"}, {"g1", "none"}}, {2, 2}));
    ASSERT_TRUE(execute(s, {{"fr_b4", {fwd(4)}}}));
    EXPECT_EQ(brigade(s, "fr_b4").dps, fired ? 1u : 0u);
    EXPECT_EQ(s.guns[0].dps, 0u);
  }
}

// "Road Move ... Limbered guns may do the same. Unlimbered light guns may
// move up to 4 inches, unlimbered medium guns up to 2 inches. Double distance
// for all if beyond 6 inches of enemy." Heavy guns only pivot (M14).
TEST(MovementExecute, RoadMovesForGunsByWeightDoubledBeyondSixOfEnemy) {
  struct Case {
    GunWeight weight;
    bool limbered;
    double allowance;  // doubled: the enemy is 28" away
  };
  for (const Case c : {Case{GunWeight::kLight, false, 8}, Case{GunWeight::kMedium, false, 4},
                       Case{GunWeight::kHeavy, true, 12}, Case{GunWeight::kHeavy, false, -1}}) {
    SCOPED_TRACE(static_cast<int>(c.weight) * 10 + (c.limbered ? 1 : 0));
    GameState s = with_features(movement_state(), {linear("road", TerrainKind::kRoad, {{40, 0}, {40, 48}})});
    Gun g;
    g.id = "g1";
    g.army = "fr";
    g.wing = "left";
    g.command = "c1";
    g.weight = c.weight;
    g.limbered = c.limbered;
    g.position = {40, 10};
    s.guns.push_back(g);
    const auto d = pending_decision(s, "dice/g1");
    ASSERT_TRUE(d.has_value());
    const bool road = d->options.back().id == "road";
    EXPECT_EQ(road, c.allowance > 0);
    if (!road) continue;
    ASSERT_TRUE(declare(s, {{"g1", "road"}}, {}));
    EXPECT_DOUBLE_EQ(allowance_of(s, "g1"), c.allowance);
  }
}

// "Guns and cavalry may not move in dense woods ... unless on a road."
TEST(MovementExecute, CavalryMayMoveThroughAWoodOnlyByARoadMove) {
  GameState s = with_features(movement_state(), {area("w", TerrainKind::kWood, {10, 13}, {22, 20}),
                                                 linear("road", TerrainKind::kRoad, {{16, 0}, {16, 48}})});
  Brigade& c = brigade(s, "fr_b1");
  c.type = TroopType::kHorse;
  c.formation = Formation::kMarchColumn;
  GameState dice = s;
  ASSERT_TRUE(declare(dice, {{"fr_b1", "2"}}, {4, 4}));
  auto v = execute(dice, {{"fr_b1", {fwd(allowance_of(dice, "fr_b1"))}}});
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "closed_terrain");
  ASSERT_TRUE(declare(s, {{"fr_b1", "road"}}, {}));
  ASSERT_TRUE(execute(s, {{"fr_b1", {fwd(5)}}}));
  EXPECT_NEAR(brigade(s, "fr_b1").position.y, 15, 1e-9);
}

// "All brigades may halt up to 2 inches short if their full move would force
// them to ... move into or across a terrain feature".
TEST(MovementExecute, MayHaltUpToTwoInchesShortOfATerrainFeature) {
  GameState s = with_features(movement_state(), {area("r", TerrainKind::kRough, {10, 16}, {24, 30})});
  ASSERT_TRUE(declare(s, {{"fr_b1", "1+d6"}}, {4, 3}));  // 7" (rough ground hides no one: double)
  ASSERT_DOUBLE_EQ(allowance_of(s, "fr_b1"), 7.0);
  GameState t = s;
  ASSERT_TRUE(execute(t, {{"fr_b1", {fwd(5.5)}}}));  // 1.5" short of the 7": the rest would enter the rough
  t = s;
  auto v = execute(t, {{"fr_b1", {fwd(4.5)}}});  // 2.5" short
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "short_move");
}

TEST(MovementExecute, ImpassableRiverAndClosedTerrainForCavalry) {
  GameState s = with_features(movement_state(),
                              {linear("river", TerrainKind::kRiver, {{0, 13}, {72, 13}}, true, true)});
  ASSERT_TRUE(declare(s, {{"fr_b1", "1+d6"}}, {4, 3}));
  auto v = execute(s, {{"fr_b1", {fwd(7)}}});
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "impassable");

  GameState w = with_features(movement_state(), {area("w", TerrainKind::kWood, {10, 13}, {22, 20})});
  brigade(w, "fr_b1").type = TroopType::kHorse;
  ASSERT_TRUE(declare(w, {{"fr_b1", "2"}}, {4, 4}));
  v = execute(w, {{"fr_b1", {fwd(4)}}});
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "closed_terrain");
}

TEST(MovementExecute, CrossingAMajorObstacleTakesHalfAMoveAndADp) {
  GameState s = with_features(movement_state(), {linear("ditch", TerrainKind::kDitch, {{0, 11}, {72, 11}}, true)});
  ASSERT_TRUE(declare(s, {{"fr_b1", "1+d6"}}, {4, 3}));  // 7"
  GameState t = s;
  EXPECT_FALSE(execute(t, {{"fr_b1", {fwd(7)}}}));       // 7" + 1/2 move > 7"
  ASSERT_TRUE(execute(s, {{"fr_b1", {fwd(3.5)}}}));      // 3.5" + 3.5" (1/2 move)
  EXPECT_EQ(brigade(s, "fr_b1").dps, 1u);

  GameState f = with_features(movement_state(), {linear("ditch", TerrainKind::kDitch, {{0, 11}, {72, 11}}, true)});
  brigade(f, "fr_b1").status |= static_cast<std::uint32_t>(Status::kUnderFire);
  ASSERT_TRUE(declare(f, {{"fr_b1", "1+d6"}}, {4, 3}));
  ASSERT_TRUE(execute(f, {{"fr_b1", {fwd(3.5)}}}));
  EXPECT_EQ(brigade(f, "fr_b1").dps, 2u);

  GameState c = with_features(movement_state(),
                              {linear("cdf", TerrainKind::kChevauxDeFrise, {{0, 11}, {72, 11}}, true)});
  brigade(c, "fr_b1").type = TroopType::kHorse;
  ASSERT_TRUE(declare(c, {{"fr_b1", "2"}}, {4, 3}));
  ASSERT_TRUE(execute(c, {{"fr_b1", {fwd(3.5)}}}));
  EXPECT_EQ(brigade(c, "fr_b1").dps, 2u);
}

// "Crossing Major Obstacles. This takes ½ move ... It causes formed brigades
// to incur 1 DP (2 if under fire)." Only major obstacles: "Minor obstacles
// such as shallow streams or rivers without significant banks could instead
// be classified as rough terrain" -- a minor line costs nothing (RULINGS M10).
TEST(MovementExecute, CrossingAMinorObstacleCostsNothing) {
  for (const TerrainKind kind : {TerrainKind::kStream, TerrainKind::kHedge, TerrainKind::kDitch}) {
    SCOPED_TRACE(static_cast<int>(kind));
    GameState s = with_features(movement_state(), {linear("minor", kind, {{0, 11}, {72, 11}}, false)});
    brigade(s, "fr_b1").status |= static_cast<std::uint32_t>(Status::kUnderFire);
    ASSERT_TRUE(declare(s, {{"fr_b1", "1+d6"}}, {4, 3}));  // 7"
    ASSERT_TRUE(execute(s, {{"fr_b1", {fwd(7)}}}));        // the full 7" across it: no ½ move
    EXPECT_NEAR(brigade(s, "fr_b1").position.y, 17, 1e-6);
    EXPECT_EQ(brigade(s, "fr_b1").dps, 0u);                // no DP, even under fire

    GameState c = with_features(movement_state(), {linear("minor", kind, {{0, 11}, {72, 11}}, false)});
    brigade(c, "fr_b1").type = TroopType::kHorse;
    ASSERT_TRUE(declare(c, {{"fr_b1", "2"}}, {4, 3}));
    ASSERT_TRUE(execute(c, {{"fr_b1", {fwd(7)}}}));
    EXPECT_EQ(brigade(c, "fr_b1").dps, 0u);
  }
}

TEST(MovementExecute, HaltedBrigadeMayOnlyFaceAThreat) {
  GameState s = movement_state();
  brigade(s, "fr_b1").control = ControlResult::kHalt;
  const auto d = pending_decision(s, "dice/fr_b1");
  ASSERT_TRUE(d.has_value());
  ASSERT_EQ(d->options.size(), 2u);
  ASSERT_TRUE(declare(s, {{"fr_b1", "manoeuvre"}}, {}));
  GameState t = s;
  auto v = execute(t, {{"fr_b1", {step_of("side_step", 1, "left")}}});
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "halted");
  ASSERT_TRUE(execute(s, {{"fr_b1", {step_of("about_face")}}}));
  EXPECT_DOUBLE_EQ(brigade(s, "fr_b1").facing_deg, 180);
  EXPECT_FALSE(brigade(s, "fr_b1").has(Status::kMoved));  // facing changes keep it stationary
}

// Steady Troops: "the brigade may not move or declare a charge later in the
// turn. A halt marker should be placed beside the brigade."
TEST(MovementExecute, SteadiedBrigadeMayNotMove) {
  GameState s = movement_state();
  brigade(s, "fr_b1").control = ControlResult::kControlled;
  brigade(s, "fr_b1").status |= static_cast<std::uint32_t>(Status::kHalted);
  const auto d = pending_decision(s, "dice/fr_b1");
  ASSERT_TRUE(d.has_value());
  ASSERT_EQ(d->options.size(), 2u);
  EXPECT_EQ(d->options[0].id, "none");
  EXPECT_EQ(d->options[1].id, "manoeuvre");
}

// "Attaching and detaching may only take place in the Command Phase."
TEST(MovementExecute, NoAttachingOrDetachingInTheMovementPhase) {
  GameState s = movement_state();
  ASSERT_TRUE(declare(s, {{"fr_b1", "1+d6"}}, {4, 3}));
  GameState t = s;
  auto v = execute(t, {{"fr_b1", {act("detach"), fwd(allowance_of(s, "fr_b1"))}}});
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "attach");
}

TEST(MovementExecute, RepeatLastMoveRepeatsTheSameSteps) {
  GameState s = movement_state();
  s.turn = 2;
  Brigade& b = brigade(s, "fr_b1");
  b.control = ControlResult::kRepeatLastMove;
  b.last_move = {1, MoveMode::kDice, 1, false, {wheel_step(-10, "left"), fwd(1)}};
  const auto d = pending_decision(s, "dice/fr_b1");
  ASSERT_TRUE(d.has_value());
  ASSERT_EQ(d->options.size(), 1u);
  EXPECT_EQ(d->options[0].id, "1");
  ASSERT_TRUE(declare(s, {{"fr_b1", "1"}}, {4}));  // 4" double
  GameState t = s;
  auto v = execute(t, {{"fr_b1", {fwd(4)}}});
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "repeat_last_move");
  const double w = 4 * deg_to_rad(10);
  ASSERT_TRUE(execute(s, {{"fr_b1", {wheel_step(-10, "left"), fwd(4 - w)}}}));
}

TEST(MovementExecute, GunsMoveByWeight) {
  GameState s = movement_state();
  Gun g;
  g.id = "g1";
  g.army = "fr";
  g.wing = "left";
  g.command = "c1";
  g.weight = GunWeight::kMedium;
  g.position = {40, 10};
  s.guns.push_back(g);
  auto opts = [&](const GameState& st) {
    std::vector<std::string> out;
    const auto d = pending_decision(st, "dice/g1");
    for (const auto& o : d->options) out.push_back(o.id);
    return out;
  };
  EXPECT_EQ(opts(s), (std::vector<std::string>{"none", "manoeuvre"}));
  ASSERT_TRUE(declare(s, {{"g1", "manoeuvre"}}, {}));
  OrderStep pivot;
  pivot.action = "pivot";
  pivot.angle_deg = 50;
  GameState t = s;
  EXPECT_FALSE(execute(t, {{"g1", {pivot}}}));
  pivot.angle_deg = 45;
  t = s;
  EXPECT_FALSE(execute(t, {{"g1", {pivot, fwd(1)}}}));  // pivot or move, not both
  t = s;
  EXPECT_FALSE(execute(t, {{"g1", {fwd(1.5)}}}));
  ASSERT_TRUE(execute(s, {{"g1", {pivot}}}));
  EXPECT_DOUBLE_EQ(s.guns[0].facing_deg, 45);

  GameState h = movement_state();
  g.weight = GunWeight::kHeavy;
  h.guns.push_back(g);
  ASSERT_TRUE(declare(h, {{"g1", "manoeuvre"}}, {}));
  auto v = execute(h, {{"g1", {fwd(1)}}});
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "heavy_gun");

  GameState l = movement_state();
  g.weight = GunWeight::kLight;
  l.guns.push_back(g);
  EXPECT_EQ(opts(l), (std::vector<std::string>{"none", "manoeuvre", "1"}));

  GameState lim = movement_state();
  g.weight = GunWeight::kMedium;
  g.limbered = true;
  lim.guns.push_back(g);
  EXPECT_EQ(opts(lim), (std::vector<std::string>{"none", "manoeuvre", "1", "2"}));
  ASSERT_TRUE(declare(lim, {{"g1", "manoeuvre"}}, {}));
  ASSERT_TRUE(execute(lim, {{"g1", {step_of("unlimber")}}}));
  EXPECT_FALSE(lim.guns[0].limbered);
  EXPECT_EQ(lim.guns[0].dps, 1u);
}

TEST(MovementExecute, LimberedGunsOneAverageDieInRough) {
  GameState s = with_features(movement_state(), {area("r", TerrainKind::kRough, {30, 8}, {50, 30})});
  Gun g;
  g.id = "g1";
  g.army = "fr";
  g.wing = "left";
  g.command = "c1";
  g.limbered = true;
  g.position = {40, 10};
  s.guns.push_back(g);
  ASSERT_TRUE(declare(s, {{"g1", "2"}}, {4, 4}));
  auto v = execute(s, {{"g1", {fwd(allowance_of(s, "g1"))}}});
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "gun_rough");
}

TEST(MovementExecute, LeadersMoveSixInchesDoubleBeyondSixOfEnemy) {
  GameState s = movement_state();
  ASSERT_TRUE(declare(s, {}, {}));
  GameState t = s;
  auto v = execute(t, {{"fr_mg1", {move_to({10, 15})}}});  // 13"
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "too_far");
  ASSERT_TRUE(execute(s, {{"fr_mg1", {move_to({10, 14})}}}));  // 12"
  EXPECT_NEAR(leader(s, "fr_mg1").position.y, 14, 1e-9);
}

TEST(MovementExecute, AttachedLeaderMovesWithHisBrigade) {
  GameState s = movement_state();
  leader(s, "fr_mg1").attached_to = "fr_b1";
  ASSERT_TRUE(declare(s, {{"fr_b1", "1"}}, {4}));
  EXPECT_FALSE(pending_decision(s, "leader/fr_mg1").has_value());
  ASSERT_TRUE(execute(s, {{"fr_b1", {fwd(4)}}}));
  EXPECT_NEAR(leader(s, "fr_mg1").position.y, 14 - 1, 1e-9);  // against the rear edge
}

TEST(MovementExecute, HussarsMustSkirmishWithdrawFromApproachingFormedEnemy) {
  GameState s = movement_state();
  Brigade& h = brigade(s, "al_b1");
  h.type = TroopType::kHussars;
  h.formation = Formation::kUnformed;
  h.bases = 2;
  h.position = {16, 15.5};
  ASSERT_TRUE(declare(s, {{"fr_b1", "1+d6"}}, {4, 4}));  // 4"
  std::vector<Event> ev;
  ASSERT_TRUE(execute(s, {{"fr_b1", {fwd(4)}}}, &ev));
  const double d = distance(pose_envelope(pose_of(brigade(s, "fr_b1"))), pose_envelope(pose_of(brigade(s, "al_b1"))));
  EXPECT_GE(d, 2 - 1e-9);
  EXPECT_TRUE(movement_finished(s));
}

TEST(MovementExecute, DismountedDragoonsMayChooseToSkirmishWithdraw) {
  GameState s = movement_state();
  Brigade& h = brigade(s, "al_b1");
  h.type = TroopType::kDismountedDragoons;
  h.formation = Formation::kUnformed;
  h.bases = 2;
  h.position = {16, 15.5};
  ASSERT_TRUE(declare(s, {{"fr_b1", "1+d6"}}, {4, 4}));
  ASSERT_TRUE(execute(s, {{"fr_b1", {fwd(4)}}}));
  const auto ds = movement_pending(s);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].id, "skirmish/al_b1");
  EXPECT_EQ(ds[0].seat, "al/right");
  FixedDice none(std::vector<int>{});
  std::vector<Event> ev;
  ASSERT_TRUE(movement_resolve(s, {option_answer("skirmish/al_b1", "al/right", "withdraw")}, none, ev));
  const double d = distance(pose_envelope(pose_of(brigade(s, "fr_b1"))), pose_envelope(pose_of(brigade(s, "al_b1"))));
  EXPECT_GE(d, 2 - 1e-9);
  EXPECT_TRUE(movement_finished(s));
}

// "Dismounted dragoons should have a horse-holder marker placed where they
// dismounted ... Horse-holder markers may either stay in that location or
// withdraw up to 6 inches ... The horses may not move again on their own. In
// order to remount the dragoon brigade must be within 1 inch of the
// horse-holder marker" (RULINGS M20).
TEST(MovementExecute, HorseHoldersPlacedWhereTheyDismountedWithdrawOnceUpToSixInchesRemountWithinOne) {
  GameState s = movement_state();
  brigade(s, "fr_b1").type = TroopType::kDragoons;
  brigade(s, "fr_b1").bases = 2;  // room to spread out unformed
  ASSERT_TRUE(declare(s, {{"fr_b1", "manoeuvre"}}, {}));
  {
    const auto v = execute(s, {{"fr_b1", {step_of("dismount")}}});
    ASSERT_TRUE(v) << v.error().reason;
  }
  const Brigade& d = brigade(s, "fr_b1");
  EXPECT_EQ(d.type, TroopType::kDismountedDragoons);
  ASSERT_TRUE(d.horse_holders.has_value());
  EXPECT_NEAR(d.horse_holders->x, 16, 1e-9);
  EXPECT_NEAR(d.horse_holders->y, 10, 1e-9);

  // A later turn: the horses withdraw up to 6", once.
  GameState w = s;
  w.movement = {};
  OrderStep horses = step_of("horse_holders");
  horses.to = {16, 3.9};  // 6.1" away
  ASSERT_TRUE(declare(w, {{"fr_b1", "manoeuvre"}}, {}));
  GameState t = w;
  auto v = execute(t, {{"fr_b1", {horses}}});
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "too_far");
  horses.to = {16, 4};  // 6"
  ASSERT_TRUE(execute(w, {{"fr_b1", {horses}}}));
  EXPECT_NEAR(brigade(w, "fr_b1").horse_holders->y, 4, 1e-9);
  EXPECT_TRUE(brigade(w, "fr_b1").horse_holders_moved);
  GameState again = w;
  again.movement = {};
  horses.to = {16, 5};
  ASSERT_TRUE(declare(again, {{"fr_b1", "manoeuvre"}}, {}));
  v = execute(again, {{"fr_b1", {horses}}});
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "horse_holders");  // "may not move again on their own"

  // Remounting: within 1" of the horses (at the spot they dismounted), not 6" away.
  GameState near = s;
  near.movement = {};
  ASSERT_TRUE(declare(near, {{"fr_b1", "manoeuvre"}}, {}));
  ASSERT_TRUE(execute(near, {{"fr_b1", {step_of("mount")}}}));
  EXPECT_EQ(brigade(near, "fr_b1").type, TroopType::kDragoons);
  EXPECT_FALSE(brigade(near, "fr_b1").horse_holders.has_value());
  GameState far = w;
  far.movement = {};
  ASSERT_TRUE(declare(far, {{"fr_b1", "manoeuvre"}}, {}));
  v = execute(far, {{"fr_b1", {step_of("mount")}}});
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "mount");
}

// Wheel: "If any distance remains, the brigade may move forwards normally up
// to the full allowance"; the full-move rule counts the wheel's arc.
TEST(MovementExecute, WheelThenForwardForTheRestOfTheAllowance) {
  GameState s = movement_state();
  ASSERT_TRUE(declare(s, {{"fr_b1", "1+d6"}}, {4, 3}));  // 3.5" doubled: 7"
  const double allowance = allowance_of(s, "fr_b1");
  ASSERT_DOUBLE_EQ(allowance, 7.0);
  const double arc = 4 * kPi / 4;  // the outside base of a 4" line wheeling 45°
  GameState t = s;
  auto v = execute(t, {{"fr_b1", {wheel_step(-45, "left"), fwd(allowance - arc - 0.5)}}});
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "short_move");
  t = s;
  v = execute(t, {{"fr_b1", {wheel_step(-45, "left"), fwd(allowance - arc + 0.1)}}});
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "too_far");
  ASSERT_TRUE(execute(s, {{"fr_b1", {wheel_step(-45, "left"), fwd(allowance - arc)}}}));
  EXPECT_NEAR(brigade(s, "fr_b1").facing_deg, 315, 1e-9);
  EXPECT_EQ(brigade(s, "fr_b1").dps, 0u);  // beyond 6" of enemy: no DP
}

// Incline: "It is possible to combine an incline with forward movement ...
// incline 3 inches (1½ sideways and 1½ forwards) then move the remaining ½
// inch forwards."
TEST(MovementExecute, InclineThenForwardForTheRest) {
  GameState s = movement_state();
  ASSERT_TRUE(declare(s, {{"fr_b1", "1+d6"}}, {4, 3}));  // 7"
  const double allowance = allowance_of(s, "fr_b1");
  ASSERT_TRUE(execute(s, {{"fr_b1", {step_of("incline", allowance - 1, "right"), fwd(1)}}}));
  EXPECT_NEAR(brigade(s, "fr_b1").position.x, 16 + (allowance - 1) / 2, 1e-9);
  EXPECT_NEAR(brigade(s, "fr_b1").position.y, 10 + (allowance - 1) / 2 + 1, 1e-9);
  EXPECT_NEAR(brigade(s, "fr_b1").facing_deg, 0, 1e-9);
}

TEST(MovementExecute, MergingTakesTheMostDps) {
  GameState s = movement_state();
  brigade(s, "fr_b1").dps = 1;
  brigade(s, "fr_b2").dps = 2;
  ASSERT_TRUE(declare(s, {{"fr_b1", "manoeuvre"}}, {}));
  std::vector<Event> ev;
  ASSERT_TRUE(execute(s, {{"fr_b1", {act("merge", "fr_b2")}}}, &ev));
  EXPECT_THROW(brigade(s, "fr_b1"), std::out_of_range);
  EXPECT_EQ(brigade(s, "fr_b2").bases, 8u);
  EXPECT_EQ(brigade(s, "fr_b2").dps, 2u);
  EXPECT_NEAR(brigade(s, "fr_b2").position.x, 18, 1e-9);  // one line across both frontages
}

TEST(MovementExecute, ReinforcingAMeleeFromTheRearRankMerges) {
  GameState s = movement_state();
  brigade(s, "fr_b3").status |= static_cast<std::uint32_t>(Status::kInCombat);
  brigade(s, "fr_b3").dps = 2;
  ASSERT_TRUE(declare(s, {{"fr_b4", "1"}}, {2}));  // 2" double? 28" away: double -> 2"
  ASSERT_DOUBLE_EQ(allowance_of(s, "fr_b4"), 2.0);
  ASSERT_TRUE(execute(s, {{"fr_b4", {fwd(2), act("merge", "fr_b3")}}}));
  const Brigade& b = brigade(s, "fr_b3");
  EXPECT_EQ(b.bases, 8u);
  EXPECT_EQ(b.formation, Formation::kTwoRankLine);
  EXPECT_EQ(b.dps, 2u);
  EXPECT_TRUE(b.has(Status::kInCombat));
}

TEST(MovementExecute, SplittingKeepsTheParentsDps) {
  GameState s = movement_state();
  brigade(s, "fr_b1").dps = 2;
  ASSERT_TRUE(declare(s, {{"fr_b1", "manoeuvre"}}, {}));
  OrderStep split = act("split", "fr_b1x");
  split.distance = 1;
  ASSERT_TRUE(execute(s, {{"fr_b1", {split}}}));
  EXPECT_EQ(brigade(s, "fr_b1").bases, 3u);
  EXPECT_EQ(brigade(s, "fr_b1x").bases, 1u);
  EXPECT_EQ(brigade(s, "fr_b1x").dps, 2u);
  EXPECT_NEAR(brigade(s, "fr_b1x").position.x, 17.5, 1e-9);  // the rightmost base
}

TEST(MovementExecute, WrongSeatAndUnknownDecisionAreRejectedWithoutChange) {
  GameState s = movement_state();
  const StateHash h = state_hash(s);
  auto v = movement_check(s, option_answer("dice/fr_b1", "al/right", "1"));
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "wrong_seat");
  v = movement_check(s, option_answer("dice/nope", "fr/left", "1"));
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "no_decision");
  EXPECT_EQ(state_hash(s), h);
}

TEST(MovementExecute, MissedDeadlineDefaultsHalt) {
  GameState s = movement_state();
  ASSERT_TRUE(declare(s, {{"fr_b1", "1"}}, {3}));
  const auto ds = movement_pending(s);
  FixedDice none(std::vector<int>{});
  std::vector<Event> ev;
  ASSERT_TRUE(movement_resolve(s, default_answers(ds), none, ev));
  EXPECT_NEAR(brigade(s, "fr_b1").position.y, 10, 1e-9);
}

TEST(MovementExecute, RoutersWhoPassTheirTestMayRallyByReforming) {
  GameState s = movement_state();
  Brigade& b = brigade(s, "fr_b1");
  b.status |= static_cast<std::uint32_t>(Status::kRouting);
  b.formation = Formation::kUnformed;
  b.control = ControlResult::kContinue;
  EXPECT_FALSE(pending_decision(s, "dice/fr_b1").has_value());
  b.control = ControlResult::kAsWished;
  ASSERT_TRUE(declare(s, {{"fr_b1", "manoeuvre"}}, {}));
  OrderStep reform = formation_step("line", 180);
  reform.action = "reform";
  ASSERT_TRUE(execute(s, {{"fr_b1", {reform}}}));
  EXPECT_EQ(brigade(s, "fr_b1").formation, Formation::kLine);
  EXPECT_FALSE(brigade(s, "fr_b1").has(Status::kRouting));
}

// "Next move phase they may either continue to retire unformed or remain in
// place to change formation back into line or column" (RULINGS AC9).
TEST(MovementExecute, RetiringBrigadesThatRemainMayReform) {
  GameState s = movement_state();
  Brigade& b = brigade(s, "fr_b1");
  b.status |= static_cast<std::uint32_t>(Status::kRetiring);
  b.formation = Formation::kUnformed;
  const auto d = pending_decision(s, "dice/fr_b1");
  ASSERT_TRUE(d.has_value());
  std::vector<std::string> opts;
  for (const auto& o : d->options) opts.push_back(o.id);
  EXPECT_EQ(opts, (std::vector<std::string>{"none", "manoeuvre"}));  // no move but the re-forming
  ASSERT_TRUE(declare(s, {{"fr_b1", "manoeuvre"}}, {}));
  OrderStep reform = formation_step("line", 0);
  reform.action = "reform";
  ASSERT_TRUE(execute(s, {{"fr_b1", {reform}}}));
  EXPECT_EQ(brigade(s, "fr_b1").formation, Formation::kLine);
  EXPECT_FALSE(brigade(s, "fr_b1").has(Status::kRetiring));
}

TEST(MovementFastMove, MaximumDiceAndHalfInchPerDieOnTheInitialMove) {
  Brigade foot;
  Brigade cav;
  cav.type = TroopType::kHorse;
  FixedDice d1({4, 6});
  const FastMove f = roll_fast_move(d1, foot, true);
  EXPECT_EQ(f.faces.size(), 2u);
  EXPECT_DOUBLE_EQ(f.inches, 5.0 + 1.0);
  FixedDice d2({4, 4, 6});
  const FastMove c = roll_fast_move(d2, cav, false);
  EXPECT_EQ(c.faces.size(), 3u);
  EXPECT_DOUBLE_EQ(c.inches, 7.0);
}

// ---- Flanking musketry (RULINGS C18) ----
//
// al_b1: enemy foot facing west, front edge x=22 from y=12 to y=16. fr_b1: 4
// foot bases facing south, front edge y=11.5, x 16.7..20.7 (1.3" from al_b1's
// front line). A side step of 1" to its left (east) brings its flank within
// 1" of al_b1's front, al_b1 behind its own front line: to its flank.
GameState passing_by_foot() {
  GameState s = test::movement_state();
  s.brigades = {s.brigades[0], s.brigades[5]};
  brigade(s, "fr_b1").position = {18.7, 11.5};
  brigade(s, "fr_b1").facing_deg = 180;
  brigade(s, "al_b1").position = {22, 14};
  brigade(s, "al_b1").facing_deg = 270;
  return s;
}

// The flanking-fire choices now owed (movement_pending at kFlankFire): `chosen`
// by decision id, the rest their defaults; carried out as the step resolves.
Verdict fire_at(GameState& s, const std::map<std::string, std::string>& chosen, std::vector<Event>* events_out = nullptr) {
  std::vector<Answer> answers;
  for (const auto& d : movement_pending(s)) {
    const auto it = chosen.find(d.id);
    answers.push_back(option_answer(d.id, d.seat, it == chosen.end() ? d.default_option : it->second));
  }
  for (const auto& a : answers) {
    if (auto v = movement_check(s, a); !v) return v;
  }
  FixedDice dice(std::vector<int>{});
  std::vector<Event> events;
  GameState next = s;
  auto v = movement_resolve(next, answers, dice, events);
  if (v) s = std::move(next);
  if (events_out) *events_out = std::move(events);
  return v;
}

std::vector<std::string> option_ids(const Decision& d) {
  std::vector<std::string> out;
  for (const auto& o : d.options) out.push_back(o.id);
  return out;
}

// "The enemy chooses at which point in the brigade's move they wish to give
// fire. The brigade must halt its movement at that point." (RULINGS C18)
TEST(FlankingMusketry, TheFootChooseWhereToFireAndTheBrigadeHaltsThere) {
  GameState s = passing_by_foot();
  ASSERT_TRUE(declare(s, {{"fr_b1", "manoeuvre"}}, {}));
  // Its order stands: a 1" side step, its flank within 1" of al_b1's front
  // 0.3" into it. Nothing moves before the foot choose.
  ASSERT_TRUE(execute(s, {{"fr_b1", {step_of("side_step", 1, "left")}}}));
  EXPECT_NEAR(brigade(s, "fr_b1").position.x, 18.7, 1e-9);
  auto ds = movement_pending(s);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].id, "flank_fire/al_b1/fr_b1");
  EXPECT_EQ(ds[0].seat, "al/right");
  EXPECT_EQ(ds[0].kind, "flanking_fire_point");
  EXPECT_EQ(ds[0].default_option, "first");
  // Where it first comes within 1" two of al_b1's bases bear; at the end of
  // the step, 0.3" off, only one: the most are at the first point.
  EXPECT_EQ(option_ids(ds[0]), (std::vector<std::string>{"first", "last"}));
  EXPECT_FALSE(movement_check(s, option_answer(ds[0].id, ds[0].seat, "most")).ok());
  EXPECT_FALSE(movement_check(s, option_answer(ds[0].id, "fr/left", "first")).ok());

  GameState last = s;
  std::vector<Event> ev;
  ASSERT_TRUE(fire_at(s, {}, &ev));  // the default: where it first comes within 1"
  EXPECT_NEAR(brigade(s, "fr_b1").position.x, 19.0, 1e-5);
  EXPECT_FALSE(brigade(s, "fr_b1").has(Status::kInCombat));
  ASSERT_EQ(s.combat.flanking.size(), 1u);
  EXPECT_EQ(s.combat.flanking[0].target, "fr_b1");
  EXPECT_EQ(s.combat.flanking[0].firer, "al_b1");
  EXPECT_EQ(s.combat.flanking[0].turn, s.turn);
  bool told = false;
  for (const auto& e : ev) told = told || e.kind == "flanking_fire";
  EXPECT_TRUE(told);
  EXPECT_TRUE(movement_pending(s).empty());

  // The combat phase: 1 D6 for each of al_b1's two bases (y 12..14) with it
  // within 1" in their front arcs; a 5 is a DP, a 2 nothing. "without
  // responding": no close combat between them this turn.
  s.phase = Phase::kCombat;
  s.half = 0;
  FixedDice dice{5, 2};
  ev.clear();
  ASSERT_TRUE(combat_resolve(s, {}, dice, ev).ok());
  EXPECT_EQ(brigade(s, "fr_b1").dps, 1u);
  EXPECT_TRUE(s.combat.results.empty());

  // Letting it come on to the end of its side step: one die.
  ASSERT_TRUE(fire_at(last, {{"flank_fire/al_b1/fr_b1", "last"}}));
  EXPECT_NEAR(brigade(last, "fr_b1").position.x, 19.7, 1e-5);
  ASSERT_EQ(last.combat.flanking.size(), 1u);

  // Stepping 1" from further away (2.3") stays beyond 1": no flanking fire.
  GameState t = passing_by_foot();
  brigade(t, "fr_b1").position = {17.7, 11.5};
  ASSERT_TRUE(declare(t, {{"fr_b1", "manoeuvre"}}, {}));
  ASSERT_TRUE(execute(t, {{"fr_b1", {step_of("side_step", 1, "left")}}}));
  EXPECT_TRUE(movement_pending(t).empty());
  EXPECT_TRUE(t.combat.flanking.empty());

  // An order that ends where it first comes within 1" leaves nothing to choose.
  GameState u = passing_by_foot();
  ASSERT_TRUE(declare(u, {{"fr_b1", "manoeuvre"}}, {}));
  ASSERT_TRUE(execute(u, {{"fr_b1", {step_of("side_step", 0.3, "left")}}}));
  EXPECT_TRUE(movement_pending(u).empty());
  EXPECT_NEAR(brigade(u, "fr_b1").position.x, 19.0, 1e-9);
  EXPECT_EQ(u.combat.flanking.size(), 1u);
}

TEST(FlankingMusketry, UnformedFootFireWithinAnInchOfAnyBase) {
  // The same pass by al_b1, unformed now: its zone is 1" around each of its
  // bases (they face all round). One base has fr_b1 within 1" where it first
  // comes within 1", two further on: the foot may fire at the first point,
  // where the most bear, or as late as it is within 1".
  GameState s = passing_by_foot();
  brigade(s, "al_b1").formation = Formation::kUnformed;
  ASSERT_TRUE(declare(s, {{"fr_b1", "manoeuvre"}}, {}));
  ASSERT_TRUE(execute(s, {{"fr_b1", {step_of("side_step", 1, "left")}}}));
  auto ds = movement_pending(s);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(option_ids(ds[0]), (std::vector<std::string>{"first", "most", "last"}));
  GameState most = s;
  ASSERT_TRUE(fire_at(s, {}));
  EXPECT_NEAR(brigade(s, "fr_b1").position.x, 19.0, 1e-5);
  ASSERT_EQ(s.combat.flanking.size(), 1u);
  EXPECT_EQ(s.combat.flanking[0].firer, "al_b1");
  ASSERT_TRUE(fire_at(most, {{"flank_fire/al_b1/fr_b1", "most"}}));
  const double x = brigade(most, "fr_b1").position.x;
  EXPECT_GT(x, 19.0 + 1e-3);
  EXPECT_LT(x, 19.7 - 1e-3);
  EXPECT_EQ(flanking_fire_dice(brigade(most, "al_b1"), pose_envelope(pose_of(brigade(most, "fr_b1"))).polygon()), 2);

  // From 2.3" away the step stays beyond 1" of every base.
  GameState t = passing_by_foot();
  brigade(t, "al_b1").formation = Formation::kUnformed;
  brigade(t, "fr_b1").position = {17.7, 11.5};
  ASSERT_TRUE(declare(t, {{"fr_b1", "manoeuvre"}}, {}));
  ASSERT_TRUE(execute(t, {{"fr_b1", {step_of("side_step", 1, "left")}}}));
  EXPECT_TRUE(t.combat.flanking.empty());
}

TEST(FlankingMusketry, AWheelHaltsWhereTheFootFire) {
  // fr_b1 wheels forward on its right (west) front corner: its left (east)
  // end swings south past al_b1, whose front (x=21.2, y 5..9) faces west,
  // 2" south-east of that corner. A wheel of the whole 2" rolled (28.6°)
  // carries the corner into al_b1's 1" zone, past its flank; fired on where
  // it first comes within 1" (about 24°), it halts there, short of its roll.
  GameState s = passing_by_foot();
  brigade(s, "al_b1").position = {21.2, 7};
  ASSERT_TRUE(declare(s, {{"fr_b1", "1"}}, {4}));
  OrderStep w = step_of("wheel", 0, "right");
  w.angle_deg = 28.6;
  ASSERT_TRUE(execute(s, {{"fr_b1", {w}}}));
  const auto ds = movement_pending(s);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].id, "flank_fire/al_b1/fr_b1");
  ASSERT_TRUE(fire_at(s, {}));
  const double turned = angle_diff_deg(brigade(s, "fr_b1").facing_deg, 180);
  EXPECT_GT(std::abs(turned), 20);
  EXPECT_LT(std::abs(turned), 28);
  EXPECT_EQ(s.combat.flanking.size(), 1u);
}

// A brigade halted by flanking fire stands where it halted; a friend whose
// order would end on top of it stops short of it on its own way (RULINGS C18).
TEST(FlankingMusketry, AFriendFollowingAHaltedBrigadeStopsShortOfIt) {
  GameState s = passing_by_foot();
  Brigade follower = brigade(s, "fr_b1");
  follower.id = "fr_b2";
  follower.name = "fr_b2";
  follower.position = {14.7, 11.5};  // x 12.7..16.7, touching fr_b1's west end
  s.brigades.push_back(follower);
  ASSERT_TRUE(declare(s, {{"fr_b1", "manoeuvre"}, {"fr_b2", "manoeuvre"}}, {}));
  // Both step 1" east: fr_b2 into the ground fr_b1 leaves.
  ASSERT_TRUE(execute(s, {{"fr_b1", {step_of("side_step", 1, "left")}}, {"fr_b2", {step_of("side_step", 1, "left")}}}));
  ASSERT_EQ(movement_pending(s).size(), 1u);
  ASSERT_TRUE(fire_at(s, {}));  // fr_b1 halts 0.3" on, its west end at 17.0
  EXPECT_NEAR(brigade(s, "fr_b1").position.x, 19.0, 1e-5);
  const double follower_east = brigade(s, "fr_b2").position.x + 2;
  EXPECT_LE(follower_east, 17.0 + 1e-5);
  EXPECT_GT(follower_east, 16.7 + 0.1);  // it came on as far as it could
}

TEST(FlankingMusketry, FootMarchingAtTheFootsFrontFightInsteadOfTakingFlankingFire) {
  // Enemy foot to their own front within 1": close combat, not flanking fire.
  GameState t = test::movement_state();
  t.brigades = {t.brigades[0], t.brigades[5]};
  brigade(t, "al_b1").position = {16, 12.8};
  ASSERT_TRUE(declare(t, {{"fr_b1", "1"}}, {4}));
  ASSERT_TRUE(execute(t, {{"fr_b1", {fwd(2)}}}));
  EXPECT_TRUE(brigade(t, "fr_b1").has(Status::kInCombat));
  EXPECT_TRUE(t.combat.flanking.empty());
}

}  // namespace
}  // namespace galloper::rules::malbrook
