// The umpire's edits of a CF&EO game: each kind applied, and each bad edit
// refused with its reason and nothing changed.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "rules/cfeo/edit.hpp"
#include "rules/cfeo/setup.hpp"
#include "tests/rules/cfeo/specs.hpp"

namespace galloper::rules::cfeo {
namespace {

using specs::gun;
using specs::unit;

GameState state() {
  return initial_state(specs::two_sides({unit("blue_foot", Arm::kFoot, 4, {1000, 500}, 0)},
                                        {unit("red_foot", Arm::kFoot, 4, {1000, 1500}, 180)},
                                        {gun("blue_gun", GunType::kField, {1200, 500}, 0)}));
}

StateEdit edit(std::string kind, std::string subject) {
  StateEdit e;
  e.kind = std::move(kind);
  e.subject = std::move(subject);
  return e;
}

TEST(CfeoEdit, EachKindChangesWhatItSays) {
  const GameState s = state();
  StateEdit move = edit("move", "blue_foot");
  move.position = Vec2{800, 700};
  move.facing_deg = 90;
  auto moved = apply_edit(s, move);
  ASSERT_TRUE(moved.ok()) << moved.error().reason;
  EXPECT_EQ(moved->units[0].position, (Vec2{800, 700}));
  EXPECT_EQ(moved->units[0].facing_deg, 90);

  StateEdit dps = edit("set_dps", "blue_gun");
  dps.value = 2;
  auto shaken = apply_edit(s, dps);
  ASSERT_TRUE(shaken.ok());
  EXPECT_EQ(shaken->guns[0].dps, 2u);

  StateEdit column = edit("set_formation", "red_foot");
  column.key = "assault column";
  auto formed = apply_edit(s, column);
  ASSERT_TRUE(formed.ok()) << formed.error().reason;
  EXPECT_EQ(formed->units[1].formation, Formation::kAssaultColumn);

  auto removed = apply_edit(s, edit("remove", "red_foot"));
  ASSERT_TRUE(removed.ok());
  EXPECT_TRUE(removed->units[1].destroyed);
  EXPECT_EQ(apply_edit(removed.value(), edit("remove", "red_foot")).error().code, "unknown_unit");
}

TEST(CfeoEdit, BadEditsAreRefusedWithTheirReason) {
  const GameState s = state();
  auto code = [&](const StateEdit& e) { return apply_edit(s, e).error().code; };
  StateEdit off = edit("move", "blue_foot");
  off.position = Vec2{10, 500};
  EXPECT_EQ(code(off), "off_table");
  StateEdit onto = edit("move", "blue_foot");
  onto.position = Vec2{1200, 480};  // across the gun's stand
  EXPECT_EQ(code(onto), "overlap");
  EXPECT_EQ(code(edit("move", "blue_foot")), "missing_field");
  StateEdit many = edit("set_dps", "blue_foot");
  many.value = -1;
  EXPECT_EQ(code(many), "out_of_range");
  StateEdit same = edit("set_dps", "blue_foot");
  same.value = 0;
  EXPECT_EQ(code(same), "no_change");
  StateEdit horse_column = edit("set_formation", "blue_foot");
  horse_column.key = "square";
  EXPECT_EQ(code(horse_column), "bad_value");
  EXPECT_EQ(code(edit("remove", "nobody")), "unknown_unit");
  auto unknown = apply_edit(s, edit("teleport", "blue_foot"));
  EXPECT_EQ(unknown.error().code, "unknown_edit");
  EXPECT_EQ(unknown.error().reason,
            "no edit \"teleport\"; CF&EO takes move, remove, set_dps, set_formation, advantage_of_ground");
  // Back to the engine's judgement when it already is: nothing changes.
  EXPECT_EQ(code(edit("advantage_of_ground", "blue_foot")), "no_change");
  EXPECT_EQ(code(edit("advantage_of_ground", "blue_gun")), "bad_value");
}

TEST(CfeoEdit, TheUmpireRulesOnAUnitsAdvantageOfGroundAndClearsItAgain) {
  StateEdit yes = edit("advantage_of_ground", "red_foot");
  yes.flag = true;
  auto ruled = apply_edit(state(), yes);
  ASSERT_TRUE(ruled.ok()) << ruled.error().reason;
  EXPECT_EQ(ruled->units[1].ground_ruling, std::optional<bool>(true));
  auto cleared = apply_edit(ruled.value(), edit("advantage_of_ground", "red_foot"));
  ASSERT_TRUE(cleared.ok()) << cleared.error().reason;
  EXPECT_EQ(cleared->units[1].ground_ruling, std::nullopt);
}

}  // namespace
}  // namespace galloper::rules::cfeo
