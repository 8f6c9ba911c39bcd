#pragma once
// A scenario's terrain features, shared by every ruleset: as the author wrote
// them (TerrainSpec, with what was left out), as a game keeps them
// (Feature: what views show and state hashes cover), their checks, and the
// core TerrainMap built from them for sight and movement.
//
// Sizes an author may leave out (a road's width, a bridge's) are in table
// units, so each ruleset gives its own (FeatureSizes): Malbrook's are in
// inches, Close Fire & European Order's in yards.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rules/core/game.hpp"
#include "rules/core/geometry.hpp"
#include "rules/core/hasher.hpp"
#include "rules/core/ruleset.hpp"
#include "rules/core/terrain.hpp"
#include "rules/core/vec2.hpp"

namespace galloper::rules {

// Which sub-message of a scenario's TerrainFeature was given.
enum class TerrainShape : std::uint8_t { kNone, kHill, kArea, kLinear, kCrossing };

// A terrain feature as written in a scenario file (scenario_terrain.proto).
struct TerrainSpec {
  std::string id;
  std::string name;
  TerrainShape shape = TerrainShape::kNone;
  std::optional<TerrainKind> kind;  // nullopt: kind unspecified
  std::vector<Vec2> points;         // hill/area outline, linear path, or {crossing at}
  // hills
  std::optional<bool> steep;        // nullopt: slope unspecified
  double elevation = 0;
  bool significantly_high = false;
  // linear features
  bool major = false;
  bool impassable = false;
  // linear features and crossings
  double width = 0;
  std::string crosses;
};

// A terrain feature as a game keeps it: what views show and the hash
// covers. The core TerrainMap (for sight and movement) is built from these.
struct Feature {
  std::string id;
  std::string name;
  TerrainKind kind = TerrainKind::kRough;
  std::vector<Vec2> points;  // area/hill outline, linear path, crossing point
  bool closed = false;
  double elevation = 0;
  bool steep = false;
  bool significantly_high = false;
  bool major = false;
  bool impassable = false;
  double width = 0;          // linear features and crossings (0: the kind's default)
  std::string crosses;       // crossings: the feature crossed

  friend bool operator==(const Feature&, const Feature&) = default;
};

// The widths a feature has when its author gave none, in table units.
struct FeatureSizes {
  double river = 0;
  double road = 0;
  double stream = 0;
  double obstacle = 0;        // hedges, walls, ditches, fieldworks...
  double crossing = 0;        // a bridge's or ford's width along the feature crossed
  double crossing_bank = 0;   // how far a crossing reaches onto each bank
};

// A spec the checks passed, as the game keeps it (unspecified kind: rough;
// a hill without elevation: 1).
Feature feature_of(const TerrainSpec& spec);

// A linear feature's drawn width: as given, else the kind's default.
double linear_width(const Feature& f, const FeatureSizes& sizes);
// A bridge's or ford's footprint: its width along the feature it crosses,
// reaching `crossing_bank` onto each bank.
OrientedRect crossing_rect(const Feature& crossing, const Feature* crossed, const FeatureSizes& sizes);
// The core terrain model of the features (hills, woods, towns... for sight).
TerrainMap make_terrain_map(const std::vector<Feature>& features, const FeatureSizes& sizes);

// The feature as views show it, filled into `t` (its vectors' memory kept):
// a crossing's footprint as its outline; `all` the state's features.
void terrain_view(TerrainView& t, const Feature& f, const std::vector<Feature>& all, const FeatureSizes& sizes);

// The features into a state hash (rules/core/hasher.hpp).
void hash_features(Hasher& h, const std::vector<Feature>& features);

// Every problem in the scenario's `terrain` list: a missing shape, kind or
// slope, outlines that are too short, cross themselves or enclose nothing,
// crossings of what is not a linear obstacle. Paths start at "terrain".
// (Ids are each ruleset's check: they must be unique across its scenario.)
std::vector<SpecProblem> check_terrain(const std::vector<TerrainSpec>& terrain);

}  // namespace galloper::rules
