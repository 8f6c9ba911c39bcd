#pragma once
// A question, not an action: the exact odds of a proposed order as the
// asking seat sees the table (Game::odds). Nothing is decided, rolled or
// stored; the answer depends only on the state and what the seat may see.
#include <cstdint>
#include <string>
#include <vector>

#include "rules/core/decision.hpp"

namespace galloper::rules {

// kAnswer, in any ruleset: answering one of the seat's pending decisions
// with `answer` (an option the ruleset marked Option::odds). Malbrook's
// kCharge and kShot are the same questions put by the pieces' ids: its
// charge declarations and fire decisions answer to them.
struct OddsQuestion {
  enum class Kind : std::uint8_t { kCharge, kShot, kAnswer };
  Kind kind = Kind::kCharge;
  std::string unit;            // the charging brigade, or the firing gun
  std::string target;          // the enemy brigade or gun
  std::uint32_t dice = 0;      // charge: the dice chosen for the move; kAnswer: the dice a later decision
                               // would choose, to assume (0: the ruleset's default)
  bool a_outrance = false;     // charge
  Answer answer;               // kAnswer
};

// One outcome. The fraction is exact when `denominator` is non-zero; the
// probability is always given.
struct OddsOutcome {
  std::string label;           // "no contact", "Victory", "2 DPs", ...
  std::uint64_t numerator = 0;
  std::uint64_t denominator = 0;
  double probability = 0;
};

struct OddsAnswer {
  std::string summary;             // one line for people
  std::vector<std::string> notes;  // the numbers behind it: distance, dice, modifiers, assumptions
  std::vector<OddsOutcome> outcomes;  // every outcome, summing to 1
};

}  // namespace galloper::rules
