#include "rules/core/features.hpp"

#include <cmath>
#include <limits>
#include <string_view>
#include <utility>

namespace galloper::rules {

namespace {

LinearKind linear_kind(TerrainKind k) {
  switch (k) {
    case TerrainKind::kRiver: return LinearKind::kRiver;
    case TerrainKind::kHedge: return LinearKind::kHedge;
    case TerrainKind::kWall: return LinearKind::kWall;
    case TerrainKind::kDitch: return LinearKind::kDitch;
    case TerrainKind::kFortification: return LinearKind::kFortification;
    case TerrainKind::kFieldworks: return LinearKind::kFieldworks;
    case TerrainKind::kChevauxDeFrise: return LinearKind::kChevauxDeFrise;
    case TerrainKind::kRoad: return LinearKind::kRoad;
    default: return LinearKind::kStream;
  }
}

bool is_linear(TerrainKind k) {
  switch (k) {
    case TerrainKind::kStream:
    case TerrainKind::kRiver:
    case TerrainKind::kHedge:
    case TerrainKind::kWall:
    case TerrainKind::kDitch:
    case TerrainKind::kFortification:
    case TerrainKind::kFieldworks:
    case TerrainKind::kChevauxDeFrise:
    case TerrainKind::kRoad: return true;
    default: return false;
  }
}

}  // namespace

Feature feature_of(const TerrainSpec& t) {
  Feature f;
  f.id = t.id;
  f.name = t.name;
  f.kind = t.kind.value_or(TerrainKind::kRough);
  f.points = t.points;
  f.closed = t.shape == TerrainShape::kHill || t.shape == TerrainShape::kArea;
  f.elevation = t.shape == TerrainShape::kHill ? (t.elevation > 0 ? t.elevation : 1.0) : 0.0;
  f.steep = t.steep.value_or(false);
  f.significantly_high = t.significantly_high;
  f.major = t.major;
  f.impassable = t.impassable;
  f.width = t.width;
  f.crosses = t.crosses;
  return f;
}

double linear_width(const Feature& f, const FeatureSizes& sizes) {
  if (f.width > 0) return f.width;
  switch (f.kind) {
    case TerrainKind::kRiver: return sizes.river;
    case TerrainKind::kRoad: return sizes.road;
    case TerrainKind::kStream: return sizes.stream;
    default: return sizes.obstacle;
  }
}

OrientedRect crossing_rect(const Feature& crossing, const Feature* crossed, const FeatureSizes& sizes) {
  const double width = crossing.width > 0 ? crossing.width : sizes.crossing;
  const Vec2 at = crossing.points.empty() ? Vec2{} : crossing.points.front();
  if (crossed == nullptr || crossed->points.size() < 2) return {at, width, width, 0};
  // Across the nearest stretch of the feature crossed, reaching onto each bank.
  const Polyline path{crossed->points};
  double best = std::numeric_limits<double>::infinity();
  Vec2 along{1, 0};
  for (std::size_t i = 0; i < path.segment_count(); ++i) {
    const Segment s = path.segment(i);
    const double d = distance(s, at);
    if (d < best && s.length() > 0) {
      best = d;
      along = s.b - s.a;
    }
  }
  return {at, width, linear_width(*crossed, sizes) + 2.0 * sizes.crossing_bank,
          normalize_deg(bearing_of(along) + 90)};
}

TerrainMap make_terrain_map(const std::vector<Feature>& features, const FeatureSizes& sizes) {
  std::vector<Hill> hills;
  std::vector<Area> areas;
  std::vector<Linear> linears;
  std::vector<Crossing> crossings;
  for (const auto& f : features) {
    switch (f.kind) {
      case TerrainKind::kHill:
        hills.push_back({f.id, Polygon{f.points}, f.elevation > 0 ? f.elevation : 1.0, f.steep,
                         f.significantly_high});
        break;
      case TerrainKind::kWood: areas.push_back({f.id, AreaKind::kWood, Polygon{f.points}}); break;
      case TerrainKind::kTown: areas.push_back({f.id, AreaKind::kTown, Polygon{f.points}}); break;
      case TerrainKind::kMarsh: areas.push_back({f.id, AreaKind::kMarsh, Polygon{f.points}}); break;
      case TerrainKind::kRough: areas.push_back({f.id, AreaKind::kRough, Polygon{f.points}}); break;
      case TerrainKind::kBridge:
      case TerrainKind::kFord: {
        const Feature* crossed = nullptr;
        for (const auto& g : features) {
          if (g.id == f.crosses) crossed = &g;
        }
        crossings.push_back({f.id, f.kind == TerrainKind::kBridge ? CrossingKind::kBridge : CrossingKind::kFord,
                             f.crosses, crossing_rect(f, crossed, sizes).polygon()});
        break;
      }
      default:
        if (is_linear(f.kind)) {
          linears.push_back({f.id, linear_kind(f.kind), Polyline{f.points}, linear_width(f, sizes), f.major,
                             f.impassable});
        }
        break;
    }
  }
  return TerrainMap(std::move(hills), std::move(areas), std::move(linears), std::move(crossings));
}

void terrain_view(TerrainView& t, const Feature& f, const std::vector<Feature>& all, const FeatureSizes& sizes) {
  t.id = f.id;
  t.kind = f.kind;
  t.name = f.name;
  t.closed = f.closed;
  t.elevation = f.elevation;
  t.steep = f.steep;
  t.major = f.major;
  if (f.kind == TerrainKind::kBridge || f.kind == TerrainKind::kFord) {
    const Feature* crossed = nullptr;
    for (const auto& g : all) {
      if (g.id == f.crosses) crossed = &g;
    }
    const auto corners = crossing_rect(f, crossed, sizes).corners();
    t.outline.assign(corners.begin(), corners.end());
    t.closed = true;
  } else {
    t.outline = f.points;
  }
}

void hash_features(Hasher& h, const std::vector<Feature>& features) {
  h.u64(features.size());
  for (const auto& f : features) {
    h.str(f.id);
    h.u32(static_cast<std::uint32_t>(f.kind));
    h.u64(f.points.size());
    for (Vec2 p : f.points) h.vec(p);
    h.boolean(f.closed);
    h.real(f.elevation);
    h.boolean(f.steep);
    h.boolean(f.significantly_high);
    h.boolean(f.major);
    h.boolean(f.impassable);
    h.real(f.width);
    h.str(f.crosses);
  }
}

// ---- Checks ----

namespace {

FieldPath at(FieldPath p, std::string field, int index = -1) {
  p.push_back({std::move(field), index});
  return p;
}

FieldPath with_index(FieldPath p, std::size_t index) {
  p.back().index = static_cast<int>(index);
  return p;
}

std::string quoted(std::string_view s) { return "\"" + std::string(s) + "\""; }

std::string_view shape_field(TerrainShape shape) {
  switch (shape) {
    case TerrainShape::kHill: return "hill";
    case TerrainShape::kArea: return "area";
    case TerrainShape::kLinear: return "linear";
    case TerrainShape::kCrossing: return "crossing";
    case TerrainShape::kNone: break;
  }
  return "";
}

class TerrainChecker {
 public:
  explicit TerrainChecker(const std::vector<TerrainSpec>& terrain) : terrain_(terrain) {}

