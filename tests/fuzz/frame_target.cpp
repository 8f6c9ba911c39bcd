// The frame decoder: any bytes, as a binary frame and as a text frame. A
// frame that decodes is encoded again both ways and decoded back, as the
// server replies in a frame's own encoding.
#include <cstdlib>
#include <string_view>

#include "server/src/network/frame_codec.hpp"
#include "tests/fuzz/targets.hpp"

namespace galloper::fuzz {

void frame(Bytes data) {
  const std::string_view payload(reinterpret_cast<const char*>(data.data()), data.size());
  for (const auto encoding : {server::Encoding::kBinary, server::Encoding::kJson}) {
    const auto decoded = server::decode_frame(payload, encoding);
    if (decoded.envelope.has_value() == decoded.failure.has_value()) std::abort();
    if (!decoded.envelope) continue;
    for (const auto again : {server::Encoding::kBinary, server::Encoding::kJson}) {
      const auto bytes = server::encode_frame(*decoded.envelope, again);
      (void)server::decode_frame(*bytes, again);
    }
  }
}

}  // namespace galloper::fuzz
