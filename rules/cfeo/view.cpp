#include "rules/cfeo/view.hpp"

#include <algorithm>
#include <string>

#include "rules/cfeo/basing.hpp"
#include "rules/cfeo/sight.hpp"

namespace galloper::rules::cfeo {

namespace {

void terrain_of(View& v, const GameState& s) {
  for (const Feature& f : s.features) {
    TerrainView t;
    terrain_view(t, f, s.features, feature_sizes());
    v.terrain.push_back(std::move(t));
  }
}

const std::string& id_or_empty(const std::vector<Wing>& wings, Index i) {
  static const std::string kEmpty;
  return i == kNone ? kEmpty : wings[static_cast<std::size_t>(i)].id;
}
const std::string& id_or_empty(const std::vector<Brigade>& brigades, Index i) {
  static const std::string kEmpty;
  return i == kNone ? kEmpty : brigades[static_cast<std::size_t>(i)].id;
}

UnitView placed(const GameState& s, const std::string& id, UnitKind kind, Index side, Knowledge k,
                std::vector<OrientedRect> bases, Vec2 position, double facing_deg) {
  UnitView u;
  u.id = id;
  u.kind = kind;
  u.side = s.sides[static_cast<std::size_t>(side)].id;
  u.knowledge = k;
  u.position = position;
  u.facing_deg = facing_deg;
  u.base_count = static_cast<std::uint32_t>(bases.size());
  for (const OrientedRect& r : bases) u.bases.push_back({r.center, r.width, r.depth, r.facing_deg});
  return u;
}

UnitView unit_view(const GameState& s, const Unit& unit, Knowledge k) {
  const bool full = k != Knowledge::kSeen;
  UnitView u = placed(s, unit.id, UnitKind::kBrigade, unit.side, k, footprint(unit), unit.position, unit.facing_deg);
  u.troop_type = to_string(unit.arm);
  u.noun = unit.arm == Arm::kFoot ? "battalion" : "regiment";
  u.formation = to_string(unit.formation);
  u.dps = unit.dps;
  // What stands on the table shows to anyone who sees it: pikes among the
  // muskets, a skirmish screen (RULINGS F6).
  if (unit.pike_bases > 0) {
    u.attributes.push_back({"pikes", std::to_string(unit.pike_bases) + (unit.pike_bases == 1 ? " base" : " bases")});
  }
  if (unit.skirmishers) u.attributes.push_back({"skirmishers", "open order"});
  // Flight shows from afar.
  if (unit.routing) u.status.push_back("routing");
  if (unit.retiring) u.status.push_back("retiring");
  if (!full) return u;
  u.name = unit.name;
  u.grade = to_string(unit.grade);
  u.command = id_or_empty(s.brigades, unit.brigade);
  u.wing = id_or_empty(s.wings, unit.wing);
  if (unit.platoon_fire) u.attributes.push_back({"fire", "by platoons"});
  // This turn's command, known to its own side only.
  if (unit.inspired > 0) u.status.push_back("inspired");
  if (unit.steadied) u.status.push_back("steadied");
  if (unit.control == Control::kHalt) u.status.push_back("halted");
  if (unit.control == Control::kRepeatLastMove) u.status.push_back("repeating");
  if (unit.control == Control::kContinueCharge) u.status.push_back("charging");
  if (is_cavalry(unit.arm)) {
    u.attributes.push_back({"style", std::string(to_string(unit.style))});
    if (unit.a_outrance) u.attributes.push_back({"charges", "a l'outrance"});
  }
  return u;
}

UnitView gun_view(const GameState& s, const Gun& gun, Knowledge k) {
  UnitView u = placed(s, gun.id, UnitKind::kGun, gun.side, k, {footprint(gun)}, gun.position, gun.facing_deg);
  u.troop_type = to_string(gun.type);
  u.dps = gun.dps;
  if (gun.limbered) u.status.push_back("limbered");
  if (gun.abandoned) u.status.push_back("abandoned");
  if (k == Knowledge::kSeen) return u;
  u.name = gun.name;
  u.command = id_or_empty(s.brigades, gun.brigade);
  u.wing = id_or_empty(s.wings, gun.wing);
  if (gun.with_unit != kNone) u.attached_to = s.units[static_cast<std::size_t>(gun.with_unit)].id;
  return u;
}

// `attachment_shown`: the seat is shown the unit he is attached to.
UnitView leader_view(const GameState& s, const Leader& l, Knowledge k, bool attachment_shown) {
  UnitView u = placed(s, l.id, UnitKind::kLeader, l.side, k, {footprint(l)}, l.position, l.facing_deg);
  // The rank shows in the figures on the stand.
  u.rank = to_string(l.rank);
  if (attachment_shown && l.attached_to != kNone) u.attached_to = s.units[static_cast<std::size_t>(l.attached_to)].id;
  if (k == Knowledge::kSeen) return u;
  if (l.wounds > 0) u.status.push_back("wounded");
  u.name = l.name;
  u.command = id_or_empty(s.brigades, l.brigade);
  u.wing = id_or_empty(s.wings, l.wing);
  return u;
}

}  // namespace

View view_for(const GameState& s, std::string_view seat_id, const ViewSettings& settings) {
  View v;
  v.ruleset = std::string(kRulesetName);
  v.scenario = s.scenario;
  v.title = s.title;
  v.seat = std::string(seat_id);
  v.table_width = s.table_width;
  v.table_depth = s.table_depth;
  v.unit_name = "yard";
  v.turn = s.turn;
  v.phase = std::string(to_string(s.phase));
  v.turn_limit = s.turn_limit;
  for (std::size_t a = 0; a < s.sides.size(); ++a) {
    v.sides.push_back({s.sides[a].id, s.sides[a].name, s.attacker == static_cast<Index>(a)});
  }
  terrain_of(v, s);

  const SightTable sight = sight_table(s);
  const auto seat = std::find_if(sight.seats.begin(), sight.seats.end(), [&](const Seat& x) { return x.id == seat_id; });
  if (seat == sight.seats.end() || seat->role == SeatRole::kSpectator) return v;
  const bool umpire = seat->role == SeatRole::kUmpire;
  v.side = seat->side;
  const SeatMask own_bit = sight.seat_bit(seat_id);
  const SeatMask side_seats = umpire ? 0 : sight.side_seats(seat->side);
  const SeatMask eyes = eyes_of(sight, seat_id, settings.side_shared_vision);

  std::vector<char> unit_shown(s.units.size(), 0);
  std::vector<Knowledge> known(sight.refs.size(), Knowledge::kSeen);
  std::vector<char> shown(sight.refs.size(), 0);
  for (std::size_t o = 0; o < sight.refs.size(); ++o) {
    const SeatMask owner = sight.scene.objects[o].observer_for;
    if (umpire) {
      known[o] = Knowledge::kUmpire;
    } else if (owner & own_bit) {
      known[o] = Knowledge::kOwn;
    } else if (owner & side_seats) {
      // A friend: in full when shown, shown with side-shared vision or when seen.
      if (!settings.side_shared_vision && (sight.seen_by[o] & eyes) == 0) continue;
      known[o] = Knowledge::kFriendly;
    } else if ((sight.seen_by[o] & eyes) == 0) {
      continue;
    }
    shown[o] = 1;
    if (sight.refs[o].kind == PieceKind::kUnit) unit_shown[sight.refs[o].index] = 1;
  }
  for (std::size_t o = 0; o < sight.refs.size(); ++o) {
    if (!shown[o]) continue;
    const PieceRef ref = sight.refs[o];
    switch (ref.kind) {
      case PieceKind::kUnit:
        // A destroyed unit has left the table.
        if (!s.units[ref.index].destroyed) v.units.push_back(unit_view(s, s.units[ref.index], known[o]));
        break;
      case PieceKind::kGun: v.units.push_back(gun_view(s, s.guns[ref.index], known[o])); break;
      case PieceKind::kLeader: {
        const Leader& l = s.leaders[ref.index];
        const bool attachment_shown =
            l.attached_to != kNone && unit_shown[static_cast<std::size_t>(l.attached_to)] != 0;
        v.units.push_back(leader_view(s, l, known[o], attachment_shown));
        break;
      }
    }
  }
  return v;
}

}  // namespace galloper::rules::cfeo
