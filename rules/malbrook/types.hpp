#pragma once
// The vocabulary of Malbrook s'en va-t-en guerre: troop types, grades, fighting
// styles, formations, guns, orders, ranks and the phases of a turn.
#include <cstdint>
#include <string_view>

namespace galloper::rules::malbrook {

// Table units are inches; 1" is about 60 paces (Scale).
inline constexpr std::string_view kRulesetName = "malbrook";
inline constexpr std::string_view kUnitName = "inch";

enum class TroopType : std::uint8_t {
  kFoot,
  kHorse,
  kDragoons,  // mounted
  kDismountedDragoons,
  kHussars,
  kCivilians,
};

enum class Grade : std::uint8_t { kA, kB, kC, kD, kE };

enum class FightingStyle : std::uint8_t { kTraditional, kNew };

enum class Formation : std::uint8_t {
  kLine,
  kTwoRankLine,  // "A brigade in line may form two ranks deep..."
  kMarchColumn,
  kFieldColumn,
  kUnformed,
};

enum class GunWeight : std::uint8_t { kLight, kMedium, kHeavy, kHowitzer, kMortar };

enum class WingOrder : std::uint8_t {
  kDefend,            // 1. Defend current position
  kAdvanceAndDefend,  // 2. Advance to and defend a specific position
  kAdvanceAndAttack,  // 3. Advance to and attack the enemy
};

enum class LeaderRank : std::uint8_t { kMajorGeneral, kLieutenantGeneral, kMarshal };

// Sequence of Play. kInitiative is the dice for who moves first; kEnded after
// the last turn or when the umpire ends the game.
enum class Phase : std::uint8_t {
  kInitiative,
  kBombardment,
  kCommand,
  kMovement,
  kCloseFire,
  kCombat,
  kMorale,
  kEnded,
};

// "Cavalry. An inclusive term for horse, mounted dragoons and hussars. It does
// not include dismounted dragoons."
constexpr bool is_cavalry(TroopType t) {
  return t == TroopType::kHorse || t == TroopType::kDragoons || t == TroopType::kHussars;
}

// "Foot. Troops that fight on foot. This includes dismounted dragoons as well
// as infantry."
constexpr bool is_foot(TroopType t) {
  return t == TroopType::kFoot || t == TroopType::kDismountedDragoons;
}

constexpr bool is_dragoons(TroopType t) {
  return t == TroopType::kDragoons || t == TroopType::kDismountedDragoons;
}

// "Dismounted dragoons, hussars and civilians are always unformed."
constexpr bool always_unformed(TroopType t) {
  return t == TroopType::kDismountedDragoons || t == TroopType::kHussars ||
         t == TroopType::kCivilians;
}

std::string_view to_string(TroopType t);
std::string_view to_string(Grade g);
std::string_view to_string(FightingStyle s);
std::string_view to_string(Formation f);
std::string_view to_string(GunWeight w);  // "light gun", "medium gun", ...
std::string_view to_string(WingOrder o);
std::string_view to_string(LeaderRank r);
std::string_view to_string(Phase p);

// ---- Command and control (command.hpp, control.hpp) ----

// What the command phase decided for a brigade or gun this turn ("Command and
// control"). The movement and combat phases act on it.
enum class ControlResult : std::uint8_t {
  kUnknown,         // not yet determined this turn
  kControlled,      // within range of a visible detached leader of its chain, or a leader attached
  kConforming,      // uncontrolled but conforms to a controlled brigade (Brigade::conform_to)
  kTest,            // must take a control test (or chose to); awaiting the roll
  kHalt,            // test 2- (not routing/pursuing/charging): halt marker
  kAsWished,        // test 3-4: act as the player wishes
  kRepeatLastMove,  // test 5+: repeat last move
  kContinue,        // test 2- or 5+ while routing/pursuing/charging (or looting 5+): continue
};
std::string_view to_string(ControlResult r);

// Sub-steps of the command phase.
enum class CommandStage : std::uint8_t {
  kActions,  // leaders' command actions
  kControl,  // control-test choices and rolls
};

// ---- Damage (damage.hpp) ----

// Where DPs come from ("DPs can result from manoeuvre, fire, combat and
// morale"): manoeuvre DPs stop at 3; the others turn into casualties beyond
// the brigade's bases (up to 6).
enum class DpCause : std::uint8_t { kManoeuvre, kFire, kCombat, kMorale };
std::string_view to_string(DpCause c);

// Why attached leaders test ("Risk to Leaders"): "once for fire and once for
// combat"; kCasualty for a casualty taken in any other circumstances.
enum class RiskCause : std::uint8_t { kFire, kCombat, kCasualty };
std::string_view to_string(RiskCause c);

}  // namespace galloper::rules::malbrook
