#pragma once
// One game in memory. Everything a room does runs on its own strand, so game
// code needs no mutex and never blocks: storage answers come back as posts.
//
// The sequence of play is the engine's: at each step the room asks which
// seats owe which decisions and sends each seat its own list. All owing seats
// answer at the same time; a seat may revise its answers until it locks; no
// seat sees another's answers. When every owing seat has locked (or the
// deadline has passed, or the umpire forces it), the room stores the step,
// resolves it with the step's dice and sends each seat what it saw happen, its
// new view and what it owes next.
//
// Everything that changes the game or what a seat was told is a log entry,
// committed before anyone is told: answers, locks, resolutions, deadlines,
// umpire actions, standing orders, chat. Loading a game replays that log,
// starting from the newest usable snapshot of the state when there is one
// (every turn's first state and every kSnapshotEvery resolutions are
// snapshotted). An umpire rewind marks the later entries superseded in the
// store and the room reloads itself from the log: one path for both.
#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <google/protobuf/message_lite.h>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "galloper/v1/protocol.pb.h"
#include "galloper/v1/store.pb.h"
#include "persistence/store.hpp"
#include "rules/core/decision.hpp"
#include "rules/core/game.hpp"
#include "server/src/clock.hpp"
#include "server/src/deadlines.hpp"
#include "server/src/metrics.hpp"
#include "server/src/notifier.hpp"
#include "server/src/outgoing.hpp"

namespace galloper::server {

namespace net = boost::asio;

// The seat spectators join with (not one of the ruleset's seats).
inline constexpr std::string_view kSpectatorSeat = "spectator";

// A snapshot of the state is stored after every turn's first resolution and
// after this many resolutions without one, so loading replays at most this
// many steps (about 8 ms for the demo, see docs/PERFORMANCE.md).
inline constexpr std::uint64_t kSnapshotEvery = 8;

// The log kinds an umpire rewind supersedes: what belongs to a step, and the
// umpire's edits of the state after the point returned to (the state goes back
// as it was then; the audit trail still lists them, marked undone).
// Chat, standing orders, notifications and other umpire actions stay.
inline const std::vector<std::string>& rewound_kinds() {
  static const std::vector<std::string> kinds = {"resolve", "answer", "lock", "deadline", "edit"};
  return kinds;
}

// How many turns back a loader needs snapshots for (the newest is where
// loading starts; a delayed spectator view needs the start of each turn it
// may still show).
std::uint32_t snapshot_turns_back(const persistence::GameRecord& record);

struct RoomServices {
  net::io_context& ioc;
  persistence::Store& store;
  Metrics& metrics;
  const Clock& clock;
  Notifier& notifier;
};

class Room : public std::enable_shared_from_this<Room> {
 public:
  Room(RoomServices services, persistence::GameRecord record, std::unique_ptr<rules::Game> game,
       std::vector<persistence::SeatRecord> seats);
  ~Room();

  const std::string& id() const { return record_.id; }

  // Before the room is shared: rebuilds the game from its log (every entry, in
  // order), starting from the newest usable snapshot (store.load_snapshots
  // with snapshot_turns_back) when there is one. Returns an error naming the
  // first entry that cannot be replayed.
  std::optional<std::string> restore(const std::vector<persistence::StepRecord>& log,
                                     const std::vector<persistence::SnapshotRecord>& snapshots = {});
  // Once shared: starts the game if the engine waits on nothing, and the
  // deadline of the open step.
  void start();
  // Called (on the room's strand) if a write fails: the room stops taking
  // requests and the lobby drops it, so the next join reloads it from disk.
  void on_failed(std::function<void(const std::string& game_id)> callback) { on_failed_ = std::move(callback); }

  // Requests; each is posted onto the strand and answered through the peer.
  void join(v1::JoinGame request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id);
  void submit(v1::SubmitAnswer request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id);
  void lock(v1::LockAnswers request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id);
  void standing_orders(v1::SetStandingOrders request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id);
  void umpire(v1::UmpireAction request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id);
  void chat(v1::SendChat request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id);
  void audit(std::shared_ptr<Peer> peer, std::uint64_t correlation_id);
  void notifications(v1::SetNotifications request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id);
  // A question (rules/core/odds.hpp): the odds of a proposed charge or shot
  // as the asking seat sees the table. Never stored.
  void odds(v1::OddsRequest request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id);
  // Checks the deadline and player pauses against the clock.
  void tick();

