#include "rules/core/geometry.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <span>
#include <vector>

namespace galloper::rules {
namespace {

constexpr double kTol = 1e-9;
constexpr double kInf = std::numeric_limits<double>::infinity();

void expect_near(Vec2 a, Vec2 b, double tol = kTol) {
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
}

Polygon square(double x0, double y0, double x1, double y1) { return Polygon{{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}}; }

// ---- Angles ----

TEST(Angles, NormalizeAndDiff) {
  EXPECT_DOUBLE_EQ(normalize_deg(-90), 270);
  EXPECT_DOUBLE_EQ(normalize_deg(720), 0);
  EXPECT_DOUBLE_EQ(normalize_deg(359.5), 359.5);
  EXPECT_DOUBLE_EQ(angle_diff_deg(350, 10), 20);
  EXPECT_DOUBLE_EQ(angle_diff_deg(10, 350), -20);
  EXPECT_DOUBLE_EQ(angle_diff_deg(0, 180), 180);
}

// normalize_deg skips fmod for an angle already in [0, 360): bit for bit the
// value the fmod path gives, at the ends of the range and around them.
TEST(Angles, NormalizeGivesTheFmodValueBitForBit) {
  auto by_fmod = [](double deg) {
    double r = std::fmod(deg, 360.0);
    if (r < 0) r += 360.0;
    if (r >= 360.0) r -= 360.0;
    return r;
  };
  const double cases[] = {0.0,    -0.0,   1e-300, 0.1,   89.99999999999999, 90.0,   180.0, 359.99999999999994,
                          360.0,  -1e-300, -0.1,  -360.0, 720.5,           -720.5, 1e9,   std::nextafter(360.0, 0.0)};
  for (double d : cases) {
    const double want = by_fmod(d);
    const double got = normalize_deg(d);
    EXPECT_EQ(std::memcmp(&want, &got, sizeof(double)), 0) << d;
  }
  for (int i = -2000; i <= 2000; ++i) {
    const double d = i * 0.37;
    const double want = by_fmod(d);
    const double got = normalize_deg(d);
    EXPECT_EQ(std::memcmp(&want, &got, sizeof(double)), 0) << d;
  }
}

TEST(Angles, FacingUnitIsClockwiseFromNorth) {
  expect_near(facing_unit(0), {0, 1});
  expect_near(facing_unit(90), {1, 0});
  expect_near(facing_unit(180), {0, -1});
  expect_near(facing_unit(270), {-1, 0});
  expect_near(facing_unit(45), {std::sqrt(0.5), std::sqrt(0.5)});
  EXPECT_EQ(facing_unit(90).y, 0.0);  // exact for right angles
}

TEST(Angles, BearingAndRotation) {
  EXPECT_DOUBLE_EQ(bearing_of({1, 0}), 90);
  EXPECT_DOUBLE_EQ(bearing_of({0, -1}), 180);
  EXPECT_DOUBLE_EQ(bearing_of({-1, 1}), 315);
  expect_near(rotate_cw({0, 1}, 90), {1, 0});
  expect_near(rotate_cw_about({1, 1}, {1, 0}, 180), {1, -1});
}

// ---- Segments ----

TEST(Segments, IntersectCrossingTouchingParallel) {
  EXPECT_TRUE(segments_intersect({{0, 0}, {2, 2}}, {{0, 2}, {2, 0}}));
  EXPECT_TRUE(segments_cross_properly({{0, 0}, {2, 2}}, {{0, 2}, {2, 0}}));
  // Touching at an endpoint: intersects, but not a proper crossing.
  EXPECT_TRUE(segments_intersect({{0, 0}, {1, 0}}, {{1, 0}, {1, 1}}));
  EXPECT_FALSE(segments_cross_properly({{0, 0}, {1, 0}}, {{1, 0}, {1, 1}}));
  // Parallel apart, collinear apart, collinear overlapping.
  EXPECT_FALSE(segments_intersect({{0, 0}, {1, 0}}, {{0, 1}, {1, 1}}));
  EXPECT_FALSE(segments_intersect({{0, 0}, {1, 0}}, {{2, 0}, {3, 0}}));
  EXPECT_TRUE(segments_intersect({{0, 0}, {2, 0}}, {{1, 0}, {3, 0}}));
  // Zero-length segments.
  EXPECT_TRUE(segments_intersect({{1, 0}, {1, 0}}, {{0, 0}, {2, 0}}));
  EXPECT_FALSE(segments_intersect({{1, 1}, {1, 1}}, {{0, 0}, {2, 0}}));
}

TEST(Segments, Distances) {
  EXPECT_DOUBLE_EQ(distance(Segment{{0, 0}, {4, 0}}, Vec2{2, 3}), 3);
  EXPECT_DOUBLE_EQ(distance(Segment{{0, 0}, {4, 0}}, Vec2{7, 4}), 5);
  EXPECT_DOUBLE_EQ(distance(Segment{{0, 0}, {0, 0}}, Vec2{3, 4}), 5);
  EXPECT_DOUBLE_EQ(distance(Segment{{0, 0}, {4, 0}}, Segment{{0, 2}, {4, 2}}), 2);  // parallel
  EXPECT_DOUBLE_EQ(distance(Segment{{0, 0}, {4, 0}}, Segment{{6, 0}, {9, 0}}), 2);  // collinear
  EXPECT_DOUBLE_EQ(distance(Segment{{0, 0}, {4, 4}}, Segment{{0, 4}, {4, 0}}), 0);  // crossing
  EXPECT_NEAR(distance(Segment{{0, 0}, {1, 0}}, Segment{{2, 1}, {3, 5}}), std::sqrt(2.0), kTol);
}

TEST(Segments, IntersectionParam) {
  EXPECT_NEAR(*segment_intersection_param({{0, 0}, {4, 0}}, {{1, -1}, {1, 1}}), 0.25, kTol);
  EXPECT_NEAR(*segment_intersection_param({{0, 0}, {4, 0}}, {{2, 0}, {6, 0}}), 0.5, kTol);  // collinear
  EXPECT_FALSE(segment_intersection_param({{0, 0}, {4, 0}}, {{5, -1}, {5, 1}}).has_value());
}

TEST(Circles, SegmentAgainstDisc) {
  EXPECT_TRUE(segment_intersects_circle({{-5, 1}, {5, 1}}, {{0, 0}, 1}));   // tangent
  EXPECT_FALSE(segment_intersects_circle({{-5, 1.1}, {5, 1.1}}, {{0, 0}, 1}));
  EXPECT_TRUE(segment_intersects_circle({{0.1, 0.1}, {0.2, 0.2}}, {{0, 0}, 1}));  // inside
}

// ---- Polygons ----

TEST(Polygons, AreaCentroidConvexity) {
  const Polygon sq = square(0, 0, 2, 2);
  EXPECT_DOUBLE_EQ(sq.signed_area(), 4);
  EXPECT_DOUBLE_EQ(sq.area(), 4);
  expect_near(sq.centroid(), {1, 1});
  EXPECT_TRUE(sq.is_convex());
  const Polygon l{{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}};
  EXPECT_FALSE(l.is_convex());
  EXPECT_DOUBLE_EQ(l.area(), 3);
}

TEST(Polygons, PointInPolygonWithBoundary) {
  const Polygon l{{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}};
  EXPECT_TRUE(contains(l, {0.5, 0.5}));
  EXPECT_TRUE(contains(l, {0.5, 1.5}));
  EXPECT_FALSE(contains(l, {1.5, 1.5}));  // the notch
  EXPECT_TRUE(contains(l, {1, 1.5}));     // on the boundary
  EXPECT_TRUE(contains(l, {2, 0}));       // a vertex
  EXPECT_FALSE(contains_strictly(l, {1, 1.5}));
  EXPECT_TRUE(contains_strictly(l, {0.5, 0.5}, 0.4));
  EXPECT_FALSE(contains_strictly(l, {0.5, 0.5}, 0.5));
  EXPECT_DOUBLE_EQ(distance(l, Vec2{1.5, 1.5}), 0.5);
  EXPECT_DOUBLE_EQ(distance(l, Vec2{0.5, 0.5}), 0);
  EXPECT_DOUBLE_EQ(boundary_distance(l, Vec2{0.5, 0.5}), 0.5);
}

TEST(Polygons, SegmentAndPolygon) {
  const Polygon sq = square(0, 0, 2, 2);
  EXPECT_TRUE(intersects(sq, Segment{{-1, 1}, {3, 1}}));   // through
  EXPECT_TRUE(intersects(sq, Segment{{0.5, 0.5}, {1, 1}}));  // inside
  EXPECT_TRUE(intersects(sq, Segment{{-1, 2}, {3, 2}}));   // along an edge
  EXPECT_FALSE(intersects(sq, Segment{{-1, 3}, {3, 3}}));
  const auto iv = clip_segment({{-1, 1}, {3, 1}}, sq);
  ASSERT_EQ(iv.size(), 1u);
  EXPECT_NEAR(iv[0][0], 0.25, kTol);
  EXPECT_NEAR(iv[0][1], 0.75, kTol);
  // Through the notch of an L: two stretches.
  const Polygon u{{{0, 0}, {3, 0}, {3, 3}, {2, 3}, {2, 1}, {1, 1}, {1, 3}, {0, 3}}};
  const auto two = clip_segment({{-1, 2}, {4, 2}}, u);
  ASSERT_EQ(two.size(), 2u);
  EXPECT_NEAR(length_inside({{-1, 2}, {4, 2}}, u), 2, kTol);
}

TEST(Polygons, PolygonPolygonIntersectionAndDistance) {
  const Polygon a = square(0, 0, 2, 2);
  EXPECT_TRUE(intersects(a, square(1, 1, 3, 3)));           // overlap
  EXPECT_TRUE(intersects(a, square(2, 0, 4, 2)));           // shared edge
  EXPECT_TRUE(intersects(a, square(2, 2, 3, 3)));           // shared corner
  EXPECT_TRUE(intersects(a, square(0.5, 0.5, 1, 1)));       // contained
  EXPECT_TRUE(intersects(square(-1, -1, 5, 5), a));         // containing
  EXPECT_FALSE(intersects(a, square(3, 0, 4, 2)));
  EXPECT_DOUBLE_EQ(distance(a, square(3, 0, 4, 2)), 1);
  EXPECT_DOUBLE_EQ(distance(a, square(5, 6, 7, 8)), 5);     // corner to corner 3-4-5
  EXPECT_DOUBLE_EQ(distance(a, square(1, 1, 3, 3)), 0);
  EXPECT_DOUBLE_EQ(distance(a, Segment{{3, 1}, {3, 5}}), 1);
}

// The straightforward edge-to-edge distance: every pair of edges.
double distance_every_pair(const Polygon& a, const Polygon& b) {
  if (intersects(a, b)) return 0;
  double best = kInf;
  for (std::size_t i = 0; i < a.edge_count(); ++i) {
    for (std::size_t j = 0; j < b.edge_count(); ++j) best = std::min(best, distance(a.edge(i), b.edge(j)));
  }
  return best;
}

// distance(Polygon, Polygon) measures vertex to edge once no edges can meet;
// bit for bit what every pair of edges gives, on random rectangles (square to
// the table and not), triangles and L shapes: far, near, touching, a hair
// apart (inside and outside the 1e-6 box band), crossing and nested.
TEST(Polygons, DistanceEqualsEveryPairOfEdges) {
  std::mt19937 g(777);
  auto real = [&](double lo, double hi) { return lo + (hi - lo) * (static_cast<double>(g()) / 4294967296.0); };
  int zero = 0, hair = 0;
  for (int i = 0; i < 20000; ++i) {
    const bool square_to = i % 3 == 0;
    const OrientedRect ra{{real(-60, 60), real(-60, 60)}, real(0.1, 10), real(0.1, 4), square_to ? 0.0 : real(0, 360)};
    OrientedRect rb{ra.center + Vec2{real(-12, 12), real(-12, 12)}, real(0.1, 10), real(0.1, 4),
                    square_to ? 90.0 * static_cast<int>(real(0, 4)) : real(0, 360)};
    if (i % 5 == 2) {
      // Side by side along a's right flank, apart by nothing or a hair.
      const std::array gaps{0.0, 1e-12, 5e-10, 2e-9, 5e-7, 2e-6, -1e-10};
      const double apart = gaps[static_cast<std::size_t>(real(0, 7))];
      rb = OrientedRect{ra.center + ra.right() * (ra.width / 2 + rb.width / 2 + apart) + ra.forward() * real(-3, 3),
                        rb.width, rb.depth, ra.facing_deg};
      if (apart > 0) ++hair;
    }
    Polygon a = ra.polygon();
    Polygon b = rb.polygon();
    if (i % 7 == 3) {
      const auto c = rb.corners();
      b.points = {c[0], (c[0] + c[1]) * 0.5, (c[0] + c[2]) * 0.5, (c[1] + c[2]) * 0.5, c[2], c[3]};
    } else if (i % 7 == 5) {
      a.points.pop_back();
    }
    const double want = distance_every_pair(a, b);
    ASSERT_EQ(distance(a, b), want) << "case " << i;
    ASSERT_EQ(distance(b, a), distance_every_pair(b, a)) << "case " << i;
    if (a.points.size() == 4) {
      ASSERT_EQ(distance(ra, b), want) << "case " << i;
      if (b.points.size() == 4) {
        ASSERT_EQ(distance(ra, rb), want) << "case " << i;
      }
    }
    ASSERT_EQ(intersects(ra, b), intersects(ra.polygon(), b)) << "case " << i;
    if (want == 0) ++zero;
  }
  EXPECT_GT(zero, 1000);
  EXPECT_GT(hair, 1000);
}

// distance(group, rect) measures the base with the nearest box first and
// skips bases by their boxes: the same least distance as measuring every
// base, for random groups (lines, columns, scattered; a few of 40 bases,
// more than it keeps corners for) and rectangles near and far, touching and
// overlapping.
TEST(Polygons, GroupDistanceEqualsMeasuringEveryRectangle) {
  std::mt19937 g(31337);
  auto real = [&](double lo, double hi) { return lo + (hi - lo) * (static_cast<double>(g()) / 4294967296.0); };
  int zero = 0;
  for (int i = 0; i < 5000; ++i) {
    const double facing = i % 3 == 0 ? 0.0 : real(0, 360);
    const int n = i % 50 == 0 ? 40 : static_cast<int>(real(0, 7));
    const std::vector<OrientedRect> group =
        i % 2 == 0 ? layout_ranks({real(-40, 40), real(-40, 40)}, facing, real(0.5, 4), real(0.5, 2), n,
                                  std::max(1, static_cast<int>(real(1, 5))), real(0, 0.5), real(0, 0.5))
                   : [&] {
                       std::vector<OrientedRect> v;
                       for (int k = 0; k < n; ++k) {
                         v.push_back({{real(-40, 40), real(-40, 40)}, real(0.5, 4), real(0.5, 2), real(0, 360)});
                       }
                       return v;
                     }();
    const auto pick = static_cast<std::size_t>(real(0, static_cast<double>(group.size())));
    const Vec2 near = group.empty() ? Vec2{} : group[pick].center;
    const OrientedRect b{near + Vec2{real(-8, 8), real(-8, 8)}, real(0.3, 6), real(0.3, 3),
                         i % 3 == 0 ? 90.0 : real(0, 360)};
    double every = kInf;
    for (const auto& r : group) every = std::min(every, distance(r, b));
    ASSERT_EQ(distance(std::span(group), b), every) << "case " << i;
    if (every == 0) ++zero;
  }
  EXPECT_GT(zero, 300);
}

TEST(Polygons, ConvexPenetration) {
  EXPECT_DOUBLE_EQ(convex_penetration(square(0, 0, 2, 2), square(1.5, 0, 3, 2)), 0.5);
  EXPECT_DOUBLE_EQ(convex_penetration(square(0, 0, 2, 2), square(2, 0, 3, 2)), 0);  // touching
  EXPECT_DOUBLE_EQ(convex_penetration(square(0, 0, 2, 2), square(3, 0, 4, 2)), 0);
}

TEST(Polygons, HullAndHalfPlane) {
  const std::vector<Vec2> pts{{0, 0}, {2, 0}, {1, 1}, {2, 2}, {0, 2}, {1, 0}, {0, 0}};
  const Polygon h = convex_hull(pts);
  EXPECT_EQ(h.points.size(), 4u);
  EXPECT_DOUBLE_EQ(h.area(), 4);
  EXPECT_GT(h.signed_area(), 0);
  const Polygon left = clip_half_plane(square(0, 0, 2, 2), {1, 0}, {1, 0});  // keep x <= 1
  EXPECT_DOUBLE_EQ(left.area(), 2);
}

// ---- Oriented rectangles ----

TEST(OrientedRects, CornersEdgesFacingNorth) {
  const OrientedRect r{{0, 0}, 4, 2, 0};
  const auto c = r.corners();
  expect_near(c[0], {-2, 1});   // front-left
  expect_near(c[1], {2, 1});    // front-right
  expect_near(c[2], {2, -1});   // rear-right
  expect_near(c[3], {-2, -1});  // rear-left
  expect_near(r.front_mid(), {0, 1});
  expect_near(r.rear_mid(), {0, -1});
  expect_near(r.left_flank().a, {-2, 1});
  expect_near(r.left_flank().b, {-2, -1});
  expect_near(r.right(), {1, 0});
}

TEST(OrientedRects, RotatedFacingEast) {
  // Facing east: front edge is the east side; the left is north.
  const OrientedRect r{{10, 10}, 4, 2, 90};
  expect_near(r.front_left(), {11, 12});
  expect_near(r.front_right(), {11, 8});
  expect_near(r.rear_right(), {9, 8});
  expect_near(r.rear_left(), {9, 12});
  expect_near(r.to_local({11, 12}), {-2, 1});
  expect_near(r.to_world({-2, 1}), {11, 12});
  const OrientedRect f = OrientedRect::from_front_mid({11, 10}, 4, 2, 90);
  expect_near(f.center, {10, 10});
  expect_near(r.advanced(3).center, {13, 10});
}

TEST(OrientedRects, ContainsWithTolerance) {
  const OrientedRect r{{0, 0}, 4, 2, 30};
  EXPECT_TRUE(r.contains(r.front_left()));
  EXPECT_TRUE(r.contains({0, 0}));
  const Vec2 outside = r.front_mid() + r.forward() * 0.4;
  EXPECT_FALSE(r.contains(outside));
  EXPECT_TRUE(r.contains(outside, 0.5));
}

TEST(OrientedRects, DistanceOverlapContact) {
  const OrientedRect a{{0, 0}, 4, 2, 0};
  const OrientedRect b{{0, 3.5}, 4, 2, 180};  // 1.5 in front, facing back
  EXPECT_DOUBLE_EQ(distance(a, b), 1.5);
  EXPECT_FALSE(in_contact(a, b));
  EXPECT_FALSE(in_contact(a, b, 1.0));
  EXPECT_TRUE(in_contact(a, b, 1.5));
  const OrientedRect side{{4, 0}, 4, 2, 0};  // exactly side by side
  EXPECT_DOUBLE_EQ(distance(a, side), 0);
  EXPECT_TRUE(in_contact(a, side));
  EXPECT_FALSE(overlaps(a, side));  // touching is not overlap
  const OrientedRect over{{3.8, 0}, 4, 2, 0};
  EXPECT_NEAR(penetration(a, over), 0.2, kTol);
  EXPECT_TRUE(overlaps(a, over, 0.1));
  EXPECT_FALSE(overlaps(a, over, 0.25));
  // Rotated 45 degrees, corner pointing at a's right flank from 1 away.
  const double h = std::sqrt(2.0);  // half-diagonal of a 2x2 square
  const OrientedRect diamond{{2 + 1 + h, 0}, 2, 2, 45};
  EXPECT_NEAR(distance(a, diamond), 1, kTol);
}

TEST(OrientedRects, FrontArc) {
  const OrientedRect r{{0, 0}, 4, 2, 0};  // front edge y = 1 from x -2..2
  EXPECT_TRUE(in_front_arc(r, {0, 5}));
  EXPECT_TRUE(in_front_arc(r, {2, 1}));        // the front corner itself
  EXPECT_TRUE(in_front_arc(r, {5, 4}));        // on the 45 degree line from the right corner
  EXPECT_FALSE(in_front_arc(r, {5.01, 4}));
  EXPECT_FALSE(in_front_arc(r, {0, 0.9}));     // behind the front line
  EXPECT_TRUE(in_front_arc(r, {-2.5, 1.5}));
  EXPECT_FALSE(in_front_arc(r, {-2.6, 1.5}));
  // A target straight ahead of a flank base of a long line is in the arc.
  const OrientedRect line{{0, 0}, 12, 1, 0};
  EXPECT_TRUE(in_front_arc(line, {5.5, 1.5}));
  // Footprint: any part counts.
  EXPECT_TRUE(in_front_arc(r, OrientedRect{{6, 4}, 2, 1, 0}.polygon()));
  EXPECT_FALSE(in_front_arc(r, OrientedRect{{8, 4}, 2, 1, 0}.polygon()));
  // Rotated: facing east, a point north-east ahead at 45 degrees from the left corner.
  const OrientedRect e{{0, 0}, 4, 2, 90};  // front edge x = 1 from y -2..2, left corner (1,2)
  EXPECT_TRUE(in_front_arc(e, {4, 5}));
  EXPECT_FALSE(in_front_arc(e, {4, 5.1}));
  const Polygon arc = front_arc_polygon(r, 3);
  EXPECT_DOUBLE_EQ(arc.area(), 3 * (4 + 10) / 2.0);
}

// A rectangle in the arc is asked about without building its polygon: the
// same answer as its polygon's, on random pairs near, touching and far, at
// square and any facings.
TEST(OrientedRects, ARectangleIsInTheArcExactlyWhenItsPolygonIs) {
  const OrientedRect r{{0, 0}, 4, 2, 0};
  EXPECT_TRUE(rect_in_front_arc(r, OrientedRect{{6, 4}, 2, 1, 0}));
  EXPECT_FALSE(rect_in_front_arc(r, OrientedRect{{8, 4}, 2, 1, 0}));
  std::mt19937 g(2024);
  auto real = [&](double lo, double hi) { return lo + (hi - lo) * (static_cast<double>(g()) / 4294967296.0); };
  int in = 0, out = 0;
  for (int i = 0; i < 4000; ++i) {
    const double square = 90.0 * static_cast<int>(real(0, 4));
    const OrientedRect gun{{real(-20, 20), real(-20, 20)}, real(0.5, 6), real(0.5, 3), i % 2 ? square : real(0, 360)};
    const OrientedRect t{gun.center + Vec2{real(-15, 15), real(-15, 15)}, real(0.2, 8), real(0.2, 3),
                         i % 3 ? square : real(0, 360)};
    const double half = i % 5 == 0 ? 0.0 : 45.0;
    const bool want = in_front_arc(gun, t.polygon(), half);
    ASSERT_EQ(rect_in_front_arc(gun, t, half), want) << i;
    ++(want ? in : out);
  }
  EXPECT_GT(in, 500);
  EXPECT_GT(out, 500);
}

TEST(OrientedRects, ToTheFront) {
  const OrientedRect r{{0, 0}, 4, 2, 0};
  EXPECT_TRUE(to_front(r, {2, 10}));
  EXPECT_FALSE(to_front(r, {2.1, 10}));
  EXPECT_TRUE(ahead_of_front_line(r, {2.1, 10}));
  EXPECT_FALSE(ahead_of_front_line(r, {0, 0.5}));
  EXPECT_TRUE(to_front(r, OrientedRect{{3, 5}, 2.2, 1, 0}.polygon()));  // overlaps the projection
  EXPECT_FALSE(to_front(r, OrientedRect{{4, 5}, 2, 1, 0}.polygon()));   // touches x = 3..5: no
  const auto d = distance_to_front(r, OrientedRect{{1, 3.5}, 2, 1, 180}.polygon());
  ASSERT_TRUE(d.has_value());
  EXPECT_DOUBLE_EQ(*d, 2);
  EXPECT_FALSE(distance_to_front(r, OrientedRect{{10, 3.5}, 2, 1, 180}.polygon()).has_value());
  // Skewed target: the nearest part within the projection, not its corner outside it.
  const Polygon skew{{{1, 2}, {4, 1.5}, {4, 5}, {1, 5}}};
  EXPECT_NEAR(*distance_to_front(r, skew), 5.0 / 6, kTol);  // at x = 2 the edge is at y = 11/6
}

TEST(OrientedRects, DirectlyBehind) {
  const OrientedRect lead{{0, 0}, 4, 2, 0};  // rear edge y = -1
  EXPECT_TRUE(directly_behind(lead, OrientedRect{{0, -4}, 4, 2, 0}, 4));   // gap 2
  EXPECT_FALSE(directly_behind(lead, OrientedRect{{0, -7}, 4, 2, 0}, 4));  // gap 5
  EXPECT_TRUE(directly_behind(lead, OrientedRect{{0, -7}, 4, 2, 0}, kInf));
  EXPECT_TRUE(directly_behind(lead, OrientedRect{{2, -4}, 4, 2, 0}, 4));   // centre on the edge of the projection
  EXPECT_FALSE(directly_behind(lead, OrientedRect{{2.5, -4}, 4, 2, 0}, 4));
  EXPECT_FALSE(directly_behind(lead, OrientedRect{{0, -1.5}, 4, 2, 0}, 4));  // overlaps the rear line
  EXPECT_TRUE(directly_behind(lead, OrientedRect{{0, -1.5}, 4, 2, 0}, 4, 0.5));
  EXPECT_FALSE(directly_behind(lead, OrientedRect{{0, 4}, 4, 2, 0}, 4));   // in front
}

// ---- Sweeps ----

TEST(Sweeps, StraightMoveIsHullOfStartAndEnd) {
  const OrientedRect r{{0, 0}, 4, 2, 0};
  const Polygon s = sweep_straight(r, {0, 5});
  EXPECT_DOUBLE_EQ(s.area(), 4 * 7);
  const Polygon diag = sweep_straight(r, {3, 3});
  // Two 4x2 rects plus the band between: area = 8 + |cross(d, ...)| = 8 + 3*2 + 3*4.
  EXPECT_NEAR(diag.area(), 8 + 6 + 12, kTol);
  EXPECT_TRUE(contains(diag, {0, 0}));
  EXPECT_TRUE(contains(diag, {3, 3}));
  EXPECT_TRUE(contains(diag, {2.5, -0.5}));  // on the hull edge y = x - 3
  EXPECT_FALSE(contains(diag, {3, -0.5}));
}

TEST(Sweeps, WheelEndPositionAndDistance) {
  const OrientedRect r{{0, 0}, 4, 2, 0};  // front-left (-2,1), front-right (2,1)
  // Pivot left, wheel forward 90: the line ends facing west, right end now north of the pivot.
  const OrientedRect w = wheel(r, WheelPivot::kLeft, 90);
  EXPECT_DOUBLE_EQ(w.facing_deg, 270);
  expect_near(w.front_right(), {-2, 5});
  expect_near(w.front_left(), {-2, 1});
  // Pivot right, wheel forward 90: faces east.
  const OrientedRect e = wheel(r, WheelPivot::kRight, 90);
  EXPECT_DOUBLE_EQ(e.facing_deg, 90);
  expect_near(e.front_left(), {2, 5});
  // Backward wheel pivoting left: the right end falls back; facing turns clockwise.
  const OrientedRect b = wheel(r, WheelPivot::kLeft, -30);
  EXPECT_DOUBLE_EQ(b.facing_deg, 30);
  expect_near(b.front_left(), {-2, 1});
  EXPECT_NEAR(wheel_distance(r, 90), 4 * kPi / 2, kTol);
  EXPECT_NEAR(wheel_angle_for_distance(r, 4 * kPi / 2), 90, kTol);
}

TEST(Sweeps, WheelRegionExactPoints) {
  const OrientedRect r{{0, 0}, 4, 2, 0};
  const WheelSweep w(r, WheelPivot::kLeft, 90);  // pivot (-2,1), turning anticlockwise
  const Vec2 p = w.pivot();
  expect_near(p, {-2, 1});
  // Inside the quarter disc of radius 4 (the front edge's sweep).
  EXPECT_TRUE(w.contains(p + Vec2{2.8, 2.8}));      // r = 3.96
  // r = 4.1 on bearing 45: beyond the front edge's reach, but the far flank
  // sweeps it (positions turned 57.7..74.2 degrees cover it).
  EXPECT_TRUE(w.contains(p + Vec2{2.9, 2.9}));
  // r = 4.3 on bearing 10: it would take a turn of 101.5 degrees to reach.
  EXPECT_FALSE(w.contains(p + facing_unit(10) * 4.3));
  EXPECT_TRUE(w.contains(p + facing_unit(10) * 4.0));
  // The far rear corner (radius sqrt(20)) sweeps from bearing 116.6 to 26.6:
  // a point at radius 4.3 on bearing 90 (due east of the pivot) is covered.
  EXPECT_TRUE(w.contains(p + Vec2{4.3, 0}));
  // ...but not at radius 4.5 > sqrt(20) = 4.47.
  EXPECT_FALSE(w.contains(p + Vec2{4.5, 0}));
  // Start and end rects are in.
  EXPECT_TRUE(w.contains({1.9, -0.9}));
  EXPECT_TRUE(w.contains(w.end().center));
  // Behind the pivot's side (west of the start's left flank, south of the end): no.
  EXPECT_FALSE(w.contains(p + Vec2{-0.5, -0.5}));
}

TEST(Sweeps, WheelIntersectsShapesExactly) {
  const OrientedRect r{{0, 0}, 4, 2, 0};
  const WheelSweep w(r, WheelPivot::kLeft, 90);
  const Vec2 p = w.pivot();
  // Tiny squares either side of the far corner's arc (radius sqrt(20) = 4.472) on bearing 60.
  const Vec2 in = p + facing_unit(60) * 4.40;
  const Vec2 out = p + facing_unit(60) * 4.50;
  EXPECT_TRUE(w.intersects(square(in.x - 0.01, in.y - 0.01, in.x + 0.01, in.y + 0.01)));
  EXPECT_FALSE(w.intersects(square(out.x - 0.01, out.y - 0.01, out.x + 0.01, out.y + 0.01)));
  // A chord dipping into the swept region (closest approach r = 4.31 on
  // bearing 45) with both ends outside it (r = 4.84).
  EXPECT_TRUE(w.intersects(Segment{p + Vec2{1.5, 4.6}, p + Vec2{4.6, 1.5}}));
  EXPECT_FALSE(w.contains(p + Vec2{1.5, 4.6}));
  EXPECT_FALSE(w.intersects(Segment{p + Vec2{2, 5.5}, p + Vec2{5.5, 2}}));  // closest r = 5.30
  // The outline contains the region.
  const Polygon hull = w.outline(8);
  EXPECT_TRUE(contains(hull, p + Vec2{2.8, 2.8}));
  EXPECT_TRUE(contains(hull, p + Vec2{4.3, 0}));
  // A far shape.
  EXPECT_FALSE(w.intersects(OrientedRect{{20, 20}, 2, 2, 0}));
  EXPECT_TRUE(w.intersects(OrientedRect{{-1, 3}, 1, 1, 0}));  // inside the end rect
  EXPECT_FALSE(w.intersects(OrientedRect{{-4, 3}, 1, 1, 0}));  // beyond the end rect's front
}

TEST(Sweeps, WheelSplitsLongTurns) {
  const OrientedRect r{{0, 0}, 4, 2, 0};
  const WheelSweep w(r, WheelPivot::kRight, 180);
  expect_near(w.end().front_left(), {6, 1});
  EXPECT_TRUE(w.contains({2 + 3.9, 1.1}));  // swept by the front edge through east
  EXPECT_TRUE(w.contains({2.1, 4.0}));
  EXPECT_TRUE(w.contains({2 - 0.1, 4.4}));   // swept by the front edge passing north
  EXPECT_FALSE(w.contains({1, -2}));         // south-west of the pivot: never reached
}

TEST(Sweeps, FirstContact) {
  const OrientedRect a{{0, 0}, 4, 2, 0};
  const OrientedRect b{{1, 6}, 4, 2, 180};  // front edge at y = 5; a's front at y = 1
  const auto t = first_contact(a, {0, 1}, 10, b);
  ASSERT_TRUE(t.has_value());
  EXPECT_NEAR(*t, 4, kTol);
  EXPECT_FALSE(first_contact(a, {0, 1}, 3.9, b).has_value());
  EXPECT_FALSE(first_contact(a, {0, -1}, 100, b).has_value());
  EXPECT_FALSE(first_contact(a, {0, 1}, 100, OrientedRect{{10, 6}, 4, 2, 0}).has_value());
  // Diagonal approach hits a corner.
  const auto d = first_contact(a, facing_unit(45), 100, OrientedRect{{6, 5}, 2, 2, 0});
  ASSERT_TRUE(d.has_value());
  EXPECT_NEAR(*d, 3 * std::sqrt(2.0), kTol);  // corner (2,1) to (5,4)
  EXPECT_EQ(*first_contact(a, {0, 1}, 5, OrientedRect{{4, 0}, 4, 2, 0}), 0);  // already touching
}

// ContactBound never exceeds what first_contact returns (and is infinite only
// where first_contact finds nothing), on random rectangles against random
// rectangles, triangles and L shapes in either winding, near, touching,
// overlapping and far, with exact and slightly-off directions; and it is
// tight for convex pairs (within the slack) where the ray meets the obstacle.
TEST(Sweeps, ContactBoundIsALowerBoundOfFirstContact) {
  std::mt19937 g(4242);
  auto real = [&](double lo, double hi) { return lo + (hi - lo) * (static_cast<double>(g()) / 4294967296.0); };
  int hits = 0, misses = 0, tight = 0;
  for (int i = 0; i < 3000; ++i) {
    const double square_to = i % 3 == 0 ? 90.0 * static_cast<int>(real(0, 4)) : real(0, 360);
    const OrientedRect m{{real(-50, 50), real(-50, 50)}, real(0.2, 12), real(0.2, 4), square_to};
    const double spread = i % 4 == 0 ? 4 : 30;
    const OrientedRect o{m.center + Vec2{real(-spread, spread), real(-spread, spread)}, real(0.2, 12), real(0.2, 4),
                         i % 3 == 0 ? square_to : real(0, 360)};
    Polygon obstacle = o.polygon();
    const bool convex = i % 5 != 4;
    if (!convex) {
      const auto c = o.corners();
      obstacle.points = {c[0], (c[0] + c[1]) * 0.5, (c[0] + c[2]) * 0.5, (c[1] + c[2]) * 0.5, c[2], c[3]};
    } else if (i % 5 == 3) {
      obstacle.points.pop_back();  // a triangle
    }
    if (i % 2 == 1) std::reverse(obstacle.points.begin(), obstacle.points.end());
    const Polygon moving = m.polygon();
    const ContactBound bound(moving, obstacle);
    for (int k = 0; k < 40; ++k) {
      const Vec2 dir = facing_unit(k < 8 ? 45.0 * k : real(0, 360));
      const Vec2 off = dir + Vec2{real(-1e-9, 1e-9), real(-1e-9, 1e-9)};
      const auto c = first_contact(moving, dir, 1e9, obstacle);
      const double lb = bound.lower_bound(dir);
      if (!c) {
        ++misses;
        continue;
      }
      ++hits;
      ASSERT_LE(lb, *c) << "case " << i << " direction " << k;
      ASSERT_LE(bound.lower_bound(off), *c) << "case " << i << " direction " << k;
      if (convex && *c - lb < 1e-4 * (1 + *c)) ++tight;
    }
  }
  EXPECT_GT(hits, 5000);
  EXPECT_GT(misses, 5000);
  EXPECT_GT(tight, hits / 2);
}

// ---- Layout ----

TEST(Layout, LineColumnAndBlock) {
  const auto line = layout_ranks({0, 0}, 0, 1, 1, 4, 4);
  ASSERT_EQ(line.size(), 4u);
  expect_near(line[0].center, {-1.5, -0.5});
  expect_near(line[3].center, {1.5, -0.5});
  const auto col = layout_ranks({0, 0}, 90, 1, 1.25, 3, 1);  // march column facing east
  ASSERT_EQ(col.size(), 3u);
  expect_near(col[0].center, {-0.625, 0});
  expect_near(col[2].center, {-0.625 - 2.5, 0});
  const auto block = layout_ranks({0, 0}, 0, 1, 1, 5, 2, 0.5, 0);  // field column, 5 bases
  ASSERT_EQ(block.size(), 5u);
  expect_near(block[0].center, {-0.75, -0.5});
  expect_near(block[4].center, {0, -2.5});  // the odd base centred in the rear rank
  const OrientedRect env = envelope(block, 0);
  EXPECT_NEAR(env.width, 2.5, kTol);
  EXPECT_NEAR(env.depth, 3, kTol);
  expect_near(env.front_mid(), {0, 0});
}

// ---- Properties ----

struct Lcg {
  std::uint64_t s;
  double next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(s >> 11) / static_cast<double>(1ull << 53);
  }
};

TEST(Properties, RectDistanceSymmetricAndZeroIffIntersecting) {
  Lcg g{12345};
  int zero = 0;
  for (int i = 0; i < 2000; ++i) {
    const OrientedRect a{{g.next() * 10, g.next() * 10}, 0.5 + g.next() * 4, 0.5 + g.next() * 2, g.next() * 360};
    const OrientedRect b{{g.next() * 10, g.next() * 10}, 0.5 + g.next() * 4, 0.5 + g.next() * 2, g.next() * 360};
    const double d1 = distance(a, b);
    const double d2 = distance(b, a);
    EXPECT_NEAR(d1, d2, 1e-12);
    EXPECT_EQ(d1 == 0, intersects(a.polygon(), b.polygon()));
    if (penetration(a, b) > 0) {
      EXPECT_EQ(d1, 0);
    }
    if (d1 > 0) {
      EXPECT_EQ(penetration(a, b), 0);
      // No corner of either is closer than the distance.
      for (Vec2 c : a.corners()) EXPECT_GE(distance(b.polygon(), c) + 1e-12, d1);
    } else {
      ++zero;
    }
  }
  EXPECT_GT(zero, 100);  // the sample exercises both cases
}

TEST(Properties, SweepsContainStartAndEnd) {
  Lcg g{777};
  for (int i = 0; i < 300; ++i) {
    const OrientedRect r{{g.next() * 10, g.next() * 10}, 0.5 + g.next() * 6, 0.5 + g.next() * 3, g.next() * 360};
    const Vec2 d{g.next() * 8 - 4, g.next() * 8 - 4};
    const Polygon s = sweep_straight(r, d);
    for (Vec2 c : r.corners()) EXPECT_TRUE(contains(s, c));
    for (Vec2 c : r.translated(d).corners()) EXPECT_TRUE(contains(s, c));
    const double angle = g.next() * 240 - 120;
    const WheelPivot pv = g.next() < 0.5 ? WheelPivot::kLeft : WheelPivot::kRight;
    const WheelSweep w(r, pv, angle);
    const Polygon outline = w.outline(12);
    // Every intermediate position is inside the exact region and the outline.
    for (int k = 0; k <= 10; ++k) {
      const OrientedRect mid = wheel(r, pv, angle * k / 10.0);
      for (Vec2 c : mid.corners()) {
        EXPECT_TRUE(w.contains(c)) << "i=" << i << " k=" << k;
        EXPECT_TRUE(contains(outline, c));
      }
      EXPECT_TRUE(w.contains(mid.center));
      EXPECT_TRUE(w.intersects(mid.polygon()));
    }
  }
}

TEST(Properties, WheelRegionIsExactlyTheUnionOfPositions) {
  // A point is in the region iff some intermediate position contains it
  // (checked against a fine sampling of positions, away from the boundary).
  Lcg g{4242};
  const OrientedRect r{{0, 0}, 5, 2, 20};
  const WheelSweep w(r, WheelPivot::kRight, 70);
  int agree = 0;
  for (int i = 0; i < 600; ++i) {
    const Vec2 p{g.next() * 16 - 8, g.next() * 16 - 8};
    bool sampled = false;
    bool near_edge = false;
    for (int k = 0; k <= 1000; ++k) {
      const OrientedRect m = wheel(r, WheelPivot::kRight, 70 * k / 1000.0);
      if (m.contains(p)) sampled = true;
      if (m.contains(p, 0.01) != m.contains(p, -0.01)) near_edge = true;
    }
    if (near_edge) continue;
    EXPECT_EQ(w.contains(p), sampled) << p.x << "," << p.y;
    ++agree;
  }
  EXPECT_GT(agree, 500);
}

}  // namespace
}  // namespace galloper::rules
