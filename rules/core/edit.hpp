#pragma once
// An umpire's edit of a game's state (ARCHITECTURE.md: "The umpire can force,
// undo (rewind to an earlier step), and edit state"). Ruleset-independent in
// shape, like the decision model: a kind, the unit or leader it concerns and
// the fields that kind reads; each ruleset says which kinds it takes and what
// they mean (rules/malbrook/RULINGS.md, "Umpire edits").
//
// Kinds a ruleset is expected to know, where it has the concept:
//   "move"                subject, position (required), facing_deg (kept if absent)
//   "remove"              subject taken off the table; key: how (ruleset's names)
//   "set_dps"             subject, value: its disorder points
//   "leader_status"       subject (a leader); key: "active", "killed" or "captured" (kept if empty);
//                         value: wounds (kept if absent)
//   "attach"              subject (a leader); key: the unit he joins ("" detaches)
//   "advantage_of_ground" subject (a brigade); flag: the ruling (absent clears it)
#include <cstdint>
#include <optional>
#include <string>

#include "rules/core/vec2.hpp"

namespace galloper::rules {

struct StateEdit {
  std::string kind;
  std::string subject;               // unit or leader id
  std::optional<Vec2> position;      // table units
  std::optional<double> facing_deg;  // clockwise from north
  std::optional<std::int64_t> value; // a count: DPs, wounds
  std::string key;                   // a name the kind takes: a status, a unit
  std::optional<bool> flag;          // a yes/no ruling; absent: clear it

  friend bool operator==(const StateEdit&, const StateEdit&) = default;
};

// One line for people (the audit trail): "move b1 to (12, 30) facing 90".
std::string describe(const StateEdit& edit);

// A table measure for people: at most two decimals, no trailing zeros ("12", "0.25").
std::string format_number(double d);

}  // namespace galloper::rules
