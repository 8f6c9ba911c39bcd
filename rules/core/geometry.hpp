#pragma once
// Exact continuous geometry in table units (inches for Malbrook, yards for
// Close Fire & European Order): the ruleset passes every distance in.
//
// Conventions (same as vec2.hpp): x east, y north; angles and facings in
// degrees clockwise from north, so facing 0 looks along +y and 90 along +x.
// "Touching" counts as intersecting everywhere below unless a function says
// otherwise; tolerances are explicit parameters, never hidden constants,
// except kGeomEpsilon which only absorbs floating-point rounding.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "rules/core/vec2.hpp"

namespace galloper::rules {

inline constexpr double kPi = 3.14159265358979323846;
// Absorbs rounding only (1e-9 of a table unit); never a rules tolerance.
inline constexpr double kGeomEpsilon = 1e-9;

// ---- Angles ----
constexpr double deg_to_rad(double deg) { return deg * (kPi / 180.0); }
constexpr double rad_to_deg(double rad) { return rad * (180.0 / kPi); }
// Into [0, 360).
double normalize_deg(double deg);
// Signed smallest difference b - a, in (-180, 180].
double angle_diff_deg(double a, double b);
// Unit vector pointing along a facing: facing 0 -> (0,1), 90 -> (1,0).
Vec2 facing_unit(double facing_deg);
// Compass bearing of a direction (clockwise from north), in [0, 360). (0,0) -> 0.
double bearing_of(Vec2 direction);
// Rotates v clockwise by deg (the same sense as facings).
Vec2 rotate_cw(Vec2 v, double deg);
// Rotates p clockwise by deg about centre c.
Vec2 rotate_cw_about(Vec2 p, Vec2 c, double deg);
inline double distance(Vec2 a, Vec2 b) { return length(b - a); }
inline double distance_sq(Vec2 a, Vec2 b) { return dot(b - a, b - a); }

// ---- Axis-aligned boxes (broad phase) ----
struct Aabb {
  Vec2 min{1e300, 1e300};
  Vec2 max{-1e300, -1e300};
  bool empty() const { return min.x > max.x || min.y > max.y; }
  // Defined here: they sit in every broad phase's inner loop.
  void add(Vec2 p) {
    min.x = p.x < min.x ? p.x : min.x;
    min.y = p.y < min.y ? p.y : min.y;
    max.x = p.x > max.x ? p.x : max.x;
    max.y = p.y > max.y ? p.y : max.y;
  }
  void add(const Aabb& b) {
    if (b.empty()) return;
    add(b.min);
    add(b.max);
  }
  Aabb expanded(double margin) const { return {{min.x - margin, min.y - margin}, {max.x + margin, max.y + margin}}; }
  bool contains(Vec2 p) const { return p.x >= min.x && p.x <= max.x && p.y >= min.y && p.y <= max.y; }
  bool intersects(const Aabb& b) const {
    return min.x <= b.max.x && b.min.x <= max.x && min.y <= b.max.y && b.min.y <= max.y;
  }
  // Smallest distance between the boxes (0 if they touch or overlap).
  double distance_to(const Aabb& b) const;
};

// ---- Segments ----
struct Segment {
  Vec2 a;
  Vec2 b;
  double length() const;
  Vec2 at(double t) const { return a + (b - a) * t; }  // t in [0,1]
  Aabb bounds() const;
};

// Closest point of s to p, and the parameter t in [0,1] of that point.
Vec2 closest_point(const Segment& s, Vec2 p, double* t_out = nullptr);
double distance(const Segment& s, Vec2 p);
// True if the closed segments share a point (touching, collinear overlap and
// zero-length segments included).
bool segments_intersect(const Segment& s, const Segment& t);
// Proper crossing: the segments cross at a single point interior to both.
bool segments_cross_properly(const Segment& s, const Segment& t);
// The first point of s (smallest t) shared with t, if any.
std::optional<double> segment_intersection_param(const Segment& s, const Segment& t);
// Minimum distance between two closed segments (0 if they intersect).
double distance(const Segment& s, const Segment& t);

// ---- Circles ----
struct Circle {
  Vec2 center;
  double radius = 0;
};
bool segment_intersects_circle(const Segment& s, const Circle& c);  // closed disc

// ---- Polylines and polygons ----
struct Polyline {
  std::vector<Vec2> points;
  std::size_t segment_count() const { return points.size() < 2 ? 0 : points.size() - 1; }
  Segment segment(std::size_t i) const { return {points[i], points[i + 1]}; }
  double length() const;
  Aabb bounds() const;
};

// A simple polygon (no self-intersection), either winding, not closed
// explicitly (the last vertex joins the first). Its boundary belongs to it.
struct Polygon {
  std::vector<Vec2> points;
  std::size_t edge_count() const { return points.size(); }
  Segment edge(std::size_t i) const { return {points[i], points[(i + 1) % points.size()]}; }
  double signed_area() const;  // > 0 when counter-clockwise in (x east, y north)
  double area() const;
  Vec2 centroid() const;       // area centroid; vertex mean if degenerate
  Aabb bounds() const;
  bool is_convex() const;
};

// Point in polygon, boundary included (within kGeomEpsilon).
bool contains(const Polygon& poly, Vec2 p);
// Point strictly inside (farther than `margin` from the boundary).
bool contains_strictly(const Polygon& poly, Vec2 p, double margin = 0);
// Distance from p to the polygon's boundary (whether p is inside or outside).
double boundary_distance(const Polygon& poly, Vec2 p);
// Distance from p to the polygon region (0 inside).
double distance(const Polygon& poly, Vec2 p);

bool intersects(const Polygon& poly, const Segment& s);   // closed sets
bool intersects(const Polygon& poly, const Polyline& l);  // closed sets
bool intersects(const Polygon& a, const Polygon& b);      // closed sets: touching counts
// The parameter intervals [t0,t1] (t along s, in [0,1]) of s lying inside poly,
// in increasing order. Exact for any simple polygon.
std::vector<std::array<double, 2>> clip_segment(const Segment& s, const Polygon& poly);
// Length of s inside poly.
double length_inside(const Segment& s, const Polygon& poly);

// Edge-to-edge distance: 0 when the regions touch or overlap, otherwise the
// minimum over all pairs of boundary segments (exact).
double distance(const Polygon& a, const Polygon& b);
double distance(const Polygon& a, const Segment& s);

// For convex polygons: how deep they interpenetrate, by the separating axis
// theorem (the smallest translation that separates them). 0 when disjoint or
// only touching. Use with a tolerance: overlap means depth > tolerance.
double convex_penetration(const Polygon& a, const Polygon& b);

// Convex hull (counter-clockwise, no collinear points). Input may repeat points.
Polygon convex_hull(std::span<const Vec2> points);
// The part of poly on the side of the line through `on_line` where
// dot(x - on_line, normal) <= 0 (Sutherland-Hodgman; may contain degenerate
// edges along the line, which is fine for intersection tests).
Polygon clip_half_plane(const Polygon& poly, Vec2 on_line, Vec2 normal);

// ---- Oriented rectangles: bases and brigade footprints ----
//
// A rectangle with a front: `width` along the front, `depth` front to rear,
// `facing` the direction its front looks. Local frame: forward = facing_unit,
// right = forward rotated 90 degrees clockwise.
struct OrientedRect {
  Vec2 center;
  double width = 0;
  double depth = 0;
  double facing_deg = 0;

