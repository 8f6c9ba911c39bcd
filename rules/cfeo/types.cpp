#include "rules/cfeo/types.hpp"

#include <cmath>

namespace galloper::rules::cfeo {

std::string_view to_string(Arm a) {
  switch (a) {
    case Arm::kFoot: return "foot";
    case Arm::kHorse: return "horse";
    case Arm::kDragoons: return "dragoons";
    case Arm::kDismountedDragoons: return "dismounted dragoons";
  }
  return "foot";
}

std::string_view to_string(Grade g) {
  switch (g) {
    case Grade::kA: return "A";
    case Grade::kB: return "B";
    case Grade::kC: return "C";
    case Grade::kD: return "D";
    case Grade::kE: return "E";
  }
  return "C";
}

std::string_view to_string(Formation f) {
  switch (f) {
    case Formation::kLine: return "line";
    case Formation::kAssaultColumn: return "assault column";
    case Formation::kMarchColumn: return "march column";
    case Formation::kUnformed: return "unformed";
  }
  return "line";
}

std::string_view to_string(CavalryStyle s) { return s == CavalryStyle::kNew ? "new" : "traditional"; }

std::string_view to_string(GunType t) {
  switch (t) {
    case GunType::kHeavy: return "heavy gun";
    case GunType::kField: return "field gun";
    case GunType::kBattalion: return "battalion gun";
  }
  return "field gun";
}

std::string_view to_string(LeaderRank r) {
  switch (r) {
    case LeaderRank::kMarshal: return "marshal";
    case LeaderRank::kGeneral: return "general";
    case LeaderRank::kBrigadier: return "brigadier";
  }
  return "brigadier";
}

std::optional<Formation> formation_named(std::string_view key) {
  for (Formation f : {Formation::kLine, Formation::kAssaultColumn, Formation::kMarchColumn, Formation::kUnformed}) {
    if (to_string(f) == key) return f;
  }
  return std::nullopt;
}

std::string yards(double y) { return std::to_string(static_cast<long>(std::lround(y))) + " yds"; }

}  // namespace galloper::rules::cfeo
