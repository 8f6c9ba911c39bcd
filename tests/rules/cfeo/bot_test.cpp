// The random bot plays CF&EO games to their end: every seat's answers come
// from its own view and the engine's check, the dice from the game's seed.
// Whatever the bot tries, the engine never fails a step it should take, and
// every game ends at its turn limit. GALLOPER_BOT_SEEDS sets the count.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "rules/cfeo/game.hpp"
#include "rules/core/bot.hpp"
#include "rules/core/dice.hpp"
#include "tests/rules/cfeo/specs.hpp"

namespace galloper::rules::cfeo {
namespace {

using specs::gun;
using specs::leader;
using specs::unit;



// Two sides of two wings each, 500 yards apart across a 1,600 by 1,200 yard
// table: foot, horse and guns, so every phase built so far has work.
ScenarioSpec battle() {
  ScenarioSpec s;
  s.name = "bot_battle";
  s.table_width = 1600;
  s.table_depth = 1200;
  s.turn_limit = 6;
  for (const std::string side : {"north", "south"}) {
    const bool south = side == "south";
    const double y = south ? 350 : 850;
    const double facing = south ? 0 : 180;
    const double back = south ? -150 : 150;
    SideSpec a;
    a.id = side;
    a.style = CavalryStyle::kTraditional;
    a.marshal = leader(side + "_m", {800, y + back * 1.5}, facing);
    for (int w = 0; w < 2; ++w) {
      const double x0 = w == 0 ? 400 : 1100;
      WingSpec wing;
      wing.id = "w" + std::to_string(w);
      wing.general = leader(side + "_g" + std::to_string(w), {x0, y + back}, facing);
      BrigadeSpec b;
      b.id = side + "_b" + std::to_string(w);
      b.brigadier = leader(b.id + "_bde", {x0 + 50, y + back / 2}, facing);
      b.units.push_back(unit(b.id + "_foot", Arm::kFoot, 4, {x0, y}, facing));
      b.units.push_back(unit(b.id + "_horse", Arm::kHorse, 2, {x0 + 200, y}, facing));
      GunSpec g;
      g.id = b.id + "_gun";
      g.type = w == 0 ? GunType::kField : GunType::kHeavy;
      g.position = Vec2{x0 - 150, y};
      g.facing = facing;
      b.guns.push_back(g);
      wing.brigades.push_back(b);
      a.wings.push_back(wing);
    }
    s.sides.push_back(a);
  }
  return s;
}

int seeds() {
  const char* env = std::getenv("GALLOPER_BOT_SEEDS");
  return env != nullptr ? std::max(1, std::atoi(env)) : 10;
}

struct Played {
  int steps = 0;
  int collisions = 0;
  bool finished = false;
};

Played play(std::uint32_t seed, bool simultaneous) {
  std::unique_ptr<Game> game = make_game(battle(), Seed{static_cast<std::uint8_t>(seed)});
  GameOptions options;
  options.simultaneous = simultaneous;
  game = game->with_options(options);
  Bot bot(seed * 2654435761u + 17u, [&](const View& v, const Decision& d, BotRng& rng) { return game->propose(v, d, rng); });
  Played out;
  for (; out.steps < 3000 && !game->finished(); ++out.steps) {
    std::vector<Answer> answers;
    for (const auto& d : game->pending()) {
      answers.push_back(bot.answer(game->view_for(d.seat, {}), d, [&](const Answer& a) { return game->check(a); }));
    }
    KeyedDice dice(Seed{static_cast<std::uint8_t>(seed)}, game->step());
    auto r = game->resolve(answers, dice);
    for (int retry = 0; retry < 20 && !r.ok() && r.error().code == "collision"; ++retry) {
      // As a room would: the orders named halt, and the step is taken again.
      ++out.collisions;
      for (auto& a : answers) {
        for (const auto& id : r.error().decisions) {
          if (a.decision_id == id) a.steps.clear();
        }
      }
      KeyedDice again(Seed{static_cast<std::uint8_t>(seed)}, game->step());
      r = game->resolve(answers, again);
    }
    EXPECT_TRUE(r.ok()) << "seed " << seed << " step " << out.steps << ": " << r.error().reason;
    if (!r.ok()) return out;
    game = std::move(r->next);
  }
  out.finished = game->finished();
  return out;
}

TEST(CfeoBot, PlaysEverySeedToTheTurnLimitAlternating) {
  for (int seed = 1; seed <= seeds(); ++seed) {
    const Played p = play(static_cast<std::uint32_t>(seed), false);
    EXPECT_TRUE(p.finished) << "seed " << seed << " after " << p.steps << " steps";
  }
}

TEST(CfeoBot, PlaysEverySeedToTheTurnLimitSimultaneously) {
  for (int seed = 1; seed <= seeds(); ++seed) {
    const Played p = play(static_cast<std::uint32_t>(seed), true);
    EXPECT_TRUE(p.finished) << "seed " << seed << " after " << p.steps << " steps";
  }
}

}  // namespace
}  // namespace galloper::rules::cfeo
