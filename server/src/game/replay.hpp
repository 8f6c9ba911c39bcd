#pragma once
// Rebuilds a game from its scenario, seed and log, checking every stored state
// hash on the way. Shared by rooms loading a game and the command-line tools.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "galloper/v1/store.pb.h"
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
// The same, for a decoded entry (log entry `seq`, recorded hash `state_hash`).
AppliedStep resolve_stored(const rules::Game& game, const rules::Seed& seed, const v1::StoredStep& stored,
                           std::uint64_t seq, std::uint64_t state_hash);

// Applies one "edit" entry (an umpire's StoredUmpire carrying an EditState)
// to `game` and checks the stored hash. On failure `error` names the entry.
struct AppliedEdit {
  std::unique_ptr<rules::Game> next;
  std::optional<std::string> error;
};
AppliedEdit apply_edit_entry(const rules::Game& game, const persistence::StepRecord& entry);
AppliedEdit edit_stored(const rules::Game& game, const v1::StoredUmpire& stored, std::uint64_t seq,
                        std::uint64_t state_hash);

}  // namespace galloper::server
