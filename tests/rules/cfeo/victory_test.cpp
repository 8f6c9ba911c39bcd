// The end of a CF&EO game (RULINGS V1-V3): objectives held, a side broken,
// the winner.
#include <gtest/gtest.h>

#include <string>

#include "rules/cfeo/setup.hpp"
#include "rules/cfeo/victory.hpp"
#include "rules/core/tell.hpp"
#include "tests/rules/cfeo/specs.hpp"

namespace galloper::rules::cfeo {
namespace {

using specs::unit;

// Blue has two battalions, red one; a village between them is worth 2.
GameState state() {
  ScenarioSpec s = specs::two_sides({unit("blue_1", Arm::kFoot, 2, {1000, 1020}, 0),  // on the village
                                     unit("blue_2", Arm::kFoot, 2, {400, 500}, 0)},
                                    {unit("red_1", Arm::kFoot, 2, {1500, 1500}, 180)});
  s.turn_limit = 5;
  for (auto& side : s.sides) side.break_percent = 50;
  ObjectiveSpec village;
  village.id = "village";
  village.name = "the village";
  village.at = Vec2{1000, 1000};
  village.radius = 50;
  village.points = 2;
  s.objectives.push_back(village);
  return initial_state(s);
}

TEST(CfeoVictory, AFormedUnitAloneOnAnObjectiveHoldsItAndBrokenTroopsDoNot) {
  GameState s = state();
  EXPECT_EQ(holder_now(s, s.objectives[0]), 0);
  s.units[0].routing = true;
  EXPECT_EQ(holder_now(s, s.objectives[0]), kNone);
  s.units[0].routing = false;
  s.units[2].position = {1000, 930};  // red comes within the radius too: contested
  EXPECT_EQ(holder_now(s, s.objectives[0]), kNone);
}

TEST(CfeoVictory, TheLastTurnEndsTheGameAndObjectivePointsDecide) {
  GameState s = state();
  std::vector<Event> ev;
  EXPECT_FALSE(end_of_turn(s, ev));
  EXPECT_EQ(s.objectives[0].held_by, 0);
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(plain_text(ev[0].text), "Blue take the village.");
  s.turn = 5;
  ev.clear();
  EXPECT_TRUE(end_of_turn(s, ev));
  EXPECT_TRUE(s.ended);
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_EQ(ev[0].kind, "game_over");
  EXPECT_TRUE(ev[0].is_public);
  EXPECT_EQ(plain_text(ev[0].text), "The game ends after turn 5, the last turn. Objective points: Blue 2, Red 0. Blue win.");
}

TEST(CfeoVictory, ASideWithHalfItsUnitsRoutingOrDestroyedBreaksAndLoses) {
  GameState s = state();
  s.units[1].destroyed = true;  // one of blue's two: 50%
  EXPECT_TRUE(side_broken(s, 0));
  EXPECT_FALSE(side_broken(s, 1));
  std::vector<Event> ev;
  EXPECT_TRUE(end_of_turn(s, ev));
  EXPECT_EQ(plain_text(ev.back().text),
            "The game ends after turn 1: Blue has broken. Objective points: Blue 2, Red 0. Red win.");
}

}  // namespace
}  // namespace galloper::rules::cfeo
