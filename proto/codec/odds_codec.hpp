#pragma once
// rules::OddsQuestion / OddsAnswer <-> wire (galloper.v1 OddsRequest / OddsReply).
#include <optional>

#include "galloper/v1/protocol.pb.h"
#include "rules/core/odds.hpp"

namespace galloper::codec {

// Empty when the request carries no proposal.
std::optional<rules::OddsQuestion> from_proto(const galloper::v1::OddsRequest& request);
void to_proto(const rules::OddsAnswer& answer, galloper::v1::OddsReply* out);

}  // namespace galloper::codec
