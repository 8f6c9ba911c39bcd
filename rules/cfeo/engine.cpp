#include "rules/cfeo/engine.hpp"

#include <algorithm>
#include <string>

#include "rules/cfeo/combat.hpp"
#include "rules/cfeo/command.hpp"
#include "rules/cfeo/fire.hpp"
#include "rules/cfeo/morale.hpp"
#include "rules/cfeo/movement.hpp"
#include "rules/cfeo/seats.hpp"
#include "rules/cfeo/sequence.hpp"
#include "rules/cfeo/sight.hpp"
#include "rules/core/answers.hpp"
#include "rules/core/tell.hpp"

namespace galloper::rules::cfeo {

namespace {

// What happens as a half-phase closes, after its answers (`owed`: the
// decisions it owed). In the bombardment a gun of an acting side that was
// offered nothing to fire at keeps its fire for close range; the command
// phase's control tests are rolled; routing units rout on, and units moved
// by their control tests move, after the ordered moves.
void close_half(GameState& s, const std::vector<Decision>& owed, const std::vector<Answer>& answers, Dice& dice,
                std::vector<Event>& ev) {
  if (s.phase == Phase::kCommand) roll_control_tests(s, answers, dice, ev);
  if (s.phase == Phase::kMovement) close_movement(s, dice, ev);
  if (s.phase == Phase::kBombardment) {
    for (Gun& g : s.guns) {
      if (g.limbered || g.abandoned || !is_acting(s, g.side)) continue;
      const std::string id = std::string(kFirePrefix) + g.id;
      if (find_decision(owed, id) == nullptr) g.reserved = true;
    }
  }
  const bool last_half = s.options.simultaneous || s.half == 1 || s.sides.size() < 2;
  if (s.phase == Phase::kMorale && last_half) {
    assign_morale_dps(s, ev);
    test_routs(s, dice, ev);
    redress(s, ev);
  }
}

// The answer is for a decision pending now, of its seat, and legal.
Verdict check_against(const GameState& s, const std::vector<Decision>& owed, const Answer& a) {
  const auto found = addressed(owed, a, s.turn, to_string(s.phase), kUmpireSeat);
  if (!found) return found.error();
  if (s.phase == Phase::kMovement) return movement_check(s, *found.value(), a);
  if (s.phase == Phase::kCommand) return command_check(s, *found.value(), a);
  return listed_option(*found.value(), a);
}

}  // namespace

bool finished(const GameState& s) { return s.ended; }

std::vector<Decision> pending(const GameState& s) {
  if (!s.started || s.ended) return {};
  switch (s.phase) {
    case Phase::kBombardment:
    case Phase::kMusketry:
    case Phase::kCloseArtillery: return fire_pending(s, sight_table(s));
    case Phase::kCommand: return command_pending(s);
    case Phase::kMovement: return movement_pending(s);
    case Phase::kCombat: return combat_pending(s, sight_table(s));
    default: return {};
  }
}

Verdict check(const GameState& s, const Answer& a) {
  if (finished(s)) return reject("game_over", "The game is over.");
  const auto owed = pending(s);
  return check_against(s, owed, a);
}

Result<StepResult> resolve(const GameState& state, const std::vector<Answer>& answers, Dice& dice) {
  if (finished(state)) return reject("game_over", "The game is over.");
  const auto owed = pending(state);
  if (auto ok = check_step(owed, answers, [&](const Answer& a) { return check_against(state, owed, a); }); !ok) {
    return ok.error();
  }
  StepResult r{state, {}};
  if (!r.next.started) {
    start(r.next, dice, r.events);
  } else if (r.next.phase == Phase::kCommand && r.next.command_stage == CommandStage::kActions) {
    // The leaders' actions: the control tests follow in the same half.
    resolve_command_actions(r.next, answers, r.events);
    r.next.command_stage = CommandStage::kControl;
  } else if (r.next.phase == Phase::kMovement && !r.next.move_orders) {
    // The move dice: the orders follow in the same half.
    if (auto ok = resolve_movement(r.next, answers, dice, r.events); !ok) return ok.error();
  } else if (r.next.phase == Phase::kCombat && !resolve_combat(r.next, answers, dice, r.events)) {
    // Responses or moves after combat are owed in the same half.
  } else {
    if (r.next.phase == Phase::kMovement) {
      if (auto ok = resolve_movement(r.next, answers, dice, r.events); !ok) return ok.error();
    } else if (r.next.phase != Phase::kCombat) {
      resolve_fire(r.next, answers, dice, r.events);
    }
    close_half(r.next, owed, answers, dice, r.events);
    advance(r.next, dice, r.events);
  }
  // Run on through everything that needs no decision.
  while (!r.next.ended && pending(r.next).empty()) {
    if (r.next.phase == Phase::kMovement && !r.next.move_orders) {
      r.next.move_orders = true;  // no dice owed: on to the orders
      continue;
    }
    if (r.next.phase == Phase::kCommand && r.next.command_stage == CommandStage::kActions) {
      r.next.command_stage = CommandStage::kControl;  // no leader to act: on to the control tests
      continue;
    }
    close_half(r.next, {}, {}, dice, r.events);
    advance(r.next, dice, r.events);
  }
  follow_attached(r.next);
  ++r.next.step;
  return r;
}

}  // namespace galloper::rules::cfeo
