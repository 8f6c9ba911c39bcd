#pragma once
// The open step: which requests to answer and lock it are taken, and the log
// entries they become; what a seat that missed the deadline answers; what
// the bot answers for its seats; and the step's resolution. It only reads
// the room's state: the room writes the entries it returns, and the reducer
// applies them.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "galloper/v1/protocol.pb.h"
#include "galloper/v1/store.pb.h"
#include "rules/core/game.hpp"
#include "server/src/game/reducer.hpp"
#include "server/src/game/refusal.hpp"
#include "server/src/game/room_state.hpp"

namespace galloper::server {

class StepDesk {
 public:
  explicit StepDesk(const RoomState& state) : state_(state) {}

  // The seat an answer or lock from a connection holding `holder` acts for
  // (the umpire may act for any player seat), at `step`.
  std::variant<std::size_t, Refusal> acting_seat(std::size_t holder, std::uint64_t step,
                                                 const std::string& for_seat) const;
  // An answer, checked by the rules. A decision the seat does not owe is
  // refused exactly as one that does not exist: which seat owes what is
  // not the asker's to learn.
  std::variant<v1::LogEntry, Refusal> answer(std::size_t seat, const v1::Answer& answer) const;
  // A lock: the seat's unanswered decisions take their defaults.
  struct Lock {
    v1::LogEntry entry;
    v1::AnswersLocked reply;
  };
  std::variant<Lock, Refusal> lock(std::size_t seat) const;
  // A lock for a seat that missed the deadline or was forced by the umpire:
  // its unanswered decisions take what the game's missed-deadline policy
  // gives. Null when a decision has no legal default (the seat then waits for
  // the umpire).
  std::optional<v1::LogEntry> default_lock(const std::string& seat, const std::string& why) const;
  // The answers and locks of every bot seat that owes decisions and has not
  // locked (rules/core/bot.hpp): from each seat's own view only.
  std::vector<v1::LogEntry> bot_turns() const;
  // The step resolved with the answers given: the entry to log (a
  // resolution, or a reopening when the answers collide), its state hash and
  // the work done, so it is not done again.
  struct Resolution {
    v1::LogEntry entry;
    rules::StateHash hash = 0;
    Prepared prepared;
  };
  std::optional<Resolution> resolve() const;

 private:
  std::optional<rules::Answer> fallback(const SeatLog& seat, const rules::Decision& decision) const;

  const RoomState& state_;
};

}  // namespace galloper::server
