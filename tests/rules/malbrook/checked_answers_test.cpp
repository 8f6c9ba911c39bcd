// A game checks each answer once (game.hpp: the answers check() accepted;
// movement.hpp: MoveChecks): resolving with answers the game has already
// accepted gives exactly what resolving them unchecked by the room gives,
// and an answer changed after it was accepted is checked again and refused
// when illegal. Played on the demo by the library bot through the movement
// phase's orders, where the shared work is.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <utility>

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

// The step's first order sent far beyond any roll; its decision's id.
std::string push_an_order_too_far(std::vector<Answer>& answers) {
  for (auto& a : answers) {
    if (a.decision_id.rfind("move/", 0) == 0 && !a.steps.empty()) {
      a.steps.front().action = "forward";
      a.steps.front().distance = 1000;
      return a.decision_id;
    }
  }
  return "";
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

// The demo played by the bot up to its first movement step with orders: that
// state and the answers the bot gives it (nothing if 120 steps have none).
std::optional<std::pair<GameState, std::vector<Answer>>> first_order_step(std::uint32_t seed) {
  GameState s = demo(seed);
  test::Bot bot(seed);
  for (int step = 0; step < 120 && !finished(s); ++step) {
    std::vector<Answer> used;
    auto r = test::resolve_bot_step(s, bot.answers(s), &used);
    if (!r) return std::nullopt;
    if (s.phase == Phase::kMovement && has_order(used)) return std::pair{std::move(s), std::move(used)};
    s = std::move(r->next);
  }
  return std::nullopt;
}

TEST(CheckedAnswers, AnAnswerChangedAfterItWasAcceptedIsCheckedAgain) {
  const auto found = first_order_step(4);
  ASSERT_TRUE(found) << "no movement orders in 120 steps of the demo";
  const auto& [s, used] = *found;
  const MalbrookGame game(s);
  for (const auto& a : used) ASSERT_TRUE(game.check(a)) << a.decision_id;
  auto changed = used;
  ASSERT_FALSE(push_an_order_too_far(changed).empty());
  const auto before = game.state_hash();
  KeyedDice dice(s.seed, s.step);
  auto refused = game.resolve(changed, dice);
  ASSERT_FALSE(refused);
  EXPECT_FALSE(refused.error().reason.empty());
  EXPECT_EQ(game.state_hash(), before);
}

// resolve() without a game checks a step's orders through one MoveChecks of
// its own (engine.cpp): an order beyond its roll is still refused, with the
// check's reason, and nothing changes.
TEST(CheckedAnswers, AnUncheckedResolveRefusesAnOrderBeyondItsRoll) {
  const auto found = first_order_step(4);
  ASSERT_TRUE(found) << "no movement orders in 120 steps of the demo";
  const auto& [s, used] = *found;
  auto changed = used;
  const std::string unit = push_an_order_too_far(changed);
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
  const auto before = state_hash(s);
  KeyedDice dice(s.seed, s.step);
  auto refused = resolve(s, changed, dice);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, verdict.error().code);
  EXPECT_EQ(refused.error().reason, verdict.error().reason);
  EXPECT_EQ(state_hash(s), before);
}

}  // namespace
}  // namespace galloper::rules::malbrook
