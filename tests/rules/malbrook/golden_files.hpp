#pragma once
// Where the recorded (golden) games and the test-only scenarios live, and how
// the rules tests and benchmarks read them.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "proto/codec/scenario_codec.hpp"

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

}  // namespace galloper::rules::malbrook::test
