// Bases standing on their own (Brigade::base_poses): refusing a flank
// ("Side step/Step back", "Wheel") and unformed brigades moving base by base
// ("Brigade Formations", "Movement"), with exact coordinates, and their use
// by the footprint, collisions, the visibility scene, views and the hash.
#include <gtest/gtest.h>

#include <cmath>

#include "rules/core/geometry.hpp"
#include "rules/malbrook/basing.hpp"
#include "rules/malbrook/manoeuvre.hpp"
#include "rules/malbrook/seats.hpp"
#include "rules/malbrook/view.hpp"
#include "rules/malbrook/visibility.hpp"
#include "tests/rules/malbrook/movement_helpers.hpp"

namespace galloper::rules::malbrook {
namespace {

using namespace test;

constexpr double kTol = 1e-9;

OrderStep refuse(std::string action, std::string side, std::string bases, double distance = 0, double angle = 0) {
  OrderStep s;
  s.action = std::move(action);
  s.pivot = std::move(side);
  s.target = std::move(bases);
  s.distance = distance;
  s.angle_deg = angle;
  return s;
}

OrderStep base_step(std::string index, Vec2 to, double turn = 0) {
  OrderStep s;
  s.action = "base";
  s.target = std::move(index);
  s.to = to;
  s.angle_deg = turn;
  return s;
}

void expect_pose(const BasePose& p, Vec2 centre, double facing) {
  EXPECT_NEAR(p.center.x, centre.x, kTol);
  EXPECT_NEAR(p.center.y, centre.y, kTol);
  EXPECT_NEAR(angle_diff_deg(p.facing_deg, facing), 0, kTol);
}

// fr_b5: 4 bases of traditional foot in line, front middle (60, 10), facing
// north: bases x 58..62, y 9..10, centres (58.5|59.5|60.5|61.5, 9.5).
const Brigade& b5(const GameState& s) { return brigade(s, "fr_b5"); }

// Counter-clockwise rotation of v by deg (independent of the library's helpers).
Vec2 ccw(Vec2 v, double deg) {
  const double r = deg * kPi / 180;
  return {v.x * std::cos(r) - v.y * std::sin(r), v.x * std::sin(r) + v.y * std::cos(r)};
}

// ---- Refusing a flank: stepping back ----

TEST(RefusedFlank, TwoBasesStepBackOneInchTheRestRemainInPlace) {
  GameState s = movement_state();
  ASSERT_TRUE(declare(s, {{"fr_b5", "manoeuvre"}}, {}));
  std::vector<Event> ev;
  ASSERT_TRUE(execute(s, {{"fr_b5", {refuse("refuse_step_back", "right", "2", 1)}}}, &ev));
  const Brigade& b = b5(s);
  ASSERT_EQ(b.base_poses.size(), 4u);
  expect_pose(b.base_poses[0], {58.5, 9.5}, 0);
  expect_pose(b.base_poses[1], {59.5, 9.5}, 0);
  expect_pose(b.base_poses[2], {60.5, 8.5}, 0);
  expect_pose(b.base_poses[3], {61.5, 8.5}, 0);
  // The line itself stays where it was.
  EXPECT_NEAR(b.position.x, 60, kTol);
  EXPECT_NEAR(b.position.y, 10, kTol);
  EXPECT_EQ(b.formation, Formation::kLine);
  EXPECT_EQ(b.dps, 0u);
  EXPECT_TRUE(b.has(Status::kMoved));  // not stationary for re-dressing ranks
  // The footprint is the placed bases.
  const auto fp = footprint(b);
  ASSERT_EQ(fp.size(), 4u);
  EXPECT_NEAR(fp[3].center.y, 8.5, kTol);
  EXPECT_NEAR(fp[3].width, 1, kTol);
  EXPECT_NEAR(fp[3].depth, 1, kTol);
}

TEST(RefusedFlank, StepBackIsOneOrTwoBasesOfADGradeFootInASingleLineWithoutDice) {
  const StepContext no_dice = [] {
    StepContext c;
    c.who = "Brigade x";
    return c;
  }();
  Pose p;
  p.position = {20, 10};
  p.bases = 4;
  EXPECT_TRUE(manoeuvre_step(p, refuse("refuse_step_back", "left", "1", 0.5), no_dice));
  EXPECT_TRUE(manoeuvre_step(p, refuse("refuse_step_back", "left", "2", 1), no_dice));
  auto r = manoeuvre_step(p, refuse("refuse_step_back", "left", "3", 1), no_dice);  // "One or two bases"
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "refuse_count");
  r = manoeuvre_step(p, refuse("refuse_step_back", "left", "1", 1.25), no_dice);  // "up to 1 inch"
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "too_far");
  EXPECT_FALSE(manoeuvre_step(p, refuse("refuse_step_back", "middle", "1", 1), no_dice));
  EXPECT_FALSE(manoeuvre_step(p, refuse("refuse_step_back", "left", "", 1), no_dice));
  StepContext dice = no_dice;
  dice.dice = true;
  dice.allowance = 4;
  EXPECT_FALSE(manoeuvre_step(p, refuse("refuse_step_back", "left", "1", 1), dice));  // "instead of a normal move"
  StepContext e_grade = no_dice;
  e_grade.grade = Grade::kE;
  EXPECT_FALSE(manoeuvre_step(p, refuse("refuse_step_back", "left", "1", 1), e_grade));  // "A-D Grade"
  Pose three = p;
  three.bases = 2;
  r = manoeuvre_step(three, refuse("refuse_step_back", "left", "2", 1), no_dice);  // "the rest remain in place"
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "refuse_count");
  for (Formation f : {Formation::kTwoRankLine, Formation::kMarchColumn, Formation::kFieldColumn}) {
    Pose q = p;
    q.formation = f;
    r = manoeuvre_step(q, refuse("refuse_step_back", "left", "1", 1), no_dice);
    ASSERT_FALSE(r) << to_string(f);
    EXPECT_EQ(r.error().code, "refuse");
  }
  Pose horse = p;
  horse.type = TroopType::kHorse;
  EXPECT_FALSE(manoeuvre_step(horse, refuse("refuse_step_back", "left", "1", 1), no_dice));
}

