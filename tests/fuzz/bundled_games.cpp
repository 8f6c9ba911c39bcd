#include "tests/fuzz/bundled_games.hpp"

#include <cstdlib>
#include <variant>

#include "proto/codec/scenario_codec.hpp"
#include "rules/core/bot.hpp"
#include "rules/core/decision.hpp"
#include "rules/core/dice.hpp"
#include "rules/malbrook/bot.hpp"

namespace galloper::fuzz {
namespace {

constexpr std::size_t kSteps = 40;

std::unique_ptr<rules::Game> load_demo() {
  const auto* demo = codec::find_bundled_scenario("demo");
  if (demo == nullptr) std::abort();
  auto loaded = codec::load_scenario(demo->text, fixed_seed());
  auto* game = std::get_if<codec::NewGame>(&loaded);
  if (game == nullptr) std::abort();
  return std::move(game->game);
}

// One step of a bot game: each seat's answers from its own view; when they
// do not resolve together (two moves ending on one spot), every seat's
// default instead.
std::unique_ptr<rules::Game> bot_step(const rules::Game& game, rules::Bot& bot) {
  std::vector<rules::Answer> answers, defaults;
  for (const auto& d : game.pending()) {
    const auto view = game.view_for(d.seat, rules::ViewSettings{});
    answers.push_back(bot.answer(view, d, [&game](const rules::Answer& a) { return game.check(a); }));
    defaults.push_back(rules::Bot::fallback(d));
  }
  for (const auto* tried : {&answers, &defaults}) {
    rules::KeyedDice dice(fixed_seed(), game.step());
    auto r = game.resolve(*tried, dice);
    if (r.ok()) return std::move(r.value().next);
  }
  return nullptr;
}

}  // namespace

const rules::Seed& fixed_seed() {
  static const rules::Seed seed = [] {
    rules::Seed s{};
    for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<std::uint8_t>(7 * i + 3);
    return s;
  }();
  return seed;
}

const rules::Game& demo_game() {
  static const std::unique_ptr<rules::Game> game = load_demo();
  return *game;
}

const std::vector<std::unique_ptr<rules::Game>>& demo_states() {
  static const std::vector<std::unique_ptr<rules::Game>> states = [] {
    std::vector<std::unique_ptr<rules::Game>> out;
    out.push_back(demo_game().clone());
    rules::Bot bot(1, rules::malbrook::propose);
    while (out.size() < kSteps && !out.back()->finished()) {
      auto next = bot_step(*out.back(), bot);
      if (!next) break;
      out.push_back(std::move(next));
    }
    return out;
  }();
  return states;
}

}  // namespace galloper::fuzz
