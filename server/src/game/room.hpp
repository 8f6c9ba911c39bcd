#pragma once
// One game in memory: a small actor on its own strand (join, a request, a
// tick, put away), so game code needs no mutex and never blocks; storage
// answers come back as posts.
//
// Everything that changes the game or what a seat was told is a log entry
// (v1::LogEntry), written before anyone is told: answers, locks,
// resolutions, deadlines, umpire actions, standing orders, chat. The room
// applies each entry through the one reducer (reducer.hpp) as it writes it,
// and performs the entry's effects (what each seat is sent, webhooks) once
// the entry is on disk; loading applies the same entries (restore.hpp). Then
// it looks at the state and writes what follows by itself (advance): the
// open step's deadline, the bot's answers, the resolution once every seat
// that owes has locked.
//
// Jobs, each in its own file: the open step (step_desk.hpp), the umpire's
// powers (umpire_desk.hpp), chat (chat_desk.hpp), what each seat receives
// (fanout.hpp), connections (seat_links.hpp), webhooks and digests
// (notify/notifications.hpp).
//
// Games wake by time: the room tells the store when it next needs the server
// (a deadline, a pause's end, a digest, a bot seat owing), and the lobby
// loads the games that are due whether or not anyone is connected.
#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>

#include <cstdint>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "galloper/v1/protocol.pb.h"
#include "galloper/v1/store.pb.h"
#include "persistence/store.hpp"
#include "rules/core/game.hpp"
#include "server/src/clock.hpp"
#include "server/src/game/effects.hpp"
#include "server/src/game/fanout.hpp"
#include "server/src/game/reducer.hpp"
#include "server/src/game/refusal.hpp"
#include "server/src/game/room_state.hpp"
#include "server/src/game/seat_links.hpp"
#include "server/src/metrics.hpp"
#include "server/src/network/outgoing.hpp"
#include "server/src/notify/notifications.hpp"
#include "server/src/notify/notifier.hpp"

namespace galloper::server {

namespace net = boost::asio;

// A snapshot of the state is stored after every turn's first resolution and
// after this many resolutions without one, so loading replays at most this
// many steps.
inline constexpr std::uint64_t kSnapshotEvery = 8;

struct RoomServices {
  net::io_context& ioc;
  persistence::Store& store;
  Metrics& metrics;
  const Clock& clock;
  Notifier& notifier;
};

class Room : public std::enable_shared_from_this<Room> {
 public:
  Room(RoomServices services, persistence::GameRecord record, std::unique_ptr<rules::Game> initial,
       std::vector<persistence::SeatRecord> seats);
  ~Room();

  const std::string& id() const { return record_.id; }
  // Requests that would write are refused once the log holds this many
  // entries (`serve --max-log-entries`); the game's own steps go on.
  void limit_log(std::uint64_t max_entries) { max_log_entries_ = max_entries; }

  // Before the room is shared: the state rebuilt from the log (restore.hpp).
  // A reason naming the first entry that cannot be applied.
  std::optional<std::string> restore(const std::vector<persistence::StepRecord>& log,
                                     const std::vector<persistence::SnapshotRecord>& snapshots = {});
  // Once shared: plays on from where the log left off.
  void start();
  // If a write fails the room stops taking requests and the lobby drops it,
  // so the next join reloads it from disk.
  void on_failed(std::function<void(const std::string& game_id)> callback) { on_failed_ = std::move(callback); }
  // A join that reaches the room after it was put away goes back to the lobby.
  using JoinRedirect = std::function<void(const v1::JoinGame&, const std::shared_ptr<Peer>&, std::uint64_t)>;
  void on_put_away(JoinRedirect redirect) { redirect_ = std::move(redirect); }

  // Requests; each is posted onto the strand and answered through the peer.
  void join(v1::JoinGame request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id);
  void submit(v1::SubmitAnswer request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id);
  void lock(v1::LockAnswers request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id);
  void standing_orders(v1::SetStandingOrders request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id);
  void umpire(v1::UmpireAction request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id);
  void chat(v1::SendChat request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id);
  void audit(v1::ListAudit request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id);
  void notifications(v1::SetNotifications request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id);
  // A question: the odds of a proposed order as the asking seat sees the
  // table (rules/core/odds.hpp). Never stored, never told to anyone else.
  void odds(v1::OddsRequest request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id);

