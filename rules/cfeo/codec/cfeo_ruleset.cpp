#include "rules/cfeo/codec/cfeo_ruleset.hpp"

#include <optional>
#include <utility>

#include "codec/terrain_spec_codec.hpp"
#include "galloper/v1/scenario.pb.h"
#include "rules/cfeo/check.hpp"
#include "rules/cfeo/game.hpp"
#include "rules/cfeo/ruleset.hpp"
#include "rules/cfeo/scenario.hpp"

namespace galloper::codec {

namespace {

namespace pb = galloper::v1::scenario;
namespace cf = galloper::rules::cfeo;

// ---- proto -> spec: what the author wrote, nullopt where they left it out ----

std::optional<cf::Arm> arm(pb::cfeo::Arm a) {
  switch (a) {
    case pb::cfeo::ARM_FOOT: return cf::Arm::kFoot;
    case pb::cfeo::ARM_HORSE: return cf::Arm::kHorse;
    case pb::cfeo::ARM_DRAGOONS: return cf::Arm::kDragoons;
    case pb::cfeo::ARM_DISMOUNTED_DRAGOONS: return cf::Arm::kDismountedDragoons;
    default: return std::nullopt;
  }
}

std::optional<cf::Grade> grade(pb::cfeo::Grade g) {
  switch (g) {
    case pb::cfeo::GRADE_A: return cf::Grade::kA;
    case pb::cfeo::GRADE_B: return cf::Grade::kB;
    case pb::cfeo::GRADE_C: return cf::Grade::kC;
    case pb::cfeo::GRADE_D: return cf::Grade::kD;
    case pb::cfeo::GRADE_E: return cf::Grade::kE;
    default: return std::nullopt;
  }
}

std::optional<cf::Formation> formation(pb::cfeo::Formation f) {
  switch (f) {
    case pb::cfeo::FORMATION_LINE: return cf::Formation::kLine;
    case pb::cfeo::FORMATION_ASSAULT_COLUMN: return cf::Formation::kAssaultColumn;
    case pb::cfeo::FORMATION_MARCH_COLUMN: return cf::Formation::kMarchColumn;
    case pb::cfeo::FORMATION_UNFORMED: return cf::Formation::kUnformed;
    default: return std::nullopt;
  }
}

std::optional<cf::CavalryStyle> style(pb::cfeo::CavalryStyle s) {
  switch (s) {
    case pb::cfeo::CAVALRY_STYLE_TRADITIONAL: return cf::CavalryStyle::kTraditional;
    case pb::cfeo::CAVALRY_STYLE_NEW: return cf::CavalryStyle::kNew;
    default: return std::nullopt;
  }
}

std::optional<cf::GunType> gun_type(pb::cfeo::GunType t) {
  switch (t) {
    case pb::cfeo::GUN_TYPE_HEAVY: return cf::GunType::kHeavy;
    case pb::cfeo::GUN_TYPE_FIELD: return cf::GunType::kField;
    case pb::cfeo::GUN_TYPE_BATTALION: return cf::GunType::kBattalion;
    default: return std::nullopt;
  }
}

cf::LeaderSpec leader(const pb::cfeo::Leader& l) {
  cf::LeaderSpec s;
  s.id = l.id();
  s.name = l.name();
  s.position = vec_of(l.has_position(), l.position());
  s.facing = l.facing();
  s.action_modifier = l.action_modifier();
  s.attached_to = l.attached_to();
  s.wounds = l.wounds();
  return s;
}

std::optional<cf::LeaderSpec> leader(bool has, const pb::cfeo::Leader& l) {
  if (!has) return std::nullopt;
  return leader(l);
}

cf::GunSpec gun(const pb::cfeo::Gun& g) {
  cf::GunSpec s;
  s.id = g.id();
  s.name = g.name();
  s.type = gun_type(g.type());
  s.limbered = g.limbered();
  s.position = vec_of(g.has_position(), g.position());
  s.facing = g.facing();
  s.dps = g.dps();
  s.with_unit = g.with_unit();
  return s;
}

cf::UnitSpec unit(const pb::cfeo::Unit& u) {
  cf::UnitSpec s;
  s.id = u.id();
  s.name = u.name();
  s.arm = arm(u.arm());
  s.grade = grade(u.grade());
  s.bases = u.bases();
  s.formation = formation(u.formation());
  s.position = vec_of(u.has_position(), u.position());
  s.facing = u.facing();
  s.dps = u.dps();
  s.pike_bases = u.pike_bases();
  s.skirmishers = u.skirmishers();
  s.platoon_fire = u.platoon_fire();
  s.style = style(u.style());
  s.a_outrance = u.a_outrance();
  s.ranks = u.ranks();
  return s;
}

class CfeoRuleset final : public Ruleset {
 public:
  const rules::RulesetInfo& info() const override { return info_; }
  std::vector<rules::SpecProblem> check(const pb::Scenario& scenario) const override {
    return cf::check_scenario(cfeo_spec(scenario));
  }
  std::unique_ptr<rules::Game> make_game(const pb::Scenario& scenario, const rules::Seed& seed) const override {
    return cf::make_game(cfeo_spec(scenario), seed);
  }

 private:
  rules::RulesetInfo info_ = cf::ruleset_info();
};

}  // namespace

cf::ScenarioSpec cfeo_spec(const pb::Scenario& sc) {
  cf::ScenarioSpec s;
  s.name = sc.name();
  s.title = sc.title();
  s.description = sc.description();
  s.table_width = sc.table_width();
  s.table_depth = sc.table_depth();
  for (const auto& t : sc.terrain()) s.terrain.push_back(terrain_spec(t));
  for (const auto& a : sc.cfeo().sides()) {
    cf::SideSpec side;
    side.id = a.id();
    side.name = a.name();
    side.style = style(a.style());
    side.marshal = leader(a.has_marshal(), a.marshal());
    side.break_percent = a.break_percent();
    for (const auto& g : a.guns()) side.guns.push_back(gun(g));
    for (const auto& w : a.wings()) {
      cf::WingSpec wing;
      wing.id = w.id();
      wing.name = w.name();
      wing.general = leader(w.has_general(), w.general());
      for (const auto& g : w.guns()) wing.guns.push_back(gun(g));
      for (const auto& b : w.brigades()) {
        cf::BrigadeSpec brigade;
        brigade.id = b.id();
        brigade.name = b.name();
        brigade.brigadier = leader(b.has_brigadier(), b.brigadier());
        for (const auto& u : b.units()) brigade.units.push_back(unit(u));
        for (const auto& g : b.guns()) brigade.guns.push_back(gun(g));
        wing.brigades.push_back(std::move(brigade));
      }
      side.wings.push_back(std::move(wing));
    }
    s.sides.push_back(std::move(side));
  }
  s.attacker = sc.attacker();
  s.turn_limit = sc.turn_limit();
  s.no_control_tests = sc.cfeo().no_control_tests();
  for (const auto& o : sc.victory().objectives()) {
    s.objectives.push_back({o.id(), o.name(), vec_of(o.has_at(), o.at()), o.radius(), o.points(), o.held_by()});
  }
  s.victory_description = sc.victory().description();
  return s;
}

const Ruleset& cfeo_ruleset() {
  static const CfeoRuleset ruleset;
  return ruleset;
}

}  // namespace galloper::codec
