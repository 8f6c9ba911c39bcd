#pragma once
// The initial GameState of a checked scenario.
#include "rules/core/game.hpp"
#include "rules/malbrook/scenario.hpp"
#include "rules/malbrook/state.hpp"

namespace galloper::rules::malbrook {

// Precondition: check_scenario(spec) is empty (the codec only calls this then).
// Leaders attached at the start stand against the rear of their brigade.
// With an attacker, turn 1 starts with the attacker moving first ("In an attack
// scenario, the attacker moves first on turn one"), at the bombardment phase;
// otherwise it starts with the initiative roll.
GameState initial_state(const ScenarioSpec& spec, const Seed& seed);

}  // namespace galloper::rules::malbrook
