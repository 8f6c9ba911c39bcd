#pragma once
// "Actions Resulting from Combat": the last sub-step of the combat phase, and
// the after-effects carried into later movement phases (continuing to retire,
// subsequent rout moves, pursuit).
//
// Input: this turn's CombatResults (combat.hpp), each brigade with the
// options the table gives it (CombatBrigade::options; one option: forced).
// For every combat the side with the lower result decides and acts first
// (equal results: the side without initiative first; RULINGS AC2). All the
// combats' first sides decide in one step ("after/<brigade>", kind
// "after_combat", options listed), their actions are carried out in combat
// order, then the second sides decide knowing what the first did (pursue and
// take the position need an opponent who retired or routed). Forced actions
// are carried out without asking. Pursuers meeting new enemy charge them
// (combat.hpp pursuit_charge()); those combats' results come round again.
//
// Movement phase (each half, for the acting armies, before their
// declarations): pursuers that did not cease pursue again, their routers
// first making a subsequent rout move (1 casualty each); retiring brigades
// are asked "retire/<brigade>" (kind "continue_retire"): "continue" a fast
// retire move, or "remain" (default) to re-form later.
//
// A pursuer that meets enemy cavalry able to counter-charge (in either
// phase) waits where it met them while their seat is asked
// "counter/<brigade>" (kind "pursuit_counter_charge"): "counter_charge"
// (default) or "stand"; then the charge is resolved and the rest carry on.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/core/decision.hpp"
#include "rules/core/dice.hpp"
#include "rules/malbrook/state.hpp"

