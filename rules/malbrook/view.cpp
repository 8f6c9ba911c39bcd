#include "rules/malbrook/view.hpp"

#include <algorithm>
#include <cassert>

#include "rules/malbrook/basing.hpp"
#include "rules/malbrook/seats.hpp"
#include "rules/malbrook/visibility.hpp"

namespace galloper::rules::malbrook {

namespace {

// Markers a player at the table can see on any brigade or gun.
constexpr std::uint32_t kVisibleMarkers =
    static_cast<std::uint32_t>(Status::kHalted) | static_cast<std::uint32_t>(Status::kInspired) |
    static_cast<std::uint32_t>(Status::kCharging) | static_cast<std::uint32_t>(Status::kEvading) |
    static_cast<std::uint32_t>(Status::kRetiring) | static_cast<std::uint32_t>(Status::kRouting) |
    static_cast<std::uint32_t>(Status::kPursuing) | static_cast<std::uint32_t>(Status::kLooting) |
    static_cast<std::uint32_t>(Status::kInCombat) | static_cast<std::uint32_t>(Status::kFired) |
    static_cast<std::uint32_t>(Status::kAbandoned) | static_cast<std::uint32_t>(Status::kDestroyed) |
    static_cast<std::uint32_t>(Status::kSurrendered);

// The status entries of `bits` that `shown` lets through, in bit order.
template <class Out>
void status_list(Out& u, std::uint32_t bits, std::uint32_t shown) {
  if ((bits & shown) == 0) return;  // most pieces, most steps
  for (std::uint32_t i = 0; i < kStatusCount; ++i) {
    const std::uint32_t b = 1u << i;
    if ((bits & shown & b) != 0) u.status(to_string(static_cast<Status>(b)));
  }
}

// Fills `t`, a cleared TerrainView.
void terrain_view(TerrainView& t, const GameState& s, const Feature& f) {
  rules::terrain_view(t, f, s.features, feature_sizes());
}

// Who and where: the fields every piece's unit gives alike, to a UnitFill
// or a UnitMatch. No piece is shown as last seen: a view is of the table as
// it stands. Inlined into each describer: a call of its own per unit cost
// 1% of a big-battle turn.
template <class Out>
[[gnu::always_inline]] inline void placed(Out& u, std::string_view id, UnitKind kind, std::string_view side,
                                          Knowledge k, Vec2 position, double facing_deg,
                                          const std::vector<OrientedRect>& bases, std::uint32_t base_count) {
  u.text(&UnitView::id, id);
  u.value(&UnitView::kind, kind);
  u.text(&UnitView::side, side);
  u.value(&UnitView::knowledge, k);
  u.value(&UnitView::position, position);
  u.value(&UnitView::facing_deg, facing_deg);
  u.value(&UnitView::base_count, base_count);
  u.bases(bases);
  u.value(&UnitView::last_seen_turn, 0);
}

// Each describes one piece's unit to `u`, a UnitFill or a UnitMatch
// (view_update.hpp): every field of UnitView (placed, then the rest), in the
// same calls whichever the branch. `bases`: the piece's footprint, as the
// sight table's scene holds it.
template <class Out>
void brigade_view(Out& u, const Brigade& b, const std::vector<OrientedRect>& bases, Knowledge k) {
  const bool full = k != Knowledge::kSeen;
  placed(u, b.id, UnitKind::kBrigade, b.army, k, b.position, b.facing_deg, bases, b.bases);
  u.value(&UnitView::dps, b.dps);
  u.text(&UnitView::troop_type, to_string(b.type));
  u.text(&UnitView::formation, to_string(b.formation));
  status_list(u, b.status, full ? ~0u : kVisibleMarkers);
  u.text(&UnitView::name, full ? std::string_view(b.name) : "");
  u.text(&UnitView::grade, full ? to_string(b.grade) : "");
  u.text(&UnitView::command, full ? std::string_view(b.command) : "");
  u.text(&UnitView::wing, full ? std::string_view(b.wing) : "");
  u.text(&UnitView::rank, "");
  u.text(&UnitView::noun, "");
  u.text(&UnitView::attached_to, "");
}

template <class Out>
void gun_view(Out& u, const Gun& g, const std::vector<OrientedRect>& bases, Knowledge k) {
  const bool full = k != Knowledge::kSeen;
  placed(u, g.id, UnitKind::kGun, g.army, k, g.position, g.facing_deg, bases, 1);
  u.value(&UnitView::dps, g.dps);
  u.text(&UnitView::troop_type, to_string(g.weight));
  u.text(&UnitView::formation, "");
  status_list(u, g.status, full ? ~0u : kVisibleMarkers);
  if (g.limbered) u.status("limbered");
  u.text(&UnitView::name, full ? std::string_view(g.name) : "");
  u.text(&UnitView::grade, "");
  u.text(&UnitView::command, full ? std::string_view(g.command) : "");
  u.text(&UnitView::wing, full ? std::string_view(g.wing) : "");
  u.text(&UnitView::rank, "");
  u.text(&UnitView::noun, "");
  u.text(&UnitView::attached_to, "");
}

// `attachment_shown`: the seat is shown the brigade he is attached to. A
// leader the seat sees but does not own (an enemy, or with wing-only vision
// a friend of another wing) names his brigade only then (RULINGS R21).
template <class Out>
void leader_view(Out& u, const Leader& l, const std::vector<OrientedRect>& bases, Knowledge k, bool attachment_shown) {
  const bool full = k != Knowledge::kSeen;
  placed(u, l.id, UnitKind::kLeader, l.army, k, l.position, l.facing_deg, bases, 1);
  u.value(&UnitView::dps, 0);
  u.text(&UnitView::troop_type, "");
  u.text(&UnitView::formation, "");
  if (full && l.wounds > 0) u.status("wounded");
  u.text(&UnitView::name, full ? std::string_view(l.name) : "");
  u.text(&UnitView::grade, "");
  u.text(&UnitView::command, full ? std::string_view(l.command) : "");
  u.text(&UnitView::wing, full ? std::string_view(l.wing) : "");
  // The rank shows in the figures on the stand; attachment on the table,
  // to a seat that sees the brigade.
  u.text(&UnitView::rank, to_string(l.rank));
  u.text(&UnitView::noun, "");
  u.text(&UnitView::attached_to, attachment_shown ? std::string_view(l.attached_to) : "");
}

// "Messenger Marker -- a single mounted staff officer or rider". Whom it
// carries a message to, and from whom, only its own side knows.
template <class Out>
void messenger_view(Out& u, const GameState& s, const Messenger& m, const std::vector<OrientedRect>& bases,
                    Knowledge k) {
  const bool full = k != Knowledge::kSeen;
  placed(u, m.id, UnitKind::kMessenger, m.army, k, m.position, m.facing_deg, bases, 1);
  u.value(&UnitView::dps, 0);
  u.text(&UnitView::troop_type, "messenger");
  u.text(&UnitView::formation, "");
  std::string name;
  if (full) {
    const Leader* from = s.find_leader(m.from);
    const Leader* to = s.find_leader(m.to);
    name = "Messenger from " + (from != nullptr && !from->name.empty() ? from->name : m.from) + " to " +
           (to != nullptr && !to->name.empty() ? to->name : m.to);
  }
  u.text(&UnitView::name, name);
  u.text(&UnitView::grade, "");
  u.text(&UnitView::command, "");
  u.text(&UnitView::wing, "");
  u.text(&UnitView::rank, "");
  u.text(&UnitView::noun, "");
  u.text(&UnitView::attached_to, "");
}

// "Horse-holder Marker ... to mark the location of the horses of dismounted dragoons".
template <class Out>
void horse_holder_view(Out& u, const Brigade& b, std::string_view id, const std::vector<OrientedRect>& bases,
                       Knowledge k) {
  const bool full = k != Knowledge::kSeen;
  placed(u, id, UnitKind::kMarker, b.army, k, b.horse_holders.value_or(b.position), b.facing_deg, bases, 1);
  u.value(&UnitView::dps, 0);
  u.text(&UnitView::troop_type, "horse-holders");
  u.text(&UnitView::formation, "");
  u.text(&UnitView::name, full ? "Horses of " + (b.name.empty() ? b.id : b.name) : std::string());
  u.text(&UnitView::grade, "");
  u.text(&UnitView::command, full ? std::string_view(b.command) : "");
  u.text(&UnitView::wing, full ? std::string_view(b.wing) : "");
  u.text(&UnitView::rank, "");
  u.text(&UnitView::noun, "");
  u.text(&UnitView::attached_to, "");
}

}  // namespace

SightGrain sight_grain(const ViewSettings& settings) {
  return settings.side_shared_vision ? SightGrain::kSide : SightGrain::kSeat;
}

View view_for(const GameState& s, std::string_view seat_id, const ViewSettings& settings) {
  return view_for(s, *sight_table(s, sight_grain(settings)), seat_id, settings);
}

ShownTo::ShownTo(const GameState& s, const SightTable& sight, std::string_view seat_id, const ViewSettings& settings)
    : state_(s), sight_(&sight), side_shared_(settings.side_shared_vision) {
  if (!sight.serves(sight_grain(settings))) {
    // A side's table cannot tell one wing's sight from another's.
    own_ = sight_table(s, sight_grain(settings));
    sight_ = own_.get();
  }
  const std::vector<Seat>& seats = sight_->seats;
  auto it = std::find_if(seats.begin(), seats.end(), [&](const Seat& x) { return x.id == seat_id; });
  if (it == seats.end() || it->role == SeatRole::kSpectator) return;
  shown_nothing_ = false;
  umpire_ = it->role == SeatRole::kUmpire;
  side_ = it->side;
  if (umpire_) return;
  // The seat's own pieces are those the scene gives it as owner (one
  // comparison a piece, where asking `commands` compares seat names).
  seat_at_ = static_cast<std::uint32_t>(it - seats.begin());
  for (std::size_t i = 0; i < seats.size() && i < 64; ++i) {
    if (seats[i].side == side_) side_seats_ |= SeatMask{1} << i;
  }
  // The seat's own eyes, and with side-shared vision its whole side's.
  if (seat_at_ < 64) mine_ = SeatMask{1} << seat_at_;
  if (side_shared_) mine_ |= side_seats_;
}

void for_each_shown(const GameState& s, const SightTable& sight, std::string_view seat_id,
                    const ViewSettings& settings, const std::function<void(std::size_t, Knowledge)>& shown) {
  const ShownTo to(s, sight, seat_id, settings);
  const std::size_t n = to.sight().scene.refs.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (const auto k = to(i)) shown(i, *k);
  }
}

