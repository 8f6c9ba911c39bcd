#pragma once
// Checking a scenario against the rules text before a game is made of it.
#include <vector>

#include "rules/malbrook/scenario.hpp"

namespace galloper::rules::malbrook {

// Every problem with the scenario, each anchored to the field behind it, in
// the order the checks walk the file (the codec re-sorts by line). Empty when
// the scenario is good. What is checked, and which of the text's "should"s
// are left to the author, is listed in RULINGS.md and RULES-COVERAGE.md.
std::vector<SpecProblem> check_scenario(const ScenarioSpec& spec);

}  // namespace galloper::rules::malbrook
