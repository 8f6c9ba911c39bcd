// libFuzzer's entry points for one target, chosen when compiled
// (GALLOPER_FUZZ_TARGET, tests/fuzz/CMakeLists.txt).
#include <google/protobuf/stubs/logging.h>
#include <spdlog/spdlog.h>

#include <cstddef>
#include <cstdint>

#include "tests/fuzz/targets.hpp"

// Rooms log every step and protobuf every string that is not UTF-8: millions
// of lines in a run, and most of its time. A finding is reported by the
// sanitizers, not by the logs.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  google::protobuf::SetLogHandler(nullptr);
  spdlog::set_level(spdlog::level::off);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  galloper::fuzz::GALLOPER_FUZZ_TARGET({data, size});
  return 0;
}
