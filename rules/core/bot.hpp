#pragma once
// A random player: for one seat's pending decisions it picks random legal
// answers. The tests play whole games with it (tests/rules/malbrook/bot.hpp);
// the server plays the seats a game's settings give to the bot with it
// (server/src/room.cpp, "Bot seats").
//
// It decides from what the seat may know and nothing else:
//  * the decision itself (options, default, limits, subjects), which the
//    engine lists per seat;
//  * the seat's View (view_for that seat): where its leaders stand, whom they
//    are attached to, its brigades' formations, which brigades of its side it
//    can see to attach to;
//  * a legality check of a candidate order (the engine's check()), which says
//    only "legal" or why not: the same answer a player gets by submitting it.
// Orders are simple: leaders move a little, attach, steady or inspire;
// brigades go forward their full allowance (or part of it after a wheel),
// about face, change formation or re-form; options are picked uniformly. An
// order the check refuses is dropped; when none is left the decision's
// default is taken. The order decisions it knows are Malbrook's ("move",
// "command_actions", "leader_move"); any other ruleset's decisions get a
// random listed option or their default.
//
// Randomness comes from the caller's seed (the raw output of std::mt19937,
// which the standard fixes), so the same seed gives the same answers.
#include <cstdint>
#include <functional>
#include <random>
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

class Bot {
 public:
  explicit Bot(std::uint32_t seed) : r_(seed) {}

  // One answer to `decision`, owed by the seat whose view `seat_view` is.
  // Orders are checked with `check` before use; options are picked among
  // those the decision lists (the engine offers only legal ones).
  Answer answer(const View& seat_view, const Decision& decision, const AnswerCheck& check);

  // The decision's default (hold, halt, stand): "" where it has none.
  static Answer fallback(const Decision& decision);

 private:
  std::vector<Answer> candidates(const View& seat_view, const Decision& decision);

  BotRng r_;
};

}  // namespace galloper::rules
