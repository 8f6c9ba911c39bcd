// Line of sight. The rules are in VISIBILITY.md; the code is one exact
// line test (`Prepared::line_verdict`) plus shortcuts that decide a pair
// only where that test would decide it the same way (neighbours' shadows,
// whole-pair screens of bodies and of terrain pieces, cover and hill flags,
// the reverse view). The tests compare the engine with plain line-by-line
// sight and with a frozen copy of the engine before its performance work.
#include "rules/core/visibility.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cmath>
#include <limits>
#include <memory>

namespace galloper::rules {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// A sight line must pass this far through a body or a hill to be blocked by
// it: grazing a corner or running along an edge does not block.
constexpr double kGraze = 1e-9;

enum class BlockClass : std::uint8_t { kNone, kBody, kUnformed, kSmoke };

BlockClass block_class(const SceneObject& o) {
  switch (o.kind) {
    case SceneKind::kFormed: return BlockClass::kBody;
    case SceneKind::kUnformed: return BlockClass::kUnformed;
    case SceneKind::kGun: return o.shot_this_turn ? BlockClass::kSmoke : BlockClass::kBody;
    case SceneKind::kLeader:
    case SceneKind::kMessenger:
    case SceneKind::kMarker: return BlockClass::kNone;
  }
  return BlockClass::kNone;
}

// A convex quadrilateral as four half-planes dot(n, x) <= d.
struct Quad {
  std::array<Vec2, 4> n;
  std::array<double, 4> d;
  std::array<Vec2, 4> c;
};

Quad make_quad(const OrientedRect& r) {
  Quad q;
  q.c = r.corners();  // clockwise: outward normal is the left normal of each edge
  for (int i = 0; i < 4; ++i) {
    const Vec2 a = q.c[static_cast<std::size_t>(i)];
    const Vec2 b = q.c[static_cast<std::size_t>((i + 1) % 4)];
    const Vec2 e = b - a;
    Vec2 n{-e.y, e.x};
    const double len = length(n);
    if (len > 0) n = n * (1.0 / len);
    q.n[static_cast<std::size_t>(i)] = n;
    q.d[static_cast<std::size_t>(i)] = dot(n, a);
  }
  return q;
}

// Parameter interval of a + t(b-a), t in [0,1], inside the quad; false if the
// segment only grazes it or misses.
bool clip_quad(const Quad& q, Vec2 a, Vec2 ab, double len, double& t0, double& t1) {
  double lo = 0, hi = 1;
  for (std::size_t i = 0; i < 4; ++i) {
    const double num = q.d[i] - dot(q.n[i], a);
    const double den = dot(q.n[i], ab);
    if (std::abs(den) <= 1e-15 * len) {
      if (num <= kGraze) return false;  // parallel, outside or along the edge
      continue;
    }
    const double t = num / den;
    if (den > 0) hi = std::min(hi, t);
    else lo = std::max(lo, t);
    if (hi - lo <= 0) return false;
  }
  if ((hi - lo) * len <= kGraze) return false;
  t0 = lo;
  t1 = hi;
  return true;
}

bool box_hits_segment(const Aabb& b, Vec2 a, Vec2 ab) {
  // Slab test.
  double lo = 0, hi = 1;
  for (int axis = 0; axis < 2; ++axis) {
    const double o = axis == 0 ? a.x : a.y;
    const double d = axis == 0 ? ab.x : ab.y;
    const double mn = axis == 0 ? b.min.x : b.min.y;
    const double mx = axis == 0 ? b.max.x : b.max.y;
    if (d == 0) {
      if (o < mn || o > mx) return false;
      continue;
    }
    double ta = (mn - o) / d;
    double tb = (mx - o) / d;
    if (ta > tb) std::swap(ta, tb);
    lo = std::max(lo, ta);
    hi = std::min(hi, tb);
    if (lo > hi) return false;
  }
  return true;
}

// Crossing-number point-in-polygon without the boundary check: used only at
// midpoints between boundary crossings, which are never on the boundary
// unless the sight line runs along an edge (where either answer is fair).
bool inside_fast(const Polygon& poly, Vec2 p) {
  bool inside = false;
  const std::size_t n = poly.points.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    const Vec2 a = poly.points[i];
    const Vec2 b = poly.points[j];
    if ((a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y)) inside = !inside;
  }
  return inside;
}

// The stretches [t0,t1] of segment a->b inside a simple polygon, without
// allocating for polygons of ordinary size. Calls f(t0, t1) per stretch.
template <class F>
void for_each_stretch(const Polygon& poly, Vec2 a, Vec2 b, F&& f) {
  constexpr std::size_t kMax = 64;
  std::array<double, kMax> ts;
  std::size_t n = 0;
  ts[n++] = 0;
  const Vec2 ab = b - a;
  const std::size_t m = poly.points.size();
  bool degenerate = false;  // touching a vertex: in/out need not alternate
  for (std::size_t i = 0; i < m; ++i) {
    const Vec2 p = poly.points[i];
    const Vec2 q = poly.points[(i + 1) % m];
    const Vec2 pq = q - p;
    const double den = cross(ab, pq);
    if (den == 0) continue;  // parallel: the endpoints of neighbouring edges settle it
    const Vec2 ap = p - a;
    const double t = cross(ap, pq) / den;
    const double u = cross(ap, ab) / den;
    if (t > 0 && t < 1 && u >= 0 && u <= 1) {
      if (n == kMax - 1) {
        for (const auto& iv : clip_segment(Segment{a, b}, poly)) f(iv[0], iv[1]);
        return;
      }
      if (u == 0 || u == 1) degenerate = true;
      ts[n++] = t;
    }
  }
  ts[n++] = 1;
  if (n == 2) {
    if (inside_fast(poly, a + ab * 0.5)) f(0.0, 1.0);
    return;
  }
  std::sort(ts.begin() + 1, ts.begin() + static_cast<std::ptrdiff_t>(n - 1));
  double open_start = -1;
  bool in = false;
  bool known = false;
  for (std::size_t i = 0; i + 1 < n; ++i) {
    const double t0 = ts[i];
    const double t1 = ts[i + 1];
    if (t1 - t0 <= 1e-15) continue;
    // Transversal crossings alternate in and out: one test settles them all.
    in = (known && !degenerate) ? !in : inside_fast(poly, a + ab * ((t0 + t1) / 2));
    known = true;
    if (in && open_start < 0) open_start = t0;
    if (!in && open_start >= 0) {
      f(open_start, t0);
      open_start = -1;
    }
  }
  if (open_start >= 0) f(open_start, 1.0);
}

bool enters_interior(const Polygon& poly, Vec2 a, Vec2 b, double len) {
  // A transversal crossing of an edge's interior settles it at once.
  const Vec2 ab = b - a;
  const std::size_t m = poly.points.size();
  for (std::size_t i = 0; i < m; ++i) {
    const Vec2 p = poly.points[i];
    const Vec2 pq = poly.points[(i + 1) % m] - p;
    const double den = cross(ab, pq);
    if (den == 0) continue;
    const Vec2 ap = p - a;
    const double t = cross(ap, pq) / den;
    const double u = cross(ap, ab) / den;
    if (t > 0 && t < 1 && u > 0 && u < 1) {
      // Far enough from both ends that the interior side is really entered.
      if (std::min(t, 1 - t) * len > kGraze) return true;
    }
  }
  bool any = false;
  for_each_stretch(poly, a, b, [&](double t0, double t1) {
    if ((t1 - t0) * len > kGraze) any = true;
  });
  return any;
}

std::vector<Vec2> envelope_points(const OrientedRect& env) {
  // Pulled in 1% so bodies in contact do not meet at a shared corner.
  const double sx = env.width * 0.49;
  const double sy = env.depth * 0.49;
  // As env.to_world, with the two unit vectors worked out once.
  const Vec2 r = env.right(), f = env.forward();
  auto at = [&](double x, double y) { return env.center + r * x + f * y; };
  return {env.center, at(-sx, sy), at(sx, sy), at(sx, -sy), at(-sx, -sy)};
}

// Convex pieces whose interiors lie inside a simple polygon's interior: the
// polygon itself when convex, else an ear-clipping triangulation. A segment
// through the interior of a piece enters the polygon's interior. Empty when
// the polygon is not simple (no shortcut then).
std::vector<std::vector<Vec2>> convex_pieces(const Polygon& poly) {
  std::vector<Vec2> v = poly.points;
  const std::size_t n = v.size();
  if (n < 3) return {};
  double area2 = 0;
  for (std::size_t i = 0; i < n; ++i) area2 += cross(v[i], v[(i + 1) % n]);
  if (!(std::abs(area2) > 1e-9)) return {};
  if (area2 < 0) std::reverse(v.begin(), v.end());
  // Simple: no two edges meet except neighbours at their shared vertex.
  for (std::size_t i = 0; i < n; ++i) {
    const Vec2 a = v[i], b = v[(i + 1) % n];
    if (length(b - a) <= 1e-9) return {};
    for (std::size_t j = i + 1; j < n; ++j) {
      if (j == i + 1 || (i == 0 && j == n - 1)) continue;
      const Vec2 c = v[j], d = v[(j + 1) % n];
      // Segments whose boxes are apart never meet.
      if (std::max(a.x, b.x) < std::min(c.x, d.x) || std::max(c.x, d.x) < std::min(a.x, b.x) ||
          std::max(a.y, b.y) < std::min(c.y, d.y) || std::max(c.y, d.y) < std::min(a.y, b.y)) {
        continue;
      }
      if (segments_intersect(Segment{a, b}, Segment{c, d})) return {};
    }
  }
  bool convex = true;
  for (std::size_t i = 0; i < n; ++i) {
    if (cross(v[(i + 1) % n] - v[i], v[(i + 2) % n] - v[(i + 1) % n]) <= 1e-12) convex = false;
  }
  if (convex) return {v};
  std::vector<std::vector<Vec2>> out;
  std::vector<Vec2> rest = v;
  while (rest.size() > 3) {
    const std::size_t m = rest.size();
    bool clipped = false;
    for (std::size_t i = 0; i < m && !clipped; ++i) {
      const Vec2 a = rest[(i + m - 1) % m], b = rest[i], c = rest[(i + 1) % m];
      if (cross(b - a, c - b) <= 1e-12) continue;  // reflex or flat: not an ear
      bool empty = true;
      for (std::size_t k = 0; k < m && empty; ++k) {
        if (k == i || k == (i + m - 1) % m || k == (i + 1) % m) continue;
        const Vec2 p = rest[k];
        if (cross(b - a, p - a) >= 0 && cross(c - b, p - b) >= 0 && cross(a - c, p - c) >= 0) empty = false;
      }
      if (!empty) continue;
      out.push_back({a, b, c});
      rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(i));
      clipped = true;
    }
    if (!clipped) return {};
  }
  if (cross(rest[1] - rest[0], rest[2] - rest[1]) > 1e-12) out.push_back(rest);
  return out;
}

}  // namespace

std::vector<Vec2> default_sight_points(std::span<const OrientedRect> bases) {
  if (bases.empty()) return {};
  // A single base (a gun, a leader, a marker) is one model: its centre.
  if (bases.size() == 1) return {bases[0].center};
  const OrientedRect env = envelope(bases, bases[0].facing_deg);
  double covered = 0;
  for (const auto& b : bases) covered += b.width * b.depth;
  // Contiguous (line, column, block): the envelope is the body.
  if (covered >= env.width * env.depth * 0.999) return envelope_points(env);
  std::vector<Vec2> pts;
  for (const auto& b : bases) pts.push_back(b.center);
  const auto corners = envelope_points(env);
  pts.insert(pts.end(), corners.begin() + 1, corners.end());
  return pts;
}

// ---- Prepared scene ----

namespace {

constexpr std::uint32_t kNoHull = UINT32_MAX;

// The tangent corners of a convex quad (corners clockwise) from a point
// outside it, by which of its sides face the point (bit k: side k, from
// corner k to k + 1). Seen from the point the facing sides form one chain
// running anticlockwise: its first corner is the right tangent (every other
// corner lies anticlockwise of it) and its last the left. A point in line
// with a side does not count it as facing; the chain then ends at the
// side's nearer corner, in the same direction as the farther. {-1, -1}: no
// side faces the point (on or in the quad), or not one chain.
struct Tangents {
  int right = -1;
  int left = -1;
};
constexpr std::array<Tangents, 16> kTangents = [] {
  std::array<Tangents, 16> t{};
  for (unsigned m = 1; m < 15; ++m) {
    int starts = 0;
    int first = 0;
    for (int k = 0; k < 4; ++k) {
      if ((m >> k & 1u) && !(m >> ((k + 3) % 4) & 1u)) {
        ++starts;
        first = k;
      }
    }
    if (starts != 1) continue;
    t[m] = {first, (first + std::popcount(m)) % 4};
  }
  return t;
}();

// A bit per ordered pair (a, b) of n objects: row a, column b.
struct PairBits {
  std::vector<std::uint64_t> words;
  std::size_t stride = 0;  // words a row
  void reset(std::size_t n) {
    stride = (n + 63) / 64;
    words.assign(n * stride, 0);
  }
  bool empty() const { return words.empty(); }
  bool get(std::uint32_t a, std::uint32_t b) const { return (words[a * stride + b / 64] >> (b % 64)) & 1u; }
  void set(std::uint32_t a, std::uint32_t b) { words[a * stride + b / 64] |= std::uint64_t{1} << (b % 64); }
};

struct Prepared {
  struct Obj {
    Vec2 cen;          // centre of `box`
    double rad = 0;    // half-diagonal of `box`
    Vec2 pcen;         // centre of `pts_box`
    double prad = 0;   // half-diagonal of `pts_box`
    std::uint32_t screen = UINT32_MAX;  // the last body that hid it whole
    std::uint32_t blocker = UINT32_MAX;  // compute: the last body that blocked a line to it
    Aabb box;       // of its bases
    Aabb pts_box;   // of its sight points
    std::uint32_t q0 = 0, q1 = 0;  // quads
    std::uint32_t p0 = 0, p1 = 0;  // sight points
    BlockClass block = BlockClass::kNone;
    double elevation = 0;
    bool sig_high = false;
    bool edge = false;
    bool shot = false;
    // Every sight point is in a wood or town and the cover rules count that
    // stretch on every line: seen (or seeing) only within the cover ranges.
    bool cover_bound_target = false;
    bool cover_bound_observer = false;
    // Four sight points whose hull holds all the others (kNoHull: unknown).
    std::uint32_t hull0 = kNoHull;
    std::uint32_t hull_n = 0;  // 4, or 1 for a single model seen at one point
    SeatMask seats = 0;
    std::uint32_t id = 0;
  };
  struct Cover {
    const Polygon* poly = nullptr;
    Aabb box;
    Vec2 cen;
    double rad = 0;
    std::uint32_t index = 0;  // into TerrainMap::areas()
  };
  struct HillB {
    const Polygon* poly = nullptr;
    Aabb box;
    Vec2 cen;
    double rad = 0;
    double elevation = 0;
    std::uint32_t index = 0;  // into TerrainMap::hills()
  };
  // The last thing that blocked a sight line of the current pair: tried first,
  // because neighbouring sight lines are usually blocked by the same thing.
  struct Cache {
    enum Kind : std::uint8_t { kNone, kBody, kHill, kCover } kind = kNone;
    std::uint32_t index = 0;
    // The last few distinct bodies that blocked: lines of one pair are often
    // blocked by two or three bodies in turn.
    std::array<std::uint32_t, 4> bodies{};
    std::uint32_t n_bodies = 0;
    bool has_body(std::uint32_t b) const {
      for (std::uint32_t i = 0; i < n_bodies; ++i) {
        if (bodies[i] == b) return true;
      }
      return false;
    }
    void add_body(std::uint32_t b) {
      if (has_body(b)) return;
      if (n_bodies < bodies.size()) {
        bodies[n_bodies++] = b;
      } else {
        for (std::size_t i = bodies.size() - 1; i > 0; --i) bodies[i] = bodies[i - 1];
        bodies[0] = b;
      }
    }
  };

