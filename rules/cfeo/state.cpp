#include "rules/cfeo/state.hpp"

#include "rules/core/hasher.hpp"

namespace galloper::rules::cfeo {

std::string_view to_string(Phase p) {
  switch (p) {
    case Phase::kBombardment: return "bombardment";
    case Phase::kMusketry: return "musketry";
    case Phase::kCommand: return "command";
    case Phase::kMovement: return "movement";
    case Phase::kCloseArtillery: return "close artillery";
    case Phase::kCombat: return "combat";
    case Phase::kMorale: return "morale";
  }
  return "bombardment";
}

const FeatureSizes& feature_sizes() {
  static constexpr FeatureSizes kYards{
      .river = 60, .road = 20, .stream = 10, .obstacle = 5, .crossing = 40, .crossing_bank = 20};
  return kYards;
}

StateHash state_hash(const GameState& s) {
  Hasher h;
  h.str(kRulesetName);
  h.tag(1);
  h.str(s.scenario);
  h.real(s.table_width);
  h.real(s.table_depth);
  h.u32(s.turn);
  h.u32(s.turn_limit);
  h.byte(static_cast<std::uint8_t>(s.phase));
  h.i64(s.attacker);
  h.boolean(s.options.simultaneous);
  h.boolean(s.options.seat_vision);
  h.boolean(s.started);
  h.boolean(s.ended);
  h.i64(s.first);
  h.byte(s.half);
  h.boolean(s.move_orders);
  h.byte(static_cast<std::uint8_t>(s.command_stage));
  h.byte(static_cast<std::uint8_t>(s.combat_stage));
  h.u64(s.charges.size());
  for (const auto& c : s.charges) {
    h.i64(c.unit);
    h.byte(static_cast<std::uint8_t>(c.target.kind));
    h.i64(c.target.index);
    h.byte(static_cast<std::uint8_t>(c.response));
  }
  h.u64(s.after_combat.size());
  for (const auto& a : s.after_combat) {
    h.i64(a.unit);
    h.byte(static_cast<std::uint8_t>(a.choice));
    h.i64(a.enemy);
    h.boolean(a.enemy_gave_ground);
  }
  h.u64(s.step);
  h.boolean(s.no_control_tests);
  h.tag(2);
  hash_features(h, s.features);
  h.tag(3);
  h.u64(s.sides.size());
  for (const auto& a : s.sides) {
    h.str(a.id);
    h.byte(static_cast<std::uint8_t>(a.style));
    h.i64(a.marshal);
    h.u32(a.break_percent);
  }
  h.u64(s.wings.size());
  for (const auto& w : s.wings) {
    h.str(w.id);
    h.i64(w.side);
    h.i64(w.general);
  }
  h.u64(s.brigades.size());
  for (const auto& b : s.brigades) {
    h.str(b.id);
    h.i64(b.wing);
    h.i64(b.brigadier);
  }
  h.tag(4);
  h.u64(s.units.size());
  for (const auto& u : s.units) {
    h.str(u.id);
    h.i64(u.brigade);
    h.byte(static_cast<std::uint8_t>(u.arm));
    h.byte(static_cast<std::uint8_t>(u.grade));
    h.u32(u.bases);
    h.byte(static_cast<std::uint8_t>(u.formation));
    h.vec(u.position);
    h.real(u.facing_deg);
    h.u32(u.dps);
    h.u32(u.pike_bases);
    h.boolean(u.skirmishers);
    h.boolean(u.platoon_fire);
    h.byte(static_cast<std::uint8_t>(u.style));
    h.boolean(u.a_outrance);
    h.u32(u.ranks);
    h.boolean(u.fired);
    h.boolean(u.moved);
    h.i64(u.allowance);
    h.boolean(u.under_fire);
    h.boolean(u.artillery_dps);
    h.boolean(u.in_combat);
    h.boolean(u.evaded);
    h.boolean(u.rode_through);
    h.u32(u.inspired);
    h.boolean(u.steadied);
    h.byte(static_cast<std::uint8_t>(u.control));
    h.boolean(u.charge_failed);
    h.u64(u.last_move.size());
    for (const OrderStep& st : u.last_move) hash_order_step(h, st);
    h.byte(u.ground_ruling ? (*u.ground_ruling ? 2 : 1) : 0);
    h.boolean(u.retiring);
    h.boolean(u.routing);
    h.boolean(u.destroyed);
  }
  h.tag(5);
  h.u64(s.guns.size());
  for (const auto& g : s.guns) {
    h.str(g.id);
    h.i64(g.wing);
    h.i64(g.brigade);
    h.byte(static_cast<std::uint8_t>(g.type));
    h.boolean(g.limbered);
    h.vec(g.position);
    h.real(g.facing_deg);
    h.u32(g.dps);
    h.i64(g.with_unit);
    h.byte(static_cast<std::uint8_t>(g.last_target.kind));
    h.i64(g.last_target.index);
    h.byte(g.last_range);
    h.boolean(g.reserved);
    h.boolean(g.fired);
    h.boolean(g.under_fire);
    h.boolean(g.abandoned);
    h.boolean(g.crew_killed);
  }
  h.tag(6);
  h.u64(s.leaders.size());
  for (const auto& l : s.leaders) {
    h.str(l.id);
    h.byte(static_cast<std::uint8_t>(l.rank));
    h.i64(l.wing);
    h.i64(l.brigade);
    h.vec(l.position);
    h.real(l.facing_deg);
    h.i64(l.action_modifier);
    h.i64(l.attached_to);
    h.u32(l.wounds);
    h.boolean(l.killed);
  }
  h.tag(7);
  h.u64(s.objectives.size());
  for (const auto& o : s.objectives) {
    h.str(o.id);
    h.vec(o.at);
    h.real(o.radius);
    h.u32(o.points);
    h.i64(o.held_by);
  }
  return h.digest();
}

}  // namespace galloper::rules::cfeo
