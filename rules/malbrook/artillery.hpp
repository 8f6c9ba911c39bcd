#pragma once
// Artillery: the Bombardment and Close Artillery Fire phases ("Artillery
// Fire", "Sequence of Play"), guns in combat ("Guns in Combat", "Guns"), and
// foot firing on lone leaders ("Risk to Leaders").
//
// Each phase is played side by side like the others (sequence.hpp: the side
// with initiative, then the other; both in one step when simultaneous). In a
// side's half its seats answer, per piece:
//
//   "recrew/<gun>"    (bombardment only) kind "recrew": an abandoned gun whose
//                     crew lives and with no formed enemy within 2": "recrew"
//                     or "stay" (default). A re-crewed gun does not fire in
//                     the phase it is re-crewed (RULINGS.md).
//   "take_over/<gun>" (bombardment only) kind "take_over": an abandoned
//                     limbered enemy gun within 2" of one or more of the
//                     seat's brigades of 2+ bases: "no" (default) or the id
//                     of the brigade that detaches a base to take it over.
//   "fire/<gun>"      kind "artillery_fire": direct fire. Options: "hold"
//                     (default) and the ids of the targets it may engage: the
//                     nearest eligible target (all tied nearest), or any
//                     eligible target when the gun is under control.
//   "aim/<gun>"       kind "artillery_aim" (howitzers and mortars, bombardment
//                     only): option "hold" (default), or steps [{action:"aim",
//                     to:<point>}] with the point 2"-36" from the gun, in its
//                     front arc, and (if not under control) on the nearest
//                     enemy in that band (RULINGS.md).
//   "musket/<brigade>" (close fire only) kind "musket_at_leader": foot or
//                     dismounted dragoons with a lone enemy leader or
//                     messenger within 1" in their front arc and in sight:
//                     "hold" (default) or the leader/messenger id.
//
// Resolution of a half, in order: re-crewing and take-overs; then at the
// close fire phase, cavalry captures of lone leaders (capture_lone_leaders for
// every cavalry brigade); every shot, aimed and modified against the state at
// the start of the step, rolled gun by gun right to left; musketry at lone
// leaders. After the close fire phase's last half, abandon_guns_in_combat().
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/core/decision.hpp"
#include "rules/core/dice.hpp"
#include "rules/core/result.hpp"
#include "rules/malbrook/state.hpp"
#include "rules/malbrook/visibility.hpp"

