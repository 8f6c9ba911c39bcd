#pragma once
// The terrain of a table: hills, areas, linear features and crossings, with
// the queries every ruleset asks. Built once per scenario (immutable after
// construction), indexed by a uniform grid so queries touch only nearby
// features. Distances are table units; every threshold is a parameter.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rules/core/geometry.hpp"

namespace galloper::rules {

// A hill is a plateau: every point inside its outline stands at `elevation`
// (stacked hills model contours: the highest containing hill wins).
struct Hill {
  std::string id;
  Polygon outline;
  double elevation = 1;
  bool steep = false;               // steep slopes (rulesets may treat as rough)
  bool significantly_high = false;  // observers on it see over woods, towns, smoke
};

enum class AreaKind : std::uint8_t {
  kWood,   // blocks sight; rough
  kTown,   // built-up area; blocks sight; rough
  kMarsh,  // marsh, swamp, bog; rough; does not block sight
  kRough,  // other rough ground; does not block sight
};

struct Area {
  std::string id;
  AreaKind kind = AreaKind::kRough;
  Polygon outline;
  // Woods and towns are "cover": they block sight and limit it inside.
  bool blocks_sight() const { return kind == AreaKind::kWood || kind == AreaKind::kTown; }
};

enum class LinearKind : std::uint8_t {
  kStream, kRiver, kHedge, kWall, kDitch, kFortification, kFieldworks, kChevauxDeFrise, kRoad,
};

struct Linear {
  std::string id;
  LinearKind kind = LinearKind::kStream;
  Polyline path;
  double width = 0;         // drawn width; roads: a point within width/2 is on the road
  bool major = false;       // major obstacle (Malbrook: 1/2 move and DPs to cross); major river
  bool impassable = false;  // cannot be crossed except at a crossing
  bool is_obstacle() const { return kind != LinearKind::kRoad; }
};

enum class CrossingKind : std::uint8_t { kBridge, kFord };

// A bridge or ford: where a path may cross `linear_id` (e.g. an impassable
// river). The footprint should be convex (a rectangle across the feature).
struct Crossing {
  std::string id;
  CrossingKind kind = CrossingKind::kBridge;
  std::string linear_id;
  Polygon footprint;
};

// One linear feature crossed by a segment or a swept area.
struct ObstacleCrossing {
  const Linear* feature = nullptr;
  // Where the crossing starts: for a segment query the first point of the
  // segment on the feature; for an area query the first point of the feature
  // (in path order) inside the area.
  Vec2 point;
  // The bridge/ford the crossing uses: every part of the feature inside the
  // query shape lies within this crossing's footprint. nullptr if none.
  const Crossing* via = nullptr;
};

// Immutable once built: copies share one set of features and grids (a
// game's state is copied many times a step; its terrain never changes), so
// a copy costs a reference count, and a feature's address (the pointers the
// queries below return) stays valid in every copy.
class TerrainMap {
 public:
  TerrainMap();
  // cell_size: grid cell edge in table units; 0 picks one from the extent.
  TerrainMap(std::vector<Hill> hills, std::vector<Area> areas, std::vector<Linear> linears,
             std::vector<Crossing> crossings, double cell_size = 0);
  TerrainMap(const TerrainMap&) = default;
  TerrainMap& operator=(const TerrainMap&) = default;
  // A move shares too: a moved-from map still holds the same terrain, never none.
  TerrainMap(TerrainMap&& other) noexcept : d_(other.d_) {}
  TerrainMap& operator=(TerrainMap&& other) noexcept {
    d_ = other.d_;
    return *this;
  }

  const std::vector<Hill>& hills() const { return d_->hills_; }
  const std::vector<Area>& areas() const { return d_->areas_; }
  const std::vector<Linear>& linears() const { return d_->linears_; }
  const std::vector<Crossing>& crossings() const { return d_->crossings_; }

  // ---- Hills ----
  // The highest hill containing p (boundary included); plain ground is 0.
  double elevation_at(Vec2 p) const;
  const Hill* top_hill_at(Vec2 p) const;  // nullptr on the plain
  // Hills whose outline intersects the footprint.
  std::vector<const Hill*> hills_overlapping(const Polygon& footprint) const;

  // ---- Areas ----
  std::vector<const Area*> areas_at(Vec2 p) const;
  bool area_at(Vec2 p, AreaKind kind) const;
  // Areas whose interior the footprint enters (merely touching the outline
  // does not count).
  std::vector<const Area*> areas_overlapping(const Polygon& footprint) const;
  std::vector<const Area*> areas_overlapping(const OrientedRect& r) const;
  // Any part of the footprint in a wood, town, marsh or rough area, or (when
  // steep_hills_rough) on a steep hill. Touching an outline does not count.
  bool is_rough(const Polygon& footprint, bool steep_hills_rough = false) const;
  bool is_rough(const OrientedRect& r, bool steep_hills_rough = false) const;
  // Wholly inside an area of that kind (boundary included).
  const Area* inside_area(const Polygon& footprint, AreaKind kind) const;
  // "At the edge of" a wood or town: the footprint enters the area and some
  // part of it lies within `edge_depth` of the area's outline (a footprint
  // straddling the outline is at the edge). Returns the area, or nullptr.
  const Area* at_edge_of(const Polygon& footprint, AreaKind kind, double edge_depth) const;
  const Area* at_edge_of(const OrientedRect& r, AreaKind kind, double edge_depth) const;

  // ---- Linear features ----
  // Obstacles (every linear kind except roads) the closed segment touches or
  // crosses, in order along the segment.
  std::vector<ObstacleCrossing> obstacles_crossed(const Segment& path) const;
  // Obstacles any part of which lies in the area (e.g. a straight sweep or the
  // outline of a wheel), in feature order.
  std::vector<ObstacleCrossing> obstacles_crossed(const Polygon& swept) const;
  std::vector<ObstacleCrossing> obstacles_crossed(const WheelSweep& swept) const;

  // ---- Roads ----
  // p lies within width/2 + tolerance of a road's centre line.
  bool on_road(Vec2 p, double tolerance = 0) const;
  const Linear* road_at(Vec2 p, double tolerance = 0) const;
  // Distance from p to the nearest road centre line (infinity if no road).
  double distance_to_road(Vec2 p) const;

  // ---- Broad phase for other modules (visibility) ----
  // Indices into hills()/areas()/linears() whose bounds meet the box.
  void hills_near(const Aabb& box, std::vector<std::uint32_t>& out) const;
  void areas_near(const Aabb& box, std::vector<std::uint32_t>& out) const;
  void linears_near(const Aabb& box, std::vector<std::uint32_t>& out) const;

 private:
  struct Grid {
    Vec2 origin;
    double cell = 1;
    int nx = 0;
    int ny = 0;
    std::vector<std::vector<std::uint32_t>> cells;  // feature indices per cell
    void build(const std::vector<Aabb>& boxes, Vec2 origin, double cell, int nx, int ny);
    void query(const Aabb& box, const std::vector<Aabb>& boxes, std::vector<std::uint32_t>& out) const;
  };
  struct Data {
    std::vector<Hill> hills_;
    std::vector<Area> areas_;
    std::vector<Linear> linears_;
    std::vector<Crossing> crossings_;
    std::vector<Aabb> hill_boxes_;
    std::vector<Aabb> area_boxes_;
    std::vector<Aabb> linear_boxes_;
    Grid hill_grid_;
    Grid area_grid_;
    Grid linear_grid_;
  };
  std::shared_ptr<const Data> d_;  // never null
  const Crossing* crossing_covering(const Linear& l, const std::vector<Segment>& pieces) const;
};

}  // namespace galloper::rules
