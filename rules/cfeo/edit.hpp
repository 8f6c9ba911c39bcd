#pragma once
// The umpire's edits of a CF&EO game (rules/core/edit.hpp): move a piece,
// remove it, set its DPs or a unit's formation, as a table-top umpire
// would. Each refused with the reason and nothing changed; an edit that
// changes nothing is refused too (it would be a log step with no effect).
#include "rules/cfeo/state.hpp"
#include "rules/core/edit.hpp"
#include "rules/core/result.hpp"

namespace galloper::rules::cfeo {

Result<GameState> apply_edit(const GameState& state, const StateEdit& edit);

}  // namespace galloper::rules::cfeo
