#include "rules/cfeo/ruleset.hpp"

#include <string>

#include "rules/cfeo/state.hpp"
#include "rules/cfeo/types.hpp"

namespace galloper::rules::cfeo {

RulesetInfo ruleset_info() {
  RulesetInfo r;
  r.name = std::string(kRulesetName);
  r.title = "Close Fire & European Order";
  r.unit_name = "yard";
  r.unit_plural = "yards";
  // Every distance on the sheet is in yards (RULINGS F1).
  r.scale = "distances in yards, as the rules give them";
  r.seat_roles = {
      term_of("umpire", "Umpire", "Runs the game and sees the whole table"),
      term_of("army", "Army", "The marshal and the army's artillery of one side"),
      term_of("wing", "Wing", "A general's wing: its brigades, brigadiers and guns"),
  };
  for (Phase p : {Phase::kBombardment, Phase::kMusketry, Phase::kCommand, Phase::kMovement, Phase::kCloseArtillery,
                  Phase::kCombat, Phase::kMorale}) {
    r.phases.push_back(term_of(to_string(p)));
  }
  r.decision_kinds = {
      term_of("fire", "Fire", "A gun or a battalion: a target, reserve fire, or hold"),
      term_of("command", "Command actions", "A leader's actions: move, attach or detach, steady, inspire"),
      term_of("control_test", "Control test", "A unit out of command: the optional modifiers of its test"),
      term_of("move_dice", "Move dice", "Within 120 yards of the enemy: the dice of a tactical move"),
      term_of("move", "Movement orders", "Steps within the move's yards"),
      term_of("charge", "Charge", "In the combat phase: an enemy within reach to charge, or none"),
      term_of("response", "Response", "A charged unit: stand, counter-charge or evade"),
      term_of("after_combat", "After combat", "Remain, pursue, retire, take the position or ride through"),
  };
  r.step_actions = {
      {"forward", "Forward", {"distance"}},
      {"wheel", "Wheel", {"pivot", "angle_deg"}},
      {"about_face", "About face", {}},
      {"formation", "Change formation", {"formation"}},
      {"move_to", "Move to", {"to"}},
      {"attach", "Attach to", {"target"}},
      {"detach", "Detach", {}},
      {"steady", "Steady", {}},
      {"inspire", "Inspire", {}},
  };
  r.orders = {
      {"move", {"forward", "wheel", "about_face", "formation"}},
      {"command", {"move_to", "attach", "detach", "steady", "inspire"}},
  };
  for (Formation f : {Formation::kLine, Formation::kAssaultColumn, Formation::kMarchColumn}) {
    r.formations.push_back(term_of(to_string(f)));
  }
  r.edit_kinds = {
      {"move", "Move a unit, gun or leader", {"x", "y", "facing"}, ""},
      {"remove", "Remove from the table", {}, ""},
      {"set_dps", "Set DPs", {"value"}, ""},
      {"set_formation", "Set a unit's formation", {"key"}, "Formation: line, assault column, march column or unformed"},
      {"advantage_of_ground", "Rule on a unit's advantage of ground", {"flag"}, ""},
  };
  r.statuses = {term_of("limbered"), term_of("wounded"), term_of("routing"), term_of("retiring"), term_of("abandoned"),
                term_of("inspired", "Inspired", "A leader inspires it this turn"),
                term_of("steadied", "Steadied", "Steadied this turn: it remains halted"),
                term_of("halted", "Halted", "Its control test halts it this turn"),
                term_of("repeating", "Repeats its move", "Its control test has it repeat its last move"),
                term_of("charging", "Charging", "Its control test holds it to its failed charge")};
  for (Arm a : {Arm::kFoot, Arm::kHorse, Arm::kDragoons, Arm::kDismountedDragoons}) {
    r.troop_types.push_back(term_of(to_string(a)));
  }
  for (GunType t : {GunType::kHeavy, GunType::kField, GunType::kBattalion}) r.troop_types.push_back(term_of(to_string(t)));
  return r;
}

}  // namespace galloper::rules::cfeo
