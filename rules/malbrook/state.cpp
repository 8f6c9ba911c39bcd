#include "rules/malbrook/state.hpp"

#include <algorithm>

#include "rules/core/geometry.hpp"
#include "rules/core/hasher.hpp"

namespace galloper::rules::malbrook {

std::string_view to_string(Status s) {
  switch (s) {
    case Status::kHalted: return "halted";
    case Status::kInspired: return "inspired";
    case Status::kCharging: return "charging";
    case Status::kFailedCharge: return "failed charge";
    case Status::kEvading: return "evading";
    case Status::kRetiring: return "retiring";
    case Status::kRouting: return "routing";
    case Status::kPursuing: return "pursuing";
    case Status::kLooting: return "looting";
    case Status::kInCombat: return "in combat";
    case Status::kMoved: return "moved";
    case Status::kUnderFire: return "under fire";
    case Status::kFired: return "fired";
    case Status::kAbandoned: return "abandoned";
    case Status::kCrewEliminated: return "crew eliminated";
    case Status::kDestroyed: return "destroyed";
    case Status::kSurrendered: return "surrendered";
  }
  return "?";
}

int Leader::base_actions() const {
  const int normal = rank == LeaderRank::kMajorGeneral ? 1 : 2;
  return std::max(0, normal + action_modifier);
}

const Army* GameState::find_army(std::string_view id) const {
  for (const auto& a : armies) {
    if (a.id == id) return &a;
  }
  return nullptr;
}

const Wing* GameState::find_wing(std::string_view army, std::string_view wing) const {
  const Army* a = find_army(army);
  if (a == nullptr) return nullptr;
  for (const auto& w : a->wings) {
    if (w.id == wing) return &w;
  }
  return nullptr;
}

const Brigade* GameState::find_brigade(std::string_view id) const {
  for (const auto& b : brigades) {
    if (same_id(b.id, id)) return &b;
  }
  return nullptr;
}

const Gun* GameState::find_gun(std::string_view id) const {
  for (const auto& g : guns) {
    if (same_id(g.id, id)) return &g;
  }
  return nullptr;
}

const Leader* GameState::find_leader(std::string_view id) const {
  for (const auto& l : leaders) {
    if (same_id(l.id, id)) return &l;
  }
  return nullptr;
}

// ---- Terrain ----

const FeatureSizes& feature_sizes() {
  static constexpr FeatureSizes kInches{
      .river = 2.0, .road = 1.0, .stream = 0.5, .obstacle = 0.25, .crossing = 2.0, .crossing_bank = 1.0};
  return kInches;
}

// ---- Hash ----

StateHash state_hash(const GameState& s) {
  Hasher h;
  h.str(kRulesetName);
  h.tag(1);
  h.str(s.scenario);
  h.real(s.table_width);
  h.real(s.table_depth);
  h.tag(2);
  hash_features(h, s.features);
  h.tag(3);
  h.u64(s.armies.size());
  for (const auto& a : s.armies) {
    h.str(a.id);
    h.u32(static_cast<std::uint32_t>(a.style));
    h.u32(a.break_percent);
    h.u64(a.marshals.size());
    for (const auto& m : a.marshals) h.str(m);
    h.u64(a.wings.size());
    for (const auto& w : a.wings) {
      h.str(w.id);
      h.str(w.lieutenant_general);
      h.u32(static_cast<std::uint32_t>(w.order));
      h.boolean(w.objective.has_value());
      if (w.objective) h.vec(*w.objective);
      h.str(w.objective_feature);
      h.u64(w.commands.size());
      for (const auto& c : w.commands) {
        h.str(c.id);
        h.str(c.major_general);
      }
    }
  }
  h.tag(4);
  h.u64(s.brigades.size());
  for (const auto& b : s.brigades) {
    h.str(b.id);
    h.str(b.army);
    h.str(b.wing);
    h.str(b.command);
    h.u32(static_cast<std::uint32_t>(b.type));
    h.u32(static_cast<std::uint32_t>(b.grade));
    h.u32(static_cast<std::uint32_t>(b.style));
    h.boolean(b.a_outrance);
    h.u32(b.bases);
    h.u32(static_cast<std::uint32_t>(b.formation));
    h.vec(b.position);
    h.real(b.facing_deg);
    h.u32(b.dps);
    h.u32(b.status);
    h.u32(b.inspire_actions);
    h.boolean(b.horse_holders.has_value());
    if (b.horse_holders) h.vec(*b.horse_holders);
    // Placed bases (basing.hpp): only walked when there are any, so states
    // without them keep the hashes recorded before they existed.
    if (!b.base_poses.empty()) {
      h.tag(30);
      h.u64(b.base_poses.size());
      for (const auto& bp : b.base_poses) {
        h.vec(bp.center);
        h.real(bp.facing_deg);
      }
    }
    h.u32(b.move_dice_turn);
    h.u32(b.move_dice);
    h.u32(b.move_dice_before);
    hash_last_move(h, b.last_move);
    h.boolean(b.horse_holders_moved);
  }
  h.tag(5);
  h.u64(s.guns.size());
  for (const auto& g : s.guns) {
    h.str(g.id);
    h.str(g.army);
    h.str(g.wing);
    h.str(g.command);
    h.u32(static_cast<std::uint32_t>(g.weight));
    h.boolean(g.limbered);
    h.vec(g.position);
    h.real(g.facing_deg);
    h.u32(g.dps);
    h.u32(g.status);
    hash_last_move(h, g.last_move);
  }
  h.tag(6);
  h.u64(s.leaders.size());
  for (const auto& l : s.leaders) {
    h.str(l.id);
    h.str(l.army);
    h.str(l.wing);
    h.str(l.command);
    h.u32(static_cast<std::uint32_t>(l.rank));
    h.i64(l.action_modifier);
    h.boolean(l.exceptional);
    h.u32(l.wounds);
    h.boolean(l.killed);
    h.boolean(l.captured);
    h.str(l.attached_to);
    h.vec(l.position);
    h.real(l.facing_deg);
  }
  h.tag(7);
  h.u32(s.turn);
  h.u32(static_cast<std::uint32_t>(s.phase));
  h.str(s.initiative);
  h.str(s.attacker);
  h.u32(s.turn_limit);
  h.u64(s.step);
  h.u64(s.objectives.size());
  for (const auto& o : s.objectives) {
    h.str(o.id);
    h.vec(o.at);
    h.real(o.radius);
    h.u32(o.points);
    h.str(o.held_by);
  }
  h.tag(20);  // movement phase (movement_state.hpp)
  hash_movement(h, s.movement);
  h.tag(21);  // sequence of play, command and control (engine.hpp, command.hpp, control.hpp)
  h.boolean(s.simultaneous);
  // Hashed only when set, so the digests of games without it are unchanged.
  if (s.wing_vision) h.boolean(true);
  h.u32(s.half);
  h.u32(static_cast<std::uint32_t>(s.command_stage));
  h.str(s.initiative_winner);
  h.u32(s.next_messenger);
  h.u64(s.messengers.size());
  for (const auto& m : s.messengers) {
    h.str(m.id);
    h.str(m.army);
    h.str(m.from);
    h.str(m.to);
    h.vec(m.position);
    h.real(m.facing_deg);
    h.u32(static_cast<std::uint32_t>(m.message.kind));
    h.u32(static_cast<std::uint32_t>(m.message.order));
    h.boolean(m.message.objective.has_value());
    if (m.message.objective) h.vec(*m.message.objective);
    h.str(m.message.objective_feature);
    h.str(m.message.unit);
    h.str(m.message.wing);
    h.str(m.message.command);
  }
  for (const auto& a : s.armies) {
    for (const auto& w : a.wings) h.str(w.orders_from);
  }
  for (const auto& b : s.brigades) {
    h.u32(static_cast<std::uint32_t>(b.control));
    h.str(b.controlled_by);
    h.str(b.conform_to);
    h.boolean(b.conform_behind);
  }
  for (const auto& g : s.guns) {
    h.u32(static_cast<std::uint32_t>(g.control));
    h.str(g.controlled_by);
  }
  // Artillery and damage (artillery.hpp, damage.hpp): only when any is set, so
  // states without them keep their recorded digests.
  const bool any_artillery = std::any_of(s.guns.begin(), s.guns.end(), [](const Gun& g) {
    return !g.last_target.empty() || g.bombarded_turn != 0 || !g.crew_with.empty();
  });
  if (any_artillery || !s.risk_tested.empty() || !s.fallen_leaders.empty()) {
    h.tag(22);
    for (const auto& g : s.guns) {
      h.str(g.last_target);
      h.u32(g.last_band);
      h.vec(g.last_shot_from);
      h.real(g.last_shot_facing);
      h.u32(g.bombarded_turn);
      h.boolean(g.bombarded_close);
      h.str(g.crew_with);
    }
    h.u64(s.risk_tested.size());
    for (const auto& r : s.risk_tested) {
      h.str(r.brigade);
      h.u32(static_cast<std::uint32_t>(r.cause));
      h.u32(r.turn);
      h.u32(static_cast<std::uint32_t>(r.phase));
    }
    h.u64(s.fallen_leaders.size());
    for (const auto& f : s.fallen_leaders) {
      h.str(f.leader);
      h.str(f.army);
      h.u32(static_cast<std::uint32_t>(f.rank));
      h.vec(f.position);
      h.u32(f.turn);
      h.u32(static_cast<std::uint32_t>(f.phase));
      h.boolean(f.captured);
    }
  }
  h.tag(23);  // after combat, morale and the end of the game (after_combat_state.hpp)
  for (const auto& b : s.brigades) {
    h.u32(b.morale_dps_turn);
    h.u32(b.morale_dps);
    h.u32(b.combat_turn);
    h.str(b.pursuing);
  }
  hash_after_combat(h, s.after_combat, s.morale_causes, s.result);
  // Close combat (combat.hpp): only once a combat phase ran or the umpire
  // ruled on ground, so earlier states keep their digests.
  if (s.combat.turn != 0 || !s.advantage_of_ground.empty()) {
    h.tag(24);
    hash_combat(h, s.combat, s.advantage_of_ground);
  }
  return h.digest();
}

}  // namespace galloper::rules::malbrook
