#pragma once
// The Malbrook movement phase ("Movement", "Manoeuvre", the parts of "Close
// Combat" that moving must respect).
//
// The acting armies are sequence.hpp's acting_armies(state) (one side per
// half, or both when simultaneous). The phase has up to four sub-steps, kept
// in GameState::movement and stamped with (turn, half) so a new half starts
// afresh without any call from the engine:
//
//  1. kDeclare — "dice/<unit>" (kind "move_dice"), one per brigade or gun that
//     may move, or per group moving on the same dice (the lead's decision; its
//     subjects list the group). Option: "none", "manoeuvre" (no dice: a
//     formation change, about face, side step, re-form, gun pivot...), "1",
//     "2", "1+d6", "2+d6" (AvD and the optional D6), "road". An OrderStep
//     {action:"objective"} in the answer declares the intent to halt at an
//     objective ("must be declared in advance of rolling"). The step's
//     resolution rolls every group's dice, lead by lead, right to left.
//  2. kExecute — "move/<unit>" (kind "move") per declared unit: the order as
//     OrderSteps (forward, wheel, incline, side_step, step_back, about_face,
//     formation, reform, pivot, unlimber, mount, dismount, pass_gap,
//     horse_holders, merge, split; refuse_step_back / refuse_wheel with
//     pivot = the flank and target = how many bases, and straighten, for a
//     refused flank; base with target = the base's index and to = where its
//     centre goes, for unformed brigades: RULINGS.md M13, M21);
//     "leader/<id>" (kind "leader_move") per
//     detached leader: [move_to]. Every order is checked exactly (distances,
//     22.5°, sweeps against troops and terrain, halts, the full-move rule).
//     Then DPs, combat status, merges and splits, attached leaders, and
//     hussars' compulsory skirmish withdrawal.
//  2b. kFlankFire — only when an order passes by the flank of enemy foot
//     within 1" and the foot have a choice of where to fire (RULINGS C18):
//     the orders are held (MovementState::orders) and the foot's seat is
//     asked "flank_fire/<foot>/<brigade>" (kind "flanking_fire_point"):
//     "first" (default: where it first comes within 1"), "most" (where the
//     most of the foot's bases bear), "last" (as late as it is within 1");
//     then the orders are carried out, each brigade halted where it is fired
//     on, as in step 2.
//  3. kSkirmish — only when dismounted dragoons were approached within 2" by
//     formed enemy: "skirmish/<id>" (kind "skirmish_withdrawal") to their
//     seat: "withdraw" or "stand" (default).
//
// movement_pending() is empty once the phase is over for the acting armies.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <memory>

#include "rules/core/decision.hpp"
#include "rules/core/dice.hpp"
#include "rules/core/result.hpp"
#include "rules/malbrook/manoeuvre.hpp"
#include "rules/malbrook/state.hpp"

namespace galloper::rules::malbrook {

// Decisions owed in the movement phase by the seats acting now.
std::vector<Decision> movement_pending(const GameState& state);
Verdict movement_check(const GameState& state, const Answer& answer);
// The same, for the decision `d` of movement_pending(state) the answer names
// (the engine has found it already: working the list out again per answer
// made checking a phase's orders quadratic in the brigades).
Verdict movement_check(const GameState& state, const Decision& d, const Answer& answer);
// movement_check for many answers to one state: what the checks share (every
// piece's outline on the table, who sees whom) is worked out on the first
// and kept. A cache: the verdicts are movement_check's. `state` must outlive
// it and not change.
class MoveChecks {
 public:
  explicit MoveChecks(const GameState& state);
  ~MoveChecks();
  MoveChecks(const MoveChecks&) = delete;
  MoveChecks& operator=(const MoveChecks&) = delete;
  Verdict check(const Decision& d, const Answer& answer) const;

