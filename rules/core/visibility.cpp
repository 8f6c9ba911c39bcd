#include "rules/core/visibility.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

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
  return {env.center, env.to_world({-sx, sy}), env.to_world({sx, sy}), env.to_world({sx, -sy}),
          env.to_world({-sx, -sy})};
}

}  // namespace

std::vector<Vec2> default_sight_points(std::span<const OrientedRect> bases) {
  if (bases.empty()) return {};
  if (bases.size() == 1) return envelope_points(bases[0]);
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
    std::uint32_t index = 0;  // into TerrainMap::areas()
  };
  struct HillB {
    const Polygon* poly = nullptr;
    Aabb box;
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
  std::vector<Cover> covers;
  std::vector<HillB> hills;
  std::vector<SeatMask> seen;

  // Scratch.
  std::vector<std::uint32_t> near_objs;    // targets around the current observer
  std::vector<std::uint32_t> pool;         // blockers around the current observer
  std::vector<std::uint32_t> pair_bodies;  // candidates for the current pair
  std::vector<std::uint32_t> pair_covers;
  std::vector<std::uint32_t> pair_hills;
  // A uniform grid of the bodies that can block (compressed rows), so a pair
  // looks only at the cells its capsule crosses.
  Vec2 grid_origin;
  double grid_cell = 1;
  int grid_nx = 0;
  int grid_ny = 0;
  std::vector<std::uint32_t> grid_start;
  std::vector<std::uint32_t> grid_items;
  std::vector<std::uint32_t> stamp;
  std::uint32_t stamp_now = 0;
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
      if (areas[i].blocks_sight()) covers.push_back({&areas[i].outline, areas[i].outline.bounds(), i});
    }
    const auto& hs = terrain.hills();
    for (std::uint32_t i = 0; i < hs.size(); ++i) {
      hills.push_back({&hs[i].outline, hs[i].outline.bounds(), hs[i].elevation, i});
    }
    for (const auto& o : scene.objects) {
      Obj ob;
      ob.block = block_class(o);
      ob.q0 = static_cast<std::uint32_t>(quads.size());
      for (const auto& b : o.bases) ob.box.add(b.bounds());
      const bool contiguous = o.bases.size() > 1 && is_contiguous(o.bases);
      if (contiguous && ob.block != BlockClass::kUnformed) {
        quads.push_back(make_quad(envelope(o.bases, o.bases[0].facing_deg)));  // one body, one quad
      } else {
        for (const auto& b : o.bases) quads.push_back(make_quad(b));
      }
      ob.q1 = static_cast<std::uint32_t>(quads.size());
      ob.p0 = static_cast<std::uint32_t>(points.size());
      if (o.sight_points.empty()) {
        for (Vec2 p : default_sight_points(o.bases)) points.push_back(p);
      } else {
        points.insert(points.end(), o.sight_points.begin(), o.sight_points.end());
      }
      ob.p1 = static_cast<std::uint32_t>(points.size());
      if (o.sight_points.empty() && ob.p1 - ob.p0 >= 5) {
        // default_sight_points: centre + 4 corners, or centres + 4 corners.
        ob.hull0 = (o.bases.size() == 1 || contiguous) ? ob.p0 + 1 : ob.p1 - 4;
      }
      bool all_in_cover = ob.p1 > ob.p0;
      for (std::uint32_t i = ob.p0; i < ob.p1; ++i) {
        ob.pts_box.add(points[i]);
        if (all_in_cover && !in_cover(points[i])) all_in_cover = false;
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
    build_grid();
  }

  void cell_range(const Aabb& b, int& x0, int& x1, int& y0, int& y1) const {
    x0 = std::clamp(static_cast<int>(std::floor((b.min.x - grid_origin.x) / grid_cell)), 0, grid_nx - 1);
    x1 = std::clamp(static_cast<int>(std::floor((b.max.x - grid_origin.x) / grid_cell)), 0, grid_nx - 1);
    y0 = std::clamp(static_cast<int>(std::floor((b.min.y - grid_origin.y) / grid_cell)), 0, grid_ny - 1);
    y1 = std::clamp(static_cast<int>(std::floor((b.max.y - grid_origin.y) / grid_cell)), 0, grid_ny - 1);
  }

  void build_grid() {
    Aabb all;
    for (const auto& o : objs) {
      if (o.block != BlockClass::kNone) all.add(o.box);
    }
    stamp.assign(objs.size(), 0);
    stamp_now = 0;
    grid_start.clear();
    grid_items.clear();
    if (all.empty()) {
      grid_nx = grid_ny = 0;
      return;
    }
    // About 16 cells along the longer side: a few bodies per cell in a line of battle.
    const double ext = std::max({all.max.x - all.min.x, all.max.y - all.min.y, 1e-6});
    grid_cell = ext / 16;
    grid_origin = all.min;
    grid_nx = std::min(64, static_cast<int>((all.max.x - all.min.x) / grid_cell) + 1);
    grid_ny = std::min(64, static_cast<int>((all.max.y - all.min.y) / grid_cell) + 1);
    grid_start.assign(static_cast<std::size_t>(grid_nx * grid_ny + 1), 0);
    int x0 = 0, x1 = 0, y0 = 0, y1 = 0;
    for (const auto& o : objs) {
      if (o.block == BlockClass::kNone) continue;
      cell_range(o.box, x0, x1, y0, y1);
      for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) ++grid_start[static_cast<std::size_t>(y * grid_nx + x + 1)];
      }
    }
    for (std::size_t i = 1; i < grid_start.size(); ++i) grid_start[i] += grid_start[i - 1];
    grid_items.resize(grid_start.back());
    std::vector<std::uint32_t> fill(grid_start.begin(), grid_start.end() - 1);
    for (std::uint32_t i = 0; i < objs.size(); ++i) {
      const Obj& o = objs[i];
      if (o.block == BlockClass::kNone) continue;
      cell_range(o.box, x0, x1, y0, y1);
      for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) grid_items[fill[static_cast<std::size_t>(y * grid_nx + x)]++] = i;
      }
    }
  }

  static bool is_contiguous(const std::vector<OrientedRect>& bases) {
    const OrientedRect env = envelope(bases, bases[0].facing_deg);
    double covered = 0;
    for (const auto& b : bases) covered += b.width * b.depth;
    return covered >= env.width * env.depth * 0.999;
  }

  bool in_cover(Vec2 p) const {
    for (const auto& c : covers) {
      if (c.box.contains(p) && contains_strictly(*c.poly, p, 1e-9)) return true;
    }
    return false;
  }

  double range_of(const Obj& o) const { return o.elevation > 0 ? rules->elevated_range : rules->open_range; }

  // Edge-to-edge distance between two objects' footprints.
  double footprint_distance(const Obj& a, const Obj& b) const {
    const double boxes = a.box.distance_to(b.box);
    if (boxes >= rules->see_over_min_distance) return boxes;  // a lower bound already far enough
    double best = kInf;
    for (std::uint32_t i = a.q0; i < a.q1; ++i) {
      for (std::uint32_t j = b.q0; j < b.q1; ++j) {
        const Polygon pa{{quads[i].c.begin(), quads[i].c.end()}};
        const Polygon pb{{quads[j].c.begin(), quads[j].c.end()}};
        best = std::min(best, distance(pa, pb));
      }
    }
    return best;
  }

  // Gathers the candidate blockers of one observer/target pair: only things
  // meeting the box of both objects' sight points can lie on a sight line.
  //
  // Every sight line lies within max(ro, rt) of the segment joining the
  // centres of the two point boxes (ro, rt: their half-diagonals), so a
  // blocker whose bounding circle misses that capsule cannot be on one.
  void gather_pair(std::uint32_t oi, std::uint32_t ti, const std::vector<std::uint32_t>& bodies_pool) {
    const Obj& o = objs[oi];
    const Obj& t = objs[ti];
    Aabb box = o.pts_box;
    box.add(t.pts_box);
    const Vec2 a = o.pcen;
    const Vec2 d = t.pcen - a;
    const double dd = dot(d, d);
    const double inv = dd > 0 ? 1 / dd : 0;
    const double r = std::max(o.prad, t.prad);
    auto near = [&](const Aabb& b) {
      if (b.min.x > box.max.x || box.min.x > b.max.x || b.min.y > box.max.y || box.min.y > b.max.y) return false;
      const Vec2 c = (b.min + b.max) * 0.5;
      const double s = std::clamp(dot(c - a, d) * inv, 0.0, 1.0);
      const double reach = r + half_diagonal(b);
      return distance_sq(c, a + d * s) <= reach * reach;
    };
    pair_bodies.clear();
    if (grid_nx > 0) {
      ++stamp_now;
      int x0 = 0, x1 = 0, y0 = 0, y1 = 0;
      Aabb capsule;
      capsule.add(a);
      capsule.add(a + d);
      cell_range(capsule.expanded(r), x0, x1, y0, y1);
      for (int y = y0; y <= y1; ++y) {
        // The part of the segment within r of this row of cells, widened by r.
        const double band_lo = grid_origin.y + y * grid_cell - r;
        const double band_hi = band_lo + grid_cell + 2 * r;
        double t_lo = 0, t_hi = 1;
        if (d.y != 0) {
          const double ta = (band_lo - a.y) / d.y;
          const double tb = (band_hi - a.y) / d.y;
          t_lo = std::max(0.0, std::min(ta, tb));
          t_hi = std::min(1.0, std::max(ta, tb));
          if (t_lo > t_hi) continue;
        } else if (a.y < band_lo || a.y > band_hi) {
          continue;
        }
        const double xa = a.x + d.x * t_lo;
        const double xb = a.x + d.x * t_hi;
        const int cx0 = std::max(x0, static_cast<int>(std::floor((std::min(xa, xb) - r - grid_origin.x) / grid_cell)));
        const int cx1 = std::min(x1, static_cast<int>(std::floor((std::max(xa, xb) + r - grid_origin.x) / grid_cell)));
        for (int x = cx0; x <= cx1; ++x) {
          const std::size_t cell = static_cast<std::size_t>(y * grid_nx + x);
          for (std::uint32_t k = grid_start[cell]; k < grid_start[cell + 1]; ++k) {
            const std::uint32_t b = grid_items[k];
            if (stamp[b] == stamp_now) continue;
            stamp[b] = stamp_now;
            const Obj& ob = objs[b];
            const double s = std::clamp(dot(ob.cen - a, d) * inv, 0.0, 1.0);
            const double reach = r + ob.rad;
            if (sq(ob.cen - (a + d * s)) <= reach * reach && b != oi && b != ti) pair_bodies.push_back(b);
          }
        }
      }
      // Scene order, so which blocker is reported does not depend on the grid.
      std::sort(pair_bodies.begin(), pair_bodies.end());
    }
    (void)bodies_pool;
    pair_covers.clear();
    for (std::uint32_t c = 0; c < covers.size(); ++c) {
      if (near(covers[c].box)) pair_covers.push_back(c);
    }
    pair_hills.clear();
    const double top = std::max(o.elevation, t.elevation);
    for (std::uint32_t h = 0; h < hills.size(); ++h) {
      if (hills[h].elevation > top && near(hills[h].box)) pair_hills.push_back(h);
    }
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
    for (std::uint32_t c : which_covers) {
      const Cover& cv = covers[c];
      if (!box_hits_segment(cv.box, eye, ab)) continue;
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
    Cache cache;
    bool gathered = false;  // candidates are gathered once a line is in range
    bool tried_whole = false;
    bool sym = true;        // every line so far is decided the same both ways
    const double range = range_of(o);
    SightResult last{false, SightBlock::kNoPoints, 0};
    for (std::uint32_t e = o.p0; e < o.p1; ++e) {
      for (std::uint32_t m = t.p0; m < t.p1; ++m) {
        if (sq(points[m] - points[e]) > range * range) {
          last = {false, SightBlock::kRange, 0};
          sym = sym && same_range(o, t);
          continue;
        }
        if (!gathered) {
          gather_pair(oi, ti, pool);
          gathered = true;
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
      pool.clear();
      const Aabb reach = o.pts_box.expanded(range);
      for (std::uint32_t j = 0; j < n; ++j) {
        const Obj& c = objs[j];
        if (c.block != BlockClass::kNone && c.box.intersects(reach)) pool.push_back(j);
        if (j != oi && (seen[j] & o.seats) != o.seats && c.pts_box.distance_to(o.pts_box) <= range &&
            !cover_bound_apart(o, c) && !memo_get(oi, j))
          near_objs.push_back(j);
      }
      recent_n = 0;
      for (std::uint32_t ti : near_objs) {
        if (pair(oi, ti).visible) seen[ti] |= o.seats;
      }
    }
    return seen;
  }
};

}  // namespace

struct VisibilityEngine::Impl : Prepared {};

VisibilityEngine::VisibilityEngine() : impl_(std::make_unique<Impl>()) {}
VisibilityEngine::~VisibilityEngine() = default;
VisibilityEngine::VisibilityEngine(VisibilityEngine&&) noexcept = default;
VisibilityEngine& VisibilityEngine::operator=(VisibilityEngine&&) noexcept = default;

const std::vector<SeatMask>& VisibilityEngine::compute(const Scene& scene, const TerrainMap& terrain,
                                                       const VisibilityRules& rules) {
  impl_->prepare(scene, terrain, rules);
  return impl_->compute();
}

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
