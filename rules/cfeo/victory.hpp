#pragma once
// The end of a CF&EO game (RULINGS V1-V3): the sheet names no victory, so
// the scenario's objectives and each side's break percentage decide, as in
// Malbrook. At the end of every turn objectives change hands; the game ends
// when a side has broken or the last turn was played, with a public
// "game_over" event naming the winner.
#include <cstdint>
#include <vector>

#include "rules/cfeo/state.hpp"
#include "rules/core/decision.hpp"

namespace galloper::rules::cfeo {

// The side holding `o` now: one with a formed unit, neither routing nor
// retiring, within the radius and no enemy unit there (V1); kNone when
// neither does (the objective then stays with its holder).
Index holder_now(const GameState& state, const Objective& o);
// Objective points held, per side in state order.
std::vector<std::uint32_t> objective_points(const GameState& state);
// A side is broken when its units routing or destroyed are at least its
// break percentage of all its units (V2; 0: it never breaks).
bool side_broken(const GameState& state, Index side);

// Objectives change hands, then the game ends if a side is broken or this
// was the last turn (V3). True when it ended.
bool end_of_turn(GameState& state, std::vector<Event>& events);

}  // namespace galloper::rules::cfeo
