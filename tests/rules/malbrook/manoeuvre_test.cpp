// "Manoeuvre", step by step: each primitive's cost (part of the move, inches,
// DPs) and who may make it.
#include <gtest/gtest.h>

#include <cmath>

#include "rules/malbrook/manoeuvre.hpp"
#include "tests/rules/malbrook/movement_helpers.hpp"

namespace galloper::rules::malbrook {
namespace {

using namespace test;

Pose foot_line(std::uint32_t bases = 4) {
  Pose p;
  p.position = {20, 10};
  p.bases = bases;
  return p;
}

StepContext dice_ctx(double allowance = 4, bool within6 = false) {
  StepContext c;
  c.who = "Brigade x";
  c.dice = true;
  c.allowance = allowance;
  c.within6 = within6;
  return c;
}

StepContext no_dice_ctx(bool within6 = false) {
  StepContext c = dice_ctx(0, within6);
  c.dice = false;
  return c;
}

TEST(Wheel, MeasuredByTheOutsideBaseAndOneDpInLineWithinSixOfEnemy) {
  // Pivoting on the left front corner (18,10) the right end swings forward:
  // an anticlockwise turn; the line ends facing west, running north from the pivot.
  auto r = manoeuvre_step(foot_line(), wheel_step(-90, "left"), dice_ctx(8, true));
  ASSERT_TRUE(r);
  EXPECT_NEAR(r->inches, 4 * kPi / 2, 1e-9);
  EXPECT_EQ(r->dps, 1);
  EXPECT_NEAR(r->end.facing_deg, 270, 1e-9);
  EXPECT_NEAR(r->end.position.x, 18, 1e-9);
  EXPECT_NEAR(r->end.position.y, 12, 1e-9);
  r = manoeuvre_step(foot_line(), wheel_step(90, "right"), dice_ctx(8, false));
  ASSERT_TRUE(r);
  EXPECT_NEAR(r->end.facing_deg, 90, 1e-9);
  EXPECT_EQ(r->dps, 0);
  Pose col = foot_line();
  col.formation = Formation::kMarchColumn;
  r = manoeuvre_step(col, wheel_step(-90, "left"), dice_ctx(8, true));
  ASSERT_TRUE(r);
  EXPECT_EQ(r->dps, 0);  // "No penalty if in column"
}

TEST(Wheel, BackwardsOnlyFootInLineAtHalfSpeed) {
  auto r = manoeuvre_step(foot_line(), wheel_step(30, "left"), dice_ctx(8));  // right end falls back
  ASSERT_TRUE(r);
  EXPECT_NEAR(r->inches, 2 * 4 * deg_to_rad(30), 1e-9);
  Pose cav = foot_line();
  cav.type = TroopType::kHorse;
  r = manoeuvre_step(cav, wheel_step(30, "left"), dice_ctx(8));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, "backward_wheel");
  EXPECT_FALSE(manoeuvre_step(foot_line(), wheel_step(30, "middle"), dice_ctx(8)));
  EXPECT_FALSE(manoeuvre_step(foot_line(), wheel_step(30, "left"), no_dice_ctx()));
}

TEST(FormationChange, HalfMoveBeyondSixFullMoveAndDpWithin) {
  auto r = manoeuvre_step(foot_line(), formation_step("march column"), dice_ctx(4, false));
  ASSERT_TRUE(r);
  EXPECT_DOUBLE_EQ(r->fraction, 0.5);
  EXPECT_EQ(r->dps, 0);
  EXPECT_EQ(r->end.formation, Formation::kMarchColumn);
  EXPECT_NEAR(r->end.position.x, 20, 1e-9);  // the front stays where it was
  r = manoeuvre_step(foot_line(), formation_step("field column"), no_dice_ctx(true));
  ASSERT_TRUE(r);
  EXPECT_DOUBLE_EQ(r->fraction, 1.0);
  EXPECT_EQ(r->dps, 1);
}

TEST(FormationChange, DoubleChangeTakesAFullMoveWithoutASecondDp) {
  StepContext c = no_dice_ctx(true);
  c.formation_changes = 1;
  c.first_formation_cost = 1.0;
  Pose col = foot_line();
  col.formation = Formation::kMarchColumn;
  auto r = manoeuvre_step(col, formation_step("line"), c);
  ASSERT_TRUE(r);
  EXPECT_DOUBLE_EQ(r->fraction, 0.0);
  EXPECT_EQ(r->dps, 0);
  c.within6 = false;
  c.first_formation_cost = 0.5;
  r = manoeuvre_step(col, formation_step("line"), c);
  EXPECT_DOUBLE_EQ(r->fraction, 0.5);
  c.formation_changes = 2;
  EXPECT_FALSE(manoeuvre_step(col, formation_step("line"), c));
}

TEST(FormationChange, ColumnFacingAFlankAndIllegalFormations) {
  auto r = manoeuvre_step(foot_line(), formation_step("march column", 90), no_dice_ctx());
  ASSERT_TRUE(r);
  EXPECT_NEAR(r->end.facing_deg, 90, 1e-9);
  EXPECT_FALSE(manoeuvre_step(foot_line(), formation_step("march column", 45), no_dice_ctx()));
  EXPECT_FALSE(manoeuvre_step(foot_line(), formation_step("unformed"), no_dice_ctx()));  // not voluntarily
  EXPECT_FALSE(manoeuvre_step(foot_line(2), formation_step("field column"), no_dice_ctx()));  // needs 3+
  EXPECT_FALSE(manoeuvre_step(foot_line(), formation_step("square"), no_dice_ctx()));
  Pose hus = foot_line();
  hus.type = TroopType::kHussars;
  hus.formation = Formation::kUnformed;
  EXPECT_FALSE(manoeuvre_step(hus, formation_step("line"), no_dice_ctx()));  // always unformed
}

TEST(Reform, OneCompleteMoveNoDpOnceTheCauseHasCeased) {
  Pose p = foot_line();
  p.formation = Formation::kUnformed;
  OrderStep st = formation_step("line", 180);
  st.action = "reform";
  auto r = manoeuvre_step(p, st, no_dice_ctx(true));
  ASSERT_TRUE(r);
  EXPECT_DOUBLE_EQ(r->fraction, 1.0);
  EXPECT_EQ(r->dps, 0);
  EXPECT_EQ(r->end.formation, Formation::kLine);
  StepContext routing = no_dice_ctx();
  routing.is_unformed_status = true;
  EXPECT_FALSE(manoeuvre_step(p, st, routing));
  EXPECT_FALSE(manoeuvre_step(foot_line(), st, no_dice_ctx()));  // already formed
}

TEST(AboutFace, HalfMoveDpForCavalryWithinSixOrFootUnderFire) {
  auto r = manoeuvre_step(foot_line(), step_of("about_face"), no_dice_ctx(true));
  ASSERT_TRUE(r);
  EXPECT_DOUBLE_EQ(r->fraction, 0.5);
  EXPECT_EQ(r->dps, 0);
  EXPECT_NEAR(r->end.facing_deg, 180, 1e-9);
  EXPECT_NEAR(r->end.position.y, 9, 1e-9);  // front now the old rear edge
  StepContext fire = no_dice_ctx();
  fire.under_fire = true;
  EXPECT_EQ(manoeuvre_step(foot_line(), step_of("about_face"), fire)->dps, 1);
  Pose cav = foot_line();
  cav.type = TroopType::kHorse;
  EXPECT_EQ(manoeuvre_step(cav, step_of("about_face"), no_dice_ctx(true))->dps, 1);
  EXPECT_EQ(manoeuvre_step(cav, step_of("about_face"), no_dice_ctx(false))->dps, 0);
  Pose unf = foot_line();
  unf.formation = Formation::kUnformed;
  EXPECT_FALSE(manoeuvre_step(unf, step_of("about_face"), no_dice_ctx()));
}

TEST(Incline, OnlyAToCFootInLineHalfSidewaysHalfForwards) {
  auto r = manoeuvre_step(foot_line(), step_of("incline", 3, "right"), dice_ctx(3.5));
  ASSERT_TRUE(r);
  EXPECT_NEAR(r->end.position.x, 21.5, 1e-9);
  EXPECT_NEAR(r->end.position.y, 11.5, 1e-9);
  EXPECT_DOUBLE_EQ(r->inches, 3);
  EXPECT_EQ(r->dps, 0);
  StepContext d = dice_ctx(3.5);
  d.grade = Grade::kD;
  EXPECT_FALSE(manoeuvre_step(foot_line(), step_of("incline", 3, "right"), d));
  Pose col = foot_line();
  col.formation = Formation::kFieldColumn;
  EXPECT_FALSE(manoeuvre_step(col, step_of("incline", 3, "right"), dice_ctx(3.5)));
}

TEST(SideStep, AToDFootInLineUpToOneInchWithoutDiceAFullMove) {
  StepContext c = no_dice_ctx();
  c.grade = Grade::kD;
  auto r = manoeuvre_step(foot_line(), step_of("side_step", 1, "left"), c);
  ASSERT_TRUE(r);
  EXPECT_NEAR(r->end.position.x, 19, 1e-9);
  EXPECT_DOUBLE_EQ(r->fraction, 1.0);
  r = manoeuvre_step(foot_line(), step_of("step_back", 0.5), c);
  ASSERT_TRUE(r);
  EXPECT_NEAR(r->end.position.y, 9.5, 1e-9);
  EXPECT_FALSE(manoeuvre_step(foot_line(), step_of("step_back", 1.5), c));
  EXPECT_FALSE(manoeuvre_step(foot_line(), step_of("step_back", 1), dice_ctx()));  // instead of a normal move
  c.grade = Grade::kE;
  EXPECT_FALSE(manoeuvre_step(foot_line(), step_of("step_back", 1), c));
}

TEST(Unlimber, OneMoveAndOneDpTwoUnderFireNeverLimberAgain) {
  Pose g;
  g.gun = true;
  g.limbered = true;
  g.position = {10, 10};
  auto r = manoeuvre_step(g, step_of("unlimber"), no_dice_ctx());
  ASSERT_TRUE(r);
  EXPECT_FALSE(r->end.limbered);
  EXPECT_DOUBLE_EQ(r->fraction, 1.0);
  EXPECT_EQ(r->dps, 1);
  StepContext fire = no_dice_ctx();
  fire.under_fire = true;
  EXPECT_EQ(manoeuvre_step(g, step_of("unlimber"), fire)->dps, 2);
  StepContext unc = no_dice_ctx();
  unc.controlled = false;
  EXPECT_FALSE(manoeuvre_step(g, step_of("unlimber"), unc));
  g.limbered = false;
  EXPECT_FALSE(manoeuvre_step(g, step_of("limber"), no_dice_ctx()));
}

TEST(MountDismount, TraditionalDragoonsHalfMoveDpUnderFire) {
  Pose d = foot_line();
  d.type = TroopType::kDragoons;
  auto r = manoeuvre_step(d, step_of("dismount"), no_dice_ctx());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->end.type, TroopType::kDismountedDragoons);
  EXPECT_EQ(r->end.formation, Formation::kUnformed);
  EXPECT_DOUBLE_EQ(r->fraction, 0.5);
  EXPECT_EQ(r->dps, 0);
  StepContext fire = no_dice_ctx();
  fire.under_fire = true;
  EXPECT_EQ(manoeuvre_step(d, step_of("dismount"), fire)->dps, 1);
  d.style = FightingStyle::kNew;
  EXPECT_FALSE(manoeuvre_step(d, step_of("dismount"), no_dice_ctx()));
  Pose off = r->end;
  auto m = manoeuvre_step(off, step_of("mount"), no_dice_ctx());
  ASSERT_TRUE(m);
  EXPECT_EQ(m->end.type, TroopType::kDragoons);
  EXPECT_EQ(m->end.formation, Formation::kLine);
}

