#pragma once
// What a ruleset says of itself: its name, its measure, its play modes, its
// seats and its words. The server sends it to every client (RulesetInfo,
// proto/galloper/v1/protocol.proto) and the client takes its vocabulary, its
// unit and its umpire's edit kinds from it: nothing outside rules/<ruleset>/
// knows a ruleset's words.
//
// Also the shape of a scenario's problems of meaning, which every ruleset's
// checker returns: a field path the codec turns into a line and column.
//
// A ruleset is registered in proto/codec/rulesets.cpp (one line): its
// RulesetInfo, how its scenario is checked and made into a game. What its
// bot proposes is the ruleset's Game::propose (game.hpp).
#include <string>
#include <string_view>
#include <vector>

namespace galloper::rules {

// A key the engine uses (in a view, a decision or an answer) and the words a
// player reads for it.
struct Term {
  std::string key;    // "march column", "charge", "set_dps"
  std::string label;  // "March column"
  std::string help;   // one sentence, or empty

  friend bool operator==(const Term&, const Term&) = default;
};

// A term whose label is its key in sentence case unless given:
// term_of("march column") is {"march column", "March column", ""}.
Term term_of(std::string_view key, std::string label = "", std::string help = "");

// An umpire's edit kind (rules/core/edit.hpp) and the fields of StateEdit it
// reads: "x", "y", "facing" (to), "value", "key", "flag".
struct EditKindInfo {
  std::string kind;
  std::string label;
  std::vector<std::string> fields;
  std::string key_label;  // what `key` means for this kind, when it reads one

  friend bool operator==(const EditKindInfo&, const EditKindInfo&) = default;
};

// An action an order's step may take and the fields of the step it reads:
// "distance", "angle_deg", "pivot", "side" (the pivot field, naming the side
// moved to), "formation", "to", "target".
struct StepAction {
  std::string key;
  std::string label;
  std::vector<std::string> fields;

  friend bool operator==(const StepAction&, const StepAction&) = default;
};

// The actions an order's steps may take in answer to a kind of decision, in
// the order a player is offered them.
struct OrderKind {
  std::string decision_kind;
  std::vector<std::string> actions;

  friend bool operator==(const OrderKind&, const OrderKind&) = default;
};

// A decision kind whose answers leave a count of dice to a later decision:
// the counts the odds of an answer may assume (OddsQuestion::dice).
struct OddsDice {
  std::string decision_kind;
  std::vector<Term> choices;  // key "2", label "2 AvD"
  std::string default_choice;

  friend bool operator==(const OddsDice&, const OddsDice&) = default;
};

struct RulesetInfo {
  std::string name;         // the scenario's `ruleset` and the registry's key: "malbrook"
  std::string title;        // "Malbrook s'en va-t-en guerre"
  std::string unit_name;    // the table unit, singular: "inch"
  std::string unit_plural;  // "inches"
  std::string scale;        // what the unit stands for on the ground: "1 inch = 50 paces"
  bool alternate = true;     // sides may alternate phase by phase
  bool simultaneous = true;  // both sides may answer a phase in one step (play-by-web)
  std::vector<Term> seat_roles;   // "army", "wing": who commands what
  std::vector<Term> phases;       // Game::phase() values
  std::vector<Term> decision_kinds;     // Decision::kind values
  std::vector<StepAction> step_actions;  // OrderStep::action values
  std::vector<OrderKind> orders;         // which actions answer which decision
  std::vector<Term> formations;   // those an order may ask for (a view may show others: "unformed")
  std::vector<Term> statuses;     // UnitView::status values
  std::vector<Term> troop_types;  // UnitView::troop_type values
  std::vector<EditKindInfo> edit_kinds;
  std::vector<OddsDice> odds_dice;

  friend bool operator==(const RulesetInfo&, const RulesetInfo&) = default;
};

// ---- Scenario problems ----

struct PathStep {
  std::string field;
  int index = -1;  // -1 for a singular field
  friend bool operator==(const PathStep&, const PathStep&) = default;
};
// The chain of scenario-file field names and repeated-field indices that
// leads to a field, e.g. {{"armies",0},{"wings",1},{"bases",-1}}.
using FieldPath = std::vector<PathStep>;

// One thing wrong with a scenario. `where` names the field; the message reads
// on its own ("brigade 'fr_b3': a foot brigade has 3-12 bases, not 2").
struct SpecProblem {
  FieldPath where;
  std::string message;
};

}  // namespace galloper::rules
