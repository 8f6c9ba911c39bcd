#pragma once
// Games the targets start from: the bundled demo scenario on a fixed seed,
// and the states a bot game of it passes through (so answers and snapshots
// are tried against every phase, not only the first step). Built once per
// process; the same in every build, so an input replays the same way.
#include <memory>
#include <vector>

#include "rules/core/game.hpp"

namespace galloper::fuzz {

const rules::Seed& fixed_seed();

// The demo scenario's initial game.
const rules::Game& demo_game();

// The demo game's state before each of its first steps of a bot game
// (index 0 is the initial game).
const std::vector<std::unique_ptr<rules::Game>>& demo_states();

}  // namespace galloper::fuzz
