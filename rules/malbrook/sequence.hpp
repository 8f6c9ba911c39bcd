#pragma once
// The Sequence of Play as a state machine on GameState: turn, phase, which
// side acts, and the initiative ("Sequence of Play").
//
//   Initiative -> Bombardment -> Command (actions, then control) -> Movement
//   -> Close Artillery Fire -> Combat -> Morale -> next turn
//
// "All actions are conducted alternately with both sides completing each
// phase in the sequence of play before moving to the next": in each phase the
// side with initiative acts (GameState::half 0), then the other (half 1).
// With GameState::simultaneous (a house option for play-by-web) both sides
// answer each phase in one step.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "rules/core/decision.hpp"
#include "rules/core/dice.hpp"
#include "rules/malbrook/state.hpp"

namespace galloper::rules::malbrook {

// The two army ids, the side with initiative first (state order until decided).
std::vector<std::string> armies_in_order(const GameState& state);
std::string other_army(const GameState& state, std::string_view army);

// The armies that owe answers in the current half of the phase: the side with
// initiative in half 0, the other in half 1; both (initiative side first) when
// simultaneous. The movement phase asks this too.
std::vector<std::string> acting_armies(const GameState& state);
bool is_acting(const GameState& state, std::string_view army);

// ---- Right to left ----
// "All actions are carried out from right to left": where the order of a
// side's units matters in resolution (dice drawn, leaders' actions applied,
// messengers moved), they go from the right of the side's line to its left as
// seen from its own table edge. The side's facing is the bearing from the
// centre of its brigades, guns and leaders to the enemy's, snapped to the
// nearest table axis (a side deploys along one edge); "right" is that facing
// turned 90 degrees clockwise. Units are ordered by how far right their
// position (middle of the front edge) lies, rightmost first; ties by id.
double army_facing_deg(const GameState& state, std::string_view army);
std::vector<std::size_t> brigades_right_to_left(const GameState& state, std::string_view army);
std::vector<std::size_t> guns_right_to_left(const GameState& state, std::string_view army);
std::vector<std::size_t> leaders_right_to_left(const GameState& state, std::string_view army);

// ---- Turns and initiative ----

// Clears what lasts only for a turn: halt markers, inspiration, the moved,
// under-fire and fired markers, and this turn's control results.
void begin_turn(GameState& state);

// "Add 1 to the die roll if the army is commanded by an exceptional Marshal
// whose command group is on table" (alive and not captured).
int initiative_modifier(const GameState& state, std::string_view army);

// Settles who moves first this turn: the attacker on turn 1 of an attack
// scenario, otherwise a D6 each (first army in state order rolls first),
// re-rolled while tied (RULINGS.md). Sets state.initiative (attacker) or
// state.initiative_winner (who then chooses first or second).
void settle_initiative(GameState& state, Dice& dice, std::vector<Event>& events);

// The winner's choice: "first" or "second".
inline constexpr std::string_view kInitiativeDecision = "initiative";
Decision initiative_decision(const GameState& state);
Verdict initiative_check(const GameState& state, const Answer& answer);
void apply_initiative_choice(GameState& state, const Answer& answer, std::vector<Event>& events);


}  // namespace galloper::rules::malbrook
