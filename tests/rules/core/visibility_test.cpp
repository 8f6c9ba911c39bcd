#include "rules/core/visibility.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

namespace galloper::rules {
namespace {

Polygon square(double x0, double y0, double x1, double y1) { return Polygon{{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}}; }

// Malbrook's numbers; the framework itself has none.
VisibilityRules malbrook_like() {
  VisibilityRules r;
  r.open_range = 36;
  r.elevated_range = 48;
  r.cover_range = 2;
  r.cover_edge_seen_range = 2;
  r.cover_edge_depth = 1;
  r.see_over_min_distance = 2;
  r.unformed_see_beyond = 2;
  return r;
}

// A body of two bases side by side (a single base is one model, seen at its
// centre; two make a body seen at its centre and corners).
SceneObject body(std::uint32_t id, Vec2 center, double width = 2, double depth = 1, SceneKind kind = SceneKind::kFormed) {
  SceneObject o;
  o.id = id;
  o.kind = kind;
  o.bases = {OrientedRect{center - Vec2{width / 4, 0}, width / 2, depth, 0},
             OrientedRect{center + Vec2{width / 4, 0}, width / 2, depth, 0}};
  return o;
}

void move_to(SceneObject& o, Vec2 center) {
  const double w = o.bases[0].width;
  o.bases[0].center = center - Vec2{w / 2, 0};
  o.bases[1].center = center + Vec2{w / 2, 0};
}

class Visibility : public ::testing::Test {
 protected:
  VisibilityRules rules = malbrook_like();
  TerrainMap open;  // no terrain
  Scene scene;

