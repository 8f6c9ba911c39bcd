// The optimised engine against a frozen copy of the engine it replaced.
//
// `reference` below is the line-of-sight code as it stood before the
// performance work (commit 1eecf64), kept verbatim apart from its namespace
// and entry points. The optimised VisibilityEngine must give exactly the same
// seat masks for every scene, and can_see / line_of_sight exactly the same
// SightResult (verdict, reason and blocker), for random scenes of moderate
// size and for the big battle of tests/bench/bench_visibility.cpp, with
// side-shared and wing-only vision. Slow on purpose; deterministic seeds.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "rules/core/visibility.hpp"

// ---------------------------------------------------------------------------
// The reference: rules/core/visibility.cpp as of 1eecf64.
// ---------------------------------------------------------------------------
namespace galloper::rules::reference {
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
  return {env.center, env.to_world({-sx, sy}), env.to_world({sx, sy}), env.to_world({sx, -sy}),
          env.to_world({-sx, -sy})};
}

}  // namespace

std::vector<Vec2> ref_default_sight_points(std::span<const OrientedRect> bases) {
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

struct Prepared {
  struct Obj {
    Vec2 cen;          // centre of `box`
    double rad = 0;    // half-diagonal of `box`
    Vec2 pcen;         // centre of `pts_box`
    double prad = 0;   // half-diagonal of `pts_box`
    std::uint32_t screen = UINT32_MAX;  // the last body that hid it whole
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

  const VisibilityRules* rules = nullptr;
  std::vector<Obj> objs;
  std::vector<Quad> quads;
  std::vector<Vec2> points;
  // Per sight point: strictly inside a wood or town; the highest hill it is
  // strictly inside (0 if none). Any sight line from or to such a point has a
  // stretch of that cover or enters that hill.
  std::vector<std::uint8_t> pt_in_cover;
  std::vector<double> pt_hill_top;
  std::vector<Cover> covers;
  std::vector<HillB> hills;
  std::vector<SeatMask> seen;

  // Scratch.
  std::vector<std::uint32_t> near_objs;    // targets around the current observer
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
  std::vector<Shadow> shadows;
  std::vector<std::uint32_t> shadow_start;  // per sight point, into shadows (+1 sentinel)

  void build_shadows() {
    shadows.clear();
    shadow_start.assign(points.size() + 1, 0);
    std::vector<std::pair<double, std::uint32_t>> nearest;
    const double reach = 3 * max_prad;
    for (std::uint32_t oi = 0; oi < objs.size(); ++oi) {
      const Obj& o = objs[oi];
      nearest.clear();
      for (std::uint32_t b = 0; b < objs.size(); ++b) {
        const Obj& ob = objs[b];
        if (b == oi || ob.block == BlockClass::kNone) continue;
        if (ob.block != BlockClass::kUnformed && ob.q1 - ob.q0 != 1) continue;
        const double lim = reach + ob.rad + o.prad;
        const double d2 = sq(ob.cen - o.pcen);
        if (d2 <= lim * lim) nearest.push_back({d2, b});
      }
      std::sort(nearest.begin(), nearest.end());
      if (nearest.size() > kShadowsPerPoint) nearest.resize(kShadowsPerPoint);
      for (std::uint32_t pi = o.p0; pi < o.p1; ++pi) {
        shadow_start[pi] = static_cast<std::uint32_t>(shadows.size());
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
            std::array<Vec2, 4> v;
            double far2 = 0;
            bool outside = false;
            for (std::size_t k = 0; k < 4; ++k) {
              v[k] = q.c[k] - p;
              far2 = std::max(far2, dot(v[k], v[k]));
              if (q.d[k] - dot(q.n[k], p) < 0) outside = true;
            }
            if (!outside) continue;  // p on or in the body: no wedge
            if (unformed) {
              const double need = std::sqrt(unformed_far2) + rules->unformed_see_beyond + kGeomEpsilon;
              far2 = need * need;
            }
            // Tangent corners: every other corner on one side of them.
            int right = -1, left = -1;
            for (int k = 0; k < 4; ++k) {
              bool all_left = true, all_right = true;
              for (int j = 0; j < 4; ++j) {
                if (j == k) continue;
                const double c = cross(v[static_cast<std::size_t>(k)], v[static_cast<std::size_t>(j)]);
                if (c < 0) all_left = false;
                if (c > 0) all_right = false;
              }
              if (all_left && right < 0) right = k;
              if (all_right && left < 0) left = k;
            }
            if (right < 0 || left < 0 || right == left) continue;
            shadows.push_back(
                {v[static_cast<std::size_t>(right)], v[static_cast<std::size_t>(left)], far2, nb.second, unformed});
          }
        }
      }
    }
    for (std::uint32_t pi = 0; pi < points.size(); ++pi) {
      if (shadow_start[pi] > shadows.size()) shadow_start[pi] = static_cast<std::uint32_t>(shadows.size());
    }
    shadow_start[points.size()] = static_cast<std::uint32_t>(shadows.size());
    build_spans();
    // Points are numbered object by object, so each point's run ends where the next begins.
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
  std::vector<std::uint32_t> span_start;  // per sight point (+1 sentinel)

  void build_spans() {
    spans.clear();
    span_start.assign(points.size() + 1, 0);
    std::vector<Span> raw;
    for (std::uint32_t pi = 0; pi < points.size(); ++pi) {
      span_start[pi] = static_cast<std::uint32_t>(spans.size());
      raw.clear();
      for (std::uint32_t k = shadow_start[pi]; k < shadow_start[pi + 1]; ++k) {
        const Shadow& sh = shadows[k];
        if (sh.unformed) continue;
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
        if (spans.size() > span_start[pi] && sp.lo < spans.back().hi) {
          Span& cur = spans.back();
          cur.hi = std::max(cur.hi, sp.hi);
          cur.far2 = std::max(cur.far2, sp.far2);
          cur.min_elev = std::min(cur.min_elev, sp.min_elev);
        } else {
          spans.push_back(sp);
        }
      }
    }
    span_start[points.size()] = static_cast<std::uint32_t>(spans.size());
  }

  // Every sight line from the observer's points to target point m is blocked
  // by outright blockers near m.
  // Returns the naming body, or UINT32_MAX.
  std::uint32_t span_hides(std::uint32_t oi, std::uint32_t m) const {
    if (span_start[m] == span_start[m + 1]) return UINT32_MAX;
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
    for (std::uint32_t k = span_start[m]; k < span_start[m + 1]; ++k) {
      const Span& sp = spans[k];
      if (sp.lo < amin && amax < sp.hi) {
        return d2min > sp.far2 && o.elevation <= sp.min_elev ? sp.body : UINT32_MAX;
      }
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
    for (std::uint32_t k = shadow_start[pi]; k < shadow_start[pi + 1]; ++k) {
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
  // hidden_memo bit (a, b): a cannot see b, learnt from b failing to see a
  // when everything that decided it works the same both ways.
  std::vector<std::uint64_t> hidden_memo;
  std::size_t memo_stride = 0;
  bool memo_get(std::uint32_t a, std::uint32_t b) const {
    return (hidden_memo[a * memo_stride + b / 64] >> (b % 64)) & 1u;
  }
  void memo_set(std::uint32_t a, std::uint32_t b) { hidden_memo[a * memo_stride + b / 64] |= std::uint64_t{1} << (b % 64); }
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
                      footprint_distance(x, b) >= rules->see_over_min_distance - kGeomEpsilon;
    if (b.block == BlockClass::kBody) return !over;
    if (b.block == BlockClass::kSmoke) return !(over && x.sig_high);
    return false;
  }

  void prepare(const Scene& scene, const TerrainMap& terrain, const VisibilityRules& r) {
    rules = &r;
    objs.clear();
    quads.clear();
    points.clear();
    covers.clear();
    hills.clear();
    const auto& areas = terrain.areas();
    for (std::uint32_t i = 0; i < areas.size(); ++i) {
      if (!areas[i].blocks_sight()) continue;
      const Aabb b = areas[i].outline.bounds();
      covers.push_back({&areas[i].outline, b, (b.min + b.max) * 0.5, half_diagonal(b), i});
    }
    const auto& hs = terrain.hills();
    for (std::uint32_t i = 0; i < hs.size(); ++i) {
      const Aabb b = hs[i].outline.bounds();
      hills.push_back({&hs[i].outline, b, (b.min + b.max) * 0.5, half_diagonal(b), hs[i].elevation, i});
    }
    for (const auto& o : scene.objects) {
      Obj ob;
      ob.block = block_class(o);
      ob.q0 = static_cast<std::uint32_t>(quads.size());
      // One envelope per object: whether its bases make one body, its sight points.
      const OrientedRect env = o.bases.empty() ? OrientedRect{} : envelope(o.bases, o.bases[0].facing_deg);
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
      }
      bool all_in_cover = ob.p1 > ob.p0;
      pt_in_cover.resize(points.size());
      pt_hill_top.resize(points.size());
      for (std::uint32_t i = ob.p0; i < ob.p1; ++i) {
        ob.pts_box.add(points[i]);
        pt_in_cover[i] = in_cover(points[i]) ? 1 : 0;
        if (!pt_in_cover[i]) all_in_cover = false;
        double top = 0;
        for (const auto& h : hills) {
          if (h.elevation > top && h.box.contains(points[i]) && strictly_inside(*h.poly, points[i])) top = h.elevation;
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
    max_prad = 0;
    for (const auto& ob : objs) max_prad = std::max(max_prad, ob.prad);
    fan_for = UINT32_MAX;
    build_shadows();
  }

  bool in_cover(Vec2 p) const {
    for (const auto& c : covers) {
      if (c.box.contains(p) && strictly_inside(*c.poly, p)) return true;
    }
    return false;
  }
  // Inside and not on the outline (within rounding).
  static bool strictly_inside(const Polygon& poly, Vec2 p) {
    if (!inside_fast(poly, p)) return false;
    for (std::size_t i = 0; i < poly.edge_count(); ++i) {
      if (distance(poly.edge(i), p) <= 1e-9) return false;
    }
    return true;
  }

  double range_of(const Obj& o) const { return o.elevation > 0 ? rules->elevated_range : rules->open_range; }

  // Edge-to-edge distance between two objects' footprints.
  double footprint_distance(const Obj& a, const Obj& b) const {
    const double boxes = a.box.distance_to(b.box);
    if (boxes >= rules->see_over_min_distance) return boxes;  // a lower bound already far enough
    double best = kInf;
    for (std::uint32_t i = a.q0; i < a.q1; ++i) {
      for (std::uint32_t j = b.q0; j < b.q1; ++j) best = std::min(best, quad_distance(quads[i], quads[j]));
    }
    return best;
  }

  static bool quad_contains(const Quad& q, Vec2 p) {
    for (std::size_t k = 0; k < 4; ++k) {
      if (dot(q.n[k], p) > q.d[k] + kGeomEpsilon) return false;
    }
    return true;
  }
  // Edge-to-edge distance of two convex quads (0 when they meet).
  static double quad_distance(const Quad& a, const Quad& b) {
    if (quad_contains(a, b.c[0]) || quad_contains(b, a.c[0])) return 0;
    double best = kInf;
    for (std::size_t i = 0; i < 4; ++i) {
      const Segment ea{a.c[i], a.c[(i + 1) % 4]};
      for (std::size_t j = 0; j < 4; ++j) best = std::min(best, distance(ea, Segment{b.c[j], b.c[(j + 1) % 4]}));
    }
    return best;
  }

  // Gathers the candidate blockers of one observer/target pair.
  //
  // Every sight line lies within r = max(ro, rt) of the segment joining the
  // centres of the two point boxes (ro, rt: their half-diagonals), so a
  // blocker whose bounding circle misses that capsule cannot be on one. The
  // observer's fan (below) narrows the blockers to test to one angular bin.
  void gather_pair(std::uint32_t oi, std::uint32_t ti, const std::vector<std::uint32_t>& bodies_pool) const {
    gathered = true;
    const Obj& o = objs[oi];
    const Obj& t = objs[ti];
    const Vec2 a = o.pcen;
    const Vec2 d = t.pcen - a;
    const double dd = dot(d, d);
    const double inv = dd > 0 ? 1 / dd : 0;
    const double r = std::max(o.prad, t.prad);
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
    if (lazy_fans && fan_for != oi) build_fan(oi);
    if (fan_for == oi) {
      for (std::uint32_t item : fan_near) consider(item);
      if (dd > 0) {
        for (std::uint32_t item : fan_bins[bin_of(fast_atan2(d.y, d.x))]) consider(item);
      } else {
        for (const auto& bin : fan_bins) {
          for (std::uint32_t item : bin) consider(item);
        }
      }
      // Scene order, so the blocker reported does not depend on the bins.
      std::sort(pair_bodies.begin(), pair_bodies.end());
      std::sort(pair_covers.begin(), pair_covers.end());
      std::sort(pair_hills.begin(), pair_hills.end());
      pair_bodies.erase(std::unique(pair_bodies.begin(), pair_bodies.end()), pair_bodies.end());
      pair_covers.erase(std::unique(pair_covers.begin(), pair_covers.end()), pair_covers.end());
      pair_hills.erase(std::unique(pair_hills.begin(), pair_hills.end()), pair_hills.end());
      return;
    }
    for (std::uint32_t b : bodies_pool) consider(kItemBody << 30 | b);
    for (std::uint32_t c = 0; c < covers.size(); ++c) consider(kItemCover << 30 | c);
    for (std::uint32_t h = 0; h < hills.size(); ++h) consider(kItemHill << 30 | h);
  }

  // ---- The observer's fan ----
  //
  // Blockers around one observer sorted into kBins angular bins (as seen from
  // the centre c of its sight points), each widened so that a pair's capsule
  // toward any target direction meets only blockers in that direction's bin
  // or in fan_near. A point of a capsule of radius R <= max_prad at distance
  // D' > R from c lies within asin(R/D') of the target's direction; a blocker
  // circle (centre at distance D, radius rad) reaches within asin(rad/D) of
  // its centre's direction. asin(x) <= x / sqrt(1 - x^2), and the approximate atan2
  // errs by under 0.004 rad, covered by kFanMargin.
  static constexpr std::uint32_t kItemBody = 0, kItemCover = 1, kItemHill = 2;
  static constexpr std::uint32_t kItemIndex = (1u << 30) - 1;
  static constexpr int kBins = 64;
  static constexpr double kFanMargin = 0.01;
  mutable std::uint32_t fan_for = UINT32_MAX;
  bool lazy_fans = false;  // compute(): build an observer's fan when first needed
  mutable std::vector<std::uint32_t> fan_near;
  mutable std::array<std::vector<std::uint32_t>, kBins> fan_bins;
  double max_prad = 0;

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
  static int bin_of(double ang) {
    const int b = static_cast<int>(std::floor((ang + kPi) * (kBins / (2 * kPi))));
    return ((b % kBins) + kBins) % kBins;
  }

  void build_fan(std::uint32_t oi) const {
    fan_for = oi;
    fan_near.clear();
    for (auto& bin : fan_bins) bin.clear();
    const Vec2 c = objs[oi].pcen;
    const double big_r = max_prad;
    auto place = [&](std::uint32_t item, Vec2 centre, double rad) {
      const Vec2 v = centre - c;
      const double dist = length(v);
      if (dist <= big_r + rad + kFanMargin) {
        fan_near.push_back(item);
        return;
      }
      // asin(x) <= x / sqrt(1 - x^2) for 0 <= x < 1.
      auto asin_bound = [](double x) { return x >= 1 ? kPi : x / std::sqrt(1 - x * x); };
      const double w = asin_bound(big_r / (dist - rad)) + asin_bound(rad / dist) + kFanMargin;
      if (w >= kPi) {
        fan_near.push_back(item);
        return;
      }
      const double ang = fast_atan2(v.y, v.x);
      const int b0 = static_cast<int>(std::floor((ang - w + kPi) * (kBins / (2 * kPi))));
      const int b1 = static_cast<int>(std::floor((ang + w + kPi) * (kBins / (2 * kPi))));
      for (int b = b0; b <= b1; ++b) fan_bins[static_cast<std::size_t>(((b % kBins) + kBins) % kBins)].push_back(item);
    };
    for (std::uint32_t b : pool) {
      if (b != oi) place(kItemBody << 30 | b, objs[b].cen, objs[b].rad);
    }
    for (std::uint32_t k = 0; k < covers.size(); ++k) place(kItemCover << 30 | k, covers[k].cen, covers[k].rad);
    for (std::uint32_t k = 0; k < hills.size(); ++k) place(kItemHill << 30 | k, hills[k].cen, hills[k].rad);
  }

  static double half_diagonal(const Aabb& b) { return length(b.max - b.min) * 0.5; }
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
    if (!gathered) gather_pair(oi, ti, pool);
    switch (cache.kind) {
      case Cache::kBody:
        break;
      case Cache::kHill:
        if (hill_blocks(cache.index, eye, mark, ab, len)) return {false, SightBlock::kHill, hills[cache.index].index};
        break;
      case Cache::kCover: {
        const std::uint32_t one[1] = {cache.index};
        if (SightResult r = cover(o, eye, t, mark, len, one); !r.visible) return r;
        break;
      }
      case Cache::kNone: break;
    }
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

  SightResult body(std::uint32_t oi, Vec2 eye, Vec2 ab, double len, std::uint32_t bi) const {
    const Obj& b = objs[bi];
    if (b.block == BlockClass::kNone) return {true, SightBlock::kNone, 0};
    {
      // Bounding-circle rejection without a division: off the line, or
      // before the eye, or past the mark.
      const Vec2 w = b.cen - eye;
      const double cr = cross(ab, w);
      const double rl = b.rad * len;
      if (cr * cr > rl * rl) return {true, SightBlock::kNone, 0};
      const double along = dot(w, ab);
      if (along < -rl || along > len * len + rl) return {true, SightBlock::kNone, 0};
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
    const Obj& o = objs[oi];
    const bool elevated_over = o.elevation > 0 && sees_over(oi, bi);
    switch (b.block) {
      case BlockClass::kBody:
        if (elevated_over) return {true, SightBlock::kNone, 0};
        return {false, SightBlock::kBody, b.id};
      case BlockClass::kUnformed:
        if (elevated_over) return {true, SightBlock::kNone, 0};
        if ((1 - last) * len <= rules->unformed_see_beyond + kGeomEpsilon) return {true, SightBlock::kNone, 0};
        return {false, SightBlock::kUnformed, b.id};
      case BlockClass::kSmoke:
        if (elevated_over && o.sig_high) return {true, SightBlock::kNone, 0};
        return {false, SightBlock::kSmoke, b.id};
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
      over[bi] = footprint_distance(o, b) >= rules->see_over_min_distance - kGeomEpsilon ? 1 : 0;
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
    // The argument needs each object's points outside the other's hull.
    if (o.pts_box.intersects(t.pts_box)) return false;
    if (!blocks_outright(oi, bi)) return false;
    for (std::uint32_t e = o.hull0; e < o.hull0 + 4; ++e) {
      for (std::uint32_t m = t.hull0; m < t.hull0 + 4; ++m) {
        if (!crosses(bi, points[e], points[m])) return false;
      }
    }
    return true;
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
    SightResult r = pair_unmemoized(oi, ti);
    if (pair_sym && !hidden_memo.empty()) {
      if (r.visible) seen[oi] |= objs[ti].seats;  // the target sees the observer too
      else memo_set(ti, oi);
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
    for (std::uint32_t i = 0; i < recent_n; ++i) {
      const std::uint32_t bi = recent[i];
      if (bi != ti && bi != oi && objs[bi].box.intersects(box) && hides_whole(oi, ti, bi)) {
        objs[ti].screen = bi;
        pair_sym = blocks_outright_for(ti, bi);
        return hidden_by(bi);
      }
    }
    // Target points hidden from the whole observer by bodies around them.
    std::uint64_t done = 0;
    bool all_done = t.p1 - t.p0 <= 64;
    std::uint32_t named = UINT32_MAX;
    for (std::uint32_t m = t.p0; m < t.p1 && m - t.p0 < 64; ++m) {
      const std::uint32_t b = span_hides(oi, m);
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
    Cache cache;
    gathered = false;
    const double cover_reach = std::max(rules->cover_range, rules->cover_edge_seen_range) + kGeomEpsilon;
    const double cover_reach2 = cover_reach * cover_reach;
    bool tried_whole = false;
    bool sym = true;        // every line so far is decided the same both ways
    const double range = range_of(o);
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
          std::uint32_t b = shadowed(m, points[e] - points[m], oi, oi, ti, false);
          if (b == UINT32_MAX) b = shadowed(e, points[m] - points[e], oi, oi, ti, true);
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
        last = line(oi, points[e], ti, points[m], cache);
        if (last.visible) {
          pair_sym = line_sym;
          return last;
        }
        sym = sym && line_sym;
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
    if (cache.kind == Cache::kBody) remember(cache.index);
    pair_sym = sym;
    return last;
  }

  void all_pool(std::vector<std::uint32_t>& out) const {
    out.clear();
    for (std::uint32_t i = 0; i < objs.size(); ++i) {
      if (objs[i].block != BlockClass::kNone) out.push_back(i);
    }
  }

  const std::vector<SeatMask>& compute() {
    const std::uint32_t n = static_cast<std::uint32_t>(objs.size());
    lazy_fans = true;
    memo_stride = (n + 63) / 64;
    hidden_memo.assign(n * memo_stride, 0);
    seen.assign(n, 0);
    for (std::uint32_t i = 0; i < n; ++i) seen[i] = objs[i].seats;
    for (std::uint32_t oi = 0; oi < n; ++oi) {
      const Obj& o = objs[oi];
      if (o.seats == 0 || o.p0 == o.p1) continue;
      const double range = range_of(o);
      // Everything that could be seen or could block lies within range of
      // the observer's sight points (a blocker sits on a sight line).
      near_objs.clear();
      for (std::uint32_t j = 0; j < n; ++j) {
        if (j == oi || (seen[j] & o.seats) == o.seats) continue;
        const Obj& c = objs[j];
        if (c.pts_box.distance_to(o.pts_box) <= range && !cover_bound_apart(o, c) && !memo_get(oi, j))
          near_objs.push_back(j);
      }
      if (near_objs.empty()) continue;
      pool.clear();
      const Aabb reach = o.pts_box.expanded(range);
      for (std::uint32_t j = 0; j < n; ++j) {
        if (objs[j].block != BlockClass::kNone && objs[j].box.intersects(reach)) pool.push_back(j);
      }
      recent_n = 0;
      fan_for = UINT32_MAX;  // built on the first pair that needs a search
      for (std::uint32_t ti : near_objs) {
        if (pair(oi, ti).visible) seen[ti] |= o.seats;
      }
    }
    return seen;
  }
};

}  // namespace

std::vector<SeatMask> ref_compute(const Scene& scene, const TerrainMap& terrain, const VisibilityRules& rules) {
  Prepared impl;
  impl.prepare(scene, terrain, rules);
  return impl.compute();
}

SightResult ref_line_of_sight(const Scene& scene, const TerrainMap& terrain, const VisibilityRules& rules,
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

SightResult ref_can_see(const Scene& scene, const TerrainMap& terrain, const VisibilityRules& rules,
                    std::size_t observer, std::size_t target) {
  if (observer == target) return {true, SightBlock::kNone, 0};
  Prepared impl;
  impl.prepare(scene, terrain, rules);
  impl.all_pool(impl.pool);
  return impl.pair(static_cast<std::uint32_t>(observer), static_cast<std::uint32_t>(target));
}

}  // namespace galloper::rules::reference

// ---------------------------------------------------------------------------
// The comparison.
// ---------------------------------------------------------------------------

namespace galloper::rules {
namespace {

struct Lcg {
  std::uint64_t s;
  double next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(s >> 11) / static_cast<double>(1ull << 53);
  }
  int below(int n) { return static_cast<int>(next() * n); }
};

Polygon blob(Lcg& g, Vec2 c, double rx, double ry) {
  // An irregular outline with 8 vertices (not always convex).
  Polygon p;
  for (int i = 0; i < 8; ++i) {
    const double a = i * 45.0 + g.next() * 10;
    const double k = 0.6 + g.next() * 0.6;
    p.points.push_back(c + Vec2{rx * k * facing_unit(a).x, ry * k * facing_unit(a).y});
  }
  return p;
}

Polygon square(double x0, double y0, double x1, double y1) { return Polygon{{{x0, y0}, {x1, y0}, {x1, y1}, {x0, y1}}}; }

VisibilityRules malbrook_numbers() {
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

// A table w x h with a few hills (some stacked) and woods/towns/marshes.
TerrainMap random_terrain(Lcg& g, double w, double h) {
  std::vector<Hill> hills;
  std::vector<Area> areas;
  const int n_hills = g.below(4);
  for (int i = 0; i < n_hills; ++i) {
    const Vec2 c{g.next() * w, g.next() * h};
    const double rx = 3 + g.next() * 8, ry = 2 + g.next() * 6;
    hills.push_back({"h" + std::to_string(i), g.next() < 0.3 ? square(c.x - rx, c.y - ry, c.x + rx, c.y + ry) : blob(g, c, rx, ry),
                     1, false, g.next() < 0.4});
    if (g.next() < 0.4) hills.push_back({"t" + std::to_string(i), blob(g, c, rx * 0.4, ry * 0.4), 2, false, true});
  }
  const int n_areas = g.below(5);
  for (int i = 0; i < n_areas; ++i) {
    const Vec2 c{g.next() * w, g.next() * h};
    const double r = g.next();
    const AreaKind kind = r < 0.45 ? AreaKind::kWood : r < 0.8 ? AreaKind::kTown : AreaKind::kMarsh;
    const double rx = 1.5 + g.next() * 5, ry = 1.5 + g.next() * 4;
    areas.push_back({"a" + std::to_string(i), kind, g.next() < 0.3 ? square(c.x - rx, c.y - ry, c.x + rx, c.y + ry) : blob(g, c, rx, ry)});
  }
  return TerrainMap(std::move(hills), std::move(areas), {}, {});
}

void place(SceneObject& o, const TerrainMap& t, Lcg& g) {
  const Vec2 c = envelope(o.bases, o.bases[0].facing_deg).center;
  if (const Hill* h = t.top_hill_at(c)) {
    o.elevation = h->elevation;
    o.significantly_high = h->significantly_high;
  }
  if (g.next() < 0.5) {
    const Polygon env = envelope(o.bases, o.bases[0].facing_deg).polygon();
    o.at_cover_edge = t.at_edge_of(env, AreaKind::kWood, 1) != nullptr || t.at_edge_of(env, AreaKind::kTown, 1) != nullptr;
  } else {
    o.at_cover_edge = g.next() < 0.3;
  }
  o.shot_this_turn = g.next() < 0.3;
}

enum class Seats { kOneEach, kSideShared, kWings };

// Dense random scenes: lines, columns, spaced (unformed) bodies, single models.
Scene random_scene(Lcg& g, const TerrainMap& t, double w, double h, int n, Seats seats) {
  Scene s;
  for (int i = 0; i < n; ++i) {
    SceneObject o;
    o.id = static_cast<std::uint32_t>(1000 + i);
    o.kind = static_cast<SceneKind>(g.below(6));
    const Vec2 c{g.next() * w, g.next() * h};
    const double facing = g.next() < 0.6 ? (g.next() < 0.5 ? 0.0 : 180.0) : g.next() * 360;
    const double shape = g.next();
    if (shape < 0.3) {
      o.bases = {OrientedRect{c, 0.5 + g.next() * 1.5, 0.5 + g.next(), facing}};
    } else {
      const int count = 2 + g.below(5);
      const int per_rank = shape < 0.65 ? count : shape < 0.85 ? 1 + g.below(count) : count;
      const double gap = shape >= 0.85 ? 0.3 + g.next() : 0.0;
      o.bases = layout_ranks(c, facing, 0.5 + g.next() * 1.5, 0.5 + g.next(), count, per_rank, gap, gap * g.next());
    }
    if (g.next() < 0.08) {
      // The caller's own sight points: the base centres (inside the footprint).
      for (const auto& b : o.bases) o.sight_points.push_back(b.center);
    }
    place(o, t, g);
    const int side = c.y < h / 2 ? 0 : 1;
    switch (seats) {
      case Seats::kOneEach: o.observer_for = i < 64 ? SeatMask{1} << i : 0; break;
      case Seats::kSideShared: o.observer_for = SeatMask{0xF} << (side * 4); break;
      case Seats::kWings:
        o.observer_for = SeatMask{1} << (side * 4) | SeatMask{1} << (side * 4 + 1 + g.below(3));
        break;
    }
    if (g.next() < 0.05) o.observer_for = 0;
    s.objects.push_back(std::move(o));
  }
  return s;
}

void expect_same_sight(const SightResult& got, const SightResult& want, const std::string& what) {
  EXPECT_EQ(got.visible, want.visible) << what;
  EXPECT_EQ(got.reason, want.reason) << what;
  EXPECT_EQ(got.blocker, want.blocker) << what;
}

TEST(VisibilityEquivalence, RandomScenesMatchTheReference) {
  Lcg g{4242};
  const VisibilityRules rules = malbrook_numbers();
  VisibilityEngine engine;  // one engine throughout: its scratch must not leak between scenes
  int seen = 0;
  for (int round = 0; round < 300; ++round) {
    const double w = 30 + g.next() * 40, h = 20 + g.next() * 30;
    const TerrainMap terrain = random_terrain(g, w, h);
    const int n = 8 + g.below(40);
    const auto seats = static_cast<Seats>(round % 3);
    const Scene scene = random_scene(g, terrain, w, h, n, seats);
    const auto want = reference::ref_compute(scene, terrain, rules);
    const auto& got = engine.compute(scene, terrain, rules);
    ASSERT_EQ(got, want) << "round " << round;
    EXPECT_EQ(compute_visibility(scene, terrain, rules), want) << "round " << round;
    for (std::size_t i = 0; i < want.size(); ++i) seen += std::popcount(want[i] & ~scene.objects[i].observer_for);
    // Single pairs and single lines: the same verdict, reason and blocker.
    for (int k = 0; k < 6; ++k) {
      const std::size_t o = static_cast<std::size_t>(g.below(n));
      const std::size_t t = static_cast<std::size_t>(g.below(n));
      const std::string what = "round " + std::to_string(round) + " " + std::to_string(o) + "->" + std::to_string(t);
      expect_same_sight(can_see(scene, terrain, rules, o, t), reference::ref_can_see(scene, terrain, rules, o, t), what);
      const auto eyes = default_sight_points(scene.objects[o].bases);
      const auto marks = default_sight_points(scene.objects[t].bases);
      ASSERT_EQ(eyes, reference::ref_default_sight_points(scene.objects[o].bases));
      const Vec2 e = eyes[static_cast<std::size_t>(g.below(static_cast<int>(eyes.size())))];
      const Vec2 m = marks[static_cast<std::size_t>(g.below(static_cast<int>(marks.size())))];
      expect_same_sight(line_of_sight(scene, terrain, rules, o, e, t, m),
                        reference::ref_line_of_sight(scene, terrain, rules, o, e, t, m), what + " line");
    }
  }
  EXPECT_GT(seen, 1000);  // objects seen by seats other than their own
}

// ---- The big battle of bench_visibility.cpp ----

// As tests/bench/bench_visibility.cpp, draw for draw.
Polygon bench_blob(Lcg& g, Vec2 c, double rx, double ry) {
  Polygon p;
  for (int i = 0; i < 8; ++i) {
    const double a = i * 45.0 + g.next() * 10;
    const double k = 0.8 + g.next() * 0.4;
    p.points.push_back(c + Vec2{rx * k * facing_unit(a).x, ry * k * facing_unit(a).y});
  }
  return p;
}

TerrainMap battlefield(Lcg& g) {
  std::vector<Hill> hills;
  std::vector<Area> areas;
  std::vector<Linear> linears;
  for (int i = 0; i < 15; ++i) {
    const Vec2 c{g.next() * 96, g.next() * 72};
    hills.push_back({"hill" + std::to_string(i), bench_blob(g, c, 6 + g.next() * 6, 4 + g.next() * 4), 1, i % 3 == 0, i % 5 == 0});
    if (i % 3 == 0) hills.push_back({"top" + std::to_string(i), bench_blob(g, c, 3, 2), 2, true, true});
  }
  for (int i = 0; i < 27; ++i) {
    const Vec2 c{g.next() * 96, g.next() * 72};
    const AreaKind kind = i < 12 ? AreaKind::kWood : i < 19 ? AreaKind::kTown : i < 23 ? AreaKind::kMarsh : AreaKind::kRough;
    areas.push_back({"area" + std::to_string(i), kind, bench_blob(g, c, 2 + g.next() * 4, 2 + g.next() * 3)});
  }
  for (int i = 0; i < 13; ++i) {
    Polyline l;
    Vec2 p{g.next() * 96, g.next() * 72};
    for (int k = 0; k < 6; ++k) {
      l.points.push_back(p);
      p = p + Vec2{g.next() * 10 - 5, g.next() * 10 - 5};
    }
    const LinearKind kind = static_cast<LinearKind>(i % 9);
    linears.push_back({"lin" + std::to_string(i), kind, l, kind == LinearKind::kRoad ? 1.0 : 0.3, i % 2 == 0, false});
  }
  return TerrainMap(std::move(hills), std::move(areas), std::move(linears), {});
}

Scene battle(const TerrainMap& t, Lcg& g, bool side_shared) {
  Scene s;
  std::uint32_t id = 0;
  auto put = [&](SceneObject& o) {
    const Vec2 c = o.bases[0].center;
    if (const Hill* h = t.top_hill_at(c)) {
      o.elevation = h->elevation;
      o.significantly_high = h->significantly_high;
    }
    const Polygon env = envelope(o.bases, o.bases[0].facing_deg).polygon();
    o.at_cover_edge = t.at_edge_of(env, AreaKind::kWood, 1) != nullptr || t.at_edge_of(env, AreaKind::kTown, 1) != nullptr;
  };
  for (int side = 0; side < 2; ++side) {
    const double facing = side == 0 ? 0 : 180;
    const double dir = side == 0 ? 1 : -1;
    const double front_y = 36 - dir * 7;
    const SeatMask army_bit = SeatMask{1} << (side * 4);
    const SeatMask side_bits = SeatMask{0xF} << (side * 4);
    auto seats_of = [&](int wing) { return side_shared ? side_bits : (army_bit | SeatMask{1} << (side * 4 + 1 + wing)); };
    for (int line = 0; line < 3; ++line) {
      for (int k = 0; k < 20; ++k) {
        const int wing = k / 7 > 2 ? 2 : k / 7;
        const double x = 3 + k * 4.6 + (line % 2) * 1.5;
        const double y = front_y - dir * (line * 4.5);
        SceneObject o;
        o.id = id++;
        const double r = g.next();
        if (r < 0.1) {
          o.kind = SceneKind::kUnformed;
          for (int b = 0; b < 3; ++b) o.bases.push_back(OrientedRect{{x - 1.5 + b * 1.5, y - dir * 0.6}, 1, 1.25, facing});
        } else if (r < 0.25) {
          o.kind = SceneKind::kFormed;
          o.bases = layout_ranks({x, y}, facing, 1, 1, 4, 2);
        } else {
          o.kind = SceneKind::kFormed;
          o.bases = layout_ranks({x, y}, facing, 1, 1, 4, 4);
        }
        o.observer_for = seats_of(wing);
        put(o);
        s.objects.push_back(std::move(o));
      }
    }
    for (int k = 0; k < 20; ++k) {
      SceneObject o;
      o.id = id++;
      o.kind = SceneKind::kGun;
      o.bases = {OrientedRect::from_front_mid({5 + k * 4.6, front_y + dir * 2}, 1.5, 1, facing)};
      o.shot_this_turn = g.next() < 0.3;
      o.observer_for = seats_of(k / 7 > 2 ? 2 : k / 7);
      put(o);
      s.objects.push_back(std::move(o));
    }
    for (int k = 0; k < 15; ++k) {
      SceneObject o;
      o.id = id++;
      o.kind = SceneKind::kLeader;
      o.bases = {OrientedRect::from_front_mid({4 + k * 6.2, front_y - dir * (11 + g.next() * 4)}, 0.75, 0.75, facing)};
      o.observer_for = seats_of(k / 5);
      put(o);
      s.objects.push_back(std::move(o));
    }
  }
  return s;
}

TEST(VisibilityEquivalence, BigBattleMatchesTheReference) {
  const VisibilityRules rules = malbrook_numbers();
  for (std::uint64_t seed : {20260521ull, 7ull, 99ull}) {
    for (bool side_shared : {true, false}) {
      Lcg g{seed};
      const TerrainMap terrain = battlefield(g);
      const Scene scene = battle(terrain, g, side_shared);
      ASSERT_EQ(scene.objects.size(), 190u);
      const auto want = reference::ref_compute(scene, terrain, rules);
      VisibilityEngine engine;
      EXPECT_EQ(engine.compute(scene, terrain, rules), want) << seed << " side_shared " << side_shared;
      EXPECT_EQ(engine.compute(scene, terrain, rules), want) << "reused, " << seed;
    }
  }
}

// The engine is exact against plain line-by-line sight too (the reference's
// own claim, checked here on the random scenes with one seat per object).
TEST(VisibilityEquivalence, RandomScenesMatchLineByLine) {
  Lcg g{777};
  const VisibilityRules rules = malbrook_numbers();
  VisibilityEngine engine;
  for (int round = 0; round < 12; ++round) {
    const double w = 30 + g.next() * 30, h = 20 + g.next() * 20;
    const TerrainMap terrain = random_terrain(g, w, h);
    const int n = 8 + g.below(16);
    Scene scene = random_scene(g, terrain, w, h, n, Seats::kOneEach);
    for (auto& o : scene.objects) o.sight_points.clear();
    const auto& masks = engine.compute(scene, terrain, rules);
    for (std::size_t t = 0; t < scene.objects.size(); ++t) {
      SeatMask expected = scene.objects[t].observer_for;
      const auto marks = default_sight_points(scene.objects[t].bases);
      for (std::size_t o = 0; o < scene.objects.size(); ++o) {
        if (o == t || marks.empty()) continue;
        bool any = false;
        for (Vec2 e : default_sight_points(scene.objects[o].bases)) {
          for (Vec2 m : marks) any = any || reference::ref_line_of_sight(scene, terrain, rules, o, e, t, m).visible;
        }
        if (any) expected |= scene.objects[o].observer_for;
      }
      EXPECT_EQ(masks[t], expected) << "round " << round << " target " << t;
    }
  }
}

// SightQueries (one prepared scene, many questions) gives can_see's verdict
// for every ordered pair, whatever was asked before it (the order of the
// questions here is scrambled).
TEST(VisibilityEquivalence, SightQueriesGiveCanSeesVerdicts) {
  Lcg g{4242};
  const VisibilityRules rules = malbrook_numbers();
  int hidden = 0;
  int visible = 0;
  for (int round = 0; round < 40; ++round) {
    const double w = 30 + g.next() * 30, h = 20 + g.next() * 20;
    const TerrainMap terrain = random_terrain(g, w, h);
    const int n = 8 + g.below(16);
    const Scene scene = random_scene(g, terrain, w, h, n, Seats::kOneEach);
    SightQueries queries(scene, terrain, rules);
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    for (std::size_t o = 0; o < scene.objects.size(); ++o) {
      for (std::size_t t = 0; t < scene.objects.size(); ++t) pairs.emplace_back(o, t);
    }
    for (std::size_t i = pairs.size(); i > 1; --i) std::swap(pairs[i - 1], pairs[g.below(static_cast<int>(i))]);
    for (const auto& [o, t] : pairs) {
      const bool expected = can_see(scene, terrain, rules, o, t).visible;
      (expected ? visible : hidden) += 1;
      EXPECT_EQ(queries.sees(o, t), expected) << "round " << round << " observer " << o << " target " << t;
    }
  }
  // Both verdicts are well represented, or the test would prove little.
  EXPECT_GT(hidden, 1000);
  EXPECT_GT(visible, 1000);
}

// The same on the big battle, where SightQueries' grid has many cells and
// observers stand on hills and in woods: a scrambled sample of its ordered
// pairs, within range of each other (beyond it every judge says hidden).
TEST(VisibilityEquivalence, SightQueriesGiveCanSeesVerdictsOnTheBigBattle) {
  const VisibilityRules rules = malbrook_numbers();
  Lcg g{20260521};
  const TerrainMap terrain = battlefield(g);
  const Scene scene = battle(terrain, g, false);
  SightQueries queries(scene, terrain, rules);
  const auto n = static_cast<int>(scene.objects.size());
  int hidden = 0;
  int visible = 0;
  for (int k = 0; k < 1500; ++k) {
    const auto o = static_cast<std::size_t>(g.below(n));
    const auto t = static_cast<std::size_t>(g.below(n));
    const Vec2 d = scene.objects[o].bases.front().center - scene.objects[t].bases.front().center;
    if (std::sqrt(dot(d, d)) > rules.elevated_range + 12) continue;  // 12: more than any half-footprint
    const bool expected = can_see(scene, terrain, rules, o, t).visible;
    (expected ? visible : hidden) += 1;
    EXPECT_EQ(queries.sees(o, t), expected) << "observer " << o << " target " << t;
  }
  EXPECT_GT(hidden, 150);
  EXPECT_GT(visible, 150);
}


// ---- From the last table (VisibilityEngine::compute_from) ----

// The next scene: `changes` objects moved, turned to another kind, firing or
// not, serving other seats, gone, or new; the rest as they were. Returns each
// object's index in `scene` (kNewObject for the new ones).
std::vector<std::uint32_t> change_scene(Lcg& g, const TerrainMap& t, double w, double h, const Scene& scene,
                                        int changes, Seats seats, Scene& next) {
  next = scene;
  std::vector<std::uint32_t> index(scene.objects.size());
  for (std::size_t i = 0; i < index.size(); ++i) index[i] = static_cast<std::uint32_t>(i);
  for (int k = 0; k < changes && !next.objects.empty(); ++k) {
    const auto i = static_cast<std::size_t>(g.below(static_cast<int>(next.objects.size())));
    SceneObject& o = next.objects[i];
    switch (g.below(7)) {
      case 0:
      case 1: {  // moved up to 3" (a step's move)
        const Vec2 d{g.next() * 6 - 3, g.next() * 6 - 3};
        for (auto& b : o.bases) b.center = b.center + d;
        for (auto& p : o.sight_points) p = p + d;
        break;
      }
      case 2: o.shot_this_turn = !o.shot_this_turn; break;
      case 3: o.kind = static_cast<SceneKind>(g.below(6)); break;
      case 4: o.observer_for = o.observer_for == 0 ? SeatMask{1} : o.observer_for << 1; break;
      case 5:  // gone
        next.objects.erase(next.objects.begin() + static_cast<std::ptrdiff_t>(i));
        index.erase(index.begin() + static_cast<std::ptrdiff_t>(i));
        break;
      case 6: {  // a new one
        Scene one = random_scene(g, t, w, h, 1, seats);
        next.objects.push_back(std::move(one.objects[0]));
        index.push_back(kNewObject);
        break;
      }
    }
  }
  return index;
}

TEST(VisibilityFromLast, ChangedScenesGiveTheMasksOfAWholeCompute) {
  Lcg g{8080};
  const VisibilityRules rules = malbrook_numbers();
  VisibilityEngine whole;
  VisibilityEngine from;  // one engine throughout, as a game keeps none: scratch must not leak
  int started = 0;
  int fell_back = 0;
  for (int round = 0; round < 40; ++round) {
    const double w = 40 + g.next() * 40, h = 30 + g.next() * 30;
    const TerrainMap terrain = random_terrain(g, w, h);
    const auto seats = static_cast<Seats>(round % 3);
    Scene scene = random_scene(g, terrain, w, h, 30 + g.below(60), seats);
    SightRecord record;
    whole.compute(scene, terrain, rules, &record);
    for (int step = 0; step < 12; ++step) {
      // Mostly a few changes; now and then half the scene.
      const int changes = step % 6 == 5 ? static_cast<int>(scene.objects.size()) / 2 : 1 + g.below(5);
      Scene next;
      const auto index = change_scene(g, terrain, w, h, scene, changes, seats, next);
      const std::vector<SeatMask> want = whole.compute(next, terrain, rules);
      SightRecord next_record;
      ASSERT_EQ(from.compute_from(record, index, next, terrain, rules, &next_record), want)
          << "round " << round << " step " << step;
      (from.started_from_last() ? started : fell_back) += 1;
      scene = std::move(next);
      record = std::move(next_record);
    }
  }
  // Both courses were taken, the incremental one mostly.
  EXPECT_GT(started, 300);
  EXPECT_GT(fell_back, 20);
}

TEST(VisibilityFromLast, BigBattleStepsGiveTheMasksOfAWholeCompute) {
  const VisibilityRules rules = malbrook_numbers();
  for (bool side_shared : {true, false}) {
    Lcg g{20260521};
    const TerrainMap terrain = battlefield(g);
    Scene scene = battle(terrain, g, side_shared);
    VisibilityEngine whole;
    VisibilityEngine from;
    SightRecord record;
    whole.compute(scene, terrain, rules, &record);
    int started = 0;
    for (int step = 0; step < 30; ++step) {
      // A step: a dozen pieces move up to 2" (or fire), none added or removed.
      Scene next = scene;
      std::vector<std::uint32_t> index(scene.objects.size());
      for (std::size_t i = 0; i < index.size(); ++i) index[i] = static_cast<std::uint32_t>(i);
      for (int k = 0; k < 12; ++k) {
        SceneObject& o = next.objects[static_cast<std::size_t>(g.below(static_cast<int>(next.objects.size())))];
        if (o.kind == SceneKind::kGun && g.next() < 0.5) {
          o.shot_this_turn = !o.shot_this_turn;
        } else {
          const Vec2 d{g.next() * 4 - 2, g.next() * 4 - 2};
          for (auto& b : o.bases) b.center = b.center + d;
        }
      }
      const std::vector<SeatMask> want = whole.compute(next, terrain, rules);
      SightRecord next_record;
      ASSERT_EQ(from.compute_from(record, index, next, terrain, rules, &next_record), want)
          << "side_shared " << side_shared << " step " << step;
      started += from.started_from_last() ? 1 : 0;
      scene = std::move(next);
      record = std::move(next_record);
    }
    EXPECT_EQ(started, 30);
  }
}

TEST(VisibilityFromLast, ARecordThatDoesNotFitIsNotUsed) {
  Lcg g{31};
  const VisibilityRules rules = malbrook_numbers();
  const TerrainMap terrain = random_terrain(g, 60, 40);
  const Scene scene = random_scene(g, terrain, 60, 40, 40, Seats::kWings);
  VisibilityEngine engine;
  SightRecord record;
  engine.compute(scene, terrain, rules, &record);
  const std::vector<SeatMask> want = compute_visibility(scene, terrain, rules);
  // An index of the wrong length, and a record that never was filled.
  const std::vector<std::uint32_t> short_index(scene.objects.size() - 1, 0);
  EXPECT_EQ(engine.compute_from(record, short_index, scene, terrain, rules), want);
  EXPECT_FALSE(engine.started_from_last());
  std::vector<std::uint32_t> same(scene.objects.size());
  for (std::size_t i = 0; i < same.size(); ++i) same[i] = static_cast<std::uint32_t>(i);
  EXPECT_EQ(engine.compute_from(SightRecord{}, same, scene, terrain, rules), want);
  EXPECT_FALSE(engine.started_from_last());
  // Nothing changed: every seat is proved by its last witness.
  EXPECT_EQ(engine.compute_from(record, same, scene, terrain, rules), want);
  EXPECT_TRUE(engine.started_from_last());
  // Two objects claiming one last self: the second counts as new.
  std::vector<std::uint32_t> twice = same;
  twice[1] = 0;
  EXPECT_EQ(engine.compute_from(record, twice, scene, terrain, rules), want);
}

// compute_from copies an unchanged object's preparation from the engine's
// last prepare only while that prepare is the record's own: an engine that
// has worked out another table since (of as many objects) prepares afresh.
TEST(VisibilityFromLast, AnEngineThatPreparedAnotherSceneSincePreparesAfresh) {
  Lcg g{47};
  const VisibilityRules rules = malbrook_numbers();
  const TerrainMap terrain = random_terrain(g, 60, 40);
  const Scene scene = random_scene(g, terrain, 60, 40, 50, Seats::kWings);
  const Scene other = random_scene(g, terrain, 60, 40, 50, Seats::kWings);
  VisibilityEngine engine;
  SightRecord record;
  engine.compute(scene, terrain, rules, &record);
  Scene next;
  const auto index = change_scene(g, terrain, 60, 40, scene, 3, Seats::kWings, next);
  const std::vector<SeatMask> want = compute_visibility(next, terrain, rules);
  engine.compute(other, terrain, rules);  // the engine's objects are now other's
  EXPECT_EQ(engine.compute_from(record, index, next, terrain, rules), want);
  // And from its own record it keeps them: the same masks.
  SightRecord own;
  engine.compute(scene, terrain, rules, &own);
  EXPECT_EQ(engine.compute_from(own, index, next, terrain, rules), want);
  EXPECT_TRUE(engine.started_from_last());
}

}  // namespace
}  // namespace galloper::rules
