#include "rules/core/terrain.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

namespace galloper::rules {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Interiors overlap (touching outlines do not). Exact for polygons in general
// position; shared edges are settled by testing edge midpoints and centroids.
bool interiors_overlap(const Polygon& a, const Polygon& b) {
  if (a.points.size() < 3 || b.points.size() < 3) return false;
  if (!a.bounds().intersects(b.bounds())) return false;
  for (std::size_t i = 0; i < a.edge_count(); ++i) {
    for (std::size_t j = 0; j < b.edge_count(); ++j) {
      if (segments_cross_properly(a.edge(i), b.edge(j))) return true;
    }
  }
  for (const auto& [p, q] : {std::pair{&a, &b}, std::pair{&b, &a}}) {
    for (std::size_t i = 0; i < p->edge_count(); ++i) {
      const Segment e = p->edge(i);
      if (contains_strictly(*q, e.a) || contains_strictly(*q, e.at(0.5))) return true;
    }
    if (contains_strictly(*q, p->centroid()) && contains(*p, p->centroid())) return true;
  }
  return false;
}

bool polygon_within(const Polygon& inner, const Polygon& outer) {
  if (inner.points.empty()) return false;
  for (Vec2 p : inner.points) {
    if (!contains(outer, p)) return false;
  }
  for (std::size_t i = 0; i < inner.edge_count(); ++i) {
    for (std::size_t j = 0; j < outer.edge_count(); ++j) {
      if (segments_cross_properly(inner.edge(i), outer.edge(j))) return false;
    }
  }
  for (Vec2 p : outer.points) {
    if (contains_strictly(inner, p)) return false;
  }
  return true;
}

double polyline_distance(const Polyline& l, Vec2 p) {
  if (l.points.size() == 1) return distance(l.points[0], p);
  double best = kInf;
  for (std::size_t i = 0; i < l.segment_count(); ++i) best = std::min(best, distance(l.segment(i), p));
  return best;
}

}  // namespace

// ---- Grid ----

void TerrainMap::Grid::build(const std::vector<Aabb>& boxes, Vec2 o, double c, int x, int y) {
  origin = o;
  cell = c;
  nx = x;
  ny = y;
  cells.assign(static_cast<std::size_t>(nx * ny), {});
  for (std::uint32_t i = 0; i < boxes.size(); ++i) {
    const Aabb& b = boxes[i];
    if (b.empty()) continue;
    const int x0 = std::clamp(static_cast<int>(std::floor((b.min.x - origin.x) / cell)), 0, nx - 1);
    const int x1 = std::clamp(static_cast<int>(std::floor((b.max.x - origin.x) / cell)), 0, nx - 1);
    const int y0 = std::clamp(static_cast<int>(std::floor((b.min.y - origin.y) / cell)), 0, ny - 1);
    const int y1 = std::clamp(static_cast<int>(std::floor((b.max.y - origin.y) / cell)), 0, ny - 1);
    for (int yy = y0; yy <= y1; ++yy) {
      for (int xx = x0; xx <= x1; ++xx) cells[static_cast<std::size_t>(yy * nx + xx)].push_back(i);
    }
  }
}