  // Observer 0 at the origin; target 1 at (0, y).
  void observer_and_target(double y) {
    scene.objects.push_back(body(100, {0, 0}));
    scene.objects[0].observer_for = 1;
    scene.objects.push_back(body(101, {0, y}));
  }
  SightResult sees(const TerrainMap& t) const { return can_see(scene, t, rules, 0, 1); }
  SightResult sees() const { return sees(open); }
};

// ---- Range ----

TEST_F(Visibility, OpenGroundRange) {
  observer_and_target(36.9);  // nearest sight points 36.9 - 0.98 = 35.92 apart
  EXPECT_TRUE(sees().visible);
  move_to(scene.objects[1], {0, 37.1});  // nearest 36.12: every sight line too long
  const SightResult r = sees();
  EXPECT_FALSE(r.visible);
  EXPECT_EQ(r.reason, SightBlock::kRange);
}

TEST_F(Visibility, HigherGroundSeesFarther) {
  observer_and_target(45);
  EXPECT_EQ(sees().reason, SightBlock::kRange);
  scene.objects[0].elevation = 1;
  EXPECT_TRUE(sees().visible);
  move_to(scene.objects[1], {0, 49.1});
  EXPECT_EQ(sees().reason, SightBlock::kRange);
}

// ---- Bodies ----

TEST_F(Visibility, FormedBrigadesBlock) {
  observer_and_target(20);
  scene.objects.push_back(body(7, {0, 10}, 6));
  const SightResult r = sees();
  EXPECT_FALSE(r.visible);
  EXPECT_EQ(r.reason, SightBlock::kBody);
  EXPECT_EQ(r.blocker, 7u);
}

TEST_F(Visibility, APartialScreenDoesNotHide) {
  observer_and_target(20);
  scene.objects.push_back(body(7, {-1.5, 10}, 2));  // covers only the left half of the lines
  EXPECT_TRUE(sees().visible);
}

TEST_F(Visibility, GrazingABodyDoesNotBlock) {
  scene.objects.push_back(body(100, {0, 0}));
  scene.objects[0].observer_for = 1;
  scene.objects[0].sight_points = {{0, 0}};
  scene.objects.push_back(body(101, {0, 20}));
  scene.objects[1].sight_points = {{0, 20}};
  scene.objects.push_back(body(7, {1, 10}, 2));  // left flank exactly on the sight line
  EXPECT_TRUE(sees().visible);
  move_to(scene.objects[2], {0.99, 10});
  EXPECT_FALSE(sees().visible);
}

TEST_F(Visibility, UnfiredGunsBlockLikeBodies) {
  observer_and_target(20);
  scene.objects.push_back(body(7, {0, 10}, 6, 1, SceneKind::kGun));
  EXPECT_EQ(sees().reason, SightBlock::kBody);
}

TEST_F(Visibility, LeadersMessengersAndMarkersNeverBlock) {
  observer_and_target(20);
  scene.objects.push_back(body(7, {0, 10}, 6, 1, SceneKind::kLeader));
  scene.objects.push_back(body(8, {0, 12}, 6, 1, SceneKind::kMessenger));
  scene.objects.push_back(body(9, {0, 14}, 6, 1, SceneKind::kMarker));
  EXPECT_TRUE(sees().visible);
}

TEST_F(Visibility, LeadersSeeLikeBrigades) {
  observer_and_target(20);
  scene.objects[0].kind = SceneKind::kLeader;
  EXPECT_TRUE(sees().visible);
  scene.objects.push_back(body(7, {0, 10}, 6));
  EXPECT_FALSE(sees().visible);
}

// ---- Unformed ----

TEST_F(Visibility, UnformedTroopsBlockOnlyBeyondTwo) {
  observer_and_target(14);  // target's near edge 13.5
  SceneObject u = body(7, {0, 10}, 6, 1, SceneKind::kUnformed);  // far edge 10.5: 3 short of the target
  scene.objects.push_back(u);
  const SightResult r = sees();
  EXPECT_FALSE(r.visible);
  EXPECT_EQ(r.reason, SightBlock::kUnformed);
  move_to(scene.objects[1], {0, 12.5});  // target's near sight points at 12.01: 1.51 beyond
  EXPECT_TRUE(sees().visible);
}

TEST_F(Visibility, UnformedBasesCountFromTheLastBaseOfTheBrigade) {
  observer_and_target(15);
  SceneObject u;
  u.id = 7;
  u.kind = SceneKind::kUnformed;
  // Two bases spaced apart along the line of sight: 8..9 and 12..13.
  u.bases = {OrientedRect{{0, 8.5}, 6, 1, 0}, OrientedRect{{0, 12.5}, 6, 1, 0}};
  scene.objects.push_back(u);
  EXPECT_TRUE(sees().visible);  // target's near points 14.51: 1.51 beyond the rear base
}

// ---- Hills ----

TEST_F(Visibility, HillsBlockLowerEnds) {
  observer_and_target(20);
  const TerrainMap hill({{"h", square(-10, 8, 10, 12), 1, false, false}}, {}, {}, {});
  const SightResult r = sees(hill);
  EXPECT_FALSE(r.visible);
  EXPECT_EQ(r.reason, SightBlock::kHill);
  // The observer on a hill as high sees over it; so does a target on it get seen.
  scene.objects[0].elevation = 1;
  EXPECT_TRUE(sees(hill).visible);
  scene.objects[0].elevation = 0;
  scene.objects[1].elevation = 1;
  EXPECT_TRUE(sees(hill).visible);
}

TEST_F(Visibility, AHigherHillBlocksObserversOnALowerOne) {
  observer_and_target(20);
  scene.objects[0].elevation = 1;
  scene.objects[1].elevation = 1;
  const TerrainMap hills({{"top", square(-10, 8, 10, 12), 2, false, false}}, {}, {}, {});
  EXPECT_EQ(sees(hills).reason, SightBlock::kHill);
}

// ---- Woods and towns ----

TEST_F(Visibility, WoodsAndTownsBlock) {
  observer_and_target(20);
  const TerrainMap wood({}, {{"w", AreaKind::kWood, square(-10, 8, 10, 12)}}, {}, {});
  EXPECT_EQ(sees(wood).reason, SightBlock::kCover);
  const TerrainMap town({}, {{"t", AreaKind::kTown, square(-10, 8, 10, 12)}}, {}, {});
  EXPECT_EQ(sees(town).reason, SightBlock::kCover);
  const TerrainMap marsh({}, {{"m", AreaKind::kMarsh, square(-10, 8, 10, 12)}}, {}, {});
  EXPECT_TRUE(sees(marsh).visible);
}

TEST_F(Visibility, InsideCoverSightIsTwo) {
  const TerrainMap wood({}, {{"w", AreaKind::kWood, square(-20, -20, 20, 20)}}, {}, {});
  observer_and_target(2.5);  // nearest sight points 1.52 apart
  EXPECT_TRUE(sees(wood).visible);
  move_to(scene.objects[1], {0, 3.5});  // nearest 2.52
  EXPECT_EQ(sees(wood).reason, SightBlock::kCover);
}

TEST_F(Visibility, TroopsAtTheEdgeSeeOut) {
  // Wood y <= 0.6: the observer (y -0.5..0.5) stands just inside its edge.
  const TerrainMap wood({}, {{"w", AreaKind::kWood, square(-20, -20, 20, 0.6)}}, {}, {});
  observer_and_target(20);
  EXPECT_EQ(sees(wood).reason, SightBlock::kCover);  // not flagged at the edge: deep in, as far as we know
  scene.objects[0].at_cover_edge = true;
  EXPECT_TRUE(sees(wood).visible);
}

TEST_F(Visibility, LookingAcrossAWoodFromItsEdgeIsNotSeeingOut) {
  const TerrainMap wood({}, {{"w", AreaKind::kWood, square(-20, -0.6, 20, 12)}}, {}, {});
  observer_and_target(20);
  scene.objects[0].at_cover_edge = true;  // at the wood's south edge, looking north through it
  EXPECT_EQ(sees(wood).reason, SightBlock::kCover);
}

TEST_F(Visibility, TroopsAtTheEdgeAreSeenOnlyCloseUnlessTheyShoot) {
  // Target at the south edge of a wood (wood y >= 9.4; target y 9.5..10.5).
  const TerrainMap wood({}, {{"w", AreaKind::kWood, square(-20, 9.4, 20, 30)}}, {}, {});
  observer_and_target(10);
  scene.objects[1].at_cover_edge = true;
  EXPECT_EQ(sees(wood).reason, SightBlock::kCover);
  scene.objects[1].shot_this_turn = true;
  EXPECT_TRUE(sees(wood).visible);
  scene.objects[1].shot_this_turn = false;
  move_to(scene.objects[0], {0, 6.6});  // front points at 7.09: 2.42 from the target's nearest
  EXPECT_EQ(sees(wood).reason, SightBlock::kCover);
  move_to(scene.objects[0], {0, 7.1});  // 1.92
  EXPECT_TRUE(sees(wood).visible);
}

TEST_F(Visibility, TroopsDeepInAWoodAreNotSeenFromOutside) {
  const TerrainMap wood({}, {{"w", AreaKind::kWood, square(-20, 5, 20, 30)}}, {}, {});
  observer_and_target(10);
  scene.objects[1].shot_this_turn = true;  // shooting reveals only troops at the edge
  EXPECT_EQ(sees(wood).reason, SightBlock::kCover);
}

// ---- Higher ground ----

TEST_F(Visibility, HigherGroundSeesOverBrigadesAtLeastTwoAway) {
  observer_and_target(20);
  scene.objects[0].elevation = 1;
  scene.objects.push_back(body(7, {0, 10}, 6));
  EXPECT_TRUE(sees().visible);
  move_to(scene.objects[2], {0, 2});  // edge gap 1: too close to see over
  EXPECT_EQ(sees().reason, SightBlock::kBody);
  move_to(scene.objects[2], {0, 3});  // edge gap exactly 2
  EXPECT_TRUE(sees().visible);
}

// One engine reused for the next table: what it learnt about the last
// table's observer (here: which bodies it sees over) must not carry over,
// even to the observer at the same index.
TEST_F(Visibility, AReusedEngineForgetsTheLastTable) {
  observer_and_target(20);
  scene.objects[0].elevation = 1;
  scene.objects.push_back(body(7, {0, 2}, 6));  // too close to see over
  VisibilityEngine engine;
  EXPECT_EQ(engine.compute(scene, open, rules)[1], 0u);
  move_to(scene.objects[2], {0, 10});  // now far enough
  EXPECT_EQ(engine.compute(scene, open, rules)[1], 1u);
  EXPECT_EQ(compute_visibility(scene, open, rules)[1], 1u);
}

// The engine keeps the terrain's prepared form while the map is the same
// (VISIBILITY.md, "The terrain kept"): any change to a wood, a town or a hill
// must be seen at the next compute, and an equal map elsewhere in memory
// gives the same table.
TEST_F(Visibility, AReusedEngineSeesEveryChangeOfTerrain) {
  observer_and_target(20);
  VisibilityEngine engine;
  const auto masks = [&](const TerrainMap& t) { return engine.compute(scene, t, rules)[1]; };
  EXPECT_EQ(masks(open), 1u);
  const TerrainMap wood({}, {{"w", AreaKind::kWood, square(-10, 8, 10, 12)}}, {}, {});
  EXPECT_EQ(masks(wood), 0u);
  const TerrainMap marsh({}, {{"w", AreaKind::kMarsh, square(-10, 8, 10, 12)}}, {}, {});
  EXPECT_EQ(masks(marsh), 1u);  // the same outline, no longer cover
  const TerrainMap wood_aside({}, {{"w", AreaKind::kWood, square(5, 8, 25, 12)}}, {}, {});
  EXPECT_EQ(masks(wood_aside), 1u);  // moved off the line
  EXPECT_EQ(masks(wood), 0u);
  auto again = std::make_unique<TerrainMap>(std::vector<Hill>{},
                                            std::vector<Area>{{"w", AreaKind::kWood, square(-10, 8, 10, 12)}},
                                            std::vector<Linear>{}, std::vector<Crossing>{});
  EXPECT_EQ(masks(*again), 0u);  // equal, at another address
  again.reset();
  EXPECT_EQ(masks(open), 1u);
  // A hill between them, as high as the observer: then higher.
  scene.objects[0].elevation = 1;
  scene.objects[1].elevation = 1;
  const TerrainMap low({{"h", square(-10, 8, 10, 12), 1}}, {}, {}, {});
  const TerrainMap high({{"h", square(-10, 8, 10, 12), 2}}, {}, {}, {});
  EXPECT_EQ(masks(low), 1u);
  EXPECT_EQ(masks(high), 0u);
  EXPECT_EQ(masks(low), 1u);
  EXPECT_EQ(compute_visibility(scene, high, rules)[1], 0u);
}

TEST_F(Visibility, HigherGroundDoesNotSeeOverTroopsAsHigh) {
  observer_and_target(20);
  scene.objects[0].elevation = 1;
  scene.objects.push_back(body(7, {0, 10}, 6));
  scene.objects[2].elevation = 1;
  EXPECT_EQ(sees().reason, SightBlock::kBody);
}

TEST_F(Visibility, HigherGroundSeesOverUnformedAndUnfiredGuns) {
  observer_and_target(20);
  scene.objects[0].elevation = 1;
  scene.objects.push_back(body(7, {0, 8}, 6, 1, SceneKind::kUnformed));
  scene.objects.push_back(body(8, {0, 12}, 6, 1, SceneKind::kGun));
  EXPECT_TRUE(sees().visible);
}

TEST_F(Visibility, SmokeOfGunsThatFiredBlocksUnlessSignificantlyHigh) {
  observer_and_target(20);
  scene.objects.push_back(body(7, {0, 10}, 6, 1, SceneKind::kGun));
  scene.objects[2].shot_this_turn = true;
  EXPECT_EQ(sees().reason, SightBlock::kSmoke);
  scene.objects[0].elevation = 1;
  EXPECT_EQ(sees().reason, SightBlock::kSmoke);
  scene.objects[0].significantly_high = true;
  EXPECT_TRUE(sees().visible);
}

TEST_F(Visibility, HigherGroundDoesNotSeeOverWoodsUnlessSignificantlyHigh) {
  observer_and_target(20);
  scene.objects[0].elevation = 1;
  const TerrainMap wood({}, {{"w", AreaKind::kWood, square(-10, 8, 10, 12)}}, {}, {});
  EXPECT_EQ(sees(wood).reason, SightBlock::kCover);
  scene.objects[0].significantly_high = true;
  EXPECT_TRUE(sees(wood).visible);
  // ...but not into it: troops deep inside stay hidden.
  const TerrainMap deep({}, {{"w", AreaKind::kWood, square(-10, 8, 10, 30)}}, {}, {});
  EXPECT_EQ(sees(deep).reason, SightBlock::kCover);
}

// ---- Seats ----

TEST_F(Visibility, ASeatSeesWhatAnyOfItsObserversSees) {
  // Seat bit 0: observers 0 and 2; seat bit 1: observer 3. Target 1.
  observer_and_target(20);
  scene.objects.push_back(body(102, {30, 20}));  // seat 0, sees the target from the side
  scene.objects[2].observer_for = 1;
  scene.objects.push_back(body(103, {0, -20}));  // seat 1, behind observer 0
  scene.objects[3].observer_for = 2;
  scene.objects.push_back(body(7, {0, 10}, 6));  // screens the target from the south
  const auto masks = compute_visibility(scene, open, rules);
  ASSERT_EQ(masks.size(), 5u);
  EXPECT_EQ(masks[1], 1u);        // seen by seat 0 via observer 2 only
  EXPECT_EQ(masks[0] & 1u, 1u);   // an observer's seat always sees it
  EXPECT_EQ(masks[4], 3u);        // the screen is seen by both seats
  const auto ids = visible_to(scene, open, rules, 2);
  EXPECT_EQ(ids, (std::vector<std::uint32_t>{100, 103, 7}));
}

TEST_F(Visibility, AnObserverNeverBlocksItsOwnLinesEvenFromPointsOutsideItsFootprint) {
  // The caller's sight point lies behind the observer's own gun: the line
  // to the target crosses the gun, which never blocks its own lines.
  SceneObject gun;
  gun.id = 100;
  gun.kind = SceneKind::kGun;
  gun.bases = {OrientedRect{{0, 0}, 2, 1, 0}};
  gun.sight_points = {{0, -3}};
  gun.observer_for = 1;
  scene.objects.push_back(gun);
  SceneObject leader;
  leader.id = 101;
  leader.kind = SceneKind::kLeader;
  leader.bases = {OrientedRect{{0, 2}, 0.5, 0.5, 0}};
  leader.observer_for = 2;
  scene.objects.push_back(leader);
  // A wide body far off: large point boxes widen every point's shadow reach.
  scene.objects.push_back(body(7, {60, 60}, 20));
  EXPECT_TRUE(sees().visible);
  const auto masks = compute_visibility(scene, open, rules);
  EXPECT_EQ(masks[1] & 1u, 1u);
}

TEST_F(Visibility, ObjectsWithoutObserversSeeNothing) {
  observer_and_target(5);
  scene.objects[0].observer_for = 0;
  const auto masks = compute_visibility(scene, open, rules);
  EXPECT_EQ(masks[0], 0u);
  EXPECT_EQ(masks[1], 0u);
}

TEST(VisibilityPoints, DefaultSightPoints) {
  const OrientedRect r{{0, 0}, 4, 2, 0};
  // One base is one model: its centre.
  const auto one = default_sight_points(std::span<const OrientedRect>(&r, 1));
  ASSERT_EQ(one.size(), 1u);
  EXPECT_DOUBLE_EQ(one[0].x, 0);
  // Two bases side by side: centre, then the corners pulled in 1%.
  const std::vector<OrientedRect> pair{{{-1, 0}, 2, 2, 0}, {{1, 0}, 2, 2, 0}};
  const auto two = default_sight_points(pair);
  ASSERT_EQ(two.size(), 5u);
  EXPECT_NEAR(two[0].x, 0, 1e-12);
  EXPECT_NEAR(two[1].x, -1.96, 1e-12);
  EXPECT_NEAR(two[1].y, 0.98, 1e-12);
  // A line of bases is one body: the envelope's points.
  const auto line = layout_ranks({0, 0}, 0, 1, 1, 4, 4);
  EXPECT_EQ(default_sight_points(line).size(), 5u);
  // Spaced (unformed) bases: every centre plus the envelope's corners.
  const auto spaced = layout_ranks({0, 0}, 0, 1, 1, 3, 3, 1.0);
  EXPECT_EQ(default_sight_points(spaced).size(), 7u);
}

// ---- The fast path agrees with the slow one ----

struct Lcg {
  std::uint64_t s;
  double next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(s >> 11) / static_cast<double>(1ull << 53);
  }
};

TEST(VisibilityProperties, EngineAgreesWithPairwiseCanSee) {
  Lcg g{99};
  const TerrainMap terrain(
      {{"h", square(20, 20, 35, 30), 1, false, false}, {"hh", square(24, 22, 30, 27), 2, false, true}},
      {{"w", AreaKind::kWood, square(45, 5, 65, 30)}, {"t", AreaKind::kTown, square(8, 36, 18, 46)}}, {}, {});
  const VisibilityRules rules = malbrook_like();
  for (int round = 0; round < 2; ++round) {
    Scene scene;
    for (std::uint32_t i = 0; i < 24; ++i) {
      SceneObject o;
      o.id = i;
      o.kind = static_cast<SceneKind>(static_cast<int>(g.next() * 6));
      const Vec2 c{15 + g.next() * 45, 5 + g.next() * 35};  // dense: screens and neighbours
      // One model, or a body of up to four bases in a line, a column, or spaced out.
      const int n = 1 + static_cast<int>(g.next() * 4);
      const double shape = g.next();
      o.bases = layout_ranks(c, g.next() * 360, 0.5 + g.next() * 1.5, 1, n, shape < 0.5 ? n : 1,
                             shape > 0.8 ? 0.7 : 0.0, 0.0);
      o.elevation = terrain.elevation_at(c);
      if (const Hill* h = terrain.top_hill_at(c)) o.significantly_high = h->significantly_high;
      o.at_cover_edge = g.next() < 0.3;
      o.shot_this_turn = g.next() < 0.3;
      o.observer_for = SeatMask{1} << i;  // one seat each: masks show every pair
      scene.objects.push_back(o);
    }
    VisibilityEngine engine;
    const auto masks = engine.compute(scene, terrain, rules);
    for (std::size_t t = 0; t < scene.objects.size(); ++t) {
      SeatMask expected = scene.objects[t].observer_for;
      const auto marks = default_sight_points(scene.objects[t].bases);
      for (std::size_t o = 0; o < scene.objects.size(); ++o) {
        if (o == t) continue;
        // Line by line, with none of the engine's shortcuts.
        bool any = false;
        for (Vec2 e : default_sight_points(scene.objects[o].bases)) {
          for (Vec2 m : marks) any = any || line_of_sight(scene, terrain, rules, o, e, t, m).visible;
        }
        if (any) expected |= scene.objects[o].observer_for;
        EXPECT_EQ(any, can_see(scene, terrain, rules, o, t).visible) << "round " << round << " " << o << "->" << t;
      }
      EXPECT_EQ(masks[t], expected) << "round " << round << " target " << t;
    }
    // Deterministic and reusable.
    EXPECT_EQ(engine.compute(scene, terrain, rules), masks);
  }
}


// Lines of battle with guns in front, a hill and a wood: the engine's
// shortcuts (neighbours' shadows, screens, cover and hill flags, the reverse
// view) must agree with plain line-by-line sight for every pair.
TEST(VisibilityProperties, BattleLinesAgreeWithLineByLine) {
  const TerrainMap terrain({{"h", square(30, 14, 42, 22), 1, false, false}},
                           {{"w", AreaKind::kWood, square(4, 20, 12, 27)}}, {}, {});
  const VisibilityRules rules = malbrook_like();
  Scene scene;
  std::uint32_t id = 0;
  auto add = [&](SceneKind kind, std::vector<OrientedRect> bases, bool shot = false) {
    SceneObject o;
    o.id = id;
    o.kind = kind;
    o.bases = std::move(bases);
    o.shot_this_turn = shot;
    o.elevation = terrain.elevation_at(o.bases[0].center);
    o.at_cover_edge = terrain.at_edge_of(envelope(o.bases, o.bases[0].facing_deg).polygon(), AreaKind::kWood, 1) != nullptr;
    o.observer_for = SeatMask{1} << id;
    scene.objects.push_back(std::move(o));
    ++id;
  };
  for (int side = 0; side < 2; ++side) {
    const double facing = side == 0 ? 0 : 180;
    const double dir = side == 0 ? 1 : -1;
    for (int line = 0; line < 2; ++line) {
      for (int k = 0; k < 5; ++k) {
        const Vec2 front{6 + k * 7.0 + line * 2.0, 20 - dir * (6 + line * 4.5)};
        if (k == 3 && line == 1) {
          add(SceneKind::kUnformed, layout_ranks(front, facing, 1, 1, 3, 3, 1.0));
        } else {
          add(SceneKind::kFormed, layout_ranks(front, facing, 1, 1, 4, k == 2 ? 2 : 4));
        }
      }
    }
    for (int k = 0; k < 3; ++k) {
      add(SceneKind::kGun, {OrientedRect::from_front_mid({10 + k * 10.0, 20 - dir * 4}, 1.5, 1, facing)}, k == 1);
    }
    add(SceneKind::kLeader, {OrientedRect::from_front_mid({20, 20 - dir * 18}, 0.75, 0.75, facing)});
  }
  ASSERT_LE(scene.objects.size(), 64u);
  const auto masks = compute_visibility(scene, terrain, rules);
  int seen = 0, hidden = 0;
  for (std::size_t t = 0; t < scene.objects.size(); ++t) {
    const auto marks = default_sight_points(scene.objects[t].bases);
    for (std::size_t o = 0; o < scene.objects.size(); ++o) {
      if (o == t) continue;
      bool any = false;
      for (Vec2 e : default_sight_points(scene.objects[o].bases)) {
        for (Vec2 m : marks) any = any || line_of_sight(scene, terrain, rules, o, e, t, m).visible;
      }
      EXPECT_EQ(((masks[t] >> o) & 1u) == 1u, any) << o << " -> " << t;
      (any ? seen : hidden) += 1;
    }
  }
  EXPECT_GT(seen, 100);  // the scene exercises both outcomes
  EXPECT_GT(hidden, 100);
}

}  // namespace
}  // namespace galloper::rules
