#pragma once
// What Malbrook says of itself to the server and the client
// (rules/core/ruleset.hpp): its unit, its seats and its words.
#include "rules/core/ruleset.hpp"

namespace galloper::rules::malbrook {

// Built anew on each call (rules keep no globals); the registry keeps one.
RulesetInfo ruleset_info();

}  // namespace galloper::rules::malbrook