 private:
  struct SeatState {
    rules::Seat seat;
    std::string invite_hash;
    std::vector<std::string> resume_hashes;
    std::vector<std::weak_ptr<Peer>> peers;
    std::map<std::string, std::string> standing;  // decision kind -> option
    std::uint32_t pauses_used = 0;
    std::optional<Webhook> webhook;
    // The view this seat's connections were last sent, while they all hold
    // the same one (a seat that plays, before the end): the next StepResolved
    // tells the seat's view as a change to it. Empty: the next goes whole.
    std::optional<rules::View> shown;
  };
  struct HistoryEvent {
    v1::Event wire;
    std::uint64_t seat_mask = 0;  // bit i: seats_[i] may learn of it
    bool superseded = false;      // undone by a rewind: kept for its sequence number, never sent again
  };
  // Where restore() starts: the state after log entry `seq` (0: the scenario).
  struct RestoreBase {
    std::uint64_t seq = 0;
    std::unique_ptr<rules::Game> game;
    std::map<std::uint32_t, std::shared_ptr<const rules::Game>> turn_starts;
  };

  // Posts a request's handler onto the strand, keeping the room alive.
  template <class Request>
  void post_request(void (Room::*handler)(const Request&, const std::shared_ptr<Peer>&, std::uint64_t),
                    Request request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id);

  // Requests, on the strand.
  void do_join(const v1::JoinGame& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id);
  void do_submit(const v1::SubmitAnswer& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id);
  void do_lock(const v1::LockAnswers& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id);
  void do_standing(const v1::SetStandingOrders& request, const std::shared_ptr<Peer>& peer,
                   std::uint64_t correlation_id);
  void do_umpire(const v1::UmpireAction& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id);
  void do_chat(const v1::SendChat& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id);
  void do_audit(const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id);
  void do_notifications(const v1::SetNotifications& request, const std::shared_ptr<Peer>& peer,
                        std::uint64_t correlation_id);
  void do_odds(const v1::OddsRequest& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id);
  // Webhooks: the seat's own (if any) and the game's; a daily-digest hook
  // gets the notification queued instead (room_digest.cpp).
  void notify(const std::string& kind, const std::string& seat, const std::string& text);

  // Bot seats (room_bots.cpp). Whether the bot plays `seat` now.
  bool is_bot(std::string_view seat) const;
  // Every bot seat that owes decisions and has not locked answers them from
  // its own view, the answers are logged like the umpire's for an empty seat
  // ("answer" entries, then a "lock" marked by_bot), and the step resolves
  // when every owing seat has locked. Called whenever a step opens or play
  // may go on (a resolution, loading, a rewind, an edit, an umpire action).
  void play_bot_seats();
  // The umpire's SetBotSeat checked; an error to send, or nothing.
  std::optional<std::pair<v1::ErrorCode, std::string>> check_bot_seat(const v1::SetBotSeat& request) const;
  void apply_bot_seat(const v1::SetBotSeat& action);

  // Daily digests (room_digest.cpp).
  struct DigestItem {
    std::string kind, seat, text;
    std::int64_t at_ms = 0;
  };
  struct DigestQueue {
    std::vector<DigestItem> items;
    std::int64_t last_sent_ms = 0;
  };
  // The digest hook a key names ("seat:<id>", "game:<i>"), if it still is one.
  std::optional<Webhook> digest_hook(const std::string& key) const;
  // Logs the notification as queued for `key` (kind "digest"); the game's
  // end sends every digest at once.
  void queue_digest(const std::string& key, const Notification& n);
  // A "digest" entry's effect, live and on loading.
  void apply_digest(const v1::StoredDigest& entry);
  // From tick(): sends each digest whose daily time has come (all of them with `now_all`).
  void send_due_digests(bool now_all);

