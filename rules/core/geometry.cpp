#include "rules/core/geometry.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace galloper::rules {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Sign of the turn a->b->c with a rounding band scaled to the operands, so
// that exactly collinear inputs (the usual case on a table) read as 0.
int orientation(Vec2 a, Vec2 b, Vec2 c) {
  const double v = cross(b - a, c - a);
  const double scale = std::abs((b.x - a.x) * (c.y - a.y)) + std::abs((b.y - a.y) * (c.x - a.x));
  const double band = 1e-12 * scale + 1e-300;
  if (v > band) return 1;
  if (v < -band) return -1;
  return 0;
}

// p is on segment [a,b], given that it is collinear with it.
bool within_box(Vec2 a, Vec2 b, Vec2 p) {
  return p.x >= std::min(a.x, b.x) - kGeomEpsilon && p.x <= std::max(a.x, b.x) + kGeomEpsilon &&
         p.y >= std::min(a.y, b.y) - kGeomEpsilon && p.y <= std::max(a.y, b.y) + kGeomEpsilon;
}

// Exact sin/cos for multiples of 90 degrees, so axis-aligned rectangles have
// exact corners.
void sin_cos_deg(double deg, double& s, double& c) {
  const double n = normalize_deg(deg);
  if (n == 0) { s = 0; c = 1; return; }
  if (n == 90) { s = 1; c = 0; return; }
  if (n == 180) { s = 0; c = -1; return; }
  if (n == 270) { s = -1; c = 0; return; }
  s = std::sin(deg_to_rad(n));
  c = std::cos(deg_to_rad(n));
}

// Parameters t (along s, in [0,1]) where s meets the circle.
int segment_circle_params(const Segment& s, Vec2 center, double radius, double t[2]) {
  const Vec2 d = s.b - s.a;
  const Vec2 f = s.a - center;
  const double a = dot(d, d);
  if (a == 0) return 0;
  const double b = 2 * dot(f, d);
  const double c = dot(f, f) - radius * radius;
  const double disc = b * b - 4 * a * c;
  if (disc < 0) return 0;
  const double sq = std::sqrt(disc);
  int n = 0;
  for (double r : {(-b - sq) / (2 * a), (-b + sq) / (2 * a)}) {
    if (r >= -kGeomEpsilon && r <= 1 + kGeomEpsilon) t[n++] = std::clamp(r, 0.0, 1.0);
  }
  return n;
}

// Ray origin + t*dir (t >= 0) against segment e: smallest t, if any.
std::optional<double> ray_segment(Vec2 origin, Vec2 dir, const Segment& e) {
  const Vec2 ed = e.b - e.a;
  const double denom = cross(dir, ed);
  const Vec2 w = e.a - origin;
  if (std::abs(denom) < 1e-15) {
    if (std::abs(cross(w, dir)) > 1e-12 * (length(w) + 1)) return std::nullopt;  // parallel apart
    // Collinear: the nearest endpoint ahead (or 0 if the origin is on it).
    const double dd = dot(dir, dir);
    const double t0 = dot(e.a - origin, dir) / dd;
    const double t1 = dot(e.b - origin, dir) / dd;
    if (std::max(t0, t1) < -kGeomEpsilon) return std::nullopt;
    if (std::min(t0, t1) <= 0) return 0.0;
    return std::min(t0, t1);
  }
  const double t = cross(w, ed) / denom;
  const double u = cross(w, dir) / denom;
  if (t < -kGeomEpsilon || u < -kGeomEpsilon || u > 1 + kGeomEpsilon) return std::nullopt;
  return std::max(t, 0.0);
}

}  // namespace

// ---- Angles ----

double normalize_deg(double deg) {
  // fmod is exact, so for an angle already in [0, 360) it returns the angle
  // itself: skip the call (most facings and bearings are already there).
  if (deg >= 0.0 && deg < 360.0) return deg;
  double r = std::fmod(deg, 360.0);
  if (r < 0) r += 360.0;
  if (r >= 360.0) r -= 360.0;
  return r;
}

double angle_diff_deg(double a, double b) {
  double d = normalize_deg(b - a);
  if (d > 180.0) d -= 360.0;
  return d;
}

Vec2 facing_unit(double facing_deg) {
  double s = 0, c = 0;
  sin_cos_deg(facing_deg, s, c);
  return {s, c};
}

double bearing_of(Vec2 d) {
  if (d.x == 0 && d.y == 0) return 0;
  return normalize_deg(rad_to_deg(std::atan2(d.x, d.y)));
}

Vec2 rotate_cw(Vec2 v, double deg) {
  double s = 0, c = 0;
  sin_cos_deg(deg, s, c);
  return {v.x * c + v.y * s, -v.x * s + v.y * c};
}

Vec2 rotate_cw_about(Vec2 p, Vec2 c, double deg) { return c + rotate_cw(p - c, deg); }

// ---- Aabb ----

double Aabb::distance_to(const Aabb& b) const {
  const double dx = std::max({0.0, b.min.x - max.x, min.x - b.max.x});
  const double dy = std::max({0.0, b.min.y - max.y, min.y - b.max.y});
  return std::sqrt(dx * dx + dy * dy);
}

// ---- Segments ----

double Segment::length() const { return rules::length(b - a); }
Aabb Segment::bounds() const {
  Aabb r;
  r.add(a);
  r.add(b);
  return r;
}

Vec2 closest_point(const Segment& s, Vec2 p, double* t_out) {
  const Vec2 d = s.b - s.a;
  const double len2 = dot(d, d);
  double t = len2 == 0 ? 0 : std::clamp(dot(p - s.a, d) / len2, 0.0, 1.0);
  if (t_out) *t_out = t;
  return s.at(t);
}

