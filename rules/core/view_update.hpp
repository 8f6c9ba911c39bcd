#pragma once
// A seat's view kept up to date in place, step after step, and what changed
// in it: what a room tells the seat (docs/PERFORMANCE.md, "Views as
// changes"). The view is still built by the ruleset's one path (view_for);
// only where its parts go is new: each unit and terrain feature is built
// into a scratch that keeps its buffers, and one equal to what the held view
// has in that place is not copied, sent, or freed.
#include <cassert>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "rules/core/game.hpp"
#include "rules/core/geometry.hpp"

namespace galloper::rules {

// What a refresh changed in the view it was handed.
struct ViewUpdate {
  // The view cannot be told as a change to the one held before (units it
  // kept in another order, an id twice): send it whole.
  bool whole = false;
  bool terrain_changed = false;
  // Every unit kept is at its held place: units went only from the end of
  // the held list and new ones came only after the kept ones (most steps).
  bool kept_in_place = true;
  // Places in the view's units of those new to it or changed, ascending.
  std::vector<std::uint32_t> changed;
  // Ids of the units the held view had and this one no longer shows.
  std::vector<std::string> gone;

  friend bool operator==(const ViewUpdate&, const ViewUpdate&) = default;
};

// Every field back to a fresh UnitView's / TerrainView's, keeping the
// strings' and lists' buffers.
void clear_keeping_buffers(UnitView& u);
void clear_keeping_buffers(TerrainView& t);

// A unit's view described once by the ruleset and run either way: a
// describer is a template over its output `u` and calls u.text / u.value /
// u.bases once for every field of UnitView but its lists (status, counters,
// attributes), defaults included and whatever the branch, and u.status,
// u.counter and u.attribute for each entry of those lists in order.
// UnitFill writes the fields into a cleared UnitView; UnitMatch compares them
// with a unit already held, without building anything, so that same() is
// exactly "the unit built would equal it".
inline constexpr int kUnitViewFields = 19;  // every field but the lists

class UnitFill {
 public:
  explicit UnitFill(UnitView& u) : u_(u) {}
  void text(std::string UnitView::*field, std::string_view v) {
    u_.*field = v;
    ++given_;
  }
  template <class T>
  void value(T UnitView::*field, std::type_identity_t<T> v) {
    u_.*field = v;
    ++given_;
  }
  void bases(std::span<const OrientedRect> rects);
  void status(std::string_view entry) { u_.status.emplace_back(entry); }
  void counter(std::string_view name, std::int32_t value, std::int32_t max) {
    u_.counters.push_back({std::string(name), value, max});
  }
  void attribute(std::string_view name, std::string_view value) {
    u_.attributes.push_back({std::string(name), std::string(value)});
  }
  int given() const { return given_; }

 private:
  UnitView& u_;
  int given_ = 0;
};

class UnitMatch {
 public:
  explicit UnitMatch(const UnitView& held) : held_(held) {}
  void text(std::string UnitView::*field, std::string_view v) {
    same_ = same_ && held_.*field == v;
    ++given_;
  }
  template <class T>
  void value(T UnitView::*field, std::type_identity_t<T> v) {
    same_ = same_ && held_.*field == v;
    ++given_;
  }
  void bases(std::span<const OrientedRect> rects);
  void status(std::string_view entry) {
    same_ = same_ && status_at_ < held_.status.size() && held_.status[status_at_] == entry;
    ++status_at_;
  }
  void counter(std::string_view name, std::int32_t value, std::int32_t max) {
    same_ = same_ && counter_at_ < held_.counters.size() && held_.counters[counter_at_].name == name &&
            held_.counters[counter_at_].value == value && held_.counters[counter_at_].max == max;
    ++counter_at_;
  }
  void attribute(std::string_view name, std::string_view value) {
    same_ = same_ && attribute_at_ < held_.attributes.size() && held_.attributes[attribute_at_].name == name &&
            held_.attributes[attribute_at_].value == value;
    ++attribute_at_;
  }
  int given() const { return given_; }
  // Every field matched and the held lists have no more entries.
  bool same() const {
    return same_ && status_at_ == held_.status.size() && counter_at_ == held_.counters.size() &&
           attribute_at_ == held_.attributes.size();
  }

