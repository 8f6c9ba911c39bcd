#pragma once
// The initial state of a CF&EO scenario the checks passed (check.hpp): every
// id resolved to an index once, here.
#include "rules/cfeo/scenario.hpp"
#include "rules/cfeo/state.hpp"

namespace galloper::rules::cfeo {

GameState initial_state(const ScenarioSpec& spec);

}  // namespace galloper::rules::cfeo
