#pragma once
// Every problem of meaning in a CF&EO scenario, each anchored to the field
// it is about (rules/core/ruleset.hpp): what is missing, what is out of
// range, ids used twice, references to pieces that are not there, pieces off
// the table.
#include <vector>

#include "rules/cfeo/scenario.hpp"
#include "rules/core/ruleset.hpp"

namespace galloper::rules::cfeo {

inline constexpr std::uint32_t kMaxBases = 12;  // RULINGS F4

std::vector<SpecProblem> check_scenario(const ScenarioSpec& spec);

}  // namespace galloper::rules::cfeo
