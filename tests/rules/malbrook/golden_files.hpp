#pragma once
// Where the recorded (golden) games and the test-only scenarios live, and how
// the rules tests and benchmarks read them.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

#include "proto/codec/scenario_codec.hpp"
#include "rules/malbrook/game.hpp"

namespace galloper::rules::malbrook::test {

// tests/rules/malbrook/golden. __FILE__ is relative to the build directory
// when ccache rewrites paths (CCACHE_BASEDIR); ctest runs tests from the
// source root.
inline std::filesystem::path golden_dir() {
  const auto here = std::filesystem::path(__FILE__).parent_path() / "golden";
  if (std::filesystem::exists(here)) return here;
  return std::filesystem::path("tests/rules/malbrook/golden");
}

inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream o;
  o << in.rdbuf();
  return o.str();
}

// The scenario's text: a bundled scenario by name, or the test-only cavalry clash.
inline std::string scenario_text(const std::string& name) {
  if (const auto* b = codec::find_bundled_scenario(name)) return std::string(b->text);
  if (name == "cavalry_clash") return read_text(golden_dir() / "cavalry.textproto");
  return {};
}

// The initial state of a scenario (scenario_text) with `seed`, as the server
// starts it; throws with the scenario's problems if it does not load.
inline GameState scenario_state(const std::string& name, const Seed& seed) {
  auto loaded = codec::load_scenario(scenario_text(name), seed);
  if (auto* problems = std::get_if<std::vector<codec::ScenarioProblem>>(&loaded)) {
    throw std::runtime_error(name + ": " + codec::format_problems(name, *problems));
  }
  const auto* game = dynamic_cast<const MalbrookGame*>(std::get<codec::NewGame>(loaded).game.get());
  if (game == nullptr) throw std::runtime_error(name + " is not a Malbrook game");
  return game->state();
}

}  // namespace galloper::rules::malbrook::test
