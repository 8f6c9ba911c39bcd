#pragma once
// The Command Phase: each leader's command actions ("Command Actions",
// "Chain of Command", "Orders"), and messengers.
//
// One decision per leader ("command/<leader id>"), owed by the seat that owns
// the leader (Marshal: "<army>/army"; a wing's Lieutenant General and its
// Major Generals: "<army>/<wing>"). The answer lists the leader's actions as
// OrderSteps, carried out in order:
//
//   move action  = ["detach"] ["move_to" to] ["attach" target=brigade]
//                  (adjacent steps in that order make ONE move action: "Move up
//                  to 6 inches ... This can include attaching to, and/or
//                  detaching from, a brigade"; "attach" alone moves the leader
//                  to the brigade's rear and attaches him)
//   "steady"     remove 1 DP from the brigade he is attached to; it halts
//   "inspire"    +1 combat, +1/2" per die moved for the brigade he is attached to
//   "issue_orders" target=leader in base-to-base contact; order=... (see below)
//   "listen"     [target=issuing leader]: hear orders given in person this phase
//   "send_messenger" target=recipient leader; order=...
//
// Orders: order="defend" | "advance_and_defend" | "advance_and_attack" (a
// Marshal to a wing's Lieutenant General; has_objective/to and feature give
// the objective), or order="reassign" with unit (brigade, gun or command id),
// wing and command (the destination).
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "rules/core/decision.hpp"
#include "rules/malbrook/state.hpp"

namespace galloper::rules::malbrook {

inline constexpr double kLeaderMove = 6.0;            // "Move up to 6 inches"
inline constexpr double kLeaderDoubleBeyond = 6.0;      // "(double if beyond 6 inches of enemy)"
inline constexpr double kLeaderContact = 0.5;         // base-to-base between leaders / messengers (RULINGS.md)
inline constexpr std::string_view kCommandDecisionPrefix = "command/";

// Command actions this turn: 2 for Lieutenant Generals and Marshals, 1 for
// Major Generals, +/- the leader's modifier; a wounded Lieutenant General or
// Marshal "may now make only one command decision per turn". 0 for leaders
// killed or captured.
int command_actions(const Leader& leader);
// "Major Generals [once wounded] may no longer inspire or steady."
bool may_influence(const Leader& leader);
bool on_table(const Leader& leader);  // not killed, not captured

// "Leaders can only influence brigades or subordinates that are assigned to
// them": a Major General his command, a Lieutenant General his wing, a
// Marshal his army.
bool in_chain_of_command(const Leader& leader, const Brigade& brigade);
bool in_chain_of_command(const Leader& leader, const Gun& gun);

// Edge distance from a leader's stand placed at `at` to the nearest enemy
// brigade or gun still on the table (infinity when there is none).
double distance_to_enemy(const GameState& state, std::string_view army, const OrientedRect& stand);
// 12" when both ends of the move lie beyond 6" of the enemy, else 6".
double leader_move_allowance(const GameState& state, const Leader& leader, Vec2 from, Vec2 to);

// Move actions counted as described above; every other step is one action.
int count_actions(const std::vector<OrderStep>& steps);

// Decisions owed by the acting armies' leaders.
std::vector<Decision> command_pending(const GameState& state);
// The leader's actions checked in order against the current state (the seat
// and decision id are the engine's). Never changes the state.
Verdict command_check(const GameState& state, const Answer& answer);
// command_check for many answers to one state: where the enemy stands (for
// each leader's move allowance) is worked out on the first and kept. A
// cache: the verdicts are command_check's. `state` must outlive it and not
// change.
class CommandChecks {
 public:
  explicit CommandChecks(const GameState& state);
  ~CommandChecks();
  CommandChecks(const CommandChecks&) = delete;
  CommandChecks& operator=(const CommandChecks&) = delete;
  Verdict check(const Answer& answer) const;

 private:
  struct Impl;
  const GameState& state_;
  mutable std::unique_ptr<Impl> impl_;
};
// Carries out every acting leader's actions, side by side in the order of
// acting_armies(), each side's leaders right to left. An action that the
// actions of a leader resolved earlier made impossible is skipped with an
// event saying why.
void apply_command_actions(GameState& state, const std::vector<Answer>& answers, std::vector<Event>& events);
// "Move messengers": every messenger of `army` rides towards its recipient
// and relays its message on reaching him.
void move_messengers(GameState& state, std::string_view army, std::vector<Event>& events);

// Carries out a message now (wing orders or a re-assignment).
void apply_message(GameState& state, const Leader& issuer, const Leader& recipient, const Message& message,
                   std::vector<Event>& events);

}  // namespace galloper::rules::malbrook