namespace galloper::rules::malbrook {

inline constexpr std::string_view kAfterCombatPrefix = "after/";
inline constexpr std::string_view kRetirePrefix = "retire/";
inline constexpr std::string_view kCounterPrefix = "counter/";
inline constexpr double kRoutSafe = 6.0;          // rout: "or 6 inches from enemy"
inline constexpr double kSurrenderRange = 2.0;    // "surrender to any enemy within 2 inches"
inline constexpr double kRideThroughHalt = 2.0;   // "it will halt beyond 2 inches"
inline constexpr double kFreeHackHit = 4;         // "1 casualty for every 4+ rolled"
inline constexpr double kUnableToMove = 0.5;      // less than this: "unable to retire" (RULINGS AC5)

std::string_view option_id(AfterAction a);        // "remain", "retire", "rout", "pursue", ...
bool parse_after_action(std::string_view id, AfterAction& out);

// ---- The combat phase's sub-step (engine.cpp) ----
std::vector<Decision> after_combat_pending(const GameState& state);
// Every entry carried out (or none to carry out) this turn.
bool after_combat_done(const GameState& state);
// Starts the sub-step from state.combat.results if not started, applies the
// answers, and carries out everything that needs no decision, stopping at
// the next decisions or when done.
void after_combat_resolve(GameState& state, const std::vector<Answer>& answers, Dice& dice,
                          std::vector<Event>& events);

// What a brigade may do now: the table's options less those the situation
// rules out (RULINGS AC3): pursue needs an opponent retiring or routing on
// the table; take the position needs one gone (foot only); no room for a
// ride-through leaves remain or retire; cavalry's "1 DP for not pursuing"
// only where pursuit was possible.
std::vector<AfterAction> available_actions(const GameState& state, const AfterCombatEntry& entry);

// ---- The moves ----
// Directly away from the centre of the given enemies (or from the nearest
// enemy when none is given), as a unit vector (RULINGS AC4).
Vec2 away_from(const GameState& state, const Brigade& b, const std::vector<std::string>& enemies);
// How far the brigade can move along `dir` up to `distance` before touching
// another brigade or gun (ignoring `ignore`), crossing impassable terrain or
// leaving the table.
double free_distance(const GameState& state, const Brigade& b, Vec2 dir, double distance,
                     const std::vector<std::string>& ignore = {});
// The brigade becomes unformed where it stands (its bases keep their places).
void make_unformed(Brigade& b);

// The point a brigade falls back from: the centre of `enemies` on the table,
// or the nearest enemy brigade's when none is given; nullopt without enemy.
std::optional<Vec2> fled_point(const GameState& state, const Brigade& b, const std::vector<std::string>& enemies);

// Retire (`rout` false) or rout with a fast move (initial: +½" a die)
// straight away from `fled` (away_from). Routers stop at the first of: what
// blocks them (friends included), 6" from enemy, or once behind a terrain
// obstacle between them and `fled` (rout_obstacle_point).
// Returns false if the brigade was unable to move (it then took its casualty
// and, routing, surrendered to enemy within 2").
// Bases that cannot get ½" away (enemy, impassable terrain) while others can
// split off first, stay and take the casualty (RULINGS AC5); `b` is then the
// rest. `halt_short` (retire only): halt at halt_point() if the move gets
// there. `b` keeps its id; other references into state.brigades do not
// survive the call.
bool retire_or_rout(GameState& state, Brigade& b, const std::vector<std::string>& fled, bool rout, bool initial,
                    Dice& dice, std::vector<Event>& events, bool halt_short = false);

// "They may halt short of the full move once behind other formed friends,
// fortifications or obstacle" (RULINGS AC4): the first point, within `reach`
// along `dir`, where the brigade is wholly past a linear obstacle or
// fortification this move crossed (not one it started on or against).
struct HaltPoint {
  double distance = 0;
  std::string behind;  // the feature's id
};
std::optional<HaltPoint> halt_point(const GameState& state, const Brigade& b, Vec2 dir, double reach);
// A router's "until behind ... terrain obstacle" (RULINGS AC4): the first
// point within `reach` along `dir` where it is wholly past a linear obstacle
// (any but a road) this move crossed that lies between it (its centre there)
// and the enemy it flees (fled_point of `fled`).
std::optional<HaltPoint> rout_obstacle_point(const GameState& state, const Brigade& b, Vec2 dir, double reach,
                                             const std::vector<std::string>& fled);
// The same within the most a fast move could reach before anything stops it:
// whether halting short is an option to offer.
std::optional<HaltPoint> halt_behind(const GameState& state, const Brigade& b, Vec2 dir, bool initial);
// The free hack: a D6 per pursuing base in contact with `target`, a casualty
// for each 4+. Returns the casualties.
int free_hack(GameState& state, const Brigade& pursuer, Brigade& target, Dice& dice, std::vector<Event>& events);
// The pursuer's fast move after `target`; catching it gives the free hack (a
// retiring target then routs); new enemy met is charged. Bases that cannot
// get ½" towards the target for enemy or impassable terrain, while others
// can, split off first and halt, no longer pursuing (RULINGS AC5). `pursuer`
// keeps its id; references into state.brigades do not survive the call.
void pursue(GameState& state, Brigade& pursuer, const std::string& target, bool initial, Dice& dice,
            std::vector<Event>& events);

// ---- The movement phase's pre-step ----
// Pursuit and subsequent rout moves of the acting armies' pursuers, and the
// retiring brigades to ask. engine.cpp calls it as each movement half begins.
void begin_movement_half(GameState& state, Dice& dice, std::vector<Event>& events);
std::vector<Decision> retire_pending(const GameState& state);
// The cavalry a pursuer met, asked whether it counter-charges; empty when no
// pursuer waits. Asked in the combat phase's after-combat sub-step
// (after_combat_pending) or in the movement phase before anything else.
std::vector<Decision> pursuit_meeting_pending(const GameState& state);
// Applies the answer (a missing or unknown one: the default), resolves the
// pursuit charge, and in the movement phase lets the other pursuers of the
// half move on (begin_movement_half).
void resolve_pursuit_meeting(GameState& state, const std::vector<Answer>& answers, Dice& dice,
                             std::vector<Event>& events);
void resolve_retire_choices(GameState& state, const std::vector<Answer>& answers, Dice& dice,
                            std::vector<Event>& events);

}  // namespace galloper::rules::malbrook
