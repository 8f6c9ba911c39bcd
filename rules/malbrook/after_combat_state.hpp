#pragma once
// What the after-combat moves, the morale phase and the end of the game keep
// in the GameState between steps (after_combat.hpp, morale.hpp, victory.hpp).
// GameState and Brigade hold these as plain members.
#include <cstdint>
#include <string>
#include <vector>

#include "rules/core/geometry.hpp"
#include "rules/core/hasher.hpp"
#include "rules/malbrook/types.hpp"

namespace galloper::rules::malbrook {

// ---- Morale (morale.hpp) ----

// Something that happened this turn that the Morale phase charges friends
// within 6" for ("Assign DPs for brigades and leaders that retired, routed or
// were killed").
enum class MoraleCauseKind : std::uint8_t {
  kRetired,        // a brigade made a retire move this turn
  kRouted,         // a brigade made a rout move (or surrendered) this turn
  kDestroyed,      // a brigade lost its last base this turn
  kLeaderKilled,   // a Lieutenant General or Marshal killed this turn
  kLeaderRouting,  // a Lieutenant General or Marshal attached to a brigade that routed
};

struct MoraleCause {
  MoraleCauseKind kind = MoraleCauseKind::kRetired;
  std::string unit;  // brigade or leader id
  std::string army;
  std::string wing;  // leaders: the Lieutenant General's wing ("their Lieutenant General")
  Grade grade = Grade::kC;
  bool foot = false;
  LeaderRank rank = LeaderRank::kMajorGeneral;
  // Where it happened: the brigade's (or leader's) footprint when recorded. A
  // brigade still on the table is measured where it stands in the Morale phase.
  OrientedRect where;
  std::uint32_t turn = 0;

  friend bool operator==(const MoraleCause&, const MoraleCause&) = default;
};

// ---- The end of the game (victory.hpp) ----

struct GameResult {
  bool decided = false;
  std::string winner;  // army id; empty for a draw
  std::string reason;  // "army_broken", "turn_limit", "umpire"
  std::vector<std::string> broken;  // armies broken at the end
  std::vector<std::uint32_t> points;  // objective points per army, in state order

  friend bool operator==(const GameResult&, const GameResult&) = default;
};

// ---- After combat (after_combat.hpp) ----

// What a brigade may (or must) do once its combat is resolved ("Actions
// Resulting from Combat").
enum class AfterAction : std::uint8_t {
  kRemain,         // remain in place
  kRetire,
  kRout,
  kPursue,
  kRideThrough2,   // ride-through, 2 dice
  kRideThrough3,   // ride-through, 3 dice
  kTakePosition,   // foot and dismounted dragoons
  kRemainWithDp,   // cavalry after a breakthrough who elect not to pursue: remain, 1 DP
  kRetireHaltShort,  // retire, halting once behind an obstacle or fortification (RULINGS AC4)
};

// One brigade's part in the after-combat sub-step of one combat.
struct AfterCombatEntry {
  std::string combat;                // the combat's id (combat.hpp)
  std::string brigade;
  std::string army;
  int result = 0;                    // the combat result from this side's view (hits difference)
  std::vector<AfterAction> options;  // one: forced
  std::vector<std::string> enemies;  // the opposing brigades of the combat
  bool decided = false;
  AfterAction chosen = AfterAction::kRemain;
  std::uint32_t round = 0;           // who decides when: 0 first, 1 second (RULINGS AC2)
  double ground = 0;                 // take the position: how far forward the abandoned position reaches
  bool executed = false;
  // "Only those bases in combat and supporting rear ranks are bound by the
  // result": the brigade's other bases (footprint order when the entry was
  // made), which split off and remain in place if it moves (RULINGS AC5).
  // Empty: every base is bound.
  std::vector<std::uint32_t> unbound;

  friend bool operator==(const AfterCombatEntry&, const AfterCombatEntry&) = default;
};

struct AfterCombatState {
  std::uint32_t turn = 0;    // stamp: entries belong to this turn's combat phase
  bool started = false;      // entries were built from this turn's combat results
  std::uint32_t round = 0;   // the decision round now asked
  std::vector<AfterCombatEntry> entries;
  bool done = false;         // every entry carried out: the Morale phase comes next
  // The movement phase's pre-step (continue to retire or remain), per half.
  std::uint32_t move_turn = 0;
  std::uint32_t move_half = 0;
  std::vector<std::string> retire_choices;  // retiring brigades asked: continue or remain
  // A pursuer that has met enemy cavalry able to counter-charge, waiting for
  // that cavalry's seat to say whether it does ("the opponent may
  // countercharge if cavalry", RULINGS AC8); empty when none waits.
  std::string meeting_pursuer;
  std::string meeting_enemy;

  friend bool operator==(const AfterCombatState&, const AfterCombatState&) = default;
};

inline void hash_rect(Hasher& h, const OrientedRect& r) {
  h.vec(r.center);
  h.real(r.width);
  h.real(r.depth);
  h.real(r.facing_deg);
}

inline void hash_after_combat(Hasher& h, const AfterCombatState& a, const std::vector<MoraleCause>& causes,
                              const GameResult& r) {
  h.u32(a.turn);
  h.boolean(a.started);
  h.u32(a.round);
  h.u64(a.entries.size());
  for (const auto& e : a.entries) {
    h.str(e.combat);
    h.str(e.brigade);
    h.str(e.army);
    h.i64(e.result);
    h.u64(e.options.size());
    for (auto o : e.options) h.u32(static_cast<std::uint32_t>(o));
    h.u64(e.enemies.size());
    for (const auto& x : e.enemies) h.str(x);
    h.boolean(e.decided);
    h.u32(static_cast<std::uint32_t>(e.chosen));
    h.u32(e.round);
    h.real(e.ground);
    h.boolean(e.executed);
    h.u64(e.unbound.size());
    for (auto i : e.unbound) h.u32(i);
  }
  h.boolean(a.done);
  h.u32(a.move_turn);
  h.u32(a.move_half);
  h.u64(a.retire_choices.size());
  for (const auto& x : a.retire_choices) h.str(x);
  // Only while a pursuer waits, so states without one keep their digests.
  if (!a.meeting_enemy.empty()) {
    h.tag(25);
    h.str(a.meeting_pursuer);
    h.str(a.meeting_enemy);
  }
  h.u64(causes.size());
  for (const auto& c : causes) {
    h.u32(static_cast<std::uint32_t>(c.kind));
    h.str(c.unit);
    h.str(c.army);
    h.str(c.wing);
    h.u32(static_cast<std::uint32_t>(c.grade));
    h.boolean(c.foot);
    h.u32(static_cast<std::uint32_t>(c.rank));
    hash_rect(h, c.where);
    h.u32(c.turn);
  }
  h.boolean(r.decided);
  h.str(r.winner);
  h.str(r.reason);
  h.u64(r.broken.size());
  for (const auto& x : r.broken) h.str(x);
  h.u64(r.points.size());
  for (auto p : r.points) h.u32(p);
}

}  // namespace galloper::rules::malbrook
