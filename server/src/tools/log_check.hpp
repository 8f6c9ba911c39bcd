#pragma once
// Checks a game's stored log from first entry to last, without a server: the
// initial state is rebuilt from the scenario, every "resolve" entry is replayed
// with the step's keyed dice (replay.hpp) and every umpire "edit" applied, each
// with its recorded state hash compared, and every other entry must decode as
// the message its kind names. Used by
// `galloper replay`, `galloper verify` and the crash harness.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "galloper/v1/protocol.pb.h"
#include "persistence/store.hpp"
#include "rules/core/game.hpp"

namespace galloper::server {

// The engine options a game's settings ask for (one place, so the lobby,
// replay and verify can never build a game differently).
rules::GameOptions game_options(const v1::GameSettings& settings);

// The game a scenario starts as, with the game's stored settings (protobuf
// text of v1.GameSettings) applied as the lobby applies them. On failure, why.
std::variant<std::unique_ptr<rules::Game>, std::string> initial_game(std::string_view scenario_text,
                                                                     std::string_view settings_text,
                                                                     const rules::Seed& seed);

// A stored seed as the rules take it; nullopt unless it is exactly 32 bytes.
std::optional<rules::Seed> seed_of(const std::vector<std::uint8_t>& bytes);

struct LogCheck {
  std::uint64_t entries = 0;          // log entries read (superseded ones included)
  std::uint64_t steps_resolved = 0;   // "resolve" entries replayed
  rules::StateHash final_hash = 0;    // the state after the last good entry
  std::optional<std::uint64_t> bad_seq;  // the first entry that failed, if any
  std::optional<std::string> error;      // what failed, naming the entry
  bool ok() const { return !error; }
};

// `log` in seq order, as Store::load_steps returns it. Stops at the first
// problem: a gap or repeat in seq, an entry that does not decode, an unknown
// kind, answers the engine refuses, or a state hash that differs.
LogCheck check_log(const rules::Game& initial, const rules::Seed& seed,
                   const std::vector<persistence::StepRecord>& log);

// The whole check for a stored game: seed, scenario and settings, then the log.
LogCheck check_game(const persistence::GameRecord& game, const std::vector<persistence::StepRecord>& log);

// 16 lowercase hex digits, as the tools print state hashes.
std::string hash_hex(rules::StateHash hash);

}  // namespace galloper::server
