#include "codec/terrain_spec_codec.hpp"

#include "galloper/v1/scenario_terrain.pb.h"

namespace galloper::codec {

namespace {

namespace pb = galloper::v1::scenario;

std::optional<rules::TerrainKind> area_kind(pb::AreaKind k) {
  switch (k) {
    case pb::AREA_KIND_WOOD: return rules::TerrainKind::kWood;
    case pb::AREA_KIND_TOWN: return rules::TerrainKind::kTown;
    case pb::AREA_KIND_MARSH: return rules::TerrainKind::kMarsh;
    case pb::AREA_KIND_ROUGH: return rules::TerrainKind::kRough;
    default: return std::nullopt;
  }
}

std::optional<rules::TerrainKind> linear_kind(pb::LinearKind k) {
  switch (k) {
    case pb::LINEAR_KIND_STREAM: return rules::TerrainKind::kStream;
    case pb::LINEAR_KIND_RIVER: return rules::TerrainKind::kRiver;
    case pb::LINEAR_KIND_HEDGE: return rules::TerrainKind::kHedge;
    case pb::LINEAR_KIND_WALL: return rules::TerrainKind::kWall;
    case pb::LINEAR_KIND_DITCH: return rules::TerrainKind::kDitch;
    case pb::LINEAR_KIND_FORTIFICATION: return rules::TerrainKind::kFortification;
    case pb::LINEAR_KIND_FIELDWORKS: return rules::TerrainKind::kFieldworks;
    case pb::LINEAR_KIND_CHEVAUX_DE_FRISE: return rules::TerrainKind::kChevauxDeFrise;
    case pb::LINEAR_KIND_ROAD: return rules::TerrainKind::kRoad;
    default: return std::nullopt;
  }
}

std::optional<rules::TerrainKind> crossing_kind(pb::CrossingKind k) {
  switch (k) {
    case pb::CROSSING_KIND_BRIDGE: return rules::TerrainKind::kBridge;
    case pb::CROSSING_KIND_FORD: return rules::TerrainKind::kFord;
    default: return std::nullopt;
  }
}

}  // namespace

rules::Vec2 vec_of(const pb::Vec& v) { return {v.x(), v.y()}; }

std::optional<rules::Vec2> vec_of(bool has, const pb::Vec& v) {
  if (!has) return std::nullopt;
  return vec_of(v);
}

rules::TerrainSpec terrain_spec(const pb::TerrainFeature& t) {
  using rules::TerrainShape;
  rules::TerrainSpec s;
  s.id = t.id();
  s.name = t.name();
  switch (t.kind_case()) {
    case pb::TerrainFeature::kHill:
      s.shape = TerrainShape::kHill;
      s.kind = rules::TerrainKind::kHill;
      for (const auto& p : t.hill().outline()) s.points.push_back(vec_of(p));
      if (t.hill().slope() == pb::SLOPE_GENTLE) s.steep = false;
      if (t.hill().slope() == pb::SLOPE_STEEP) s.steep = true;
      s.elevation = t.hill().elevation();
      s.significantly_high = t.hill().significantly_high();
      break;
    case pb::TerrainFeature::kArea:
      s.shape = TerrainShape::kArea;
      s.kind = area_kind(t.area().kind());
      for (const auto& p : t.area().outline()) s.points.push_back(vec_of(p));
      break;
    case pb::TerrainFeature::kLinear:
      s.shape = TerrainShape::kLinear;
      s.kind = linear_kind(t.linear().kind());
      for (const auto& p : t.linear().path()) s.points.push_back(vec_of(p));
      s.major = t.linear().major();
      s.impassable = t.linear().impassable();
      s.width = t.linear().width();
      break;
    case pb::TerrainFeature::kCrossing:
      s.shape = TerrainShape::kCrossing;
      s.kind = crossing_kind(t.crossing().kind());
      if (t.crossing().has_at()) s.points.push_back(vec_of(t.crossing().at()));
      s.width = t.crossing().width();
      s.crosses = t.crossing().crosses();
      break;
    case pb::TerrainFeature::KIND_NOT_SET:
      break;
  }
  return s;
}

}  // namespace galloper::codec
