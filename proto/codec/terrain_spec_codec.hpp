#pragma once
// A scenario file's terrain (scenario_terrain.proto) read into the rules'
// plain TerrainSpec (rules/core/features.hpp), keeping what the author left
// out so the checks can name it. Every ruleset's scenario reader uses it.
#include <optional>

#include "rules/core/features.hpp"
#include "rules/core/vec2.hpp"

namespace galloper::v1::scenario {
class TerrainFeature;
class Vec;
}  // namespace galloper::v1::scenario

namespace galloper::codec {

rules::Vec2 vec_of(const v1::scenario::Vec& v);
// The point, or nullopt when the field is absent.
std::optional<rules::Vec2> vec_of(bool has, const v1::scenario::Vec& v);

rules::TerrainSpec terrain_spec(const v1::scenario::TerrainFeature& feature);

}  // namespace galloper::codec
