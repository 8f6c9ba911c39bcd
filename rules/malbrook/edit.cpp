#include "rules/malbrook/edit.hpp"

#include <algorithm>
#include <cmath>

#include "rules/core/geometry.hpp"
#include "rules/malbrook/basing.hpp"
#include "rules/malbrook/damage.hpp"
#include "rules/malbrook/ruleset.hpp"

namespace galloper::rules::malbrook {

namespace {

constexpr double kOverlapTolerance = 1e-6;  // touching is not overlapping (as check.cpp)
constexpr double kEdgeSlack = 1e-6;
constexpr std::uint32_t kMaxWounds = 1;  // "wounded a second time and killed" (damage.cpp)

std::uint32_t bit(Status s) { return static_cast<std::uint32_t>(s); }

std::string where(Vec2 p) { return "(" + format_number(p.x) + ", " + format_number(p.y) + ")"; }

bool brigade_present(const Brigade& b) { return brigade_on_table(b); }
bool gun_present(const Gun& g) { return !g.has(Status::kCrewEliminated) && !g.has(Status::kDestroyed); }
bool leader_present(const Leader& l) { return !l.killed && !l.captured; }

Brigade* brigade_in(GameState& s, std::string_view id) {
  for (auto& b : s.brigades) {
    if (b.id == id) return &b;
  }
  return nullptr;
}
Gun* gun_in(GameState& s, std::string_view id) {
  for (auto& g : s.guns) {
    if (g.id == id) return &g;
  }
  return nullptr;
}
Leader* leader_in(GameState& s, std::string_view id) {
  for (auto& l : s.leaders) {
    if (l.id == id) return &l;
  }
  return nullptr;
}

Rejection unknown(const StateEdit& e) {
  return reject("unknown_unit", "there is no brigade, gun or leader \"" + e.subject + "\" in this game");
}

// On the table and not on top of another brigade or gun: the scenario
// checker's placement rule (check.cpp), with the unit itself left out.
std::optional<Rejection> placement_problem(const GameState& s, std::string_view self,
                                           const std::vector<OrientedRect>& rects, const std::string& label) {
  if (s.table_width > 0 && s.table_depth > 0) {
    for (const auto& r : rects) {
      for (Vec2 c : r.corners()) {
        if (c.x < -kEdgeSlack || c.y < -kEdgeSlack || c.x > s.table_width + kEdgeSlack ||
            c.y > s.table_depth + kEdgeSlack) {
          return reject("off_table", label + " would be off the table (" + format_number(s.table_width) + "\" x " +
                                         format_number(s.table_depth) + "\")");
        }
      }
    }
  }
  auto hits = [&](const std::vector<OrientedRect>& other) {
    for (const auto& a : rects) {
      for (const auto& b : other) {
        if (overlaps(a, b, kOverlapTolerance)) return true;
      }
    }
    return false;
  };
  for (const auto& b : s.brigades) {
    if (b.id == self || !brigade_present(b)) continue;
    if (hits(footprint(b))) return reject("overlap", label + " would overlap brigade " + b.id);
  }
  for (const auto& g : s.guns) {
    if (g.id == self || !gun_present(g)) continue;
    if (hits({footprint(g)})) return reject("overlap", label + " would overlap gun " + g.id);
  }
  return std::nullopt;
}

Rejection missing(const StateEdit& e, const std::string& field) {
  return reject("missing_field", "a \"" + e.kind + "\" edit needs " + field);
}

std::optional<Rejection> move(GameState& s, const StateEdit& e) {
  if (!e.position) return missing(e, "a position");
  const Vec2 to = *e.position;
  if (!std::isfinite(to.x) || !std::isfinite(to.y) || (e.facing_deg && !std::isfinite(*e.facing_deg))) {
    return reject("bad_value", "a position and a facing are finite numbers");
  }
  if (Brigade* b = brigade_in(s, e.subject)) {
    if (!brigade_present(*b)) return reject("not_on_table", "brigade " + b->id + " is not on the table");
    const Vec2 from = b->position;
    const double facing = normalize_deg(e.facing_deg.value_or(b->facing_deg));
    const double turn = facing - b->facing_deg;
    Brigade moved = *b;
    moved.position = to;
    moved.facing_deg = facing;
    // Placed bases (a refused flank, an unformed brigade) keep their places
    // relative to the brigade: turned about its front middle, then carried.
    for (auto& p : moved.base_poses) {
      p.center = to + rotate_cw(p.center - from, turn);
      p.facing_deg = normalize_deg(p.facing_deg + turn);
    }
    if (moved.horse_holders) moved.horse_holders = to + rotate_cw(*moved.horse_holders - from, turn);
    if (auto why = placement_problem(s, b->id, footprint(moved), "brigade " + b->id + " at " + where(to))) return why;
    *b = std::move(moved);
    for (auto& l : s.leaders) {
      if (l.attached_to != b->id || !leader_present(l)) continue;
      l.position = attached_leader_position(*b);
      l.facing_deg = b->facing_deg;
    }
    return std::nullopt;
  }
  if (Gun* g = gun_in(s, e.subject)) {
    if (!gun_present(*g)) return reject("not_on_table", "gun " + g->id + " is not on the table");
    Gun moved = *g;
    moved.position = to;
    moved.facing_deg = normalize_deg(e.facing_deg.value_or(g->facing_deg));
    if (auto why = placement_problem(s, g->id, {footprint(moved)}, "gun " + g->id + " at " + where(to))) return why;
    *g = std::move(moved);
    return std::nullopt;
  }
  if (Leader* l = leader_in(s, e.subject)) {
    if (!leader_present(*l)) return reject("not_on_table", "leader " + l->id + " has been killed or captured");
    Leader moved = *l;
    moved.position = to;
    moved.facing_deg = normalize_deg(e.facing_deg.value_or(l->facing_deg));
    moved.attached_to.clear();  // a leader set down elsewhere has left his brigade
    // Leaders stand among the troops (they attach to brigades): only the table's edge binds them.
    if (s.table_width > 0 && s.table_depth > 0) {
      for (Vec2 c : footprint(moved).corners()) {
        if (c.x < -kEdgeSlack || c.y < -kEdgeSlack || c.x > s.table_width + kEdgeSlack ||
            c.y > s.table_depth + kEdgeSlack) {
          return reject("off_table", "leader " + l->id + " at " + where(to) + " would be off the table (" +
                                         format_number(s.table_width) + "\" x " + format_number(s.table_depth) + "\")");
        }
      }
    }
    *l = std::move(moved);
    return std::nullopt;
  }
  return unknown(e);
}

void fall(GameState& s, Leader& l, bool captured) {
  l.killed = !captured;
  l.captured = captured;
  l.attached_to.clear();
  // As the engine records a leader it kills or captures: the morale phase
  // tests brigades near where he fell (damage.cpp apply_leader_fate).
  s.fallen_leaders.push_back({l.id, l.army, l.rank, l.position, s.turn, s.phase, captured});
}

std::optional<Rejection> remove(GameState& s, const StateEdit& e) {
  if (Brigade* b = brigade_in(s, e.subject)) {
    if (!e.key.empty()) return reject("bad_value", "a brigade is removed as destroyed; give no key");
    if (!brigade_present(*b)) return reject("not_on_table", "brigade " + b->id + " is not on the table");
    b->status |= bit(Status::kDestroyed);
    b->status &= ~(bit(Status::kInCombat) | bit(Status::kCharging) | bit(Status::kPursuing));
    b->pursuing.clear();
    for (auto& l : s.leaders) {
      if (l.attached_to == b->id) l.attached_to.clear();  // he stays where he stood
    }
    return std::nullopt;
  }
  if (Gun* g = gun_in(s, e.subject)) {
    if (!e.key.empty()) return reject("bad_value", "a gun is removed as destroyed; give no key");
    if (!gun_present(*g)) return reject("not_on_table", "gun " + g->id + " is not on the table");
    g->status |= bit(Status::kDestroyed) | bit(Status::kCrewEliminated);
    g->status &= ~bit(Status::kInCombat);
    g->crew_with.clear();
    return std::nullopt;
  }
  if (Leader* l = leader_in(s, e.subject)) {
    if (e.key != "" && e.key != "killed" && e.key != "captured") {
      return reject("bad_value", "a leader is removed as \"killed\" (the default) or \"captured\", not \"" + e.key + "\"");
    }
    if (!leader_present(*l)) return reject("not_on_table", "leader " + l->id + " has already been killed or captured");
    fall(s, *l, e.key == "captured");
    return std::nullopt;
  }
  return unknown(e);
}

std::optional<Rejection> set_dps(GameState& s, const StateEdit& e) {
  if (!e.value) return missing(e, "a value (the DPs)");
  const std::int64_t v = *e.value;
  if (Brigade* b = brigade_in(s, e.subject)) {
    if (!brigade_present(*b)) return reject("not_on_table", "brigade " + b->id + " is not on the table");
    const std::uint32_t cap = dp_capacity(*b);
    if (v < 0 || v > static_cast<std::int64_t>(cap)) {
      return reject("out_of_range", "brigade " + b->id + " may hold 0 to " + std::to_string(cap) + " DPs (" +
                                        std::to_string(b->bases) + " bases, at most " + std::to_string(kMaxDps) +
                                        "), not " + std::to_string(v));
    }
    b->dps = static_cast<std::uint32_t>(v);
    return std::nullopt;
  }
  if (Gun* g = gun_in(s, e.subject)) {
    if (!gun_present(*g)) return reject("not_on_table", "gun " + g->id + " is not on the table");
    if (v < 0 || v > static_cast<std::int64_t>(kMaxDps)) {
      return reject("out_of_range", "a gun may hold 0 to " + std::to_string(kMaxDps) + " DPs, not " + std::to_string(v));
    }
    g->dps = static_cast<std::uint32_t>(v);
    return std::nullopt;
  }
  if (leader_in(s, e.subject) != nullptr) return reject("bad_value", "leaders have no DPs; set their status instead");
  return unknown(e);
}

std::optional<Rejection> leader_status(GameState& s, const StateEdit& e) {
  Leader* l = leader_in(s, e.subject);
  if (l == nullptr) {
    if (brigade_in(s, e.subject) != nullptr || gun_in(s, e.subject) != nullptr) {
      return reject("bad_value", e.subject + " is not a leader");
    }
    return unknown(e);
  }
  if (e.key.empty() && !e.value) return missing(e, "a key (\"active\", \"killed\" or \"captured\") or a value (wounds)");
  if (e.value && (*e.value < 0 || *e.value > static_cast<std::int64_t>(kMaxWounds))) {
    return reject("out_of_range", "a leader has 0 or 1 wounds (a second wound kills him), not " + std::to_string(*e.value));
  }
  if (!e.key.empty()) {
    if (e.key == "active") {
      // Back in play where he fell, detached; he is no longer a fallen leader.
      l->killed = false;
      l->captured = false;
      std::erase_if(s.fallen_leaders, [&](const FallenLeader& f) { return f.leader == l->id; });
    } else if (e.key == "killed" || e.key == "captured") {
      const bool captured = e.key == "captured";
      if (leader_present(*l)) {
        fall(s, *l, captured);
      } else {
        l->killed = !captured;
        l->captured = captured;
        for (auto& f : s.fallen_leaders) {
          if (f.leader == l->id) f.captured = captured;
        }
      }
    } else {
      return reject("bad_value", "a leader's status is \"active\", \"killed\" or \"captured\", not \"" + e.key + "\"");
    }
  }
  if (e.value) l->wounds = static_cast<std::uint32_t>(*e.value);
  return std::nullopt;
}

std::optional<Rejection> attach(GameState& s, const StateEdit& e) {
  Leader* l = leader_in(s, e.subject);
  if (l == nullptr) {
    if (brigade_in(s, e.subject) != nullptr || gun_in(s, e.subject) != nullptr) {
      return reject("bad_value", e.subject + " is not a leader");
    }
    return unknown(e);
  }
  if (!leader_present(*l)) return reject("not_on_table", "leader " + l->id + " has been killed or captured");
  if (e.key.empty()) {
    l->attached_to.clear();  // detached where he stands
    return std::nullopt;
  }
  const Brigade* b = s.find_brigade(e.key);
  if (b == nullptr) return reject("unknown_unit", "there is no brigade \"" + e.key + "\" to attach " + l->id + " to");
  if (!brigade_present(*b)) return reject("not_on_table", "brigade " + b->id + " is not on the table");
  if (b->army != l->army) return reject("bad_value", "leader " + l->id + " may attach only to a brigade of his own army");
  l->attached_to = b->id;
  l->position = attached_leader_position(*b);
  l->facing_deg = b->facing_deg;
  return std::nullopt;
}

std::optional<Rejection> advantage(GameState& s, const StateEdit& e) {
  const Brigade* b = s.find_brigade(e.subject);
  if (b == nullptr) {
    if (s.find_gun(e.subject) != nullptr || s.find_leader(e.subject) != nullptr) {
      return reject("bad_value", "advantage of ground is ruled for brigades; " + e.subject + " is not one");
    }
    return unknown(e);
  }
  if (e.flag) {
    s.advantage_of_ground[b->id] = *e.flag;
  } else {
    s.advantage_of_ground.erase(b->id);  // back to the engine's own judgement (combat.cpp)
  }
  return std::nullopt;
}

}  // namespace

Result<GameState> apply_edit(const GameState& state, const StateEdit& e) {
  if (state.phase == Phase::kEnded) return reject("ended", "the game has ended; its state is final");
  if (e.subject.empty()) return reject("missing_field", "an edit names the unit or leader it changes (subject)");
  GameState next = state;
  std::optional<Rejection> why;
  if (e.kind == "move") {
    why = move(next, e);
  } else if (e.kind == "remove") {
    why = remove(next, e);
  } else if (e.kind == "set_dps") {
    why = set_dps(next, e);
  } else if (e.kind == "leader_status") {
    why = leader_status(next, e);
  } else if (e.kind == "attach") {
    why = attach(next, e);
  } else if (e.kind == "advantage_of_ground") {
    why = advantage(next, e);
  } else {
    std::string kinds;
    for (const auto& k : ruleset_info().edit_kinds) kinds += (kinds.empty() ? "" : ", ") + k.kind;
    return reject("unknown_edit", "no edit \"" + e.kind + "\"; Malbrook takes " + kinds);
  }
  if (why) return *why;
  // An edit that changes nothing would be a log step with no effect.
  if (state_hash(next) == state_hash(state)) {
    return reject("no_change", "the edit changes nothing: " + e.subject + " is already so");
  }
  return next;
}

}  // namespace galloper::rules::malbrook
