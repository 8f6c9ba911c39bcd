#pragma once
// The moves of the combat phase ("Movement after Combat", charges and
// evades): each a straight move on the table that stops short of other
// pieces and the table's edge (RULINGS C2, C6-C9). combat.hpp decides who
// makes them; these make them and tell them.
#include <vector>

#include "rules/cfeo/state.hpp"
#include "rules/core/decision.hpp"
#include "rules/core/dice.hpp"

namespace galloper::rules::cfeo {

// "Retire. Move back a full fast unformed move"; "Rout. Full fast unformed
// move"; evading. Fast move dice with +10 yds a die ("on initial rout, evade
// or retire move"). A retiring or routing unit ends unformed; "If unable to
// retire, remain in place and receive 1 DP".
enum class FallBack : std::uint8_t { kRetire, kRout, kEvade };
void fall_back(GameState& state, Index unit, FallBack how, Dice& dice, std::vector<Event>& events);

// A routing unit's rout in a later turn (RULINGS C13): "Full fast unformed
// move, until behind formed friends, or obstacle, or 240 yds from enemy",
// straight on, without the initial move's +10 yds a die; it stops once 240
// yds from every enemy, or where a piece or the table's edge stops it.
void rout_on(GameState& state, Index unit, Dice& dice, std::vector<Event>& events);

// A charge of `yards` (the charger's dice) at `target`, which meets it with
// `counter_yards` when it counter-charges (0 otherwise). Each turns to face
// the other and closes; true when they touch.
bool close_in(GameState& state, Index unit, Target target, int yards, int counter_yards, std::vector<Event>& events,
              Dice& dice);

// "Pursue. Full fast unformed move, in an attempt to remain in contact with
// opponents who retired or routed. ... Pursuers who catch routing or
// retiring units get a free hack"; a retiring unit caught breaks (routs).
void pursue(GameState& state, Index unit, Index enemy, Dice& dice, std::vector<Event>& events);

// "Take the position. Move forward to occupy an abandoned position."
void take_position(GameState& state, Index unit, Index enemy, std::vector<Event>& events);

// "Ride-through. Move 2 or 3 dice (player's option) through the enemy
// position. End facing the nearest threat. If the unit encounters new enemy
// or impassable terrain, it will halt beyond 20 yds."
void ride_through(GameState& state, Index unit, int avd, Dice& dice, std::vector<Event>& events);

}  // namespace galloper::rules::cfeo
