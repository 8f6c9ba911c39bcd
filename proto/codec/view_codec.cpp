// rules::View -> galloper::v1::GameView: a field-by-field copy, nothing added
// and nothing taken from anywhere else.
#include "codec/view_codec.hpp"

#include <cstdint>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace galloper::codec {

namespace {

namespace v1 = galloper::v1;

void point(rules::Vec2 p, v1::Point* out) {
  out->set_x(p.x);
  out->set_y(p.y);
}

v1::TerrainKind terrain_kind(rules::TerrainKind k) {
  switch (k) {
    case rules::TerrainKind::kHill: return v1::TERRAIN_KIND_HILL;
    case rules::TerrainKind::kWood: return v1::TERRAIN_KIND_WOOD;
    case rules::TerrainKind::kTown: return v1::TERRAIN_KIND_TOWN;
    case rules::TerrainKind::kMarsh: return v1::TERRAIN_KIND_MARSH;
    case rules::TerrainKind::kRough: return v1::TERRAIN_KIND_ROUGH;
    case rules::TerrainKind::kStream: return v1::TERRAIN_KIND_STREAM;
    case rules::TerrainKind::kRiver: return v1::TERRAIN_KIND_RIVER;
    case rules::TerrainKind::kHedge: return v1::TERRAIN_KIND_HEDGE;
    case rules::TerrainKind::kWall: return v1::TERRAIN_KIND_WALL;
    case rules::TerrainKind::kDitch: return v1::TERRAIN_KIND_DITCH;
    case rules::TerrainKind::kFortification: return v1::TERRAIN_KIND_FORTIFICATION;
    case rules::TerrainKind::kFieldworks: return v1::TERRAIN_KIND_FIELDWORKS;
    case rules::TerrainKind::kChevauxDeFrise: return v1::TERRAIN_KIND_CHEVAUX_DE_FRISE;
    case rules::TerrainKind::kRoad: return v1::TERRAIN_KIND_ROAD;
    case rules::TerrainKind::kBridge: return v1::TERRAIN_KIND_BRIDGE;
    case rules::TerrainKind::kFord: return v1::TERRAIN_KIND_FORD;
  }
  return v1::TERRAIN_KIND_UNSPECIFIED;
}

v1::UnitKind unit_kind(rules::UnitKind k) {
  switch (k) {
    case rules::UnitKind::kBrigade: return v1::UNIT_KIND_BRIGADE;
    case rules::UnitKind::kGun: return v1::UNIT_KIND_GUN;
    case rules::UnitKind::kLeader: return v1::UNIT_KIND_LEADER;
    case rules::UnitKind::kMessenger: return v1::UNIT_KIND_MESSENGER;
    case rules::UnitKind::kMarker: return v1::UNIT_KIND_MARKER;
  }
  return v1::UNIT_KIND_UNSPECIFIED;
}

v1::Knowledge knowledge(rules::Knowledge k) {
  switch (k) {
    case rules::Knowledge::kOwn: return v1::KNOWLEDGE_OWN;
    case rules::Knowledge::kFriendly: return v1::KNOWLEDGE_FRIENDLY;
    case rules::Knowledge::kSeen: return v1::KNOWLEDGE_SEEN;
    case rules::Knowledge::kLastSeen: return v1::KNOWLEDGE_LAST_SEEN;
    case rules::Knowledge::kUmpire: return v1::KNOWLEDGE_UMPIRE;
  }
  return v1::KNOWLEDGE_UNSPECIFIED;
}

// Empty strings are left unset: proto3 writes neither, so the bytes are the
// same, and an unset field costs no string on the arena.
void unit(const rules::UnitView& u, v1::UnitView* out) {
  out->set_id(u.id);
  out->set_kind(unit_kind(u.kind));
  if (!u.side.empty()) out->set_side(u.side);
  if (!u.name.empty()) out->set_name(u.name);
  out->set_knowledge(knowledge(u.knowledge));
  if (!u.troop_type.empty()) out->set_troop_type(u.troop_type);
  if (!u.grade.empty()) out->set_grade(u.grade);
  if (!u.formation.empty()) out->set_formation(u.formation);
  out->mutable_bases()->Reserve(static_cast<int>(u.bases.size()));
  for (const auto& b : u.bases) {
    v1::Rect* r = out->add_bases();
    point(b.center, r->mutable_center());
    r->set_width(b.width);
    r->set_depth(b.depth);
    r->set_facing_deg(b.facing_deg);
  }
  out->set_base_count(u.base_count);
  out->set_dps(u.dps);
  for (const auto& s : u.status) out->add_status(s);
  point(u.position, out->mutable_position());
  out->set_facing_deg(u.facing_deg);
  if (!u.command.empty()) out->set_command(u.command);
  if (!u.wing.empty()) out->set_wing(u.wing);
  out->set_last_seen_turn(u.last_seen_turn);
  if (!u.rank.empty()) out->set_rank(u.rank);
  if (!u.attached_to.empty()) out->set_attached_to(u.attached_to);
  if (!u.noun.empty()) out->set_noun(u.noun);
  for (const auto& c : u.counters) {
    v1::UnitCounter* pc = out->add_counters();
    pc->set_name(c.name);
    pc->set_value(c.value);
    pc->set_max(c.max);
  }
  for (const auto& a : u.attributes) {
    v1::UnitAttribute* pa = out->add_attributes();
    pa->set_name(a.name);
    pa->set_value(a.value);
  }
}

void header(const rules::View& view, v1::GameView* out) {
  out->set_ruleset(view.ruleset);
  out->set_scenario(view.scenario);
  out->set_title(view.title);
  out->set_seat(view.seat);
  out->set_side(view.side);
  out->set_table_width(view.table_width);
  out->set_table_depth(view.table_depth);
  out->set_unit_name(view.unit_name);
  out->set_turn(view.turn);
  out->set_phase(view.phase);
  out->set_turn_limit(view.turn_limit);
  for (const auto& s : view.sides) {
    v1::SideView* side = out->add_sides();
    side->set_id(s.id);
    side->set_name(s.name);
    side->set_attacker(s.attacker);
  }
}

void terrain(const std::vector<rules::TerrainView>& features, v1::GameView* out) {
  for (const auto& t : features) {
    v1::TerrainView* tv = out->add_terrain();
    tv->set_id(t.id);
    tv->set_kind(terrain_kind(t.kind));
    tv->set_name(t.name);
    tv->mutable_outline()->Reserve(static_cast<int>(t.outline.size()));
    for (const auto& p : t.outline) point(p, tv->add_outline());
    tv->set_closed(t.closed);
    tv->set_elevation(t.elevation);
    tv->set_steep(t.steep);
    tv->set_major(t.major);
  }
}

}  // namespace