double distance(const Segment& s, Vec2 p) { return distance(closest_point(s, p), p); }

bool segments_intersect(const Segment& s, const Segment& t) {
  const int o1 = orientation(s.a, s.b, t.a);
  const int o2 = orientation(s.a, s.b, t.b);
  const int o3 = orientation(t.a, t.b, s.a);
  const int o4 = orientation(t.a, t.b, s.b);
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  if (o1 == 0 && within_box(s.a, s.b, t.a)) return true;
  if (o2 == 0 && within_box(s.a, s.b, t.b)) return true;
  if (o3 == 0 && within_box(t.a, t.b, s.a)) return true;
  if (o4 == 0 && within_box(t.a, t.b, s.b)) return true;
  return false;
}

bool segments_cross_properly(const Segment& s, const Segment& t) {
  const int o1 = orientation(s.a, s.b, t.a);
  const int o2 = orientation(s.a, s.b, t.b);
  const int o3 = orientation(t.a, t.b, s.a);
  const int o4 = orientation(t.a, t.b, s.b);
  return o1 * o2 < 0 && o3 * o4 < 0;
}

std::optional<double> segment_intersection_param(const Segment& s, const Segment& t) {
  if (!segments_intersect(s, t)) return std::nullopt;
  const Vec2 d = s.b - s.a;
  const Vec2 e = t.b - t.a;
  const double denom = cross(d, e);
  const double dd = dot(d, d);
  if (dd == 0) return 0.0;  // s is a point on t
  if (std::abs(denom) > 1e-12 * std::sqrt(dd * dot(e, e))) {
    const double u = cross(t.a - s.a, e) / denom;
    return std::clamp(u, 0.0, 1.0);
  }
  // Collinear overlap: the smallest parameter of s inside t.
  double lo = 1;
  for (Vec2 p : {t.a, t.b}) {
    const double u = dot(p - s.a, d) / dd;
    if (u >= -kGeomEpsilon && u <= 1 + kGeomEpsilon) lo = std::min(lo, std::clamp(u, 0.0, 1.0));
  }
  if (distance(t, s.a) <= kGeomEpsilon) lo = 0;
  return lo;
}

double distance(const Segment& s, const Segment& t) {
  if (segments_intersect(s, t)) return 0;
  return std::min({distance(s, t.a), distance(s, t.b), distance(t, s.a), distance(t, s.b)});
}

bool segment_intersects_circle(const Segment& s, const Circle& c) {
  return distance(s, c.center) <= c.radius + kGeomEpsilon;
}

// ---- Polylines and polygons ----

double Polyline::length() const {
  double l = 0;
  for (std::size_t i = 0; i < segment_count(); ++i) l += segment(i).length();
  return l;
}

Aabb Polyline::bounds() const {
  Aabb r;
  for (Vec2 p : points) r.add(p);
  return r;
}

double Polygon::signed_area() const {
  double a = 0;
  for (std::size_t i = 0; i < points.size(); ++i) a += cross(points[i], points[(i + 1) % points.size()]);
  return a / 2;
}

double Polygon::area() const { return std::abs(signed_area()); }

Vec2 Polygon::centroid() const {
  if (points.empty()) return {};
  const double a = signed_area();
  if (std::abs(a) < 1e-15) {
    Vec2 m;
    for (Vec2 p : points) m = m + p;
    return m * (1.0 / static_cast<double>(points.size()));
  }
  // Relative to the first vertex, for precision far from the origin.
  const Vec2 o = points[0];
  Vec2 c;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Vec2 p = points[i] - o;
    const Vec2 q = points[(i + 1) % points.size()] - o;
    const double w = cross(p, q);
    c = c + (p + q) * w;
  }
  return o + c * (1.0 / (6 * a));
}

Aabb Polygon::bounds() const {
  Aabb r;
  for (Vec2 p : points) r.add(p);
  return r;
}

bool Polygon::is_convex() const {
  const std::size_t n = points.size();
  if (n < 3) return true;
  int sign = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const int o = orientation(points[i], points[(i + 1) % n], points[(i + 2) % n]);
    if (o == 0) continue;
    if (sign == 0) sign = o;
    else if (o != sign) return false;
  }
  return true;
}

double boundary_distance(const Polygon& poly, Vec2 p) {
  double best = kInf;
  for (std::size_t i = 0; i < poly.edge_count(); ++i) best = std::min(best, distance(poly.edge(i), p));
  return best;
}

namespace {

// The polygon functions below on a polygon's vertices (so a rectangle's
// corners need no Polygon built); the Polygon overloads call these.
using Points = std::span<const Vec2>;

Segment edge_of(Points pts, std::size_t i) { return {pts[i], pts[(i + 1) % pts.size()]}; }

Aabb bounds_of(Points pts) {
  Aabb r;
  for (Vec2 p : pts) r.add(p);
  return r;
}

bool contains_point(Points pts, Vec2 p) {
  const std::size_t n = pts.size();
  if (n == 0) return false;
  bool inside = false;
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const Vec2 a = pts[i];
    const Vec2 b = pts[j];
    if (distance(Segment{a, b}, p) <= kGeomEpsilon) return true;  // on the boundary
    if ((a.y > p.y) != (b.y > p.y)) {
      const double x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
      if (p.x < x) inside = !inside;
    }
  }
  return inside;
}

bool polygons_intersect(Points a, Points b) {
  if (a.empty() || b.empty()) return false;
  if (!bounds_of(a).intersects(bounds_of(b).expanded(kGeomEpsilon))) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    for (std::size_t j = 0; j < b.size(); ++j) {
      if (segments_intersect(edge_of(a, i), edge_of(b, j))) return true;
    }
  }
  return contains_point(a, b[0]) || contains_point(b, a[0]);
}

