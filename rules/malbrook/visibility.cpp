#include "rules/malbrook/visibility.hpp"

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
  o.at_cover_edge = terrain.at_edge_of(poly, AreaKind::kWood, kCoverEdgeDepth) != nullptr ||
                    terrain.at_edge_of(poly, AreaKind::kTown, kCoverEdgeDepth) != nullptr;
}

// A scene whose pieces' places on the terrain build_scene may reuse: the
// last sight table's, when it was worked out on this state's terrain.
const MalbrookScene* placed_like(const GameState& state, const SightTable* last) {
  return last != nullptr && last->features == state.features ? &last->scene : nullptr;
}

}  // namespace

MalbrookScene build_scene(const GameState& state, const std::vector<Seat>& seats, const MalbrookScene* like) {
  // The seat that commands a piece (seats.hpp, seat_of), found by asking
  // each seat rather than building the piece's seat name: a scene is built
  // for every sight-table lookup, to compare with the memo.
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

  MalbrookScene out;
  std::uint32_t next_id = 0;
  // A piece observes for its owner's bit (seats past the 64th have none),
  // unless it observes nothing.
  auto add = [&](SceneObject o, PieceRef ref, double facing_deg, std::uint32_t owner, bool observes = true) {
    o.observer_for = observes && owner < 64 ? SeatMask{1} << owner : SeatMask{0};
    const std::size_t at = out.refs.size();
    if (like != nullptr && at < like->refs.size() && at < like->facings.size() &&
        at < like->scene.objects.size() && like->refs[at] == ref && like->facings[at] == facing_deg &&
        like->scene.objects[at].bases == o.bases) {
      const SceneObject& before = like->scene.objects[at];
      o.elevation = before.elevation;
      o.significantly_high = before.significantly_high;
      o.at_cover_edge = before.at_cover_edge;
    } else {
      place_on_terrain(o, state.terrain, facing_deg);
    }
    out.scene.objects.push_back(std::move(o));
    out.refs.push_back(ref);
    out.facings.push_back(facing_deg);
    out.owners.push_back(owner);
  };
  for (std::size_t i = 0; i < state.brigades.size(); ++i) {
    const Brigade& b = state.brigades[i];
    if (b.has(Status::kDestroyed) || b.has(Status::kSurrendered) || b.bases == 0) continue;
    SceneObject o;
    o.id = next_id++;
    o.kind = b.formation == Formation::kUnformed ? SceneKind::kUnformed : SceneKind::kFormed;
    o.bases = footprint(b);
    // Foot "shoot" in close combat; troops at a wood's edge are then seen.
    o.shot_this_turn = b.has(Status::kInCombat);
    add(std::move(o), {PieceKind::kBrigade, i}, b.facing_deg, owner_of(b, last_brigade));
  }
  for (std::size_t i = 0; i < state.guns.size(); ++i) {
    const Gun& g = state.guns[i];
    SceneObject o;
    o.id = next_id++;
    o.kind = SceneKind::kGun;
    o.bases = {footprint(g)};
    o.shot_this_turn = g.has(Status::kFired);
    // Crews that abandoned their guns observe nothing from them.
    add(std::move(o), {PieceKind::kGun, i}, g.facing_deg, owner_of(g, last_gun), !g.has(Status::kAbandoned));
  }
  for (std::size_t i = 0; i < state.leaders.size(); ++i) {
    const Leader& l = state.leaders[i];
    if (l.killed || l.captured) continue;
    SceneObject o;
    o.id = next_id++;
    o.kind = SceneKind::kLeader;
    o.bases = {footprint(l)};
    add(std::move(o), {PieceKind::kLeader, i}, l.facing_deg, owner_of(l, last_leader));
  }
  for (std::size_t i = 0; i < state.messengers.size(); ++i) {
    const Messenger& m = state.messengers[i];
    SceneObject o;
    o.id = next_id++;
    o.kind = SceneKind::kMessenger;
    o.bases = {footprint(m)};
    const std::string seat = seat_of(state, m);  // its sender's: the sender looked up once
    add(std::move(o), {PieceKind::kMessenger, i}, m.facing_deg,
        owner_where([&](std::string_view id) { return id == seat; }));
  }
  for (std::size_t i = 0; i < state.brigades.size(); ++i) {
    const Brigade& b = state.brigades[i];
    if (!b.horse_holders || b.has(Status::kDestroyed) || b.has(Status::kSurrendered) || b.bases == 0) continue;
    SceneObject o;
    o.id = next_id++;
    o.kind = SceneKind::kMarker;
    o.bases = {horse_holder_footprint(b)};
    add(std::move(o), {PieceKind::kHorseHolders, i}, b.facing_deg, owner_of(b, last_brigade));
  }
  return out;
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
  MalbrookScene scene = build_scene(state, seats, like);
  if (same_terrain && last->serves(grain) && last->scene == scene && last->seats == seats) return last;
  auto table = std::make_shared<SightTable>();
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
    std::map<std::pair<PieceKind, std::size_t>, std::uint32_t> before;
    for (std::size_t j = 0; j < last->scene.refs.size(); ++j) {
      before.emplace(std::pair{last->scene.refs[j].kind, last->scene.refs[j].index}, static_cast<std::uint32_t>(j));
    }
    std::vector<std::uint32_t> last_index(scene.refs.size(), kNewObject);
    for (std::size_t i = 0; i < scene.refs.size(); ++i) {
      const auto it = before.find({scene.refs[i].kind, scene.refs[i].index});
      if (it != before.end()) last_index[i] = it->second;
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