  // Time: the deadline, a player's pause, daily digests.
  void tick();
  // Puts the room away when nobody is connected, nothing is being written
  // and it is not due before `until_ms`; `done(true)` then, on the strand.
  void put_away_if_idle(std::int64_t until_ms, std::function<void(bool)> done);

 private:
  template <class Request>
  // `writes`: the request may add to the log, so is refused once the log is full.
  void post_request(void (Room::*handler)(const Request&, const std::shared_ptr<Peer>&, std::uint64_t),
                    Request request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id, bool writes);

  void do_join(const v1::JoinGame& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id);
  void do_submit(const v1::SubmitAnswer& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id);
  void do_lock(const v1::LockAnswers& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id);
  void do_standing(const v1::SetStandingOrders& request, const std::shared_ptr<Peer>& peer,
                   std::uint64_t correlation_id);
  void do_umpire(const v1::UmpireAction& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id);
  void do_chat(const v1::SendChat& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id);
  void do_audit(const v1::ListAudit& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id);
  void do_notifications(const v1::SetNotifications& request, const std::shared_ptr<Peer>& peer,
                        std::uint64_t correlation_id);
  void do_odds(const v1::OddsRequest& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id);
  void do_rewind(const v1::UmpireAction& request, std::size_t seat, const std::shared_ptr<Peer>& peer,
                 std::uint64_t correlation_id);
  void do_edit(const v1::UmpireAction& request, std::size_t seat, const std::shared_ptr<Peer>& peer,
               std::uint64_t correlation_id);
  void reload_after_rewind(const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id);
  void do_tick();

  // The seat a request's connection holds; the error is sent and null
  // returned when it holds none or the room cannot take requests now.
  std::optional<std::size_t> holder(const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id);
  void error(const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id, Refusal refusal);
  void reply(const std::shared_ptr<Peer>& peer, v1::Envelope envelope, std::uint64_t correlation_id);

  // The one write path: `entry` applied through the reducer now, written,
  // and once on disk its effects performed, `on_disk` run and play advanced.
  void write(v1::LogEntry entry, rules::StateHash hash = 0, const Prepared* prepared = nullptr,
             std::function<void()> on_disk = {});
  void perform(const Effects& effects, std::uint64_t seq);
  // What follows from the state by itself: the deadline of a step that has
  // none, the bot's answers, the resolution of a step every seat has locked.
  void advance();
  void resolve();
  void snapshot_after(std::uint64_t seq, const StepOut& step, const rules::Game& game);
  void announce_end(std::shared_ptr<const StepStatus> now);
  // When the room next needs the server (0: never), stored when it changes.
  std::int64_t next_wake_ms() const;
  void store_wake();
  void fail(const std::string& why);

  net::strand<net::io_context::executor_type> strand_;
  RoomServices services_;
  persistence::GameRecord record_;
  RoomState state_;
  SeatLinks links_;
  Fanout fanout_;
  Notifications notifications_;

  std::uint64_t in_flight_ = 0;            // writes not yet on disk
  // Joins that came while writes were in flight: a seat is shown the game
  // only as the store holds it, so they are answered once nothing is in
  // flight (the state is then exactly what is committed).
  struct WaitingJoin {
    v1::JoinGame request;
    std::shared_ptr<Peer> peer;
    std::uint64_t correlation_id = 0;
  };
  std::vector<WaitingJoin> joins_after_disk_;
  std::atomic<std::uint64_t> max_log_entries_{~std::uint64_t{0}};
  std::uint64_t resolves_since_snapshot_ = 0;
  int idle_resolutions_ = 0;               // resolutions in a row that nobody was asked for
  std::int64_t stored_wake_ms_ = -1;       // the wake-up last given to the store (-1: none yet)
  bool failed_ = false;
  bool reloading_ = false;                 // a rewind is committed and the room reloads from the log
  bool put_away_ = false;
  std::function<void(const std::string&)> on_failed_;
  JoinRedirect redirect_;
};

}  // namespace galloper::server
