#pragma once
// A small table for artillery, damage and leader tests, built on tiny_state():
//
//   fr_g1: a French medium gun at (30, 10) facing north (0), wing "left",
//          command c1, unlimbered. Its base covers x 29.25..30.75, y 8.5..10.
//   fr_b1: French foot line at (10, 10) facing north (far from everything).
//   al_b1: Allied 4-base foot line facing south, front edge at y = 10 + range,
//          centred on x = 30 (so its edge is `range` inches from the gun).
//   al_b2: Allied foot far off at (66, 40).
// Every leader stays on the base line (y 2 / 46), more than 4" from the gun:
// nothing is under control unless a test moves a leader. Phase: turn 1,
// bombardment, half 0, "fr" has initiative.
#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "rules/core/decision.hpp"
#include "rules/malbrook/state.hpp"
#include "tests/rules/malbrook/test_state.hpp"

namespace galloper::rules::malbrook::test {

inline Gun make_gun(std::string id, std::string army, std::string wing, std::string command, Vec2 at, double facing,
                    GunWeight weight = GunWeight::kMedium) {
  Gun g;
  g.id = id;
  g.name = id;
  g.army = std::move(army);
  g.wing = std::move(wing);
  g.command = std::move(command);
  g.weight = weight;
  g.position = at;
  g.facing_deg = facing;
  return g;
}

inline Gun& gun(GameState& s, std::string_view id) {
  for (auto& g : s.guns) {
    if (g.id == id) return g;
  }
  throw std::out_of_range(std::string(id));
}

// The Allied line's front edge `range` inches in front of the gun.
inline GameState gun_state(double range = 6.0) {
  GameState s = tiny_state();
  s.brigades = {
      make_brigade("fr_b1", "fr", "left", "c1", {10, 10}, 0),
      make_brigade("al_b1", "al", "right", "c3", {30, 10 + range}, 180),
      make_brigade("al_b2", "al", "right", "c3", {66, 40}, 180),
  };
  s.guns = {make_gun("fr_g1", "fr", "left", "c1", {30, 10}, 0)};
  s.phase = Phase::kBombardment;
  s.half = 0;
  s.initiative = "fr";
  return s;
}

inline const Decision* find_decision(const std::vector<Decision>& ds, std::string_view id) {
  for (const auto& d : ds) {
    if (d.id == id) return &d;
  }
  return nullptr;
}

inline std::vector<std::string> option_ids(const Decision& d) {
  std::vector<std::string> out;
  for (const auto& o : d.options) out.push_back(o.id);
  return out;
}

inline bool has_event(const std::vector<Event>& ev, std::string_view kind) {
  return std::any_of(ev.begin(), ev.end(), [&](const Event& e) { return e.kind == kind; });
}

// Answers every pending decision with its default, except those given.
inline std::vector<Answer> answers_with(const std::vector<Decision>& ds, std::vector<Answer> given) {
  std::vector<Answer> out = std::move(given);
  for (const auto& d : ds) {
    const bool answered =
        std::any_of(out.begin(), out.end(), [&](const Answer& a) { return a.decision_id == d.id; });
    if (!answered) out.push_back(option_answer(d.id, d.seat, d.default_option));
  }
  return out;
}

}  // namespace galloper::rules::malbrook::test
