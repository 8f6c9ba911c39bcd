#pragma once
// The combat phase ("Combat & Close Fire. In the following order: declare
// and execute charges and responses; resolve all combat and close fire;
// conduct any resulting moves."), with the sheet's "Combat and Close Fire",
// "Combat Results" and "Movement after Combat" (RULINGS C1-C12). In each
// half of the phase (both sides together when simultaneous):
//
//  1. Charges. Each formed unit of an acting side that sees an enemy unit or
//     gun within its charge reach, in its front arc, owes "charge/<unit>":
//     a target, or "none".
//  2. Responses. Each unit charged owes "response/<unit>": "stand", or
//     "counter_charge" (cavalry charged from its front) or "evade" (cavalry
//     and skirmishers).
//  3. The evaders fall back, the charges roll their dice and close; every
//     charge that reaches its target is fought: each unit rolls a D6 per
//     base it counts, with its modifiers, and each side reads the Combat
//     Results row of its hits less the other side's. The row's DPs are
//     taken and its forced moves made (retire, rout, pursue, guns
//     abandoned).
//  4. After combat. A unit whose row leaves the move to its player owes
//     "after_combat/<unit>": "remain", "pursue", "retire", "take_position",
//     or, riding through, "ride_2" or "ride_3".
#include <string_view>
#include <vector>

#include "rules/cfeo/sight.hpp"
#include "rules/cfeo/state.hpp"
#include "rules/core/decision.hpp"
#include "rules/core/dice.hpp"

namespace galloper::rules::cfeo {

inline constexpr std::string_view kChargePrefix = "charge/";
inline constexpr std::string_view kResponsePrefix = "response/";
inline constexpr std::string_view kAfterCombatPrefix = "after_combat/";
inline constexpr std::string_view kNoCharge = "none";

// The farthest a unit's charge may reach: every die of its tactical move at
// its highest (RULINGS C1): foot 110 yds, cavalry 160 yds.
double charge_reach(const Unit& unit);

// "+1 advantage of ground" (RULINGS C14): the piece stands higher than an
// enemy it fights, behind an obstacle between them (nearer to it than to
// the enemy), or at the edge of a wood or town the enemy is outside. The
// umpire's ruling for a unit wins (Unit::ground_ruling).
bool advantage_of_ground(const GameState& state, Target self, const std::vector<Target>& enemies);

// The decisions of the combat phase's current stage for the acting sides.
std::vector<Decision> combat_pending(const GameState& state, const SightTable& sight);
// Applies a stage's answers and everything that follows without a decision.
// True when the half's combat is over.
bool resolve_combat(GameState& state, const std::vector<Answer>& answers, Dice& dice, std::vector<Event>& events);

}  // namespace galloper::rules::cfeo
