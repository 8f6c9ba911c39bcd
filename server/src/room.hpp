#pragma once
// One game in memory. Everything a room does runs on its own strand, so game
// code needs no mutex and never blocks: storage answers come back as posts.
//
// The sequence of play is the engine's: at each step the room asks which
// seats owe which decisions and sends each seat its own list. All owing seats
// answer at the same time; a seat may revise its answers until it locks; no
// seat sees another's answers. When every owing seat has locked, the room
// stores the step, resolves it with the step's dice and sends each seat what it
// saw happen, its new view and what it owes next.
#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <google/protobuf/message_lite.h>

#include "galloper/v1/protocol.pb.h"
#include "persistence/store.hpp"
#include "rules/core/decision.hpp"
#include "rules/core/game.hpp"
#include "server/src/metrics.hpp"
#include "server/src/outgoing.hpp"

namespace galloper::server {

namespace net = boost::asio;

class Room : public std::enable_shared_from_this<Room> {
 public:
  Room(net::io_context& ioc, persistence::Store& store, persistence::GameRecord record,
       std::unique_ptr<rules::Game> game, std::vector<persistence::SeatRecord> seats, Metrics& metrics);
  ~Room();

  const std::string& id() const { return record_.id; }

  // Before the room is shared: where a loaded game's log left off — events
  // and log entries so far, and the open step's stored answers and locks.
  void restore(std::uint64_t events_so_far, std::uint64_t last_seq,
               const std::vector<persistence::StepRecord>& open_step);
  // Once shared: a game whose engine waits on no decision (a fresh scenario)
  // is resolved straight away, as a logged step like any other.
  void start();
  // Called (on the room's strand) if a write fails: the room stops taking
  // requests and the lobby drops it, so the next join reloads it from disk.
  void on_failed(std::function<void(const std::string& game_id)> callback) { on_failed_ = std::move(callback); }

  // Joins the seat whose invite or resume token this is: Joined with the seat's
  // view, then what it owes. BAD_TOKEN when no seat matches.
  void join(std::string token, std::shared_ptr<Peer> peer, std::uint64_t correlation_id);
  void submit(v1::SubmitAnswer request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id);
  void lock(v1::LockAnswers request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id);

 private:
  struct SeatState {
    rules::Seat seat;
    std::string invite_hash;
    std::vector<std::string> resume_hashes;
    std::vector<std::weak_ptr<Peer>> peers;
  };

  void do_join(const std::string& token, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id);
  void do_submit(const v1::SubmitAnswer& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id);
  void do_lock(const v1::LockAnswers& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id);
  SeatState* seat_for_token(const std::string& token);
  SeatState* seat_of(const std::shared_ptr<Peer>& peer);
  // Checks the common preconditions of a play request; sends the error itself.
  SeatState* play_seat(const std::shared_ptr<Peer>& peer, std::uint64_t step, std::uint64_t correlation_id);

  void refresh_pending();
  std::set<std::string> owing_seats() const;
  void fill_decisions(const std::string& seat, v1::DecisionsOwed* out) const;
  void fill_view(const std::string& seat, v1::GameView* out) const;
  void send_seat_status();
  void resolve_step();
  void advance_if_idle();
  void on_step_stored(std::uint64_t step, std::unique_ptr<rules::Game> next, std::vector<rules::Event> events);
  // Appends to the game's log; `committed` runs on the strand once it is on disk.
  void append(std::string kind, const google::protobuf::MessageLite& payload, rules::StateHash hash,
              std::function<void()> committed);
  void fail(const std::string& why);
  void error(const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id, v1::ErrorCode code, std::string message);
  void send_to_seat(SeatState& seat, const OutgoingPtr& message);

  net::strand<net::io_context::executor_type> strand_;
  persistence::Store& store_;
  persistence::GameRecord record_;
  rules::Seed seed_{};
  std::unique_ptr<rules::Game> game_;
  std::vector<SeatState> seats_;
  rules::ViewSettings view_settings_;
  Metrics& metrics_;

  // The current step.
  std::vector<rules::Decision> pending_;
  std::map<std::string, rules::Answer> answers_;  // by decision id; never sent to other seats
  std::set<std::string> locked_;
  bool resolving_ = false;  // stored and waiting for the commit
  std::uint64_t event_seq_ = 0;
  std::uint64_t log_seq_ = 0;  // the last log entry written (or queued)
  bool failed_ = false;
  int idle_resolutions_ = 0;  // resolutions in a row that nobody was asked for
  std::function<void(const std::string&)> on_failed_;
};

}  // namespace galloper::server