  // Seats and roles.
  SeatState* seat_for_token(const std::string& token);
  SeatState* seat_of(const std::shared_ptr<Peer>& peer);
  SeatState* seat_named(std::string_view id);
  std::size_t index_of(const SeatState& seat) const;
  bool is_umpire(const SeatState& seat) const { return seat.seat.role == rules::SeatRole::kUmpire; }
  bool is_spectator(const SeatState& seat) const { return seat.seat.role == rules::SeatRole::kSpectator; }
  // The seat a play request acts for (the umpire may act for any seat);
  // sends the error itself and returns null when the request may not proceed.
  SeatState* acting_seat(const std::shared_ptr<Peer>& peer, std::uint64_t step, const std::string& for_seat,
                         std::uint64_t correlation_id);

  // The step.
  void refresh_pending();
  std::set<std::string> owing_seats() const;
  bool ended() const { return game_->finished() || ended_by_umpire_; }
  void fill_decisions(const std::string& seat, v1::DecisionsOwed* out) const;
  // The seat's whole view (kept as `shown` for a seat that plays).
  void fill_view(SeatState& seat, v1::GameView* out);
  // A StepResolved's view: a change to `shown` where there is one.
  void fill_step_view(SeatState& seat, v1::StepResolved* out);
  // The fields of a view the room adds to the ruleset's.
  void fill_view_header(v1::GameView* out) const;
  // Sends a StepResolved whose view is a change to the seat's connections;
  // those of protocol 1.0 get it with the view whole.
  void send_view_change(SeatState& seat, OutgoingPtr changed);
  // Who owes, who has locked, which seats the bot plays (players only).
  v1::Envelope seat_status() const;
  void send_seat_status();
  void lock_with_defaults(SeatState& seat, const std::string& why);
  std::optional<rules::Answer> fallback_answer(const SeatState& seat, const rules::Decision& decision) const;
  void resolve_step();
  void on_step_stored(std::unique_ptr<rules::Game> next, std::vector<v1::Event> wire,
                      std::vector<std::uint64_t> masks, const std::vector<rules::Answer>& answers, std::uint64_t seq);
  // Which seats may learn of each event, judged on the resolved state.
  std::vector<std::uint64_t> seat_masks(const rules::Game& next, const std::vector<rules::Event>& events) const;
  // The events of a resolution as seats are sent them, numbered after the history.
  std::vector<v1::Event> wire_events(const std::vector<rules::Event>& events) const;
  void apply_resolution(std::unique_ptr<rules::Game> next, std::vector<v1::Event> wire,
                        const std::vector<std::uint64_t>& masks, const std::vector<rules::Answer>& answers);
  void add_history(std::vector<v1::Event> wire, const std::vector<std::uint64_t>& masks, bool superseded);
  void snapshot_after(std::uint64_t seq, bool turn_start);

  // Loading and rewinding.
  RestoreBase choose_base(const std::vector<persistence::StepRecord>& log,
                          const std::vector<persistence::SnapshotRecord>& snapshots) const;
  std::optional<std::string> restore_from(const std::vector<persistence::StepRecord>& log, RestoreBase base,
                                          bool& incomplete);
  // Everything the log decides goes back to the scenario's start; connections stay.
  void reset_log_state();
  void do_rewind(const v1::UmpireAction& request, SeatState& seat, const std::shared_ptr<Peer>& peer,
                 std::uint64_t correlation_id);
  // An umpire's edit of the state (kind "edit" in the log, with the state hash
  // after it): checked by the engine, stored, then applied; the open step
  // opens again (answers and locks given for it go) and every seat is sent
  // its new view.
  void do_edit(const v1::UmpireAction& request, SeatState& seat, const std::shared_ptr<Peer>& peer,
               std::uint64_t correlation_id);
  // The room's side of an edit, live and on replay: the new state, the step reopened.
  void apply_edit(std::unique_ptr<rules::Game> next);
  void reload_after_rewind(const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id, std::string text);
  // After loading or a rewind: the deadline of the open step, or resolve a step every seat has locked.
  void resume_play();
  // Every connected seat gets its view, decisions and the seat status again.
  void send_fresh_state();
  void advance_if_idle();
  void open_deadline();
  void announce_end();
  std::string end_text() const;