  // Builds from the middle of the front edge (the position rulesets report).
  static OrientedRect from_front_mid(Vec2 front_mid, double width, double depth, double facing_deg);

  Vec2 forward() const;  // unit
  Vec2 right() const;    // unit, 90 degrees clockwise of forward
  // Front-left, front-right, rear-right, rear-left (as seen by the troops).
  std::array<Vec2, 4> corners() const;
  Vec2 front_left() const;
  Vec2 front_right() const;
  Vec2 rear_left() const;
  Vec2 rear_right() const;
  Vec2 front_mid() const;
  Vec2 rear_mid() const;
  Segment front_edge() const;   // front-left -> front-right
  Segment rear_edge() const;    // rear-left -> rear-right
  Segment left_flank() const;   // front-left -> rear-left
  Segment right_flank() const;  // front-right -> rear-right
  Polygon polygon() const;      // the corners, in order
  Aabb bounds() const;

  // (lateral, along) of p in the local frame from the centre: lateral > 0 is
  // to the right, along > 0 is forward.
  Vec2 to_local(Vec2 p) const;
  Vec2 to_world(Vec2 local) const;

  // Boundary included, grown by `tolerance` on every side (negative shrinks).
  bool contains(Vec2 p, double tolerance = 0) const;
  // The same rectangle moved `distance` along its facing (negative: backwards).
  OrientedRect advanced(double distance) const;
  OrientedRect translated(Vec2 d) const;

