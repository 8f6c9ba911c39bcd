// A game checks each answer once (game.hpp: the answers check() accepted;
// movement.hpp: MoveChecks): resolving with answers the game has already
// accepted gives exactly what resolving them unchecked by the room gives,
// and an answer changed after it was accepted is checked again and refused
// when illegal. Played on the demo by the library bot through the movement
// phase's orders, where the shared work is.
#include <gtest/gtest.h>

#include <string>

#include "rules/core/dice.hpp"
#include "rules/malbrook/engine.hpp"
#include "rules/malbrook/game.hpp"
#include "rules/malbrook/movement.hpp"
#include "tests/rules/malbrook/bot.hpp"
#include "tests/rules/malbrook/golden_files.hpp"

namespace galloper::rules::malbrook {
namespace {

GameState demo(std::uint32_t seed) { return test::scenario_state("demo", test::bot_seed(seed)); }

bool has_order(const std::vector<Answer>& answers) {
  for (const auto& a : answers) {
    if (a.decision_id.rfind("move/", 0) == 0 && !a.steps.empty()) return true;
  }
  return false;
}

TEST(CheckedAnswers, ResolvingAcceptedAnswersGivesWhatAnUncheckedResolveGives) {
  GameState s = demo(3);
  test::Bot bot(3);
  int order_steps = 0;
  for (int step = 0; step < 120 && !finished(s) && order_steps < 4; ++step) {
    std::vector<Answer> used;
    auto r = test::resolve_bot_step(s, bot.answers(s), &used);
    ASSERT_TRUE(r) << r.error().reason;
    if (s.phase == Phase::kMovement && has_order(used)) {
      ++order_steps;
      const MalbrookGame checked(s);
      for (const auto& a : used) ASSERT_TRUE(checked.check(a)) << a.decision_id;
      KeyedDice d1(s.seed, s.step);
      auto via_checks = checked.resolve(used, d1);
      ASSERT_TRUE(via_checks) << via_checks.error().reason;
      EXPECT_EQ(via_checks.value().next->state_hash(), state_hash(r->next));
      EXPECT_EQ(via_checks.value().events.size(), r->events.size());
    }
    s = std::move(r->next);
  }
  EXPECT_GE(order_steps, 2);
}

TEST(CheckedAnswers, AnAnswerChangedAfterItWasAcceptedIsCheckedAgain) {
  GameState s = demo(4);
  test::Bot bot(4);
  for (int step = 0; step < 120 && !finished(s); ++step) {
    std::vector<Answer> used;
    auto r = test::resolve_bot_step(s, bot.answers(s), &used);
    ASSERT_TRUE(r) << r.error().reason;
    if (s.phase == Phase::kMovement && has_order(used)) {
      const MalbrookGame game(s);
      for (const auto& a : used) ASSERT_TRUE(game.check(a)) << a.decision_id;
      auto changed = used;
      for (auto& a : changed) {
        if (a.decision_id.rfind("move/", 0) == 0 && !a.steps.empty()) {
          a.steps.front().action = "forward";
          a.steps.front().distance = 1000;  // far beyond any roll
          break;
        }
      }
      const auto before = game.state_hash();
      KeyedDice dice(s.seed, s.step);
      auto refused = game.resolve(changed, dice);
      ASSERT_FALSE(refused);
      EXPECT_FALSE(refused.error().reason.empty());
      EXPECT_EQ(game.state_hash(), before);
      return;
    }
    s = std::move(r->next);
  }
  FAIL() << "no movement orders in 120 steps of the demo";
}

// resolve() without a game checks a step's orders through one MoveChecks of
// its own (engine.cpp): an order beyond its roll is still refused, with the
// check's reason, and nothing changes.
TEST(CheckedAnswers, AnUncheckedResolveRefusesAnOrderBeyondItsRoll) {
  GameState s = demo(4);
  test::Bot bot(4);
  for (int step = 0; step < 120 && !finished(s); ++step) {
    std::vector<Answer> used;
    auto r = test::resolve_bot_step(s, bot.answers(s), &used);
    ASSERT_TRUE(r) << r.error().reason;
    if (s.phase == Phase::kMovement && has_order(used)) {
      auto changed = used;
      std::string unit;
      for (auto& a : changed) {
        if (a.decision_id.rfind("move/", 0) == 0 && !a.steps.empty()) {
          a.steps.front().action = "forward";
          a.steps.front().distance = 1000;  // far beyond any roll
          unit = a.decision_id;
          break;
        }
      }
      const auto before = state_hash(s);
      const Decision* d = nullptr;
      const auto owed = pending(s);
      for (const auto& o : owed) {
        if (o.id == unit) d = &o;
      }
      ASSERT_NE(d, nullptr);
      const Answer* bad = nullptr;
      for (const auto& a : changed) {
        if (a.decision_id == unit) bad = &a;
      }
      const auto verdict = movement_check(s, *d, *bad);
      ASSERT_FALSE(verdict);
      KeyedDice dice(s.seed, s.step);
      auto refused = resolve(s, changed, dice);
      ASSERT_FALSE(refused);
      EXPECT_EQ(refused.error().code, verdict.error().code);
      EXPECT_EQ(refused.error().reason, verdict.error().reason);
      EXPECT_EQ(state_hash(s), before);
      return;
    }
    s = std::move(r->next);
  }
  FAIL() << "no movement orders in 120 steps of the demo";
}

}  // namespace
}  // namespace galloper::rules::malbrook
