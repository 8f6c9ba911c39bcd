#include "server/src/network/frame_codec.hpp"

#include <google/protobuf/util/json_util.h>

namespace galloper::server {

namespace json = google::protobuf::util;

Decoded decode_frame(std::string_view payload, Encoding encoding) {
  Decoded out;
  v1::Envelope envelope;
  if (encoding == Encoding::kBinary) {
    if (!envelope.ParseFromArray(payload.data(), static_cast<int>(payload.size()))) {
      out.failure = DecodeFailure{v1::ERROR_CODE_MALFORMED_FRAME,
                                  "binary frame is not a galloper.v1.Envelope"};
      return out;
    }
  } else {
    json::JsonParseOptions strict;
    auto status = json::JsonStringToMessage(payload, &envelope, strict);
    if (!status.ok()) {
      // Tell "valid JSON with a member we do not know" from "not JSON at all".
      json::JsonParseOptions lenient;
      lenient.ignore_unknown_fields = true;
      v1::Envelope probe;
      if (json::JsonStringToMessage(payload, &probe, lenient).ok()) {
        out.correlation_id = probe.correlation_id();
        out.failure = DecodeFailure{v1::ERROR_CODE_UNKNOWN_MESSAGE,
                                    "unknown message: " + std::string(status.message())};
      } else {
        out.failure = DecodeFailure{v1::ERROR_CODE_MALFORMED_FRAME,
                                    "text frame is not a galloper.v1.Envelope in JSON: " +
                                        std::string(status.message())};
      }
      return out;
    }
  }
  out.correlation_id = envelope.correlation_id();
  if (envelope.body_case() == v1::Envelope::BODY_NOT_SET) {
    out.failure = DecodeFailure{v1::ERROR_CODE_UNKNOWN_MESSAGE,
                                "the envelope carries no message this server knows"};
    return out;
  }
  out.envelope = std::move(envelope);
  return out;
}

std::shared_ptr<const std::string> encode_frame(const v1::Envelope& envelope, Encoding encoding) {
  auto out = std::make_shared<std::string>();
  if (encoding == Encoding::kBinary) {
    envelope.SerializeToString(out.get());
  } else {
    json::JsonPrintOptions options;
    options.preserve_proto_field_names = false;  // lowerCamelCase, protobuf's canonical JSON
    auto status = json::MessageToJsonString(envelope, out.get(), options);
    (void)status;  // only fails on invalid UTF-8 in strings we made ourselves
  }
  return out;
}

v1::Envelope make_error(std::uint64_t correlation_id, v1::ErrorCode code, std::string message) {
  v1::Envelope e;
  e.set_correlation_id(correlation_id);
  auto* err = e.mutable_error();
  err->set_code(code);
  err->set_message(std::move(message));
  return e;
}

}  // namespace galloper::server