  // A convex piece of a hill's or a cover's interior (see convex_pieces), as
  // outward half-planes dot(n, x) <= d, counter-clockwise.
  struct Piece {
    std::uint32_t h0 = 0, h1 = 0;  // into piece_n / piece_d / piece_v
    Vec2 cen;
    double rad = 0;
    bool sharp = false;  // a vertex angle under about 3.6 degrees (no wedge test)
  };
  // Terrain that may hide whole pairs: hills and covers with their pieces.
  struct Screen {
    bool hill = false;
    std::uint32_t index = 0;  // into hills / covers
    std::uint32_t k0 = 0, k1 = 0;  // into pieces
    Vec2 cen;
    double rad = 0;
    Aabb box;
    double elevation = 0;
  };
  std::vector<Piece> pieces;
  std::vector<Vec2> piece_n;
  std::vector<double> piece_d;
  std::vector<Vec2> piece_v;  // vertex i starts side i
  std::vector<Screen> screens;
  std::vector<std::uint32_t> obs_screens;  // screens within reach of the current observer
  // Per entry of obs_screens: the direction of the screen's centre from the
  // observer's point-box centre and the half-width of the angle within which
  // any pair's capsule can meet it (kPi * 2: always tried).
  std::vector<double> obs_screen_ang, obs_screen_half;
  // compute(): shortcuts that decide whole pairs beyond those can_see takes
  // (can_see names the blocker of its last line, which they would change).
  bool whole_pairs = false;

  const VisibilityRules* rules = nullptr;
  std::vector<Obj> objs;
  std::vector<Quad> quads;
  std::vector<Vec2> points;
  // Per sight point: strictly inside a wood or town; the highest hill it is
  // strictly inside (0 if none). Any sight line from or to such a point has a
  // stretch of that cover or enters that hill.
  std::vector<std::uint8_t> pt_in_cover;
  std::vector<double> pt_hill_top;
  // The objects of the prepare before, while this one copies from them.
  struct PreparedObjects {
    std::vector<Obj> objs;
    std::vector<Quad> quads;
    std::vector<Vec2> points;
    std::vector<std::uint8_t> pt_in_cover;
    std::vector<double> pt_hill_top;
  } prev;
  std::shared_ptr<const int> prepared_token;  // prepare(): these objects' token
  std::vector<Cover> covers;
  std::vector<HillB> hills;
  std::vector<SeatMask> seen;
  std::vector<const Cover*> near_covers;  // prepare(): scratch
  std::vector<const HillB*> near_hills;

  // Scratch.
  std::vector<std::uint32_t> near_objs;    // targets around the current observer
  std::vector<std::uint32_t> order;        // observers in the order compute() takes them
  std::vector<std::uint32_t> pool;         // blockers around the current observer
  // Candidates for the current pair, gathered on the first sight line the
  // cached blockers do not settle.
  mutable std::vector<std::uint32_t> pair_bodies;
  mutable std::vector<std::uint32_t> pair_covers;
  mutable std::vector<std::uint32_t> pair_hills;
  mutable bool gathered = false;
  // ---- Near shadows ----
  //
  // Around each sight point p, the few nearest bodies that block outright
  // (formed troops, guns, smoke) each hide a wedge of directions from p:
  // strictly between the tangents to the body, a segment from p longer than
  // the body's farthest corner passes through its interior. Most sight lines
  // that are blocked at all are blocked near one of their two ends (by the
  // observer's or the target's neighbours, or the line in front of them), so
  // two wedge lookups settle most lines without any search.
  struct Shadow {
    Vec2 right;       // tangent direction, clockwise edge of the wedge
    Vec2 left;        // tangent direction, anticlockwise edge
    // Squared length a segment from p needs to be blocked: past the body's
    // farthest corner (for unformed troops, by unformed_see_beyond more).
    double far2 = 0;
    std::uint32_t body = 0;
    bool unformed = false;
  };
  static constexpr std::size_t kShadowsPerPoint = 8;
  struct Caster {
    Vec2 cen;
    double reach = 0;  // 3 * max_prad + the body's half-diagonal
    std::uint32_t body = 0;
  };
  std::vector<Caster> casters;
  std::vector<std::pair<double, std::uint32_t>> nearest;
  std::vector<Shadow> shadows;
  // Per sight point, its run in `shadows` and in `spans`. Both are worked
  // out per object the first time a pair needs them (most objects' are never
  // looked at, or only some; spans only at a target's end), into whatever
  // end of the arrays is free then: each point's run is the same whenever it
  // is built.
  std::vector<std::uint32_t> shadow_lo, shadow_hi;
  std::vector<std::uint8_t> shadows_built;  // per object: 1 shadows, 2 shadows and spans
  std::vector<std::uint32_t> near_blocks;  // per observer: searched lines blocked near its eye (compute)
  static constexpr std::uint32_t kEyeShadowsAfter = 4;
  std::vector<std::uint32_t> near_blocks_target;  // per target: the same, near it, for observers on higher ground
  static constexpr std::uint32_t kTargetShadowsAfter = 2;

  void reset_shadows() {
    shadows.clear();
    spans.clear();
    shadow_lo.assign(points.size(), 0);
    shadow_hi.assign(points.size(), 0);
    span_lo.assign(points.size(), 0);
    span_hi.assign(points.size(), 0);
    shadows_built.assign(objs.size(), 0);
    near_blocks.assign(objs.size(), 0);
    near_blocks_target.assign(objs.size(), 0);
    const double reach = 3 * max_prad;
    // The bodies that cast shadows (outright blockers of one quad, and
    // unformed troops), in scene order.
    casters.clear();
    for (std::uint32_t b = 0; b < objs.size(); ++b) {
      const Obj& ob = objs[b];
      if (ob.block == BlockClass::kNone) continue;
      if (ob.block != BlockClass::kUnformed && ob.q1 - ob.q0 != 1) continue;
      casters.push_back({ob.cen, reach + ob.rad, b});
    }
    // Spans leave out the wedges of bodies with a sight point not clear
    // inside their own quad: a span does not know whose line it judges, and
    // a line from or to such a point may cross its own body (which never
    // blocks it) beyond the body's far corner. Points inside the quad are
    // never that far (the default points all are).
    own_points_inside.assign(objs.size(), 1);
    for (const Caster& c : casters) {
      const Obj& ob = objs[c.body];
      if (ob.q1 - ob.q0 != 1) continue;  // unformed: no spans anyway
      const Quad& q = quads[ob.q0];
      for (std::uint32_t pi = ob.p0; pi < ob.p1; ++pi) {
        for (std::size_t k = 0; k < 4; ++k) {
          if (!(dot(q.n[k], points[pi]) < q.d[k] - kGeomEpsilon)) own_points_inside[c.body] = 0;
        }
      }
    }
    // By x, so each object looks only at the casters in its x window (the
    // nearest are then sorted by distance and scene order: the same few).
    std::sort(casters.begin(), casters.end(), [](const Caster& a, const Caster& b) { return a.cen.x < b.cen.x; });
    caster_x.clear();
    max_caster_reach = 0;
    for (const Caster& c : casters) {
      caster_x.push_back(c.cen.x);
      max_caster_reach = std::max(max_caster_reach, c.reach);
    }
  }
  std::vector<std::uint8_t> own_points_inside;  // per object
  std::vector<double> caster_x;
  double max_caster_reach = 0;

  void ensure_shadows(std::uint32_t oi) {
    if (shadows_built[oi]) return;
    shadows_built[oi] = 1;
    build_shadows_of(oi);
  }
  // Spans are looked up only at a target's end: an object whose shadows
  // served only its eye never needs them.
  void ensure_spans(std::uint32_t oi) {
    ensure_shadows(oi);
    if (shadows_built[oi] == 2) return;
    shadows_built[oi] = 2;
    build_spans_of(oi);
  }

  void build_shadows_of(std::uint32_t oi) {
    {
      const Obj& o = objs[oi];
      nearest.clear();
      const double w = max_caster_reach + o.prad + 1;  // + 1: clear of rounding at the window's ends
      const auto first = std::lower_bound(caster_x.begin(), caster_x.end(), o.pcen.x - w) - caster_x.begin();
      for (auto ci = static_cast<std::size_t>(first); ci < casters.size() && caster_x[ci] <= o.pcen.x + w; ++ci) {
        const Caster& c = casters[ci];
        const double lim = c.reach + o.prad;
        const double d2 = sq(c.cen - o.pcen);
        if (d2 <= lim * lim && c.body != oi) nearest.push_back({d2, c.body});
      }
      // The nearest few, ties by scene order.
      if (nearest.size() > kShadowsPerPoint) {
        // (distance, body) is a total order: the same few, in the same order.
        std::nth_element(nearest.begin(), nearest.begin() + kShadowsPerPoint, nearest.end());
        nearest.resize(kShadowsPerPoint);
        std::sort(nearest.begin(), nearest.end());
      } else {
        std::sort(nearest.begin(), nearest.end());
      }
      for (std::uint32_t pi = o.p0; pi < o.p1; ++pi) {
        shadow_lo[pi] = static_cast<std::uint32_t>(shadows.size());
        const Vec2 p = points[pi];
        for (const auto& nb : nearest) {
          const Obj& ob = objs[nb.second];
          const bool unformed = ob.block == BlockClass::kUnformed;
          // The unformed allowance runs from the last base of the brigade:
          // a line must pass the whole brigade's farthest corner by it.
          double unformed_far2 = 0;
          if (unformed) {
            for (std::uint32_t qi = ob.q0; qi < ob.q1; ++qi) {
              for (Vec2 c : quads[qi].c) unformed_far2 = std::max(unformed_far2, sq(c - p));
            }
          }
          // Unformed troops: one wedge per base, each needing the line to run
          // unformed_see_beyond past that base (a sufficient condition).
          for (std::uint32_t qi = ob.q0; qi < ob.q1; ++qi) {
            const Quad& q = quads[qi];
            // Which sides face p (p strictly beyond them): none when p is on
            // or in the body; the tangent corners follow (kTangents).
            unsigned facing = 0;
            double far2 = 0;
            for (std::size_t k = 0; k < 4; ++k) {
              far2 = std::max(far2, sq(q.c[k] - p));
              if (q.d[k] - dot(q.n[k], p) < 0) facing |= 1u << k;
            }
            const Tangents tg = kTangents[facing];
            if (tg.right < 0) continue;  // p on or in the body: no wedge
            if (unformed) {
              const double need = std::sqrt(unformed_far2) + rules->unformed_see_beyond + kGeomEpsilon;
              far2 = need * need;
            }
            shadows.push_back({q.c[static_cast<std::size_t>(tg.right)] - p, q.c[static_cast<std::size_t>(tg.left)] - p,
                               far2, nb.second, unformed});
          }
        }
        shadow_hi[pi] = static_cast<std::uint32_t>(shadows.size());
      }
    }
  }

  // The wedges of outright blockers around each sight point, as merged
  // angular spans (radians, approximate atan2, each edge pulled in by
  // kSpanMargin > its error). A direction strictly inside a span, at a
  // distance beyond `far2`, is blocked by one of the span's bodies for any
  // observer no higher than `min_elev` (nobody sees over what is as high).
  struct Span {
    double lo = 0;
    double hi = 0;
    double far2 = 0;
    double min_elev = 0;
    std::uint32_t body = 0;  // one of its bodies, to name as the blocker
  };
  static constexpr double kSpanMargin = 0.005;
  static constexpr double kAtanError = 0.004;
  std::vector<Span> spans;
  std::vector<std::uint32_t> span_lo, span_hi;  // per sight point, into spans
  std::vector<Span> raw_spans;

