#pragma once
// rules::StateEdit <-> wire (galloper.v1 EditState).
#include "galloper/v1/protocol.pb.h"
#include "rules/core/edit.hpp"

namespace galloper::codec {

void to_proto(const rules::StateEdit& edit, galloper::v1::EditState* out);
rules::StateEdit from_proto(const galloper::v1::EditState& edit);

}  // namespace galloper::codec
