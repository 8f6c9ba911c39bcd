#pragma once
// What the bot (rules/core/bot.hpp) proposes for a Malbrook decision, from
// the seat's view and the decision alone. Orders are simple: leaders move a
// little, attach, steady or inspire; brigades go forward their full
// allowance (or part of it after a wheel), about face, change formation or
// re-form. Any other decision gets one of its listed options at random.
#include <vector>

#include "rules/core/bot.hpp"

namespace galloper::rules::malbrook {

// Candidate answers, best first; the bot plays the first one check() passes.
std::vector<Answer> propose(const View& seat_view, const Decision& decision, BotRng& rng);

}  // namespace galloper::rules::malbrook
