#pragma once
// A random player: for one seat's pending decisions it picks random legal
// answers. The tests play whole games with it (tests/rules/malbrook/bot.hpp);
// the server plays the seats a game's settings give to the bot with it
// (server/src/game/step_desk.cpp, "Bot seats").
//
// It decides from what the seat may know and nothing else:
//  * the decision itself (options, default, limits, subjects), which the
//    engine lists per seat;
//  * the seat's View (view_for that seat);
//  * a legality check of a candidate order (the engine's check()), which says
//    only "legal" or why not: the same answer a player gets by submitting it.
// The candidates come from the ruleset (Game::propose; Malbrook's are in
// rules/malbrook/bot.hpp): the bot plays the first the check passes, else
// the decision's default.
//
// Randomness comes from the caller's seed (the raw output of std::mt19937,
// which the standard fixes), so the same seed gives the same answers.
#include <cstdint>
#include <functional>
#include <random>
#include <utility>
#include <vector>

#include "rules/core/decision.hpp"
#include "rules/core/game.hpp"
#include "rules/core/result.hpp"

namespace galloper::rules {

// std::mt19937's output is fixed by the standard (its distributions are not),
// so draws use the raw output.
struct BotRng {
  std::mt19937 g;
  explicit BotRng(std::uint32_t seed) : g(seed) {}
  std::uint32_t below(std::uint32_t n) { return n == 0 ? 0 : static_cast<std::uint32_t>(g() % n); }
  double uniform(double lo, double hi) { return lo + (hi - lo) * (static_cast<double>(g()) / 4294967296.0); }
  bool chance(std::uint32_t one_in) { return below(one_in) == 0; }
};

// Whether an answer is legal now (Game::check, or the ruleset's own check).
using AnswerCheck = std::function<Verdict(const Answer&)>;

// A ruleset's candidate answers to one decision, best first, from the seat's
// view and the decision alone (Game::propose).
using Proposer = std::function<std::vector<Answer>(const View& seat_view, const Decision&, BotRng&)>;

class Bot {
 public:
  Bot(std::uint32_t seed, Proposer propose) : r_(seed), propose_(std::move(propose)) {}

  // One answer to `decision`, owed by the seat whose view `seat_view` is:
  // the first candidate whose orders `check` passes (options are taken as
  // listed: the engine offers only legal ones), else the default.
  Answer answer(const View& seat_view, const Decision& decision, const AnswerCheck& check);

  // The decision's default (hold, halt, stand): "" where it has none.
  static Answer fallback(const Decision& decision);
  // One of the decision's listed options at random; none when it lists none.
  static std::vector<Answer> any_option(const Decision& decision, BotRng& rng);

 private:
  BotRng r_;
  Proposer propose_;
};

}  // namespace galloper::rules