  void build_spans_of(std::uint32_t oi) {
    const Obj& o = objs[oi];
    for (std::uint32_t pi = o.p0; pi < o.p1; ++pi) {
      span_lo[pi] = static_cast<std::uint32_t>(spans.size());
      std::vector<Span>& raw = raw_spans;
      raw.clear();
      for (std::uint32_t k = shadow_lo[pi]; k < shadow_hi[pi]; ++k) {
        const Shadow& sh = shadows[k];
        if (sh.unformed || !own_points_inside[sh.body]) continue;
        const double lo = fast_atan2(sh.right.y, sh.right.x) + kSpanMargin;
        const double hi = fast_atan2(sh.left.y, sh.left.x) - kSpanMargin;
        const double elev = objs[sh.body].elevation;
        if (lo <= hi) {
          raw.push_back({lo, hi, sh.far2, elev, sh.body});
        } else if (hi < lo - kPi) {  // crosses the -pi/pi cut: two pieces
          raw.push_back({lo, kPi + 1, sh.far2, elev, sh.body});
          raw.push_back({-kPi - 1, hi, sh.far2, elev, sh.body});
        }
      }
      std::sort(raw.begin(), raw.end(), [](const Span& a, const Span& b) { return a.lo < b.lo; });
      for (const Span& sp : raw) {
        if (spans.size() > span_lo[pi] && sp.lo < spans.back().hi) {
          Span& cur = spans.back();
          cur.hi = std::max(cur.hi, sp.hi);
          cur.far2 = std::max(cur.far2, sp.far2);
          cur.min_elev = std::min(cur.min_elev, sp.min_elev);
        } else {
          spans.push_back(sp);
        }
      }
      span_hi[pi] = static_cast<std::uint32_t>(spans.size());
    }
  }

  // Every sight line from the observer's points to target point m is blocked
  // by outright blockers near m.
  // Returns the naming body, or UINT32_MAX.
  std::uint32_t span_hides(std::uint32_t oi, std::uint32_t m) const {
    if (span_lo[m] == span_hi[m]) return UINT32_MAX;
    const Obj& o = objs[oi];
    const Vec2 pm = points[m];
    double amin = kInf, amax = -kInf, d2min = kInf;
    for (std::uint32_t e = o.p0; e < o.p1; ++e) {
      const Vec2 v = points[e] - pm;
      const double a = fast_atan2(v.y, v.x);
      amin = std::min(amin, a);
      amax = std::max(amax, a);
      d2min = std::min(d2min, dot(v, v));
    }
    if (amax - amin > kPi / 2) return UINT32_MAX;  // wraps the cut, or too wide to matter
    amin -= kAtanError;
    amax += kAtanError;
    for (std::uint32_t k = span_lo[m]; k < span_hi[m]; ++k) {
      const Span& sp = spans[k];
      if (sp.lo < amin && amax < sp.hi) {
        return d2min > sp.far2 && o.elevation <= sp.min_elev ? sp.body : UINT32_MAX;
      }
    }
    return UINT32_MAX;
  }

  // span_hides from the observer's bounding circle (centre and half-diagonal
  // of its point box) instead of each of its points: one angle instead of
  // one per point. Every point lies within asin(R/D) of the centre's
  // direction and at least D - R away. compute() only (it may settle fewer
  // target points, which changes the blocker can_see would name).
  std::uint32_t span_hides_circle(std::uint32_t oi, std::uint32_t m) const {
    if (span_lo[m] == span_hi[m]) return UINT32_MAX;
    const Obj& o = objs[oi];
    const Vec2 v = o.pcen - points[m];
    const double d2 = dot(v, v);
    const double rr = o.prad * o.prad;
    if (!(d2 > 4 * rr)) return UINT32_MAX;  // too near (and the bound below needs R/D < 1/2)
    // asin(x) <= x / sqrt(1 - x^2).
    const double w = std::sqrt(rr / (d2 - rr)) + kAtanError;
    const double a = fast_atan2(v.y, v.x);
    const double amin = a - w, amax = a + w;
    // Split spans reach past +-pi by 1 (see build_spans): keep to one turn.
    if (amin < -kPi || amax > kPi) return UINT32_MAX;
    const double dmin = std::sqrt(d2) - o.prad;
    const double d2min = dmin * dmin;
    for (std::uint32_t k = span_lo[m]; k < span_hi[m]; ++k) {
      const Span& sp = spans[k];
      if (sp.lo < amin && amax < sp.hi) {
        return d2min > sp.far2 && o.elevation <= sp.min_elev ? sp.body : UINT32_MAX;
      }
    }
    return UINT32_MAX;
  }

  // The body of a span at target point m that blocks the line from m along
  // v for observer oi (the line ends beyond the span's bodies), or UINT32_MAX.
  std::uint32_t span_at(std::uint32_t m, Vec2 v, std::uint32_t oi) const {
    const double a = fast_atan2(v.y, v.x);
    const double amin = a - kAtanError, amax = a + kAtanError;
    if (amin < -kPi || amax > kPi) return UINT32_MAX;  // split spans reach past +-pi
    for (std::uint32_t k = span_lo[m]; k < span_hi[m]; ++k) {
      const Span& sp = spans[k];
      if (sp.lo >= amin) break;  // sorted by lo
      if (amax < sp.hi) return dot(v, v) > sp.far2 && objs[oi].elevation <= sp.min_elev ? sp.body : UINT32_MAX;
    }
    return UINT32_MAX;
  }

  // A body near sight point pi, other than `skip1`/`skip2`, that blocks the
  // segment from pi along v (its far end at pi + v) for observer oi outright.
  // Unformed troops count only from the eye's end (their allowance runs
  // toward the mark).
  std::uint32_t shadowed(std::uint32_t pi, Vec2 v, std::uint32_t oi, std::uint32_t skip1, std::uint32_t skip2,
                         bool from_eye) const {
    const double len2 = dot(v, v);
    for (std::uint32_t k = shadow_lo[pi]; k < shadow_hi[pi]; ++k) {
      const Shadow& sh = shadows[k];
      if (len2 <= sh.far2 || cross(sh.right, v) <= 0 || cross(v, sh.left) <= 0) continue;
      if (sh.body == skip1 || sh.body == skip2) continue;
      if (sh.unformed) {
        if (!from_eye || (objs[oi].elevation > 0 && sees_over(oi, sh.body))) continue;
      } else if (!blocks_outright(oi, sh.body)) {
        continue;
      }
      return sh.body;
    }
    return UINT32_MAX;
  }

  // Per observer: whether it sees over each blocker (-1: not yet known).
  mutable std::vector<std::int8_t> over;
  mutable std::uint32_t over_for = UINT32_MAX;
  // Per observer: bodies that hid whole targets lately, tried first.
  std::array<std::uint32_t, 4> recent{};
  std::uint32_t recent_n = 0;
  std::uint32_t obs_blocker = UINT32_MAX;  // compute: the last body that blocked the observer's line
  // hidden_memo bit (a, b): a cannot see b, learnt from b failing to see a
  // when everything that decided it works the same both ways.
  PairBits hidden_memo;
  // terrain_hidden bit (a, b): the terrain alone hides b from a
  // (terrain_proof: the pair's verdict came from the terrain wedges or
  // screens, whatever bodies stand between). compute_from carries the last
  // table's bits over to pairs whose ends are unchanged
  // (SightRecord::terrain_hidden, its words).
  PairBits terrain_hidden;
  bool terrain_proof = false;
  // Whether the last line's (or pair's) verdict holds the other way round,
  // target looking at observer: the same segments, judged by rules that may
  // favour one end (range from higher ground, seeing over, cover edges, the
  // unformed allowance past the troops).
  mutable bool line_crossed = false;  // the line met a body or cover at all
  mutable bool line_sym = false;
  bool pair_sym = false;

  bool same_range(const Obj& a, const Obj& b) const { return range_of(a) == range_of(b); }
  static bool cover_symmetric(const Obj& a, const Obj& b) {
    return !a.edge && !b.edge && !a.sig_high && !b.sig_high;
  }
  // Whether body bi blocks outright for observer xi, without the per-observer cache.
  bool blocks_outright_for(std::uint32_t xi, std::uint32_t bi) const {
    const Obj& x = objs[xi];
    const Obj& b = objs[bi];
    const bool over = x.elevation > 0 && b.elevation < x.elevation &&
                      far_enough_to_see_over(x, b);
    if (b.block == BlockClass::kBody) return !over;
    if (b.block == BlockClass::kSmoke) return !(over && x.sig_high);
    return false;
  }

  // The terrain's prepared form -- its woods, towns and hills with their
  // boxes, and their convex pieces (build_screens) -- is kept while the map
  // is the same, bit for bit: a game's terrain never changes, and cutting
  // every outline into pieces is about a sixth of preparing a big battle.
  // `terrain_key` is what the last one was prepared from; covers and hills
  // point at copies of its outlines (terrain_polys), not into the map.
  std::vector<std::uint64_t> terrain_key, terrain_key_next;
  std::vector<Polygon> terrain_polys;
  bool terrain_ready = false;

  static void key_of(const TerrainMap& terrain, std::vector<std::uint64_t>& key) {
    key.clear();
    auto put = [&](double v) { key.push_back(std::bit_cast<std::uint64_t>(v)); };
    auto put_outline = [&](const Polygon& poly) {
      key.push_back(poly.points.size());
      for (Vec2 p : poly.points) {
        put(p.x);
        put(p.y);
      }
    };
    const auto& areas = terrain.areas();
    key.push_back(areas.size());
    for (std::uint32_t i = 0; i < areas.size(); ++i) {
      key.push_back(areas[i].blocks_sight() ? 1 : 0);
      if (areas[i].blocks_sight()) put_outline(areas[i].outline);
    }
    const auto& hs = terrain.hills();
    key.push_back(hs.size());
    for (const auto& h : hs) {
      put(h.elevation);
      put_outline(h.outline);
    }
  }

  // True when the terrain is the one already prepared (kept as it was).
  bool prepare_terrain(const TerrainMap& terrain) {
    key_of(terrain, terrain_key_next);
    if (terrain_ready && terrain_key_next == terrain_key) return true;
    terrain_ready = true;
    terrain_key.swap(terrain_key_next);
    covers.clear();
    hills.clear();
    terrain_polys.clear();
    const auto& areas = terrain.areas();
    const auto& hs = terrain.hills();
    terrain_polys.reserve(areas.size() + hs.size());  // covers and hills point into it: no reallocation
    for (std::uint32_t i = 0; i < areas.size(); ++i) {
      if (!areas[i].blocks_sight()) continue;
      const Polygon& poly = terrain_polys.emplace_back(areas[i].outline);
      const Aabb b = poly.bounds();
      covers.push_back({&poly, b, (b.min + b.max) * 0.5, half_diagonal(b), i});
    }
    for (std::uint32_t i = 0; i < hs.size(); ++i) {
      const Polygon& poly = terrain_polys.emplace_back(hs[i].outline);
      const Aabb b = poly.bounds();
      hills.push_back({&poly, b, (b.min + b.max) * 0.5, half_diagonal(b), hs[i].elevation, i});
    }
    build_screens();
    return false;
  }

  // Prepares the scene's objects. `last` (with `last_index`, as compute_from
  // takes them): when this engine's objects are the ones `last` was worked
  // out on, an object equal to its last self keeps what was prepared for it
  // then. What prepare works out for an object depends on nothing but the
  // object and the terrain, so the copy is what preparing it again gives
  // (debug builds prepare it again and check).
  void prepare(const Scene& scene, const TerrainMap& terrain, const VisibilityRules& r,
               const SightRecord* last = nullptr, std::span<const std::uint32_t> last_index = {}) {
    rules = &r;
    over_for = UINT32_MAX;  // `over` belongs to the last table's observer
    const bool terrain_kept = prepare_terrain(terrain);
    const bool reuse = last != nullptr && terrain_kept && prepared_token != nullptr &&
                       last->prepared == prepared_token && last_index.size() == scene.objects.size() &&
                       last->scene.objects.size() == objs.size();
    if (reuse) {
      objs.swap(prev.objs);
      quads.swap(prev.quads);
      points.swap(prev.points);
      pt_in_cover.swap(prev.pt_in_cover);
      pt_hill_top.swap(prev.pt_hill_top);
    }
    objs.clear();
    quads.clear();
    points.clear();
    pt_in_cover.clear();
    pt_hill_top.clear();
    for (std::size_t i = 0; i < scene.objects.size(); ++i) {
      const SceneObject& o = scene.objects[i];
      const std::uint32_t j = reuse ? last_index[i] : kNewObject;
      if (j < prev.objs.size() && o == last->scene.objects[j]) {
        add_prepared(j);
#ifndef NDEBUG
        check_prepared(o);
#endif
      } else {
        add_object(o);
      }
    }
    // A token of these objects: a record filled from them (fill) matches
    // them until the next prepare.
    prepared_token = std::make_shared<const int>(0);
    max_prad = 0;
    for (const auto& ob : objs) max_prad = std::max(max_prad, ob.prad);
    reset_shadows();
  }