// ---- Refusing a flank: wheeling back ----

TEST(RefusedFlank, OneBaseWheelsBackNinetyDegreesAboutItsRearInnerCornerAtHalfSpeed) {
  GameState s = movement_state();
  ASSERT_TRUE(declare(s, {{"fr_b5", "1+d6"}}, {5, 4}));  // 4.5", doubled beyond 6" of enemy: 9"
  ASSERT_NEAR(allowance_of(s, "fr_b5"), 9, kTol);
  ASSERT_TRUE(execute(s, {{"fr_b5", {refuse("refuse_wheel", "right", "1", 0, 90)}}}));
  const Brigade& b = b5(s);
  ASSERT_EQ(b.base_poses.size(), 4u);
  expect_pose(b.base_poses[2], {60.5, 9.5}, 0);
  // Pivot: the base's rear-left corner (61, 9). Its centre (61.5, 9.5)
  // swings clockwise to (61.5, 8.5); it now faces east.
  expect_pose(b.base_poses[3], {61.5, 8.5}, 90);
  EXPECT_EQ(b.dps, 0u);  // beyond 6" of enemy; no 6 rolled
  // The balance of the roll is not moved: the rest "remain in place".
  EXPECT_NEAR(b.position.x, 60, kTol);
  EXPECT_NEAR(b.position.y, 10, kTol);
}