  std::vector<SpecProblem> run() {
    for (std::size_t i = 0; i < terrain_.size(); ++i) feature(terrain_[i], at({}, "terrain", static_cast<int>(i)));
    return std::move(out_);
  }

 private:
  void problem(FieldPath where, std::string message) { out_.push_back({std::move(where), std::move(message)}); }

  void feature(const TerrainSpec& t, const FieldPath& tp) {
    const std::string label = "terrain feature " + quoted(t.id);
    if (t.shape == TerrainShape::kNone) {
      problem(tp, label + " has none of hill, area, linear or crossing");
      return;
    }
    const FieldPath sp = at(tp, std::string(shape_field(t.shape)));
    switch (t.shape) {
      case TerrainShape::kHill:
        if (!t.steep) problem(at(sp, "slope"), label + ": slope is missing (SLOPE_GENTLE or SLOPE_STEEP)");
        if (t.elevation < 0) problem(at(sp, "elevation"), label + ": elevation may not be negative");
        outline(t, at(sp, "outline"), label);
        break;
      case TerrainShape::kArea:
        if (!t.kind) problem(at(sp, "kind"), label + ": kind is missing (AREA_KIND_WOOD, _TOWN, _MARSH or _ROUGH)");
        outline(t, at(sp, "outline"), label);
        break;
      case TerrainShape::kLinear:
        if (!t.kind) problem(at(sp, "kind"), label + ": kind is missing (LINEAR_KIND_STREAM, _ROAD, ...)");
        if (t.points.size() < 2) {
          problem(at(sp, "path"), label + ": a path needs at least 2 points, found " + std::to_string(t.points.size()));
        }
        if (t.width < 0) problem(at(sp, "width"), label + ": width may not be negative");
        break;
      case TerrainShape::kCrossing:
        crossing(t, sp, label);
        break;
      case TerrainShape::kNone: break;
    }
  }

