#pragma once
// Malbrook in the registry (proto/codec/rulesets.hpp): its scenario file's
// armies read into a ScenarioSpec, checked (rules/malbrook/check.hpp) and
// made into a game. Built into the codec library, not the pure rules.
#include "codec/rulesets.hpp"

namespace galloper::codec {

const Ruleset& malbrook_ruleset();

}  // namespace galloper::codec