TEST(PassGap, HalfFrontageFootAtHalfSpeedDpWithinSix) {
  auto r = manoeuvre_step(foot_line(), step_of("pass_gap", 1), dice_ctx(4, true));
  ASSERT_TRUE(r);
  EXPECT_DOUBLE_EQ(r->inches, 2);
  EXPECT_EQ(r->dps, 1);
  Pose cav = foot_line();
  cav.type = TroopType::kHorse;
  EXPECT_DOUBLE_EQ(manoeuvre_step(cav, step_of("pass_gap", 1), dice_ctx(4))->inches, 1);
}

TEST(GunPivot, UpToFortyFiveDegrees) {
  Pose g;
  g.gun = true;
  g.weight = GunWeight::kHeavy;
  OrderStep p;
  p.action = "pivot";
  p.angle_deg = -45;
  auto r = manoeuvre_step(g, p, no_dice_ctx());
  ASSERT_TRUE(r);
  EXPECT_NEAR(r->end.facing_deg, 315, 1e-9);
  p.angle_deg = 46;
  EXPECT_FALSE(manoeuvre_step(g, p, no_dice_ctx()));
  EXPECT_FALSE(manoeuvre_step(foot_line(), p, no_dice_ctx()));  // formed troops wheel
}

TEST(UnknownStep, IsRejectedWithItsName) {
  auto r = manoeuvre_step(foot_line(), step_of("gallop"), dice_ctx());
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().reason.find("gallop"), std::string::npos);
}

}  // namespace
}  // namespace galloper::rules::malbrook
