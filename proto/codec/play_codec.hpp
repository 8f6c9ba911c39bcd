#pragma once
// rules decision model <-> wire (galloper.v1 Decision, Answer, Event).
#include "galloper/v1/game.pb.h"
#include "rules/core/decision.hpp"

namespace galloper::codec {

void to_proto(const rules::Decision& decision, galloper::v1::Decision* out);
void to_proto(const rules::Answer& answer, galloper::v1::Answer* out);
void to_proto(const rules::Event& event, galloper::v1::Event* out);

// The seat is not on the wire: the server knows which seat a connection holds.
rules::Answer from_proto(const galloper::v1::Answer& answer, std::string seat);

}  // namespace galloper::codec
