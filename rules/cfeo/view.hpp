#pragma once
// What a CF&EO seat may see: the one path (ARCHITECTURE.md, "Hidden
// information"), built for the seat from what it sees, never trimmed.
//
// The umpire sees everything (KNOWLEDGE_UMPIRE). A player's seat sees its
// own pieces in full (KNOWLEDGE_OWN); its side's other pieces in full
// (KNOWLEDGE_FRIENDLY) with side-shared vision, otherwise only those its own
// pieces see; enemies only when its eyes see them (KNOWLEDGE_SEEN), showing
// what stands on the table and nothing of name, grade or chain of command
// (RULINGS F6). Terrain, the table, the turn and the phase are public. An
// unknown seat, or a spectator's, sees only those.
#include <string_view>

#include "rules/cfeo/state.hpp"
#include "rules/core/game.hpp"

namespace galloper::rules::cfeo {

View view_for(const GameState& state, std::string_view seat, const ViewSettings& settings);

}  // namespace galloper::rules::cfeo
