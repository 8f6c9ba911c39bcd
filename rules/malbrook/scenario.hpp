#pragma once
// A Malbrook scenario as written in a scenario file, in plain C++.
//
// The codec (proto/codec) fills a ScenarioSpec from the text format; this
// library checks it (check.hpp) and builds the initial GameState (setup.hpp).
// The spec keeps what the author wrote, including what they left out
// (std::nullopt for an unspecified enum or an absent message), so the checks
// can say exactly what is missing.
//
// Problems carry a FieldPath (rules/core/ruleset.hpp): the chain of
// scenario-file field names and repeated-field indices that leads to the
// offending field, e.g.
// {{"armies",0},{"wings",1},{"commands",0},{"brigades",2},{"bases",-1}}.
// The codec turns a path into a line:column; when the field itself is absent
// from the file it points at the nearest enclosing element that is present.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rules/core/features.hpp"
#include "rules/core/game.hpp"
#include "rules/core/ruleset.hpp"
#include "rules/core/scenario_header.hpp"
#include "rules/core/vec2.hpp"
#include "rules/malbrook/types.hpp"

namespace galloper::rules::malbrook {

using rules::FieldPath;
using rules::PathStep;
using rules::SpecProblem;

// The terrain as written: shared by every ruleset (rules/core/features.hpp).
using rules::TerrainShape;
using rules::TerrainSpec;

struct LeaderSpec {
  std::string id;
  std::string name;
  std::optional<Vec2> position;  // middle of the front edge of the stand
  double facing = 0;
  int action_modifier = 0;
  bool exceptional = false;
  std::string attached_to;
  std::uint32_t wounds = 0;
};

struct BrigadeSpec {
  std::string id;
  std::string name;
  std::optional<TroopType> type;
  std::optional<Grade> grade;
  std::optional<FightingStyle> style;  // nullopt: the army's style
  std::uint32_t bases = 0;
  std::optional<Formation> formation;
  std::optional<Vec2> position;
  double facing = 0;
  std::uint32_t dps = 0;
  bool a_outrance = false;
  std::optional<Vec2> horse_holders;
};

struct GunSpec {
  std::string id;
  std::string name;
  std::optional<GunWeight> weight;
  bool limbered = false;
  std::optional<Vec2> position;
  double facing = 0;
  std::uint32_t dps = 0;
};

struct CommandSpec {
  std::string id;
  std::string name;
  std::optional<LeaderSpec> major_general;
  std::vector<BrigadeSpec> brigades;
  std::vector<GunSpec> guns;
};

struct OrdersSpec {
  std::optional<WingOrder> order;
  std::optional<Vec2> objective;
  std::string objective_feature;
};

struct WingSpec {
  std::string id;
  std::string name;
  std::optional<LeaderSpec> lieutenant_general;
  std::optional<OrdersSpec> orders;
  std::vector<CommandSpec> commands;
  std::vector<GunSpec> guns;
};

struct ArmySpec {
  std::string id;
  std::string name;
  std::optional<FightingStyle> style;
  std::vector<LeaderSpec> marshals;
  std::vector<WingSpec> wings;
  std::vector<GunSpec> guns;
  std::uint32_t break_percent = 0;
};

using rules::ObjectiveSpec;

struct ScenarioSpec {
  std::string name;
  std::string title;
  std::string description;
  std::string ruleset;
  double table_width = 0;
  double table_depth = 0;
  std::vector<TerrainSpec> terrain;
  std::vector<ArmySpec> armies;
  std::string attacker;
  std::uint32_t turn_limit = 0;
  std::vector<ObjectiveSpec> objectives;
  std::string victory_description;
};

}  // namespace galloper::rules::malbrook
