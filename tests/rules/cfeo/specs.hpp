#pragma once
// Pieces of CF&EO scenarios for the engine's tests, built in C++ (the
// scenario file's own reading is tested in tests/codec/cfeo_scenario_test).
#include <string>
#include <utility>

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

inline GunSpec gun(std::string id, GunType type, Vec2 at, double facing) {
  GunSpec g;
  g.id = std::move(id);
  g.type = type;
  g.position = at;
  g.facing = facing;
  return g;
}

}  // namespace galloper::rules::cfeo::specs
