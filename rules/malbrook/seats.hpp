#pragma once
// Who plays what: the umpire, then per army the Marshal's seat
// ("<army>/army": his own leaders and the army artillery) and one seat per
// wing ("<army>/<wing>": its Lieutenant General, commands and guns).
#include <string>
#include <vector>

#include "rules/core/game.hpp"
#include "rules/malbrook/state.hpp"

namespace galloper::rules::malbrook {

inline constexpr std::string_view kUmpireSeat = "umpire";

std::vector<Seat> seats_of(const GameState& state);

std::string army_seat(std::string_view army);
std::string wing_seat(std::string_view army, std::string_view wing);
// The seat that commands a piece.
std::string seat_of(const Brigade& b);
std::string seat_of(const Gun& g);
std::string seat_of(const Leader& l);
// A messenger: the seat of the leader who sent it (the army's seat if he is
// no longer listed).
std::string seat_of(const GameState& state, const Messenger& m);
// seat_of(piece) == seat, without building the seat's name (a view asks it
// of every piece for every seat).
bool commands(std::string_view seat, const Brigade& b);
bool commands(std::string_view seat, const Gun& g);
bool commands(std::string_view seat, const Leader& l);
bool commands(std::string_view seat, const GameState& state, const Messenger& m);

}  // namespace galloper::rules::malbrook
