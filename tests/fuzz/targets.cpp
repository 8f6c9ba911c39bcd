#include "tests/fuzz/targets.hpp"

namespace galloper::fuzz {

const std::vector<Target>& targets() {
  static const std::vector<Target> all{
      {"frame", frame},       {"room", room},         {"answers", answers},
      {"scenario", scenario}, {"snapshot", snapshot}, {"export", game_export},
  };
  return all;
}

}  // namespace galloper::fuzz