  // Prepares one object: its quads, sight points and their terrain.
  void add_object(const SceneObject& o) {
    Obj ob;
    ob.block = block_class(o);
    ob.q0 = static_cast<std::uint32_t>(quads.size());
    // One envelope per object: whether its bases make one body, its sight points.
    // (A single base needs none: it is its own quad, seen at its centre.)
    const OrientedRect env = o.bases.size() < 2 ? OrientedRect{} : envelope(o.bases, o.bases[0].facing_deg);
    double covered = 0;
    for (const auto& b : o.bases) covered += b.width * b.depth;
    const bool contiguous = o.bases.size() > 1 && covered >= env.width * env.depth * 0.999;
    if (contiguous) {
      quads.push_back(make_quad(env));  // one body, one quad: no seams to see along
    } else {
      for (const auto& b : o.bases) quads.push_back(make_quad(b));
    }
    ob.q1 = static_cast<std::uint32_t>(quads.size());
    for (std::uint32_t q = ob.q0; q < ob.q1; ++q) {
      for (Vec2 c : quads[q].c) ob.box.add(c);
    }
    ob.p0 = static_cast<std::uint32_t>(points.size());
    if (o.sight_points.empty()) {
      // As default_sight_points, from the envelope already at hand.
      if (o.bases.size() == 1) {
        points.push_back(o.bases[0].center);
      } else if (contiguous) {
        for (Vec2 p : envelope_points(env)) points.push_back(p);
      } else if (!o.bases.empty()) {
        for (const auto& b : o.bases) points.push_back(b.center);
        const auto corners = envelope_points(env);
        points.insert(points.end(), corners.begin() + 1, corners.end());
      }
    } else {
      points.insert(points.end(), o.sight_points.begin(), o.sight_points.end());
    }
    ob.p1 = static_cast<std::uint32_t>(points.size());
    if (o.sight_points.empty() && ob.p1 - ob.p0 >= 5) {
      // default_sight_points: centre + 4 corners, or centres + 4 corners.
      ob.hull0 = (o.bases.size() == 1 || contiguous) ? ob.p0 + 1 : ob.p1 - 4;
      ob.hull_n = 4;
    } else if (o.sight_points.empty() && ob.p1 - ob.p0 == 1) {
      ob.hull0 = ob.p0;
      ob.hull_n = 1;
    }
    bool all_in_cover = ob.p1 > ob.p0;
    pt_in_cover.resize(points.size());
    pt_hill_top.resize(points.size());
    for (std::uint32_t i = ob.p0; i < ob.p1; ++i) ob.pts_box.add(points[i]);
    // Only woods, towns and hills whose boxes meet the point box can hold a point.
    near_covers.clear();
    for (const auto& c : covers) {
      if (c.box.intersects(ob.pts_box)) near_covers.push_back(&c);
    }
    near_hills.clear();
    for (const auto& h : hills) {
      if (h.box.intersects(ob.pts_box)) near_hills.push_back(&h);
    }
    for (std::uint32_t i = ob.p0; i < ob.p1; ++i) {
      bool in = false;
      for (const Cover* c : near_covers) {
        if (c->box.contains(points[i]) && strictly_inside(*c->poly, points[i])) {
          in = true;
          break;
        }
      }
      pt_in_cover[i] = in ? 1 : 0;
      if (!in) all_in_cover = false;
      double top = 0;
      for (const HillB* h : near_hills) {
        if (h->elevation > top && h->box.contains(points[i]) && strictly_inside(*h->poly, points[i])) top = h->elevation;
      }
      pt_hill_top[i] = top;
    }
    ob.cen = (ob.box.min + ob.box.max) * 0.5;
    ob.rad = half_diagonal(ob.box);
    ob.pcen = (ob.pts_box.min + ob.pts_box.max) * 0.5;
    ob.prad = half_diagonal(ob.pts_box);
    ob.elevation = o.elevation;
    ob.sig_high = o.significantly_high;
    ob.edge = o.at_cover_edge;
    ob.shot = o.shot_this_turn;
    // Troops at an edge may see out, and be seen when they shoot; anyone
    // else with every sight point in cover is bound by the cover ranges.
    ob.cover_bound_observer = all_in_cover && !ob.edge;
    ob.cover_bound_target = all_in_cover && !(ob.edge && ob.shot);
    ob.seats = o.observer_for;
    ob.id = o.id;
    objs.push_back(ob);
  }

  // The last prepare's object j, placed after the objects prepared so far.
  void add_prepared(std::uint32_t j) {
    Obj ob = prev.objs[j];
    const auto q_shift = static_cast<std::int64_t>(quads.size()) - ob.q0;
    const auto p_shift = static_cast<std::int64_t>(points.size()) - ob.p0;
    quads.insert(quads.end(), prev.quads.begin() + ob.q0, prev.quads.begin() + ob.q1);
    points.insert(points.end(), prev.points.begin() + ob.p0, prev.points.begin() + ob.p1);
    pt_in_cover.insert(pt_in_cover.end(), prev.pt_in_cover.begin() + ob.p0, prev.pt_in_cover.begin() + ob.p1);
    pt_hill_top.insert(pt_hill_top.end(), prev.pt_hill_top.begin() + ob.p0, prev.pt_hill_top.begin() + ob.p1);
    ob.q0 = static_cast<std::uint32_t>(ob.q0 + q_shift);
    ob.q1 = static_cast<std::uint32_t>(ob.q1 + q_shift);
    ob.p0 = static_cast<std::uint32_t>(ob.p0 + p_shift);
    ob.p1 = static_cast<std::uint32_t>(ob.p1 + p_shift);
    if (ob.hull0 != kNoHull) ob.hull0 = static_cast<std::uint32_t>(ob.hull0 + p_shift);
    ob.screen = UINT32_MAX;  // what compute learns about it starts afresh
    ob.blocker = UINT32_MAX;
    objs.push_back(ob);
  }

#ifndef NDEBUG
  // Debug builds: the object just copied by add_prepared is what preparing
  // `o` gives.
  void check_prepared(const SceneObject& o) {
    const Obj kept = objs.back();
    const std::size_t nq = quads.size(), np = points.size();
    add_object(o);
    const Obj& fresh = objs.back();
    const auto quad_eq = [](const Quad& a, const Quad& b) { return a.n == b.n && a.d == b.d && a.c == b.c; };
    assert(fresh.q1 - fresh.q0 == kept.q1 - kept.q0 && fresh.p1 - fresh.p0 == kept.p1 - kept.p0);
    for (std::uint32_t k = 0; k < fresh.q1 - fresh.q0; ++k) assert(quad_eq(quads[fresh.q0 + k], quads[kept.q0 + k]));
    for (std::uint32_t k = 0; k < fresh.p1 - fresh.p0; ++k) {
      assert(points[fresh.p0 + k] == points[kept.p0 + k]);
      assert(pt_in_cover[fresh.p0 + k] == pt_in_cover[kept.p0 + k]);
      assert(pt_hill_top[fresh.p0 + k] == pt_hill_top[kept.p0 + k]);
    }
    assert(fresh.cen == kept.cen && fresh.rad == kept.rad && fresh.pcen == kept.pcen && fresh.prad == kept.prad);
    assert(fresh.box.min == kept.box.min && fresh.box.max == kept.box.max);
    assert(fresh.pts_box.min == kept.pts_box.min && fresh.pts_box.max == kept.pts_box.max);
    assert(fresh.block == kept.block && fresh.elevation == kept.elevation && fresh.sig_high == kept.sig_high);
    assert(fresh.edge == kept.edge && fresh.shot == kept.shot);
    assert(fresh.cover_bound_target == kept.cover_bound_target);
    assert(fresh.cover_bound_observer == kept.cover_bound_observer);
    assert((fresh.hull0 == kNoHull) == (kept.hull0 == kNoHull));
    assert(fresh.hull0 == kNoHull || fresh.hull0 - fresh.p0 == kept.hull0 - kept.p0);
    assert(fresh.hull_n == kept.hull_n && fresh.seats == kept.seats && fresh.id == kept.id);
    objs.pop_back();
    quads.resize(nq);
    points.resize(np);
    pt_in_cover.resize(np);
    pt_hill_top.resize(np);
  }
#endif

  // Inside and not on the outline (within rounding).
  static bool strictly_inside(const Polygon& poly, Vec2 p) {
    if (!inside_fast(poly, p)) return false;
    const std::size_t n = poly.points.size();
    for (std::size_t i = 0; i < n; ++i) {
      // An edge whose box (widened by 1e-6) misses p is farther than 1e-9.
      const Vec2 a = poly.points[i], b = poly.points[(i + 1) % n];
      if (p.x < std::min(a.x, b.x) - 1e-6 || p.x > std::max(a.x, b.x) + 1e-6 || p.y < std::min(a.y, b.y) - 1e-6 ||
          p.y > std::max(a.y, b.y) + 1e-6) {
        continue;
      }
      if (distance(Segment{a, b}, p) <= 1e-9) return false;
    }
    return true;
  }

  double range_of(const Obj& o) const { return o.elevation > 0 ? rules->elevated_range : rules->open_range; }

  // Whether the footprints are at least see_over_min_distance apart edge to
  // edge (within kGeomEpsilon): the boxes when they already are, else every
  // pair of quads (0 apart when one holds a corner of the other), stopping
  // at the first pair of edges found nearer.
  bool far_enough_to_see_over(const Obj& a, const Obj& b) const {
    const double need = rules->see_over_min_distance - kGeomEpsilon;
    const double boxes = a.box.distance_to(b.box);
    if (boxes >= rules->see_over_min_distance) return boxes >= need;  // as footprint_distance
    for (std::uint32_t i = a.q0; i < a.q1; ++i) {
      for (std::uint32_t j = b.q0; j < b.q1; ++j) {
        const Quad& qa = quads[i];
        const Quad& qb = quads[j];
        if (quad_contains(qa, qb.c[0]) || quad_contains(qb, qa.c[0])) {
          if (!(0 >= need)) return false;
          continue;
        }
        for (std::size_t k = 0; k < 4; ++k) {
          const Segment ea{qa.c[k], qa.c[(k + 1) % 4]};
          for (std::size_t l = 0; l < 4; ++l) {
            if (!(distance(ea, Segment{qb.c[l], qb.c[(l + 1) % 4]}) >= need)) return false;
          }
        }
      }
    }
    return true;
  }

  static bool quad_contains(const Quad& q, Vec2 p) {
    for (std::size_t k = 0; k < 4; ++k) {
      if (dot(q.n[k], p) > q.d[k] + kGeomEpsilon) return false;
    }
    return true;
  }


  // Gathers the candidate blockers of one observer/target pair.
  //
  // Every sight line lies within r = max(ro, rt) of the segment joining the
  // centres of the two point boxes (ro, rt: their half-diagonals), so a
  // blocker whose bounding circle misses that capsule cannot be on one.
  // compute() takes the blockers from the grid cells the capsule touches.
  void gather_pair(std::uint32_t oi, std::uint32_t ti, const std::vector<std::uint32_t>& bodies_pool) const {
    gathered = true;
    const Obj& o = objs[oi];
    const Obj& t = objs[ti];
    gather_around(oi, ti, o.pcen, t.pcen - o.pcen, std::max(o.prad, t.prad), bodies_pool);
  }
  // The candidates within r of segment a -> a + d (one sight line: r ~ 0).
  void gather_around(std::uint32_t oi, std::uint32_t ti, Vec2 a, Vec2 d, double r,
                     const std::vector<std::uint32_t>& bodies_pool) const {
    const Obj& o = objs[oi];
    const Obj& t = objs[ti];
    const double dd = dot(d, d);
    const double inv = dd > 0 ? 1 / dd : 0;
    const double top = std::max(o.elevation, t.elevation);
    pair_bodies.clear();
    pair_covers.clear();
    pair_hills.clear();
    auto consider = [&](std::uint32_t item) {
      const std::uint32_t kind = item >> 30;
      const std::uint32_t idx = item & kItemIndex;
      Vec2 c;
      double rad = 0;
      if (kind == kItemBody) {
        if (idx == oi || idx == ti) return;
        c = objs[idx].cen;
        rad = objs[idx].rad;
      } else if (kind == kItemCover) {
        c = covers[idx].cen;
        rad = covers[idx].rad;
      } else {
        if (hills[idx].elevation <= top) return;
        c = hills[idx].cen;
        rad = hills[idx].rad;
      }
      const double s = std::clamp(dot(c - a, d) * inv, 0.0, 1.0);
      const double reach = r + rad;
      if (sq(c - (a + d * s)) > reach * reach) return;
      if (kind == kItemBody) pair_bodies.push_back(idx);
      else if (kind == kItemCover) pair_covers.push_back(idx);
      else pair_hills.push_back(idx);
    };
    for (std::uint32_t b : bodies_pool) consider(kItemBody << 30 | b);
    for (std::uint32_t c = 0; c < covers.size(); ++c) consider(kItemCover << 30 | c);
    for (std::uint32_t h = 0; h < hills.size(); ++h) consider(kItemHill << 30 | h);
  }

  static constexpr std::uint32_t kItemBody = 0, kItemCover = 1, kItemHill = 2;
  static constexpr std::uint32_t kItemIndex = (1u << 30) - 1;
  double max_prad = 0;  // the largest half-diagonal of a point box

  // ---- The flat grid (compute) ----
  //
  // Every blocking object, wood, town and hill listed in each cell of a
  // uniform grid its bounding box touches. Each searched sight line takes
  // the items of the cells it passes through, each once (line_walk). Built
  // once per compute() and shared by every observer.
  bool use_grid = false;
  Vec2 grid_origin;
  double grid_inv = 1;  // cells per table unit
  int grid_nx = 0, grid_ny = 0;
  std::vector<std::uint32_t> grid_start;  // per cell (+1 sentinel), into grid_items
  std::vector<std::uint32_t> grid_items;
  mutable std::vector<std::uint32_t> item_stamp;  // per item: the query that last took it
  mutable std::uint32_t stamp_now = 0;

  // Grid items are numbered: bodies by object index, then covers, then hills.
  template <class F>
  void for_each_grid_item(F&& f) const {
    const auto n = static_cast<std::uint32_t>(objs.size());
    const auto nc = static_cast<std::uint32_t>(covers.size());
    for (std::uint32_t b = 0; b < n; ++b) {
      if (objs[b].block != BlockClass::kNone) f(b, objs[b].box);
    }
    for (std::uint32_t c = 0; c < nc; ++c) f(n + c, covers[c].box);
    for (std::uint32_t h = 0; h < hills.size(); ++h) f(n + nc + h, hills[h].box);
  }

