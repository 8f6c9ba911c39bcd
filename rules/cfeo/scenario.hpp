#pragma once
// A Close Fire & European Order scenario as written in a scenario file, in
// plain C++: the common header (scenario.proto) and the `cfeo` forces
// (scenario_cfeo.proto). The codec (rules/cfeo/codec) fills it; check.hpp
// checks it; setup.hpp builds the initial state. What the author left out
// is kept (std::nullopt) so the checks can say what is missing.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rules/cfeo/types.hpp"
#include "rules/core/features.hpp"
#include "rules/core/scenario_header.hpp"
#include "rules/core/vec2.hpp"

namespace galloper::rules::cfeo {

struct LeaderSpec {
  std::string id;
  std::string name;
  std::optional<Vec2> position;
  double facing = 0;
  int action_modifier = 0;
  std::string attached_to;
  std::uint32_t wounds = 0;
};

struct UnitSpec {
  std::string id;
  std::string name;
  std::optional<Arm> arm;
  std::optional<Grade> grade;
  std::uint32_t bases = 0;
  std::optional<Formation> formation;
  std::optional<Vec2> position;
  double facing = 0;
  std::uint32_t dps = 0;
  std::uint32_t pike_bases = 0;
  bool skirmishers = false;
  bool platoon_fire = false;
  std::optional<CavalryStyle> style;  // nullopt: the side's
  bool a_outrance = false;
  std::uint32_t ranks = 0;
};

struct GunSpec {
  std::string id;
  std::string name;
  std::optional<GunType> type;
  bool limbered = false;
  std::optional<Vec2> position;
  double facing = 0;
  std::uint32_t dps = 0;
  std::string with_unit;
};

struct BrigadeSpec {
  std::string id;
  std::string name;
  std::optional<LeaderSpec> brigadier;
  std::vector<UnitSpec> units;
  std::vector<GunSpec> guns;
};

struct WingSpec {
  std::string id;
  std::string name;
  std::optional<LeaderSpec> general;
  std::vector<BrigadeSpec> brigades;
  std::vector<GunSpec> guns;
};

struct SideSpec {
  std::string id;
  std::string name;
  std::optional<CavalryStyle> style;
  std::optional<LeaderSpec> marshal;
  std::vector<WingSpec> wings;
  std::vector<GunSpec> guns;
  std::uint32_t break_percent = 0;
};

using rules::ObjectiveSpec;

struct ScenarioSpec {
  std::string name;
  std::string title;
  std::string description;
  double table_width = 0;  // yards (RULINGS F1)
  double table_depth = 0;
  std::vector<TerrainSpec> terrain;
  std::vector<SideSpec> sides;
  std::string attacker;
  std::uint32_t turn_limit = 0;
  std::vector<ObjectiveSpec> objectives;
  std::string victory_description;
  bool no_control_tests = false;  // the umpire's call: every unit under command (RULINGS K4)
};

}  // namespace galloper::rules::cfeo
