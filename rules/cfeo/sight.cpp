#include "rules/cfeo/sight.hpp"

#include "rules/cfeo/basing.hpp"
#include "rules/cfeo/seats.hpp"

namespace galloper::rules::cfeo {

const VisibilityRules& visibility_rules() {
  static const VisibilityRules kYards = [] {
    VisibilityRules r;
    r.open_range = 1000;
    r.elevated_range = 1500;
    r.cover_range = 40;
    r.cover_edge_seen_range = 40;
    r.cover_edge_depth = 20;
    r.see_over_min_distance = 120;
    r.unformed_see_beyond = 40;
    return r;
  }();
  return kYards;
}

SeatMask SightTable::seat_bit(std::string_view seat) const {
  for (std::size_t i = 0; i < seats.size() && i < 64; ++i) {
    if (seats[i].id == seat) return SeatMask{1} << i;
  }
  return 0;
}

SeatMask SightTable::side_seats(std::string_view side) const {
  SeatMask out = 0;
  for (std::size_t i = 0; i < seats.size() && i < 64; ++i) {
    if (!side.empty() && seats[i].side == side) out |= SeatMask{1} << i;
  }
  return out;
}

std::size_t SightTable::object_of(const GameState& s, Target t) const {
  const auto i = static_cast<std::size_t>(t.index);
  return t.kind == Target::Kind::kGun ? s.units.size() + i : i;
}

SightTable sight_table(const GameState& s) {
  SightTable out;
  out.seats = seats_of(s);
  auto add = [&](PieceRef ref, SceneKind kind, std::vector<OrientedRect> bases, const std::string& seat) {
    SceneObject o;
    o.id = static_cast<std::uint32_t>(out.scene.objects.size());
    o.kind = kind;
    o.bases = std::move(bases);
    o.elevation = o.bases.empty() ? 0 : s.terrain.elevation_at(o.bases.front().center);
    o.observer_for = out.seat_bit(seat);
    out.scene.objects.push_back(std::move(o));
    out.refs.push_back(ref);
  };
  for (std::size_t i = 0; i < s.units.size(); ++i) {
    const Unit& u = s.units[i];
    add({PieceKind::kUnit, i}, u.formation == Formation::kUnformed ? SceneKind::kUnformed : SceneKind::kFormed,
        footprint(u), seat_of(s, u));
  }
  for (std::size_t i = 0; i < s.guns.size(); ++i) {
    add({PieceKind::kGun, i}, SceneKind::kGun, {footprint(s.guns[i])}, seat_of(s, s.guns[i]));
  }
  for (std::size_t i = 0; i < s.leaders.size(); ++i) {
    const Leader& l = s.leaders[i];
    if (l.killed) continue;
    add({PieceKind::kLeader, i}, SceneKind::kLeader, {footprint(l)}, seat_of(s, l));
  }
  out.seen_by = compute_visibility(out.scene, s.terrain, visibility_rules());
  return out;
}

SeatMask eyes_of(const SightTable& sight, std::string_view seat, bool side_shared_vision) {
  const SeatMask own = sight.seat_bit(seat);
  if (!side_shared_vision || own == 0) return own;
  for (const Seat& x : sight.seats) {
    if (x.id == seat) return own | sight.side_seats(x.side);
  }
  return own;
}

}  // namespace galloper::rules::cfeo
