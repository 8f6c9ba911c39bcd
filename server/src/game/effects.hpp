#pragma once
// What applying a log entry asks the live room to do once the entry is on
// disk: the reducer returns these and never performs them (reducer.hpp).
// Loading applies the same entries and drops their effects. Each is said as
// what happened, not as messages: who is told what, and how, is the fan-out's
// job (fanout.hpp), which builds everything a seat receives for that seat.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "galloper/v1/protocol.pb.h"
#include "rules/core/decision.hpp"
#include "rules/core/game.hpp"

namespace galloper::server {

// Who hears a notice. Spectators watch the game late: they hear of the game
// as a whole (pauses, broadcasts, the end), never of the open step's play
// (SeatStatus in protocol.proto says why).
enum class Audience { kEveryone, kPlayers };

struct NoticeOut {
  std::string kind;         // GameNotice.kind
  std::string text;         // what players (and spectators, for kEveryone) read
  std::string umpire_text;  // the umpire's, when it holds more ("" = the same)
  std::uint64_t step = 0;
  Audience audience = Audience::kEveryone;
  // What a spectator watching late reads, when the text tells of the live
  // game (a rewind's steps); "" = the same.
  std::string spectator_text = {};
};

// The game as it stood once an entry was applied: what seats are told of it
// when the entry is on disk, whatever later entries did meanwhile. So a
// live room and a replay of its log send every seat the same messages.
struct StepStatus {
  std::shared_ptr<const rules::Game> game;
  std::vector<rules::Decision> pending;
  std::map<std::string, rules::Answer> answers;
  std::set<std::string> locked;
  std::vector<std::string> bots;
  std::int64_t deadline_ms = 0;
  bool paused = false;
  bool ended = false;
  std::string end_text;
  std::uint32_t spectator_turn = 0;                   // the turn spectators are shown
  std::shared_ptr<const rules::Game> spectator_game;  // the state they are shown (its first)
  std::size_t history_size = 0;                       // events so far

  std::set<std::string> owing() const;
};

// A step resolved: each seat is sent what it was told of the step's events,
// its new view (of the entry's StepStatus) and what it owes next.
struct StepOut {
  std::uint64_t step = 0;                         // the step that resolved
  std::size_t first_event = 0, end_event = 0;     // its events in the history
  std::uint32_t spectator_turn_before = 0;        // the turn spectators saw before it
  bool turn_started = false;                      // it began a turn (its state is that turn's first)
};

// Answers that were each legal collided when the step resolved: every seat
// that owes answers may answer and lock again.
struct ReopenOut {
  std::uint64_t step = 0;
  std::string reason;                  // the umpire's: it names both sides' units
  std::vector<std::string> decisions;  // the decisions involved (a seat is told only its own)
};

// A webhook notification, for the notifications subscriber.
struct NotifyOut {
  std::string kind;  // "step_resolved", "decision_owed", "deadline", "deadline_near", "game_ended"
  std::string seat;  // empty: the whole game
  std::string text;
};

struct Effects {
  std::shared_ptr<const StepStatus> status;  // the game once the entry was applied
  bool seat_status = false;  // who owes and who has locked changed
  bool fresh_state = false;  // every seat's view and decisions are new (an edit, a rewind)
  bool ended = false;        // announce the end (the store marks it first; the seed goes out)
  // The umpire ended the game: spectators are told at once what the delay
  // held back, the events from this turn on.
  std::optional<std::uint32_t> spectators_from_turn;
  std::optional<StepOut> step;
  std::optional<ReopenOut> reopen;
  std::vector<NoticeOut> notices;
  std::optional<std::size_t> chat;  // a chat message (its index in RoomState::chat) to its readers
  std::vector<NotifyOut> notify;
  // A digest that went out: posted to `hook` once its entry is on disk.
  std::optional<std::pair<std::string, NotifyOut>> digest;
};

}  // namespace galloper::server
