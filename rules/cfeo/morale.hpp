#pragma once
// The morale phase ("Morale Phase. Assign DPs for morale. Redress ranks."):
// the Morale DPs list, a routing unit's test to stop its rout, and Redress
// Ranks (RULINGS C11, C12). Run once a turn, as the phase closes.
#include <vector>

#include "rules/cfeo/state.hpp"
#include "rules/core/decision.hpp"
#include "rules/core/dice.hpp"

namespace galloper::rules::cfeo {

// Where a rout ends and its test is taken: "or 240 yds from enemy".
inline constexpr double kRoutClear = 240;

// Morale DPs: each unit takes them for the friends routing, destroyed or
// retiring within 120 yds, and for its own evade, and sheds one for riding
// through or taking the position.
void assign_morale_dps(GameState& state, std::vector<Event>& events);
// "Rout. ... until behind formed friends, or obstacle, or 240 yds from
// enemy. Then may take a control test to attempt to stop rout, succeeding on
// act as player wishes result": a routing unit 240 yds or more from every
// enemy tests (RULINGS C12).
void test_routs(GameState& state, Dice& dice, std::vector<Event>& events);
// "Redress Ranks. Remove DPs if not in combat and no DPs from artillery
// fire this turn."
void redress(GameState& state, std::vector<Event>& events);

}  // namespace galloper::rules::cfeo