// Squared distance from p to the segment, computed as distance(s, p) computes
// it before its square root.
double distance_sq_to(const Segment& s, Vec2 p) {
  const Vec2 d = p - closest_point(s, p);
  return dot(d, d);
}

// Edge-to-edge distance (see distance(Polygon, Polygon)). It is the smallest
// of distance(edge of a, edge of b) over all pairs, and each of those is 0
// when the edges meet, otherwise the least of the four vertex-to-other-edge
// distances. Once no pair of edges meets, the answer is therefore the least
// distance from a vertex of either polygon to an edge of the other: 32
// point-segment distances for two rectangles instead of 64 and 16 segment
// intersection tests, and one square root (sqrt is correctly rounded, so
// monotone: the root of the least square is the least root). The same value
// to the last bit. "No pair meets" is known when polygons_intersect tested
// every pair, or when the boxes lie further apart than any tolerance of
// segments_intersect; between those (boxes within 1e-6 but not within
// kGeomEpsilon) every pair is measured as before.
double polygons_distance(Points a, Points b) {
  if (a.empty() || b.empty()) return kInf;
  const Aabb ba = bounds_of(a);
  const Aabb bb = bounds_of(b);
  if (ba.intersects(bb.expanded(1e-6))) {
    if (polygons_intersect(a, b)) return 0;
    if (!ba.intersects(bb.expanded(kGeomEpsilon))) {
      double best = kInf;
      for (std::size_t i = 0; i < a.size(); ++i) {
        for (std::size_t j = 0; j < b.size(); ++j) best = std::min(best, distance(edge_of(a, i), edge_of(b, j)));
      }
      return best;
    }
  }
  double best = kInf;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const Segment e = edge_of(a, i);
    for (Vec2 q : b) best = std::min(best, distance_sq_to(e, q));
  }
  for (std::size_t j = 0; j < b.size(); ++j) {
    const Segment e = edge_of(b, j);
    for (Vec2 q : a) best = std::min(best, distance_sq_to(e, q));
  }
  return std::sqrt(best);
}

}  // namespace

bool contains(const Polygon& poly, Vec2 p) { return contains_point(poly.points, p); }

bool contains_strictly(const Polygon& poly, Vec2 p, double margin) {
  return contains(poly, p) && boundary_distance(poly, p) > std::max(margin, kGeomEpsilon);
}

double distance(const Polygon& poly, Vec2 p) { return contains(poly, p) ? 0 : boundary_distance(poly, p); }

bool intersects(const Polygon& poly, const Segment& s) {
  if (poly.points.empty()) return false;
  if (contains(poly, s.a) || contains(poly, s.b)) return true;
  for (std::size_t i = 0; i < poly.edge_count(); ++i) {
    if (segments_intersect(poly.edge(i), s)) return true;
  }
  return false;
}

bool intersects(const Polygon& poly, const Polyline& l) {
  if (!poly.bounds().intersects(l.bounds())) return false;
  if (l.points.size() == 1) return contains(poly, l.points[0]);
  for (std::size_t i = 0; i < l.segment_count(); ++i) {
    if (intersects(poly, l.segment(i))) return true;
  }
  return false;
}

bool intersects(const Polygon& a, const Polygon& b) { return polygons_intersect(a.points, b.points); }

std::vector<std::array<double, 2>> clip_segment(const Segment& s, const Polygon& poly) {
  std::vector<std::array<double, 2>> out;
  if (poly.points.empty()) return out;
  std::vector<double> ts{0.0, 1.0};
  const Vec2 d = s.b - s.a;
  const double dd = dot(d, d);
  if (dd == 0) {
    if (contains(poly, s.a)) out.push_back({0.0, 1.0});
    return out;
  }
  for (std::size_t i = 0; i < poly.edge_count(); ++i) {
    const Segment e = poly.edge(i);
    if (!segments_intersect(s, e)) continue;
    if (auto t = segment_intersection_param(s, e)) ts.push_back(*t);
    // Collinear overlaps also end where the edge ends.
    for (Vec2 p : {e.a, e.b}) {
      if (distance(s, p) <= kGeomEpsilon) ts.push_back(std::clamp(dot(p - s.a, d) / dd, 0.0, 1.0));
    }
  }
  std::sort(ts.begin(), ts.end());
  for (std::size_t i = 0; i + 1 < ts.size(); ++i) {
    const double t0 = ts[i];
    const double t1 = ts[i + 1];
    if (t1 - t0 <= 1e-15) continue;
    if (!contains(poly, s.at((t0 + t1) / 2))) continue;
    if (!out.empty() && std::abs(out.back()[1] - t0) <= 1e-15) out.back()[1] = t1;
    else out.push_back({t0, t1});
  }
  return out;
}

double length_inside(const Segment& s, const Polygon& poly) {
  double l = 0;
  for (const auto& iv : clip_segment(s, poly)) l += iv[1] - iv[0];
  return l * s.length();
}

double distance(const Polygon& a, const Polygon& b) { return polygons_distance(a.points, b.points); }

double distance(const Polygon& a, const Segment& s) {
  if (intersects(a, s)) return 0;
  double best = kInf;
  for (std::size_t i = 0; i < a.edge_count(); ++i) best = std::min(best, distance(a.edge(i), s));
  return best;
}

