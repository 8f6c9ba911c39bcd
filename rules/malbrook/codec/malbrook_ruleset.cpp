#include "rules/malbrook/codec/malbrook_ruleset.hpp"

#include <optional>
#include <utility>

#include "codec/terrain_spec_codec.hpp"
#include "galloper/v1/scenario.pb.h"
#include "rules/malbrook/check.hpp"
#include "rules/malbrook/game.hpp"
#include "rules/malbrook/ruleset.hpp"
#include "rules/malbrook/scenario.hpp"

namespace galloper::codec {

namespace {

namespace pb = galloper::v1::scenario;
namespace mb = galloper::rules::malbrook;

// ---- proto -> spec: what the author wrote, nullopt where they left it out ----

std::optional<mb::TroopType> troop_type(pb::TroopType t) {
  switch (t) {
    case pb::TROOP_TYPE_FOOT: return mb::TroopType::kFoot;
    case pb::TROOP_TYPE_HORSE: return mb::TroopType::kHorse;
    case pb::TROOP_TYPE_DRAGOONS: return mb::TroopType::kDragoons;
    case pb::TROOP_TYPE_DISMOUNTED_DRAGOONS: return mb::TroopType::kDismountedDragoons;
    case pb::TROOP_TYPE_HUSSARS: return mb::TroopType::kHussars;
    case pb::TROOP_TYPE_CIVILIANS: return mb::TroopType::kCivilians;
    default: return std::nullopt;
  }
}

std::optional<mb::Grade> grade(pb::Grade g) {
  switch (g) {
    case pb::GRADE_A: return mb::Grade::kA;
    case pb::GRADE_B: return mb::Grade::kB;
    case pb::GRADE_C: return mb::Grade::kC;
    case pb::GRADE_D: return mb::Grade::kD;
    case pb::GRADE_E: return mb::Grade::kE;
    default: return std::nullopt;
  }
}

std::optional<mb::FightingStyle> style(pb::FightingStyle s) {
  switch (s) {
    case pb::FIGHTING_STYLE_TRADITIONAL: return mb::FightingStyle::kTraditional;
    case pb::FIGHTING_STYLE_NEW: return mb::FightingStyle::kNew;
    default: return std::nullopt;
  }
}

std::optional<mb::Formation> formation(pb::Formation f) {
  switch (f) {
    case pb::FORMATION_LINE: return mb::Formation::kLine;
    case pb::FORMATION_TWO_RANK_LINE: return mb::Formation::kTwoRankLine;
    case pb::FORMATION_MARCH_COLUMN: return mb::Formation::kMarchColumn;
    case pb::FORMATION_FIELD_COLUMN: return mb::Formation::kFieldColumn;
    case pb::FORMATION_UNFORMED: return mb::Formation::kUnformed;
    default: return std::nullopt;
  }
}

std::optional<mb::GunWeight> gun_weight(pb::GunWeight w) {
  switch (w) {
    case pb::GUN_WEIGHT_LIGHT: return mb::GunWeight::kLight;
    case pb::GUN_WEIGHT_MEDIUM: return mb::GunWeight::kMedium;
    case pb::GUN_WEIGHT_HEAVY: return mb::GunWeight::kHeavy;
    case pb::GUN_WEIGHT_HOWITZER: return mb::GunWeight::kHowitzer;
    case pb::GUN_WEIGHT_MORTAR: return mb::GunWeight::kMortar;
    default: return std::nullopt;
  }
}

std::optional<mb::WingOrder> wing_order(pb::WingOrder o) {
  switch (o) {
    case pb::WING_ORDER_DEFEND: return mb::WingOrder::kDefend;
    case pb::WING_ORDER_ADVANCE_AND_DEFEND: return mb::WingOrder::kAdvanceAndDefend;
    case pb::WING_ORDER_ADVANCE_AND_ATTACK: return mb::WingOrder::kAdvanceAndAttack;
    default: return std::nullopt;
  }
}

mb::LeaderSpec leader(const pb::Leader& l) {
  mb::LeaderSpec s;
  s.id = l.id();
  s.name = l.name();
  s.position = vec_of(l.has_position(), l.position());
  s.facing = l.facing();
  s.action_modifier = l.action_modifier();
  s.exceptional = l.exceptional();
  s.attached_to = l.attached_to();
  s.wounds = l.wounds();
  return s;
}

mb::GunSpec gun(const pb::Gun& g) {
  mb::GunSpec s;
  s.id = g.id();
  s.name = g.name();
  s.weight = gun_weight(g.weight());
  s.limbered = g.limbered();
  s.position = vec_of(g.has_position(), g.position());
  s.facing = g.facing();
  s.dps = g.dps();
  return s;
}

mb::BrigadeSpec brigade(const pb::Brigade& b) {
  mb::BrigadeSpec s;
  s.id = b.id();
  s.name = b.name();
  s.type = troop_type(b.type());
  s.grade = grade(b.grade());
  s.style = style(b.style());
  s.bases = b.bases();
  s.formation = formation(b.formation());
  s.position = vec_of(b.has_position(), b.position());
  s.facing = b.facing();
  s.dps = b.dps();
  s.a_outrance = b.a_outrance();
  s.horse_holders = vec_of(b.has_horse_holders(), b.horse_holders());
  return s;
}

mb::ScenarioSpec to_spec(const pb::Scenario& sc) {
  mb::ScenarioSpec s;
  s.name = sc.name();
  s.title = sc.title();
  s.description = sc.description();
  s.ruleset = sc.ruleset();
  s.table_width = sc.table_width();
  s.table_depth = sc.table_depth();
  for (const auto& t : sc.terrain()) s.terrain.push_back(terrain_spec(t));
  for (const auto& a : sc.armies()) {
    mb::ArmySpec army;
    army.id = a.id();
    army.name = a.name();
    army.style = style(a.style());
    army.break_percent = a.break_percent();
    for (const auto& m : a.marshals()) army.marshals.push_back(leader(m));
    for (const auto& g : a.guns()) army.guns.push_back(gun(g));
    for (const auto& w : a.wings()) {
      mb::WingSpec wing;
      wing.id = w.id();
      wing.name = w.name();
      if (w.has_lieutenant_general()) wing.lieutenant_general = leader(w.lieutenant_general());
      if (w.has_orders()) {
        mb::OrdersSpec o;
        o.order = wing_order(w.orders().order());
        o.objective = vec_of(w.orders().has_objective(), w.orders().objective());
        o.objective_feature = w.orders().objective_feature();
        wing.orders = o;
      }
      for (const auto& g : w.guns()) wing.guns.push_back(gun(g));
      for (const auto& c : w.commands()) {
        mb::CommandSpec command;
        command.id = c.id();
        command.name = c.name();
        if (c.has_major_general()) command.major_general = leader(c.major_general());
        for (const auto& b : c.brigades()) command.brigades.push_back(brigade(b));
        for (const auto& g : c.guns()) command.guns.push_back(gun(g));
        wing.commands.push_back(std::move(command));
      }
      army.wings.push_back(std::move(wing));
    }
    s.armies.push_back(std::move(army));
  }
  s.attacker = sc.attacker();
  s.turn_limit = sc.turn_limit();
  for (const auto& o : sc.victory().objectives()) {
    mb::ObjectiveSpec obj;
    obj.id = o.id();
    obj.name = o.name();
    obj.at = vec_of(o.has_at(), o.at());
    obj.radius = o.radius();
    obj.points = o.points();
    obj.held_by = o.held_by();
    s.objectives.push_back(std::move(obj));
  }
  s.victory_description = sc.victory().description();
  return s;
}

class MalbrookRuleset final : public Ruleset {
 public:
  const rules::RulesetInfo& info() const override { return info_; }
  std::string_view forces_field() const override { return "armies"; }
  std::vector<rules::SpecProblem> check(const pb::Scenario& scenario) const override {
    return mb::check_scenario(to_spec(scenario));
  }
  std::unique_ptr<rules::Game> make_game(const pb::Scenario& scenario, const rules::Seed& seed) const override {
    return mb::make_game(to_spec(scenario), seed);
  }

 private:
  rules::RulesetInfo info_ = mb::ruleset_info();
};

}  // namespace

const Ruleset& malbrook_ruleset() {
  static const MalbrookRuleset ruleset;
  return ruleset;
}

}  // namespace galloper::codec