 private:
  const UnitView& held_;
  bool same_ = true;
  int given_ = 0;
  std::size_t status_at_ = 0;
  std::size_t counter_at_ = 0;
  std::size_t attribute_at_ = 0;
};

// Rebuilds `held`'s terrain and units in order. For each, fill next_*() (a
// cleared scratch) and call place_*(), or for a unit give_unit(); then
// finish(). The header fields are the caller's to assign, and so is the
// basis, which the refresh clears (View::basis). Afterwards `held` is
// exactly the view built, and `update` says how it differs from what `held`
// was.
class ViewRefresh {
 public:
  ViewRefresh(View& held, ViewUpdate& update);
  ViewRefresh(const ViewRefresh&) = delete;
  ViewRefresh& operator=(const ViewRefresh&) = delete;

  TerrainView& next_terrain();
  void place_terrain();
  // About how many units the view will have (reserved when it had none).
  void expect_units(std::size_t n);
  UnitView& next_unit();
  void place_unit();
  // The unit `describe` gives (describe(u) with a UnitFill or a UnitMatch,
  // as above), with id `id`: kept where it is held when the held unit of
  // that id matches it -- most units, most steps: nothing is built -- else
  // built into the scratch and placed as place_unit places it.
  template <class Describe>
  void give_unit(std::string_view id, const Describe& describe) {
    give_held(unplaced_held(id), describe);
  }
  // give_unit for a piece the caller knows has not changed since the held
  // view was built: the held unit of this id, when it was built with
  // knowledge `k`, is what `describe` gives, and is kept without describing
  // it (debug builds, which run every test, describe it and check).
  template <class Describe>
  void give_unchanged_unit(std::string_view id, Knowledge k, const Describe& describe) {
    const UnitView* held = unplaced_held(id);
    if (held != nullptr && held->knowledge == k) {
#ifndef NDEBUG
      UnitMatch match(*held);
      describe(match);
      assert(match.same() && "a piece said to be unchanged gives another unit");
#endif
      keep_held(held);
      return;
    }
    give_held(held, describe);
  }
  // The held terrain kept whole, in place of next_terrain() and
  // place_terrain() for each feature: for a caller that knows it is what
  // those would give.
  void keep_terrain() { terrain_at_ = held_.terrain.size(); }
  void finish();

 private:
  template <class Describe>
  void give_held(const UnitView* held, const Describe& describe) {
    if (held != nullptr) {
      UnitMatch match(*held);
      describe(match);
      check_given(match.given());
      if (match.same()) {
#ifndef NDEBUG
        // Debug builds (the tests) build the unit anyway and hold the match to it.
        UnitFill check(next_unit());
        describe(check);
        assert(*held == unit_scratch_ && "UnitMatch found the same unit where the built one differs");
#endif
        keep_held(held);
        return;
      }
    }
    UnitFill fill(next_unit());
    describe(fill);
    check_given(fill.given());
    if (held != nullptr) {
      replace_held(held);  // found, and not the same: no need to look it up and compare again
    } else {
      place_unit();
    }
  }
  std::size_t find_held(std::string_view id);
  // The held unit of this id not yet placed, if any.
  const UnitView* unplaced_held(std::string_view id);
  // `held` (from unplaced_held) is the unit at the next place, unchanged.
  void keep_held(const UnitView* held);
  // The next place is held unit k's.
  void take_held(std::size_t k);
  // The scratch, built, goes to the next place in place of `held` (from
  // unplaced_held), which it differs from.
  void replace_held(const UnitView* held);
  static void check_given(int given);

  View& held_;
  ViewUpdate& update_;
  const std::size_t held_count_;  // units the held view had (new ones may be appended after them)
  bool in_place_ = true;          // every unit placed so far is where it was held
  std::size_t terrain_at_ = 0;  // the next feature's place
  TerrainView terrain_scratch_;
  UnitView unit_scratch_;
  // Per place of the new unit list: >= 0, the index in held_.units of its
  // unit (changed ones are swapped in there, new ones appended while every
  // unit before is in its place); < 0, ~index into fresh_ (a new unit that
  // goes between held ones).
  std::vector<std::int64_t> plan_;
  std::vector<UnitView> fresh_;
  std::vector<char> matched_;
  // The held units by id, laid out once the next-in-order guess fails: an
  // open-addressed table of held indices + 1 (0: empty), its size a power of
  // two at least twice the held count. It keeps indices, not ids: a held
  // unit below held_count_ changes only for a unit of the same id
  // (replace_held), so its id can be read at each lookup.
  std::vector<std::uint32_t> where_;
  std::size_t next_ = 0;        // where the next unit is looked for first
  std::size_t kept_after_ = 0;  // one past the last kept unit's index in held_.units
};

// `held` made equal to `now`, and what that changed: a ruleset with no
// cheaper way (Game::refresh_view's default), and tests.
void update_view(View& held, View now, ViewUpdate& update);

}  // namespace galloper::rules
