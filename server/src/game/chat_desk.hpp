#pragma once
// Chat: who may write on which channel, and the log entry a message becomes.
// Who may read a message is the fan-out's (fanout.hpp), which numbers each
// reader's chat on its own.
#include <cstdint>
#include <variant>

#include "galloper/v1/protocol.pb.h"
#include "galloper/v1/store.pb.h"
#include "server/src/game/refusal.hpp"
#include "server/src/game/room_state.hpp"

namespace galloper::server {

inline constexpr std::size_t kMaxChatLength = 2000;

class ChatDesk {
 public:
  explicit ChatDesk(const RoomState& state) : state_(state) {}

  // The entry a message from the holder of `seat`, sent at `now_unix`, is logged as.
  std::variant<v1::LogEntry, Refusal> message(std::size_t seat, const v1::SendChat& request,
                                              std::int64_t now_unix) const;

 private:
  const RoomState& state_;
};

}  // namespace galloper::server
