#pragma once
// Everything a seat of a room receives, built for that seat: its view, the
// events as it was told them, its decisions, notices, chat, history, the
// game's settings. One path: nothing is built for everyone and trimmed.
//
// Numbering: each seat counts its own events (GameView.sequence,
// Event.sequence) and its own chat (ChatMessage.sequence) from 1 with no
// gaps, so a seat cannot count what it was not told. Events undone by a
// rewind keep their numbers (the seat was told them, and told of the rewind).
#include <cstdint>
#include <memory>
#include <string>

#include "galloper/v1/protocol.pb.h"
#include "persistence/store.hpp"
#include "rules/core/tell.hpp"
#include "server/src/game/effects.hpp"
#include "server/src/game/room_state.hpp"
#include "server/src/game/seat_links.hpp"

namespace galloper::server {

class Fanout {
 public:
  Fanout(const RoomState& state, SeatLinks& links, const persistence::GameRecord& record)
      : state_(state), links_(links), record_(record) {}

  // A connection joined `seat`: Joined, then what it owes, who owes, and
  // the events and chat it may read after those it has.
  void joined(std::size_t seat, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id,
              const std::string& resume_token, const v1::JoinGame& request);

  // The effects of an entry now on disk, to every seat concerned, as the
  // game stood when the entry was applied (effects.status).
  void perform(const Effects& effects);
  // The end of the game, once the store has recorded it: the seed to everyone.
  void ended(const StepStatus& now);

  // How `seat` knows the pieces of `game` (its view of it: the one it was
  // last sent when that is of this state). For every text told to it.
  rules::SeatKnowledge knowledge_of(std::size_t seat, const rules::Game& game);
  rules::SeatKnowledge knowledge_of(std::size_t seat);

  // How many chat messages `seat` may read: its count of the chat.
  std::uint64_t chat_count(std::size_t seat) const;
  // The game's settings as `seat` may see them: webhook URLs are secrets.
  v1::GameSettings settings_for(std::size_t seat) const;

 private:
  bool is_umpire(std::size_t seat) const { return RoomState::is_umpire(state_.seats[seat].seat); }
  bool is_spectator(std::size_t seat) const { return RoomState::is_spectator(state_.seats[seat].seat); }
  bool told(std::size_t seat, const HistoryEvent& h) const;
  // How many events the seat was told among history[0, end).
  std::uint64_t told_count(std::size_t seat, std::size_t end) const;
  // The events of history[first, end) the seat was told, numbered as the seat counts them.
  void add_told(std::size_t seat, std::size_t first, std::size_t end,
                google::protobuf::RepeatedPtrField<v1::Event>* out) const;
  // The end of what a spectator shown the start of `turn` may be told: the
  // events of the turns before it.
  std::size_t spectator_end(const StepStatus& now, std::uint32_t turn) const;
  // The first history event of `turn` or later.
  std::size_t first_of_turn(const StepStatus& now, std::uint32_t turn) const;
  // Spectators told, at once, the events of turns from `from_turn` on.
  void spectators_catch_up(const StepStatus& now, std::uint32_t from_turn);

  void decisions_of(std::size_t seat, const StepStatus& now, v1::DecisionsOwed* out);
  v1::SeatStatus seat_status_of(const StepStatus& now) const;
  void fill_view(std::size_t seat, const StepStatus& now, v1::GameView* out);
  void fill_header(std::size_t seat, const StepStatus& now, const rules::Game& shown, std::size_t history_end,
                   v1::GameView* out) const;
  void seat_status(const StepStatus& now);
  void fresh_state(const StepStatus& now);
  void step_to(std::size_t seat, const StepOut& step, const StepStatus& now);
  void notice(const NoticeOut& n, const StepStatus& now);
  void reopen(const ReopenOut& r, const StepStatus& now);
  void chat(std::size_t index);
  void history(std::size_t seat, const std::shared_ptr<Peer>& peer, const StepStatus& now,
               const v1::JoinGame& request);
  bool may_read(std::size_t seat, const v1::ChatMessage& m) const;

  const RoomState& state_;
  SeatLinks& links_;
  const persistence::GameRecord& record_;
};

}  // namespace galloper::server