  // Pushes. Who hears a push to the whole room: spectators watch the game
  // (late, with a delay) and are sent per step only its StepResolved, so the
  // traffic of the open step (SeatStatus, "defaulted", "forced", "deadline",
  // a step reopened by conflicting answers) goes to the seats that play and
  // the umpire only; notices about the game as a whole go to everyone.
  // The reasons are in the SeatStatus comment of protocol.proto.
  enum class Audience { kEveryone, kPlayers };
  void notice(const std::string& kind, const std::string& text, std::uint64_t step = 0,
              Audience audience = Audience::kEveryone);
  void send_to_seat(SeatState& seat, const OutgoingPtr& message);
  void send_to_all(const OutgoingPtr& message, Audience audience = Audience::kEveryone);
  bool may_read(const SeatState& reader, const v1::ChatMessage& message) const;
  void send_chat(const v1::ChatMessage& message);
  // The events after `after_sequence` the seat may see (all of them with `full`) and the chat it may read.
  void send_history(SeatState& seat, const std::shared_ptr<Peer>& peer, std::uint64_t after_sequence, bool full);
  const rules::Game& spectator_state() const;
  std::uint32_t spectator_turn() const;

  // Log.
  void append(std::string kind, const google::protobuf::MessageLite& payload, rules::StateHash hash,
              std::function<void()> committed);
  void fail(const std::string& why);
  void error(const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id, v1::ErrorCode code, std::string message);
  // Applies an umpire entry's effect on the room (used live and on replay).
  void apply_umpire(const std::string& seat, const v1::UmpireAction& action, std::int64_t at_ms, std::uint64_t step,
                    bool undone = false);
  // A request that arrives while the game is failed or reloading: the error is sent, true returned.
  bool refuse_if_unavailable(const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id);

  net::strand<net::io_context::executor_type> strand_;
  RoomServices services_;
  persistence::GameRecord record_;
  v1::GameSettings settings_;
  rules::Seed seed_{};
  std::shared_ptr<const rules::Game> initial_;  // the scenario's start, for reloading
  std::unique_ptr<rules::Game> game_;
  std::vector<SeatState> seats_;
  rules::ViewSettings view_settings_;
  std::optional<DailyTime> daily_deadline_;  // settings_' daily deadline, parsed
  DailyTime digest_time_{0, "UTC"};          // when daily digests go (settings_' digest_time)
  std::map<std::string, DigestQueue> digests_;  // by hook key
  std::uint32_t bot_attempt_ = 0;            // the open step reopened by conflicting answers this often

  // The open step.
  std::vector<rules::Decision> pending_;
  std::map<std::string, rules::Answer> answers_;   // by decision id; never sent to other seats
  std::map<std::string, rules::Answer> previous_;  // each decision id's last resolved answer
  std::set<std::string> locked_;
  bool resolving_ = false;                         // stored and waiting for the commit
  std::int64_t deadline_ms_ = 0;                   // 0: none
  bool paused_ = false;
  std::string paused_by_;
  std::int64_t paused_at_ms_ = 0;
  std::int64_t pause_until_ms_ = 0;                // a player's pause ends by itself
  bool ended_by_umpire_ = false;
  bool warned_deadline_ = false;  // "deadline near" sent for the open step
  std::string umpire_result_;

  // What happened so far.
  std::vector<HistoryEvent> history_;
  std::vector<v1::ChatMessage> chat_;
  std::vector<v1::AuditEntry> audit_;
  std::map<std::uint32_t, std::shared_ptr<const rules::Game>> turn_start_;  // for spectator delay

  std::map<std::uint64_t, std::uint64_t> resolve_seq_;  // engine step -> its live "resolve" entry
  std::uint64_t resolves_since_snapshot_ = 0;

  std::uint64_t log_seq_ = 0;  // the last log entry written (or queued)
  bool failed_ = false;
  bool reloading_ = false;     // a rewind is committed and the room reloads from the log
  int idle_resolutions_ = 0;   // resolutions in a row that nobody was asked for
  std::function<void(const std::string&)> on_failed_;
};

}  // namespace galloper::server
