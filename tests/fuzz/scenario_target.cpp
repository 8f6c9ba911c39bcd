// The scenario parser and checker: any text, checked; loaded into a game
// when the check passes, and that game asked what it first owes.
#include <string_view>
#include <variant>

#include "proto/codec/scenario_codec.hpp"
#include "rules/core/decision.hpp"
#include "tests/fuzz/bundled_games.hpp"
#include "tests/fuzz/targets.hpp"

namespace galloper::fuzz {

void scenario(Bytes data) {
  const std::string_view text(reinterpret_cast<const char*>(data.data()), data.size());
  const auto problems = codec::check_scenario(text);
  (void)codec::format_problems("fuzz.textproto", problems);
  if (!problems.empty()) return;
  auto loaded = codec::load_scenario(text, fixed_seed());
  if (auto* game = std::get_if<codec::NewGame>(&loaded)) {
    (void)game->game->pending();
    (void)game->game->state_hash();
  }
}

}  // namespace galloper::fuzz