namespace {
// convex_penetration on vertex lists (a polygon's points, or a rectangle's
// corners without building a Polygon): the same arithmetic in the same order.
double convex_penetration(std::span<const Vec2> a, std::span<const Vec2> b) {
  double depth = kInf;
  for (const std::span<const Vec2> p : {a, b}) {
    for (std::size_t i = 0; i < p.size(); ++i) {
      const Vec2 d = p[(i + 1) % p.size()] - p[i];
      const double len = length(d);
      if (len == 0) continue;
      const Vec2 axis{-d.y / len, d.x / len};
      double amin = kInf, amax = -kInf, bmin = kInf, bmax = -kInf;
      for (Vec2 q : a) {
        amin = std::min(amin, dot(q, axis));
        amax = std::max(amax, dot(q, axis));
      }
      for (Vec2 q : b) {
        bmin = std::min(bmin, dot(q, axis));
        bmax = std::max(bmax, dot(q, axis));
      }
      const double overlap = std::min(amax, bmax) - std::max(amin, bmin);
      if (overlap <= kGeomEpsilon) return 0;
      depth = std::min(depth, overlap);
    }
  }
  return depth == kInf ? 0 : depth;
}
}  // namespace

double convex_penetration(const Polygon& a, const Polygon& b) { return convex_penetration(a.points, b.points); }

