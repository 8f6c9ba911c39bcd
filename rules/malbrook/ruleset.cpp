#include "rules/malbrook/ruleset.hpp"

#include <string>

#include "rules/malbrook/state.hpp"
#include "rules/malbrook/types.hpp"

namespace galloper::rules::malbrook {

namespace {

RulesetInfo build() {
  RulesetInfo r;
  r.name = std::string(kRulesetName);
  r.title = "Malbrook s'en va-t-en guerre";
  r.unit_name = "inch";
  r.unit_plural = "inches";
  // Full rules, "Scale": "One inch on the wargames table represents
  // approximately 60 paces which is effective musketry range."
  r.scale = "1 inch = about 60 paces";
  r.seat_roles = {
      term_of("umpire", "Umpire", "Runs the game and sees the whole table"),
      term_of("army", "Army", "The Marshal: his own leaders and the army's troops of one side"),
      term_of("wing", "Wing", "A Lieutenant General's wing"),
  };
  for (Phase p : {Phase::kInitiative, Phase::kBombardment, Phase::kCommand, Phase::kMovement, Phase::kCloseFire,
                  Phase::kCombat, Phase::kMorale, Phase::kEnded}) {
    r.phases.push_back(term_of(to_string(p)));
  }
  r.decision_kinds = {
      term_of("initiative", "Initiative"),
      term_of("artillery_aim", "Artillery target"),
      term_of("artillery_fire", "Artillery fire"),
      term_of("musket_at_leader", "Musketry at a leader"),
      term_of("recrew", "Re-crew a gun"),
      term_of("take_over", "Take over a gun"),
      term_of("command_actions", "Command actions"),
      term_of("leader_move", "Leader's move"),
      term_of("control_test", "Control test"),
      term_of("move_dice", "Move dice"),
      term_of("move", "Movement orders"),
      term_of("charge_declaration", "Charge declaration"),
      term_of("charge_response", "Charge response"),
      term_of("charge_dice", "Charge dice"),
      term_of("flanking_fire_point", "Flanking fire"),
      term_of("after_combat", "After combat"),
      term_of("continue_retire", "Continue to retire"),
      term_of("pursuit_counter_charge", "Counter-charge the pursuers"),
  };
  r.step_actions = {
      {"forward", "Forward", {"distance", "angle_deg"}},
      {"wheel", "Wheel", {"pivot", "angle_deg"}},
      {"incline", "Incline", {"distance", "side"}},
      {"side_step", "Side step", {"distance", "side"}},
      {"step_back", "Step back", {"distance"}},
      {"about_face", "About face", {}},
      {"formation", "Change formation", {"formation", "angle_deg"}},
      {"reform", "Re-form", {"formation", "angle_deg"}},
      {"pivot", "Pivot", {"angle_deg"}},
      {"unlimber", "Unlimber", {}},
      {"mount", "Mount", {}},
      {"dismount", "Dismount", {}},
      {"horse_holders", "Horse holders", {"to"}},
      {"split", "Split", {}},
      {"merge", "Merge", {"target"}},
      {"move_to", "Move to", {"to"}},
      {"attach", "Attach to", {"target"}},
      {"detach", "Detach", {}},
      {"steady", "Steady", {}},
      {"inspire", "Inspire", {}},
      {"listen", "Listen", {"target"}},
      {"objective", "Objective", {"to"}},
  };
  r.orders = {
      {"move", {"forward", "wheel", "incline", "side_step", "step_back", "about_face", "formation", "reform", "pivot",
                "unlimber", "mount", "dismount"}},
      {"leader_move", {"move_to"}},
      {"command_actions", {"detach", "move_to", "attach", "steady", "inspire", "listen"}},
      {"move_dice", {"objective"}},
  };
  // The formations an order may ask for; "unformed" is a state, not an order.
  for (Formation f : {Formation::kLine, Formation::kTwoRankLine, Formation::kMarchColumn, Formation::kFieldColumn}) {
    r.formations.push_back(term_of(to_string(f)));
  }
  for (std::uint32_t b = 0; b < kStatusCount; ++b) r.statuses.push_back(term_of(to_string(static_cast<Status>(1u << b))));
  r.statuses.push_back(term_of("limbered"));
  r.statuses.push_back(term_of("wounded"));
  for (TroopType t : {TroopType::kFoot, TroopType::kHorse, TroopType::kDragoons, TroopType::kDismountedDragoons,
                      TroopType::kHussars, TroopType::kCivilians}) {
    r.troop_types.push_back(term_of(to_string(t)));
  }
  for (GunWeight w : {GunWeight::kLight, GunWeight::kMedium, GunWeight::kHeavy, GunWeight::kHowitzer,
                      GunWeight::kMortar}) {
    r.troop_types.push_back(term_of(to_string(w)));
  }
  // RULINGS.md, "Umpire edits".
  r.edit_kinds = {
      {"move", "Move a unit or leader", {"x", "y", "facing"}, ""},
      {"remove", "Remove from the table", {"key"}, "How (leaders: killed or captured)"},
      {"set_dps", "Set DPs", {"value"}, ""},
      {"leader_status", "Set a leader's status", {"key", "value"}, "Status: active, killed or captured (empty keeps it)"},
      {"attach", "Attach or detach a leader", {"key"}, "Brigade to attach to (empty detaches)"},
      {"advantage_of_ground", "Rule on advantage of ground", {"flag"}, ""},
  };
  // A charge's dice are chosen after it is declared ("charge_dice"); its odds
  // assume a count (the charge table: 1 or 2 AvD, + a D6).
  r.odds_dice = {{"charge_declaration", {term_of("1", "1 AvD"), term_of("2", "2 AvD"), term_of("3", "2 AvD + D6")}, "2"}};
  return r;
}

}  // namespace

RulesetInfo ruleset_info() { return build(); }

}  // namespace galloper::rules::malbrook
