#pragma once
// Damage: DPs, casualties and the risk to leaders, shared by artillery fire,
// combat and morale ("DPs", "Casualties", "Casualty", "Risk to Leaders").
//
// THE SHARED API (artillery, combat, after-combat and morale all use it):
//
//   // Adds n DPs of `cause` to a brigade. kManoeuvre DPs stop at 3 ("Once a
//   // brigade has 3 DPs ... no longer accumulates any more for movement or
//   // manoeuvre"); kFire/kCombat/kMorale DPs beyond min(bases, 6) become
//   // casualties (take_casualty). Emits a "dp" event (and "casualty" events).
//   // Returns the casualties taken.
//   int add_dps(GameState&, Brigade&, int n, DpCause, std::vector<Event>&);
//   // Guns: DPs up to 6 (RULINGS.md "DPs on guns"), never casualties.
//   void add_dps(GameState&, Gun&, int n, DpCause, std::vector<Event>&);
//
//   // Removes n bases: the rear rank first when 2+ ranks deep, else the
//   // outer flanks (alternately; RULINGS.md "Casualty removal"). At 0 bases
//   // the brigade is destroyed (Status::kDestroyed, event "destroyed").
//   // DPs held are kept (RULINGS.md). Returns the bases actually removed.
//   // Call risk_to_attached_leaders(.., RiskCause::kCasualty, ..) after it
//   // (inflict_damage does).
//   int take_casualty(GameState&, Brigade&, std::vector<Event>&, int n = 1);
//
//   // "Risk to Leaders": each leader attached to `b` tests (D6: 1 = hit;
//   // then 1 killed, 2-4 wounded (a second wound kills), 5-6 near miss).
//   // Once per brigade per cause per phase (tracked in GameState::risk_tested):
//   // a second call for the same brigade, cause, turn and phase does nothing.
//   // Call it after the brigade took a DP from fire/combat or any casualty.
//   // Leaders of a destroyed brigade are detached after the test.
//   void risk_to_attached_leaders(GameState&, const Brigade&, RiskCause, Dice&, std::vector<Event>&);
//
//   // The usual whole job in one call: DPs, explicit casualties, then the
//   // risk test where the rules call for it (kFire -> RiskCause::kFire if any
//   // DP or casualty; kCombat -> kCombat likewise; kMorale/kManoeuvre ->
//   // kCasualty only if a casualty was taken).
//   DamageResult inflict_damage(GameState&, Brigade&, int dps, int casualties, DpCause, Dice&, std::vector<Event>&);
//
//   // Leaders killed this game with where and when (the morale phase reads
//   // "Their Lieutenant General or Marshal killed ... within 6 inches"):
//   // GameState::fallen_leaders.
//
// Units are looked up by reference; nothing here adds or removes elements of
// GameState's vectors, so references stay valid.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rules/core/decision.hpp"
#include "rules/core/dice.hpp"
#include "rules/core/leader_risk.hpp"
#include "rules/malbrook/state.hpp"

namespace galloper::rules::malbrook {

// DpCause and RiskCause are declared in types.hpp (the state records them).

inline constexpr std::uint32_t kMaxDps = 6;              // "(up to a maximum of 6 DPs)"
inline constexpr std::uint32_t kManoeuvreDpCap = 3;      // "Once a brigade has 3 DPs"

// The DPs a brigade may hold before fire/combat/morale DPs become casualties.
std::uint32_t dp_capacity(const Brigade& b);

int add_dps(GameState& s, Brigade& b, int n, DpCause cause, std::vector<Event>& events);
void add_dps(GameState& s, Gun& g, int n, DpCause cause, std::vector<Event>& events);

int take_casualty(GameState& s, Brigade& b, std::vector<Event>& events, int n = 1);

// Takes one base off without a casualty's consequences (events, risk), with
// the same choice of base as a casualty: a gun taken over by a detached base.
void remove_base(Brigade& b);

// Which base the next casualty removes: an index into footprint(b) (front
// rank first, left to right as the troops face).
std::size_t casualty_base(const Brigade& b);

struct DamageResult {
  int dps = 0;          // DPs actually added
  int casualties = 0;   // bases removed (from the cap and explicit)
  bool destroyed = false;
};
DamageResult inflict_damage(GameState& s, Brigade& b, int dps, int casualties, DpCause cause, Dice& dice,
                     std::vector<Event>& events);

// ---- Risk to leaders ----

// The second roll once hit (rules/core/leader_risk.hpp, shared with CF&EO).
using rules::LeaderFate;
using rules::leader_hit_result;

void risk_to_attached_leaders(GameState& s, const Brigade& b, RiskCause cause, Dice& dice,
                              std::vector<Event>& events);

// Applies a hit's consequences to a leader (wound / kill / nothing) with an
// event; killed leaders are removed from play (Leader::killed, detached) and
// recorded in GameState::fallen_leaders.
void apply_leader_fate(GameState& s, Leader& l, LeaderFate fate, std::vector<DieRoll> dice, std::string why,
                       std::vector<Event>& events);

// Marks a brigade or gun "under fire" this turn (Status::kUnderFire; cleared
// by begin_turn). RULINGS.md "Under fire": every brigade or gun an artillery
// shot was aimed at or landed on, hit or not.
void mark_under_fire(Brigade& b);
void mark_under_fire(Gun& g);

// Brigades still on the table (not destroyed/surrendered, bases > 0).
bool brigade_on_table(const Brigade& b);

}  // namespace galloper::rules::malbrook