  void crossing(const TerrainSpec& t, const FieldPath& sp, const std::string& label) {
    if (!t.kind) problem(at(sp, "kind"), label + ": kind is missing (CROSSING_KIND_BRIDGE or _FORD)");
    if (t.points.empty()) problem(at(sp, "at"), label + ": at is missing: where the crossing is");
    if (t.width < 0) problem(at(sp, "width"), label + ": width may not be negative");
    if (t.crosses.empty()) {
      problem(at(sp, "crosses"), label + ": crosses is missing: the id of the stream, river or obstacle it crosses");
      return;
    }
    const TerrainSpec* crossed = nullptr;
    for (const auto& other : terrain_) {
      if (other.id == t.crosses) crossed = &other;
    }
    if (crossed == nullptr) {
      problem(at(sp, "crosses"), label + ": crosses " + quoted(t.crosses) + ", which is not a terrain feature");
    } else if (crossed->shape != TerrainShape::kLinear || crossed->kind == TerrainKind::kRoad) {
      problem(at(sp, "crosses"), label + ": crosses " + quoted(t.crosses) +
                                     ", which is not a stream, river or other linear obstacle");
    }
  }

  void outline(const TerrainSpec& t, const FieldPath& op, const std::string& label) {
    const std::size_t n = t.points.size();
    if (n < 3) {
      problem(op, label + ": an outline needs at least 3 points, found " + std::to_string(n));
      return;
    }
    // Self-intersection: any two edges that are not neighbours meet. O(n^2),
    // fine for hand-drawn outlines.
    const Polygon poly{t.points};
    for (std::size_t i = 0; i < n; ++i) {
      for (std::size_t j = i + 1; j < n; ++j) {
        const bool neighbours = j == i + 1 || (i == 0 && j == n - 1);
        if (neighbours) {
          // Neighbours share a vertex; they may only meet there. A fold-back
          // (the next edge running back along this one) is a crossing too.
          const Segment a = poly.edge(i);
          const Segment b = poly.edge(j);
          const Vec2 shared = (j == i + 1) ? a.b : a.a;
          const Vec2 da = (j == i + 1) ? a.a - shared : a.b - shared;
          const Vec2 db = (j == i + 1) ? b.b - shared : b.a - shared;
          if (std::abs(cross(da, db)) <= kGeomEpsilon * (length(da) + length(db)) && dot(da, db) > 0) {
            const std::size_t vertex = j == i + 1 ? j : i;
            problem(with_index(op, vertex), label + ": outline folds back on itself at point " + std::to_string(vertex + 1));
            return;
          }
          continue;
        }
        if (segments_intersect(poly.edge(i), poly.edge(j))) {
          problem(with_index(op, j), label + ": outline crosses itself (edge " + std::to_string(i + 1) +
                                         " meets edge " + std::to_string(j + 1) + ")");
          return;
        }
      }
    }
    if (poly.area() <= kGeomEpsilon) problem(op, label + ": outline encloses no area");
  }

  const std::vector<TerrainSpec>& terrain_;
  std::vector<SpecProblem> out_;
};

}  // namespace

std::vector<SpecProblem> check_terrain(const std::vector<TerrainSpec>& terrain) { return TerrainChecker(terrain).run(); }

}  // namespace galloper::rules