TEST(RefusedFlank, WheelBackCostsTwiceTheOutsideBasesArcAndADpWithinSixOfEnemy) {
  Pose p;
  p.position = {60, 10};
  p.bases = 4;
  StepContext c;
  c.who = "Brigade x";
  c.dice = true;
  c.allowance = 4;
  c.within6 = true;
  auto r = manoeuvre_step(p, refuse("refuse_wheel", "left", "2", 0, 30), c);
  ASSERT_TRUE(r);
  // Left flank: bases 0 and 1 (x 58..60) wheel anticlockwise about (60, 9).
  // The outside front corner (58, 10) is hypot(2, 1) from the pivot.
  EXPECT_NEAR(r->inches, 2 * deg_to_rad(30) * std::sqrt(5.0), kTol);
  EXPECT_EQ(r->dps, 1);
  ASSERT_EQ(r->end.base_poses.size(), 4u);
  const Vec2 pivot{60, 9};
  expect_pose(r->end.base_poses[0], pivot + ccw(Vec2{58.5, 9.5} - pivot, 30), 330);
  expect_pose(r->end.base_poses[1], pivot + ccw(Vec2{59.5, 9.5} - pivot, 30), 330);
  expect_pose(r->end.base_poses[2], {60.5, 9.5}, 0);
  // The sweep used against troops and terrain ends exactly on the wheeled bases.
  const StepSweep sw = sweep_of(p, r.value());
  ASSERT_TRUE(sw.wheel.has_value());
  const Vec2 mid = (r->end.base_poses[0].center + r->end.base_poses[1].center) * 0.5;
  EXPECT_NEAR(sw.wheel->end().center.x, mid.x, 1e-9);
  EXPECT_NEAR(sw.wheel->end().center.y, mid.y, 1e-9);
  c.within6 = false;
  EXPECT_EQ(manoeuvre_step(p, refuse("refuse_wheel", "left", "2", 0, 30), c)->dps, 0);
  // Any grade of foot in a single line; one or more bases, not all; up to 90 degrees; with dice.
  c.grade = Grade::kE;
  EXPECT_TRUE(manoeuvre_step(p, refuse("refuse_wheel", "right", "3", 0, 10), c));
  EXPECT_EQ(manoeuvre_step(p, refuse("refuse_wheel", "right", "4", 0, 10), c).error().code, "refuse_count");
  EXPECT_EQ(manoeuvre_step(p, refuse("refuse_wheel", "right", "1", 0, 95), c).error().code, "bad_angle");
  StepContext nd = c;
  nd.dice = false;
  EXPECT_EQ(manoeuvre_step(p, refuse("refuse_wheel", "right", "1", 0, 45), nd).error().code, "no_dice");
  Pose horse = p;
  horse.type = TroopType::kHorse;
  EXPECT_EQ(manoeuvre_step(horse, refuse("refuse_wheel", "right", "1", 0, 45), c).error().code, "refuse");
}

TEST(RefusedFlank, TooLittleAllowanceForTheHalfSpeedWheelIsRefused) {
  GameState s = movement_state();
  brigade(s, "al_b1").position = {60, 15};  // 5" ahead: no double move, and within 6"
  ASSERT_TRUE(declare(s, {{"fr_b5", "1"}}, {4}));  // 2"
  // 90 degrees of one base: 2 x pi/2 x sqrt(2) = 4.44" > 2".
  auto v = execute(s, {{"fr_b5", {refuse("refuse_wheel", "right", "1", 0, 90)}}});
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "too_far");
  // 30 degrees: 2 x pi/6 x sqrt(2) = 1.48": fits, and costs the wheel's DP.
  ASSERT_TRUE(execute(s, {{"fr_b5", {refuse("refuse_wheel", "right", "1", 0, 30)}}}));
  EXPECT_EQ(b5(s).dps, 1u);
}

// ---- Collisions use the placed bases ----

TEST(RefusedFlank, BasesSteppingBackIntoEnemyAreBlockedAndTouchingIsFine) {
  GameState s = movement_state();
  // Enemy just behind the right half of fr_b5.
  Brigade& e = brigade(s, "al_b2");
  e.position = {62, 8.6};  // x 60..64, y 7.6..8.6
  e.facing_deg = 0;
  ASSERT_TRUE(declare(s, {{"fr_b5", "manoeuvre"}}, {}));
  GameState t = s;
  auto v = execute(t, {{"fr_b5", {refuse("refuse_step_back", "right", "2", 1)}}});
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "blocked");
  t = s;
  ASSERT_TRUE(execute(t, {{"fr_b5", {refuse("refuse_step_back", "right", "2", 0.4)}}}));  // just touching
  expect_pose(b5(t).base_poses[3], {61.5, 9.1}, 0);
  // The left flank is clear.
  t = s;
  ASSERT_TRUE(execute(t, {{"fr_b5", {refuse("refuse_step_back", "left", "2", 1)}}}));
  expect_pose(b5(t).base_poses[0], {58.5, 8.5}, 0);
}

TEST(RefusedFlank, OthersMayStandWhereTheRefusedBasesNoLongerAre) {
  // After wheeling back its right base 90 degrees, fr_b5's envelope still
  // covers x 58..62, y 8..10, but (61..62, 9..10) is empty: an enemy
  // brigade standing there does not overlap it, one on a base does.
  GameState s = movement_state();
  ASSERT_TRUE(declare(s, {{"fr_b5", "1+d6"}}, {5, 4}));
  ASSERT_TRUE(execute(s, {{"fr_b5", {refuse("refuse_wheel", "right", "1", 0, 90)}}}));
  const auto bases = footprint(b5(s));
  const OrientedRect hole{{61.5, 9.5}, 1, 1, 0};
  const OrientedRect on_base{{61.5, 8.6}, 1, 1, 0};
  bool hole_hit = false;
  bool base_hit = false;
  for (const auto& r : bases) {
    hole_hit = hole_hit || overlaps(r, hole, 1e-6);
    base_hit = base_hit || overlaps(r, on_base, 1e-6);
  }
  EXPECT_FALSE(hole_hit);
  EXPECT_TRUE(base_hit);
  // The movement phase agrees: from inside the hole the nearest base is
  // 0.45" away (its envelope would say 0).
  EXPECT_NEAR(enemy_distance(s, "al", OrientedRect{{61.5, 9.5}, 0.1, 0.1, 0}), 0.45, 1e-9);
}

