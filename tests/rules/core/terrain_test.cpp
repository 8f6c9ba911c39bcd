#include "rules/core/terrain.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace galloper::rules {
namespace {

Polygon square(double x0, double y0, double x1, double y1) { return Polygon{{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}}; }

// A small table: two stacked hills, a wood, a town, a marsh, a river with a
// bridge, a hedge, a road.
TerrainMap sample() {
  std::vector<Hill> hills{
      {"h1", square(0, 0, 10, 10), 1, false, false},
      {"h2", square(2, 2, 6, 6), 2, true, true},  // a steeper, higher top on h1
      {"h3", square(30, 0, 34, 4), 1, true, false},
  };
  std::vector<Area> areas{
      {"wood", AreaKind::kWood, square(20, 20, 30, 30)},
      {"town", AreaKind::kTown, square(40, 20, 44, 24)},
      {"marsh", AreaKind::kMarsh, square(50, 0, 55, 5)},
  };
  std::vector<Linear> linears{
      {"river", LinearKind::kRiver, Polyline{{{0, 40}, {60, 40}}}, 1, true, true},
      {"hedge", LinearKind::kHedge, Polyline{{{15, 0}, {15, 15}}}, 0, false, false},
      {"road", LinearKind::kRoad, Polyline{{{10, 45}, {10, 35}, {40, 35}}}, 1, false, false},
  };
  std::vector<Crossing> crossings{
      {"bridge", CrossingKind::kBridge, "river", square(9, 39, 11, 41)},
  };
  return TerrainMap(std::move(hills), std::move(areas), std::move(linears), std::move(crossings), 5);
}

TEST(Terrain, ElevationIsTheHighestContainingHill) {
  const TerrainMap t = sample();
  EXPECT_DOUBLE_EQ(t.elevation_at({1, 1}), 1);
  EXPECT_DOUBLE_EQ(t.elevation_at({4, 4}), 2);
  EXPECT_DOUBLE_EQ(t.elevation_at({6, 4}), 2);  // on h2's outline
  EXPECT_DOUBLE_EQ(t.elevation_at({12, 4}), 0);
  EXPECT_DOUBLE_EQ(t.elevation_at({-100, -100}), 0);  // off the indexed extent
  ASSERT_NE(t.top_hill_at({4, 4}), nullptr);
  EXPECT_EQ(t.top_hill_at({4, 4})->id, "h2");
  EXPECT_EQ(t.top_hill_at({12, 4}), nullptr);
  EXPECT_EQ(t.hills_overlapping(OrientedRect{{9, 5}, 4, 1, 0}.polygon()).size(), 1u);
}

TEST(Terrain, AreasAtPointsAndUnderFootprints) {
  const TerrainMap t = sample();
  EXPECT_TRUE(t.area_at({25, 25}, AreaKind::kWood));
  EXPECT_FALSE(t.area_at({25, 25}, AreaKind::kTown));
  EXPECT_EQ(t.areas_at({19, 25}).size(), 0u);
  // Touching the wood's outline from outside is not overlapping it.
  EXPECT_TRUE(t.areas_overlapping(OrientedRect{{19, 25}, 2, 2, 0}).empty());
  EXPECT_EQ(t.areas_overlapping(OrientedRect{{19.5, 25}, 2, 2, 0}).size(), 1u);
  // A footprint wholly containing a small town still overlaps it.
  EXPECT_EQ(t.areas_overlapping(square(39, 19, 45, 25)).size(), 1u);
}

TEST(Terrain, RoughGround) {
  const TerrainMap t = sample();
  EXPECT_TRUE(t.is_rough(OrientedRect{{52, 2}, 2, 1, 0}));    // marsh
  EXPECT_TRUE(t.is_rough(OrientedRect{{42, 22}, 1, 1, 0}));   // town
  EXPECT_FALSE(t.is_rough(OrientedRect{{12, 12}, 2, 1, 0}));  // open
  EXPECT_FALSE(t.is_rough(OrientedRect{{32, 2}, 1, 1, 0}));   // steep hill, not counted
  EXPECT_TRUE(t.is_rough(OrientedRect{{32, 2}, 1, 1, 0}, true));
}

TEST(Terrain, InsideAndAtTheEdge) {
  const TerrainMap t = sample();
  const OrientedRect deep{{25, 25}, 2, 1, 0};
  const OrientedRect edge{{25, 29}, 2, 1, 0};       // rear at 28.5, front at 29.5: 0.5 from the edge
  const OrientedRect straddle{{25, 30}, 2, 1, 0};   // half in, half out
  const OrientedRect outside{{25, 31}, 2, 1, 0};    // touching from outside
  EXPECT_NE(t.inside_area(deep.polygon(), AreaKind::kWood), nullptr);
  EXPECT_EQ(t.inside_area(straddle.polygon(), AreaKind::kWood), nullptr);
  EXPECT_EQ(t.at_edge_of(deep, AreaKind::kWood, 1), nullptr);
  EXPECT_NE(t.at_edge_of(edge, AreaKind::kWood, 1), nullptr);
  EXPECT_EQ(t.at_edge_of(edge, AreaKind::kWood, 0.4), nullptr);
  EXPECT_NE(t.at_edge_of(straddle, AreaKind::kWood, 0), nullptr);
  EXPECT_EQ(t.at_edge_of(outside, AreaKind::kWood, 1), nullptr);
  EXPECT_EQ(t.at_edge_of(edge, AreaKind::kTown, 1), nullptr);
}

TEST(Terrain, ObstaclesCrossedBySegments) {
  const TerrainMap t = sample();
  const auto none = t.obstacles_crossed(Segment{{20, 10}, {20, 20}});
  EXPECT_TRUE(none.empty());
  // Crossing the hedge then the river, away from the bridge: in order, no bridge.
  const auto two = t.obstacles_crossed(Segment{{14, 10}, {16, 10}});
  ASSERT_EQ(two.size(), 1u);
  EXPECT_EQ(two[0].feature->id, "hedge");
  EXPECT_DOUBLE_EQ(two[0].point.x, 15);
  const auto river = t.obstacles_crossed(Segment{{30, 38}, {30, 42}});
  ASSERT_EQ(river.size(), 1u);
  EXPECT_EQ(river[0].feature->id, "river");
  EXPECT_TRUE(river[0].feature->impassable);
  EXPECT_EQ(river[0].via, nullptr);
  const auto bridged = t.obstacles_crossed(Segment{{10, 38}, {10, 42}});
  ASSERT_EQ(bridged.size(), 1u);
  ASSERT_NE(bridged[0].via, nullptr);
  EXPECT_EQ(bridged[0].via->kind, CrossingKind::kBridge);
  // Roads are not obstacles.
  for (const auto& c : t.obstacles_crossed(Segment{{5, 35}, {15, 35}})) EXPECT_NE(c.feature->id, "road");
  // Order along the path: hedge (x = 15) before the river (y = 40).
  const auto ordered = t.obstacles_crossed(Segment{{14, 0}, {17, 41}});
  ASSERT_EQ(ordered.size(), 2u);
  EXPECT_EQ(ordered[0].feature->id, "hedge");
  EXPECT_EQ(ordered[1].feature->id, "river");
}

TEST(Terrain, ObstaclesCrossedBySweptAreas) {
  const TerrainMap t = sample();
  // A column crossing on the bridge: the river inside its sweep lies on the bridge.
  const OrientedRect column{{10, 37}, 1, 2, 0};
  const Polygon narrow = sweep_straight(column, {0, 5});
  const auto c = t.obstacles_crossed(narrow);
  ASSERT_EQ(c.size(), 1u);
  ASSERT_NE(c[0].via, nullptr);
  // A line 6 wide cannot use the 2-wide bridge.
  const OrientedRect line{{10, 37}, 6, 1, 0};
  const auto w = t.obstacles_crossed(sweep_straight(line, {0, 5}));
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0].via, nullptr);
  EXPECT_DOUBLE_EQ(w[0].point.y, 40);
  // A wheel whose sweep reaches the hedge.
  // Facing east, front edge x = 12.5 from (12.5,7) to (12.5,3): pivoting on the
  // left (north) corner, the right end swings out to x = 15.96 at 60 degrees.
  const WheelSweep wheel_near(OrientedRect{{12, 5}, 4, 1, 90}, WheelPivot::kLeft, 60);
  const auto h = t.obstacles_crossed(wheel_near);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0].feature->id, "hedge");
  const WheelSweep wheel_far(OrientedRect{{12, 12}, 2, 1, 0}, WheelPivot::kRight, 45);
  EXPECT_TRUE(t.obstacles_crossed(wheel_far).empty());
}

