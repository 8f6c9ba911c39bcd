// The snapshot decoder: any bytes restored on the demo's initial game (as a
// room restores a stored snapshot). A snapshot that restores must give its
// own bytes back and a game that can say what it owes.
#include <cstdlib>
#include <vector>

#include "rules/core/decision.hpp"
#include "tests/fuzz/bundled_games.hpp"
#include "tests/fuzz/targets.hpp"

namespace galloper::fuzz {

void snapshot(Bytes data) {
  auto restored = demo_game().from_snapshot(data);
  if (!restored.ok()) return;
  const auto& game = *restored.value();
  if (game.snapshot() != std::vector<std::uint8_t>(data.begin(), data.end())) std::abort();
  (void)game.state_hash();
  (void)game.pending();
}

}  // namespace galloper::fuzz
