#pragma once
// Pieces of CF&EO scenarios for the engine's tests, built in C++ (the
// scenario file's own reading is tested in tests/codec/cfeo_scenario_test).
#include <string>
#include <utility>
#include <vector>

#include "rules/cfeo/scenario.hpp"

namespace galloper::rules::cfeo::specs {

inline LeaderSpec leader(std::string id, Vec2 at, double facing = 0) {
  LeaderSpec l;
  l.id = std::move(id);
  l.position = at;
  l.facing = facing;
  return l;
}

// A C-grade unit in line.
inline UnitSpec unit(std::string id, Arm arm, std::uint32_t bases, Vec2 at, double facing) {
  UnitSpec u;
  u.id = std::move(id);
  u.arm = arm;
  u.grade = Grade::kC;
  u.bases = bases;
  u.formation = Formation::kLine;
  u.position = at;
  u.facing = facing;
  return u;
}

inline TerrainSpec terrain(std::string id, TerrainShape shape, TerrainKind kind, std::vector<Vec2> points) {
  TerrainSpec t;
  t.id = std::move(id);
  t.shape = shape;
  t.kind = kind;
  t.points = std::move(points);
  return t;
}

inline GunSpec gun(std::string id, GunType type, Vec2 at, double facing) {
  GunSpec g;
  g.id = std::move(id);
  g.type = type;
  g.position = at;
  g.facing = facing;
  return g;
}

// Two sides on a 2,000-yard table: "blue" (the attacker, its commanders at
// the south edge) and "red" (at the north), each a marshal, one wing "w"
// under a general and one brigade "<side>_b" of the units and guns given.
// Tests set the turn limit, objectives and break percentages they need.
// No control tests: the commanders stand far from their troops, and the
// command phase's tests (command_test.cpp) turn them on.
inline ScenarioSpec two_sides(std::vector<UnitSpec> blue, std::vector<UnitSpec> red, std::vector<GunSpec> blue_guns = {},
                              std::vector<GunSpec> red_guns = {}) {
  ScenarioSpec s;
  s.name = "test";
  s.table_width = 2000;
  s.table_depth = 2000;
  s.turn_limit = 3;
  s.attacker = "blue";
  s.no_control_tests = true;
  for (const std::string side : {"blue", "red"}) {
    const bool is_blue = side == "blue";
    const double y = is_blue ? 50.0 : 1950.0;
    SideSpec a;
    a.id = side;
    a.name = is_blue ? "Blue" : "Red";
    a.marshal = leader(side + "_m", {100, y});
    WingSpec w;
    w.id = "w";
    w.general = leader(side + "_g", {200, y});
    BrigadeSpec b;
    b.id = side + "_b";
    b.brigadier = leader(side + "_bde", {300, y});
    b.units = is_blue ? blue : red;
    b.guns = is_blue ? blue_guns : red_guns;
    w.brigades.push_back(b);
    a.wings.push_back(w);
    s.sides.push_back(a);
  }
  return s;
}

}  // namespace galloper::rules::cfeo::specs
