#pragma once
// The checks every ruleset's engine makes of answers before its own rules
// (ARCHITECTURE.md, "The decision model"): that an answer is for a decision
// pending now and for its seat, that its numbers are ones a table could
// hold, that an option is one of those listed, and that a step answers each
// pending decision once. Each refusal is in words a player can act on; one
// for another seat's decision reads exactly as one for a made-up id.
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "rules/core/decision.hpp"
#include "rules/core/result.hpp"

namespace galloper::rules {

const Decision* find_decision(const std::vector<Decision>& pending, std::string_view id);

// Every distance, angle and point of an order is finite and within a
// million table units or degrees. Any double travels on the wire: a NaN
// passes comparisons like "distance <= allowance", and 1e200 overflows a
// terrain grid's cell numbers.
bool sane_numbers(const Answer& answer);

// The decision `answer` is for, when it is pending and the answer's seat
// owes it (the umpire's seat may answer any); otherwise the refusal:
// "unknown_decision" (not pending, or another seat's decision about its
// pieces: it says when, "turn 3, movement phase"), "wrong_seat" (a
// decision about no piece, for another seat), "bad_number". Every answer a
// room receives is checked here: nothing is built unless it is refused.
Result<const Decision*> addressed(const std::vector<Decision>& pending, const Answer& answer, std::uint32_t turn,
                                  std::string_view phase, std::string_view umpire_seat);

// The answer's option is one of the decision's: "bad_option" otherwise.
Verdict listed_option(const Decision& decision, const Answer& answer);

// A step's answers: none answers a decision twice ("duplicate_answer"),
// each passes `check`, and every decision in `owed` has one
// ("missing_answer"). A refusal names the decision at fault
// (Rejection::decisions), so that only its seat is told.
Verdict check_step(const std::vector<Decision>& owed, const std::vector<Answer>& answers,
                   const std::function<Verdict(const Answer&)>& check);

}  // namespace galloper::rules
