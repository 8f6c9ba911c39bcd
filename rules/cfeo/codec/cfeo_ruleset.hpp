#pragma once
// Close Fire & European Order's scenario files (the `cfeo` forces) read into
// a ScenarioSpec, checked (rules/cfeo/check.hpp) and made into a game. Built
// into the codec library, not the pure rules.
#include "codec/rulesets.hpp"

namespace galloper::v1::scenario {
class Scenario;
}

namespace galloper::rules::cfeo {
struct ScenarioSpec;
}

namespace galloper::codec {

const Ruleset& cfeo_ruleset();

// What the file says, in the rules' plain terms (for the checks and tests).
rules::cfeo::ScenarioSpec cfeo_spec(const v1::scenario::Scenario& scenario);

}  // namespace galloper::codec