  void build_grid() {
    Aabb all;
    for_each_grid_item([&](std::uint32_t, const Aabb& b) { all.add(b); });
    grid_items.clear();
    if (all.empty()) {
      grid_nx = grid_ny = 0;
      grid_start.assign(1, 0);
      return;
    }
    // About 32 cells along the longer side, none smaller than 1 unit.
    const double ext = std::max(all.max.x - all.min.x, all.max.y - all.min.y);
    const double cell = std::max(1.0, ext / 32);
    grid_inv = 1 / cell;
    grid_origin = all.min;
    grid_nx = static_cast<int>((all.max.x - all.min.x) * grid_inv) + 1;
    grid_ny = static_cast<int>((all.max.y - all.min.y) * grid_inv) + 1;
    grid_start.assign(static_cast<std::size_t>(grid_nx * grid_ny) + 1, 0);
    auto cells = [&](const Aabb& b, auto&& g) {
      const int x0 = grid_col(b.min.x), x1 = grid_col(b.max.x);
      const int y0 = grid_row(b.min.y), y1 = grid_row(b.max.y);
      for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) g(static_cast<std::size_t>(y * grid_nx + x));
      }
    };
    for_each_grid_item([&](std::uint32_t, const Aabb& b) { cells(b, [&](std::size_t c) { ++grid_start[c + 1]; }); });
    for (std::size_t c = 1; c < grid_start.size(); ++c) grid_start[c] += grid_start[c - 1];
    grid_items.resize(grid_start.back());
    std::vector<std::uint32_t>& fill = pair_bodies;  // scratch: next free slot per cell
    fill.assign(grid_start.begin(), grid_start.end() - 1);
    for_each_grid_item([&](std::uint32_t item, const Aabb& b) {
      cells(b, [&](std::size_t c) { grid_items[fill[c]++] = item; });
    });
    fill.clear();
    item_stamp.assign(objs.size() + covers.size() + hills.size(), 0);
    stamp_now = 0;
  }
  int grid_col(double x) const { return grid_cell((x - grid_origin.x) * grid_inv, grid_nx); }
  int grid_row(double y) const { return grid_cell((y - grid_origin.y) * grid_inv, grid_ny); }
  // clamp(floor(u), 0, n - 1) without floor: truncation differs from it
  // only below 0, which clamps to 0 either way.
  static int grid_cell(double u, int n) {
    if (!(u >= 0)) return 0;
    if (u >= n - 1) return n - 1;
    return static_cast<int>(u);
  }

  // Calls f(item) once for every item in a cell that the capsule of radius r
  // around segment a -> a + d touches, until f returns true.
  template <class F>
  void grid_query(Vec2 a, Vec2 d, double r, F&& f) const {
    if (grid_nx == 0) return;
    if (++stamp_now == 0) {
      std::fill(item_stamp.begin(), item_stamp.end(), 0);
      stamp_now = 1;
    }
    const Vec2 b = a + d;
    const int y0 = grid_row(std::min(a.y, b.y) - r), y1 = grid_row(std::max(a.y, b.y) + r);
    const double cell = 1 / grid_inv;
    for (int y = y0; y <= y1; ++y) {
      // The centre segment's part within r of this row, widened by r.
      const double lo_y = grid_origin.y + y * cell - r, hi_y = lo_y + cell + 2 * r;
      double t0 = 0, t1 = 1;
      if (d.y != 0) {
        double ta = (lo_y - a.y) / d.y, tb = (hi_y - a.y) / d.y;
        if (ta > tb) std::swap(ta, tb);
        t0 = std::max(t0, ta);
        t1 = std::min(t1, tb);
        if (t0 > t1) {
          // Rounding at the ends of the range: take the whole row.
          t0 = 0;
          t1 = 1;
        }
      }
      const double xa = a.x + d.x * t0, xb = a.x + d.x * t1;
      const int x0 = grid_col(std::min(xa, xb) - r), x1 = grid_col(std::max(xa, xb) + r);
      for (int x = x0; x <= x1; ++x) {
        const std::size_t c = static_cast<std::size_t>(y * grid_nx + x);
        for (std::uint32_t k = grid_start[c]; k < grid_start[c + 1]; ++k) {
          const std::uint32_t item = grid_items[k];
          std::uint32_t& st = item_stamp[item];
          if (st == stamp_now) continue;
          st = stamp_now;
          if (f(item)) return;
        }
      }
    }
  }

  static double fast_atan2(double y, double x) {
    const double ax = std::abs(x);
    const double ay = std::abs(y);
    const double mx = std::max(ax, ay);
    if (mx == 0) return 0;
    const double z = std::min(ax, ay) / mx;
    double ang = z * (kPi / 4) + 0.273 * z * (1 - z);  // |error| < 0.0039 rad
    if (ay > ax) ang = kPi / 2 - ang;
    if (x < 0) ang = kPi - ang;
    return y < 0 ? -ang : ang;
  }

  static double half_diagonal(const Aabb& b) { return length(b.max - b.min) * 0.5; }
  // Aabb::distance_to squared, without the square root (the same dx, dy).
  static double box_distance2(const Aabb& a, const Aabb& b) {
    const double dx = std::max({0.0, b.min.x - a.max.x, a.min.x - b.max.x});
    const double dy = std::max({0.0, b.min.y - a.max.y, a.min.y - b.max.y});
    return dx * dx + dy * dy;
  }
  static double sq(Vec2 v) { return v.x * v.x + v.y * v.y; }

  bool hill_blocks(std::uint32_t h, Vec2 eye, Vec2 mark, Vec2 ab, double len) const {
    const HillB& hb = hills[h];
    return box_hits_segment(hb.box, eye, ab) && enters_interior(*hb.poly, eye, mark, len);
  }

  // One sight line, against the gathered candidates.
  SightResult line(std::uint32_t oi, Vec2 eye, std::uint32_t ti, Vec2 mark, Cache& cache) const {
    line_crossed = false;
    const SightResult r = line_verdict(oi, eye, ti, mark, cache);
    const Obj& o = objs[oi];
    const Obj& t = objs[ti];
    switch (r.reason) {
      case SightBlock::kNone: line_sym = !line_crossed && same_range(o, t); break;
      case SightBlock::kRange: line_sym = same_range(o, t); break;
      case SightBlock::kHill: line_sym = true; break;
      case SightBlock::kCover: line_sym = cover_symmetric(o, t); break;
      case SightBlock::kBody:
      case SightBlock::kSmoke: line_sym = blocks_outright_for(ti, cache.index); break;
      case SightBlock::kUnformed:
      case SightBlock::kNoPoints: line_sym = false; break;
    }
    return r;
  }

  // The hill or cover that blocked this pair's last line, tried first.
  SightResult cached_terrain(const Obj& o, Vec2 eye, const Obj& t, Vec2 mark, const Cache& cache, Vec2 ab,
                             double len) const {
    switch (cache.kind) {
      case Cache::kHill:
        if (hill_blocks(cache.index, eye, mark, ab, len)) return {false, SightBlock::kHill, hills[cache.index].index};
        break;
      case Cache::kCover: {
        const std::uint32_t one[1] = {cache.index};
        if (SightResult r = cover(o, eye, t, mark, len, one); !r.visible) return r;
        break;
      }
      case Cache::kBody:
      case Cache::kNone: break;
    }
    return {true, SightBlock::kNone, 0};
  }

  // Once no body blocks the line: the hills gathered for it (pair_hills),
  // then its woods and towns (pair_covers); what blocks goes in `cache`.
  SightResult pair_terrain(const Obj& o, Vec2 eye, const Obj& t, Vec2 mark, Cache& cache, Vec2 ab, double len) const {
    for (std::uint32_t h : pair_hills) {
      if (hill_blocks(h, eye, mark, ab, len)) {
        cache.kind = Cache::kHill;
        cache.index = h;
        return {false, SightBlock::kHill, hills[h].index};
      }
    }
    std::uint32_t which = 0;
    if (SightResult r = cover(o, eye, t, mark, len, pair_covers, &which); !r.visible) {
      cache.kind = Cache::kCover;
      cache.index = which;
      return r;
    }
    return {true, SightBlock::kNone, 0};
  }

  SightResult line_verdict(std::uint32_t oi, Vec2 eye, std::uint32_t ti, Vec2 mark, Cache& cache) const {
    // Cached bodies first: a hit settles the line without gathering.
    const Obj& o = objs[oi];
    const Obj& t = objs[ti];
    const Vec2 ab = mark - eye;
    const double len2 = dot(ab, ab);
    const double range = range_of(o);
    if (len2 > range * range) return {false, SightBlock::kRange, 0};
    const double len = std::sqrt(len2);

    for (std::uint32_t i = 0; i < cache.n_bodies; ++i) {
      if (SightResult r = body(oi, eye, ab, len, cache.bodies[i]); !r.visible) {
        cache.kind = Cache::kBody;
        cache.index = cache.bodies[i];
        return r;
      }
    }
    if (use_grid) return line_walk(oi, eye, ti, mark, cache, ab, len);
    if (!gathered) gather_pair(oi, ti, pool);
    if (SightResult r = cached_terrain(o, eye, t, mark, cache, ab, len); !r.visible) return r;
    for (std::uint32_t b : pair_bodies) {
      if (cache.has_body(b)) continue;
      SightResult r = body(oi, eye, ab, len, b);
      if (!r.visible) {
        cache.kind = Cache::kBody;
        cache.index = b;
        cache.add_body(b);
        return r;
      }
    }
    return pair_terrain(o, eye, t, mark, cache, ab, len);
  }

  // compute(): the line against the items of the grid cells it passes
  // through (every blocker's box meets the segment, so lies in one of its
  // cells). Bodies are judged as they come, stopping at the first that
  // blocks; hills and covers are judged only if none does (each decides
  // exactly, so the order changes only which blocker is named).
  SightResult line_walk(std::uint32_t oi, Vec2 eye, std::uint32_t ti, Vec2 mark, Cache& cache, Vec2 ab,
                        double len) const {
    const Obj& o = objs[oi];
    const Obj& t = objs[ti];
    if (SightResult r = cached_terrain(o, eye, t, mark, cache, ab, len); !r.visible) return r;
    const double top = std::max(o.elevation, t.elevation);
    pair_covers.clear();
    pair_hills.clear();
    SightResult hit{true, SightBlock::kNone, 0};
    const auto n = static_cast<std::uint32_t>(objs.size());
    const auto nc = static_cast<std::uint32_t>(covers.size());
    grid_query(eye, ab, 1e-6, [&](std::uint32_t item) {
      if (item >= n + nc) {
        if (hills[item - n - nc].elevation > top) pair_hills.push_back(item - n - nc);
      } else if (item >= n) {
        pair_covers.push_back(item - n);
      } else if (const std::uint32_t idx = item; idx != oi && idx != ti && !cache.has_body(idx)) {
        hit = body(oi, eye, ab, len, idx);
        if (!hit.visible) {
          cache.kind = Cache::kBody;
          cache.index = idx;
          cache.add_body(idx);
          return true;
        }
      }
      return false;
    });
    if (!hit.visible) return hit;
    return pair_terrain(o, eye, t, mark, cache, ab, len);
  }

  // Whether body bi may block the line at all: it blocks something, and its
  // bounding circle meets the segment (no division: off the line, or before
  // the eye, or past the mark). Most bodies a line is tried against fail
  // here, so this part is inlined where lines are judged and the rest
  // (body_crossing) is not.
  [[gnu::always_inline]] bool may_block(Vec2 eye, Vec2 ab, double len, std::uint32_t bi) const {
    const Obj& b = objs[bi];
    if (b.block == BlockClass::kNone) return false;
    const Vec2 w = b.cen - eye;
    const double cr = cross(ab, w);
    const double rl = b.rad * len;
    if (cr * cr > rl * rl) return false;
    const double along = dot(w, ab);
    return !(along < -rl || along > len * len + rl);
  }

  [[gnu::always_inline]] SightResult body(std::uint32_t oi, Vec2 eye, Vec2 ab, double len, std::uint32_t bi) const {
    if (!may_block(eye, ab, len, bi)) return {true, SightBlock::kNone, 0};
    return body_crossing(oi, eye, ab, len, bi);
  }

  // body() once may_block() holds.
  [[gnu::noinline]] SightResult body_crossing(std::uint32_t oi, Vec2 eye, Vec2 ab, double len,
                                              std::uint32_t bi) const {
    const Obj& b = objs[bi];
    const Obj& o = objs[oi];
    if (o.elevation > 0 && (b.block != BlockClass::kSmoke || o.sig_high) && sees_over(oi, bi)) {
      // Higher ground sees over it whether or not the line crosses it; the
      // line counts as crossed (the target may not see over it).
      line_crossed = true;
      return {true, SightBlock::kNone, 0};
    }
    double first = kInf, last = -kInf;
    for (std::uint32_t q = b.q0; q < b.q1; ++q) {
      double t0 = 0, t1 = 0;
      if (clip_quad(quads[q], eye, ab, len, t0, t1)) {
        first = std::min(first, t0);
        last = std::max(last, t1);
      }
    }
    if (first == kInf) return {true, SightBlock::kNone, 0};
    line_crossed = true;
    switch (b.block) {
      case BlockClass::kBody: return {false, SightBlock::kBody, b.id};
      case BlockClass::kUnformed:
        if ((1 - last) * len <= rules->unformed_see_beyond + kGeomEpsilon) return {true, SightBlock::kNone, 0};
        return {false, SightBlock::kUnformed, b.id};
      case BlockClass::kSmoke: return {false, SightBlock::kSmoke, b.id};
      case BlockClass::kNone: break;
    }
    return {true, SightBlock::kNone, 0};
  }

  // Higher ground sees over a lower body at least see_over_min_distance away.
  bool sees_over(std::uint32_t oi, std::uint32_t bi) const {
    const Obj& o = objs[oi];
    const Obj& b = objs[bi];
    if (!(o.elevation > 0 && b.elevation < o.elevation)) return false;
    if (over_for != oi) {
      over.assign(objs.size(), -1);
      over_for = oi;
    }
    if (over[bi] < 0) {
      over[bi] = far_enough_to_see_over(o, b) ? 1 : 0;
    }
    return over[bi] == 1;
  }

  // A body that blocks every sight line of this observer it crosses.
  bool blocks_outright(std::uint32_t oi, std::uint32_t bi) const {
    const Obj& b = objs[bi];
    if (b.block == BlockClass::kBody) return !sees_over(oi, bi);
    if (b.block == BlockClass::kSmoke) return !(sees_over(oi, bi) && objs[oi].sig_high);
    return false;
  }

  bool crosses(std::uint32_t bi, Vec2 e, Vec2 m) const {
    const Vec2 ab = m - e;
    const double len = length(ab);
    const Obj& b = objs[bi];
    const Vec2 w = b.cen - e;
    const double cr = cross(ab, w);
    const double rl = b.rad * len;
    if (cr * cr > rl * rl) return false;
    for (std::uint32_t q = objs[bi].q0; q < objs[bi].q1; ++q) {
      double t0 = 0, t1 = 0;
      if (clip_quad(quads[q], e, ab, len, t0, t1)) return true;
    }
    return false;
  }

  // One convex body crossing the sixteen sight lines between the hull points
  // of both objects crosses every line between them. For a point e on a hull
  // edge [e1,e2] and a mark m, the body holds a point of e1-m and of e2-m,
  // hence the chord between them, which e-m must cross; a point inside the
  // hull is reached through the hull edge nearest m. The same holds for the
  // marks. Sixteen clips then settle the whole pair.
  bool hides_whole(std::uint32_t oi, std::uint32_t ti, std::uint32_t bi) const {
    const Obj& o = objs[oi];
    const Obj& t = objs[ti];
    if (o.hull0 == kNoHull || t.hull0 == kNoHull || objs[bi].q1 - objs[bi].q0 != 1) return false;
    // can_see keeps to bodies seen at five points (the blocker it names).
    if (!whole_pairs && (o.hull_n != 4 || t.hull_n != 4)) return false;
    // The argument needs each object's points outside the other's hull.
    if (o.pts_box.intersects(t.pts_box)) return false;
    if (!blocks_outright(oi, bi)) return false;
    for (std::uint32_t e = o.hull0; e < o.hull0 + o.hull_n; ++e) {
      for (std::uint32_t m = t.hull0; m < t.hull0 + t.hull_n; ++m) {
        if (!crosses(bi, points[e], points[m])) return false;
      }
    }
    return true;
  }

  void build_screens() {
    pieces.clear();
    piece_n.clear();
    piece_d.clear();
    piece_v.clear();
    screens.clear();
    auto add = [&](const Polygon& poly, bool hill, std::uint32_t index, double elevation) {
      Screen sc;
      sc.hill = hill;
      sc.index = index;
      sc.elevation = elevation;
      sc.box = poly.bounds();
      sc.cen = (sc.box.min + sc.box.max) * 0.5;
      sc.rad = half_diagonal(sc.box);
      sc.k0 = static_cast<std::uint32_t>(pieces.size());
      for (const auto& pc : convex_pieces(poly)) {
        Piece piece;
        piece.h0 = static_cast<std::uint32_t>(piece_n.size());
        Aabb b;
        for (std::size_t i = 0; i < pc.size(); ++i) {
          const Vec2 a = pc[i];
          const Vec2 e = pc[(i + 1) % pc.size()] - a;
          const Vec2 nrm = Vec2{e.y, -e.x} * (1.0 / length(e));  // outward for counter-clockwise
          piece_n.push_back(nrm);
          piece_d.push_back(dot(nrm, a));
          piece_v.push_back(a);
          b.add(a);
          const Vec2 back = pc[(i + pc.size() - 1) % pc.size()] - a;
          if (dot(back, e) > 0.998 * length(back) * length(e)) piece.sharp = true;
        }
        piece.h1 = static_cast<std::uint32_t>(piece_n.size());
        piece.cen = (b.min + b.max) * 0.5;
        piece.rad = half_diagonal(b);
        pieces.push_back(piece);
      }
      sc.k1 = static_cast<std::uint32_t>(pieces.size());
      if (sc.k1 > sc.k0) screens.push_back(sc);
    };
    for (std::uint32_t i = 0; i < hills.size(); ++i) add(*hills[i].poly, true, i, hills[i].elevation);
    for (std::uint32_t i = 0; i < covers.size(); ++i) add(*covers[i].poly, false, i, 0);
  }

  // Segment a->b passes through the interior of convex piece k, well clear
  // of grazing (so the exact test finds the polygon's interior entered).
  bool through_piece(std::uint32_t k, Vec2 a, Vec2 b) const {
    const Piece& pc = pieces[k];
    const Vec2 ab = b - a;
    const double len = length(ab);
    const Vec2 w = pc.cen - a;
    const double cr = cross(ab, w);
    const double rl = pc.rad * len;
    if (cr * cr > rl * rl) return false;
    double lo = 0, hi = 1;
    for (std::uint32_t i = pc.h0; i < pc.h1; ++i) {
      const double num = piece_d[i] - dot(piece_n[i], a);
      const double den = dot(piece_n[i], ab);
      if (std::abs(den) <= 1e-12 * len) {
        if (num <= 1e-7) return false;
        continue;
      }
      const double t = num / den;
      if (den > 0) hi = std::min(hi, t);
      else lo = std::max(lo, t);
      if (hi <= lo) return false;
    }
    return (hi - lo) * len > 1e-6;
  }

  // Every sight line between o's points and t's points crosses convex piece
  // k well inside, by wedges: from a target point m the piece fills the
  // wedge between its two tangents from m, and a segment from m to a point
  // inside that wedge and beyond the piece's farthest vertex crosses it. A
  // point kWedgeMargin inside both tangents, with the tangent vertices at
  // least kWedgeNear from m and no sharp vertex, puts the crossing well
  // clear of grazing (a chord of more than 1e-8). Lines near a tangent are
  // left to through_piece.
  static constexpr double kWedgeMargin = 1e-2;
  static constexpr double kWedgeNear = 1e-3;
  struct Wedge {
    Vec2 ra, rb;        // unit tangent directions from the target point, ra clockwise of rb
    double reach2 = 0;  // (farthest vertex + kWedgeMargin)^2
  };
  static constexpr std::uint32_t kMaxWedgePoints = 8;
  // Per target: the last two pieces whose wedges were worked out for it (in
  // front of it for some observer), tried first by its next observers (the
  // wedges depend only on the piece and the target).
  struct TargetWedges {
    std::uint32_t screen = UINT32_MAX;
    std::uint32_t piece = UINT32_MAX;
    std::array<Wedge, kMaxWedgePoints> w;
  };
  std::vector<std::array<TargetWedges, 2>> target_wedges;  // the last two, newest first
  std::array<Wedge, kMaxWedgePoints> wedge_scratch;

  // The wedges of piece k from each of t's points; false where a point
  // gives none (inside the piece, on a side's line, a tangent too near).
  bool make_wedges(std::uint32_t k, const Obj& t, std::array<Wedge, kMaxWedgePoints>& out) const {
    const Piece& pc = pieces[k];
    if (pc.sharp || t.p1 - t.p0 > kMaxWedgePoints) return false;
    for (std::uint32_t mi = t.p0; mi < t.p1; ++mi) {
      const Vec2 m = points[mi];
      // Vertex i joins side i-1 and side i; a tangent vertex joins a side
      // that faces m (m strictly outside its line) and one that does not.
      std::uint32_t first = UINT32_MAX, last = UINT32_MAX;
      double far2 = 0;
      bool prev = dot(piece_n[pc.h1 - 1], m) - piece_d[pc.h1 - 1] > 0;
      for (std::uint32_t i = pc.h0; i < pc.h1; ++i) {
        const double side = dot(piece_n[i], m) - piece_d[i];
        if (std::abs(side) < 1e-9) return false;
        const bool faces = side > 0;
        if (faces != prev) (faces ? first : last) = i;
        prev = faces;
        far2 = std::max(far2, sq(piece_v[i] - m));
      }
      if (first == UINT32_MAX || last == UINT32_MAX) return false;  // m inside
      Vec2 ra = piece_v[first] - m, rb = piece_v[last] - m;
      const double la = length(ra), lb = length(rb);
      if (la < kWedgeNear || lb < kWedgeNear) return false;
      ra = ra * (1 / la);
      rb = rb * (1 / lb);
      if (cross(ra, rb) < 0) std::swap(ra, rb);
      const double reach = std::sqrt(far2) + kWedgeMargin;
      out[mi - t.p0] = {ra, rb, reach * reach};
    }
    return true;
  }

  // Every observer point lies inside every target point's wedge.
  bool wedges_hold(const std::array<Wedge, kMaxWedgePoints>& w, const Obj& o, const Obj& t) const {
    // The observer's points lie within prad of pcen: when that circle is
    // inside a wedge with the margins to spare (ra, rb are unit vectors, to
    // rounding), so is every point, and one test does for all of them.
    const double slack = o.prad * 1.001 + 1e-9;
    for (std::uint32_t mi = t.p0; mi < t.p1; ++mi) {
      const Wedge& wg = w[mi - t.p0];
      const Vec2 m = points[mi];
      {
        const Vec2 c = o.pcen - m;
        const double near = length(c) - slack;
        if (cross(wg.ra, c) > kWedgeMargin + slack && cross(c, wg.rb) > kWedgeMargin + slack && near > 0 &&
            near * near > wg.reach2) {
          continue;
        }
      }
      for (std::uint32_t ei = o.p0; ei < o.p1; ++ei) {
        const Vec2 v = points[ei] - m;
        if (!(cross(wg.ra, v) > kWedgeMargin && cross(v, wg.rb) > kWedgeMargin && sq(v) > wg.reach2)) return false;
      }
    }
    return true;
  }

  // Screen sc may hide the pair (o, t) whole: a hill higher than both, or a
  // wood or town clear of both (and not seen over).
  bool screen_applies(const Screen& sc, const Obj& o, const Obj& t, bool cover_far) const {
    if (sc.hill) return sc.elevation > std::max(o.elevation, t.elevation);
    return !o.sig_high && cover_far && !sc.box.intersects(o.pts_box) && !sc.box.intersects(t.pts_box);
  }

  // The terrain screens within reach of observer oi (range plus the pieces).
  void gather_screens(std::uint32_t oi) {
    obs_screens.clear();
    const Obj& o = objs[oi];
    const double reach = range_of(o) + o.prad;
    for (std::uint32_t k = 0; k < screens.size(); ++k) {
      const Screen& sc = screens[k];
      if (sc.hill ? sc.elevation <= o.elevation : o.sig_high) continue;  // cannot hide anything from it
      const double lim = reach + sc.rad;
      if (sq(sc.cen - o.pcen) <= lim * lim) obs_screens.push_back(k);
    }
    obs_screen_angles = false;
  }
  bool obs_screen_angles = false;  // obs_screen_ang / obs_screen_half worked out for the current observer

  void screen_angles(std::uint32_t oi) {
    obs_screen_angles = true;
    const Obj& o = objs[oi];
    // A screen whose circle comes within r <= max(o.prad, max_prad) of the
    // segment from o.pcen to a target's pcen lies within asin((rad + r) /
    // dist) of that segment's direction (asin(x) <= x / sqrt(1 - x^2); the
    // two approximate angles err by kAtanError each).
    obs_screen_ang.clear();
    obs_screen_half.clear();
    const double r = std::max(o.prad, max_prad);
    for (std::uint32_t k : obs_screens) {
      const Screen& sc = screens[k];
      const Vec2 w = sc.cen - o.pcen;
      const double d2 = dot(w, w);
      const double big = sc.rad + r + 1e-6;
      if (d2 <= 4 * big * big) {
        obs_screen_ang.push_back(0);
        obs_screen_half.push_back(2 * kPi);
      } else {
        obs_screen_ang.push_back(fast_atan2(w.y, w.x));
        obs_screen_half.push_back(big / std::sqrt(d2 - big * big) + 2 * kAtanError + 1e-9);
      }
    }
  }

  // One convex piece of a hill higher than both objects, or of a wood or
  // town that both stand clear of, crossing the lines between the hull
  // points of both objects crosses every sight line between them (as for
  // hides_whole), and each such line is blocked: a hill blocks whatever
  // enters it; an intervening stretch of cover limits a line longer than
  // cover_range. Sets pair_sym.
  // The target's cached terrain wedges (cheap: tried before the spans).
  bool target_wedges_hide(std::uint32_t oi, std::uint32_t ti) {
    const Obj& o = objs[oi];
    const Obj& t = objs[ti];
    for (const TargetWedges& tw : target_wedges[ti]) {
      if (tw.piece != UINT32_MAX && wedges_hide(tw, o, t)) return true;
    }
    return false;
  }
  bool wedges_hide(const TargetWedges& tw, const Obj& o, const Obj& t) {
    const Screen& sc = screens[tw.screen];
    if (!sc.hill && o.pts_box.distance_to(t.pts_box) <= rules->cover_range + kGeomEpsilon) return false;
    if (!screen_applies(sc, o, t, true) || !wedges_hold(tw.w, o, t)) return false;
    pair_sym = sc.hill || cover_symmetric(o, t);
    return true;
  }

  bool terrain_hides(std::uint32_t oi, std::uint32_t ti) {
    const Obj& o = objs[oi];
    const Obj& t = objs[ti];
    if (o.hull0 == kNoHull || t.hull0 == kNoHull || o.pts_box.intersects(t.pts_box)) return false;
    const double top = std::max(o.elevation, t.elevation);
    const bool cover_far = o.pts_box.distance_to(t.pts_box) > rules->cover_range + kGeomEpsilon;
    auto& tw = target_wedges[ti];
    const Vec2 a = o.pcen;
    const Vec2 d = t.pcen - a;
    const double dd = dot(d, d);
    const double inv = dd > 0 ? 1 / dd : 0;
    const double r = std::max(o.prad, t.prad);
    if (!obs_screen_angles) screen_angles(oi);
    const double dir = fast_atan2(d.y, d.x);
    for (std::size_t i = 0; i < obs_screens.size(); ++i) {
      double off = std::abs(dir - obs_screen_ang[i]);
      if (off > kPi) off = 2 * kPi - off;
      if (off > obs_screen_half[i]) continue;  // its capsule test below would fail
      const std::uint32_t k = obs_screens[i];
      const Screen& sc = screens[k];
      if (sc.hill) {
        if (sc.elevation <= top) continue;
      } else if (!cover_far || sc.box.intersects(o.pts_box) || sc.box.intersects(t.pts_box)) {
        continue;  // an end may be in it: the edge rules apply
      }
      const double s = std::clamp(dot(sc.cen - a, d) * inv, 0.0, 1.0);
      const double reach = r + sc.rad;
      if (sq(sc.cen - (a + d * s)) > reach * reach) continue;
      for (std::uint32_t pk = sc.k0; pk < sc.k1; ++pk) {
        if (pk == tw[0].piece || pk == tw[1].piece) continue;  // tried first (target_wedges_hide)
        if (!through_piece(pk, points[o.hull0], points[t.hull0])) continue;
        if (make_wedges(pk, t, wedge_scratch)) {
          // Kept whether or not they hide this pair: the target's next
          // observers try them first.
          tw[1] = tw[0];
          tw[0].screen = k;
          tw[0].piece = pk;
          tw[0].w = wedge_scratch;
          if (wedges_hold(tw[0].w, o, t)) {
            pair_sym = sc.hill || cover_symmetric(o, t);
            return true;
          }
          continue;  // an observer point outside a wedge: the hull lines would rarely do better
        }
        bool all = true;
        for (std::uint32_t e = o.hull0; e < o.hull0 + o.hull_n && all; ++e) {
          for (std::uint32_t m = t.hull0; m < t.hull0 + t.hull_n && all; ++m) {
            all = through_piece(pk, points[e], points[m]);
          }
        }
        if (all) {
          pair_sym = sc.hill || cover_symmetric(o, t);
          return true;
        }
      }
    }
    return false;
  }

  SightResult hidden_by(std::uint32_t bi) const {
    const Obj& b = objs[bi];
    return {false, b.block == BlockClass::kSmoke ? SightBlock::kSmoke : SightBlock::kBody, b.id};
  }

  void remember(std::uint32_t bi) {
    for (std::uint32_t i = 0; i < recent_n; ++i) {
      if (recent[i] == bi) return;
    }
    if (recent_n < recent.size()) {
      recent[recent_n++] = bi;
    } else {
      for (std::size_t i = recent.size() - 1; i > 0; --i) recent[i] = recent[i - 1];
      recent[0] = bi;
    }
  }

  // Woods and towns. A counted stretch of cover anywhere on the line limits
  // the whole line's length; see VISIBILITY.md for which stretches count.
  SightResult cover(const Obj& o, Vec2 eye, const Obj& t, Vec2 mark, double len,
                    std::span<const std::uint32_t> which_covers, std::uint32_t* blocker = nullptr) const {
    double limit = kInf;
    std::uint32_t which = 0;
    const Vec2 ab = mark - eye;
    // No cover limit can bite a line this short, either way round.
    if (len <= std::min(rules->cover_range, rules->cover_edge_seen_range) + kGeomEpsilon) {
      return {true, SightBlock::kNone, 0};
    }
    for (std::uint32_t c : which_covers) {
      const Cover& cv = covers[c];
      if (!box_hits_segment(cv.box, eye, ab)) continue;
      const bool eye_in = cv.box.contains(eye) && inside_fast(*cv.poly, eye);
      const bool mark_in = cv.box.contains(mark) && inside_fast(*cv.poly, mark);
      if (!eye_in && !mark_in) {
        // Only intervening stretches: any one counts unless seen over.
        if (o.sig_high) {
          line_crossed = true;
          continue;
        }
        if (len > rules->cover_range + kGeomEpsilon && enters_interior(*cv.poly, eye, mark, len)) {
          line_crossed = true;
          limit = rules->cover_range;
          which = c;
          break;
        }
        continue;
      }
      for_each_stretch(*cv.poly, eye, mark, [&](double t0, double t1) {
        const double stretch = (t1 - t0) * len;
        if (stretch <= kGraze) return;
        line_crossed = true;
        const bool from_eye = t0 <= 0;
        const bool to_mark = t1 >= 1;
        const bool shallow = stretch <= rules->cover_edge_depth + kGeomEpsilon;
        double lim = rules->cover_range;
        if (from_eye && to_mark) {
          lim = rules->cover_range;  // both in the same cover
        } else if (from_eye) {
          if (o.edge && shallow) return;  // seeing out from the edge
        } else if (to_mark) {
          if (t.edge && shallow) {
            if (t.shot) return;  // shooting gives them away
            lim = rules->cover_edge_seen_range;
          }
        } else if (o.sig_high) {
          return;  // a significantly high hill sees over intervening cover
        }
        if (lim < limit) {
          limit = lim;
          which = c;
        }
      });
      if (len > limit + kGeomEpsilon) break;
    }
    if (len > limit + kGeomEpsilon) {
      if (blocker) *blocker = which;
      return {false, SightBlock::kCover, covers[which].index};
    }
    return {true, SightBlock::kNone, 0};
  }

  // Pairs the cover rules settle without drawing a line.
  bool cover_bound_apart(const Obj& o, const Obj& t) const {
    if (!o.cover_bound_observer && !t.cover_bound_target) return false;
    const double reach = std::max(rules->cover_range, rules->cover_edge_seen_range);
    return o.pts_box.distance_to(t.pts_box) > reach + kGeomEpsilon;
  }

  // Can observer oi see target ti: any sight line. Uses `pool` (the bodies
  // that may block this observer).
  SightResult pair(std::uint32_t oi, std::uint32_t ti) {
    pair_sym = false;
    terrain_proof = false;
    SightResult r = pair_unmemoized(oi, ti);
    if (terrain_proof && !terrain_hidden.empty()) {
      terrain_hidden.set(oi, ti);
      if (pair_sym) terrain_hidden.set(ti, oi);  // the same hill or cover, the same segments
    }
    if (pair_sym && !hidden_memo.empty()) {
      if (r.visible) {
        seen[oi] |= objs[ti].seats;  // the target sees the observer too
        witnesses.push_back({oi, ti, objs[ti].seats});
      } else {
        hidden_memo.set(ti, oi);
      }
    }
    return r;
  }

  SightResult pair_unmemoized(std::uint32_t oi, std::uint32_t ti) {
    const Obj& o = objs[oi];
    const Obj& t = objs[ti];
    if (oi == ti) return {true, SightBlock::kNone, 0};
    if (o.p0 == o.p1 || t.p0 == t.p1) return {false, SightBlock::kNoPoints, 0};
    if (cover_bound_apart(o, t)) {
      pair_sym = cover_symmetric(o, t);
      return {false, SightBlock::kCover, 0};
    }
    Aabb box = o.pts_box;
    box.add(t.pts_box);
    if (t.screen != UINT32_MAX && t.screen != oi && objs[t.screen].box.intersects(box) &&
        hides_whole(oi, ti, t.screen)) {
      pair_sym = blocks_outright_for(ti, t.screen);
      return hidden_by(t.screen);
    }
    // compute() skips the observer's recent screens: its terrain wedges and
    // spans settle those pairs for less than sixteen clipped lines each.
    for (std::uint32_t i = 0; i < (whole_pairs ? 0u : recent_n); ++i) {
      const std::uint32_t bi = recent[i];
      if (bi != ti && bi != oi && objs[bi].box.intersects(box) && hides_whole(oi, ti, bi)) {
        objs[ti].screen = bi;
        pair_sym = blocks_outright_for(ti, bi);
        return hidden_by(bi);
      }
    }
    if (whole_pairs && target_wedges_hide(oi, ti)) {
      terrain_proof = true;
      return {false, SightBlock::kHill, 0};
    }
    // compute(): before building either end's shadows, try the line
    // between the first points (the centres): most targets are seen by
    // the first observer that judges them, and so on that line. When it is
    // blocked, its verdict stands in for searching it again below.
    Cache probe;
    SightResult probed{true, SightBlock::kNone, 0};
    bool probed_sym = false;
    if (whole_pairs && !shadows_built[ti]) {
      probed = line(oi, points[o.p0], ti, points[t.p0], probe);
      if (probed.visible) {
        pair_sym = line_sym;
        return probed;
      }
      probed_sym = line_sym;
    }
    // Target points hidden from the whole observer by bodies around them.
    // compute(): an observer on higher ground sees over most of those
    // bodies; it builds the target's shadows only once searched lines have
    // found bodies near the target blocking such observers a few times.
    bool target_shadows = !whole_pairs || o.elevation <= 0 || shadows_built[ti];
    if (target_shadows) ensure_spans(ti);
    std::uint64_t done = 0;
    bool all_done = t.p1 - t.p0 <= 64;
    std::uint32_t named = UINT32_MAX;
    for (std::uint32_t m = t.p0; m < t.p1 && m - t.p0 < 64; ++m) {
      const std::uint32_t b = !target_shadows ? UINT32_MAX : whole_pairs ? span_hides_circle(oi, m) : span_hides(oi, m);
      if (b != UINT32_MAX) {
        done |= std::uint64_t{1} << (m - t.p0);
        named = b;
      } else {
        all_done = false;
      }
    }
    if (all_done) {
      // Spans hold bodies at least as high as the observer: symmetric only
      // if the target cannot see over them either.
      pair_sym = o.elevation == t.elevation;
      return hidden_by(named);
    }
    if (whole_pairs && terrain_hides(oi, ti)) {
      terrain_proof = true;
      return {false, SightBlock::kHill, 0};
    }
    Cache cache;
    if (whole_pairs) {
      // The bodies that last blocked a line to this target and from this
      // observer are tried before any search (body() decides each exactly).
      if (t.blocker != UINT32_MAX && t.blocker != oi && t.blocker != ti) cache.add_body(t.blocker);
      if (obs_blocker != UINT32_MAX && obs_blocker != oi && obs_blocker != ti) cache.add_body(obs_blocker);
    }
    gathered = false;
    const double cover_reach = std::max(rules->cover_range, rules->cover_edge_seen_range) + kGeomEpsilon;
    const double cover_reach2 = cover_reach * cover_reach;
    bool tried_whole = false;
    bool sym = true;        // every line so far is decided the same both ways
    const double range = range_of(o);
    // compute(): an observer's own shadows are built only once searched
    // lines have found bodies near its eye blocking it a few times (they
    // settle such lines at once, but cost more than a few searched lines).
    if (!whole_pairs) ensure_shadows(oi);
    bool eye_shadows = shadows_built[oi] != 0;
    SightResult last{false, SightBlock::kNoPoints, 0};
    for (std::uint32_t e = o.p0; e < o.p1; ++e) {
      for (std::uint32_t m = t.p0; m < t.p1; ++m) {
        if (m - t.p0 < 64 && ((done >> (m - t.p0)) & 1u)) {
          last = hidden_by(named);
          sym = sym && o.elevation == t.elevation;
          continue;
        }
        const double len2 = sq(points[m] - points[e]);
        if (len2 > range * range) {
          last = {false, SightBlock::kRange, 0};
          sym = sym && same_range(o, t);
          continue;
        }
        // An end inside a hill higher than both objects: the line enters it.
        if (std::max(pt_hill_top[e], pt_hill_top[m]) > std::max(o.elevation, t.elevation)) {
          last = {false, SightBlock::kHill, 0};
          continue;  // hills block both ways
        }
        // An end deep in cover (no edge exception applies): the cover ranges bound the line.
        if (len2 > cover_reach2 && ((pt_in_cover[m] && !(t.edge && t.shot)) || (pt_in_cover[e] && !o.edge))) {
          last = {false, SightBlock::kCover, 0};
          sym = sym && cover_symmetric(o, t);
          continue;
        }
        {
          // Near one end or the other, a neighbour's shadow settles most lines.
          // compute() looks the target's end up in its merged spans (one
          // angle) rather than in each shadow.
          const bool by_span = whole_pairs && o.elevation <= 0;
          if (by_span) {
            if (const std::uint32_t sb = span_at(m, points[e] - points[m], oi); sb != UINT32_MAX) {
              last = hidden_by(sb);
              sym = sym && o.elevation == t.elevation;  // as for a whole target point
              continue;
            }
          }
          std::uint32_t b = by_span || !target_shadows ? UINT32_MAX : shadowed(m, points[e] - points[m], oi, oi, ti, false);
          if (b == UINT32_MAX && eye_shadows) b = shadowed(e, points[m] - points[e], oi, oi, ti, true);
          if (b != UINT32_MAX) {
            if (objs[b].block == BlockClass::kUnformed) {
              last = {false, SightBlock::kUnformed, objs[b].id};
              sym = false;
            } else {
              last = hidden_by(b);
              sym = sym && blocks_outright_for(ti, b);
            }
            continue;
          }
        }
        if (!probed.visible && e == o.p0 && m == t.p0) {
          last = probed;
          sym = sym && probed_sym;
          cache.kind = probe.kind;
          cache.index = probe.index;
          if (probe.kind == Cache::kBody) cache.add_body(probe.index);
        } else {
          last = line(oi, points[e], ti, points[m], cache);
          if (last.visible) {
            pair_sym = line_sym;
            return last;
          }
          sym = sym && line_sym;
        }
        if (!eye_shadows && cache.kind == Cache::kBody) {
          const double reach = 3 * max_prad + objs[cache.index].rad + o.prad;
          if (sq(objs[cache.index].cen - o.pcen) <= reach * reach && ++near_blocks[oi] >= kEyeShadowsAfter) {
            ensure_shadows(oi);
            eye_shadows = true;
          }
        }
        if (!target_shadows && cache.kind == Cache::kBody) {
          const double reach = 3 * max_prad + objs[cache.index].rad + t.prad;
          if (sq(objs[cache.index].cen - t.pcen) <= reach * reach && ++near_blocks_target[ti] >= kTargetShadowsAfter) {
            ensure_spans(ti);
            target_shadows = true;
          }
        }
        if (!tried_whole && cache.kind == Cache::kBody) {
          tried_whole = true;
          if (hides_whole(oi, ti, cache.index)) {
            remember(cache.index);
            objs[ti].screen = cache.index;
            pair_sym = blocks_outright_for(ti, cache.index);
            return hidden_by(cache.index);
          }
        }
      }
    }
    if (cache.kind == Cache::kBody) {
      remember(cache.index);
      objs[ti].blocker = cache.index;
      obs_blocker = cache.index;
    }
    pair_sym = sym;
    return last;
  }

  void all_pool(std::vector<std::uint32_t>& out) const {
    out.clear();
    for (std::uint32_t i = 0; i < objs.size(); ++i) {
      if (objs[i].block != BlockClass::kNone) out.push_back(i);
    }
  }

  // Per seat mask of the observers judged so far: the objects some of those
  // seats do not yet see, in scene order. Sightings only grow, so each list
  // is pruned rather than rebuilt from the whole scene for every observer.
  std::vector<std::pair<SeatMask, std::vector<std::uint32_t>>> unseen_lists;
  std::size_t unseen_used = 0;

  std::vector<std::uint32_t>& unseen_by(SeatMask seats) {
    for (std::size_t i = 0; i < unseen_used; ++i) {
      auto& [mask, list] = unseen_lists[i];
      if (mask != seats) continue;
      std::erase_if(list, [&](std::uint32_t j) { return (seen[j] & seats) == seats; });
      return list;
    }
    if (unseen_used == unseen_lists.size()) unseen_lists.emplace_back();
    auto& [mask, list] = unseen_lists[unseen_used++];
    mask = seats;
    list.clear();
    for (std::uint32_t j = 0; j < objs.size(); ++j) {
      if ((seen[j] & seats) != seats) list.push_back(j);
    }
    return list;
  }

  // ---- From the last table (compute_from) ----
  //
  // A pair's verdict depends on its two objects, the terrain and the bodies
  // its sight lines cross, and a line is blocked when any one of those
  // bodies blocks it by itself. So, for a pair whose ends are unchanged, a
  // body that comes can only hide more and a body that goes can only show
  // more: a witness still sees its target when no changed blocker's new
  // place can reach its lines, and a pair that did not see still does not
  // when no changed blocker's old place could (pair_dirty on the new boxes,
  // or on the old; VISIBILITY.md, "From the last table").
  std::vector<SightRecord::Witness> witnesses;  // this compute's proofs
  bool incremental = false;
  std::vector<std::uint8_t> changed;  // per object: new, or not equal to its last self
  std::vector<SeatMask> rejudge;      // per object: seats whose last witnesses no longer hold
  std::vector<Aabb> dirty;            // the boxes of changed blockers: new ones, then old ones from old_from
  std::size_t old_from = 0;
  std::vector<std::uint32_t> now_index;  // per last object: its index now, or kNewObject (gone or changed)
  // Above these, a whole compute costs less than sorting out the changes.
  static constexpr std::size_t kMaxDirty = 48;

  // Whether a changed blocker may cross one of the pair's sight lines. Every
  // sight point lies within prad of its object's pcen, so every sight line
  // lies within max(prad) of the segment between the two pcens, and a
  // blocker lies within its box's half-diagonal of the box's centre.
  // dirty[from, to) are the boxes asked about.
  bool pair_dirty(std::uint32_t oi, std::uint32_t ti, std::size_t from, std::size_t to) const {
    const Obj& o = objs[oi];
    const Obj& t = objs[ti];
    Aabb u = o.pts_box;
    u.add(t.pts_box);
    const Vec2 a = o.pcen;
    const Vec2 d = t.pcen - a;
    const double dd = dot(d, d);
    const double r = std::max(o.prad, t.prad) + 1e-9;
    for (std::size_t k = from; k < to; ++k) {
      if (!dirty[k].intersects(u)) continue;
      const Vec2 c = dirty_cen[k];
      const double s = dd > 0 ? std::clamp(dot(c - a, d) / dd, 0.0, 1.0) : 0.0;
      const double reach = r + dirty_rad[k];
      if (sq(c - (a + d * s)) <= reach * reach) return true;
    }
    return false;
  }
  std::vector<Vec2> dirty_cen;     // per dirty box: its centre
  std::vector<double> dirty_rad;   // and half-diagonal

  // The pair must be judged afresh (compute_from).
  bool must_judge(std::uint32_t oi, std::uint32_t ti) const {
    return changed[oi] != 0 || changed[ti] != 0 || (objs[oi].seats & rejudge[ti]) != 0 ||
           pair_dirty(oi, ti, old_from, dirty.size());
  }

  // Sorts out what changed since `last` and takes the seats its witnesses
  // still prove; false when a whole compute is the better course.
  bool begin_from(const Scene& scene, const SightRecord& last, std::span<const std::uint32_t> last_index) {
    const auto n = static_cast<std::uint32_t>(objs.size());
    const auto m = static_cast<std::uint32_t>(last.scene.objects.size());
    if (last_index.size() != n || last.blocks.size() != m) return false;
    changed.assign(n, 0);
    rejudge.assign(n, 0);
    dirty.clear();
    now_index.assign(m, kNewObject);
    std::size_t n_changed = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
      const std::uint32_t j = last_index[i];
      if (j < m && now_index[j] == kNewObject && scene.objects[i] == last.scene.objects[j]) {
        now_index[j] = i;
        continue;
      }
      changed[i] = 1;
      rejudge[i] = ~SeatMask{0};
      ++n_changed;
      if (objs[i].block != BlockClass::kNone) dirty.push_back(objs[i].box);
    }
    old_from = dirty.size();
    for (std::uint32_t j = 0; j < m; ++j) {
      if (now_index[j] == kNewObject && !last.blocks[j].empty()) dirty.push_back(last.blocks[j]);
    }
    if (dirty.size() > kMaxDirty || 3 * n_changed > n) return false;
    dirty_cen.clear();
    dirty_rad.clear();
    for (const Aabb& b : dirty) {
      dirty_cen.push_back((b.min + b.max) * 0.5);
      dirty_rad.push_back(half_diagonal(b) + 1e-9);
    }
    for (const auto& w : last.witnesses) {
      if (w.target >= m || w.observer >= m) return false;
      const std::uint32_t t = now_index[w.target];
      if (t == kNewObject) continue;  // judged afresh
      const std::uint32_t o = now_index[w.observer];
      if (o != kNewObject && !pair_dirty(o, t, 0, old_from)) {
        seen[t] |= w.seats;
        witnesses.push_back({t, o, w.seats});
      } else {
        rejudge[t] |= w.seats;
      }
    }
    // The terrain still hides what it hid from an unchanged observer, from
    // an unchanged target.
    const std::size_t last_stride = (m + 63) / 64;
    if (last.terrain_hidden.size() == m * last_stride) {
      for (std::uint32_t j = 0; j < m; ++j) {
        const std::uint32_t a = now_index[j];
        if (a == kNewObject) continue;
        for (std::size_t w = 0; w < last_stride; ++w) {
          for (std::uint64_t bits = last.terrain_hidden[j * last_stride + w]; bits != 0; bits &= bits - 1) {
            const auto k = static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
            if (k < m && now_index[k] != kNewObject) terrain_hidden.set(a, now_index[k]);
          }
        }
      }
    }
    return true;
  }

  void fill(const Scene& scene, SightRecord& record) const {
    record.scene = scene;
    record.blocks.assign(objs.size(), Aabb{});
    for (std::size_t i = 0; i < objs.size(); ++i) {
      if (objs[i].block != BlockClass::kNone) record.blocks[i] = objs[i].box;
    }
    record.witnesses = witnesses;
    record.terrain_hidden = terrain_hidden.words;
    record.prepared = prepared_token;
  }

  // After prepare(): judge pairs with every shortcut that keeps the verdict
  // (compute() and SightQueries; not can_see, which names the blocker of
  // its last line).
  void judge_verdicts_only() {
    use_grid = true;
    whole_pairs = true;
    build_grid();
    target_wedges.resize(objs.size());
    for (auto& tw : target_wedges) tw[0].piece = tw[1].piece = UINT32_MAX;
  }

  // Before the pairs of a new observer (judge_verdicts_only).
  void begin_observer(std::uint32_t oi) {
    recent_n = 0;
    obs_blocker = UINT32_MAX;
    gather_screens(oi);
  }

  const std::vector<SeatMask>& compute(const Scene* scene = nullptr, const SightRecord* last = nullptr,
                                       std::span<const std::uint32_t> last_index = {}) {
    const std::uint32_t n = static_cast<std::uint32_t>(objs.size());
    unseen_used = 0;
    judge_verdicts_only();
    hidden_memo.reset(n);
    auto start_afresh = [&] {
      seen.resize(n);
      for (std::uint32_t i = 0; i < n; ++i) seen[i] = objs[i].seats;
      witnesses.clear();
      terrain_hidden.reset(n);
    };
    start_afresh();
    incremental = scene != nullptr && last != nullptr && begin_from(*scene, *last, last_index);
    // begin_from may have taken some witnesses before giving up.
    if (!incremental && last != nullptr) start_afresh();
    // Observers on higher ground first: they see furthest and over bodies,
    // so the targets they settle are not judged again by the seats they
    // serve. Any order gives the same masks.
    order.clear();
    for (std::uint32_t i = 0; i < n; ++i) {
      if (objs[i].seats != 0 && objs[i].p0 != objs[i].p1) order.push_back(i);
    }
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
      // Higher first; at one height, those on significantly high hills
      // (they see over woods, towns and smoke too).
      if (objs[a].elevation != objs[b].elevation) return objs[a].elevation > objs[b].elevation;
      return objs[a].sig_high && !objs[b].sig_high;
    });
    for (std::uint32_t oi : order) {
      const Obj& o = objs[oi];
      const double range2 = range_of(o) * range_of(o);
      // Everything that could be seen or could block lies within range of
      // the observer's sight points (a blocker sits on a sight line).
      near_objs.clear();
      std::vector<std::uint32_t>& unseen = unseen_by(o.seats);
      for (std::uint32_t j : unseen) {
        if (j == oi) continue;
        const Obj& c = objs[j];
        if (box_distance2(c.pts_box, o.pts_box) <= range2 && !cover_bound_apart(o, c) &&
            !hidden_memo.get(oi, j) && !terrain_hidden.get(oi, j) && (!incremental || must_judge(oi, j))) {
          near_objs.push_back(j);
        }
      }
      if (near_objs.empty()) continue;
      begin_observer(oi);
      for (std::uint32_t ti : near_objs) {
        if (pair(oi, ti).visible) {
          seen[ti] |= o.seats;
          witnesses.push_back({ti, oi, o.seats});
        }
      }
    }
    return seen;
  }
};

}  // namespace