// ---- Straightening, and what a refused line may not do ----

TEST(RefusedFlank, StraighteningASteppedBackFlankIsAFullMoveWithoutDice) {
  GameState s = movement_state();
  ASSERT_TRUE(declare(s, {{"fr_b5", "manoeuvre"}}, {}));
  ASSERT_TRUE(execute(s, {{"fr_b5", {refuse("refuse_step_back", "left", "1", 0.75)}}}));
  // Next turn.
  s.turn = 2;
  ASSERT_TRUE(declare(s, {{"fr_b5", "1"}}, {3}));
  auto v = execute(s, {{"fr_b5", {fwd(1.5)}}});
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "refused_flank");
  v = execute(s, {{"fr_b5", {step_of("straighten")}}});  // a step forward again takes no dice
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "straighten");
  s.turn = 3;
  ASSERT_TRUE(declare(s, {{"fr_b5", "manoeuvre"}}, {}));
  ASSERT_TRUE(execute(s, {{"fr_b5", {step_of("straighten")}}}));
  EXPECT_TRUE(b5(s).base_poses.empty());
  EXPECT_NEAR(footprint(b5(s))[0].center.y, 9.5, kTol);
}

TEST(RefusedFlank, StraighteningAWheeledFlankWheelsItForwardAtNormalSpeed) {
  Pose p;
  p.position = {60, 10};
  p.bases = 4;
  StepContext c;
  c.who = "Brigade x";
  c.dice = true;
  c.allowance = 8;
  auto r = manoeuvre_step(p, refuse("refuse_wheel", "right", "2", 0, 60), c);
  ASSERT_TRUE(r);
  auto back = manoeuvre_step(r->end, step_of("straighten"), c);
  ASSERT_TRUE(back);
  EXPECT_TRUE(back->end.base_poses.empty());
  EXPECT_NEAR(back->inches, deg_to_rad(60) * std::sqrt(5.0), kTol);  // half the refusing wheel's cost
  // Other manoeuvres wait until it is straight; a formation change re-arranges the bases.
  EXPECT_EQ(manoeuvre_step(r->end, fwd(1), c).error().code, "refused_flank");
  EXPECT_EQ(manoeuvre_step(r->end, wheel_step(-30, "left"), c).error().code, "refused_flank");
  EXPECT_EQ(manoeuvre_step(r->end, step_of("about_face"), c).error().code, "refused_flank");
  EXPECT_EQ(manoeuvre_step(r->end, refuse("refuse_wheel", "left", "1", 0, 10), c).error().code, "refused_flank");
  auto f = manoeuvre_step(r->end, formation_step("line"), c);
  ASSERT_TRUE(f);
  EXPECT_TRUE(f->end.base_poses.empty());
  EXPECT_DOUBLE_EQ(f->fraction, 0.5);
}

// ---- Views, visibility and the hash see the placed bases ----

