#pragma once
// Requests that are not yet inside a game: scenarios, creating, listing and
// joining games. Owns the registry of rooms in memory. A game is loaded when
// someone joins it or when it is due (the store's wake-ups: a deadline, a
// pause's end, a digest, a bot seat owing), whether or not anyone is
// connected; a room nobody is connected to and that is not due soon is put
// away, so memory follows the games in play, not the games stored.
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "codec/scenario_codec.hpp"
#include "galloper/v1/protocol.pb.h"
#include "persistence/store.hpp"
#include "server/src/clock.hpp"
#include "server/src/metrics.hpp"
#include "server/src/game/room.hpp"
#include "server/src/network/outgoing.hpp"

namespace galloper::server {

class Lobby : public std::enable_shared_from_this<Lobby> {
 public:
  Lobby(net::io_context& ioc, persistence::Store& store, Metrics& metrics, const Clock& clock, Notifier& notifier);

  // Once a second: every loaded game checks the clock; every few seconds the
  // games due are loaded; every minute idle rooms are put away.
  void start_ticker();
  void stop_ticker();
  void tick_all();
  // Loads the games whose wake-up is due by `until_ms` (the store's due_games).
  void wake_due(std::int64_t until_ms);
  // Puts away rooms nobody is connected to that are not due before `until_ms`.
  void put_away_idle(std::int64_t until_ms);

  // The bundled scenarios, or one uploaded scenario checked (ListScenarios.scenario_text).
  void list_scenarios(const v1::ListScenarios& request, const std::shared_ptr<Peer>& peer,
                      std::uint64_t correlation_id);
  void create_game(const v1::CreateGame& request, const std::shared_ptr<Peer>& peer,
                   std::uint64_t correlation_id);
  void join_game(const v1::JoinGame& request, const std::shared_ptr<Peer>& peer,
                 std::uint64_t correlation_id);
  void list_games(const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id);
  void submit_answer(const v1::SubmitAnswer& request, const std::shared_ptr<Peer>& peer,
                     std::uint64_t correlation_id);
  void lock_answers(const v1::LockAnswers& request, const std::shared_ptr<Peer>& peer,
                    std::uint64_t correlation_id);
  void standing_orders(const v1::SetStandingOrders& request, const std::shared_ptr<Peer>& peer,
                       std::uint64_t correlation_id);
  void umpire_action(const v1::UmpireAction& request, const std::shared_ptr<Peer>& peer,
                     std::uint64_t correlation_id);
  void send_chat(const v1::SendChat& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id);
  void set_notifications(const v1::SetNotifications& request, const std::shared_ptr<Peer>& peer,
                         std::uint64_t correlation_id);
  void list_audit(const v1::ListAudit& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id);
  void odds(const v1::OddsRequest& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id);

  std::size_t rooms_loaded() const;

  // At most `max_games` in the store (`stored` there now): a creation beyond
  // is refused UNAVAILABLE and nothing is written. Each room's log takes
  // requests up to `max_log_entries` (Room::limit_log). Before start_ticker.
  void limit(std::size_t max_games, std::size_t stored, std::uint64_t max_log_entries) {
    max_games_ = max_games;
    stored_games_ = stored;
    max_log_entries_ = max_log_entries;
  }

 private:
  std::shared_ptr<Room> loaded_room(const std::string& game_id) const;
  // The loaded room of a request that needs its connection to have joined.
  std::shared_ptr<Room> joined_room(const std::string& game_id, const std::shared_ptr<Peer>& peer,
                                    std::uint64_t correlation_id);
  void watch(const std::shared_ptr<Room>& room);
  RoomServices services() { return RoomServices{ioc_, store_, metrics_, clock_, notifier_}; }  // drop it from the registry if it fails
  using RoomCallback = std::function<void(std::shared_ptr<Room>, std::optional<v1::Error>)>;
  void with_room(const std::string& game_id, RoomCallback done);
  void finish_load(const std::string& game_id, std::shared_ptr<Room> room, std::optional<v1::Error> error);
  void send_error(const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id, v1::ErrorCode code,
                  std::string message, std::vector<std::pair<std::string, std::string>> context = {});
  // BAD_SCENARIO with every problem as `label:LINE:COLUMN: problem`.
  void send_problems(const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id, const std::string& label,
                     const std::vector<codec::ScenarioProblem>& problems);

  net::io_context& ioc_;
  persistence::Store& store_;
  Metrics& metrics_;
  const Clock& clock_;
  Notifier& notifier_;
  std::unique_ptr<net::steady_timer> ticker_;
  std::uint64_t ticks_ = 0;
  std::size_t max_games_ = static_cast<std::size_t>(-1);
  std::uint64_t max_log_entries_ = ~std::uint64_t{0};
  std::atomic<std::size_t> stored_games_{0};  // created ones, and creations on their way to the store

  mutable std::mutex mu_;  // guards the two maps below; held only briefly, never across I/O
  std::unordered_map<std::string, std::shared_ptr<Room>> rooms_;
  std::unordered_map<std::string, std::vector<RoomCallback>> loading_;
};

}  // namespace galloper::server
