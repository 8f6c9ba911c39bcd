#include "rules/malbrook/setup.hpp"

#include "rules/core/geometry.hpp"
#include "rules/malbrook/basing.hpp"

namespace galloper::rules::malbrook {

namespace {

Leader leader(const LeaderSpec& l, LeaderRank rank, const std::string& army, const std::string& wing,
              const std::string& command) {
  Leader out;
  out.id = l.id;
  out.name = l.name.empty() ? l.id : l.name;
  out.army = army;
  out.wing = wing;
  out.command = command;
  out.rank = rank;
  out.action_modifier = l.action_modifier;
  out.exceptional = l.exceptional;
  out.wounds = l.wounds;
  out.attached_to = l.attached_to;
  out.position = l.position.value_or(Vec2{});
  out.facing_deg = normalize_deg(l.facing);
  return out;
}

Gun gun(const GunSpec& g, const std::string& army, const std::string& wing, const std::string& command) {
  Gun out;
  out.id = g.id;
  out.name = g.name.empty() ? g.id : g.name;
  out.army = army;
  out.wing = wing;
  out.command = command;
  out.weight = g.weight.value_or(GunWeight::kMedium);
  out.limbered = g.limbered;
  out.position = g.position.value_or(Vec2{});
  out.facing_deg = normalize_deg(g.facing);
  out.dps = g.dps;
  return out;
}

}  // namespace

GameState initial_state(const ScenarioSpec& spec, const Seed& seed) {
  GameState s;
  s.scenario = spec.name;
  s.title = spec.title;
  s.description = spec.description;
  s.table_width = spec.table_width;
  s.table_depth = spec.table_depth;
  for (const auto& t : spec.terrain) s.features.push_back(feature_of(t));
  s.terrain = make_terrain_map(s.features);

  for (const auto& a : spec.armies) {
    Army army;
    army.id = a.id;
    army.name = a.name.empty() ? a.id : a.name;
    army.style = a.style.value_or(FightingStyle::kTraditional);
    army.break_percent = a.break_percent;
    for (const auto& m : a.marshals) {
      army.marshals.push_back(m.id);
      s.leaders.push_back(leader(m, LeaderRank::kMarshal, a.id, "", ""));
    }
    for (const auto& w : a.wings) {
      Wing wing;
      wing.id = w.id;
      wing.name = w.name.empty() ? w.id : w.name;
      if (w.lieutenant_general) {
        wing.lieutenant_general = w.lieutenant_general->id;
        s.leaders.push_back(leader(*w.lieutenant_general, LeaderRank::kLieutenantGeneral, a.id, w.id, ""));
      }
      if (w.orders) {
        wing.order = w.orders->order.value_or(WingOrder::kDefend);
        wing.objective = w.orders->objective;
        wing.objective_feature = w.orders->objective_feature;
      }
      for (const auto& c : w.commands) {
        Command command;
        command.id = c.id;
        command.name = c.name.empty() ? c.id : c.name;
        if (c.major_general) {
          command.major_general = c.major_general->id;
          s.leaders.push_back(leader(*c.major_general, LeaderRank::kMajorGeneral, a.id, w.id, c.id));
        }
        for (const auto& b : c.brigades) {
          Brigade br;
          br.id = b.id;
          br.name = b.name.empty() ? b.id : b.name;
          br.army = a.id;
          br.wing = w.id;
          br.command = c.id;
          br.type = b.type.value_or(TroopType::kFoot);
          br.grade = b.grade.value_or(Grade::kC);
          br.style = b.style ? *b.style : army.style;
          // "New style horse ... and all hussars" may; some new style dragoons.
          br.a_outrance = b.a_outrance || br.type == TroopType::kHussars ||
                          (br.type == TroopType::kHorse && br.style == FightingStyle::kNew);
          br.bases = b.bases;
          br.formation = always_unformed(br.type) ? Formation::kUnformed : b.formation.value_or(Formation::kLine);
          br.position = b.position.value_or(Vec2{});
          br.facing_deg = normalize_deg(b.facing);
          br.dps = b.dps;
          br.horse_holders = b.horse_holders;
          s.brigades.push_back(std::move(br));
        }
        for (const auto& g : c.guns) s.guns.push_back(gun(g, a.id, w.id, c.id));
        wing.commands.push_back(std::move(command));
      }
      for (const auto& g : w.guns) s.guns.push_back(gun(g, a.id, w.id, ""));
      army.wings.push_back(std::move(wing));
    }
    for (const auto& g : a.guns) s.guns.push_back(gun(g, a.id, "", ""));
    s.armies.push_back(std::move(army));
  }

  // Attached leaders stand in base-to-base contact behind their brigade.
  for (auto& l : s.leaders) {
    if (l.attached_to.empty()) continue;
    if (const Brigade* b = s.find_brigade(l.attached_to)) {
      l.position = attached_leader_position(*b);
      l.facing_deg = b->facing_deg;
    }
  }

  s.turn = 1;
  s.attacker = spec.attacker;
  s.turn_limit = spec.turn_limit;
  if (!spec.attacker.empty()) {
    s.initiative = spec.attacker;
    s.phase = Phase::kBombardment;
  } else {
    s.phase = Phase::kInitiative;
  }
  for (const auto& o : spec.objectives) {
    s.objectives.push_back({o.id, o.name.empty() ? o.id : o.name, o.at.value_or(Vec2{}), o.radius, o.points, o.held_by});
  }
  s.victory_description = spec.victory_description;
  s.seed = seed;
  s.step = 0;
  return s;
}

}  // namespace galloper::rules::malbrook