TEST(RefusedFlank, ViewsSceneAndHashUseThePlacedBases) {
  GameState s = movement_state();
  const StateHash before = state_hash(s);
  ASSERT_TRUE(declare(s, {{"fr_b5", "manoeuvre"}}, {}));
  GameState straight = s;
  ASSERT_TRUE(execute(s, {{"fr_b5", {refuse("refuse_step_back", "right", "1", 1)}}}));
  ASSERT_TRUE(execute(straight, {}));
  EXPECT_NE(state_hash(s), state_hash(straight));
  GameState other = s;
  brigade(other, "fr_b5").base_poses[3].center.y += 0.25;
  EXPECT_NE(state_hash(other), state_hash(s));
  EXPECT_NE(before, state_hash(s));

  for (const char* seat : {"fr/right", "umpire", "al/right"}) {
    const View v = view_for(s, seat, ViewSettings{});
    const UnitView* u = nullptr;
    for (const auto& x : v.units) {
      if (x.id == "fr_b5") u = &x;
    }
    ASSERT_NE(u, nullptr) << seat;
    ASSERT_EQ(u->bases.size(), 4u) << seat;
    EXPECT_NEAR(u->bases[3].center.x, 61.5, kTol) << seat;
    EXPECT_NEAR(u->bases[3].center.y, 8.5, kTol) << seat;
    EXPECT_NEAR(u->bases[2].center.y, 9.5, kTol) << seat;
  }
  const MalbrookScene scene = build_scene(s, seats_of(s));
  bool found = false;
  for (std::size_t i = 0; i < scene.refs.size(); ++i) {
    if (scene.refs[i].kind != PieceKind::kBrigade || s.brigades[scene.refs[i].index].id != "fr_b5") continue;
    found = true;
    ASSERT_EQ(scene.scene.objects[i].bases.size(), 4u);
    EXPECT_NEAR(scene.scene.objects[i].bases[3].center.y, 8.5, kTol);
  }
  EXPECT_TRUE(found);
}

// ---- Unformed brigades: bases moved individually ----

// fr_b5 as 3 bases of hussars (1 1/4" square, unformed: 1/2" apart), front
// middle (60, 10): centres (58.25|60|61.75, 9.375).
GameState hussar_state() {
  GameState s = movement_state();
  Brigade& h = brigade(s, "fr_b5");
  h.type = TroopType::kHussars;
  h.formation = Formation::kUnformed;
  h.bases = 3;
  return s;
}

TEST(UnformedBases, EachBaseMovesFreelyAndTheFurthestMovesTheFullAmount) {
  GameState s = hussar_state();
  ASSERT_TRUE(declare(s, {{"fr_b5", "2"}}, {4, 4}));  // 4", doubled: 8"
  ASSERT_NEAR(allowance_of(s, "fr_b5"), 8, kTol);
  std::vector<Event> ev;
  ASSERT_TRUE(execute(s, {{"fr_b5",
                           {base_step("0", {58.25, 17.375}), base_step("1", {60, 16.375}),
                            base_step("2", {61.75, 17.375}, 90)}}},
                      &ev));
  const Brigade& b = b5(s);
  ASSERT_EQ(b.base_poses.size(), 3u);
  expect_pose(b.base_poses[0], {58.25, 17.375}, 0);
  expect_pose(b.base_poses[1], {60, 16.375}, 0);
  expect_pose(b.base_poses[2], {61.75, 17.375}, 90);
  // Position: the front middle of the bases' envelope (x 57.625..62.375, y 15.75..18).
  EXPECT_NEAR(b.position.x, 60, kTol);
  EXPECT_NEAR(b.position.y, 18, kTol);
  EXPECT_EQ(b.dps, 0u);  // unformed: no fatigue DPs, "no penalties for manoeuvre"
  const auto fp = footprint(b);
  ASSERT_EQ(fp.size(), 3u);
  EXPECT_NEAR(fp[2].width, 1.25, kTol);
  EXPECT_NEAR(fp[2].facing_deg, 90, kTol);
}

TEST(UnformedBases, NoBaseMoreThanOneInchFromTheRestNorOnAnother) {
  GameState s = hussar_state();
  ASSERT_TRUE(declare(s, {{"fr_b5", "2"}}, {4, 4}));
  // Base 2 ends 2.25" from base 1 (x 62.875 against 60.625).
  auto v = execute(s, {{"fr_b5", {base_step("0", {58.25, 17.375}), base_step("1", {60, 16.375}),
                                   base_step("2", {63.5, 15.375})}}});
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "unformed_spacing");
  // Exactly 1" apart is allowed: base 0 (right edge 58.875) and base 1 (left
  // edge 59.875); base 2 touches base 1.
  ASSERT_TRUE(pending_decision(s, "move/fr_b5"));
  GameState t = s;
  ASSERT_TRUE(execute(t, {{"fr_b5", {base_step("0", {58.25, 17.375}), base_step("1", {60.5, 16.375}),
                                     base_step("2", {61.75, 17.375})}}}));
  // On top of one another.
  v = execute(s, {{"fr_b5", {base_step("0", {58.25, 17.375}), base_step("1", {58.25, 16.875}),
                             base_step("2", {61.75, 17.375})}}});
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "unformed_spacing");
}

