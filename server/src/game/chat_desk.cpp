#include "server/src/game/chat_desk.hpp"

namespace galloper::server {

std::variant<v1::LogEntry, Refusal> ChatDesk::message(std::size_t seat, const v1::SendChat& request,
                                                      std::int64_t now_unix) const {
  const auto& from = state_.seats[seat].seat;
  if (RoomState::is_spectator(from)) {
    return Refusal{v1::ERROR_CODE_PERMISSION_DENIED, "only players and the umpire of game " + state_.game_id +
                                                         " may chat", {}};
  }
  if (request.text().empty() || request.text().size() > kMaxChatLength) {
    return Refusal{v1::ERROR_CODE_INVALID_ARGUMENT, "a chat message has 1-2000 characters", {}};
  }
  v1::LogEntry entry;
  auto* m = entry.mutable_chat();
  m->set_game_id(state_.game_id);
  m->set_from_seat(from.id);
  m->set_channel(request.channel());
  m->set_side(from.side);
  m->set_text(request.text());
  m->set_sent_unix(now_unix);
  switch (request.channel()) {
    case v1::CHAT_CHANNEL_ALL:
    case v1::CHAT_CHANNEL_WING:
      break;
    case v1::CHAT_CHANNEL_SIDE:
      if (from.side.empty()) {
        return Refusal{v1::ERROR_CODE_INVALID_ARGUMENT,
                       "the umpire has no side: write to all, or privately to a seat", {}};
      }
      break;
    case v1::CHAT_CHANNEL_UMPIRE:
      if (RoomState::is_umpire(from)) {
        if (request.to_seat().empty()) {
          return Refusal{v1::ERROR_CODE_INVALID_ARGUMENT,
                         "a private umpire message names the seat it is for (to_seat)", {}};
        }
        const auto* to = state_.seat_named(request.to_seat());
        if (to == nullptr || RoomState::is_spectator(to->seat) || RoomState::is_umpire(to->seat)) {
          return Refusal{v1::ERROR_CODE_NOT_FOUND,
                         "game " + state_.game_id + " has no player seat '" + request.to_seat() + "'",
                         {{"to_seat", request.to_seat()}}};
        }
        m->set_to_seat(request.to_seat());
      } else {
        m->set_to_seat(std::string(kUmpireSeat));
      }
      break;
    default:
      return Refusal{v1::ERROR_CODE_INVALID_ARGUMENT, "unknown chat channel", {}};
  }
  // Stored with its place in the game's chat; each reader is sent its own count.
  m->set_sequence(state_.chat.size() + 1);
  return entry;
}

}  // namespace galloper::server
