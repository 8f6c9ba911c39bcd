#pragma once
// The CF&EO engine: what is pending, whether an answer is legal, and what a
// step's answers and dice make of the state (ARCHITECTURE.md, "The decision
// model"). Pure functions of values; CfeoGame's overrides call them.
//
// After a step's answers are applied the engine runs on through everything
// that needs no decision and stops at the next half-phase that owes
// decisions, or at the end of the game. pending() is empty only before the
// first step (resolve it with no answers to start the game) or once it has
// ended.
#include <vector>

#include "rules/cfeo/state.hpp"
#include "rules/core/decision.hpp"
#include "rules/core/dice.hpp"
#include "rules/core/result.hpp"

namespace galloper::rules::cfeo {

struct StepResult {
  GameState next;
  std::vector<Event> events;
};

std::vector<Decision> pending(const GameState& state);
Verdict check(const GameState& state, const Answer& answer);
// Rejects the whole step (nothing changes) if any answer is illegal,
// answers a decision twice or not at all, or answers one not pending.
Result<StepResult> resolve(const GameState& state, const std::vector<Answer>& answers, Dice& dice);
bool finished(const GameState& state);

}  // namespace galloper::rules::cfeo
