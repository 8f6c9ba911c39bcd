// The engine's entry points: pending / check / resolve, step validation,
// determinism.
#include <gtest/gtest.h>

#include <algorithm>

#include "rules/core/dice.hpp"
#include "rules/malbrook/engine.hpp"
#include "rules/malbrook/game.hpp"
#include "rules/malbrook/sequence.hpp"
#include "tests/rules/malbrook/test_state.hpp"

namespace galloper::rules::malbrook {
namespace {

using test::option_answer;
using test::steps_answer;
using test::replaced;
using test::tiny_state;

Seed seed_of(std::uint8_t x) {
  Seed s{};
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<std::uint8_t>(x + 7 * i);
  return s;
}

// Plays `steps` steps from `s` with every seat taking its default, the dice
// keyed by (seed, step). Returns the state hash after each step.
std::vector<StateHash> play(GameState s, int steps, Phase stop_at = Phase::kEnded) {
  std::vector<StateHash> hashes;
  for (int i = 0; i < steps && !finished(s) && s.phase != stop_at; ++i) {
    KeyedDice dice(s.seed, s.step);
    auto r = resolve(s, test::default_answers(pending(s)), dice);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().code + ": " + r.error().reason);
    if (!r.ok()) break;
    s = std::move(r->next);
    hashes.push_back(state_hash(s));
  }
  return hashes;
}

GameState fresh() {
  GameState s = tiny_state();
  s.phase = Phase::kInitiative;
  s.initiative.clear();
  s.seed = seed_of(3);
  return s;
}

TEST(Engine, SameSeedAndAnswersGiveTheSameStates) {
  const auto a = play(fresh(), 12, Phase::kMovement);
  const auto b = play(fresh(), 12, Phase::kMovement);
  ASSERT_GE(a.size(), 4u);  // roll, choice, French actions, Allied actions (+ control)
  EXPECT_EQ(a, b);
  GameState other = fresh();
  other.seed = seed_of(4);
  // Another seed is another game (the initiative and control dice differ);
  // it may coincide by chance at some step but not at every one.
  EXPECT_NE(play(other, 12, Phase::kMovement), a);
}

TEST(Engine, StepCounterKeysTheDice) {
  GameState s = fresh();
  FixedDice dice{6, 1};
  auto r = resolve(s, {}, dice);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->next.step, 1u);
  auto t = resolve(r->next, {option_answer("initiative", "fr/army", "first")}, dice);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->next.step, 2u);
}

TEST(Engine, IllegalStepsAreRefusedAndChangeNothing) {
  const GameState s = tiny_state();
  const StateHash before = state_hash(s);
  const auto owed = pending(s);
  ASSERT_FALSE(owed.empty());
  FixedDice none{};

  auto missing = resolve(s, {}, none);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, "missing_answer");

  auto answers = test::default_answers(owed);
  answers.push_back(answers.front());
  auto twice = resolve(s, answers, none);
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().code, "duplicate_answer");

  auto unknown = check(s, option_answer("command/nobody", "fr/army", "none"));
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().code, "unknown_decision");

  // Another seat's decision is answered as one that does not exist
  // (RULINGS R21): the reply says nothing of whose it is.
  auto wrong = check(s, steps_answer("command/fr_lg", "al/right", {}));
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.error().code, "unknown_decision");
  auto made_up = check(s, steps_answer("command/zz_lg", "al/right", {}));
  ASSERT_FALSE(made_up.ok());
  EXPECT_EQ(wrong.error().reason, replaced(made_up.error().reason, "zz_lg", "fr_lg"));
  // The umpire is told whose it is.
  auto umpire = check(s, steps_answer("command/fr_lg", "umpire", {}));
  ASSERT_FALSE(umpire.ok());
  EXPECT_EQ(umpire.error().code, "wrong_seat");
  EXPECT_NE(umpire.error().reason.find("fr/left"), std::string::npos);

  auto bad_option = check(s, option_answer("command/fr_lg", "fr/left", "charge"));
  ASSERT_FALSE(bad_option.ok());
  EXPECT_EQ(bad_option.error().code, "bad_option");

  EXPECT_EQ(state_hash(s), before);
}

TEST(Engine, FreshStateStartsWithNoAnswers) {
  GameState s = fresh();
  EXPECT_TRUE(pending(s).empty());
  EXPECT_FALSE(finished(s));
  FixedDice dice{1, 2};
  auto r = resolve(s, {}, dice);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(pending(r->next).empty());
}

TEST(Engine, StateHashCoversTheSequenceAndControl) {
  GameState s = tiny_state();
  const StateHash h = state_hash(s);
  GameState t = s;
  t.half = 1;
  EXPECT_NE(state_hash(t), h);
  t = s;
  t.simultaneous = true;
  EXPECT_NE(state_hash(t), h);
  t = s;
  t.command_stage = CommandStage::kControl;
  EXPECT_NE(state_hash(t), h);
  t = s;
  t.initiative_winner = "al";
  EXPECT_NE(state_hash(t), h);
  t = s;
  test::brigade(t, "fr_b1").control = ControlResult::kHalt;
  EXPECT_NE(state_hash(t), h);
  t = s;
  test::brigade(t, "fr_b1").conform_to = "fr_b2";
  EXPECT_NE(state_hash(t), h);
  t = s;
  t.armies[0].wings[0].orders_from = "fr_m";
  EXPECT_NE(state_hash(t), h);
  t = s;
  Messenger m;
  m.id = "msg1";
  t.messengers.push_back(m);
  EXPECT_NE(state_hash(t), h);
}

TEST(Engine, AFullTurnWithDefaultAnswers) {
  GameState s = fresh();
  s.turn_limit = 1;
  for (int i = 0; i < 40 && !finished(s); ++i) {
    KeyedDice dice(s.seed, s.step);
    auto r = resolve(s, test::default_answers(pending(s)), dice);
    ASSERT_TRUE(r.ok()) << r.error().code << ": " << r.error().reason << " (phase " << to_string(s.phase) << ")";
    s = std::move(r->next);
  }
  EXPECT_TRUE(finished(s));
  EXPECT_EQ(s.turn, 1u);
}

TEST(Engine, MalbrookGameServesTheEngine) {
  MalbrookGame game(fresh());
  EXPECT_TRUE(game.pending().empty());
  FixedDice dice{6, 1};
  auto r = game.resolve({}, dice);
  ASSERT_TRUE(r.ok());
  ASSERT_NE(r->next, nullptr);
  EXPECT_EQ(r->next->step(), 1u);
  const auto owed = r->next->pending();
  ASSERT_EQ(owed.size(), 1u);
  EXPECT_EQ(owed[0].seat, "fr/army");
  EXPECT_TRUE(r->next->check(option_answer("initiative", "fr/army", "second")).ok());
  EXPECT_FALSE(r->next->check(option_answer("initiative", "al/army", "second")).ok());

  std::vector<Event> events(3);
  events[0].is_public = true;
  events[1].subjects = {"fr_b1"};
  events[2].subjects = {"nobody"};
  const ViewSettings settings;
  EXPECT_EQ(game.visible_events(events, "fr/left", settings), (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(game.visible_events(events, "umpire", settings), (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_EQ(game.visible_events(events, "stranger", settings), (std::vector<std::size_t>{0}));
}

}  // namespace
}  // namespace galloper::rules::malbrook
