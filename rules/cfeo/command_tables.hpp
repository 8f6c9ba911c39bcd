#pragma once
// The sheet's command and morale tables: the Control Test, Risk to Leader,
// Morale DPs, Redress Ranks and Maximum DPs. Pure functions of plain inputs.
// Rulings T3, T13 and T17 (RULINGS.md "Tables").
#include <optional>
#include <string_view>

#include "rules/cfeo/table_terms.hpp"
#include "rules/core/dice.hpp"
#include "rules/core/leader_risk.hpp"

namespace galloper::rules::cfeo::tables {

// ---- Control Test ----

// "+ or -1 (optional) if leader attached. + or -1 (optional) if guns or A/B
// Grade." Each is the player's: +1, -1, or left off (T13).
struct ControlTestTerms {
  bool leader_attached = false;
  bool guns_or_a_b_grade = false;
};
struct ControlTestChoice {
  int leader = 0;         // -1, 0 or +1
  int guns_or_grade = 0;  // -1, 0 or +1
};
// The net modifier, or nothing when the choice is not one the terms allow.
std::optional<int> control_test_modifier(const ControlTestTerms& terms, const ControlTestChoice& choice);

enum class ControlResult : std::uint8_t { kHalt, kAsWished, kRepeatLastMove, kContinue };
std::string_view to_string(ControlResult r);

// "Continue rout/pursuit/loot/charge unless 3-4 result. Otherwise: 2- = Halt.
// 3-4 = Act as player wishes. 5+ = Repeat last move." `continuing`: the unit
// is routing, pursuing, looting or charging. Unlike Malbrook's table
// (control_test_result there), looting is like the rest, there is no fixed +1
// and a continuing unit continues on 2- as well as 5+.
ControlResult control_test_result(int total, bool continuing);

struct ControlTestRoll {
  int face = 0;
  int total = 0;
  ControlResult result = ControlResult::kAsWished;
  friend bool operator==(const ControlTestRoll&, const ControlTestRoll&) = default;
};
// The modifier is control_test_modifier's.
ControlTestRoll roll_control_test(Dice& dice, int modifier, bool continuing);

// ---- Risk to Leader ----

using rules::LeaderFate;

// Once hit (a 1), "Roll again: 1 = Killed. 2-4 = Wounded. Loose 1 action.
// Killed on 2nd wound. 5-6 = Near miss." The same table as Malbrook's
// (rules/core/leader_risk.hpp), word for word: leader_hit_result there.
using rules::leader_hit_result;

// "Wounded. Loose 1 action."
inline constexpr int kWoundActionsLost = 1;

struct LeaderRiskRoll {
  int first = 0;   // 1 = hit
  int second = 0;  // rolled only when hit; 0 otherwise
  LeaderFate fate = LeaderFate::kUnhurt;
  friend bool operator==(const LeaderRiskRoll&, const LeaderRiskRoll&) = default;
};
// "Roll one D6: 1 = Hit. Roll again: ..."
LeaderRiskRoll roll_risk_to_leader(Dice& dice, int wounds_before);

// ---- Morale DPs (the morale phase) ----

inline constexpr int kMoraleRange = 120;  // "in 120 yds": at most 120 yds (T3)

enum class MoraleCause : std::uint8_t {
  kGeneralOrMarshalKilledOrRouting,      // 2 DPs
  kEqualOrHigherRoutingOrDestroyed,      // 2 DPs
  kLowerRoutingOrDestroyed,              // 1 DP
  kEqualOrHigherFootRetiring,            // 1 DP
  kEvading,                              // 1 DP
  kRideThroughOrTakePosition,            // -1 DP
};
std::string_view to_string(MoraleCause c);
int morale_dps(MoraleCause cause);

// What a friendly unit did, within sight of the rules' 120 yds.
enum class FriendFate : std::uint8_t { kRouting, kDestroyed, kRetiring };
struct FriendSeen {
  FriendFate fate = FriendFate::kRouting;
  Grade grade = Grade::kC;
  Arm arm = Arm::kInfantry;
  double yards = 0;  // from the unit taking the DPs
};
// The line of the list a friend's fate falls under for a unit of
// `own_grade`, or nothing (too far; a lower-grade or mounted unit retiring).
std::optional<MoraleCause> morale_cause(Grade own_grade, const FriendSeen& friend_unit);

// ---- Redress Ranks ----

struct RedressTerms {
  Grade grade = Grade::kC;
  bool stationary = false;
  bool under_fire = false;                // only E Grade asks
  bool in_combat = false;
  bool dps_from_artillery_this_turn = false;
};
// DPs the unit may remove ("A/B Grade. -1 DP & 1 additional if stationary.
// C/D Grade. -1 DP if stationary. E Grade. -1 DP if stationary and not under
// fire."): none in combat or after DPs from artillery fire this turn. Never
// more than the unit has: the caller takes min(allowance, dps).
int redress_allowance(const RedressTerms& terms);

// ---- Maximum DPs ----

// "Once a unit has 3 DPs for any reason it no longer incurs any more DPs for
// movement or manoeuvre": DPs from movement or manoeuvre stop at 3 (T17).
inline constexpr int kMovementDpCap = 3;
// The DPs of movement or manoeuvre a unit with `current_dps` actually takes
// of `incurred`.
int movement_dps_taken(int current_dps, int incurred);

}  // namespace galloper::rules::cfeo::tables
