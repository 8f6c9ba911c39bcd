#pragma once
// What the movement phase keeps in the GameState between its sub-steps
// (declare dice -> execute -> skirmish withdrawal), and what each brigade
// remembers of its own moves (cavalry change of speed, "repeat last move").
// Owned by movement.cpp; GameState and Brigade hold these as plain members.
#include <cstdint>
#include <string>
#include <vector>

#include "rules/core/decision.hpp"
#include "rules/core/hasher.hpp"

namespace galloper::rules::malbrook {

enum class MoveStage : std::uint8_t {
  kIdle,      // not started (or the stamp is stale): declarations come next
  kDeclare,   // the acting army declares dice (and objective halts) per unit or group
  kExecute,   // the acting army gives each unit its order; detached leaders move
  kSkirmish,  // the other army: dismounted dragoons approached may withdraw
  kDone,      // nothing more owed; the engine moves on
  kFlankFire, // the other army: foot whose flank a move passes choose where they fire (before kSkirmish)
};

enum class MoveMode : std::uint8_t {
  kNone,       // no move at all
  kDice,       // a diced move (avd AvD + optional D6)
  kManoeuvre,  // no dice: a manoeuvre taking a whole or half move, side step, gun pivot
  kRoad,       // a road move: no dice, up to 6" (12" double)
};

// One unit's declared move and, once rolled, its allowance.
struct MoveDeclaration {
  std::string unit;  // brigade or gun id
  std::string lead;  // the unit whose dice it shares (itself when it rolls)
  MoveMode mode = MoveMode::kNone;
  std::uint32_t avd = 0;
  bool d6 = false;
  bool objective = false;    // "intent must be declared in advance of rolling"
  bool double_move = false;  // beyond 6" of known enemy when declared
  std::vector<int> faces;    // the AvD faces, then the D6 face
  double allowance = 0;      // inches, after inspiration and doubling
  bool executed = false;

  friend bool operator==(const MoveDeclaration&, const MoveDeclaration&) = default;
};

// An order given in the kExecute step, held while the foot it passes choose
// where they give flanking fire (kFlankFire): the decision it answered
// ("move/<unit>", "leader/<id>") and its steps.
struct HeldOrder {
  std::string decision;
  std::vector<OrderStep> steps;

  friend bool operator==(const HeldOrder&, const HeldOrder&) = default;
};

// Stamped with the turn and half of the phase it belongs to: a stamp that
// does not match the state's (turn, half) means a fresh movement phase.
struct MovementState {
  std::uint32_t turn = 0;
  std::uint32_t half = 0;
  MoveStage stage = MoveStage::kIdle;
  std::vector<MoveDeclaration> declarations;
  std::vector<std::string> skirmishers;  // dismounted dragoons offered a skirmish withdrawal
  std::vector<std::string> threats;      // threats[i]: the formed enemy brigade approaching skirmishers[i]
  std::vector<HeldOrder> orders;         // kFlankFire: the acting army's orders, not yet carried out

  friend bool operator==(const MovementState&, const MovementState&) = default;
};

// A brigade's (or gun's) most recent move, for "repeat last move".
struct LastMove {
  std::uint32_t turn = 0;  // 0: never moved
  MoveMode mode = MoveMode::kNone;
  std::uint32_t avd = 0;
  bool d6 = false;
  std::vector<OrderStep> steps;

  friend bool operator==(const LastMove&, const LastMove&) = default;
};

inline void hash_last_move(Hasher& h, const LastMove& m) {
  h.u32(m.turn);
  h.u32(static_cast<std::uint32_t>(m.mode));
  h.u32(m.avd);
  h.boolean(m.d6);
  h.u64(m.steps.size());
  for (const auto& s : m.steps) hash_order_step(h, s);
}

inline void hash_movement(Hasher& h, const MovementState& m) {
  h.u32(m.turn);
  h.u32(m.half);
  h.u32(static_cast<std::uint32_t>(m.stage));
  h.u64(m.declarations.size());
  for (const auto& d : m.declarations) {
    h.str(d.unit);
    h.str(d.lead);
    h.u32(static_cast<std::uint32_t>(d.mode));
    h.u32(d.avd);
    h.boolean(d.d6);
    h.boolean(d.objective);
    h.boolean(d.double_move);
    h.u64(d.faces.size());
    for (int f : d.faces) h.i64(f);
    h.real(d.allowance);
    h.boolean(d.executed);
  }
  h.u64(m.skirmishers.size());
  for (const auto& s : m.skirmishers) h.str(s);
  h.u64(m.threats.size());
  for (const auto& s : m.threats) h.str(s);
  // Only while orders are held, so other states keep their digests.
  if (!m.orders.empty()) {
    h.tag(26);
    h.u64(m.orders.size());
    for (const auto& o : m.orders) {
      h.str(o.decision);
      h.u64(o.steps.size());
      for (const auto& s : o.steps) hash_order_step(h, s);
    }
  }
}

}  // namespace galloper::rules::malbrook
