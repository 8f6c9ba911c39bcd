#pragma once
// Helpers for the combat-phase tests (charge_test, combat_test,
// combat_stats_test, combat_odds_test): tiny_state() cleared to the brigades
// a test places, in the combat phase.
#include <string>
#include <vector>

#include "rules/malbrook/combat.hpp"
#include "rules/malbrook/state.hpp"
#include "tests/rules/malbrook/test_state.hpp"

namespace galloper::rules::malbrook::test {

// A brigade of "fr" (wing left, command c1) or "al" (wing right, command c3).
inline Brigade unit(std::string id, std::string army, TroopType type, Vec2 at, double facing, std::uint32_t bases = 4) {
  const bool fr = army == "fr";
  Brigade b = make_brigade(std::move(id), army, fr ? "left" : "right", fr ? "c1" : "c3", at, facing);
  b.type = type;
  b.bases = bases;
  if (always_unformed(type)) b.formation = Formation::kUnformed;
  return b;
}

// tiny_state() with only `brigades`, in the combat phase of turn 1, "fr" first.
inline GameState combat_state(std::vector<Brigade> brigades) {
  GameState s = tiny_state();
  s.brigades = std::move(brigades);
  s.phase = Phase::kCombat;
  s.half = 0;
  for (auto& b : s.brigades) b.control = ControlResult::kAsWished;
  return s;
}

inline const CombatBrigade* part(const CombatSide& side, std::string_view id) {
  for (const auto& p : side.parts) {
    if (p.brigade == id) return &p;
  }
  return nullptr;
}

inline int modifier(const CombatSide& side, std::string_view why) {
  int t = 0;
  for (const auto& m : side.modifiers) {
    if (m.why == why) t += m.dice;
  }
  return t;
}

}  // namespace galloper::rules::malbrook::test