struct VisibilityEngine::Impl : Prepared {};

struct SightQueries::Impl : Prepared {
  VisibilityRules own_rules;  // Prepared keeps a pointer to the rules
  std::uint32_t observer = UINT32_MAX;  // whose pairs were judged last
};

// Only verdicts are asked for, so the pairs are judged as compute() judges
// them (the grid walk and the whole-pair shortcuts), not as can_see does.
SightQueries::SightQueries(const Scene& scene, const TerrainMap& terrain, const VisibilityRules& rules)
    : impl_(std::make_unique<Impl>()) {
  impl_->own_rules = rules;
  impl_->prepare(scene, terrain, impl_->own_rules);
  impl_->judge_verdicts_only();
}

SightQueries::~SightQueries() = default;

bool SightQueries::sees(std::size_t observer, std::size_t target) {
  if (observer == target) return true;
  const auto oi = static_cast<std::uint32_t>(observer);
  if (impl_->observer != oi) {
    impl_->observer = oi;
    impl_->begin_observer(oi);
  }
  return impl_->pair(oi, static_cast<std::uint32_t>(target)).visible;
}

VisibilityEngine::VisibilityEngine() : impl_(std::make_unique<Impl>()) {}
VisibilityEngine::~VisibilityEngine() = default;
VisibilityEngine::VisibilityEngine(VisibilityEngine&&) noexcept = default;
VisibilityEngine& VisibilityEngine::operator=(VisibilityEngine&&) noexcept = default;

