#pragma once
// CF&EO's candidate answers for the random bot (rules/core/bot.hpp): from
// the seat's view and the decision alone. Fire, dice and other listed
// choices: one at random. A move order: a few plain orders within the
// move's yards (forward all or part of it, a wheel either way, a wheel then
// forward), shuffled; the bot plays the first the engine accepts, else halts.
#include <vector>

#include "rules/core/bot.hpp"
#include "rules/core/decision.hpp"
#include "rules/core/game.hpp"

namespace galloper::rules::cfeo {

std::vector<Answer> propose(const View& seat_view, const Decision& decision, BotRng& rng);

}  // namespace galloper::rules::cfeo