 private:
  // The orders' resolution plans on the outlines laid out here (movement_resolve).
  friend Verdict movement_resolve(GameState& next, const std::vector<Answer>& answers, Dice& dice,
                                  std::vector<Event>& events, const std::vector<Decision>* owed,
                                  const MoveChecks* checks);
  struct Impl;
  const GameState& state_;
  mutable std::unique_ptr<Impl> impl_;
};
// Applies every answer of the step; appends events; returns a rejection (and
// the caller discards `next`) if any answer is illegal. `owed`, when given, is
// movement_pending(next) as the step begins (the engine's pending list): the
// stage takes its decisions from it rather than working them out again
// (debug builds work them out anyway and hold `owed` to them). `checks`, when
// given, are the MoveChecks of the state `next` is a copy of: the orders are
// planned on the field they laid out for checking them rather than on a new
// one (debug builds hold the two states' pieces equal).
Verdict movement_resolve(GameState& next, const std::vector<Answer>& answers, Dice& dice,
                         std::vector<Event>& events, const std::vector<Decision>* owed = nullptr,
                         const MoveChecks* checks = nullptr);
// True when nothing more is owed in this half's movement phase.
bool movement_finished(const GameState& state);

// ---- Numbers ----
inline constexpr double kInchesPerPip = 0.5;         // "1 AvD x ½ inch"
inline constexpr double kInspiredPerDie = 0.5;       // "adds ½ inch for every die rolled"
inline constexpr double kFastInitialPerDie = 0.5;    // fast moves: "Add ½ inch for every die rolled"
inline constexpr double kDoubleMoveBeyond = 6.0;     // "Brigades beyond 6 inches of known enemy"
inline constexpr double kRoadMove = 6.0;             // "may move up to 6 inches"
inline constexpr double kRoadLightGun = 4.0;
inline constexpr double kRoadMediumGun = 2.0;
inline constexpr double kLeaderMoveInches = 6.0;
inline constexpr double kCavalryHalt = 2.0;          // "Cavalry must halt at 2 inches of enemy to their front"
inline constexpr double kFootCombat = 1.0;           // "within 1 inch of an opponent to their front"
inline constexpr double kHaltShort = 2.0;            // "may halt up to 2 inches short"
inline constexpr double kSkirmishDistance = 2.0;     // "maintain a 2 inch distance"
inline constexpr double kRemountDistance = 1.0;      // "within 1 inch of the horse-holder marker"
inline constexpr double kHorseHolderWithdraw = 6.0;  // "withdraw up to 6 inches"
inline constexpr std::uint32_t kMovementDpCap = 3;   // "Maximum DPs"

// Adds movement/manoeuvre DPs: none once the unit has 3 DPs, and never past 3.
void add_movement_dps(std::uint32_t& dps, int n);

// "Fatigue and disorder when moving": DPs for the faces rolled (AvD faces and
// the optional D6) by a unit in `pose` moving in good or rough terrain.
int fatigue_dps(const std::vector<int>& faces, const Pose& pose, bool rough);

// A normal move's dice, rolled all at once: `avd` AvD, then the optional D6
// ("the player must decide how many he will roll, then roll all at once").
std::vector<int> roll_move_dice(Dice& dice, std::uint32_t avd, bool d6);

// Inches for the faces rolled: pips x ½", +½" per die if inspired, doubled.
double move_inches(const std::vector<int>& faces, bool inspired, bool doubled);

// Dice moved by a brigade in `turn`'s movement phase (road = 2) and in the turn
// before: "Cavalry may only change speed by up to 2 dice per turn".
void record_move_dice(Brigade& b, std::uint32_t turn, std::uint32_t dice);
std::uint32_t move_dice_last_turn(const Brigade& b, std::uint32_t turn);
// The dice counts a cavalry brigade may roll this turn (0..3), in order.
std::vector<std::uint32_t> cavalry_dice_allowed(const Brigade& b, std::uint32_t turn);

// ---- Merging and splitting ----
// "A brigade may also split into two or more smaller brigades ... each new
// brigade takes on all the DPs of the original parent brigade": the bases
// `off` (indices in footprint order, basing.hpp) form the new brigade `new_id`
// where they stand, the rest stay `id` (with its attached leaders). Placed
// bases keep their poses; laid-out parts stand in the formation that puts
// their bases where they were, else unformed (RULINGS M18). The movement
// phase's `split` step and the after-combat splits (after_combat.hpp) use it.
// Appends to state.brigades: references into it do not survive the call.
void split_brigade(GameState& state, const std::string& id, const std::string& new_id,
                   const std::vector<std::size_t>& off, std::vector<Event>& events);

// ---- Fast moves (rout, pursuit, evade, retire), for the combat phase ----
// "The maximum possible number of dice must be used": foot 1 AvD + D6,
// cavalry 2 AvD + D6. Inspired brigades add ½" per die; an initial evade, rout
// or retire move adds ½" per die. Not doubled.
struct FastMove {
  std::uint32_t avd = 0;
  bool d6 = true;
  std::vector<int> faces;
  double inches = 0;
};
std::uint32_t max_move_avd(const Brigade& b);
FastMove roll_fast_move(Dice& dice, const Brigade& b, bool initial);

// ---- Distances the phase uses ----
// Edge distance from a footprint to the nearest enemy brigade or gun of
// `army` on the table (infinity when none).
double enemy_distance(const GameState& state, std::string_view army, const OrientedRect& r);
// An enemy brigade or gun within `range` inches of the front edge, inside the
// 45° front arc ("enemy to their front").
bool enemy_to_front_within(const GameState& state, std::string_view army, const OrientedRect& r, double range);

}  // namespace galloper::rules::malbrook