  friend bool operator==(const OrientedRect&, const OrientedRect&) = default;
};

// Edge-to-edge distance between footprints (0 if touching or overlapping).
double distance(const OrientedRect& a, const OrientedRect& b);
double distance(const OrientedRect& a, const Polygon& b);
// The box of every rectangle of `group` (a unit's bases); empty for none.
Aabb bounds(std::span<const OrientedRect> group);
// The least distance(r, b) over the rectangles of `group` (a unit's bases);
// +infinity for none. Rectangles whose box lies further from b's than the
// best so far are not measured (the same value as measuring them all).
double distance(std::span<const OrientedRect> group, const OrientedRect& b);
// Interpenetration depth (separating axis); 0 if disjoint or touching.
double penetration(const OrientedRect& a, const OrientedRect& b);
// Overlap with a tolerance: interiors interpenetrate deeper than `tolerance`.
// Touching never overlaps; tolerance 0 means "any real overlap".
bool overlaps(const OrientedRect& a, const OrientedRect& b, double tolerance = 0);
bool intersects(const OrientedRect& a, const Polygon& b);  // closed, touching counts

// Base-to-base contact: the footprints touch or are within `tolerance` of each
// other (Malbrook allows a 1/2" gap inside a command; pass 0 for physical
// contact). Overlapping footprints also count as in contact.
bool in_contact(const OrientedRect& a, const OrientedRect& b, double tolerance = 0);

// ---- Arcs and relative position ----
//
// The front arc. A point p is within the front arc of r with half-angle
// `half_angle_deg` (45 in every ruleset we ship) when it is on or ahead of the
// front edge's line and no farther out to either side than lines drawn from
// each front corner, splayed outward by half_angle from straight ahead:
//     along >= 0  and  |lateral| <= width/2 + along * tan(half_angle)
// with (lateral, along) measured from the middle of the front edge. So the arc
// is the region "within 45 degrees of the centre of the front" widened to the
// whole front edge: a target straight ahead of a flank base of a long line is
// in its arc, as players read it on the table.
bool in_front_arc(const OrientedRect& r, Vec2 p, double half_angle_deg = 45.0);
// Any part of the footprint in the arc (closed sets).
bool in_front_arc(const OrientedRect& r, const Polygon& footprint, double half_angle_deg = 45.0);
// in_front_arc for a rectangle (as its polygon), without building the polygon.
bool rect_in_front_arc(const OrientedRect& r, const OrientedRect& target, double half_angle_deg = 45.0);
// The arc region truncated at `range` beyond the front edge (a trapezoid), for
// display and for intersection tests with other shapes.
Polygon front_arc_polygon(const OrientedRect& r, double range, double half_angle_deg = 45.0);

// "To the front": on or ahead of the front edge's line and within the straight
// projection of the front edge (|lateral| <= width/2). Any part of the
// footprint counts for the polygon overload.
bool to_front(const OrientedRect& r, Vec2 p);
bool to_front(const OrientedRect& r, const Polygon& footprint);
// Ahead of the front edge's line at all (the half-plane), whatever the width.
bool ahead_of_front_line(const OrientedRect& r, Vec2 p);
// Edge distance from r's front edge to a footprint that is to its front
// (nullopt if no part of the footprint is to the front). Measured within the
// front projection only.
std::optional<double> distance_to_front(const OrientedRect& r, const Polygon& footprint);

// "Directly behind": `other` lies wholly behind the rear edge line of `lead`
// (allowing `tolerance` of overlap across it), its centre lies within the
// rear projection of lead's width (|lateral| <= width/2), and the edge gap
// between them is at most `max_gap` (pass +infinity for no limit). Facing of
// `other` is not considered.
bool directly_behind(const OrientedRect& lead, const OrientedRect& other, double max_gap,
                     double tolerance = 0);

// ---- Swept areas and paths ----

// The area covered by a rectangle translated straight by d: the convex hull
// of the start and end rectangles (exact for translation).
Polygon sweep_straight(const OrientedRect& start, Vec2 d);
Polygon sweep_straight(const Polygon& convex_start, Vec2 d);

enum class WheelPivot : std::uint8_t { kLeft, kRight };  // which front corner stays put

// The end position of a wheel: pivot on a front corner and turn through
// `angle_deg` (> 0 wheels forward, the free end advancing; < 0 wheels
// backward, the free end falling back, as when refusing a flank).
OrientedRect wheel(const OrientedRect& start, WheelPivot pivot, double angle_deg);
// Distance the outer front corner travels (what the rules measure).
double wheel_distance(const OrientedRect& start, double angle_deg);
// The wheel angle for which the outer corner travels `distance`.
double wheel_angle_for_distance(const OrientedRect& start, double distance);

// The exact region a rectangle covers while wheeling (|angle| <= 180):
//   start rect  U  end rect  U  sector(pivot, L1, leading edge start..end)
//   U  (annulus(pivot, L1..diagonal) between the far corner's start bearing and
//       the leading edge's end bearing, cut by the half-plane "no farther along
//       the end leading edge than L1")
// where the leading edge is the incident edge at the pivot that moves first
// (the front edge, length L1 = width, wheeling forward; the inner flank,
// length L1 = depth, wheeling backward). A rectangle turning about its corner
// covers at each radius r the bearings between its trailing boundary at the
// start and its leading boundary at the end; the pieces above are exactly that
// set. Intersection tests are exact (segments against arcs by the quadratic).
class WheelSweep {
 public:
  WheelSweep(const OrientedRect& start, WheelPivot pivot, double angle_deg);

