#include "rules/malbrook/engine.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "rules/core/answers.hpp"
#include "rules/malbrook/after_combat.hpp"
#include "rules/malbrook/artillery.hpp"
#include "rules/malbrook/combat.hpp"
#include "rules/malbrook/command.hpp"
#include "rules/malbrook/control.hpp"
#include "rules/malbrook/morale.hpp"
#include "rules/malbrook/movement.hpp"
#include "rules/malbrook/seats.hpp"
#include "rules/malbrook/sequence.hpp"
#include "rules/malbrook/victory.hpp"

namespace galloper::rules::malbrook {

namespace {

std::string army_name(const GameState& s, std::string_view id) {
  const Army* a = s.find_army(id);
  return a != nullptr && !a->name.empty() ? a->name : std::string(id);
}

Verdict check_against(const GameState& s, const std::vector<Decision>& ds, const Answer& a,
                      const MoveChecks* moves = nullptr, const CommandChecks* commands = nullptr) {
  const auto found = addressed(ds, a, s.turn, to_string(s.phase), kUmpireSeat);
  if (!found) return found.error();
  const Decision* d = found.value();
  switch (s.phase) {
    case Phase::kInitiative: return initiative_check(s, a);
    case Phase::kCommand:
      if (s.command_stage == CommandStage::kActions) {
        return commands != nullptr ? commands->check(a) : command_check(s, a);
      }
      break;
    case Phase::kMovement:
      if (a.decision_id.rfind(kRetirePrefix, 0) == 0) break;   // after_combat.hpp: options
      if (a.decision_id.rfind(kCounterPrefix, 0) == 0) break;  // after_combat.hpp: options
      return moves != nullptr ? moves->check(*d, a) : movement_check(s, *d, a);
    case Phase::kCombat:
      if (combat_resolved(s)) break;  // after_combat.hpp: options
      return combat_check(s, ds, a);  // charge.hpp, combat.hpp
    case Phase::kBombardment:
    case Phase::kCloseFire: return artillery_check(s, ds, a);
    default: break;
  }
  // Decisions with a list of options: the answer must be one of them.
  return listed_option(*d, a);
}

bool alternate(const GameState& s) { return !s.simultaneous && s.armies.size() > 1; }

void phase_event(GameState& s, std::vector<Event>& ev) {
  std::string text = "Turn " + std::to_string(s.turn) + ": " + std::string(to_string(s.phase)) + " phase";
  switch (s.phase) {
    case Phase::kCommand:
    case Phase::kMovement:
    case Phase::kBombardment:  // artillery.hpp
    case Phase::kCloseFire:    // artillery.hpp
      if (alternate(s)) {
        text += ", " + army_name(s, acting_armies(s).front()) + " first";
      } else {
        text += ", both sides together";
      }
      break;
    case Phase::kCombat: break;  // charge.hpp, combat.hpp
    default: break;
  }
  ev.push_back(public_event("phase", text + "."));
}

void enter_phase(GameState& s, Phase p, std::vector<Event>& ev) {
  s.phase = p;
  s.half = 0;
  s.command_stage = CommandStage::kActions;
  phase_event(s, ev);
}

// The second side's half of an alternating phase.
void second_half(GameState& s, std::vector<Event>& ev) {
  s.half = 1;
  ev.push_back(public_event("phase", "Turn " + std::to_string(s.turn) + ": " + std::string(to_string(s.phase)) +
                                         " phase, " + army_name(s, acting_armies(s).front()) + " now acts."));
}

void end_turn(GameState& s, Dice& dice, std::vector<Event>& ev) {
  // Objectives, army break, the turn limit (victory.hpp).
  if (end_of_turn(s, ev)) return;
  ++s.turn;
  begin_turn(s);
  s.phase = Phase::kInitiative;
  s.half = 0;
  s.command_stage = CommandStage::kActions;
  ev.push_back(public_event("turn", "Turn " + std::to_string(s.turn) + " begins."));
  settle_initiative(s, dice, ev);
  if (!s.initiative.empty()) enter_phase(s, Phase::kBombardment, ev);
}

// The bombardment and close artillery fire phases (artillery.hpp): a half
// with nothing to decide passes without a "now acts" event. Once the close
// fire phase is over, crews of guns in close combat abandon them ("before
// the crew abandon their guns"). When the second half has decisions, they
// are pending(s) on return: handed back in `known` so resolve need not work
// them out again.
void finish_artillery(GameState& s, const std::vector<Answer>& answers, Dice& dice, std::vector<Event>& ev, Phase next,
                      std::optional<std::vector<Decision>>* known) {
  artillery_resolve(s, answers, dice, ev);
  if (alternate(s) && s.half == 0) {
    s.half = 1;
    if (auto owed = artillery_pending(s); !owed.empty()) {
      s.half = 0;
      second_half(s, ev);  // half 1 again: the state the list was made for
      if (known != nullptr) *known = std::move(owed);
      return;
    }
    artillery_resolve(s, {}, dice, ev);
  }
  if (s.phase == Phase::kCloseFire) abandon_guns_in_combat(s, ev);
  enter_phase(s, next, ev);
}

// Completes the current sub-step with `answers` and enters the next one.
// `owed`, when given, is pending(s) as it enters. It may leave pending(s) in
// `known` when it had to work that out anyway.
void finish(GameState& s, const std::vector<Answer>& answers, Dice& dice, std::vector<Event>& ev,
            const std::vector<Decision>* owed = nullptr, std::optional<std::vector<Decision>>* known = nullptr) {
  switch (s.phase) {
    case Phase::kInitiative:
      if (!s.initiative_winner.empty()) {
        for (const auto& a : answers) {
          if (a.decision_id == kInitiativeDecision) apply_initiative_choice(s, a, ev);
        }
      } else if (s.initiative.empty()) {
        settle_initiative(s, dice, ev);
      }
      if (!s.initiative.empty()) enter_phase(s, Phase::kBombardment, ev);
      return;
    case Phase::kBombardment: finish_artillery(s, answers, dice, ev, Phase::kCommand, known); return;
    case Phase::kCommand:
      if (s.command_stage == CommandStage::kActions) {
        apply_command_actions(s, answers, ev);
        for (const auto& army : acting_armies(s)) move_messengers(s, army, ev);
        if (alternate(s) && s.half == 0) {
          second_half(s, ev);
        } else {
          // "Once leader actions are complete, determine if any brigades are
          // not under control and take required control tests."
          s.command_stage = CommandStage::kControl;
          s.half = 0;
          determine_control(s);
        }
      } else {
        resolve_control(s, answers, dice, ev);
        if (alternate(s) && s.half == 0) {
          second_half(s, ev);
        } else {
          enter_phase(s, Phase::kMovement, ev);
          begin_movement_half(s, dice, ev);  // after_combat.hpp: pursuit, routers, retiring
        }
      }
      return;
    case Phase::kMovement:
      if (alternate(s) && s.half == 0) {
        second_half(s, ev);
        begin_movement_half(s, dice, ev);  // after_combat.hpp
      } else {
        enter_phase(s, Phase::kCloseFire, ev);
      }
      return;
    case Phase::kCloseFire: finish_artillery(s, answers, dice, ev, Phase::kCombat, known); return;
    case Phase::kCombat:
      // Charge declarations, responses and dice, then every combat resolved
      // (charge.hpp, combat.hpp); the answers were checked by combat_check.
      if (!combat_resolved(s)) {
        (void)combat_resolve(s, answers, dice, ev, owed, known);
        return;
      }
      // "conduct any moves resulting from the combat resolution" (after_combat.hpp).
      if (!after_combat_done(s)) {
        after_combat_resolve(s, answers, dice, ev);
        return;
      }
      enter_phase(s, Phase::kMorale, ev);
      return;
    case Phase::kMorale:
      run_morale_phase(s, dice, ev);  // morale.hpp: nothing to decide
      end_turn(s, dice, ev);
      return;
    case Phase::kEnded: return;
  }
}

}  // namespace

bool finished(const GameState& state) { return state.phase == Phase::kEnded; }

std::vector<Decision> pending(const GameState& s) {
  switch (s.phase) {
    case Phase::kInitiative:
      if (!s.initiative_winner.empty()) return {initiative_decision(s)};
      return {};
    case Phase::kCommand:
      return s.command_stage == CommandStage::kActions ? command_pending(s) : control_pending(s);
    case Phase::kMovement: {
      // after_combat.hpp: cavalry a pursuer met counter-charge? continue to retire?
      if (auto met = pursuit_meeting_pending(s); !met.empty()) return met;
      auto retiring = retire_pending(s);
      return retiring.empty() ? movement_pending(s) : retiring;
    }
    case Phase::kCombat: return combat_resolved(s) ? after_combat_pending(s) : combat_pending(s);
    case Phase::kBombardment:
    case Phase::kCloseFire: return artillery_pending(s);
    default: return {};
  }
}

Verdict check(const GameState& state, const Answer& answer) {
  if (finished(state)) return reject("game_over", "The game is over.");
  return check_against(state, pending(state), answer);
}

Verdict check(const GameState& state, const std::vector<Decision>& owed, const Answer& answer,
              const MoveChecks* moves, const CommandChecks* commands) {
  if (finished(state)) return reject("game_over", "The game is over.");
  return check_against(state, owed, answer, moves, commands);
}

Result<StepResult> resolve(const GameState& state, const std::vector<Answer>& answers, Dice& dice) {
  if (finished(state)) return reject("game_over", "The game is over.");
  return resolve(state, pending(state), answers, dice);
}

Result<StepResult> resolve(const GameState& state, const std::vector<Decision>& owed,
                           const std::vector<Answer>& answers, Dice& dice,
                           const std::map<std::string, Answer, std::less<>>* checked, const MoveChecks* moves,
                           const CommandChecks* commands) {
  if (finished(state)) return reject("game_over", "The game is over.");
  // A step's answers are all checked on one state: without the caller's
  // caches, every order would lay the whole field out again, and every
  // leader's actions the enemy's outlines (the bot and the tests resolve
  // without a game's caches). Both build nothing until first asked.
  std::optional<MoveChecks> own_moves;
  if (moves == nullptr) moves = &own_moves.emplace(state);
  std::optional<CommandChecks> own_commands;
  if (commands == nullptr) commands = &own_commands.emplace(state);
  // Each refusal names the decision at fault, so that only its seat is told.
  if (auto ok = check_step(owed, answers,
                           [&](const Answer& a) -> Verdict {
                             if (checked != nullptr) {
                               const auto it = checked->find(a.decision_id);
                               if (it != checked->end() && it->second == a) return Ok{};
                             }
                             return check_against(state, owed, a, moves, commands);
                           });
      !ok) {
    return ok.error();
  }
  StepResult r{state, {}, {}};
  std::optional<std::vector<Decision>> known;  // pending(r.next), when finish worked it out
  if (state.phase == Phase::kMovement && !owed.empty()) {
    if (!pursuit_meeting_pending(state).empty()) {
      resolve_pursuit_meeting(r.next, answers, dice, r.events);
    } else if (!retire_pending(state).empty()) {
      resolve_retire_choices(r.next, answers, dice, r.events);
    } else if (auto ok = movement_resolve(r.next, answers, dice, r.events, &owed, moves); !ok) {
      return ok.error();
    }
  } else {
    finish(r.next, answers, dice, r.events, &owed, &known);
  }
  // Run on through everything that needs no decision.
  while (!finished(r.next)) {
    r.next_pending = known ? std::move(*known) : pending(r.next);
    known.reset();
    if (!r.next_pending.empty()) break;
    finish(r.next, {}, dice, r.events, &r.next_pending, &known);
  }
  r.next.step = state.step + 1;
  return r;
}

}  // namespace galloper::rules::malbrook
