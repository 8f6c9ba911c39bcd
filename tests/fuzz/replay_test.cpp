// Every file of tests/fuzz/corpus/<target>/ run through its fuzz target: the
// seeds, and each input a fuzzing run found a crash with (kept as a
// regression). Built with the project's compiler, so the same inputs also
// run under the ASan+UBSan build.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "tests/fuzz/targets.hpp"

namespace galloper::fuzz {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> corpus_of(std::string_view target) {
  std::vector<fs::path> out;
  const fs::path dir = fs::path(GALLOPER_FUZZ_CORPUS) / target;
  if (!fs::is_directory(dir)) return out;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.is_regular_file()) out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::uint8_t> read_all(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class FuzzCorpus : public ::testing::TestWithParam<Target> {};

TEST_P(FuzzCorpus, EveryInputRunsClean) {
  const auto files = corpus_of(GetParam().name);
  ASSERT_FALSE(files.empty()) << "no corpus for " << GetParam().name;
  for (const auto& file : files) {
    SCOPED_TRACE(file.string());
    const auto bytes = read_all(file);
    GetParam().run(bytes);
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, FuzzCorpus, ::testing::ValuesIn(targets()),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace galloper::fuzz
