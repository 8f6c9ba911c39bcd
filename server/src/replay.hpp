#pragma once
// Rebuilds a game from its scenario, seed and log of resolved steps, checking
// every stored state hash on the way.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "persistence/store.hpp"
#include "rules/core/decision.hpp"
#include "rules/core/game.hpp"

namespace galloper::server {

struct ReplayResult {
  std::unique_ptr<rules::Game> game;   // the state after the last good step
  std::uint64_t steps_applied = 0;
  std::uint64_t events = 0;            // events generated on the way (sequence numbers)
  std::uint64_t last_seq = 0;          // the last log entry read
  // Entries after the last resolution: the open step's answers and locks.
  std::vector<persistence::StepRecord> open_step;
  std::optional<std::string> error;    // names the first step that failed or differed
};

// `game` is the initial state; `steps` in order (only "resolve" steps that are
// not superseded by a rewind change it).
ReplayResult replay(std::unique_ptr<rules::Game> game, const rules::Seed& seed,
                    const std::vector<persistence::StepRecord>& steps);

// The answers stored in one step's payload; empty optional if it is damaged.
std::optional<std::vector<rules::Answer>> decode_step_answers(const persistence::StepRecord& step);

}  // namespace galloper::server
