// The snapshot decoder: bytes restored on the demo's initial game (as a room
// restores a stored snapshot). A snapshot carries a digest, which random
// bytes almost never match, so the first byte says how to take the rest:
// bit 0 clear, as they are (the header and digest checks); set, as a
// snapshot's body, sealed with the current header and digest (the decoder
// behind them). A snapshot that restores must give its own bytes back and a
// game that can say what it owes.
#include <cstdlib>
#include <vector>

#include "rules/core/bytes.hpp"
#include "rules/core/decision.hpp"
#include "rules/malbrook/snapshot.hpp"
#include "rules/malbrook/types.hpp"
#include "tests/fuzz/bundled_games.hpp"
#include "tests/fuzz/targets.hpp"

namespace galloper::fuzz {

void snapshot(Bytes data) {
  if (data.empty()) return;
  std::vector<std::uint8_t> bytes;
  if ((data[0] & 1) != 0) {
    auto w = rules::begin_snapshot(rules::malbrook::kRulesetName, rules::malbrook::kSnapshotFormat);
    w.raw(data.subspan(1));
    bytes = rules::seal_snapshot(std::move(w));
  } else {
    bytes.assign(data.begin() + 1, data.end());
  }
  auto restored = demo_game().from_snapshot(bytes);
  if (!restored.ok()) return;
  const auto& game = *restored.value();
  if (game.snapshot() != bytes) std::abort();
  (void)game.state_hash();
  (void)game.pending();
}

}  // namespace galloper::fuzz
