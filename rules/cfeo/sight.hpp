#pragma once
// Who sees what on a CF&EO table, worked out once for a state: every piece
// an object of a core Scene (rules/core/visibility.hpp), each an observer for
// its own seat. Views and decisions ask it; the rules never ask more than a
// seat's eyes (or, with side-shared vision, its side's) could tell.
#include <cstddef>
#include <string_view>
#include <vector>

#include "rules/cfeo/state.hpp"
#include "rules/core/game.hpp"
#include "rules/core/visibility.hpp"

namespace galloper::rules::cfeo {

enum class PieceKind : std::uint8_t { kUnit, kGun, kLeader };
struct PieceRef {
  PieceKind kind = PieceKind::kUnit;
  std::size_t index = 0;
};

// CF&EO's sight, in yards (RULINGS F5).
const VisibilityRules& visibility_rules();

struct SightTable {
  std::vector<Seat> seats;        // seats_of(state): bit i of a mask is seats[i]
  Scene scene;
  std::vector<PieceRef> refs;     // per scene object: the piece
  std::vector<SeatMask> seen_by;  // per scene object: the seats whose pieces see it

  // The bit of a seat (0 for an unknown one).
  SeatMask seat_bit(std::string_view seat) const;
  // The seats of a side.
  SeatMask side_seats(std::string_view side) const;
  // The scene object of a unit or gun (refs are in state order: units, guns, leaders).
  std::size_t object_of(const GameState& state, Target target) const;
};

SightTable sight_table(const GameState& state);

// The eyes a seat sees with: its own, or its side's with side-shared vision.
SeatMask eyes_of(const SightTable& sight, std::string_view seat, bool side_shared_vision);

}  // namespace galloper::rules::cfeo