void TerrainMap::Grid::query(const Aabb& box, const std::vector<Aabb>& boxes, std::vector<std::uint32_t>& out) const {
  out.clear();
  if (cells.empty() || box.empty()) return;
  // Features reach at most the grid's extent: clamping keeps queries outside
  // it on the border cells, which hold everything that could still touch.
  const int x0 = std::clamp(static_cast<int>(std::floor((box.min.x - origin.x) / cell)), 0, nx - 1);
  const int x1 = std::clamp(static_cast<int>(std::floor((box.max.x - origin.x) / cell)), 0, nx - 1);
  const int y0 = std::clamp(static_cast<int>(std::floor((box.min.y - origin.y) / cell)), 0, ny - 1);
  const int y1 = std::clamp(static_cast<int>(std::floor((box.max.y - origin.y) / cell)), 0, ny - 1);
  for (int yy = y0; yy <= y1; ++yy) {
    for (int xx = x0; xx <= x1; ++xx) {
      for (std::uint32_t i : cells[static_cast<std::size_t>(yy * nx + xx)]) {
        if (boxes[i].intersects(box)) out.push_back(i);
      }
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

// ---- Construction ----

TerrainMap::TerrainMap() : d_(std::make_shared<const Data>()) {}

TerrainMap::TerrainMap(std::vector<Hill> hills, std::vector<Area> areas, std::vector<Linear> linears,
                       std::vector<Crossing> crossings, double cell_size) {
  Data d;
  d.hills_ = std::move(hills);
  d.areas_ = std::move(areas);
  d.linears_ = std::move(linears);
  d.crossings_ = std::move(crossings);
  Aabb all;
  for (const auto& h : d.hills_) d.hill_boxes_.push_back(h.outline.bounds());
  for (const auto& a : d.areas_) d.area_boxes_.push_back(a.outline.bounds());
  for (const auto& l : d.linears_) d.linear_boxes_.push_back(l.path.bounds().expanded(l.width / 2));
  for (const auto* v : {&d.hill_boxes_, &d.area_boxes_, &d.linear_boxes_}) {
    for (const auto& b : *v) all.add(b);
  }
  if (all.empty()) all.add(Vec2{0, 0});
  const double ext = std::max({all.max.x - all.min.x, all.max.y - all.min.y, 1.0});
  const double cell = cell_size > 0 ? cell_size : ext / 16;
  const int nx = std::clamp(static_cast<int>(std::ceil((all.max.x - all.min.x) / cell)) + 1, 1, 1024);
  const int ny = std::clamp(static_cast<int>(std::ceil((all.max.y - all.min.y) / cell)) + 1, 1, 1024);
  d.hill_grid_.build(d.hill_boxes_, all.min, cell, nx, ny);
  d.area_grid_.build(d.area_boxes_, all.min, cell, nx, ny);
  d.linear_grid_.build(d.linear_boxes_, all.min, cell, nx, ny);
  d_ = std::make_shared<const Data>(std::move(d));
}

void TerrainMap::hills_near(const Aabb& box, std::vector<std::uint32_t>& out) const {
  d_->hill_grid_.query(box, d_->hill_boxes_, out);
}
void TerrainMap::areas_near(const Aabb& box, std::vector<std::uint32_t>& out) const {
  d_->area_grid_.query(box, d_->area_boxes_, out);
}
void TerrainMap::linears_near(const Aabb& box, std::vector<std::uint32_t>& out) const {
  d_->linear_grid_.query(box, d_->linear_boxes_, out);
}

// ---- Hills ----

const Hill* TerrainMap::top_hill_at(Vec2 p) const {
  std::vector<std::uint32_t> near;
  hills_near(Aabb{p, p}, near);
  const Hill* top = nullptr;
  for (auto i : near) {
    const Hill& h = d_->hills_[i];
    if ((top == nullptr || h.elevation > top->elevation) && contains(h.outline, p)) top = &h;
  }
  return top;
}

double TerrainMap::elevation_at(Vec2 p) const {
  const Hill* h = top_hill_at(p);
  return h ? h->elevation : 0.0;
}

std::vector<const Hill*> TerrainMap::hills_overlapping(const Polygon& footprint) const {
  std::vector<std::uint32_t> near;
  hills_near(footprint.bounds(), near);
  std::vector<const Hill*> out;
  for (auto i : near) {
    if (intersects(d_->hills_[i].outline, footprint)) out.push_back(&d_->hills_[i]);
  }
  return out;
}

// ---- Areas ----

std::vector<const Area*> TerrainMap::areas_at(Vec2 p) const {
  std::vector<std::uint32_t> near;
  areas_near(Aabb{p, p}, near);
  std::vector<const Area*> out;
  for (auto i : near) {
    if (contains(d_->areas_[i].outline, p)) out.push_back(&d_->areas_[i]);
  }
  return out;
}

bool TerrainMap::area_at(Vec2 p, AreaKind kind) const {
  for (const Area* a : areas_at(p)) {
    if (a->kind == kind) return true;
  }
  return false;
}

std::vector<const Area*> TerrainMap::areas_overlapping(const Polygon& footprint) const {
  std::vector<std::uint32_t> near;
  areas_near(footprint.bounds(), near);
  std::vector<const Area*> out;
  for (auto i : near) {
    if (interiors_overlap(d_->areas_[i].outline, footprint)) out.push_back(&d_->areas_[i]);
  }
  return out;
}

std::vector<const Area*> TerrainMap::areas_overlapping(const OrientedRect& r) const {
  return areas_overlapping(r.polygon());
}

bool TerrainMap::is_rough(const Polygon& footprint, bool steep_hills_rough) const {
  if (!areas_overlapping(footprint).empty()) return true;  // every area kind is rough
  if (steep_hills_rough) {
    std::vector<std::uint32_t> near;
    hills_near(footprint.bounds(), near);
    for (auto i : near) {
      if (d_->hills_[i].steep && interiors_overlap(d_->hills_[i].outline, footprint)) return true;
    }
  }
  return false;
}

bool TerrainMap::is_rough(const OrientedRect& r, bool steep_hills_rough) const {
  return is_rough(r.polygon(), steep_hills_rough);
}

const Area* TerrainMap::inside_area(const Polygon& footprint, AreaKind kind) const {
  std::vector<std::uint32_t> near;
  areas_near(footprint.bounds(), near);
  for (auto i : near) {
    if (d_->areas_[i].kind == kind && polygon_within(footprint, d_->areas_[i].outline)) return &d_->areas_[i];
  }
  return nullptr;
}

const Area* TerrainMap::at_edge_of(const Polygon& footprint, AreaKind kind, double edge_depth) const {
  std::vector<std::uint32_t> near;
  areas_near(footprint.bounds(), near);
  for (auto i : near) {
    const Area& a = d_->areas_[i];
    if (a.kind != kind || !interiors_overlap(a.outline, footprint)) continue;
    for (std::size_t e = 0; e < a.outline.edge_count(); ++e) {
      if (distance(footprint, a.outline.edge(e)) <= edge_depth + kGeomEpsilon) return &a;
    }
  }
  return nullptr;
}

const Area* TerrainMap::at_edge_of(const OrientedRect& r, AreaKind kind, double edge_depth) const {
  return at_edge_of(r.polygon(), kind, edge_depth);
}

// ---- Linear features ----

const Crossing* TerrainMap::crossing_covering(const Linear& l, const std::vector<Segment>& pieces) const {
  if (pieces.empty()) return nullptr;
  for (const auto& c : d_->crossings_) {
    if (c.linear_id != l.id) continue;
    bool all = true;
    for (const auto& p : pieces) {
      // Convex footprint: holding both ends holds the piece.
      if (!contains(c.footprint, p.a) || !contains(c.footprint, p.b)) {
        all = false;
        break;
      }
    }
    if (all) return &c;
  }
  return nullptr;
}

std::vector<ObstacleCrossing> TerrainMap::obstacles_crossed(const Segment& path) const {
  std::vector<std::uint32_t> near;
  linears_near(path.bounds(), near);
  struct Hit {
    double t;
    ObstacleCrossing c;
  };
  std::vector<Hit> hits;
  for (auto i : near) {
    const Linear& l = d_->linears_[i];
    if (!l.is_obstacle()) continue;
    double first = kInf;
    std::vector<Segment> pieces;
    for (std::size_t s = 0; s < l.path.segment_count(); ++s) {
      const Segment seg = l.path.segment(s);
      if (auto t = segment_intersection_param(path, seg)) {
        first = std::min(first, *t);
        const Vec2 p = path.at(*t);
        pieces.push_back({p, p});
      }
    }
    if (first == kInf) continue;
    hits.push_back({first, ObstacleCrossing{&l, path.at(first), crossing_covering(l, pieces)}});
  }
  std::sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) { return a.t < b.t; });
  std::vector<ObstacleCrossing> out;
  for (auto& h : hits) out.push_back(h.c);
  return out;
}

std::vector<ObstacleCrossing> TerrainMap::obstacles_crossed(const Polygon& swept) const {
  std::vector<std::uint32_t> near;
  linears_near(swept.bounds(), near);
  std::vector<ObstacleCrossing> out;
  for (auto i : near) {
    const Linear& l = d_->linears_[i];
    if (!l.is_obstacle()) continue;
    std::vector<Segment> pieces;
    for (std::size_t s = 0; s < l.path.segment_count(); ++s) {
      const Segment seg = l.path.segment(s);
      for (const auto& iv : clip_segment(seg, swept)) pieces.push_back({seg.at(iv[0]), seg.at(iv[1])});
    }
    if (pieces.empty()) continue;
    out.push_back(ObstacleCrossing{&l, pieces.front().a, crossing_covering(l, pieces)});
  }
  return out;
}

std::vector<ObstacleCrossing> TerrainMap::obstacles_crossed(const WheelSweep& swept) const {
  // Whether a feature is crossed is exact; where, and whether wholly on a
  // bridge/ford, is judged on the sweep's circumscribed outline (slightly
  // larger than the swept area, so a crossing is never wrongly granted).
  const Polygon outline = swept.outline(16);
  std::vector<ObstacleCrossing> out;
  for (auto& c : obstacles_crossed(outline)) {
    if (swept.intersects(c.feature->path)) out.push_back(c);
  }
  return out;
}

// ---- Roads ----

const Linear* TerrainMap::road_at(Vec2 p, double tolerance) const {
  std::vector<std::uint32_t> near;
  linears_near(Aabb{p, p}.expanded(tolerance), near);
  for (auto i : near) {
    const Linear& l = d_->linears_[i];
    if (l.kind == LinearKind::kRoad && polyline_distance(l.path, p) <= l.width / 2 + tolerance + kGeomEpsilon)
      return &l;
  }
  return nullptr;
}

bool TerrainMap::on_road(Vec2 p, double tolerance) const { return road_at(p, tolerance) != nullptr; }

double TerrainMap::distance_to_road(Vec2 p) const {
  double best = kInf;
  for (const auto& l : d_->linears_) {
    if (l.kind == LinearKind::kRoad) best = std::min(best, polyline_distance(l.path, p));
  }
  return best;
}

}  // namespace galloper::rules
