#pragma once
// The command phase ("Command Actions", "Control Test"; RULINGS K1-K7), in
// two stages within each half:
//
//  1. Each leader of an acting side owes "command/<leader>": his actions,
//     as order steps carried out in order (none: he does nothing):
//       move action = ["detach"] ["move_to" to] ["attach" target=unit]
//                     (adjacent steps in that order are ONE action: "Move up
//                     to 120 yds; attach and/or detach"); up to 120 yds, 240
//                     where both ends lie beyond 120 yds of every enemy his
//                     side sees ("Detached leaders/messengers")
//       "steady"      the unit he is attached to removes 1 DP and remains
//                     halted this turn
//       "inspire"     the unit he is attached to: +1 in combat and +10 yds a
//                     move die, +2 at most (RULINGS T6, T15)
//  2. Each unit that must take a control test owes "control/<unit>" when the
//     sheet lets its player add or take the optional modifiers: the net
//     modifier, "-2".."+2". Tests with no modifier to choose are rolled
//     without asking. The result holds for the turn: halted, as the player
//     wishes, repeating its last move, or continuing its charge.
#include <string_view>
#include <vector>

#include "rules/cfeo/state.hpp"
#include "rules/core/decision.hpp"
#include "rules/core/dice.hpp"
#include "rules/core/result.hpp"

namespace galloper::rules::cfeo {

inline constexpr std::string_view kCommandPrefix = "command/";
inline constexpr std::string_view kControlPrefix = "control/";

inline constexpr double kLeaderMove = 120;        // "Detached leaders/messengers: up to 120 yds,"
inline constexpr double kLeaderMarch = 240;       // "240 yds if beyond 120 yds of enemy."
inline constexpr double kLeaderControl = 60;      // "beyond 60 yds of detached leader"
inline constexpr double kMarshalControl = 120;    // "(120 of marshal)"
inline constexpr double kBehindReach = 60;        // "within 60 yds, behind a controlled unit"
inline constexpr double kLineGap = 10;            // a "continuous line": intervals of 10 yds at most (K5)
inline constexpr std::uint32_t kMaxInspire = 2;   // "+1 each action to max +2" (T6)

// Command actions this turn (RULINGS K1): a marshal or general 2, a
// brigadier 1, each with his scenario's modifier, less one for each wound
// ("Wounded. Loose 1 action."); none once killed.
int command_actions(const Leader& leader);

// Per unit: 1 when it must take a control test this turn (RULINGS K4, K5):
// a unit of an acting side, in the field, that charged last turn and failed
// to contact, or that is beyond 60 yds of every detached leader over it
// (120 of its marshal) with no leader attached, unless it stands in a
// continuous line with, or within 60 yds behind, a controlled unit of its
// brigade.
std::vector<char> control_tests_owed(const GameState& state);

std::vector<Decision> command_pending(const GameState& state);
// A leader's actions or a control test's modifier, for check(); `d` is its
// pending decision.
Verdict command_check(const GameState& state, const Decision& d, const Answer& answer);
// Stage 1: carries out the leaders' actions.
void resolve_command_actions(GameState& state, const std::vector<Answer>& answers, std::vector<Event>& events);
// Stage 2: rolls every control test owed, with the modifiers answered.
void roll_control_tests(GameState& state, const std::vector<Answer>& answers, Dice& dice, std::vector<Event>& events);

// Puts each attached leader behind his unit, and frees those whose unit is
// gone: an attached leader goes where his unit goes.
void follow_attached(GameState& state);

}  // namespace galloper::rules::cfeo
