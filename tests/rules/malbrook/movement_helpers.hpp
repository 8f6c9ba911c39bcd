#pragma once
// Helpers for the movement-phase tests: a state in the movement phase, the
// two sub-steps driven with FixedDice, order-step builders, and a random
// legal-move generator (the movement "bot") for property tests and the
// full-game bot.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "rules/core/dice.hpp"
#include "rules/malbrook/movement.hpp"
#include "tests/rules/malbrook/test_state.hpp"

namespace galloper::rules::malbrook::test {

// tiny_state() in the movement phase, "fr" acting (half 0).
inline GameState movement_state() {
  GameState s = tiny_state();
  s.phase = Phase::kMovement;
  s.half = 0;
  return s;
}

inline OrderStep fwd(double d, double deviation = 0) {
  OrderStep s;
  s.action = "forward";
  s.distance = d;
  s.angle_deg = deviation;
  return s;
}
inline OrderStep wheel_step(double angle_cw, std::string pivot) {
  OrderStep s;
  s.action = "wheel";
  s.angle_deg = angle_cw;
  s.pivot = std::move(pivot);
  return s;
}
inline OrderStep formation_step(std::string f, double turn = 0) {
  OrderStep s;
  s.action = "formation";
  s.formation = std::move(f);
  s.angle_deg = turn;
  return s;
}
inline OrderStep step_of(std::string action, double distance = 0, std::string pivot = "") {
  OrderStep s;
  s.action = std::move(action);
  s.distance = distance;
  s.pivot = std::move(pivot);
  return s;
}

inline const Decision* find_pending(const std::vector<Decision>& ds, std::string_view id) {
  for (const auto& d : ds) {
    if (d.id == id) return &d;
  }
  return nullptr;
}

// A copy of the pending decision `id` (nullopt if none is pending).
inline std::optional<Decision> pending_decision(const GameState& s, std::string_view id) {
  const auto ds = movement_pending(s);
  if (const Decision* d = find_pending(ds, id)) return *d;
  return std::nullopt;
}

// Declares `options` (decision id "dice/<unit>" -> option; others default),
// with objective halts for `objective` units, rolling `faces`.
inline Verdict declare(GameState& s, const std::map<std::string, std::string>& options, std::vector<int> faces,
                       std::vector<Event>* events_out = nullptr, const std::vector<std::string>& objective = {}) {
  std::vector<Answer> answers;
  for (const auto& d : movement_pending(s)) {
    Answer a = option_answer(d.id, d.seat, d.default_option);
    const std::string unit = d.id.substr(d.id.find('/') + 1);
    if (auto it = options.find(unit); it != options.end()) a.option = it->second;
    for (const auto& o : objective) {
      if (o == unit) a.steps.push_back(act("objective"));
    }
    answers.push_back(std::move(a));
  }
  FixedDice dice(std::move(faces));
  std::vector<Event> events;
  GameState next = s;
  auto v = movement_resolve(next, answers, dice, events);
  if (v) s = std::move(next);
  if (events_out) *events_out = std::move(events);
  return v;
}

// Executes the orders (unit -> steps; leader id -> steps for leaders).
inline Verdict execute(GameState& s, const std::map<std::string, std::vector<OrderStep>>& orders,
                       std::vector<Event>* events_out = nullptr) {
  std::vector<Answer> answers;
  for (const auto& d : movement_pending(s)) {
    Answer a = option_answer(d.id, d.seat, d.default_option);
    const std::string unit = d.id.substr(d.id.find('/') + 1);
    if (auto it = orders.find(unit); it != orders.end()) {
      a.steps = it->second;
      a.option.clear();
    }
    answers.push_back(std::move(a));
  }
  FixedDice dice(std::vector<int>{});
  std::vector<Event> events;
  GameState next = s;
  auto v = movement_resolve(next, answers, dice, events);
  if (v) s = std::move(next);
  if (events_out) *events_out = std::move(events);
  return v;
}

inline double allowance_of(const GameState& s, std::string_view unit) {
  for (const auto& d : s.movement.declarations) {
    if (d.unit == unit) return d.allowance;
  }
  return -1;
}

}  // namespace galloper::rules::malbrook::test
