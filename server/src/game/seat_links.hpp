#pragma once
// The connections of a room's seats: which token opens which seat, which
// connections hold each seat, and the view each seat's connections were last
// sent. None of it is in the log: a restart forgets connections and resume
// tokens (a page then rejoins with its invite).
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "persistence/store.hpp"
#include "rules/core/game.hpp"
#include "server/src/game/room_state.hpp"
#include "server/src/network/outgoing.hpp"

namespace galloper::server {

class SeatLinks {
 public:
  struct Link {
    std::string invite_hash;
    std::vector<std::string> resume_hashes;
    std::vector<std::weak_ptr<Peer>> peers;
    // The view this seat's connections were last sent, while they all hold
    // the same one (a seat that plays, before the end): the next StepResolved
    // tells the seat's view as a change to it. Empty: the next goes whole.
    std::optional<rules::View> shown;
    std::shared_ptr<const rules::Game> shown_of;  // the state `shown` is a view of
  };

  // One link per seat of `state`, in its order; invites from the stored seats.
  void init(const RoomState& state, const std::vector<persistence::SeatRecord>& stored);

  std::size_t size() const { return links_.size(); }
  Link& at(std::size_t seat) { return links_[seat]; }

  // The seat an invite or resume token opens. Every hash is compared, in
  // constant time, so the time taken says nothing of which seat matched.
  std::optional<std::size_t> seat_for_token(const std::string& token) const;
  // The seat a connection holds in this room.
  std::optional<std::size_t> seat_of(const std::shared_ptr<Peer>& peer) const;
  // The connection now holds `seat` (and no other of this room); a new
  // resume token for it is returned (only its hash is kept).
  std::string attach(std::size_t seat, const std::shared_ptr<Peer>& peer);
  // Whether any connection holds the seat / any seat.
  bool connected(std::size_t seat);
  bool anyone_connected();

  void send(std::size_t seat, const OutgoingPtr& message);

 private:
  std::vector<Link> links_;
};

}  // namespace galloper::server
