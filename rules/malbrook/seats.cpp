#include "rules/malbrook/seats.hpp"

namespace galloper::rules::malbrook {

namespace {

// A seat is named army + "/" + tail: the tail is a wing's id, or "army".
constexpr std::string_view kArmyTail = "army";

// The tail of a gun's or leader's seat: its wing's, or the army's without one.
std::string_view tail_of(std::string_view wing) { return wing.empty() ? kArmyTail : wing; }

// seat == army + "/" + tail, without building the name.
bool is_seat(std::string_view seat, std::string_view army, std::string_view tail) {
  return seat.size() == army.size() + 1 + tail.size() && seat.starts_with(army) && seat[army.size()] == '/' &&
         seat.ends_with(tail);
}

}  // namespace

std::string army_seat(std::string_view army) { return wing_seat(army, kArmyTail); }

std::string wing_seat(std::string_view army, std::string_view wing) {
  return std::string(army) + "/" + std::string(wing);
}

std::string seat_of(const Brigade& b) { return wing_seat(b.army, b.wing); }
std::string seat_of(const Gun& g) { return wing_seat(g.army, tail_of(g.wing)); }
std::string seat_of(const Leader& l) { return wing_seat(l.army, tail_of(l.wing)); }

std::string seat_of(const GameState& state, const Messenger& m) {
  const Leader* from = state.find_leader(m.from);
  return from != nullptr ? seat_of(*from) : army_seat(m.army);
}

bool commands(std::string_view seat, const Brigade& b) { return is_seat(seat, b.army, b.wing); }
bool commands(std::string_view seat, const Gun& g) { return is_seat(seat, g.army, tail_of(g.wing)); }
bool commands(std::string_view seat, const Leader& l) { return is_seat(seat, l.army, tail_of(l.wing)); }

bool commands(std::string_view seat, const GameState& state, const Messenger& m) {
  const Leader* from = state.find_leader(m.from);
  return from != nullptr ? commands(seat, *from) : is_seat(seat, m.army, kArmyTail);
}

std::vector<Seat> seats_of(const GameState& state) {
  std::vector<Seat> seats;
  seats.push_back({std::string(kUmpireSeat), SeatRole::kUmpire, "", "", "Umpire"});
  for (const auto& a : state.armies) {
    std::string marshals;
    for (const auto& id : a.marshals) {
      const Leader* l = state.find_leader(id);
      if (!marshals.empty()) marshals += " and ";
      marshals += l != nullptr ? l->name : id;
    }
    seats.push_back({army_seat(a.id), SeatRole::kPlayer, a.id, "",
                     a.name + (marshals.empty() ? "" : " (" + marshals + ")")});
    for (const auto& w : a.wings) {
      const Leader* lg = state.find_leader(w.lieutenant_general);
      seats.push_back({wing_seat(a.id, w.id), SeatRole::kPlayer, a.id, w.id,
                       a.name + ": " + w.name + (lg != nullptr ? " (Lt Gen " + lg->name + ")" : "")});
    }
  }
  return seats;
}

}  // namespace galloper::rules::malbrook
