#include "rules/malbrook/visibility.hpp"

#include <array>
#include <cassert>
#include <map>

#include "rules/malbrook/basing.hpp"
#include "rules/malbrook/seats.hpp"

namespace galloper::rules::malbrook {

VisibilityRules visibility_rules() {
  VisibilityRules r;
  r.open_range = 36;
  r.elevated_range = 48;
  r.cover_range = 2;
  r.cover_edge_seen_range = 2;
  r.cover_edge_depth = kCoverEdgeDepth;
  r.see_over_min_distance = 2;
  r.unformed_see_beyond = 2;
  return r;
}

namespace {

// Troops at a fortification: their footprint on the drawn work or against it
// (within base-to-base contact of its edge).
bool at_fortification(const TerrainMap& terrain, const Polygon& poly) {
  constexpr double kAgainst = 0.05;
  std::vector<std::uint32_t> near;
  terrain.linears_near(poly.bounds().expanded(kAgainst), near);  // their boxes hold their widths
  for (const std::uint32_t i : near) {
    const Linear& l = terrain.linears()[i];
    if (l.kind != LinearKind::kFortification) continue;
    for (std::size_t k = 0; k < l.path.segment_count(); ++k) {
      if (distance(poly, l.path.segment(k)) <= l.width / 2 + kAgainst) return true;
    }
  }
  return false;
}

// Ground, cover and smoke for one object, judged at its footprint.
void place_on_terrain(SceneObject& o, const TerrainMap& terrain, double facing_deg) {
  const OrientedRect env = envelope(o.bases, facing_deg);
  // "Troops on higher elevation (hill or fortification)": judged where the
  // body of the troops stands, the centre of its footprint.
  if (const Hill* h = terrain.top_hill_at(env.center)) {
    o.elevation = h->elevation;
    o.significantly_high = h->significantly_high;
  }
  const Polygon poly = env.polygon();
  // ... and troops at a fortification stand a fortification's height above
  // that ground (RULINGS R20).
  if (at_fortification(terrain, poly)) o.elevation += kFortificationHeight;
  o.at_cover_edge = terrain.at_edge_of(poly, AreaKind::kWood, kCoverEdgeDepth) != nullptr ||
                    terrain.at_edge_of(poly, AreaKind::kTown, kCoverEdgeDepth) != nullptr;
}

// A scene whose pieces' places on the terrain build_scene may reuse: the
// last sight table's, when it was worked out on this state's terrain.
const MalbrookScene* placed_like(const GameState& state, const SightTable* last) {
  return last != nullptr && last->features == state.features ? &last->scene : nullptr;
}

}  // namespace

namespace {

// Every piece a scene shows, in scene order, with what build_scene reads of
// it (its SceneKey): visit(key, make), where make() gives the piece's scene
// object but for its id, seats and place on the terrain (its kind, bases and
// shot). build_scene and the keys' walks both walk this one list, so a key
// says all a scene object is made of. A visit that returns false ends the
// walk, and walk_scene returns false.
template <class Visit>
bool walk_scene(const GameState& state, const std::vector<Seat>& seats, Visit&& visit) {
  // The seat that commands a piece (seats.hpp, seat_of), found by asking
  // each seat rather than building the piece's seat name: a scene's keys are
  // worked out for every sight-table lookup, to compare with the memo.
  auto owner_where = [&](const auto& is_its_seat) {
    for (std::size_t i = 0; i < seats.size(); ++i) {
      if (is_its_seat(seats[i].id)) return static_cast<std::uint32_t>(i);
    }
    return MalbrookScene::kNoOwner;
  };
  // commands(seat, piece) depends only on the piece's army and wing, and the
  // pieces of a wing come one after another: each kind of piece keeps the
  // last answer and asks the seats again only when those change.
  struct LastOwner {
    std::string_view army;
    std::string_view wing;
    std::uint32_t owner = MalbrookScene::kNoOwner;
    bool set = false;
  };
  LastOwner last_brigade, last_gun, last_leader;
  auto owner_of = [&](const auto& piece, LastOwner& last) {
    if (!last.set || piece.army != last.army || piece.wing != last.wing) {
      last = {piece.army, piece.wing, owner_where([&](std::string_view seat) { return commands(seat, piece); }), true};
    }
    return last.owner;
  };
  auto key = [](PieceRef ref, Vec2 position, double facing_deg, std::uint32_t owner, std::uint32_t shape,
                std::uint32_t flags) {
    SceneKey k;
    k.ref = ref;
    k.position = position;
    k.facing_deg = facing_deg;
    k.owner = owner;
    k.shape = shape;
    k.flags = flags;
    return k;
  };
  auto u32 = [](auto e) { return static_cast<std::uint32_t>(e); };

  for (std::size_t i = 0; i < state.brigades.size(); ++i) {
    const Brigade& b = state.brigades[i];
    if (b.has(Status::kDestroyed) || b.has(Status::kSurrendered) || b.bases == 0) continue;
    // Foot "shoot" in close combat; troops at a wood's edge are then seen.
    const bool shot = b.has(Status::kInCombat);
    SceneKey k = key({PieceKind::kBrigade, i}, b.position, b.facing_deg, owner_of(b, last_brigade),
                     u32(b.formation) | u32(b.type) << 8 | u32(b.style) << 16,
                     (shot ? SceneKey::kShot : 0u) | SceneKey::kObserves);
    k.count = b.bases;
    k.poses = b.base_poses;  // footprint(b) may lay the bases out by them
    auto make = [&] {
      SceneObject o;
      o.kind = b.formation == Formation::kUnformed ? SceneKind::kUnformed : SceneKind::kFormed;
      o.bases = footprint(b);
      o.shot_this_turn = shot;
      return o;
    };
    if (!visit(std::move(k), make)) return false;
  }
  for (std::size_t i = 0; i < state.guns.size(); ++i) {
    const Gun& g = state.guns[i];
    const bool shot = g.has(Status::kFired);
    // Crews that abandoned their guns observe nothing from them.
    const bool observes = !g.has(Status::kAbandoned);
    SceneKey k = key({PieceKind::kGun, i}, g.position, g.facing_deg, owner_of(g, last_gun), u32(g.weight),
                     (shot ? SceneKey::kShot : 0u) | (observes ? SceneKey::kObserves : 0u));
    auto make = [&] {
      SceneObject o;
      o.kind = SceneKind::kGun;
      o.bases = {footprint(g)};
      o.shot_this_turn = shot;
      return o;
    };
    if (!visit(std::move(k), make)) return false;
  }
  for (std::size_t i = 0; i < state.leaders.size(); ++i) {
    const Leader& l = state.leaders[i];
    if (l.killed || l.captured) continue;
    SceneKey k = key({PieceKind::kLeader, i}, l.position, l.facing_deg, owner_of(l, last_leader), u32(l.rank),
                     SceneKey::kObserves);
    auto make = [&] {
      SceneObject o;
      o.kind = SceneKind::kLeader;
      o.bases = {footprint(l)};
      return o;
    };
    if (!visit(std::move(k), make)) return false;
  }
  for (std::size_t i = 0; i < state.messengers.size(); ++i) {
    const Messenger& m = state.messengers[i];
    const std::string seat = seat_of(state, m);  // its sender's: the sender looked up once
    const std::uint32_t owner = owner_where([&](std::string_view id) { return id == seat; });
    SceneKey k = key({PieceKind::kMessenger, i}, m.position, m.facing_deg, owner, 0, SceneKey::kObserves);
    auto make = [&] {
      SceneObject o;
      o.kind = SceneKind::kMessenger;
      o.bases = {footprint(m)};
      return o;
    };
    if (!visit(std::move(k), make)) return false;
  }
  for (std::size_t i = 0; i < state.brigades.size(); ++i) {
    const Brigade& b = state.brigades[i];
    if (!b.horse_holders || b.has(Status::kDestroyed) || b.has(Status::kSurrendered) || b.bases == 0) continue;
    SceneKey k = key({PieceKind::kHorseHolders, i}, *b.horse_holders, b.facing_deg, owner_of(b, last_brigade),
                     u32(b.style), SceneKey::kObserves);
    auto make = [&] {
      SceneObject o;
      o.kind = SceneKind::kMarker;
      o.bases = {horse_holder_footprint(b)};
      return o;
    };
    if (!visit(std::move(k), make)) return false;
  }
  return true;
}

}  // namespace

MalbrookScene build_scene(const GameState& state, const std::vector<Seat>& seats, const MalbrookScene* like,
                          std::vector<SceneKey>* keys) {
  MalbrookScene out;
  if (keys != nullptr) keys->clear();
  std::uint32_t next_id = 0;
  walk_scene(state, seats, [&](SceneKey&& k, const auto& make) {
    SceneObject o = make();
    o.id = next_id++;
    // A piece observes for its owner's bit (seats past the 64th have none),
    // unless it observes nothing.
    o.observer_for = (k.flags & SceneKey::kObserves) != 0 && k.owner < 64 ? SeatMask{1} << k.owner : SeatMask{0};
    const std::size_t at = out.refs.size();
    if (like != nullptr && at < like->refs.size() && at < like->facings.size() && at < like->scene.objects.size() &&
        like->refs[at] == k.ref && like->facings[at] == k.facing_deg && like->scene.objects[at].bases == o.bases) {
      const SceneObject& before = like->scene.objects[at];
      o.elevation = before.elevation;
      o.significantly_high = before.significantly_high;
      o.at_cover_edge = before.at_cover_edge;
    } else {
      place_on_terrain(o, state.terrain, k.facing_deg);
    }
    out.scene.objects.push_back(std::move(o));
    out.refs.push_back(k.ref);
    out.facings.push_back(k.facing_deg);
    out.owners.push_back(k.owner);
    if (keys != nullptr) keys->push_back(std::move(k));
    return true;
  });
  return out;
}

std::vector<SceneKey> scene_keys(const GameState& state, const std::vector<Seat>& seats) {
  std::vector<SceneKey> keys;
  keys.reserve(state.brigades.size() + state.guns.size() + state.leaders.size() + state.messengers.size());
  walk_scene(state, seats, [&](SceneKey&& k, const auto&) {
    keys.push_back(std::move(k));
    return true;
  });
  return keys;
}

bool scene_keys_are(const GameState& state, const std::vector<Seat>& seats, const std::vector<SceneKey>& keys) {
  std::size_t at = 0;
  const bool walked =
      walk_scene(state, seats, [&](const SceneKey& k, const auto&) { return at < keys.size() && keys[at++] == k; });
  return walked && at == keys.size();
}

SceneLookup::SceneLookup(const GameState& state)
    : terrain_(state.terrain), ms_(build_scene(state, seats_of(state), placed_like(state, state.sight_memo.get().get()))) {
  for (std::size_t i = 0; i < ms_.refs.size(); ++i) at_[{static_cast<int>(ms_.refs[i].kind), ms_.refs[i].index}] = i;
}

std::optional<std::size_t> SceneLookup::find(PieceKind kind, std::size_t index) const {
  auto it = at_.find({static_cast<int>(kind), index});
  if (it == at_.end()) return std::nullopt;
  return it->second;
}

bool SceneLookup::sees(std::size_t observer, std::size_t target) const {
  if (!queries_) queries_ = std::make_unique<SightQueries>(ms_.scene, terrain_, visibility_rules());
  return queries_->sees(observer, target);
}

SeatMask SightTable::side_mask(std::string_view army) const {
  SeatMask mask = 0;
  for (std::size_t i = 0; i < seats.size() && i < 64; ++i) {
    if (!army.empty() && seats[i].side == army) mask |= SeatMask{1} << i;
  }
  return mask;
}

std::shared_ptr<const SightTable> sight_table(const GameState& state, SightGrain grain) {
  if (state.sight_memo.grain() == SightGrain::kSeat) grain = SightGrain::kSeat;
  std::vector<Seat> seats = seats_of(state);
  const auto last = state.sight_memo.get();
  const MalbrookScene* like = placed_like(state, last.get());
  const bool same_terrain = like != nullptr;  // the last table was worked out on this terrain
  const bool may_serve = same_terrain && last->serves(grain) && last->seats == seats;
  // Most lookups find the memo still good: its keys tell without the
  // scene's bases being laid out (SceneKey).
  if (may_serve && scene_keys_are(state, seats, last->keys)) {
    assert(build_scene(state, seats, like) == last->scene && "equal scene keys give another scene");
    return last;
  }
  std::vector<SceneKey> keys;
  MalbrookScene scene = build_scene(state, seats, like, &keys);
  // Other keys can still make the same scene (a brigade's base poses set to
  // where its layout puts them): the memo serves then too, as before keys.
  if (may_serve && last->scene == scene) return last;
  auto table = std::make_shared<SightTable>();
  table->keys = std::move(keys);
  table->grain = grain;
  table->seats = std::move(seats);
  Scene sided;
  if (grain == SightGrain::kSide) {
    // Every piece observes for its whole side: the seats of its own seat's side.
    std::vector<SeatMask> side_of_seat;  // bit i's side, as a mask
    for (std::size_t i = 0; i < table->seats.size() && i < 64; ++i) {
      side_of_seat.push_back(table->side_mask(table->seats[i].side));
    }
    sided = scene.scene;
    for (auto& o : sided.objects) {
      SeatMask mask = 0;
      for (std::size_t i = 0; i < side_of_seat.size(); ++i) {
        if ((o.observer_for & (SeatMask{1} << i)) != 0) mask |= side_of_seat[i];
      }
      o.observer_for = mask;
    }
  }
  const Scene& computed = grain == SightGrain::kSide ? sided : scene.scene;
  std::shared_ptr<VisibilityEngine> warm = last != nullptr ? last->spare_engine.exchange(nullptr) : nullptr;
  if (warm == nullptr) warm = std::make_shared<VisibilityEngine>();
  VisibilityEngine& engine = *warm;
  if (same_terrain && last->grain == grain && last->seats == table->seats &&
      last->record.scene.objects.size() == last->scene.refs.size()) {
    // The state's last table, on the same terrain for the same seats: start
    // from it. Pieces are matched by kind and index (a piece keeps its index
    // in the state); an unchanged piece's scene object is equal to its last.
    // Each kind's pieces by index: where each stood in the last scene.
    std::array<std::vector<std::uint32_t>, kPieceKinds> before;
    for (std::size_t j = 0; j < last->scene.refs.size(); ++j) {
      auto& at = before[static_cast<std::size_t>(last->scene.refs[j].kind)];
      const std::size_t index = last->scene.refs[j].index;
      if (at.size() <= index) at.resize(index + 1, kNewObject);
      at[index] = static_cast<std::uint32_t>(j);
    }
    std::vector<std::uint32_t> last_index(scene.refs.size(), kNewObject);
    for (std::size_t i = 0; i < scene.refs.size(); ++i) {
      const auto& at = before[static_cast<std::size_t>(scene.refs[i].kind)];
      if (scene.refs[i].index < at.size()) last_index[i] = at[scene.refs[i].index];
    }
    table->seen_by = engine.compute_from(last->record, last_index, computed, state.terrain, visibility_rules(),
                                         &table->record);
    table->from_last = engine.started_from_last();
  } else {
    table->seen_by = engine.compute(computed, state.terrain, visibility_rules(), &table->record);
  }
  table->scene = std::move(scene);
  table->features = state.features;
  table->spare_engine.store(std::move(warm));
  state.sight_memo.set(table);
  return table;
}

}  // namespace galloper::rules::malbrook
