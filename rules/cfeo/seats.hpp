#pragma once
// Who sits at a CF&EO table (RULINGS F2): the umpire; for each side its
// marshal's seat, "<side>/army" (the marshal and the army's artillery), and
// a seat per wing, "<side>/<wing>" (the general, his brigades, brigadiers
// and guns). The wings of a side give their orders at the same time.
#include <string>
#include <string_view>
#include <vector>

#include "rules/cfeo/state.hpp"
#include "rules/core/game.hpp"

namespace galloper::rules::cfeo {

inline constexpr std::string_view kUmpireSeat = "umpire";

// Every seat, the umpire's first, then each side's army seat and its wings'.
std::vector<Seat> seats_of(const GameState& state);

// The seat a piece answers to.
std::string seat_of(const GameState& state, Index side, Index wing);
std::string seat_of(const GameState& state, const Unit& unit);
std::string seat_of(const GameState& state, const Gun& gun);
std::string seat_of(const GameState& state, const Leader& leader);

}  // namespace galloper::rules::cfeo
