#pragma once
// The umpire's edits of a Malbrook game (rules/core/edit.hpp; RULINGS.md
// "Umpire edits"): move, remove, set DPs, set a leader's status, attach or
// detach a leader, and rule on advantage of ground. Each changes only what it
// names; the engine's pending decisions are whatever the edited state asks.
#include "rules/core/edit.hpp"
#include "rules/core/result.hpp"
#include "rules/malbrook/state.hpp"

namespace galloper::rules::malbrook {

// The edited state, or why not (codes: "unknown_edit", "unknown_unit",
// "not_on_table", "off_table", "overlap", "missing_field", "out_of_range",
// "bad_value", "ended", "no_change").
Result<GameState> apply_edit(const GameState& state, const StateEdit& edit);

}  // namespace galloper::rules::malbrook
