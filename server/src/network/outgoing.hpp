#pragma once
// A message on its way to one or many connections. Serialised at most once per
// encoding, however many recipients share it.
#include <memory>
#include <mutex>
#include <string>

#include <google/protobuf/arena.h>

#include "galloper/v1/protocol.pb.h"
#include "server/src/network/frame_codec.hpp"

namespace galloper::server {

class Outgoing {
 public:
  explicit Outgoing(v1::Envelope envelope) : owned_(std::move(envelope)), envelope_(&owned_) {}
  // An empty message on an arena of its own, to be built in place (build())
  // before it is shared: a seat's StepResolved holds a whole view, thousands
  // of small sub-messages allocated together and freed at once.
  struct OnArena {};
  explicit Outgoing(OnArena)
      : arena_(std::make_unique<google::protobuf::Arena>()),
        envelope_(google::protobuf::Arena::CreateMessage<v1::Envelope>(arena_.get())) {}
  Outgoing(const Outgoing&) = delete;
  Outgoing& operator=(const Outgoing&) = delete;

  const v1::Envelope& envelope() const { return *envelope_; }
  // Only while nobody else holds it.
  v1::Envelope* build() { return envelope_; }

  std::shared_ptr<const std::string> frame(Encoding encoding) const {
    auto& slot = encoding == Encoding::kBinary ? binary_ : json_;
    auto& once = encoding == Encoding::kBinary ? binary_once_ : json_once_;
    std::call_once(once, [&] { slot = encode_frame(*envelope_, encoding); });
    return slot;
  }

 private:
  std::unique_ptr<google::protobuf::Arena> arena_;  // before envelope_: it outlives it
  v1::Envelope owned_;
  v1::Envelope* envelope_;
  mutable std::once_flag binary_once_, json_once_;
  mutable std::shared_ptr<const std::string> binary_, json_;
};

using OutgoingPtr = std::shared_ptr<const Outgoing>;

inline OutgoingPtr make_outgoing(v1::Envelope envelope) {
  return std::make_shared<const Outgoing>(std::move(envelope));
}

// What rooms and the lobby see of a connection: somewhere to send messages.
// Game code never holds a socket.
class Peer {
 public:
  virtual ~Peer() = default;
  // Thread-safe; never blocks. The connection serialises in its own encoding.
  virtual void send(OutgoingPtr message) = 0;
  // For log lines: "peer 127.0.0.1:51000 game g… seat …".
  virtual std::string describe() const = 0;
  // The room tells the connection which game and seat it now holds (for logs
  // and for checking roles on every later message).
  virtual void set_seat(std::string game_id, std::string seat) = 0;
  // Whether the client said protocol 1.1 or later in its Hello, so takes a
  // StepResolved's view as a change (ViewChange).
  virtual bool takes_view_changes() const = 0;
};

}  // namespace galloper::server
