#pragma once
// The end of the game: objectives held, armies broken, the turn limit
// ("Game length", the scenario's victory conditions; RULINGS.md V1-V5).
//
// At the end of every turn (after the Morale phase) the engine calls
// end_of_turn(): objectives change hands, then the game ends if an army has
// broken or the last turn was played. The result (winner, reason, objective
// points per army) is kept in GameState::result and announced in a public
// "game_over" event.
#include <cstdint>
#include <string_view>
#include <vector>

#include "rules/core/decision.hpp"
#include "rules/malbrook/state.hpp"

namespace galloper::rules::malbrook {

// A brigade that counts towards holding ground: on the table, formed, and not
// retiring, routing or pursuing (V1).
bool holds_ground(const Brigade& b);
// Any part of the brigade's footprint within the objective's radius of its point.
bool within_objective(const Brigade& b, const Objective& o);
// The army that holds `o` now by V1 (a formed brigade of its own within the
// radius and no enemy brigade within it), or "" when neither does now (the
// objective then stays with its previous holder).
std::string holder_now(const GameState& state, const Objective& o);
// Objectives change hands by holder_now(); an event for each change.
void update_objectives(GameState& state, std::vector<Event>& events);
// Objective points held, per army in state order.
std::vector<std::uint32_t> objective_points(const GameState& state);

// Army break (V2): brigades destroyed, surrendered or routing, over all the
// army's brigades (split parts count each; merged brigades once).
struct BreakCount {
  std::uint32_t lost = 0;
  std::uint32_t total = 0;
};
BreakCount break_count(const GameState& state, std::string_view army);
bool army_broken(const GameState& state, std::string_view army);

// Updates objectives, then ends the game (Phase::kEnded, GameState::result, a
// public "game_over" event) if an army is broken or the turn limit is reached.
// True when the game ended.
bool end_of_turn(GameState& state, std::vector<Event>& events);

// Ends the game now with `result` (also what the umpire's "end game" uses).
void end_game(GameState& state, GameResult result, std::vector<Event>& events);

}  // namespace galloper::rules::malbrook
