// The end of the game (victory.hpp): objectives held, army break, the turn limit.
#include <gtest/gtest.h>

#include "rules/core/dice.hpp"
#include "rules/malbrook/engine.hpp"
#include "rules/malbrook/victory.hpp"
#include "tests/rules/malbrook/test_state.hpp"

namespace galloper::rules::malbrook {
namespace {

using test::brigade;
using test::tiny_state;

constexpr std::uint32_t bit(Status s) { return static_cast<std::uint32_t>(s); }

GameState with_objective() {
  GameState s = tiny_state();
  // Around fr_b1 (front edge 14..18 at y = 10).
  s.objectives.push_back({"obj", "The mill", {16, 11}, 2, 3, ""});
  s.objectives.push_back({"far", "The far hill", {60, 40}, 2, 1, ""});
  return s;
}

TEST(Objectives, AFormedBrigadeWithNoEnemyWithinTheRadiusHoldsIt) {
  GameState s = with_objective();
  EXPECT_EQ(holder_now(s, s.objectives[0]), "fr");
  EXPECT_EQ(holder_now(s, s.objectives[1]), "");
  // An enemy brigade inside contests it.
  brigade(s, "al_b1").position = {16, 12.5};
  EXPECT_EQ(holder_now(s, s.objectives[0]), "");
}

TEST(Objectives, UnformedRoutingOrRetiringBrigadesDoNotHold) {
  GameState s = with_objective();
  brigade(s, "fr_b1").formation = Formation::kUnformed;
  EXPECT_EQ(holder_now(s, s.objectives[0]), "");
  brigade(s, "fr_b1").formation = Formation::kLine;
  brigade(s, "fr_b1").status = bit(Status::kRetiring);
  EXPECT_EQ(holder_now(s, s.objectives[0]), "");
}

TEST(Objectives, HeldByTheLastSideToHoldIt) {
  GameState s = with_objective();
  std::vector<Event> ev;
  update_objectives(s, ev);
  EXPECT_EQ(s.objectives[0].held_by, "fr");
  ASSERT_EQ(ev.size(), 1u);
  EXPECT_TRUE(ev[0].is_public);
  brigade(s, "fr_b1").position = {16, 30};  // gone elsewhere
  update_objectives(s, ev);
  EXPECT_EQ(s.objectives[0].held_by, "fr");
  EXPECT_EQ(objective_points(s), (std::vector<std::uint32_t>{3, 0}));
}

TEST(ArmyBreak, DestroyedSurrenderedAndRoutingOverAllBrigades) {
  GameState s = tiny_state();
  s.armies[0].break_percent = 40;  // fr has 5 brigades: 2 break it
  EXPECT_FALSE(army_broken(s, "fr"));
  brigade(s, "fr_b1").status |= bit(Status::kRouting);
  EXPECT_FALSE(army_broken(s, "fr"));
  brigade(s, "fr_b2").bases = 0;
  brigade(s, "fr_b2").status |= bit(Status::kDestroyed);
  EXPECT_TRUE(army_broken(s, "fr"));
  EXPECT_EQ(break_count(s, "fr").lost, 2u);
  EXPECT_EQ(break_count(s, "fr").total, 5u);
  s.armies[0].break_percent = 0;  // no break rule
  EXPECT_FALSE(army_broken(s, "fr"));
}

TEST(EndOfGame, ABrokenArmyLosesAtTheEndOfTheTurn) {
  GameState s = tiny_state();
  s.phase = Phase::kMorale;
  s.armies[1].break_percent = 50;
  brigade(s, "al_b1").status |= bit(Status::kRouting);
  FixedDice dice{};
  auto r = resolve(s, {}, dice);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(finished(r->next));
  EXPECT_EQ(r->next.result.winner, "fr");
  EXPECT_EQ(r->next.result.reason, "army_broken");
  EXPECT_EQ(r->next.result.broken, (std::vector<std::string>{"al"}));
  bool over = false;
  for (const auto& e : r->events) {
    if (e.kind == "game_over") {
      over = true;
      EXPECT_TRUE(e.is_public);
      EXPECT_NE(e.text.find("French wins"), std::string::npos) << e.text;
    }
  }
  EXPECT_TRUE(over);
}

TEST(EndOfGame, TurnLimitObjectivePointsDecide) {
  GameState s = with_objective();
  s.phase = Phase::kMorale;
  s.turn = s.turn_limit;
  FixedDice dice{};
  auto r = resolve(s, {}, dice);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->next.phase, Phase::kEnded);
  EXPECT_EQ(r->next.result.reason, "turn_limit");
  EXPECT_EQ(r->next.result.winner, "fr");  // holds the mill, 3 points to 0
  EXPECT_EQ(r->next.result.points, (std::vector<std::uint32_t>{3, 0}));

  GameState t = tiny_state();
  t.phase = Phase::kMorale;
  t.turn = t.turn_limit;
  auto d = resolve(t, {}, dice);
  ASSERT_TRUE(d.ok());
  EXPECT_TRUE(d->next.result.decided);
  EXPECT_EQ(d->next.result.winner, "");  // a draw
}

TEST(EndOfGame, BothBrokenInOneTurnObjectivesDecide) {
  GameState s = with_objective();
  s.armies[0].break_percent = 10;
  s.armies[1].break_percent = 10;
  brigade(s, "fr_b5").status |= bit(Status::kRouting);
  brigade(s, "al_b2").status |= bit(Status::kRouting);
  std::vector<Event> ev;
  ASSERT_TRUE(end_of_turn(s, ev));
  EXPECT_EQ(s.result.reason, "army_broken");
  EXPECT_EQ(s.result.broken.size(), 2u);
  EXPECT_EQ(s.result.winner, "fr");
}

}  // namespace
}  // namespace galloper::rules::malbrook
