#include "rules/cfeo/seats.hpp"

namespace galloper::rules::cfeo {

namespace {

const std::string& side_id(const GameState& s, Index side) { return s.sides[static_cast<std::size_t>(side)].id; }

std::string leader_name(const GameState& s, Index leader) {
  return leader == kNone ? std::string() : s.leaders[static_cast<std::size_t>(leader)].name;
}

}  // namespace

std::string seat_of(const GameState& s, Index side, Index wing) {
  return side_id(s, side) + "/" + (wing == kNone ? std::string("army") : s.wings[static_cast<std::size_t>(wing)].id);
}
std::string seat_of(const GameState& s, const Unit& u) { return seat_of(s, u.side, u.wing); }
std::string seat_of(const GameState& s, const Gun& g) { return seat_of(s, g.side, g.wing); }
std::string seat_of(const GameState& s, const Leader& l) { return seat_of(s, l.side, l.wing); }

std::vector<Seat> seats_of(const GameState& s) {
  std::vector<Seat> seats;
  seats.push_back({std::string(kUmpireSeat), SeatRole::kUmpire, "", "", "Umpire"});
  for (std::size_t a = 0; a < s.sides.size(); ++a) {
    const Side& side = s.sides[a];
    const std::string marshal = leader_name(s, side.marshal);
    seats.push_back({seat_of(s, static_cast<Index>(a), kNone), SeatRole::kPlayer, side.id, "",
                     side.name + (marshal.empty() ? "" : " (Marshal " + marshal + ")")});
    for (const Wing& w : s.wings) {
      if (w.side != static_cast<Index>(a)) continue;
      const std::string general = leader_name(s, w.general);
      seats.push_back({side.id + "/" + w.id, SeatRole::kPlayer, side.id, w.id,
                       side.name + ": " + w.name + (general.empty() ? "" : " (General " + general + ")")});
    }
  }
  return seats;
}

}  // namespace galloper::rules::cfeo
