#pragma once
// WebSocket frames <-> Envelopes. Binary frames carry protobuf; text frames
// carry protobuf's JSON mapping. A reply goes out in the encoding it came in.
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "galloper/v1/protocol.pb.h"

namespace galloper::server {

enum class Encoding { kBinary, kJson };

struct DecodeFailure {
  v1::ErrorCode code;
  std::string message;
};

struct Decoded {
  std::uint64_t correlation_id = 0;      // known even for an unknown message
  std::optional<v1::Envelope> envelope;
  std::optional<DecodeFailure> failure;  // set when envelope is empty
};

// Fails with MALFORMED_FRAME for bytes that are not an Envelope, and with
// UNKNOWN_MESSAGE for an Envelope whose body this server does not know (a
// newer client's message, or a misspelt JSON member).
Decoded decode_frame(std::string_view payload, Encoding encoding);

// Serialised once; the same buffer may be shared by every recipient.
std::shared_ptr<const std::string> encode_frame(const v1::Envelope& envelope, Encoding encoding);

v1::Envelope make_error(std::uint64_t correlation_id, v1::ErrorCode code, std::string message);

}  // namespace galloper::server
