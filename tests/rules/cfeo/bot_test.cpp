// The random bot plays CF&EO games to their end: every seat's answers come
// from its own view and the engine's check, the dice from the game's seed.
// Whatever the bot tries, the engine never fails a step it should take, and
// every game ends. GALLOPER_BOT_SEEDS sets the count.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "proto/codec/scenario_codec.hpp"
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

Played play(std::unique_ptr<Game> game, std::uint32_t seed, bool simultaneous) {
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
    const Played p = play(make_game(battle(), Seed{static_cast<std::uint8_t>(seed)}), static_cast<std::uint32_t>(seed), false);
    EXPECT_TRUE(p.finished) << "seed " << seed << " after " << p.steps << " steps";
  }
}

TEST(CfeoBot, PlaysEverySeedToTheTurnLimitSimultaneously) {
  for (int seed = 1; seed <= seeds(); ++seed) {
    const Played p = play(make_game(battle(), Seed{static_cast<std::uint8_t>(seed)}), static_cast<std::uint32_t>(seed), true);
    EXPECT_TRUE(p.finished) << "seed " << seed << " after " << p.steps << " steps";
  }
}

// The bundled scenarios, as the lobby offers them: odd seeds alternate, even
// seeds play both sides at once. GALLOPER_BOT_SEEDS games of each (the test
// command's release stage plays 200); 2 by default.
TEST(CfeoBot, PlaysEachBundledScenarioToItsEnd) {
  const char* env = std::getenv("GALLOPER_BOT_SEEDS");
  const int n = env != nullptr ? std::max(1, std::atoi(env)) : 2;
  int scenarios = 0;
  for (const auto& bundled : codec::bundled_scenarios()) {
    if (!bundled.name.starts_with("cfeo/")) continue;
    ++scenarios;
    const auto t0 = std::chrono::steady_clock::now();
    int steps = 0;
    for (int seed = 1; seed <= n; ++seed) {
      Seed key{};
      key[0] = static_cast<std::uint8_t>(seed);
      key[1] = static_cast<std::uint8_t>(seed >> 8);
      auto loaded = codec::load_scenario(bundled.text, key);
      auto* made = std::get_if<codec::NewGame>(&loaded);
      ASSERT_NE(made, nullptr) << bundled.name;
      const Played p = play(std::move(made->game), static_cast<std::uint32_t>(seed), seed % 2 == 0);
      EXPECT_TRUE(p.finished) << bundled.name << " seed " << seed << " after " << p.steps << " steps";
      steps += p.steps;
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("[ bot      ] %s: %d games, %d steps, %.2f s\n", std::string(bundled.name).c_str(), n, steps, secs);
  }
  EXPECT_EQ(scenarios, 2);
}

}  // namespace
}  // namespace galloper::rules::cfeo
