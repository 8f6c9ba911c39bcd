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

  // The effects of an entry now on disk, to every seat concerned.
  void perform(const Effects& effects);
  // The end of the game, once the store has recorded it: the seed to everyone.
  void ended();
  // Every seat's view, decisions and the seat status again (an edit, a rewind).
  void fresh_state();
  // Who owes and who has locked, to the seats that play and the umpire.
  void seat_status();

  // What `seat` owes now.
  void decisions_of(std::size_t seat, v1::DecisionsOwed* out) const;
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
  void add_told(std::size_t seat, std::size_t first, std::size_t end, bool with_superseded,
                google::protobuf::RepeatedPtrField<v1::Event>* out) const;
  // Which history events a spectator may be told now: those of turns up to
  // the one it is shown.
  std::size_t spectator_end(std::uint32_t turn) const;

  void fill_view(std::size_t seat, const rules::Game& game, v1::GameView* out);
  void fill_header(std::size_t seat, const rules::Game& game, std::size_t history_end, v1::GameView* out) const;
  void step_to(std::size_t seat, const StepOut& step);
  void notice(const NoticeOut& n);
  void reopen(const ReopenOut& r);
  void chat(std::size_t index);
  void history(std::size_t seat, const std::shared_ptr<Peer>& peer, const v1::JoinGame& request);
  bool may_read(std::size_t seat, const v1::ChatMessage& m) const;

  const RoomState& state_;
  SeatLinks& links_;
  const persistence::GameRecord& record_;
};

}  // namespace galloper::server
