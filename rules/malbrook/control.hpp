#pragma once
// Control at the end of the Command Phase ("Command and control", the
// Control Test).
//
// determine_control() runs once every leader has acted and sets, on every
// brigade and gun of both armies, Brigade::control / Gun::control:
//   kControlled  within 4" (a Marshal: 6") of a detached leader of its chain
//                of command who can see it from his stand (core line of
//                sight), or with a leader of its chain attached;
//   kConforming  not controlled, but in base-to-base contact (1/2" inside a
//                command) with a controlled brigade of the same command as
//                part of a continuous line, or within 4" directly behind one
//                (conform_behind: it does not charge with the lead);
//   kTest        everything else, and whatever charged and failed to contact
//                last turn (Status::kFailedCharge) even if controlled.
// Then the owning seats answer "control/<unit>" where they have a choice
// (conform or test; continue a rout/pursuit/looting or test to cease it; the
// +/-1 for an attached leader and for guns or A-B grade) and the engine rolls
// the tests, each side right to left, setting kHalt (and the halt marker),
// kAsWished, kRepeatLastMove or kContinue for the movement and combat phases.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "rules/core/decision.hpp"
#include "rules/core/dice.hpp"
#include "rules/malbrook/state.hpp"

namespace galloper::rules::malbrook {

inline constexpr double kControlRange = 4.0;          // Major and Lieutenant Generals
inline constexpr double kMarshalControlRange = 6.0;   // "(6 inches of a Marshal)"
inline constexpr double kCommandContact = 0.5;        // "a gap of up to 1/2 inch between brigades in the same command"
inline constexpr double kConformBehind = 4.0;         // "within 4 inches, directly behind"
inline constexpr double kConformFacing = 45.0;        // facing difference still "conforming" (RULINGS.md)
inline constexpr std::string_view kControlDecisionPrefix = "control/";

// Sets control, controlled_by, conform_to and conform_behind on every
// brigade and gun on the table (both armies).
void determine_control(GameState& state);

class SceneLookup;
// Whether determine_control would set gun `gun_index` kControlled, without
// working out the rest: a gun's control depends only on the leaders, the gun
// and who sees whom, none of which determine_control sets. `scene` is the
// state's (SceneLookup(state)). The bombardment phase asks this of the guns
// that would fire, before the turn's command phase sets control.
bool gun_controlled(const GameState& state, const SceneLookup& scene, std::size_t gun_index);

// The leader attached to a brigade (of its chain of command), or nullptr.
const Leader* attached_leader(const GameState& state, const Brigade& brigade);

// What a unit's control test would add: the fixed +1 ("if in Rout, Pursuit
// or Charging") and how many +/-1 choices its seat has (leader attached;
// guns or A-B grade).
struct ControlModifiers {
  int fixed = 0;
  int choices = 0;
};
ControlModifiers control_modifiers(const GameState& state, const Brigade& brigade);
ControlModifiers control_modifiers(const GameState& state, const Gun& gun);

// The Control Test table: a modified total to a reaction.
//   2-  continue rout/pursuit/charge, otherwise halt
//   3-4 act as the player wishes
//   5+  repeat last move; continue rout/pursuit/charge (and looting)
ControlResult control_test_result(int total, bool continuing, bool looting);

std::vector<Decision> control_pending(const GameState& state);
// Rolls the tests of the acting armies (acting_armies()), with the seats' answers.
void resolve_control(GameState& state, const std::vector<Answer>& answers, Dice& dice, std::vector<Event>& events);

}  // namespace galloper::rules::malbrook