namespace galloper::rules::malbrook {

// ---- Numbers ("Direct Fire", "Indirect Fire") ----
inline constexpr double kCloseRange = 2.0;
inline constexpr double kEffectiveRange = 8.0;
inline constexpr double kHeavyMaxRange = 36.0;      // heavy and field (medium) guns
inline constexpr double kLightMaxRange = 24.0;
inline constexpr double kIndirectMaxRange = 36.0;   // "up to 36 inches away"
inline constexpr double kIndirectMinRange = 2.0;    // "and beyond 2 inches"
inline constexpr double kFriendsClearance = 1.0;    // "Target must be beyond 1 inch of friends"
inline constexpr double kScatterPerPip = 0.5;       // "1 D6 x 1/2 inch"
inline constexpr double kArtilleryArc = 45.0;       // "within 45 degrees of centre"
inline constexpr double kCrewRefuge = 2.0;          // "no friends within 2 inches": captured
inline constexpr double kRecrewClear = 2.0;         // "no formed enemy are within 2 inches"
inline constexpr double kTakeOverReach = 2.0;       // RULINGS.md "Taking over abandoned guns"
inline constexpr double kGunCombat = 1.0;           // enemy within 1": the gun is in close combat
inline constexpr double kLoneLeader = 4.0;          // "further than 4 inches from any friend"
inline constexpr double kMusketRange = 1.0;         // "effective musket range (1 inch)"
inline constexpr double kCaptureContact = 0.5;      // base-to-base contact, with the 1/2" gap

enum class RangeBand : std::uint8_t { kNone = 0, kClose = 1, kEffective = 2, kBeyond = 3 };
std::string_view to_string(RangeBand b);
RangeBand range_band(double distance);

// Howitzers and mortars fire indirectly only (RULINGS.md).
constexpr bool fires_indirect(GunWeight w) { return w == GunWeight::kHowitzer || w == GunWeight::kMortar; }
double max_range(GunWeight w);

enum class FirePhase : std::uint8_t { kBombardment, kCloseFire };

// ---- Eligibility ----

struct FireTarget {
  PieceKind kind = PieceKind::kBrigade;  // kBrigade or kGun
  std::size_t index = 0;                 // into GameState::brigades / guns
  std::string id;
  double distance = 0;                   // edge to edge from the gun's base
  RangeBand band = RangeBand::kNone;
};

// A crewed (not abandoned), unlimbered gun on the table that may shoot in the
// phase: in the close fire phase not if its bombardment shot this turn was
// at close range, and if in close combat only if it did not fire in the
// bombardment phase; in the bombardment phase not while in close combat.
bool gun_may_fire(const GameState& s, const Gun& g, FirePhase phase);
// Every eligible direct-fire target, nearest first (then id): enemy brigades
// and crewed enemy guns with part of the footprint within 45° of the gun's
// front centre, within range (the close fire phase: 2"), in line of sight,
// and more than 1" from every friend of the gun. Ignores the nearest rule.
std::vector<FireTarget> eligible_targets(const GameState& s, const Gun& g, FirePhase phase);
// The targets the gun may choose: all eligible ones if under control,
// otherwise the nearest (all tied nearest).
std::vector<FireTarget> allowed_targets(const GameState& s, const Gun& g, FirePhase phase);
// "Guns which are under control of their leader": in the close fire phase the
// command phase's result (ControlResult::kControlled); in the bombardment
// phase, before this turn's command phase, control as it would be determined
// now (RULINGS.md).
bool gun_under_control(const GameState& s, const Gun& g, FirePhase phase);

// ---- Direct fire ----

struct FireModifiers {
  int weight = 0;            // heavy +1, light -1
  int gun_dps = 0;           // -1 per DP on the firing gun
  int beyond_effective = 0;  // -1
  int target_history = 0;    // same target and range +1, new target -1
  int exposed = 0;           // target column, limbered or enfilade +1 (once)
  int cover = 0;             // fortifications -2, fieldworks -1
  int total() const { return weight + gun_dps + beyond_effective + target_history + exposed + cover; }
  std::string describe() const;
};
FireModifiers direct_fire_modifiers(const GameState& s, const Gun& g, const FireTarget& t);

// Fire from the target's flank (RULINGS.md "Enfilade"): the firing gun's front
// centre lies outside both the target's front and rear 45° arcs. Unformed
// targets have no flanks.
bool enfilades(const Gun& firer, const GameState& s, const FireTarget& t);

enum class ShotResult : std::uint8_t { kNoEffect, kOneDp, kTwoDps, kDpAndCasualty };
std::string_view to_string(ShotResult r);
// The Results table for a modified roll: close range 2-3 1 DP, 4-5 2 DPs, 6+
// 1 DP and 1 casualty; effective range and beyond 4+ 1 DP.
ShotResult direct_fire_result(int modified_roll, RangeBand band);
// Rolls one D6 for a shot with the given total modifier.
ShotResult roll_direct_fire(Dice& dice, int modifier, RangeBand band);

// ---- Indirect fire ----

struct IndirectShot {
  Scatter scatter;
  int distance_die = 0;  // the D6 for distance, when off target
  Vec2 lands;
};
// The scatter die, and if off target a D6 x 1/2" along the die's bearing.
IndirectShot roll_indirect_fire(Dice& dice, Vec2 aim);
// The troops (either side) whose base the point falls on.
std::optional<FireTarget> unit_at(const GameState& s, Vec2 p);

// ---- The phases (engine.cpp dispatches kBombardment and kCloseFire) ----
std::vector<Decision> artillery_pending(const GameState& s);
Verdict artillery_check(const GameState& s, const Answer& a);
// The same, given artillery_pending(s).
Verdict artillery_check(const GameState& s, const std::vector<Decision>& pending, const Answer& a);
// Applies the acting side's answers (none when nothing was pending) and the
// automatic parts of the half. The answers must have passed
// artillery_check(s, ...) (resolve checks every answer first): a fire
// answer's target is taken as allowed.
void artillery_resolve(GameState& s, const std::vector<Answer>& answers, Dice& dice, std::vector<Event>& events);

// ---- Guns in combat (the combat phase calls these too) ----

// Crews of guns in close combat (an enemy brigade within 1" of the gun, or
// the gun marked kInCombat) abandon them and seek refuge with the nearest
// friendly brigade within 2" (kAbandoned, Gun::crew_with); with none, the
// guns are captured and the crews eliminated (kAbandoned | kCrewEliminated).
void abandon_guns_in_combat(GameState& s, std::vector<Event>& events);
// One gun, whatever the reason (combat results: "abandoned but crew not
// killed" -> crew_killed false; "crew eliminated" -> true). With crew_killed
// false and no friendly brigade within 2", the crew is eliminated anyway.
void abandon_gun(GameState& s, Gun& g, bool crew_killed, std::vector<Event>& events);
// An abandoned gun whose crew lives and with no formed enemy within 2".
bool may_recrew(const GameState& s, const Gun& g);
void recrew_gun(GameState& s, Gun& g, std::vector<Event>& events);
// An abandoned limbered gun an enemy brigade (2+ bases, on table, not in
// combat, routing or retiring) within 2" may take over.
bool may_take_over(const GameState& s, const Gun& g, const Brigade& by);
// The brigade detaches a base (not a casualty) which crews the gun; the gun
// joins the brigade's army, wing and command.
void take_over_gun(GameState& s, Gun& g, Brigade& by, std::vector<Event>& events);

// ---- Lone leaders and messengers ("Risk to Leaders") ----

// A detached leader (or messenger) more than 4" from every friendly brigade
// and crewed gun (RULINGS.md "Lone").
bool lone(const GameState& s, std::string_view army, Vec2 at, const OrientedRect& stand);
// Cavalry in contact (within 1/2") with lone enemy leaders or messengers
// capture them. Call after any move of cavalry (movement, charges, pursuit).
void capture_lone_leaders(GameState& s, const Brigade& cavalry, std::vector<Event>& events);
// Foot firing on a lone leader or messenger: 5-6 hits, then the hit roll.
void musket_at_lone(GameState& s, const Brigade& firer, std::string_view target, Dice& dice,
                    std::vector<Event>& events);

}  // namespace galloper::rules::malbrook
