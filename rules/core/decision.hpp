#pragma once
// The decision model every ruleset speaks (ARCHITECTURE.md, "The decision
// model"): at each step the engine lists the decisions it is owed and by which
// seat; a seat answers; when every owing seat has answered (or defaulted), the
// engine resolves the step with the step's dice into the next state and the
// events that happened.
//
// The shapes are deliberately generic (ids and names as strings, one order as a
// list of primitive steps) so one wire format serves Malbrook, Close Fire &
// European Order and Black Powder; each ruleset checks what the names mean.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "rules/core/dice.hpp"
#include "rules/core/result.hpp"
#include "rules/core/vec2.hpp"

namespace galloper::rules {

class Game;

// One legal choice of an enumerable decision.
struct Option {
  std::string id;     // what the answer sends back: "first", "halt", "2"; plain, never marked up
  std::string label;  // for people: a template (rules/core/tell.hpp), told to the seat by tell_decision
  std::string piece = {};  // the piece the option names (a charge's or a shot's target), if it names one
  bool odds = false;       // its odds may be asked (Game::odds, OddsQuestion::Kind::kAnswer)

  friend bool operator==(const Option&, const Option&) = default;
};

// A question the engine asks one seat at the current step.
struct Decision {
  std::string id;                     // unique within the step and stable: "initiative", "move/b7"
  std::string seat;                   // the seat that owes the answer
  std::string kind;                   // the ruleset's name for the question: "move_dice", "move", ...
  std::vector<std::string> subjects;  // the units and leaders it concerns
  std::string prompt;                 // for people: a template (rules/core/tell.hpp)
  std::vector<Option> options;        // the legal choices, where they can be listed
  std::string default_option;         // what a missed deadline gives (hold/halt/stand); "" = none
  // Numbers the client needs to offer a legal order (e.g. "max_distance": 3.5,
  // "max_dice": 2); names are the ruleset's.
  std::vector<std::pair<std::string, double>> limits;

  friend bool operator==(const Decision&, const Decision&) = default;
};

// One primitive of an order: a move or a manoeuvre. Orders are lists of these,
// carried out in order; the ruleset checks each against what the rules allow.
struct OrderStep {
  std::string action;    // "forward", "wheel", "incline", "side_step", "step_back", "about_face",
                         // "formation", "reform", "unlimber", "pivot", "mount", "dismount",
                         // "move_to", "attach", "detach", "steady", "inspire", ...
  double distance = 0;   // table units
  double angle_deg = 0;  // wheels and pivots, clockwise positive
  std::string pivot;     // wheels: "left" or "right" (the front corner pivoted on)
  std::string formation; // formation changes: the new formation's name
  Vec2 to;               // moves to a point (leaders, messengers)
  std::string target;    // a unit, leader or seat the step concerns
  // Orders passed down the chain of command ("issue_orders", "send_messenger"):
  std::string order;     // "defend", "advance_and_defend", "advance_and_attack", or "reassign"
  bool has_objective = false;  // advance orders: `to` is the objective point
  std::string feature;   // advance orders: the objective terrain feature, if any
  std::string unit;      // "reassign": the brigade, gun or command re-assigned
  std::string wing;      // "reassign": the destination wing
  std::string command;   // "reassign": the destination command (empty: wing level, guns only)

  friend bool operator==(const OrderStep&, const OrderStep&) = default;
};

struct Answer {
  std::string decision_id;
  std::string seat;
  std::string option;             // for decisions with options
  std::vector<OrderStep> steps;   // for orders

  friend bool operator==(const Answer&, const Answer&) = default;
};

// A point an event concerns, and whose position it is: a seat is told the
// point only when it sees that piece (tell_event).
struct Place {
  Vec2 point;
  std::string of = {};  // the piece whose position `point` is; empty for a point of the event itself (an aim point)

  friend bool operator==(const Place&, const Place&) = default;
};

// Something that happened, for the log and for players. Never sent as it is:
// each seat is told its own copy (rules/core/tell.hpp, tell_event), built from
// what that seat sees: `subjects` say who must be seen for a seat to learn of
// it, `text` is a template naming pieces by reference; public events reach
// everyone.
struct Event {
  std::string kind;                   // "initiative", "control_test", "moved", "dp", ...
  std::string text;                   // for people: a template (rules/core/tell.hpp)
  std::vector<std::string> subjects;  // units and leaders concerned
  std::vector<Place> where;           // where it happened
  std::vector<DieRoll> dice;          // every die rolled for it, in order
  bool is_public = false;             // turn and phase changes, initiative
};

// A public event: turn and phase changes, who acts first.
inline Event public_event(std::string kind, std::string text, std::vector<DieRoll> dice = {}) {
  Event e;
  e.kind = std::move(kind);
  e.text = std::move(text);
  e.dice = std::move(dice);
  e.is_public = true;
  return e;
}

struct Resolution {
  std::unique_ptr<Game> next;
  std::vector<Event> events;
};

}  // namespace galloper::rules