View view_for(const GameState& s, const SightTable& sight, std::string_view seat_id, const ViewSettings& settings) {
  View v;
  ViewUpdate update;
  refresh_view(s, sight, seat_id, settings, v, update);
  return v;
}

ViewSince view_since(const GameState& parent, std::shared_ptr<const void> parent_basis, const GameState& s) {
  ViewSince out;
  out.parent = std::move(parent_basis);
  auto equal = [](const auto& was, const auto& now, std::vector<char>& flags) {
    flags.assign(now.size(), 0);
    for (std::size_t i = 0; i < now.size() && i < was.size(); ++i) flags[i] = was[i] == now[i] ? 1 : 0;
  };
  equal(parent.brigades, s.brigades, out.brigades);
  equal(parent.guns, s.guns, out.guns);
  equal(parent.leaders, s.leaders, out.leaders);
  out.features = parent.features == s.features;
  return out;
}

void refresh_view(const GameState& s, const SightTable& sight, std::string_view seat_id,
                  const ViewSettings& settings, View& v, ViewUpdate& update, const ViewSince* since,
                  std::vector<std::uint32_t>* shown_at) {
  // Of the parent state: unchanged pieces keep their units (ViewSince).
  const bool of_parent = since != nullptr && since->parent != nullptr && v.basis.state == since->parent;
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
  const ShownTo shown(s, sight, seat_id, settings);
  v.side = shown.side();

  ViewRefresh refresh(v, update);
  if (of_parent && since->features && v.terrain.size() == s.features.size()) {
#ifndef NDEBUG
    // Debug builds (the tests) build it anyway and hold the view's to it.
    TerrainView built;
    for (std::size_t i = 0; i < s.features.size(); ++i) {
      terrain_view(built, s, s.features[i]);
      assert(built == v.terrain[i] && "unchanged features give other terrain");
      built = TerrainView{};
    }
#endif
    refresh.keep_terrain();
  } else {
    for (const auto& f : s.features) {
      terrain_view(refresh.next_terrain(), s, f);
      refresh.place_terrain();
    }
  }
  const MalbrookScene& scene = shown.sight().scene;
  refresh.expect_units(scene.refs.size());  // at most every piece
  // Each brigade's place in the scene, worked out for the first seen leader
  // attached to one.
  std::vector<std::int64_t> brigade_at;
  auto brigade_shown = [&](std::string_view id) {
    if (brigade_at.empty()) {
      brigade_at.assign(s.brigades.size(), -1);
      for (std::size_t j = 0; j < scene.refs.size(); ++j) {
        if (scene.refs[j].kind == PieceKind::kBrigade) brigade_at[scene.refs[j].index] = static_cast<std::int64_t>(j);
      }
    }
    const Brigade* b = s.find_brigade(id);
    if (b == nullptr) return false;
    const std::int64_t at = brigade_at[static_cast<std::size_t>(b - s.brigades.data())];
    return at >= 0 && shown(static_cast<std::size_t>(at)).has_value();
  };
  if (shown_at != nullptr) shown_at->clear();
  // Each unit is compared with the one the view holds before it is built
  // (ViewRefresh::give_unit): most are unchanged, and are not built at all.
  for (std::size_t i = 0; i < scene.refs.size(); ++i) {
    const std::optional<Knowledge> known = shown(i);
    if (!known) continue;
    const Knowledge k = *known;
    if (shown_at != nullptr) shown_at->push_back(static_cast<std::uint32_t>(i));
    const PieceRef ref = scene.refs[i];
    const auto& bases = scene.scene.objects[i].bases;
    // The unit of piece `ref.index` of a list, kept without describing it
    // when the piece is unchanged since the held view's state (ViewSince).
    auto give = [&](std::string_view id, std::vector<char> ViewSince::*list, const auto& describe) {
      if (of_parent && ref.index < (since->*list).size() && (since->*list)[ref.index] != 0) {
        refresh.give_unchanged_unit(id, k, describe);
      } else {
        refresh.give_unit(id, describe);
      }
    };
    switch (ref.kind) {
      case PieceKind::kBrigade: {
        const Brigade& b = s.brigades[ref.index];
        give(b.id, &ViewSince::brigades, [&](auto& u) { brigade_view(u, b, bases, k); });
        break;
      }
      case PieceKind::kGun: {
        const Gun& g = s.guns[ref.index];
        give(g.id, &ViewSince::guns, [&](auto& u) { gun_view(u, g, bases, k); });
        break;
      }
      case PieceKind::kLeader: {
        const Leader& l = s.leaders[ref.index];
        // With side-shared vision a friend's brigade is always shown.
        const bool may_hide = k == Knowledge::kSeen || (k == Knowledge::kFriendly && !settings.side_shared_vision);
        if ((k == Knowledge::kSeen || k == Knowledge::kFriendly) && !l.attached_to.empty()) {
          // His unit depends on whether the seat sees another piece too, and
          // on the vision setting (the held view may be of the other one):
          // unchanged himself, he may still be told otherwise.
          const bool attachment_shown = !may_hide || brigade_shown(l.attached_to);
          refresh.give_unit(l.id, [&](auto& u) { leader_view(u, l, bases, k, attachment_shown); });
        } else {
          give(l.id, &ViewSince::leaders, [&](auto& u) { leader_view(u, l, bases, k, true); });
        }
        break;
      }
      case PieceKind::kMessenger: {
        const Messenger& m = s.messengers[ref.index];
        refresh.give_unit(m.id, [&](auto& u) { messenger_view(u, s, m, bases, k); });
        break;
      }
      case PieceKind::kHorseHolders: {
        const Brigade& b = s.brigades[ref.index];
        const std::string id = horse_holder_id(b);
        give(id, &ViewSince::brigades, [&](auto& u) { horse_holder_view(u, b, id, bases, k); });
        break;
      }
    }
  }
  refresh.finish();
}