void to_proto(const rules::View& view, galloper::v1::GameView* out) {
  header(view, out);
  terrain(view.terrain, out);
  out->mutable_units()->Reserve(static_cast<int>(view.units.size()));
  for (const auto& u : view.units) unit(u, out->add_units());
}

bool to_proto_change(const rules::View& now, const rules::ViewUpdate& update, galloper::v1::GameView* out,
                     galloper::v1::ViewChange* change) {
  if (update.whole) return false;
  header(now, out);
  if (update.terrain_changed) {
    change->set_terrain_changed(true);
    terrain(now.terrain, out);
  }
  out->mutable_units()->Reserve(static_cast<int>(update.changed.size()));
  change->mutable_unit_index()->Reserve(static_cast<int>(update.changed.size()));
  for (const auto i : update.changed) {
    unit(now.units[i], out->add_units());
    change->add_unit_index(i);
  }
  for (const auto& id : update.gone) change->add_units_gone(id);
  return true;
}

bool to_proto_change(const rules::View& last, const rules::View& now, galloper::v1::GameView* out,
                     galloper::v1::ViewChange* change) {
  rules::View held = last;
  rules::ViewUpdate update;
  rules::update_view(held, now, update);
  return to_proto_change(held, update, out, change);
}

std::optional<std::string> apply_change(const galloper::v1::GameView& last, const galloper::v1::GameView& view,
                                        const galloper::v1::ViewChange& change, galloper::v1::GameView* out) {
  if (change.unit_index_size() != view.units_size()) {
    return "the view change places " + std::to_string(change.unit_index_size()) + " units but holds " +
           std::to_string(view.units_size());
  }
  std::unordered_set<std::string_view> dropped;
  for (const auto& u : view.units()) dropped.insert(u.id());
  std::unordered_set<std::string_view> present;
  for (const auto& u : last.units()) present.insert(u.id());
  for (const auto& id : change.units_gone()) {
    if (!present.contains(id)) return "the view change drops unit \"" + id + "\", which the last view does not hold";
    dropped.insert(id);
  }
  std::vector<const v1::UnitView*> kept;
  kept.reserve(static_cast<std::size_t>(last.units_size()));
  for (const auto& u : last.units()) {
    if (!dropped.contains(u.id())) kept.push_back(&u);
  }
  const std::size_t total = kept.size() + static_cast<std::size_t>(view.units_size());
  out->CopyFrom(view);
  out->clear_units();
  if (!change.terrain_changed()) *out->mutable_terrain() = last.terrain();
  out->mutable_units()->Reserve(static_cast<int>(total));
  std::size_t from_kept = 0;
  int from_change = 0;
  for (std::size_t place = 0; place < total; ++place) {
    if (from_change < view.units_size() && change.unit_index(from_change) == place) {
      *out->add_units() = view.units(from_change++);
    } else if (from_kept < kept.size()) {
      *out->add_units() = *kept[from_kept++];
    } else {
      break;
    }
  }
  if (from_change != view.units_size()) {
    return "the view change puts unit \"" + view.units(from_change).id() + "\" at place " +
           std::to_string(change.unit_index(from_change)) + ", out of order or beyond the view's " +
           std::to_string(total) + " units";
  }
  return std::nullopt;
}

}  // namespace galloper::codec
