#include "rules/malbrook/view.hpp"

#include <algorithm>

#include "rules/malbrook/basing.hpp"
#include "rules/malbrook/seats.hpp"
#include "rules/malbrook/visibility.hpp"

namespace galloper::rules::malbrook {

namespace {

RectView rect_view(const OrientedRect& r) { return {r.center, r.width, r.depth, r.facing_deg}; }

// Markers a player at the table can see on any brigade or gun.
constexpr std::uint32_t kVisibleMarkers =
    static_cast<std::uint32_t>(Status::kHalted) | static_cast<std::uint32_t>(Status::kInspired) |
    static_cast<std::uint32_t>(Status::kCharging) | static_cast<std::uint32_t>(Status::kEvading) |
    static_cast<std::uint32_t>(Status::kRetiring) | static_cast<std::uint32_t>(Status::kRouting) |
    static_cast<std::uint32_t>(Status::kPursuing) | static_cast<std::uint32_t>(Status::kLooting) |
    static_cast<std::uint32_t>(Status::kInCombat) | static_cast<std::uint32_t>(Status::kFired) |
    static_cast<std::uint32_t>(Status::kAbandoned) | static_cast<std::uint32_t>(Status::kDestroyed) |
    static_cast<std::uint32_t>(Status::kSurrendered);

// Into `out`, empty (a UnitView being filled).
void status_list(std::uint32_t bits, std::uint32_t shown, std::vector<std::string>& out) {
  if ((bits & shown) == 0) return;  // most pieces, most steps
  for (std::uint32_t i = 0; i < kStatusCount; ++i) {
    const std::uint32_t b = 1u << i;
    if ((bits & shown & b) != 0) out.emplace_back(to_string(static_cast<Status>(b)));
  }
}

// Fills `t`, a cleared TerrainView.
void terrain_view(TerrainView& t, const GameState& s, const Feature& f) {
  t.id = f.id;
  t.kind = f.kind;
  t.name = f.name;
  t.closed = f.closed;
  t.elevation = f.elevation;
  t.steep = f.steep;
  t.major = f.major;
  if (f.kind == TerrainKind::kBridge || f.kind == TerrainKind::kFord) {
    const Feature* crossed = nullptr;
    for (const auto& g : s.features) {
      if (g.id == f.crosses) crossed = &g;
    }
    const auto corners = crossing_rect(f, crossed).corners();
    t.outline.assign(corners.begin(), corners.end());
    t.closed = true;
  } else {
    t.outline = f.points;
  }
}

// Each fills `u`, a cleared UnitView (ViewRefresh's scratch, whose buffers
// are reused). `bases`: the piece's footprint, as the sight table's scene
// holds it.
void brigade_view(UnitView& u, const Brigade& b, const std::vector<OrientedRect>& bases, Knowledge k) {
  u.id = b.id;
  u.kind = UnitKind::kBrigade;
  u.side = b.army;
  u.knowledge = k;
  u.troop_type = to_string(b.type);
  u.formation = to_string(b.formation);
  u.bases.reserve(bases.size());
  for (const auto& r : bases) u.bases.push_back(rect_view(r));
  u.base_count = b.bases;
  u.dps = b.dps;
  u.position = b.position;
  u.facing_deg = b.facing_deg;
  const bool full = k != Knowledge::kSeen;
  status_list(b.status, full ? ~0u : kVisibleMarkers, u.status);
  if (full) {
    u.name = b.name;
    u.grade = to_string(b.grade);
    u.command = b.command;
    u.wing = b.wing;
  }
}

void gun_view(UnitView& u, const Gun& g, const std::vector<OrientedRect>& bases, Knowledge k) {
  u.id = g.id;
  u.kind = UnitKind::kGun;
  u.side = g.army;
  u.knowledge = k;
  u.troop_type = to_string(g.weight);
  for (const auto& r : bases) u.bases.push_back(rect_view(r));
  u.base_count = 1;
  u.dps = g.dps;
  u.position = g.position;
  u.facing_deg = g.facing_deg;
  const bool full = k != Knowledge::kSeen;
  status_list(g.status, full ? ~0u : kVisibleMarkers, u.status);
  if (g.limbered) u.status.emplace_back("limbered");
  if (full) {
    u.name = g.name;
    u.command = g.command;
    u.wing = g.wing;
  }
}

void leader_view(UnitView& u, const Leader& l, const std::vector<OrientedRect>& bases, Knowledge k) {
  u.id = l.id;
  u.kind = UnitKind::kLeader;
  u.side = l.army;
  u.knowledge = k;
  for (const auto& r : bases) u.bases.push_back(rect_view(r));
  u.base_count = 1;
  u.position = l.position;
  u.facing_deg = l.facing_deg;
  // The rank shows in the figures on the stand; attachment on the table.
  u.rank = to_string(l.rank);
  u.attached_to = l.attached_to;
  if (k != Knowledge::kSeen) {
    u.name = l.name;
    u.command = l.command;
    u.wing = l.wing;
    if (l.wounds > 0) u.status.emplace_back("wounded");
  }
}

// "Messenger Marker -- a single mounted staff officer or rider". Whom it
// carries a message to, and from whom, only its own side knows.
void messenger_view(UnitView& u, const GameState& s, const Messenger& m, const std::vector<OrientedRect>& bases,
                    Knowledge k) {
  u.id = m.id;
  u.kind = UnitKind::kMessenger;
  u.side = m.army;
  u.knowledge = k;
  u.troop_type = "messenger";
  for (const auto& r : bases) u.bases.push_back(rect_view(r));
  u.base_count = 1;
  u.position = m.position;
  u.facing_deg = m.facing_deg;
  if (k != Knowledge::kSeen) {
    const Leader* from = s.find_leader(m.from);
    const Leader* to = s.find_leader(m.to);
    u.name = "Messenger from " + (from != nullptr && !from->name.empty() ? from->name : m.from) + " to " +
             (to != nullptr && !to->name.empty() ? to->name : m.to);
  }
}

// "Horse-holder Marker ... to mark the location of the horses of dismounted dragoons".
void horse_holder_view(UnitView& u, const Brigade& b, const std::vector<OrientedRect>& bases, Knowledge k) {
  u.id = horse_holder_id(b);
  u.kind = UnitKind::kMarker;
  u.side = b.army;
  u.knowledge = k;
  u.troop_type = "horse-holders";
  for (const auto& r : bases) u.bases.push_back(rect_view(r));
  u.base_count = 1;
  u.position = b.horse_holders.value_or(b.position);
  u.facing_deg = b.facing_deg;
  if (k != Knowledge::kSeen) {
    u.name = "Horses of " + (b.name.empty() ? b.id : b.name);
    u.command = b.command;
    u.wing = b.wing;
  }
}

}  // namespace

SightGrain sight_grain(const ViewSettings& settings) {
  return settings.side_shared_vision ? SightGrain::kSide : SightGrain::kSeat;
}

View view_for(const GameState& s, std::string_view seat_id, const ViewSettings& settings) {
  return view_for(s, *sight_table(s, sight_grain(settings)), seat_id, settings);
}

void for_each_shown(const GameState& s, const SightTable& sight, std::string_view seat_id,
                    const ViewSettings& settings, const std::function<void(std::size_t, Knowledge)>& shown) {
  if (!sight.serves(sight_grain(settings))) {
    // A side's table cannot tell one wing's sight from another's.
    for_each_shown(s, *sight_table(s, sight_grain(settings)), seat_id, settings, shown);
    return;
  }
  const std::vector<Seat>& seats = sight.seats;
  auto it = std::find_if(seats.begin(), seats.end(), [&](const Seat& x) { return x.id == seat_id; });
  if (it == seats.end() || it->role == SeatRole::kSpectator) return;
  const Seat& seat = *it;

  const MalbrookScene& scene = sight.scene;
  const std::vector<SeatMask>* seen_by = nullptr;  // set for every seat but the umpire
  SeatMask mine = 0;
  if (seat.role != SeatRole::kUmpire) {
    // The seat's own eyes, and with side-shared vision its whole side's.
    for (std::size_t i = 0; i < seats.size() && i < 64; ++i) {
      const bool own = seats[i].id == seat.id;
      const bool shared = settings.side_shared_vision && seats[i].side == seat.side;
      if (own || shared) mine |= SeatMask{1} << i;
    }
    seen_by = &sight.seen_by;
  }

  // The seat's own pieces are those the scene gives it as owner (one
  // comparison a piece, where asking `commands` compares seat names).
  const auto seat_at = static_cast<std::uint32_t>(it - seats.begin());
  for (std::size_t i = 0; i < scene.refs.size(); ++i) {
    const PieceRef ref = scene.refs[i];
    if (seat.role == SeatRole::kUmpire) {
      shown(i, Knowledge::kUmpire);
      continue;
    }
    const std::string* side = nullptr;
    switch (ref.kind) {
      case PieceKind::kBrigade:
      case PieceKind::kHorseHolders: side = &s.brigades[ref.index].army; break;
      case PieceKind::kGun: side = &s.guns[ref.index].army; break;
      case PieceKind::kLeader: side = &s.leaders[ref.index].army; break;
      case PieceKind::kMessenger: side = &s.messengers[ref.index].army; break;
    }
    const bool own = scene.owners[i] == seat_at;
    const bool seen = ((*seen_by)[i] & mine) != 0;
    if (own) {
      shown(i, Knowledge::kOwn);
    } else if (*side == seat.side) {
      // Messengers of the seat's own side are always shown (RULINGS.md R23).
      if (!settings.side_shared_vision && !seen && ref.kind != PieceKind::kMessenger) continue;
      shown(i, Knowledge::kFriendly);
    } else if (seen) {
      shown(i, Knowledge::kSeen);
    }
  }
}

View view_for(const GameState& s, const SightTable& sight, std::string_view seat_id, const ViewSettings& settings) {
  View v;
  ViewUpdate update;
  refresh_view(s, sight, seat_id, settings, v, update);
  return v;
}

void refresh_view(const GameState& s, const SightTable& sight, std::string_view seat_id,
                  const ViewSettings& settings, View& v, ViewUpdate& update) {
  // Every header field is assigned: `v` may hold another state's view.
  v.ruleset = kRulesetName;
  v.scenario = s.scenario;
  v.title = s.title;
  v.seat = seat_id;
  v.table_width = s.table_width;
  v.table_depth = s.table_depth;
  v.unit_name = kUnitName;
  v.turn = s.turn;
  v.phase = to_string(s.phase);
  v.turn_limit = s.turn_limit;
  v.sides.clear();
  for (const auto& a : s.armies) v.sides.push_back({a.id, a.name, a.id == s.attacker});
  v.side.clear();
  const auto& seats = sight.seats;
  auto it = std::find_if(seats.begin(), seats.end(), [&](const Seat& x) { return x.id == seat_id; });
  if (it != seats.end() && it->role != SeatRole::kSpectator) v.side = it->side;

  ViewRefresh refresh(v, update);
  for (const auto& f : s.features) {
    terrain_view(refresh.next_terrain(), s, f);
    refresh.place_terrain();
  }
  refresh.expect_units(sight.scene.refs.size());  // at most every piece
  for_each_shown(s, sight, seat_id, settings, [&](std::size_t i, Knowledge k) {
    const PieceRef ref = sight.scene.refs[i];
    const auto& bases = sight.scene.scene.objects[i].bases;
    UnitView& u = refresh.next_unit();
    switch (ref.kind) {
      case PieceKind::kBrigade: brigade_view(u, s.brigades[ref.index], bases, k); break;
      case PieceKind::kGun: gun_view(u, s.guns[ref.index], bases, k); break;
      case PieceKind::kLeader: leader_view(u, s.leaders[ref.index], bases, k); break;
      case PieceKind::kMessenger: messenger_view(u, s, s.messengers[ref.index], bases, k); break;
      case PieceKind::kHorseHolders: horse_holder_view(u, s.brigades[ref.index], bases, k); break;
    }
    refresh.place_unit();
  });
  refresh.finish();
}

std::string shown_id(const GameState& s, PieceRef ref) {
  switch (ref.kind) {
    case PieceKind::kBrigade: return s.brigades[ref.index].id;
    case PieceKind::kGun: return s.guns[ref.index].id;
    case PieceKind::kLeader: return s.leaders[ref.index].id;
    case PieceKind::kMessenger: return s.messengers[ref.index].id;
    case PieceKind::kHorseHolders: return horse_holder_id(s.brigades[ref.index]);
  }
  return {};
}

}  // namespace galloper::rules::malbrook
