#pragma once
// The Morale phase ("Morale", "Sequence of Play": "Re-dress ranks by removing
// DPs from eligible brigades which did not move are not in combat. Assign DPs
// for brigades and leaders that retired, routed or were killed.").
//
// Nothing is decided: run_morale_phase() applies, in this order (RULINGS.md
// MO1),
//   1. re-dressing ranks: every stationary brigade not in combat this turn
//      removes DPs by its grade (A-B 1, +1 if not under fire; C-D 1 if not
//      under fire; E 1 if beyond 6" of enemy and not under fire), never the
//      morale DPs it acquired this turn;
//   2. morale DPs for what happened this turn within 6" (MoraleCause):
//        lower grade brigade routing or destroyed           1
//        their Lieutenant General or Marshal killed/routing 1
//        equal/higher grade foot brigade retiring           1
//        equal/higher grade brigade routing or destroyed    2
//      added through damage.hpp as DpCause::kMorale (beyond the cap they are
//      casualties) and remembered for step 1 of the same turn.
//
// The after-combat moves record their causes with record_cause(); brigades
// destroyed (damage.hpp) and leaders killed (GameState::fallen_leaders) are
// found by the phase itself.
#include <cstdint>
#include <vector>

#include "rules/core/decision.hpp"
#include "rules/core/dice.hpp"
#include "rules/malbrook/state.hpp"

namespace galloper::rules::malbrook {

inline constexpr double kMoraleRange = 6.0;   // "within 6 inches"
inline constexpr double kRedressEnemy = 6.0;  // E grade: "beyond 6 inches of enemy"

// Records a brigade's retire or rout move (or its surrender) this turn. A
// brigade counts once per turn, as its worst cause (RULINGS.md MO2).
void record_cause(GameState& state, MoraleCauseKind kind, const Brigade& brigade);

// Morale DPs acquired now (evade, the morale phase): added as
// DpCause::kMorale and remembered so re-dressing this turn cannot remove them.
// Returns the casualties taken.
int add_morale_dps(GameState& state, Brigade& brigade, int n, Dice& dice, std::vector<Event>& events);
// The morale DPs acquired this turn that the brigade still holds.
std::uint32_t morale_dps_this_turn(const GameState& state, const Brigade& brigade);

// Stationary this turn: no Status::kMoved (formation and facing changes in
// place do not set it). In combat this turn: Status::kInCombat now or
// Brigade::combat_turn == turn.
bool in_combat_this_turn(const GameState& state, const Brigade& brigade);
// DPs the brigade would remove by re-dressing ranks now (0, 1 or 2).
std::uint32_t redress_allowance(const GameState& state, const Brigade& brigade);
std::uint32_t redress_allowance(const GameState& state, const Gun& gun);

// Morale DPs a brigade takes for this turn's causes (before the cap).
int morale_dps_due(const GameState& state, const Brigade& brigade);

// The whole phase.
void run_morale_phase(GameState& state, Dice& dice, std::vector<Event>& events);

}  // namespace galloper::rules::malbrook
