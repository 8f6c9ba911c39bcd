#include "server/src/game/umpire_desk.hpp"

namespace galloper::server {

namespace {

constexpr std::size_t kMaxBroadcastLength = 2000;

std::string action_label(const v1::UmpireAction& a) {
  switch (a.action_case()) {
    case v1::UmpireAction::kForceResolve: return "force a step";
    case v1::UmpireAction::kSetDeadline: return "set the deadline";
    case v1::UmpireAction::kBroadcast: return "broadcast";
    case v1::UmpireAction::kEndGame: return "end the game";
    case v1::UmpireAction::kRewind: return "rewind";
    case v1::UmpireAction::kEditState: return "edit the state";
    case v1::UmpireAction::kSetBotSeat: return "hand seats to the bot";
    default: return "do that";
  }
}

}  // namespace

std::optional<Refusal> UmpireDesk::check(std::size_t seat, const v1::UmpireAction& request) const {
  const auto& holder = state_.seats[seat];
  if (RoomState::is_spectator(holder.seat)) {
    return Refusal{v1::ERROR_CODE_PERMISSION_DENIED, "spectators watch; they take no umpire actions", {}};
  }
  const bool umpire = RoomState::is_umpire(holder.seat);
  const auto kind = request.action_case();
  if (kind == v1::UmpireAction::ACTION_NOT_SET) {
    return Refusal{v1::ERROR_CODE_UNKNOWN_MESSAGE, "UmpireAction carries no action", {}};
  }
  const bool player_may = kind == v1::UmpireAction::kPause || kind == v1::UmpireAction::kResume;
  if (!umpire && !player_may) {
    return Refusal{v1::ERROR_CODE_PERMISSION_DENIED,
                   "only the umpire may " + action_label(request) + "; you hold " + holder.seat.id, {}};
  }
  if (request.reason().empty()) {
    return Refusal{v1::ERROR_CODE_INVALID_ARGUMENT, "every umpire action needs a reason for the audit trail", {}};
  }
  if (state_.ended()) return Refusal{v1::ERROR_CODE_INVALID_ARGUMENT, "the game has ended", {}};
  switch (kind) {
    case v1::UmpireAction::kPause:
      if (state_.paused) return Refusal{v1::ERROR_CODE_INVALID_ARGUMENT, "the game is already paused", {}};
      if (!umpire && holder.pauses_used >= state_.settings.max_player_pauses()) {
        return Refusal{v1::ERROR_CODE_PERMISSION_DENIED,
                       "seat " + holder.seat.id + " has used its " +
                           std::to_string(state_.settings.max_player_pauses()) + " pause(s); ask the umpire",
                       {}};
      }
      return std::nullopt;
    case v1::UmpireAction::kResume:
      if (!state_.paused) return Refusal{v1::ERROR_CODE_INVALID_ARGUMENT, "the game is not paused", {}};
      if (!umpire && state_.paused_by != holder.seat.id) {
        return Refusal{v1::ERROR_CODE_PERMISSION_DENIED, "only the umpire or the seat that paused may resume", {}};
      }
      return std::nullopt;
    case v1::UmpireAction::kForceResolve:
      if (state_.pending.empty()) return Refusal{v1::ERROR_CODE_INVALID_ARGUMENT, "no step is open to force", {}};
      return std::nullopt;
    case v1::UmpireAction::kSetDeadline:
      if (request.set_deadline().deadline_unix() < 0) {
        return Refusal{v1::ERROR_CODE_INVALID_ARGUMENT, "a deadline is a Unix time, or 0 for none", {}};
      }
      return std::nullopt;
    case v1::UmpireAction::kBroadcast:
      if (request.broadcast().text().empty() || request.broadcast().text().size() > kMaxBroadcastLength) {
        return Refusal{v1::ERROR_CODE_INVALID_ARGUMENT, "a broadcast needs 1-2000 characters", {}};
      }
      return std::nullopt;
    case v1::UmpireAction::kSetBotSeat: {
      const auto* target = state_.seat_named(request.set_bot_seat().seat());
      if (target == nullptr) {
        return Refusal{v1::ERROR_CODE_NOT_FOUND,
                       "game " + state_.game_id + " has no seat '" + request.set_bot_seat().seat() + "'", {}};
      }
      if (RoomState::is_umpire(target->seat) || RoomState::is_spectator(target->seat)) {
        return Refusal{v1::ERROR_CODE_INVALID_ARGUMENT,
                       "the bot plays player seats only, not " + request.set_bot_seat().seat(), {}};
      }
      if (state_.is_bot(target->seat.id) == request.set_bot_seat().bot()) {
        return Refusal{v1::ERROR_CODE_INVALID_ARGUMENT,
                       "seat " + target->seat.id + (request.set_bot_seat().bot() ? " is already" : " is not") +
                           " played by the bot",
                       {}};
      }
      return std::nullopt;
    }
    default:
      return std::nullopt;  // end, rewind, edit: checked where they are carried out
  }
}

v1::LogEntry UmpireDesk::entry(const std::string& seat, const v1::UmpireAction& action, std::int64_t now_ms) const {
  v1::LogEntry entry;
  auto* stored = action.has_edit_state() ? entry.mutable_edit() : entry.mutable_umpire();
  stored->set_seat(seat);
  *stored->mutable_action() = action;
  stored->set_at_ms(now_ms);
  stored->set_step(state_.game->step());
  return entry;
}

std::variant<std::uint64_t, Refusal> UmpireDesk::rewind_point(std::uint64_t to_step) const {
  if (to_step > state_.game->step()) {
    return Refusal{v1::ERROR_CODE_INVALID_ARGUMENT,
                   "step " + std::to_string(to_step) + " has not been played; the current step is " +
                       std::to_string(state_.game->step()),
                   {}};
  }
  // Step K opens again: what came after the resolution of step K-1 is undone.
  if (to_step == 0) return std::uint64_t{0};
  auto it = state_.resolve_seq.find(to_step - 1);
  if (it == state_.resolve_seq.end()) {
    return Refusal{v1::ERROR_CODE_INVALID_ARGUMENT,
                   "step " + std::to_string(to_step) + " cannot be returned to: the log has no resolution of step " +
                       std::to_string(to_step - 1),
                   {}};
  }
  return it->second;
}

v1::LogEntry UmpireDesk::pause_ran_out(std::int64_t now_ms) const {
  v1::UmpireAction resume;
  resume.set_game_id(state_.game_id);
  resume.set_reason("the player's pause ran out");
  resume.mutable_resume();
  return entry("server", resume, now_ms);
}

}  // namespace galloper::server
