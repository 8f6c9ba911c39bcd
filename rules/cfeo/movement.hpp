#pragma once
// The movement phase ("Movement. Move units. Must halt at 20 yds from
// enemy."; "Move Distances"; "Fatigue and Disorder"; "Manoeuvre"):
//
//  1. Each unit of an acting side that starts within 120 yds of an enemy
//     owes "move_dice/<unit>": how many dice its tactical move rolls
//     ("1", "1+d6"; cavalry also "2", "2+d6") or "halt". The dice are rolled
//     and their fatigue DPs taken.
//  2. Then each unit that may move owes "move/<unit>": its order, a list of
//     steps (forward, wheel, about face, change formation) within its
//     allowance: a march move (beyond 120 yds of every enemy at its start
//     and its end) or the yards its dice gave. An empty order halts.
//
// An order is refused, with the reason, when it would run past its
// allowance, come within 20 yds of an enemy, leave the table, or end on
// another piece; a step's order of two units that would end on each other
// is refused naming both (RULINGS F9).
#include <string_view>
#include <vector>

#include "rules/cfeo/state.hpp"
#include "rules/core/decision.hpp"
#include "rules/core/dice.hpp"
#include "rules/core/result.hpp"

namespace galloper::rules::cfeo {

inline constexpr std::string_view kMoveDicePrefix = "move_dice/";
inline constexpr std::string_view kMovePrefix = "move/";
inline constexpr double kHaltFromEnemy = 20;  // "Must halt at 20 yds from enemy."

// Whether the unit may be given a move this turn: not steadied ("Unit must
// remain halted"), and free or acting as its player wishes after its
// control test.
bool free_to_move(const Unit& unit);

// The yards from a unit to the nearest enemy unit or gun.
double enemy_distance(const GameState& state, const Unit& unit);

std::vector<Decision> movement_pending(const GameState& state);
// An order's legality, for check(); `d` is its pending decision.
Verdict movement_check(const GameState& state, const Decision& d, const Answer& answer);
// Applies the step's answers: rolls the dice asked for, or moves the units.
Result<bool> resolve_movement(GameState& state, const std::vector<Answer>& answers, Dice& dice,
                              std::vector<Event>& events);
// As the half closes: routing units rout on (RULINGS C13); units whose
// control test repeats their last move make it, after the ordered moves,
// halting where it is no longer legal; a unit that did not move has no last
// move to repeat next time.
void close_movement(GameState& state, Dice& dice, std::vector<Event>& events);

}  // namespace galloper::rules::cfeo
