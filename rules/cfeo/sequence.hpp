#pragma once
// The sequence of play as a state machine on GameState ("Sequence of
// Play"): Bombardment, Musketry, Command, Movement, Close Artillery, Combat
// & Close Fire, Morale, then the next turn.
//
// The sheet names no initiative; the engine has sides act in turn within
// each phase, the first side first (RULINGS F7): the attacker in every turn
// of an attack, otherwise the higher of a D6 each at the start of the turn.
// With the game option `simultaneous` (play-by-web) both sides answer each
// phase in one step.
#include <string>
#include <vector>

#include "rules/cfeo/state.hpp"
#include "rules/core/decision.hpp"
#include "rules/core/dice.hpp"

namespace galloper::rules::cfeo {

// The sides that owe answers now: the first side in half 0 and the other in
// half 1 when alternating; both, the first side first, when simultaneous.
std::vector<Index> acting_sides(const GameState& state);
bool is_acting(const GameState& state, Index side);

// Starts the game: turn 1 begins (its first side settled).
void start(GameState& state, Dice& dice, std::vector<Event>& events);
// On from the current half: the other side's half of an alternating phase,
// else the next phase, else the next turn; after a morale phase the game
// may end (victory.hpp; state.ended).
void advance(GameState& state, Dice& dice, std::vector<Event>& events);


}  // namespace galloper::rules::cfeo
