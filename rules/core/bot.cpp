#include "rules/core/bot.hpp"

namespace galloper::rules {

Answer Bot::fallback(const Decision& d) {
  Answer a;
  a.decision_id = d.id;
  a.seat = d.seat;
  a.option = d.default_option;
  return a;
}

std::vector<Answer> Bot::any_option(const Decision& d, BotRng& rng) {
  std::vector<Answer> out;
  if (!d.options.empty()) {
    Answer a = fallback(d);
    a.option = d.options[rng.below(static_cast<std::uint32_t>(d.options.size()))].id;
    out.push_back(a);
  }
  return out;
}

Answer Bot::answer(const View& seat_view, const Decision& d, const AnswerCheck& check) {
  for (auto& a : propose_(seat_view, d, r_)) {
    if (a.steps.empty() || check(a)) return a;
  }
  return fallback(d);
}

}  // namespace galloper::rules