TEST(Terrain, Roads) {
  const TerrainMap t = sample();
  EXPECT_TRUE(t.on_road({10, 40}));
  EXPECT_TRUE(t.on_road({10.5, 40}));
  EXPECT_FALSE(t.on_road({10.6, 40}));
  EXPECT_TRUE(t.on_road({10.6, 40}, 0.1));
  EXPECT_TRUE(t.on_road({25, 35.4}));
  ASSERT_NE(t.road_at({25, 35}), nullptr);
  EXPECT_EQ(t.road_at({25, 35})->id, "road");
  EXPECT_DOUBLE_EQ(t.distance_to_road({25, 30}), 5);
}

TEST(Terrain, ManyFeaturesIndexAgreesWithBruteForce) {
  std::vector<Hill> hills;
  std::vector<Area> areas;
  for (int i = 0; i < 30; ++i) {
    const double x = (i * 37) % 90;
    const double y = (i * 53) % 70;
    hills.push_back({"h" + std::to_string(i), square(x, y, x + 6, y + 4), 1.0 + i % 3, false, false});
    areas.push_back({"a" + std::to_string(i), static_cast<AreaKind>(i % 4), square(x + 1, y + 1, x + 4, y + 3)});
  }
  const auto hills_copy = hills;
  const TerrainMap t(std::move(hills), std::move(areas), {}, {});
  for (int gx = 0; gx < 100; gx += 3) {
    for (int gy = 0; gy < 80; gy += 3) {
      const Vec2 p{gx + 0.5, gy + 0.5};
      double expected = 0;
      for (const auto& h : hills_copy) {
        if (contains(h.outline, p)) expected = std::max(expected, h.elevation);
      }
      EXPECT_DOUBLE_EQ(t.elevation_at(p), expected);
    }
  }
}

}  // namespace
}  // namespace galloper::rules
