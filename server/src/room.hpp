#pragma once
// One game in memory. Everything a room does runs on its own strand, so game
// code needs no mutex and never blocks: storage answers come back as posts.
#include <boost/asio/strand.hpp>
#include <boost/asio/io_context.hpp>
#include <memory>
#include <string>
#include <vector>

#include "persistence/store.hpp"
#include "rules/core/game.hpp"
#include "server/src/metrics.hpp"
#include "server/src/outgoing.hpp"

namespace galloper::server {

namespace net = boost::asio;

class Room : public std::enable_shared_from_this<Room> {
 public:
  Room(net::io_context& ioc, persistence::GameRecord record, std::unique_ptr<rules::Game> game,
       std::vector<persistence::SeatRecord> seats, Metrics& metrics);
  ~Room();

  const std::string& id() const { return record_.id; }

  // Joins the seat whose invite or resume token this is, and sends the peer
  // Joined with the seat's view; BAD_TOKEN when no seat matches.
  void join(std::string token, std::shared_ptr<Peer> peer, std::uint64_t correlation_id);

 private:
  struct SeatState {
    rules::Seat seat;
    std::string invite_hash;
    std::vector<std::string> resume_hashes;
    std::vector<std::weak_ptr<Peer>> peers;
  };

  void do_join(const std::string& token, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id);
  SeatState* seat_for_token(const std::string& token);

  net::strand<net::io_context::executor_type> strand_;
  persistence::GameRecord record_;
  std::unique_ptr<rules::Game> game_;
  std::vector<SeatState> seats_;
  rules::ViewSettings view_settings_;
  Metrics& metrics_;
};

}  // namespace galloper::server