TEST(UnformedBases, NoBaseBeyondTheAllowanceAndTheFullMoveRuleHolds) {
  GameState s = hussar_state();
  ASSERT_TRUE(declare(s, {{"fr_b5", "2"}}, {4, 4}));  // 8"
  auto v = execute(s, {{"fr_b5", {base_step("0", {58.25, 17.375}), base_step("1", {60, 17.875}),
                                  base_step("2", {61.75, 17.375})}}});  // base 1 moves 8.5"
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "too_far");
  v = execute(s, {{"fr_b5", {base_step("0", {58.25, 15.375}), base_step("1", {60, 15.375}),
                             base_step("2", {61.75, 15.375})}}});  // 6" of 8"
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "short_move");
  v = execute(s, {{"fr_b5", {base_step("3", {58.25, 17.375})}}});
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "bad_base");
  // Formed brigades do not move base by base.
  GameState f = movement_state();
  ASSERT_TRUE(declare(f, {{"fr_b5", "1+d6"}}, {4, 4}));
  v = execute(f, {{"fr_b5", {base_step("0", {58.5, 12})}}});
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "base");
}

TEST(UnformedBases, ABaseMayNotPassThroughEnemy) {
  GameState s = hussar_state();
  Brigade& e = brigade(s, "al_b1");
  e.position = {58.25, 14};  // across base 0's path only
  e.facing_deg = 180;
  ASSERT_TRUE(declare(s, {{"fr_b5", "2"}}, {4, 4}));
  const double allowance = allowance_of(s, "fr_b5");  // single: within 6" of known enemy
  ASSERT_NEAR(allowance, 4, kTol);
  // Base 0 straight ahead runs into al_b1 (x 56.25..60.25, y 14..15).
  auto v = execute(s, {{"fr_b5", {base_step("0", {58.25, 13.375 + 2}), base_step("1", {60, 13.375}),
                                  base_step("2", {61.75, 13.375})}}});
  ASSERT_FALSE(v);
  EXPECT_EQ(v.error().code, "blocked");
}

TEST(UnformedBases, MovingOnAsABodyCarriesEveryPlacedBaseAndReformingLaysThemOut) {
  Pose p;
  p.position = {60, 10};
  p.type = TroopType::kFoot;  // formed troops unformed by a rout may re-form
  p.formation = Formation::kUnformed;
  p.bases = 3;
  p.base_poses = {{{58, 9.5}, 0}, {{59.5, 9}, 45}, {{61, 9.5}, 0}};
  StepContext c;
  c.who = "Brigade x";
  c.dice = true;
  c.allowance = 4;
  auto r = manoeuvre_step(p, fwd(2, 90), c);  // unformed: any direction
  ASSERT_TRUE(r);
  expect_pose(r->end.base_poses[1], {61.5, 9}, 45);
  EXPECT_NEAR(r->end.position.x, 62, kTol);
  EXPECT_EQ(r->parts.size(), 3u);
  // Turning about the centre of the envelope turns every base.
  auto t = manoeuvre_step(p, [] {
    OrderStep st;
    st.action = "pivot";
    st.angle_deg = 180;
    return st;
  }(), c);
  ASSERT_TRUE(t);
  const Vec2 c0 = pose_envelope(p).center;
  expect_pose(t->end.base_poses[0], c0 * 2.0 - Vec2{58, 9.5}, 180);
  StepContext nd = c;
  nd.dice = false;
  auto f = manoeuvre_step(p, [] {
    OrderStep st;
    st.action = "reform";
    st.formation = "line";
    return st;
  }(), nd);
  ASSERT_TRUE(f);
  EXPECT_TRUE(f->end.base_poses.empty());
  EXPECT_EQ(f->end.formation, Formation::kLine);
}

TEST(UnformedBases, SpacingCheckIsExact) {
  const OrientedRect a{{0, 0}, 1, 1, 0};
  const OrientedRect b{{2, 0}, 1, 1, 0};        // 1" gap
  const OrientedRect c{{4.01, 0}, 1, 1, 0};     // 1.01" from b
  const OrientedRect d{{0.5, 0}, 1, 1, 0};      // on a
  EXPECT_FALSE(unformed_spacing_problem({a, b}));
  EXPECT_TRUE(unformed_spacing_problem({a, b, c}));
  EXPECT_TRUE(unformed_spacing_problem({a, d}));
  // A chain is one group: each within 1" of the next.
  EXPECT_FALSE(unformed_spacing_problem({a, b, OrientedRect{{4, 0}, 1, 1, 0}}));
}

}  // namespace
}  // namespace galloper::rules::malbrook
