#pragma once
// Scenario files (protobuf text format) -> rules games, with precise errors.
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "rules/core/game.hpp"

namespace galloper::codec {

// One problem in a scenario file. line/column are 1-based; 0 means "the file
// as a whole" (e.g. a required part is missing).
struct ScenarioProblem {
  int line = 0;
  int column = 0;
  std::string message;
};

// "file:line:column: message" for each problem, one per line.
std::string format_problems(std::string_view filename, const std::vector<ScenarioProblem>& problems);

// A game in its initial state, made from a scenario that passed every check.
struct NewGame {
  std::string name;
  std::string title;
  std::string ruleset;
  std::string description;
  std::unique_ptr<rules::Game> game;
};

// Parses and checks a scenario (syntax and meaning). On success, the game in
// its initial state; otherwise every problem found, in file order.
std::variant<NewGame, std::vector<ScenarioProblem>> load_scenario(std::string_view text,
                                                                  const rules::Seed& seed);

// Only the checks: empty when the scenario is good.
std::vector<ScenarioProblem> check_scenario(std::string_view text);

// Scenarios compiled into the binary (rules/<ruleset>/scenarios/*.textproto),
// sorted by key.
struct BundledScenario {
  std::string_view name;  // the key: "<ruleset>/<file stem>", e.g. "malbrook/demo"
  std::string_view text;
};
const std::vector<BundledScenario>& bundled_scenarios();
// By key; a name without a ruleset ("demo", as keys were before there was
// more than one ruleset) finds the one bundled scenario of that stem, and
// none when two rulesets bundle one of that stem.
const BundledScenario* find_bundled_scenario(std::string_view name);
// The same lookup in `among`.
const BundledScenario* find_bundled_scenario(std::string_view name, const std::vector<BundledScenario>& among);

}  // namespace galloper::codec