  const OrientedRect& start() const { return start_; }
  const OrientedRect& end() const { return end_; }
  Vec2 pivot() const { return pivot_; }

  bool contains(Vec2 p) const;
  bool intersects(const Segment& s) const;
  bool intersects(const Polygon& poly) const;
  bool intersects(const OrientedRect& r) const;
  bool intersects(const Polyline& l) const;
  // A polygon that contains the swept region (arcs replaced by circumscribed
  // chords), for display or a cheap broad phase.
  Polygon outline(int segments_per_arc = 8) const;
  Aabb bounds() const;

 private:
  // One turn of at most 90 degrees: beyond that a sector's "no farther along
  // the leading edge" cut stops being exact, so longer wheels are split.
  struct Piece {
    double lead_len = 0;           // L1
    double diag = 0;
    double lead_start_bearing = 0; // bearing of the leading edge at the piece's start
    double far_start_bearing = 0;  // bearing of the far corner at the piece's start
    double turn = 0;               // degrees, >= 0
    Vec2 lead_end_dir;             // unit, along the leading edge at the piece's end
  };
  OrientedRect start_;
  OrientedRect end_;
  std::vector<OrientedRect> stations_;  // start, the end of each piece
  Vec2 pivot_;
  double sign_ = 1;  // +1: bearings increase while turning (clockwise)
  std::vector<Piece> pieces_;
  bool piece_contains(const Piece& pc, Vec2 p) const;
  bool piece_intersects(const Piece& pc, const Segment& s) const;
  bool piece_intersects(const Piece& pc, const Polygon& poly) const;
};

// Path collision: the distance along unit direction `dir` at which `moving`
// (convex) first touches `obstacle` when translated up to `max_distance`;
// nullopt if it does not within that distance; 0 if already touching.
std::optional<double> first_contact(const Polygon& moving, Vec2 dir, double max_distance,
                                    const Polygon& obstacle);
std::optional<double> first_contact(const OrientedRect& moving, Vec2 dir, double max_distance,
                                    const OrientedRect& obstacle);

// A cheap lower bound on first_contact(moving, dir, any max, obstacle) for
// many directions, worked out once per pair (a charge path's sweep uses it to
// skip directions that cannot reach the obstacle, or cannot beat a contact
// already found). The translations that bring `moving` onto `obstacle` lie in
// the convex hull of (obstacle point - moving point); each edge normal n of
// either polygon gives a half-plane dot(x, n) <= c holding that hull, and a
// ray from the origin that starts outside it by `gap` reaches it no sooner
// than gap / -dot(dir, n). The half-planes are loosened by a slack far above
// first_contact's own tolerances and rounding, so the bound holds for what
// first_contact returns, not only for the exact contact. Any polygons (exact
// when both are convex, looser otherwise).
class ContactBound {
 public:
  ContactBound(const Polygon& moving, const Polygon& obstacle);
  // <= first_contact(moving, dir, m, obstacle) whenever that has a value;
  // +infinity where there is certainly none. `dir` a unit vector; one off by
  // up to 1e-9 in each component (a rotated approximation) still bounds.
  double lower_bound(Vec2 dir) const;

 private:
  struct Side {
    Vec2 normal;  // unit
    double gap;   // how far the origin lies outside the half-plane, less the slack
  };
  std::vector<Side> sides_;  // only those the origin lies outside of
};

// ---- Layout helpers (the ruleset decides formations; these place bases) ----

// `count` bases of width w and depth d in ranks of `per_rank`, filled front
// rank first, each rank centred on the same axis; the last rank holds the
// remainder (centred). `front_mid` is the middle of the front rank's front
// edge. gap_x is the space between bases in a rank, gap_y between ranks.
// per_rank = count gives a line; per_rank = 1 a column (file).
std::vector<OrientedRect> layout_ranks(Vec2 front_mid, double facing_deg, double base_width,
                                       double base_depth, int count, int per_rank,
                                       double gap_x = 0, double gap_y = 0);
// The smallest rectangle with the given facing that holds all the bases.
OrientedRect envelope(std::span<const OrientedRect> bases, double facing_deg);

}  // namespace galloper::rules
