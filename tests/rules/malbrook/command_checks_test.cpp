// CommandChecks (command.hpp) keeps where the enemy stands for every answer
// checked against one state: its verdicts must be command_check's, reason
// and all, for the bot's answers and for moves near the allowance's edges
// (6" and 12": a leader may move double only beyond 6" of the enemy at both
// ends), asked in any order of one shared object. Played on the demo and
// Blenheim by the library bot through every command phase.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "rules/malbrook/command.hpp"
#include "rules/malbrook/engine.hpp"
#include "tests/rules/malbrook/bot.hpp"
#include "tests/rules/malbrook/golden_files.hpp"

namespace galloper::rules::malbrook {
namespace {

// The bot's answer for a leader, and the same leader told to move to points
// 5.9", 6.1", 11.9" and 12.1" away in eight directions.
std::vector<Answer> probes(const GameState& s, const std::vector<Answer>& bots) {
  std::vector<Answer> out = bots;
  for (const auto& a : bots) {
    const std::string id = a.decision_id.substr(a.decision_id.find('/') + 1);
    const Leader* l = s.find_leader(id);
    if (l == nullptr) continue;
    for (double reach : {5.9, 6.1, 11.9, 12.1}) {
      for (int k = 0; k < 8; ++k) {
        Answer m = a;
        m.steps.clear();
        if (!l->attached_to.empty()) {
          OrderStep detach;
          detach.action = "detach";
          m.steps.push_back(detach);
        }
        OrderStep step;
        step.action = "move_to";
        const double rad = k * 3.14159265358979 / 4;
        step.to = l->position + Vec2{reach * std::sin(rad), reach * std::cos(rad)};
        m.steps.push_back(step);
        out.push_back(std::move(m));
      }
    }
  }
  return out;
}

void expect_same_verdicts(const char* scenario, std::uint32_t seed, int phases_wanted) {
  GameState s = test::scenario_state(scenario, test::bot_seed(seed));
  test::Bot bot(seed);
  int phases = 0;
  int refused = 0;
  int accepted = 0;
  for (int step = 0; step < 400 && !finished(s) && phases < phases_wanted; ++step) {
    std::vector<Answer> used;
    const auto answers = bot.answers(s);
    if (s.phase == Phase::kCommand && s.command_stage == CommandStage::kActions) {
      ++phases;
      const CommandChecks checks(s);
      for (const auto& a : probes(s, answers)) {
        const Verdict alone = command_check(s, a);
        const Verdict shared = checks.check(a);
        ASSERT_EQ(static_cast<bool>(alone), static_cast<bool>(shared)) << a.decision_id;
        if (!alone) {
          ++refused;
          EXPECT_EQ(alone.error().code, shared.error().code) << a.decision_id;
          EXPECT_EQ(alone.error().reason, shared.error().reason) << a.decision_id;
        } else {
          ++accepted;
        }
      }
    }
    auto r = test::resolve_bot_step(s, answers, &used);
    ASSERT_TRUE(r) << r.error().reason;
    s = std::move(r->next);
  }
  EXPECT_EQ(phases, phases_wanted) << scenario;
  // The probes reach both sides of the allowances.
  EXPECT_GT(refused, 0) << scenario;
  EXPECT_GT(accepted, 0) << scenario;
}

// What is checked before any action: an answer with no actions is accepted
// for a leader on the table (it is judged without running anything), and
// refused for a leader who does not exist, with or without actions; more
// actions than the leader has are refused.
TEST(CommandChecks, NoActionsAreAcceptedForALeaderAndRefusedForNoLeader) {
  const GameState s = test::scenario_state("demo", test::bot_seed(5));
  ASSERT_FALSE(s.leaders.empty());
  const Leader& l = s.leaders.front();
  Answer none;
  none.decision_id = std::string(kCommandDecisionPrefix) + l.id;
  none.option = "none";
  EXPECT_TRUE(command_check(s, none).ok());

  Answer nobody = none;
  nobody.decision_id = std::string(kCommandDecisionPrefix) + "nobody";
  auto refused = command_check(s, nobody);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, "unknown_leader");
  OrderStep listen;
  listen.action = "listen";
  nobody.option.clear();
  nobody.steps = {listen};
  refused = command_check(s, nobody);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, "unknown_leader");

  Answer many = none;
  many.option.clear();
  many.steps.assign(static_cast<std::size_t>(command_actions(l)) + 1, listen);
  refused = command_check(s, many);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, "too_many_actions");
}

TEST(CommandChecks, GiveCommandChecksVerdictsOnTheDemo) { expect_same_verdicts("demo", 5, 12); }

TEST(CommandChecks, GiveCommandChecksVerdictsOnBlenheim) { expect_same_verdicts("blenheim", 6, 3); }

}  // namespace
}  // namespace galloper::rules::malbrook
