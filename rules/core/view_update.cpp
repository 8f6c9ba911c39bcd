#include "rules/core/view_update.hpp"

#include <cassert>
#include <functional>
#include <utility>

namespace galloper::rules {

// A field added to UnitView or TerrainView must be cleared below too: a
// scratch left holding one unit's value would show it on the next unit
// built. A field added to UnitView is also one more for every describer to
// give (kUnitViewFields; UnitMatch::same() could not see it otherwise).
// These sizes are the reminder (64-bit libstdc++).
static_assert(sizeof(void*) != 8 || sizeof(UnitView) == 504,
              "UnitView changed: clear the new field in clear_keeping_buffers(UnitView&)");
static_assert(sizeof(void*) != 8 || sizeof(TerrainView) == 120,
              "TerrainView changed: clear the new field in clear_keeping_buffers(TerrainView&)");

void UnitFill::bases(std::span<const OrientedRect> rects) {
  u_.bases.reserve(rects.size());
  for (const auto& r : rects) u_.bases.push_back(RectView{r.center, r.width, r.depth, r.facing_deg});
  ++given_;
}

void UnitMatch::bases(std::span<const OrientedRect> rects) {
  ++given_;
  if (!same_ || held_.bases.size() != rects.size()) {
    same_ = false;
    return;
  }
  for (std::size_t i = 0; i < rects.size(); ++i) {
    const OrientedRect& r = rects[i];
    if (!(held_.bases[i] == RectView{r.center, r.width, r.depth, r.facing_deg})) {
      same_ = false;
      return;
    }
  }
}

void clear_keeping_buffers(UnitView& u) {
  u.id.clear();
  u.kind = UnitKind::kBrigade;
  u.side.clear();
  u.name.clear();
  u.knowledge = Knowledge::kOwn;
  u.troop_type.clear();
  u.noun.clear();
  u.grade.clear();
  u.formation.clear();
  u.bases.clear();
  u.base_count = 0;
  u.dps = 0;
  u.status.clear();
  u.position = {};
  u.facing_deg = 0;
  u.command.clear();
  u.wing.clear();
  u.last_seen_turn = 0;
  u.rank.clear();
  u.attached_to.clear();
  u.counters.clear();
  u.attributes.clear();
}

void clear_keeping_buffers(TerrainView& t) {
  t.id.clear();
  t.kind = TerrainKind::kRough;
  t.name.clear();
  t.outline.clear();
  t.closed = false;
  t.elevation = 0;
  t.steep = false;
  t.major = false;
}

ViewRefresh::ViewRefresh(View& held, ViewUpdate& update)
    : held_(held), update_(update), held_count_(held.units.size()), matched_(held_count_, 0) {
  held_.basis = {};  // of no state until the caller says
  update_.whole = false;
  update_.terrain_changed = false;
  update_.kept_in_place = true;
  update_.changed.clear();
  update_.gone.clear();
  plan_.reserve(held.units.size());
}

TerrainView& ViewRefresh::next_terrain() {
  clear_keeping_buffers(terrain_scratch_);
  return terrain_scratch_;
}

void ViewRefresh::place_terrain() {
  const std::size_t i = terrain_at_++;
  if (i == held_.terrain.size()) {
    update_.terrain_changed = true;
    held_.terrain.emplace_back();
  }
  if (held_.terrain[i] == terrain_scratch_) return;
  update_.terrain_changed = true;
  std::swap(held_.terrain[i], terrain_scratch_);  // the scratch takes the old one's buffers
}

UnitView& ViewRefresh::next_unit() {
  clear_keeping_buffers(unit_scratch_);
  return unit_scratch_;
}

std::size_t ViewRefresh::find_held(std::string_view id) {
  // Views list units in the state's order, so the next unit of the held
  // view is nearly always the one: the ids are looked up in a map only once
  // that fails.
  const auto& units = held_.units;
  const std::size_t n = held_count_;  // not the units appended since
  if (next_ < n && units[next_].id == id) return next_;
  if (n == 0) return n;
  const std::hash<std::string_view> hash;
  if (where_.empty()) {
    // Linear probing from each id's hash. An id held twice: the first
    // stays the one found, as a map's emplace would keep it.
    std::size_t size = 16;
    while (size < 2 * n) size *= 2;
    where_.assign(size, 0);
    for (std::size_t j = 0; j < n; ++j) {
      std::size_t at = hash(units[j].id) & (size - 1);
      while (where_[at] != 0) at = (at + 1) & (size - 1);
      where_[at] = static_cast<std::uint32_t>(j + 1);
    }
  }
  const std::size_t mask = where_.size() - 1;
  for (std::size_t at = hash(id) & mask; where_[at] != 0; at = (at + 1) & mask) {
    const std::size_t j = where_[at] - 1;
    if (units[j].id == id) return j;
  }
  return n;
}

void ViewRefresh::expect_units(std::size_t n) {
  // A held list keeps its units where they are and rarely grows; a list
  // built whole (view_for) grows by every unit.
  if (held_count_ == 0) held_.units.reserve(n);
}

const UnitView* ViewRefresh::unplaced_held(std::string_view id) {
  const std::size_t k = find_held(id);
  return k < held_count_ && !matched_[k] ? &held_.units[k] : nullptr;
}

void ViewRefresh::take_held(std::size_t k) {
  matched_[k] = 1;
  next_ = k + 1;
  in_place_ = in_place_ && k == plan_.size();
  plan_.push_back(static_cast<std::int64_t>(k));
}

void ViewRefresh::keep_held(const UnitView* held) {
  const auto k = static_cast<std::size_t>(held - held_.units.data());
  take_held(k);
  if (k + 1 <= kept_after_) update_.whole = true;  // kept units in another order
  kept_after_ = k + 1;
}

void ViewRefresh::replace_held(const UnitView* held) {
  const auto k = static_cast<std::size_t>(held - held_.units.data());
  assert(!(held_.units[k] == unit_scratch_) && "UnitMatch found a difference the built unit does not have");
  const std::size_t place = plan_.size();
  take_held(k);
  update_.changed.push_back(static_cast<std::uint32_t>(place));
#ifndef NDEBUG
  const UnitView built = unit_scratch_;
#endif
  swap(held_.units[k], unit_scratch_);  // the scratch takes the old one's buffers
  assert(held_.units[k] == built && "swap(UnitView&, UnitView&) leaves out a field");
}

void ViewRefresh::check_given([[maybe_unused]] int given) {
  assert(given == kUnitViewFields && "a unit describer gives every field of UnitView once");
}

void ViewRefresh::place_unit() {
  const std::size_t place = plan_.size();
  const std::size_t k = find_held(unit_scratch_.id);
  if (k < held_count_) {
    if (matched_[k]) {
      update_.whole = true;  // an id twice: no change can say that
    } else if (held_.units[k] == unit_scratch_) {
      keep_held(&held_.units[k]);
      return;
    } else {
      replace_held(&held_.units[k]);
      return;
    }
  }
  update_.changed.push_back(static_cast<std::uint32_t>(place));
  if (in_place_ && place == held_.units.size()) {
    // Every held unit is in its place already (or there were none: a view
    // built whole, view_for): the new one goes straight after them.
    plan_.push_back(static_cast<std::int64_t>(place));
    held_.units.push_back(std::move(unit_scratch_));
  } else {
    in_place_ = false;
    plan_.push_back(~static_cast<std::int64_t>(fresh_.size()));
    fresh_.push_back(std::move(unit_scratch_));
  }
  unit_scratch_ = UnitView{};
}

void ViewRefresh::finish() {
  if (terrain_at_ < held_.terrain.size()) {
    update_.terrain_changed = true;
    held_.terrain.resize(terrain_at_);
  }
  auto& units = held_.units;
  for (std::size_t k = 0; k < held_count_; ++k) {
    if (!matched_[k]) update_.gone.push_back(units[k].id);
  }
  update_.kept_in_place = in_place_;
  // Nearly always every unit is where it was: nothing moves (the units gone,
  // if any, were the last ones).
  if (in_place_) {
    units.resize(plan_.size());
    return;
  }
  // Otherwise a unit came or went in mid-list. When the held units kept
  // still come in their held order (nearly always), the list is rearranged
  // in place: the kept ones are closed up to the front, then spread out to
  // their places from the back with the new ones set between them, so no
  // second list is built and torn down.
  const bool increasing = [&] {
    std::int64_t last = -1;
    for (const std::int64_t p : plan_) {
      if (p < 0) continue;
      if (p <= last) return false;
      last = p;
    }
    return true;
  }();
  if (!increasing) {
    std::vector<UnitView> next;
    next.reserve(plan_.size());
    for (const std::int64_t p : plan_) {
      next.push_back(std::move(p >= 0 ? units[static_cast<std::size_t>(p)] : fresh_[static_cast<std::size_t>(~p)]));
    }
    units = std::move(next);
    return;
  }
  std::size_t kept = 0;  // the kept units closed up: units[0, kept)
  for (const std::int64_t p : plan_) {
    if (p < 0) continue;
    const auto k = static_cast<std::size_t>(p);  // k >= kept: the held indices increase
    if (k != kept) units[kept] = std::move(units[k]);
    ++kept;
  }
  const std::size_t n = plan_.size();
  if (units.size() < n) units.resize(n);
  for (std::size_t place = n; place-- > 0;) {
    const std::int64_t p = plan_[place];
    if (p >= 0) {
      --kept;  // place >= kept: as many kept units come before this place as before its unit
      if (kept != place) units[place] = std::move(units[kept]);
    } else {
      units[place] = std::move(fresh_[static_cast<std::size_t>(~p)]);
    }
  }
  units.resize(n);
}

void update_view(View& held, View now, ViewUpdate& update) {
  ViewRefresh refresh(held, update);
  for (auto& t : now.terrain) {
    refresh.next_terrain() = std::move(t);
    refresh.place_terrain();
  }
  for (auto& u : now.units) {
    refresh.next_unit() = std::move(u);
    refresh.place_unit();
  }
  refresh.finish();
  // The lists are now's; so is the rest.
  now.terrain = std::move(held.terrain);
  now.units = std::move(held.units);
  held = std::move(now);
}

}  // namespace galloper::rules
