#pragma once
// A message on its way to one or many connections. Serialised at most once per
// encoding, however many recipients share it.
#include <memory>
#include <mutex>
#include <string>

#include "galloper/v1/protocol.pb.h"
#include "server/src/frame_codec.hpp"

namespace galloper::server {

class Outgoing {
 public:
  explicit Outgoing(v1::Envelope envelope) : envelope_(std::move(envelope)) {}

  const v1::Envelope& envelope() const { return envelope_; }

  std::shared_ptr<const std::string> frame(Encoding encoding) const {
    auto& slot = encoding == Encoding::kBinary ? binary_ : json_;
    auto& once = encoding == Encoding::kBinary ? binary_once_ : json_once_;
    std::call_once(once, [&] { slot = encode_frame(envelope_, encoding); });
    return slot;
  }

 private:
  v1::Envelope envelope_;
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
};

}  // namespace galloper::server