const std::vector<SeatMask>& VisibilityEngine::compute(const Scene& scene, const TerrainMap& terrain,
                                                       const VisibilityRules& rules, SightRecord* record) {
  impl_->prepare(scene, terrain, rules);
  const auto& seen = impl_->compute();
  if (record != nullptr) impl_->fill(scene, *record);
  return seen;
}

const std::vector<SeatMask>& VisibilityEngine::compute_from(const SightRecord& last,
                                                            std::span<const std::uint32_t> last_index,
                                                            const Scene& scene, const TerrainMap& terrain,
                                                            const VisibilityRules& rules, SightRecord* record) {
  impl_->prepare(scene, terrain, rules, &last, last_index);
  const auto& seen = impl_->compute(&scene, &last, last_index);
  if (record != nullptr) impl_->fill(scene, *record);
  return seen;
}

bool VisibilityEngine::started_from_last() const { return impl_->incremental; }

std::vector<SeatMask> compute_visibility(const Scene& scene, const TerrainMap& terrain, const VisibilityRules& rules) {
  VisibilityEngine e;
  return e.compute(scene, terrain, rules);
}

std::vector<std::uint32_t> visible_to(const Scene& scene, const TerrainMap& terrain, const VisibilityRules& rules,
                                      SeatMask seats) {
  const auto masks = compute_visibility(scene, terrain, rules);
  std::vector<std::uint32_t> out;
  for (std::size_t i = 0; i < masks.size(); ++i) {
    if (masks[i] & seats) out.push_back(scene.objects[i].id);
  }
  return out;
}

SightResult line_of_sight(const Scene& scene, const TerrainMap& terrain, const VisibilityRules& rules,
                          std::size_t observer, Vec2 eye, std::size_t target, Vec2 mark) {
  Prepared impl;
  impl.prepare(scene, terrain, rules);
  std::vector<std::uint32_t> pool;
  impl.all_pool(pool);
  const auto oi = static_cast<std::uint32_t>(observer);
  const auto ti = static_cast<std::uint32_t>(target);
  // A single line: widen the pair box to the line itself.
  impl.objs[oi].pts_box.add(eye);
  impl.objs[ti].pts_box.add(mark);
  impl.gather_pair(oi, ti, pool);
  Prepared::Cache cache;  // a single line: no shortcuts
  return impl.line(oi, eye, ti, mark, cache);
}

SightResult can_see(const Scene& scene, const TerrainMap& terrain, const VisibilityRules& rules,
                    std::size_t observer, std::size_t target) {
  if (observer == target) return {true, SightBlock::kNone, 0};
  Prepared impl;
  impl.prepare(scene, terrain, rules);
  impl.all_pool(impl.pool);
  return impl.pair(static_cast<std::uint32_t>(observer), static_cast<std::uint32_t>(target));
}

}  // namespace galloper::rules
