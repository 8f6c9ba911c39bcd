#pragma once
// The sheet's "Combat and Close Fire" tables: the modifiers, the dice per
// base that need no geometry, the hit threshold, the Combat Results table
// with each row's reactions, and the free hack. Rulings T5-T12 (RULINGS.md
// "Tables").
//
// A side's dice are its counted bases plus its modifiers, never fewer than
// none: the modifiers add or take away dice, as in Malbrook (T5).
#include <span>
#include <string_view>
#include <vector>

#include "rules/cfeo/table_terms.hpp"
#include "rules/core/dice.hpp"

namespace galloper::rules::cfeo::tables {

// ---- Modifiers ----

// One side's circumstances in a combat. Each field is one line of the sheet's
// list; the "additional" lines come on top of "charging, counter-charging or
// pursuing", which the caller sets as well.
struct CombatFactors {
  Grade grade = Grade::kC;
  int inspire_actions = 0;                   // "+1 leader inspiring (+1 each action to max +2)" (T6)
  bool advantage_of_ground = false;
  bool charging_or_pursuing = false;         // charging, counter-charging or pursuing
  bool a_outrance_vs_cavalry = false;        // "+1 additional if charging à l'outrance vs. cavalry"
  bool cavalry_pursuing = false;             // "+1 additional if cavalry pursuing"
  bool traditional_cavalry_deeper_vs_cavalry = false;
  bool foot_line_not_fired_by_platoons = false;
  int dps = 0;                               // "-1 each DP"
  bool foot_moved_charged_by_cavalry = false;
  bool hit_in_flank_or_rear = false;         // "by charge from behind flank/rear"
};

inline constexpr int kMaxInspire = 2;

// Every line that applies, in the sheet's order.
std::vector<Modifier> combat_modifiers(const CombatFactors& f);
int combat_modifier(const CombatFactors& f);

// ---- Dice per base ----

// "Assault column count all the first and second ranks and half the third and
// fourth ranks if charging. Otherwise count only the front rank."
// `bases_per_rank` front rank first. Half of the third and fourth ranks
// together, rounded up; ranks behind the fourth never count (T7).
int assault_column_bases(std::span<const int> bases_per_rank, bool charging);

// "Pike bases 2 D6 if facing cavalry, 1 D6 if charging. Do not count if
// facing infantry in other circumstances." Facing guns and not charging: an
// ordinary base, 1 D6 (T8).
int pike_base_dice(Arm facing, bool charging);

// The side's dice: counted base dice plus the modifier, at least 0 (T5).
int combat_dice(int base_dice, int modifier);

// ---- Hits ----

// "6 if in march column or unformed; or if opponent defending fieldworks.
// 5-6 in other circumstances."
int hit_threshold(bool march_column_or_unformed, bool opponent_defending_fieldworks);
int count_hits(std::span<const int> faces, int threshold);

struct CombatRoll {
  std::vector<int> faces;
  int hits = 0;
  friend bool operator==(const CombatRoll&, const CombatRoll&) = default;
};
CombatRoll roll_combat(Dice& dice, int combat_dice, int threshold);

// ---- Combat Results ----

// Each side reads its own row by its own hits less its opponent's (T9):
//   +4 or more Victory, +1..+3 Success, 0 Inconclusive, -1/-2 Driven Back,
//   -3..-7 Defeat, -8 or less Break (T10).
enum class CombatResult : std::uint8_t { kVictory, kSuccess, kInconclusive, kDrivenBack, kDefeat, kBreak };
std::string_view to_string(CombatResult r);
CombatResult combat_result(int difference);
// The row's DPs as printed: 1 / 1 / 2 / 3 / 4 / 5.
int combat_result_dps(CombatResult r);

// What the row tells a unit to do. "Any permitted action" and "remain in
// place or retire" are the player's choice among those (Movement after
// Combat); the others are forced.
enum class Reaction : std::uint8_t {
  kAnyPermittedAction,
  kRemainInPlace,
  kRemainOrRetire,       // Inconclusive: "choose to remain in place or retire"
  kRetire,
  kPursue,
  kRideThrough,
  kGunsAbandoned,        // Driven Back: "abandoned but crew not killed"
  kGunsAbandonedCrewKilled,
  kRout,
};
std::string_view to_string(Reaction r);

// Who a unit fought, as the rows name them.
struct Opponents {
  bool formed_foot = false;   // infantry other than skirmishers
  bool skirmishers = false;
  bool cavalry = false;
  bool deep_cavalry = false;  // cavalry more than a single rank deep (implies `cavalry`)
  bool guns = false;
};

// The unit reading the table.
struct CombatUnit {
  Arm arm = Arm::kInfantry;
  Grade grade = Grade::kC;
  bool charged = false;       // it charged (counter-charges included)
  bool a_outrance = false;    // it charged à l'outrance
  bool was_charged = false;   // it was the target of a charge
};

struct CombatOutcome {
  CombatResult result = CombatResult::kInconclusive;
  int dps = 0;        // the row's DPs, and the extra one where the row adds it
  int extra_dps = 0;  // "Cavalry that charged foot take an additional DP" (in `dps`)
  Reaction reaction = Reaction::kAnyPermittedAction;
  friend bool operator==(const CombatOutcome&, const CombatOutcome&) = default;
};
// `difference`: the unit's side's hits less the opponent's.
CombatOutcome combat_outcome(int difference, const CombatUnit& unit, const Opponents& opponents);

// ---- Free hack ----

// "Roll 1 D6 for every pursuing stand in contact, inflicting 1 casualty for
// every 4+ rolled."
int free_hack_casualties(std::span<const int> faces);

struct FreeHackRoll {
  std::vector<int> faces;
  int casualties = 0;
  friend bool operator==(const FreeHackRoll&, const FreeHackRoll&) = default;
};
FreeHackRoll roll_free_hack(Dice& dice, int stands_in_contact);

}  // namespace galloper::rules::cfeo::tables
