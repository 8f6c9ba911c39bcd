#pragma once
// What a game's log decides: the state one room holds, changed only by the
// reducer (reducer.hpp), the same way live and when loading. Connections,
// tokens and what each connection was last sent are not here: they are not
// in the log (seat_links.hpp).
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "galloper/v1/protocol.pb.h"
#include "persistence/store.hpp"
#include "rules/core/decision.hpp"
#include "rules/core/game.hpp"
#include "server/src/deadlines.hpp"
#include "server/src/game/effects.hpp"
#include "server/src/notify/notifier.hpp"

namespace galloper::server {

// The seat spectators join with (not one of the ruleset's seats).
inline constexpr std::string_view kSpectatorSeat = "spectator";
inline constexpr std::string_view kUmpireSeat = "umpire";

// What the log says of one seat.
struct SeatLog {
  rules::Seat seat;
  std::map<std::string, std::string> standing;  // decision kind -> option
  std::uint32_t pauses_used = 0;
  std::optional<Webhook> webhook;
};

// One event as some seats were told it. Every seat is told an event at most
// one way; an event the seat may not learn of has no entry with its bit.
struct HistoryEvent {
  v1::Event told;               // as those seats were told it (its sequence unset)
  std::uint64_t seat_mask = 0;  // bit i: seats[i] was told it so
  bool superseded = false;      // undone by a rewind: kept for its numbering, never sent again
};

struct DigestItem {
  std::string kind, seat, text;
  std::int64_t at_ms = 0;
};
struct DigestQueue {
  std::vector<DigestItem> items;
  std::int64_t last_sent_ms = 0;
};

class RoomState {
 public:
  RoomState(const persistence::GameRecord& record, std::unique_ptr<rules::Game> initial);

  // ---- Fixed when the game was made. ----
  std::string game_id;
  v1::GameSettings settings;  // bot_seats change with umpire entries; the rest is fixed
  rules::Seed seed{};
  rules::ViewSettings view_settings;
  std::optional<DailyTime> daily_deadline;  // settings' daily deadline, parsed
  DailyTime digest_time{0, "UTC"};          // when daily digests go
  std::shared_ptr<const rules::Game> initial;

  // ---- Decided by the log. ----
  std::shared_ptr<const rules::Game> game;
  std::vector<SeatLog> seats;  // the ruleset's seats (the umpire's first), then the spectators'

  // The open step.
  std::vector<rules::Decision> pending;
  std::map<std::string, rules::Answer> answers;   // by decision id; never sent to other seats
  std::map<std::string, rules::Answer> previous;  // each decision id's last resolved answer
  std::set<std::string> locked;
  std::int64_t deadline_ms = 0;  // 0: none
  bool warned_deadline = false;  // "deadline near" went out for the open step
  std::uint32_t reopened = 0;    // the open step reopened by colliding answers this often

  bool paused = false;
  std::string paused_by;
  std::int64_t paused_at_ms = 0;
  std::int64_t pause_until_ms = 0;  // a player's pause ends by itself
  bool ended_by_umpire = false;
  std::string umpire_result;

  // What happened so far.
  std::vector<HistoryEvent> history;
  std::vector<v1::ChatMessage> chat;
  std::vector<v1::AuditEntry> audit;
  std::map<std::uint32_t, std::shared_ptr<const rules::Game>> turn_start;  // for the spectator delay
  std::map<std::uint64_t, std::uint64_t> resolve_seq;  // engine step -> its live "resolve" entry
  std::map<std::string, DigestQueue> digests;           // by hook key ("seat:<id>", "game:<i>")
  std::uint64_t log_seq = 0;                            // the last entry applied

  // ---- Questions. ----
  bool ended() const { return game->finished() || ended_by_umpire; }
  std::set<std::string> owing_seats() const;
  bool all_locked() const;
  bool is_bot(std::string_view seat) const;
  // Null when the game has no such seat.
  SeatLog* seat_named(std::string_view id);
  const SeatLog* seat_named(std::string_view id) const;
  std::size_t index_of(std::string_view id) const;  // seats.size() when unknown
  static bool is_umpire(const rules::Seat& s) { return s.role == rules::SeatRole::kUmpire; }
  static bool is_spectator(const rules::Seat& s) { return s.role == rules::SeatRole::kSpectator; }

  // The turn spectators are shown (the live one less the delay, never before
  // the first), and the state they see: that turn's first.
  std::uint32_t spectator_turn() const;
  const rules::Game& spectator_state() const;
  // Who a spectator sees as: the spectator side's army seat (its first seat
  // in a ruleset without one), or the umpire.
  std::string spectator_eyes() const;

  // The text the end of the game is announced with.
  std::string end_text() const;
  // The game as it stands now, for what seats are told of it.
  std::shared_ptr<const StepStatus> status() const;

  // ---- Changes (the reducer's). ----
  // The step the engine now asks for: its decisions, nothing answered yet.
  void open_step();
  // Back to the scenario's start, as before the first entry (a reload).
  void reset();

 private:
  void bot_seats_as_created();
  google::protobuf::RepeatedPtrField<std::string> created_bot_seats_;
};

}  // namespace galloper::server