Polygon convex_hull(std::span<const Vec2> input) {
  std::vector<Vec2> pts(input.begin(), input.end());
  std::sort(pts.begin(), pts.end(), [](Vec2 a, Vec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  pts.erase(std::unique(pts.begin(), pts.end()), pts.end());
  if (pts.size() < 3) return Polygon{pts};
  std::vector<Vec2> h(2 * pts.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    while (k >= 2 && cross(h[k - 1] - h[k - 2], pts[i] - h[k - 2]) <= 0) --k;
    h[k++] = pts[i];
  }
  for (std::size_t i = pts.size() - 1, t = k + 1; i > 0; --i) {
    while (k >= t && cross(h[k - 1] - h[k - 2], pts[i - 1] - h[k - 2]) <= 0) --k;
    h[k++] = pts[i - 1];
  }
  h.resize(k - 1);
  return Polygon{h};
}

Polygon clip_half_plane(const Polygon& poly, Vec2 on_line, Vec2 normal) {
  Polygon out;
  const std::size_t n = poly.points.size();
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 p = poly.points[i];
    const Vec2 q = poly.points[(i + 1) % n];
    const double dp = dot(p - on_line, normal);
    const double dq = dot(q - on_line, normal);
    if (dp <= 0) out.points.push_back(p);
    if ((dp < 0 && dq > 0) || (dp > 0 && dq < 0)) out.points.push_back(p + (q - p) * (dp / (dp - dq)));
  }
  return out;
}

// ---- OrientedRect ----

OrientedRect OrientedRect::from_front_mid(Vec2 front_mid, double width, double depth, double facing_deg) {
  return {front_mid - facing_unit(facing_deg) * (depth / 2), width, depth, facing_deg};
}

Vec2 OrientedRect::forward() const { return facing_unit(facing_deg); }
Vec2 OrientedRect::right() const { return facing_unit(facing_deg + 90); }
Vec2 OrientedRect::front_left() const { return center + forward() * (depth / 2) - right() * (width / 2); }
Vec2 OrientedRect::front_right() const { return center + forward() * (depth / 2) + right() * (width / 2); }
Vec2 OrientedRect::rear_left() const { return center - forward() * (depth / 2) - right() * (width / 2); }
Vec2 OrientedRect::rear_right() const { return center - forward() * (depth / 2) + right() * (width / 2); }
Vec2 OrientedRect::front_mid() const { return center + forward() * (depth / 2); }
Vec2 OrientedRect::rear_mid() const { return center - forward() * (depth / 2); }
namespace {

// corners() with the rectangle's forward and right units already at hand.
std::array<Vec2, 4> corners_from_units(const OrientedRect& o, Vec2 forward, Vec2 right) {
  const Vec2 f = forward * (o.depth / 2);
  const Vec2 r = right * (o.width / 2);
  return {o.center + f - r, o.center + f + r, o.center - f + r, o.center - f - r};
}

}  // namespace

std::array<Vec2, 4> OrientedRect::corners() const { return corners_from_units(*this, forward(), right()); }
Segment OrientedRect::front_edge() const { return {front_left(), front_right()}; }
Segment OrientedRect::rear_edge() const { return {rear_left(), rear_right()}; }
Segment OrientedRect::left_flank() const { return {front_left(), rear_left()}; }
Segment OrientedRect::right_flank() const { return {front_right(), rear_right()}; }
Polygon OrientedRect::polygon() const {
  const auto c = corners();
  return Polygon{{c.begin(), c.end()}};
}
Aabb OrientedRect::bounds() const {
  Aabb b;
  for (Vec2 p : corners()) b.add(p);
  return b;
}
Vec2 OrientedRect::to_local(Vec2 p) const {
  const Vec2 v = p - center;
  return {dot(v, right()), dot(v, forward())};
}
Vec2 OrientedRect::to_world(Vec2 l) const { return center + right() * l.x + forward() * l.y; }
bool OrientedRect::contains(Vec2 p, double tolerance) const {
  const Vec2 l = to_local(p);
  return std::abs(l.x) <= width / 2 + tolerance + kGeomEpsilon &&
         std::abs(l.y) <= depth / 2 + tolerance + kGeomEpsilon;
}
OrientedRect OrientedRect::advanced(double d) const { return translated(forward() * d); }
OrientedRect OrientedRect::translated(Vec2 d) const { return {center + d, width, depth, facing_deg}; }

double distance(const OrientedRect& a, const OrientedRect& b) {
  const auto ca = a.corners();
  const auto cb = b.corners();
  return polygons_distance(ca, cb);
}
double distance(const OrientedRect& a, const Polygon& b) {
  const auto ca = a.corners();
  return polygons_distance(ca, b.points);
}
Aabb bounds(std::span<const OrientedRect> group) {
  Aabb box;
  for (const auto& r : group) box.add(r.bounds());
  return box;
}
double distance(std::span<const OrientedRect> group, const OrientedRect& b) {
  const auto cb = b.corners();
  const Aabb bb = bounds_of(cb);
  // The boxes' gap is a lower bound of the rectangles' (rounding aside: the
  // margin is far above it), so a rectangle whose box is further than the
  // least distance found would not lower it. The rectangle with the nearest
  // box is measured first (the least comes early, and most of the others
  // are then skipped); the least is the same in any order.
  constexpr std::size_t kKept = 32;
  if (group.size() <= kKept) {
    std::array<std::array<Vec2, 4>, kKept> corners;
    std::array<double, kKept> gaps;
    std::size_t nearest = 0;
    for (std::size_t i = 0; i < group.size(); ++i) {
      corners[i] = group[i].corners();
      gaps[i] = bounds_of(corners[i]).distance_to(bb);
      if (gaps[i] < gaps[nearest]) nearest = i;
    }
    double best = group.empty() ? kInf : polygons_distance(corners[nearest], cb);
    for (std::size_t i = 0; i < group.size(); ++i) {
      if (i == nearest || gaps[i] > best + 1e-6) continue;
      best = std::min(best, polygons_distance(corners[i], cb));
    }
    return best;
  }
  // A larger group (no ruleset lays one out), a part at a time.
  double best = kInf;
  for (std::size_t at = 0; at < group.size(); at += kKept) {
    best = std::min(best, distance(group.subspan(at, std::min(kKept, group.size() - at)), b));
  }
  return best;
}
double penetration(const OrientedRect& a, const OrientedRect& b) {
  const auto ca = a.corners();
  const auto cb = b.corners();
  return convex_penetration(std::span<const Vec2>(ca), std::span<const Vec2>(cb));
}
bool overlaps(const OrientedRect& a, const OrientedRect& b, double tolerance) {
  return penetration(a, b) > tolerance + kGeomEpsilon;
}
bool intersects(const OrientedRect& a, const Polygon& b) {
  const auto ca = a.corners();
  return polygons_intersect(ca, b.points);
}
bool in_contact(const OrientedRect& a, const OrientedRect& b, double tolerance) {
  return distance(a, b) <= tolerance + kGeomEpsilon;
}

// ---- Arcs ----

namespace {
Vec2 front_local(const OrientedRect& r, Vec2 p) {
  const Vec2 v = p - r.front_mid();
  return {dot(v, r.right()), dot(v, r.forward())};
}
double far_enough(const OrientedRect& r, Points footprint) {
  double far = r.width + r.depth + 1;
  for (Vec2 p : footprint) far = std::max(far, distance(p, r.front_mid()) + 1);
  return far;
}
// front_arc_polygon's corners, in its order.
std::array<Vec2, 4> front_arc_points(const OrientedRect& r, double range, double half_angle_deg) {
  assert(half_angle_deg >= 0 && half_angle_deg < 90);
  const Vec2 f = r.forward();
  const Vec2 rt = r.right();
  const double spread = range * std::tan(deg_to_rad(half_angle_deg));
  return {r.front_left(), r.front_right(), r.front_right() + f * range + rt * spread,
          r.front_left() + f * range - rt * spread};
}
// Whether the arc, drawn far enough to take in the whole footprint, meets it.
bool arc_meets(const OrientedRect& r, Points footprint, double half_angle_deg) {
  return polygons_intersect(front_arc_points(r, far_enough(r, footprint), half_angle_deg), footprint);
}
}  // namespace

bool in_front_arc(const OrientedRect& r, Vec2 p, double half_angle_deg) {
  assert(half_angle_deg >= 0 && half_angle_deg < 90);
  const Vec2 l = front_local(r, p);
  if (l.y < -kGeomEpsilon) return false;
  return std::abs(l.x) <= r.width / 2 + std::max(l.y, 0.0) * std::tan(deg_to_rad(half_angle_deg)) + kGeomEpsilon;
}

Polygon front_arc_polygon(const OrientedRect& r, double range, double half_angle_deg) {
  const auto c = front_arc_points(r, range, half_angle_deg);
  return Polygon{{c.begin(), c.end()}};
}

bool in_front_arc(const OrientedRect& r, const Polygon& footprint, double half_angle_deg) {
  return arc_meets(r, footprint.points, half_angle_deg);
}

bool rect_in_front_arc(const OrientedRect& r, const OrientedRect& target, double half_angle_deg) {
  const auto c = target.corners();
  return arc_meets(r, c, half_angle_deg);
}

bool to_front(const OrientedRect& r, Vec2 p) {
  const Vec2 l = front_local(r, p);
  return l.y >= -kGeomEpsilon && std::abs(l.x) <= r.width / 2 + kGeomEpsilon;
}

bool to_front(const OrientedRect& r, const Polygon& footprint) { return arc_meets(r, footprint.points, 0); }

bool ahead_of_front_line(const OrientedRect& r, Vec2 p) { return front_local(r, p).y >= -kGeomEpsilon; }

std::optional<double> distance_to_front(const OrientedRect& r, const Polygon& footprint) {
  const Vec2 f = r.forward();
  const Vec2 rt = r.right();
  Polygon p = clip_half_plane(footprint, r.front_mid(), f * -1.0);   // keep along >= 0
  p = clip_half_plane(p, r.front_right(), rt);                       // keep lateral <= w/2
  p = clip_half_plane(p, r.front_left(), rt * -1.0);                 // keep lateral >= -w/2
  if (p.points.empty()) return std::nullopt;
  double best = kInf;
  for (Vec2 q : p.points) best = std::min(best, std::max(0.0, front_local(r, q).y));
  return best;
}

bool directly_behind(const OrientedRect& lead, const OrientedRect& other, double max_gap, double tolerance) {
  const Vec2 f = lead.forward();
  const Vec2 rm = lead.rear_mid();
  for (Vec2 c : other.corners()) {
    if (dot(c - rm, f) > tolerance + kGeomEpsilon) return false;
  }
  if (std::abs(dot(other.center - lead.center, lead.right())) > lead.width / 2 + kGeomEpsilon) return false;
  return distance(lead, other) <= max_gap + kGeomEpsilon;
}

// ---- Sweeps ----

Polygon sweep_straight(const OrientedRect& start, Vec2 d) { return sweep_straight(start.polygon(), d); }

Polygon sweep_straight(const Polygon& convex_start, Vec2 d) {
  std::vector<Vec2> pts = convex_start.points;
  for (Vec2 p : convex_start.points) pts.push_back(p + d);
  return convex_hull(pts);
}

namespace {
Vec2 pivot_point(const OrientedRect& r, WheelPivot pivot) {
  return pivot == WheelPivot::kLeft ? r.front_left() : r.front_right();
}
// Compass rotation of a wheel: pivoting on the left, a forward wheel turns the
// line anticlockwise (its right end comes forward and round to the left).
double wheel_rotation(WheelPivot pivot, double angle_deg) {
  return pivot == WheelPivot::kLeft ? -angle_deg : angle_deg;
}
}  // namespace

OrientedRect wheel(const OrientedRect& start, WheelPivot pivot, double angle_deg) {
  const Vec2 p = pivot_point(start, pivot);
  const double rot = wheel_rotation(pivot, angle_deg);
  return {rotate_cw_about(start.center, p, rot), start.width, start.depth, normalize_deg(start.facing_deg + rot)};
}

double wheel_distance(const OrientedRect& start, double angle_deg) {
  return start.width * deg_to_rad(std::abs(angle_deg));
}

double wheel_angle_for_distance(const OrientedRect& start, double d) {
  return start.width <= 0 ? 0 : rad_to_deg(d / start.width);
}

WheelSweep::WheelSweep(const OrientedRect& start, WheelPivot pivot, double angle_deg)
    : start_(start), pivot_(pivot_point(start, pivot)) {
  assert(std::abs(angle_deg) <= 360);
  const double rot = wheel_rotation(pivot, angle_deg);
  sign_ = rot >= 0 ? 1 : -1;
  const bool forward = angle_deg >= 0;
  const double total = std::abs(rot);
  const int n = std::max(1, static_cast<int>(std::ceil(total / 90.0 - 1e-12)));
  stations_.push_back(start);
  OrientedRect cur = start;
  for (int i = 0; i < n; ++i) {
    const double turn = total / n;
    // Leading edge: the edge at the pivot on the side the turn moves towards.
    const Vec2 other_front = pivot == WheelPivot::kLeft ? cur.front_right() : cur.front_left();
    const Vec2 rear_at_pivot = pivot == WheelPivot::kLeft ? cur.rear_left() : cur.rear_right();
    const Vec2 far = pivot == WheelPivot::kLeft ? cur.rear_right() : cur.rear_left();
    const Vec2 lead_tip = forward ? other_front : rear_at_pivot;
    Piece pc;
    pc.lead_len = distance(pivot_, lead_tip);
    pc.diag = distance(pivot_, far);
    pc.lead_start_bearing = bearing_of(lead_tip - pivot_);
    pc.far_start_bearing = bearing_of(far - pivot_);
    pc.turn = turn;
    pc.lead_end_dir = facing_unit(pc.lead_start_bearing + sign_ * turn);
    pieces_.push_back(pc);
    cur = {rotate_cw_about(cur.center, pivot_, sign_ * turn), cur.width, cur.depth,
           normalize_deg(cur.facing_deg + sign_ * turn)};
    stations_.push_back(cur);
  }
  end_ = wheel(start, pivot, angle_deg);  // exact end (no accumulated rounding)
  stations_.back() = end_;
}

namespace {
// Angle from `from` to bearing b, measured in the turning direction, in [0,360).
double turned(double from, double b, double sign) { return normalize_deg(sign * (b - from)); }
}  // namespace

bool WheelSweep::piece_contains(const Piece& pc, Vec2 p) const {
  const Vec2 v = p - pivot_;
  const double r = length(v);
  if (r <= kGeomEpsilon) return true;
  const double b = bearing_of(v);
  constexpr double kAngEps = 1e-9;
  // Sector swept by the leading edge.
  if (r <= pc.lead_len + kGeomEpsilon && turned(pc.lead_start_bearing, b, sign_) <= pc.turn + kAngEps) return true;
  // Annulus swept by the side opposite the pivot, cut by the end leading edge.
  if (r >= pc.lead_len - kGeomEpsilon && r <= pc.diag + kGeomEpsilon) {
    const double span = turned(pc.far_start_bearing, pc.lead_start_bearing, sign_) + pc.turn;
    if (turned(pc.far_start_bearing, b, sign_) <= span + kAngEps && dot(v, pc.lead_end_dir) <= pc.lead_len + kGeomEpsilon)
      return true;
  }
  return false;
}

bool WheelSweep::contains(Vec2 p) const {
  for (const auto& st : stations_) {
    if (st.contains(p)) return true;
  }
  for (const auto& pc : pieces_) {
    if (piece_contains(pc, p)) return true;
  }
  return false;
}

bool WheelSweep::piece_intersects(const Piece& pc, const Segment& s) const {
  if (piece_contains(pc, s.a) || piece_contains(pc, s.b)) return true;
  // Crossing the boundary: radial sides or arcs of the sector and the annulus,
  // or the cut. Each boundary point found is checked for membership, which
  // covers every way a segment can enter a closed region it does not start in.
  const Vec2 lead0 = facing_unit(pc.lead_start_bearing);
  const Vec2 far0 = facing_unit(pc.far_start_bearing);
  const std::array<Segment, 4> radials{
      Segment{pivot_, pivot_ + lead0 * pc.lead_len},
      Segment{pivot_, pivot_ + pc.lead_end_dir * pc.lead_len},
      Segment{pivot_ + far0 * pc.lead_len, pivot_ + far0 * pc.diag},
      Segment{pivot_ + pc.lead_end_dir * pc.lead_len, pivot_ + pc.lead_end_dir * pc.diag}};
  for (const auto& rs : radials) {
    if (auto t = segment_intersection_param(s, rs)) {
      if (piece_contains(pc, s.at(*t))) return true;
    }
  }
  for (double radius : {pc.lead_len, pc.diag}) {
    double ts[2];
    const int n = segment_circle_params(s, pivot_, radius, ts);
    for (int i = 0; i < n; ++i) {
      if (piece_contains(pc, s.at(ts[i]))) return true;
    }
  }
  // The cut line of the annulus: points at distance lead_len along lead_end_dir.
  const Vec2 across{pc.lead_end_dir.y, -pc.lead_end_dir.x};
  const Vec2 cut0 = pivot_ + pc.lead_end_dir * pc.lead_len;
  const double half = std::sqrt(std::max(0.0, pc.diag * pc.diag - pc.lead_len * pc.lead_len)) + 1e-9;
  if (auto t = segment_intersection_param(s, Segment{cut0 - across * half, cut0 + across * half})) {
    if (piece_contains(pc, s.at(*t))) return true;
  }
  return false;
}

bool WheelSweep::piece_intersects(const Piece& pc, const Polygon& poly) const {
  if (poly.points.empty()) return false;
  for (std::size_t i = 0; i < poly.edge_count(); ++i) {
    if (piece_intersects(pc, poly.edge(i))) return true;
  }
  // The region wholly inside the polygon: its pivot is in it.
  return rules::contains(poly, pivot_);
}

bool WheelSweep::intersects(const Segment& s) const {
  for (const auto& st : stations_) {
    if (rules::intersects(st.polygon(), s)) return true;
  }
  for (const auto& pc : pieces_) {
    if (piece_intersects(pc, s)) return true;
  }
  return false;
}

bool WheelSweep::intersects(const Polygon& poly) const {
  if (!bounds().intersects(poly.bounds())) return false;
  for (const auto& st : stations_) {
    if (rules::intersects(st.polygon(), poly)) return true;
  }
  for (const auto& pc : pieces_) {
    if (piece_intersects(pc, poly)) return true;
  }
  return false;
}

bool WheelSweep::intersects(const OrientedRect& r) const { return intersects(r.polygon()); }

bool WheelSweep::intersects(const Polyline& l) const {
  if (l.points.size() == 1) return contains(l.points[0]);
  for (std::size_t i = 0; i < l.segment_count(); ++i) {
    if (intersects(l.segment(i))) return true;
  }
  return false;
}

Polygon WheelSweep::outline(int segments_per_arc) const {
  std::vector<Vec2> pts;
  for (const auto& st : stations_) {
    for (Vec2 c : st.corners()) pts.push_back(c);
  }
  const int n = std::max(1, segments_per_arc);
  for (const auto& pc : pieces_) {
    const double span = turned(pc.far_start_bearing, pc.lead_start_bearing, sign_) + pc.turn;
    const double step = span / n;
    // Circumscribed: vertices pushed out so chords stay outside the arc.
    const double radius = pc.diag / std::cos(deg_to_rad(step / 2));
    for (int i = 0; i <= n; ++i) {
      pts.push_back(pivot_ + facing_unit(pc.far_start_bearing + sign_ * step * i) * radius);
    }
  }
  return convex_hull(pts);
}

Aabb WheelSweep::bounds() const {
  Aabb b;
  for (const auto& st : stations_) b.add(st.bounds());
  for (const auto& pc : pieces_) {
    const double span = turned(pc.far_start_bearing, pc.lead_start_bearing, sign_) + pc.turn;
    b.add(pivot_ + facing_unit(pc.far_start_bearing) * pc.diag);
    b.add(pivot_ + facing_unit(pc.far_start_bearing + sign_ * span) * pc.diag);
    // Compass points the arc passes through.
    for (double card : {0.0, 90.0, 180.0, 270.0}) {
      if (turned(pc.far_start_bearing, card, sign_) <= span) b.add(pivot_ + facing_unit(card) * pc.diag);
    }
  }
  return b;
}

// ---- Path collisions ----

std::optional<double> first_contact(const Polygon& moving, Vec2 dir, double max_distance, const Polygon& obstacle) {
  if (moving.points.empty() || obstacle.points.empty()) return std::nullopt;
  if (intersects(moving, obstacle)) return 0.0;
  double best = kInf;
  for (Vec2 v : moving.points) {
    for (std::size_t i = 0; i < obstacle.edge_count(); ++i) {
      if (auto t = ray_segment(v, dir, obstacle.edge(i))) best = std::min(best, *t);
    }
  }
  for (Vec2 v : obstacle.points) {
    for (std::size_t i = 0; i < moving.edge_count(); ++i) {
      if (auto t = ray_segment(v, dir * -1.0, moving.edge(i))) best = std::min(best, *t);
    }
  }
  if (best > max_distance + kGeomEpsilon) return std::nullopt;
  return best;
}

std::optional<double> first_contact(const OrientedRect& moving, Vec2 dir, double max_distance,
                                    const OrientedRect& obstacle) {
  return first_contact(moving.polygon(), dir, max_distance, obstacle.polygon());
}

namespace {
// Direction error lower_bound tolerates (per component of a unit vector).
constexpr double kBoundDirSlack = 1e-9;
}  // namespace

ContactBound::ContactBound(const Polygon& moving, const Polygon& obstacle) {
  if (moving.points.empty() || obstacle.points.empty()) return;
  // Slack on each half-plane: first_contact accepts hits up to 1e-9 of an
  // edge's length beyond its ends, 1e-9 behind the start and collinear ones
  // within 1e-12 of the line; with the coordinates' rounding all of that is
  // far below 1e-7 of the scene's extent.
  double extent = 1;
  for (const Polygon* p : {&moving, &obstacle}) {
    for (Vec2 v : p->points) extent = std::max(extent, std::abs(v.x) + std::abs(v.y));
  }
  const double slack = 1e-7 * extent;
  auto add_side = [&](Vec2 n) {
    double lo = kInf;   // min over moving of dot(p, n)
    double hi = -kInf;  // max over obstacle of dot(q, n)
    for (Vec2 p : moving.points) lo = std::min(lo, dot(p, n));
    for (Vec2 q : obstacle.points) hi = std::max(hi, dot(q, n));
    // The hull of q - p lies in dot(x, n) <= hi - lo; the origin is outside
    // by lo - hi. Keep only clear separations (then gap > slack > 0).
    const double gap = lo - hi - slack;
    if (gap > slack) sides_.push_back({n, gap});
  };
  sides_.reserve(moving.points.size() + obstacle.points.size());
  for (const Polygon* p : {&moving, &obstacle}) {
    // Outward normals for either winding; a degenerate polygon tries both.
    const double area = p->signed_area();
    for (std::size_t i = 0; i < p->edge_count(); ++i) {
      const Vec2 d = p->edge(i).b - p->edge(i).a;
      const double len = length(d);
      if (len == 0) continue;
      const Vec2 out = Vec2{d.y, -d.x} * (1.0 / len);  // right of the edge: outward when counter-clockwise
      // The Minkowski difference's edges face as the obstacle's and opposite
      // to the moving polygon's.
      const double sign = (p == &obstacle ? 1.0 : -1.0) * (area < 0 ? -1.0 : 1.0);
      add_side(out * sign);
      if (area == 0) add_side(out * -sign);
    }
  }
}

double ContactBound::lower_bound(Vec2 dir) const {
  double lb = 0;
  for (const Side& s : sides_) {
    // Reaching the half-plane needs t * dot(dir, n) <= -gap with the true
    // direction, whose dot differs from this one's by at most 2e-9.
    const double closing = -dot(dir, s.normal) + 2 * kBoundDirSlack;
    if (closing <= 0) return kInf;
    lb = std::max(lb, s.gap / closing);
  }
  // And a relative margin for first_contact's rounding where its ray runs
  // nearly along an edge (its parameter is then ill-conditioned).
  return lb * (1 - 1e-5);
}

// ---- Layout ----

std::vector<OrientedRect> layout_ranks(Vec2 front_mid, double facing_deg, double w, double d, int count,
                                       int per_rank, double gap_x, double gap_y) {
  std::vector<OrientedRect> out;
  if (count <= 0 || per_rank <= 0) return out;
  out.reserve(static_cast<std::size_t>(count));
  const Vec2 f = facing_unit(facing_deg);
  const Vec2 r = facing_unit(facing_deg + 90);
  const double facing = normalize_deg(facing_deg);
  int placed = 0;
  for (int rank = 0; placed < count; ++rank) {
    const int n = std::min(per_rank, count - placed);
    const double rank_w = n * w + (n - 1) * gap_x;
    for (int i = 0; i < n; ++i) {
      const double lateral = -rank_w / 2 + w / 2 + i * (w + gap_x);
      const double along = -(d / 2 + rank * (d + gap_y));
      out.push_back({front_mid + r * lateral + f * along, w, d, facing});
    }
    placed += n;
  }
  return out;
}

OrientedRect envelope(std::span<const OrientedRect> bases, double facing_deg) {
  if (bases.empty()) return {};
  const Vec2 f = facing_unit(facing_deg);
  const Vec2 r = facing_unit(facing_deg + 90);
  double lmin = kInf, lmax = -kInf, amin = kInf, amax = -kInf;
  // A base's corners from its units, worked out once for a run of bases that
  // face alike (the same facing gives the same units, so the same corners).
  double units_of = facing_deg;
  Vec2 bf = f, br = r;
  for (const auto& b : bases) {
    if (b.facing_deg != units_of) {
      units_of = b.facing_deg;
      bf = b.forward();
      br = b.right();
    }
    for (Vec2 c : corners_from_units(b, bf, br)) {
      lmin = std::min(lmin, dot(c, r));
      lmax = std::max(lmax, dot(c, r));
      amin = std::min(amin, dot(c, f));
      amax = std::max(amax, dot(c, f));
    }
  }
  const Vec2 center = r * ((lmin + lmax) / 2) + f * ((amin + amax) / 2);
  return {center, lmax - lmin, amax - amin, normalize_deg(facing_deg)};
}

}  // namespace galloper::rules
