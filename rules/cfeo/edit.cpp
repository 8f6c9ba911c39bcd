#include "rules/cfeo/edit.hpp"

#include <cmath>
#include <optional>
#include <string>

#include "rules/cfeo/basing.hpp"
#include "rules/cfeo/ruleset.hpp"
#include "rules/core/geometry.hpp"

namespace galloper::rules::cfeo {

namespace {

constexpr double kTolerance = 1e-6;
// The most DPs an umpire may set: beyond any the tables give in a turn.
constexpr std::int64_t kMaxDps = 20;

Unit* unit_in(GameState& s, std::string_view id) {
  for (auto& u : s.units) {
    if (u.id == id && !u.destroyed) return &u;
  }
  return nullptr;
}
Gun* gun_in(GameState& s, std::string_view id) {
  for (auto& g : s.guns) {
    if (g.id == id && !g.abandoned) return &g;
  }
  return nullptr;
}
Leader* leader_in(GameState& s, std::string_view id) {
  for (auto& l : s.leaders) {
    if (l.id == id && !l.killed) return &l;
  }
  return nullptr;
}

Rejection unknown(const StateEdit& e) {
  return reject("unknown_unit", "there is no unit, gun or leader \"" + e.subject + "\" on the table");
}
Rejection missing(const StateEdit& e, const std::string& field) {
  return reject("missing_field", "a \"" + e.kind + "\" edit needs " + field);
}

// On the table and, unless a leader's stand (`may_share`), on no other unit
// or gun.
std::optional<Rejection> placed_clear(const GameState& s, std::string_view self, const std::vector<OrientedRect>& rects,
                                      bool may_share = false) {
  for (const auto& r : rects) {
    for (Vec2 c : r.corners()) {
      if (c.x < -kTolerance || c.y < -kTolerance || c.x > s.table_width + kTolerance || c.y > s.table_depth + kTolerance) {
        return reject("off_table", std::string(self) + " would be off the table");
      }
    }
  }
  if (may_share) return std::nullopt;
  auto on = [&](const std::vector<OrientedRect>& other) {
    for (const auto& a : rects) {
      for (const auto& b : other) {
        if (overlaps(a, b, kTolerance)) return true;
      }
    }
    return false;
  };
  for (const Unit& u : s.units) {
    if (u.id != self && on(footprint(u))) return reject("overlap", std::string(self) + " would stand on " + u.id);
  }
  for (const Gun& g : s.guns) {
    if (g.id != self && !g.abandoned && on({footprint(g)})) return reject("overlap", std::string(self) + " would stand on " + g.id);
  }
  return std::nullopt;
}

std::optional<Rejection> move(GameState& s, const StateEdit& e) {
  if (!e.position) return missing(e, "a position");
  const Vec2 to = *e.position;
  if (!std::isfinite(to.x) || !std::isfinite(to.y) || (e.facing_deg && !std::isfinite(*e.facing_deg))) {
    return reject("bad_value", "a position and a facing are finite numbers");
  }
  if (Unit* u = unit_in(s, e.subject)) {
    u->position = to;
    if (e.facing_deg) u->facing_deg = normalize_deg(*e.facing_deg);
    return placed_clear(s, u->id, footprint(*u));
  }
  if (Gun* g = gun_in(s, e.subject)) {
    g->position = to;
    if (e.facing_deg) g->facing_deg = normalize_deg(*e.facing_deg);
    return placed_clear(s, g->id, {footprint(*g)});
  }
  if (Leader* l = leader_in(s, e.subject)) {
    l->position = to;
    if (e.facing_deg) l->facing_deg = normalize_deg(*e.facing_deg);
    l->attached_to = kNone;  // moved away from the unit he led
    return placed_clear(s, l->id, {footprint(*l)}, true);
  }
  return unknown(e);
}

std::optional<Rejection> remove(GameState& s, const StateEdit& e) {
  if (!e.key.empty()) return reject("bad_value", "a piece is removed without a key");
  if (Unit* u = unit_in(s, e.subject)) {
    u->destroyed = true;
    u->routing = u->retiring = false;
    return std::nullopt;
  }
  if (Gun* g = gun_in(s, e.subject)) {
    g->abandoned = true;
    return std::nullopt;
  }
  if (Leader* l = leader_in(s, e.subject)) {
    l->killed = true;
    l->attached_to = kNone;
    return std::nullopt;
  }
  return unknown(e);
}

std::optional<Rejection> set_dps(GameState& s, const StateEdit& e) {
  if (!e.value) return missing(e, "a value (the DPs)");
  const std::int64_t v = *e.value;
  if (v < 0 || v > kMaxDps) return reject("out_of_range", "DPs are 0 to " + std::to_string(kMaxDps) + ", not " + std::to_string(v));
  if (Unit* u = unit_in(s, e.subject)) {
    u->dps = static_cast<std::uint32_t>(v);
    return std::nullopt;
  }
  if (Gun* g = gun_in(s, e.subject)) {
    g->dps = static_cast<std::uint32_t>(v);
    return std::nullopt;
  }
  if (leader_in(s, e.subject) != nullptr) return reject("bad_value", "leaders have no DPs");
  return unknown(e);
}

std::optional<Rejection> set_formation(GameState& s, const StateEdit& e) {
  Unit* u = unit_in(s, e.subject);
  if (u == nullptr) return unknown(e);
  if (e.key.empty()) return missing(e, "a key (the formation)");
  const auto f = formation_named(e.key);
  if (!f) return reject("bad_value", "\"" + e.key + "\" is not a formation: line, assault column, march column or unformed");
  if (*f == Formation::kAssaultColumn && !is_foot(u->arm)) return reject("bad_value", "only foot form an assault column");
  u->formation = *f;
  return placed_clear(s, u->id, footprint(*u));
}

// "advantage_of_ground" (RULINGS C14): the umpire's ruling for a unit, or
// back to the engine's own judgement when the flag is absent.
std::optional<Rejection> rule_ground(GameState& s, const StateEdit& e) {
  Unit* u = unit_in(s, e.subject);
  if (u == nullptr && (gun_in(s, e.subject) != nullptr || leader_in(s, e.subject) != nullptr)) {
    return reject("bad_value", "advantage of ground is ruled for units; " + e.subject + " is not one");
  }
  if (u == nullptr) return unknown(e);
  u->ground_ruling = e.flag;
  return std::nullopt;
}

}  // namespace

Result<GameState> apply_edit(const GameState& state, const StateEdit& e) {
  GameState next = state;
  std::optional<Rejection> why;
  if (e.kind == "move") {
    why = move(next, e);
  } else if (e.kind == "remove") {
    why = remove(next, e);
  } else if (e.kind == "set_dps") {
    why = set_dps(next, e);
  } else if (e.kind == "set_formation") {
    why = set_formation(next, e);
  } else if (e.kind == "advantage_of_ground") {
    why = rule_ground(next, e);
  } else {
    std::string kinds;
    for (const auto& k : ruleset_info().edit_kinds) kinds += (kinds.empty() ? "" : ", ") + k.kind;
    return reject("unknown_edit", "no edit \"" + e.kind + "\"; CF&EO takes " + kinds);
  }
  if (why) return *why;
  if (state_hash(next) == state_hash(state)) {
    return reject("no_change", "the edit changes nothing: " + e.subject + " is already so");
  }
  return next;
}

}  // namespace galloper::rules::cfeo
