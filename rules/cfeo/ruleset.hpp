#pragma once
// What Close Fire & European Order says of itself to the server and the
// client (rules/core/ruleset.hpp): its unit, its seats and its words.
#include "rules/core/ruleset.hpp"

namespace galloper::rules::cfeo {

// Built anew on each call (rules keep no globals); the registry keeps one.
RulesetInfo ruleset_info();

}  // namespace galloper::rules::cfeo
