#pragma once
// The umpire's powers (and a player's pause): which actions are taken, from
// whom, and the log entries they become. Rewinds and edits, which change the
// state itself, are checked here and carried out by the room (room.hpp).
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "galloper/v1/protocol.pb.h"
#include "galloper/v1/store.pb.h"
#include "server/src/game/refusal.hpp"
#include "server/src/game/room_state.hpp"

namespace galloper::server {

class UmpireDesk {
 public:
  explicit UmpireDesk(const RoomState& state) : state_(state) {}

  // Whether the holder of `seat` may take `action` now; nothing when it may.
  std::optional<Refusal> check(std::size_t seat, const v1::UmpireAction& action) const;
  // The entry an action taken at `now_ms` by `seat` is logged as.
  v1::LogEntry entry(const std::string& seat, const v1::UmpireAction& action, std::int64_t now_ms) const;
  // A rewind to `to_step`: the log entry after which everything of later
  // steps is undone (0: the start), or why it cannot be.
  std::variant<std::uint64_t, Refusal> rewind_point(std::uint64_t to_step) const;
  // A player's pause that ran out, resumed by the server.
  v1::LogEntry pause_ran_out(std::int64_t now_ms) const;

 private:
  const RoomState& state_;
};

}  // namespace galloper::server
