// A view kept up to date in place (rules/core/view_update.hpp): whatever the
// held view was, it ends exactly the new one, and the update says what
// changed: the places of the new and changed units, the ids gone, whether
// the terrain changed, and when the view must go whole.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "rules/core/view_update.hpp"

namespace galloper::rules {
namespace {

UnitView unit(std::string id, double x) {
  UnitView u;
  u.id = std::move(id);
  u.name = "Régiment de " + u.id + " (a name too long for a short string)";
  u.side = "fr";
  u.position = {x, 1};
  u.bases.push_back(RectView{{x, 1}, 4, 1, 0});
  return u;
}

View table(std::vector<UnitView> units) {
  View v;
  v.ruleset = "malbrook";
  v.seat = "fr/w0";
  v.turn = 3;
  v.phase = "movement";
  v.terrain.push_back(TerrainView{"wood", TerrainKind::kWood, "Bois", {{1, 1}, {2, 1}, {2, 2}}, true, 0, false, false});
  v.units = std::move(units);
  return v;
}

// `held` brought to `now`: it must end equal to `now`.
ViewUpdate update(View& held, const View& now) {
  ViewUpdate u;
  update_view(held, now, u);
  EXPECT_TRUE(held == now);
  return u;
}

TEST(ViewUpdate, ClearingKeepsNoValueOfAnyField) {
  UnitView u = unit("a", 1);
  u.kind = UnitKind::kLeader;
  u.knowledge = Knowledge::kSeen;
  u.troop_type = "horse";
  u.noun = "regiment";
  u.grade = "B";
  u.formation = "line";
  u.base_count = 4;
  u.dps = 2;
  u.status = {"halted", "wounded"};
  u.facing_deg = 90;
  u.command = "c1";
  u.wing = "w1";
  u.last_seen_turn = 2;
  u.rank = "major-general";
  u.attached_to = "b1";
  clear_keeping_buffers(u);
  EXPECT_TRUE(u == UnitView{});

  TerrainView t{"hill", TerrainKind::kHill, "Schellenberg", {{0, 0}, {1, 1}}, true, 2, true, true};
  clear_keeping_buffers(t);
  EXPECT_TRUE(t == TerrainView{});
}

// Every field set, each to a value of its own for `n`.
UnitView every_field(int n) {
  const std::string k = std::to_string(n);
  UnitView u = unit("unit" + k, n);
  u.kind = n % 2 ? UnitKind::kLeader : UnitKind::kGun;
  u.side = "side" + k;
  u.name = "name" + k;
  u.knowledge = n % 2 ? Knowledge::kSeen : Knowledge::kFriendly;
  u.troop_type = "type" + k;
  u.noun = "noun" + k;
  u.grade = "grade" + k;
  u.formation = "formation" + k;
  u.bases.push_back(RectView{{1.0 * n, 2.0 * n}, 1, 2, 3.0 * n});
  u.base_count = 10u + static_cast<std::uint32_t>(n);
  u.dps = 20u + static_cast<std::uint32_t>(n);
  u.status = {"status" + k};
  u.position = {3.0 * n, 4.0 * n};
  u.facing_deg = 5.0 * n;
  u.command = "command" + k;
  u.wing = "wing" + k;
  u.last_seen_turn = 30u + static_cast<std::uint32_t>(n);
  u.rank = "rank" + k;
  u.attached_to = "attached" + k;
  return u;
}

// UnitView's own swap trades every field (a refreshed view swaps each changed
// unit into its place with it).
TEST(ViewUpdate, SwappingUnitsTradesEveryField) {
  UnitView a = every_field(1);
  UnitView b = every_field(2);
  swap(a, b);
  EXPECT_TRUE(a == every_field(2));
  EXPECT_TRUE(b == every_field(1));
}

TEST(ViewUpdate, NothingChangedButTheHeader) {
  View held = table({unit("a", 1), unit("b", 2)});
  View now = held;
  now.phase = "combat";
  const ViewUpdate u = update(held, now);
  EXPECT_FALSE(u.whole);
  EXPECT_FALSE(u.terrain_changed);
  EXPECT_TRUE(u.changed.empty());
  EXPECT_TRUE(u.gone.empty());
}

TEST(ViewUpdate, MovedGoneAndNewUnitsHaveTheirPlaces) {
  View held = table({unit("a", 1), unit("b", 2), unit("c", 3), unit("d", 4)});
  const View now = table({unit("a", 1), unit("e", 9), unit("c", 3.5), unit("d", 4), unit("f", 7)});
  const ViewUpdate u = update(held, now);
  EXPECT_FALSE(u.whole);
  EXPECT_EQ(u.changed, (std::vector<std::uint32_t>{1, 2, 4}));
  EXPECT_EQ(u.gone, (std::vector<std::string>{"b"}));
}

TEST(ViewUpdate, UnitsGoneFromTheEndAndAllGone) {
  View held = table({unit("a", 1), unit("b", 2), unit("c", 3)});
  ViewUpdate u = update(held, table({unit("a", 1.5)}));
  EXPECT_EQ(u.changed, (std::vector<std::uint32_t>{0}));
  EXPECT_EQ(u.gone, (std::vector<std::string>{"b", "c"}));

  u = update(held, table({}));
  EXPECT_TRUE(u.changed.empty());
  EXPECT_EQ(u.gone, (std::vector<std::string>{"a"}));

  u = update(held, table({unit("z", 1), unit("y", 2)}));
  EXPECT_EQ(u.changed, (std::vector<std::uint32_t>{0, 1}));
  EXPECT_TRUE(u.gone.empty());
}

TEST(ViewUpdate, ChangedUnitsMayChangePlacesButKeptOnesMayNot) {
  // A changed unit is sent with its place, so its order does not matter.
  View held = table({unit("a", 1), unit("b", 2), unit("c", 3)});
  ViewUpdate u = update(held, table({unit("c", 3.5), unit("a", 1), unit("b", 2)}));
  EXPECT_FALSE(u.whole);
  EXPECT_EQ(u.changed, (std::vector<std::uint32_t>{0}));

  // Kept units in another order cannot be told as a change.
  u = update(held, table({unit("b", 2), unit("a", 1), unit("c", 3.5)}));
  EXPECT_TRUE(u.whole);
}

// Units come and go anywhere in the list, some change and some swap places:
// the held list is rearranged in place while its kept units keep their order,
// and rebuilt otherwise; either way it ends as the new one, and the update
// names exactly the places of the units it does not keep and the ids gone.
TEST(ViewUpdate, UnitsComingAndGoingAnywhereEndAsTheNewList) {
  std::uint64_t r = 12345;
  auto below = [&](std::uint64_t n) {
    r = r * 6364136223846793005ull + 1442695040888963407ull;
    return (r >> 33) % n;
  };
  int fresh_ids = 0;
  int rearranged = 0;
  for (int round = 0; round < 300; ++round) {
    std::vector<UnitView> before;
    // Every fourth list is long enough that a held id is looked up among
    // many (ViewRefresh's table of held ids, with collisions).
    const std::size_t n = round % 4 == 3 ? 100 + below(150) : below(12);
    for (std::size_t i = 0; i < n; ++i) before.push_back(unit("u" + std::to_string(i), static_cast<double>(i)));
    std::vector<UnitView> after;
    for (const auto& u : before) {
      switch (below(5)) {
        case 0: break;  // gone
        case 1: after.push_back(unit(u.id, u.position.x + 0.5)); break;  // changed
        default: after.push_back(u);  // kept
      }
      if (below(4) == 0) after.push_back(unit("n" + std::to_string(fresh_ids++), 50));  // new, here
    }
    if (round % 3 == 0 && after.size() >= 2) {
      std::swap(after[below(after.size())], after[below(after.size())]);  // two places traded
    }
    View held = table(before);
    const View now = table(after);
    const ViewUpdate u = update(held, now);  // held == now, checked there
    if (u.whole) continue;
    ++rearranged;
    std::vector<std::uint32_t> changed;
    for (std::size_t i = 0; i < after.size(); ++i) {
      const auto was = std::find_if(before.begin(), before.end(), [&](const UnitView& b) { return b.id == after[i].id; });
      if (was == before.end() || !(*was == after[i])) changed.push_back(static_cast<std::uint32_t>(i));
    }
    EXPECT_EQ(u.changed, changed) << "round " << round;
    std::vector<std::string> gone;
    for (const auto& b : before) {
      if (std::none_of(after.begin(), after.end(), [&](const UnitView& a) { return a.id == b.id; })) gone.push_back(b.id);
    }
    EXPECT_EQ(u.gone, gone) << "round " << round;
  }
  EXPECT_GT(rearranged, 150);
}

TEST(ViewUpdate, AnIdTwiceGoesWhole) {
  View held = table({unit("a", 1), unit("b", 2)});
  const ViewUpdate u = update(held, table({unit("a", 1), unit("a", 2), unit("b", 2)}));
  EXPECT_TRUE(u.whole);
}

TEST(ViewUpdate, TerrainChangedAddedOrRemoved) {
  View held = table({unit("a", 1)});
  View now = held;
  now.terrain[0].outline.push_back({1, 2});
  EXPECT_TRUE(update(held, now).terrain_changed);
  EXPECT_FALSE(update(held, now).terrain_changed);

  now.terrain.push_back(TerrainView{"ditch", TerrainKind::kDitch, "", {{0, 0}, {3, 0}}, false, 0, false, false});
  EXPECT_TRUE(update(held, now).terrain_changed);
  now.terrain.erase(now.terrain.begin());
  EXPECT_TRUE(update(held, now).terrain_changed);
  now.terrain.clear();
  EXPECT_TRUE(update(held, now).terrain_changed);
}

TEST(ViewUpdate, ARefreshRunByHandBuildsEachUnitIntoAScratchThatWasAnotherUnit) {
  // A ruleset fills the scratch field by field; what a unit left there must
  // not reach the next one (clear_keeping_buffers).
  View held = table({unit("a", 1), unit("b", 2)});
  ViewUpdate u;
  ViewRefresh refresh(held, u);
  UnitView& first = refresh.next_unit();
  first = unit("a", 5);
  first.rank = "lieutenant-general";
  first.status = {"wounded"};
  refresh.place_unit();
  UnitView& second = refresh.next_unit();
  second.id = "b";
  second.name = unit("b", 2).name;
  second.side = "fr";
  second.position = {2, 1};
  second.bases.push_back(RectView{{2, 1}, 4, 1, 0});
  refresh.place_unit();
  refresh.next_terrain() = table({}).terrain[0];
  refresh.place_terrain();
  refresh.finish();

  View expected = table({unit("a", 5), unit("b", 2)});
  expected.units[0].rank = "lieutenant-general";
  expected.units[0].status = {"wounded"};
  EXPECT_TRUE(held == expected);
  EXPECT_EQ(u.changed, (std::vector<std::uint32_t>{0}));
  EXPECT_FALSE(u.terrain_changed);
  EXPECT_FALSE(u.whole);
}

// A describer as a ruleset writes one (ViewRefresh::give_unit): every field
// of UnitView, defaults included, from a small "piece".
struct Piece {
  std::string id;
  double x = 0;
  std::uint32_t dps = 0;
  std::vector<std::string> status;
  std::string name;
};

template <class Out>
void describe(Out& u, const Piece& p) {
  u.text(&UnitView::id, p.id);
  u.value(&UnitView::kind, UnitKind::kBrigade);
  u.text(&UnitView::side, "fr");
  u.value(&UnitView::knowledge, Knowledge::kOwn);
  u.value(&UnitView::position, Vec2{p.x, 1});
  u.value(&UnitView::facing_deg, 0);
  u.value(&UnitView::dps, p.dps);
  u.value(&UnitView::base_count, 1);
  const OrientedRect base{{p.x, 1}, 4, 1, 0};
  u.bases(std::span<const OrientedRect>(&base, 1));
  u.text(&UnitView::troop_type, "foot");
  u.text(&UnitView::formation, "");
  for (const auto& st : p.status) u.status(st);
  u.text(&UnitView::name, p.name);
  u.text(&UnitView::grade, "");
  u.text(&UnitView::command, "");
  u.text(&UnitView::wing, "");
  u.value(&UnitView::last_seen_turn, 0);
  u.text(&UnitView::rank, "");
  u.text(&UnitView::attached_to, "");
  u.text(&UnitView::noun, "");
}

UnitView built(const Piece& p) {
  UnitView u;
  UnitFill fill(u);
  describe(fill, p);
  EXPECT_EQ(fill.given(), kUnitViewFields);
  return u;
}

// The held view `held` refreshed to `pieces` by give_unit.
ViewUpdate give(View& held, const std::vector<Piece>& pieces) {
  ViewUpdate u;
  ViewRefresh refresh(held, u);
  refresh.next_terrain() = table({}).terrain[0];
  refresh.place_terrain();
  for (const Piece& p : pieces) refresh.give_unit(p.id, [&](auto& out) { describe(out, p); });
  refresh.finish();
  return u;
}

TEST(ViewUpdate, AGivenUnitIsKeptWhenItMatchesTheHeldOneAndBuiltWhenAnyFieldDiffers) {
  const std::vector<Piece> pieces = {{"a", 1, 0, {}, "A"}, {"b", 2, 1, {"halted"}, "B"}, {"c", 3, 0, {}, ""}};
  View held = table({});
  ViewUpdate u = give(held, pieces);  // from nothing: all built
  EXPECT_EQ(u.changed, (std::vector<std::uint32_t>{0, 1, 2}));
  View expected = table({built(pieces[0]), built(pieces[1]), built(pieces[2])});
  EXPECT_TRUE(held == expected);

  u = give(held, pieces);  // unchanged: all kept
  EXPECT_TRUE(u.changed.empty());
  EXPECT_FALSE(u.whole);
  EXPECT_TRUE(held == expected);

  // Each kind of difference makes the unit built again, and only that unit.
  auto changed = [&](auto change) {
    std::vector<Piece> now = pieces;
    change(now[1]);
    View h = expected;
    ViewUpdate up = give(h, now);
    EXPECT_TRUE(h == table({built(now[0]), built(now[1]), built(now[2])}));
    return up.changed;
  };
  const std::vector<std::uint32_t> second{1};
  EXPECT_EQ(changed([](Piece& p) { p.x = 2.5; }), second);                // a value and a base
  EXPECT_EQ(changed([](Piece& p) { p.dps = 2; }), second);                // a value
  EXPECT_EQ(changed([](Piece& p) { p.name = "Bee"; }), second);           // a text
  EXPECT_EQ(changed([](Piece& p) { p.status.clear(); }), second);         // a status entry fewer
  EXPECT_EQ(changed([](Piece& p) { p.status.push_back("x"); }), second);  // one more
  EXPECT_EQ(changed([](Piece& p) { p.status = {"routing"}; }), second);   // another

  // A held unit differing only in a field the describer gives as its default
  // (rank) is not kept: defaults are compared too.
  View odd = expected;
  odd.units[2].rank = "left over";
  u = give(odd, pieces);
  EXPECT_EQ(u.changed, (std::vector<std::uint32_t>{2}));
  EXPECT_TRUE(odd == expected);

  // Units in another order: kept, and the view goes whole; a unit gone.
  View reordered = expected;
  u = give(reordered, {pieces[2], pieces[0]});
  EXPECT_TRUE(u.whole);
  EXPECT_TRUE(u.changed.empty());
  EXPECT_EQ(u.gone, (std::vector<std::string>{"b"}));
  EXPECT_TRUE(reordered == table({built(pieces[2]), built(pieces[0])}));
}

}  // namespace
}  // namespace galloper::rules
