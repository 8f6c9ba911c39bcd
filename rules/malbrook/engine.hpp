#pragma once
// The Malbrook engine: what is pending, whether an answer is legal, and what
// a step's answers and dice make of the state (ARCHITECTURE.md, "The decision
// model"). Pure functions of values; MalbrookGame's engine overrides call them.
//
// A step is resolved with an answer to every pending decision. After applying
// them the engine runs on through everything that needs no decision (dice it
// rolls itself, phases with nothing to decide yet) and stops at the next
// sub-step that owes decisions, or at the end of the game. So pending() is
// empty only in a state nobody has resolved yet (a fresh scenario, or one the
// umpire edited) -- resolve it with no answers to start it -- or once finished.
#include <map>
#include <string>
#include <vector>

#include "rules/core/decision.hpp"
#include "rules/core/dice.hpp"
#include "rules/core/result.hpp"
#include "rules/malbrook/command.hpp"
#include "rules/malbrook/movement.hpp"
#include "rules/malbrook/state.hpp"

namespace galloper::rules::malbrook {

struct StepResult {
  GameState next;
  std::vector<Event> events;
  std::vector<Decision> next_pending;  // pending(next), worked out on the way
};

std::vector<Decision> pending(const GameState& state);
// The seat, the decision id and the answer's legality. Never changes the state.
Verdict check(const GameState& state, const Answer& answer);
// The same, given pending(state) (a caller that keeps it saves the work), and
// optionally a MoveChecks and a CommandChecks of the same state (movement.hpp,
// command.hpp) for many answers.
Verdict check(const GameState& state, const std::vector<Decision>& pending, const Answer& answer,
              const MoveChecks* moves = nullptr, const CommandChecks* commands = nullptr);
// Rejects the whole step (nothing changes) if any answer is illegal, answers
// a decision twice or not at all, or answers one that is not pending; or if
// orders legal alone collide. The rejection names the decisions involved
// (Rejection::decisions).
Result<StepResult> resolve(const GameState& state, const std::vector<Answer>& answers, Dice& dice);
// The same, given pending(state). `checked` (may be null) holds answers that
// check(state, pending, answer) has already accepted, by decision id: an
// answer equal to the one held for its decision is not checked again (a room
// checks every answer as it arrives; checking the step's orders twice was a
// fifth of a big battle's turn). The caller vouches for them; the outcome is
// the same either way, as check is a pure function of state and answer.
// `moves` and `commands` as for check(); without them, the step's answers
// share ones resolve makes for itself.
Result<StepResult> resolve(const GameState& state, const std::vector<Decision>& pending,
                           const std::vector<Answer>& answers, Dice& dice,
                           const std::map<std::string, Answer, std::less<>>* checked = nullptr,
                           const MoveChecks* moves = nullptr, const CommandChecks* commands = nullptr);
// The game has ended (turn limit reached).
bool finished(const GameState& state);

}  // namespace galloper::rules::malbrook
