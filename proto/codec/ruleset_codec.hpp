#pragma once
// rules::RulesetInfo -> wire (galloper.v1 RulesetInfo).
#include "galloper/v1/protocol.pb.h"
#include "rules/core/ruleset.hpp"

namespace galloper::codec {

void to_proto(const rules::RulesetInfo& info, galloper::v1::RulesetInfo* out);

}  // namespace galloper::codec
