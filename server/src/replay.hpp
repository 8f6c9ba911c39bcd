#pragma once
// Rebuilds a game from its scenario, seed and log, checking every stored state
// hash on the way. Shared by rooms loading a game and the command-line tools.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "persistence/store.hpp"
#include "rules/core/decision.hpp"
#include "rules/core/game.hpp"

namespace galloper::server {

// The answers stored in one "resolve" entry; empty optional if it is damaged.
std::optional<std::vector<rules::Answer>> decode_step_answers(const persistence::StepRecord& step);

// Applies one "resolve" entry to `game` with the step's keyed dice and checks
// the stored hash. On failure `error` names the entry and what went wrong.
struct AppliedStep {
  std::unique_ptr<rules::Game> next;
  std::vector<rules::Event> events;
  std::optional<std::string> error;
};
AppliedStep apply_resolve_entry(const rules::Game& game, const rules::Seed& seed,
                                const persistence::StepRecord& entry);

// Applies one "edit" entry (an umpire's StoredUmpire carrying an EditState)
// to `game` and checks the stored hash. On failure `error` names the entry.
struct AppliedEdit {
  std::unique_ptr<rules::Game> next;
  std::optional<std::string> error;
};
AppliedEdit apply_edit_entry(const rules::Game& game, const persistence::StepRecord& entry);

struct ReplayResult {
  std::unique_ptr<rules::Game> game;   // the state after the last good step
  std::uint64_t steps_applied = 0;
  std::uint64_t events = 0;            // events generated on the way
  std::uint64_t last_seq = 0;          // the last log entry read
  std::optional<std::string> error;    // names the first entry that failed or differed
};

// `game` is the initial state; `steps` the whole log in order. Only "resolve"
// and "edit" entries that a rewind has not superseded change the state.
ReplayResult replay(std::unique_ptr<rules::Game> game, const rules::Seed& seed,
                    const std::vector<persistence::StepRecord>& steps);

}  // namespace galloper::server
