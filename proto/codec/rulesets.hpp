#pragma once
// The rulesets this build plays, by name: the registry. Each says what it is
// (rules::RulesetInfo), how its scenario file is checked and how a game is
// made of it. The scenario codec, the lobby and the client learn a ruleset
// from here and nowhere else.
//
// Adding a ruleset: its folder rules/<name>/ (the pure rules, a Game, a
// RulesetInfo), its order of battle in proto/galloper/v1/scenario_<name>.proto
// and a member of Scenario's `forces` named after it, its
// codec in rules/<name>/codec/ (built into this library, not the pure one),
// and one line in rulesets.cpp.
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "rules/core/game.hpp"
#include "rules/core/ruleset.hpp"

namespace galloper::v1::scenario {
class Scenario;
}

namespace galloper::codec {

class Ruleset {
 public:
  virtual ~Ruleset() = default;
  virtual const rules::RulesetInfo& info() const = 0;
  // The Scenario field its forces are written in: the member of `forces`
  // named after it, or for Malbrook, `armies` (where they always were).
  virtual std::string_view forces_field() const { return info().name; }
  // Every problem of meaning in a parsed scenario of this ruleset, each
  // anchored to its field; empty when the scenario may be played.
  virtual std::vector<rules::SpecProblem> check(const v1::scenario::Scenario& scenario) const = 0;
  // The game in its initial state, of a scenario check() passed.
  virtual std::unique_ptr<rules::Game> make_game(const v1::scenario::Scenario& scenario,
                                                 const rules::Seed& seed) const = 0;
};

// Every registered ruleset, in registration order.
const std::vector<const Ruleset*>& rulesets();
// The ruleset named `name`, or null.
const Ruleset* find_ruleset(std::string_view name);
// "\"malbrook\"" (each name quoted, comma-separated), for messages.
std::string ruleset_names();

}  // namespace galloper::codec