namespace {

// The header fields refresh_view assigns, the seat's aside.
void copy_header(View& to, const View& from) {
  to.ruleset = from.ruleset;
  to.scenario = from.scenario;
  to.title = from.title;
  to.side = from.side;
  to.table_width = from.table_width;
  to.table_depth = from.table_depth;
  to.unit_name = from.unit_name;
  to.turn = from.turn;
  to.phase = from.phase;
  to.turn_limit = from.turn_limit;
  to.sides = from.sides;
}

}  // namespace

SideRefresh side_refresh(std::string_view seat, std::shared_ptr<const void> from, std::size_t held_units,
                         const View& refreshed, const ViewUpdate& update, std::vector<std::uint32_t> shown) {
  SideRefresh done;
  done.seat = seat;
  done.side = refreshed.side;
  done.from = std::move(from);
  done.held_units = held_units;
  copy_header(done.header, refreshed);
  done.header.seat = refreshed.seat;
  done.units = refreshed.units.size();
  done.update = update;
  done.changed.reserve(update.changed.size());
  for (const std::uint32_t place : update.changed) done.changed.push_back(refreshed.units[place]);
  done.shown = std::move(shown);
  return done;
}

bool refresh_like(const GameState& s, const SightTable& sight, std::string_view seat_id,
                  const ViewSettings& settings, View& v, ViewUpdate& update, const SideRefresh& done) {
  if (!settings.side_shared_vision || seat_id == done.seat || v.basis.state == nullptr ||
      v.basis.state != done.from || !v.basis.side_shared_vision || v.seat != seat_id ||
      v.units.size() != done.held_units || !sight.serves(sight_grain(settings))) {
    return false;
  }
  if (v.side != done.side) return false;  // the other side's seat, the umpire, a spectator
  const ShownTo shown(s, sight, seat_id, settings);
  if (shown.side().empty() || shown.side() != done.side) return false;
  // A kept messenger is told as this seat knows it now (SideRefresh).
  const MalbrookScene& scene = sight.scene;
  const auto& changed = done.update.changed;  // ascending
  std::size_t next_changed = 0;
  for (std::size_t place = 0; place < done.shown.size() && place < v.units.size(); ++place) {
    if (next_changed < changed.size() && changed[next_changed] == place) {
      ++next_changed;
      continue;
    }
    if (scene.refs[done.shown[place]].kind != PieceKind::kMessenger) continue;
    const auto known = shown(done.shown[place]);
    if (!known || *known != v.units[place].knowledge) return false;
  }
#ifndef NDEBUG
  View plain = v;
  ViewUpdate plain_update;
  refresh_view(s, sight, seat_id, settings, plain, plain_update);
#endif
  copy_header(v, done.header);
  v.seat = seat_id;
  v.basis = {};
  // Each unit kept stays in its place; a changed or new one is the other
  // seat's, told with this seat's knowledge of its piece.
  for (std::size_t j = 0; j < done.update.changed.size(); ++j) {
    const std::size_t place = done.update.changed[j];
    UnitView u = done.changed[j];
    const auto known = shown(done.shown[place]);
    assert(known && "a piece one seat of a side-shared side is shown, another is not");
    u.knowledge = *known;
    if (place < v.units.size()) {
      v.units[place] = std::move(u);
    } else {
      assert(place == v.units.size() && "new units come after the kept ones");
      v.units.push_back(std::move(u));
    }
  }
  v.units.resize(done.units);
  update = done.update;
#ifndef NDEBUG
  assert(v == plain && "a view refreshed from a side's other seat is not the seat's own");
  assert(update == plain_update && "a side's other seat's update is not the seat's own");
#endif
  return true;
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
