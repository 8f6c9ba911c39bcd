// Whole games: the random bot (bot.hpp) plays the demo, Blenheim and a
// cavalry clash to the end for many seeds without the engine ever refusing a
// checked answer, and with the game's invariants after every step; golden
// games replay recorded answers to a recorded final-state hash.
//
// Seeds: GALLOPER_BOT_SEEDS (default kDefaultSeeds per scenario; the issue's
// full run is GALLOPER_BOT_SEEDS=200). Golden games: GALLOPER_RECORD_GOLDEN=1
// re-records them (tests/rules/malbrook/golden/README.md says when).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <variant>

#include "proto/codec/scenario_codec.hpp"
#include "rules/core/tell.hpp"
#include "rules/malbrook/after_combat.hpp"
#include "rules/malbrook/engine.hpp"
#include "rules/malbrook/game.hpp"
#include "rules/malbrook/movement.hpp"
#include "tests/rules/malbrook/bot.hpp"
#include "tests/rules/malbrook/golden_files.hpp"

namespace galloper::rules::malbrook {
namespace {

using test::Bot;

// Debug and ASan builds run this in CI: 3 seeds of the demo and of the
// cavalry clash keep the test under a minute there.
constexpr int kDefaultSeeds = 3;

int seeds_to_play() {
  if (const char* env = std::getenv("GALLOPER_BOT_SEEDS")) {
    const int n = std::atoi(env);
    if (n > 0) return n;
  }
  return kDefaultSeeds;
}

using test::golden_dir;
using test::read_text;
using test::scenario_text;

GameState load(const std::string& name, std::uint32_t seed) {
  return test::scenario_state(name, test::bot_seed(seed));
}

struct Played {
  GameState last;
  std::vector<std::vector<Answer>> answers;
  int steps = 0;
  std::string error;  // empty: the game ran to its end
  std::vector<Event> last_events;
};

constexpr int kMaxSteps = 20000;

// Plays to the end, or until turn `until_turn` is over (0: to the end).
// `handed_on`: also hold every step's next_pending (the decisions resolve
// worked out on the way) to pending() of the state it returns.
Played play(GameState s, std::uint32_t seed, bool invariants = true, std::uint32_t until_turn = 0,
            bool handed_on = false) {
  Played p;
  Bot bot(seed * 2654435761u + 17u);
  if (invariants) {
    if (std::string bad = test::invariant_violation(s); !bad.empty()) {
      p.error = "at the start: " + bad;
      return p;
    }
  }
  while (!finished(s) && p.steps < kMaxSteps && (until_turn == 0 || s.turn <= until_turn)) {
    std::vector<Answer> used;
    auto r = test::resolve_bot_step(s, bot.answers(s), &used);
    if (!r.ok()) {
      if (std::getenv("GALLOPER_BOT_DEBUG") != nullptr) {
        for (const auto& a : used) {
          auto v = check(s, a);
          std::printf("  %s %s steps=%zu check=%s\n", a.decision_id.c_str(), a.option.c_str(), a.steps.size(),
                      v.ok() ? "ok" : plain_text(v.error().reason).c_str());
          for (const auto& st : a.steps) std::printf("    %s %.3f %.3f\n", st.action.c_str(), st.distance, st.angle_deg);
        }
      }
      p.error = "turn " + std::to_string(s.turn) + " " + std::string(to_string(s.phase)) + ": " + r.error().code +
                ": " + r.error().reason;
      break;
    }
    if (const char* watch = std::getenv("GALLOPER_BOT_WATCH")) {
      for (const auto& e : r->events) {
        const std::string text = plain_text(e.text);
        if (text.find(watch) != std::string::npos) std::printf("  [t%u %s] %s\n", s.turn, std::string(to_string(s.phase)).c_str(), text.c_str());
      }
    }
    if (handed_on && !(r->next_pending == pending(r->next))) {
      p.error = "turn " + std::to_string(s.turn) + " " + std::string(to_string(s.phase)) + " (step " +
                std::to_string(s.step) + "): the decisions handed on are not pending() of the next state";
      break;
    }
    p.answers.push_back(std::move(used));
    p.last_events = r->events;
    const GameState before = invariants ? s : GameState{};
    s = std::move(r->next);
    ++p.steps;
    if (invariants) {
      if (std::string bad = test::invariant_violation(s); !bad.empty()) {
        if (std::getenv("GALLOPER_BOT_DEBUG") != nullptr) {
          for (const auto& e : p.last_events) std::printf("  event %s: %s\n", e.kind.c_str(), plain_text(e.text).c_str());
          for (const auto& b : s.brigades) {
            if (bad.find(b.id) != std::string::npos) std::printf("  now %s\n", test::describe(b).c_str());
          }
          for (const auto& b : before.brigades) {
            if (bad.find(b.id) != std::string::npos) std::printf("  before %s\n", test::describe(b).c_str());
          }
        }
        p.error = "turn " + std::to_string(s.turn) + " " + std::string(to_string(s.phase)) + ": " + bad;
        break;
      }
    }
  }
  if (p.error.empty() && !finished(s) && until_turn == 0) p.error = "no end after " + std::to_string(kMaxSteps) + " steps";
  p.last = std::move(s);
  return p;
}

void play_many(const std::string& scenario, int default_seeds) {
  const int n = std::getenv("GALLOPER_BOT_SEEDS") != nullptr ? seeds_to_play() : default_seeds;
  if (n == 0) GTEST_SKIP() << scenario << ": set GALLOPER_BOT_SEEDS to play it (slow in Debug builds)";
  const auto t0 = std::chrono::steady_clock::now();
  int steps = 0;
  int decided = 0;
  int first = 1;
  if (const char* env = std::getenv("GALLOPER_BOT_FIRST_SEED")) first = std::max(1, std::atoi(env));
  for (int seed = first; seed < first + n; ++seed) {
    const GameState start = load(scenario, static_cast<std::uint32_t>(seed));
    ASSERT_FALSE(start.armies.empty());
    const Played p = play(start, static_cast<std::uint32_t>(seed));
    ASSERT_EQ(p.error, "") << scenario << " seed " << seed;
    EXPECT_TRUE(finished(p.last));
    EXPECT_TRUE(p.last.result.decided) << scenario << " seed " << seed;
    EXPECT_FALSE(p.last.result.reason.empty());
    steps += p.steps;
    decided += p.last.result.winner.empty() ? 0 : 1;
  }
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("[ bot      ] %s: %d games, %d steps, %d with a winner, %.2f s\n", scenario.c_str(), n, steps, decided,
              secs);
}

// Defaults keep Debug and ASan runs short: a demo game takes ~0.3 s in
// Release and ~10 s in Debug; a Blenheim game ~20-30 s in Release and
// minutes in Debug, so Blenheim is played only when GALLOPER_BOT_SEEDS is set.
TEST(FullGame, BotPlaysTheDemoToTheEnd) { play_many("demo", kDefaultSeeds); }
TEST(FullGame, BotPlaysBlenheimToTheEnd) { play_many("blenheim", 0); }
TEST(FullGame, BotPlaysTheCavalryClashToTheEnd) { play_many("cavalry_clash", kDefaultSeeds); }

// Seeds on which the bot once found units overlapping (casualties from
// placed bases, RULINGS AR11): played by default. Blenheim's (seed 1, turn 9)
// takes minutes in a Debug build: played only with GALLOPER_BOT_SEEDS set.
TEST(FullGame, SeedsThatOnceLeftUnitsOverlapping) {
  struct Known {
    const char* scenario;
    std::uint32_t seed;
    bool slow;
  };
  constexpr Known kKnown[] = {{"demo", 28, false}, {"cavalry_clash", 6, false}, {"blenheim", 1, true}};
  for (const auto& k : kKnown) {
    if (k.slow && std::getenv("GALLOPER_BOT_SEEDS") == nullptr) continue;
    const Played p = play(load(k.scenario, k.seed), k.seed);
    EXPECT_EQ(p.error, "") << k.scenario << " seed " << k.seed;
  }
}

TEST(FullGame, CavalryClashScenarioPassesItsChecks) {
  const auto problems = codec::check_scenario(read_text(golden_dir() / "cavalry.textproto"));
  EXPECT_TRUE(problems.empty()) << codec::format_problems("cavalry.textproto", problems);
}

// resolve hands on the next state's decisions where it had to work them out
// anyway (artillery's second half, the next stage of charges); a room asks
// for nothing else. They must be exactly what pending() gives: over whole
// bot games (Blenheim's first turns only, unless GALLOPER_BOT_SEEDS is set).
TEST(FullGame, DecisionsHandedOnAreTheNextStatesPending) {
  for (const char* scenario : {"demo", "cavalry_clash"}) {
    for (std::uint32_t seed : {1u, 2u}) {
      const Played p = play(load(scenario, seed), seed, false, 0, true);
      EXPECT_EQ(p.error, "") << scenario << " seed " << seed;
    }
  }
  const std::uint32_t turns = std::getenv("GALLOPER_BOT_SEEDS") != nullptr ? 0 : 2;
  const Played p = play(load("blenheim", 3), 3, false, turns, true);
  EXPECT_EQ(p.error, "") << "blenheim seed 3";
}

// A room plays through MalbrookGame: every answer checked as it comes, then
// the step resolved with what the game keeps (the pending list handed on by
// the last step, the answers already checked, the movement checks' field).
// The same answers and dice through the engine alone, which is handed
// nothing, must give the same state after every step.
TEST(FullGame, AGamePlayedAsARoomPlaysItIsTheEnginesGame) {
  struct Case {
    const char* scenario;
    std::uint32_t seed;
    std::uint32_t until_turn;  // 0: the whole game
  };
  for (const Case c : {Case{"demo", 1, 0}, Case{"cavalry_clash", 2, 0}, Case{"blenheim", 3, 2}}) {
    GameState s = load(c.scenario, c.seed);
    std::unique_ptr<Game> game = std::make_unique<MalbrookGame>(s);
    Bot bot(c.seed * 2654435761u + 17u);
    int steps = 0;
    while (!finished(s) && steps < kMaxSteps && (c.until_turn == 0 || s.turn <= c.until_turn)) {
      std::vector<Answer> used;
      auto r = test::resolve_bot_step(s, bot.answers(s), &used);
      ASSERT_TRUE(r.ok()) << c.scenario << ": " << r.error().reason;
      for (const auto& a : used) ASSERT_TRUE(game->check(a).ok()) << c.scenario << " " << a.decision_id;
      KeyedDice dice(s.seed, s.step);
      auto room = game->resolve(used, dice);
      ASSERT_TRUE(room.ok()) << c.scenario << ": " << room.error().reason;
      ASSERT_EQ(room.value().next->state_hash(), state_hash(r->next))
          << c.scenario << " seed " << c.seed << ", turn " << s.turn << " " << to_string(s.phase) << " (step " << s.step
          << ")";
      game = std::move(room.value().next);
      s = std::move(r->next);
      ++steps;
    }
    EXPECT_GT(steps, 20) << c.scenario;
  }
}

// The engine's movement orders are planned once, when they are checked
// (MoveChecks), and the step's resolution takes those plans and the checks'
// field (movement_resolve's `checks`). Resolving every movement step of bot
// games with the checks and again with nothing handed over (a field laid out
// and every order planned afresh) must give the same state and events.
TEST(FullGame, OrdersResolvedOnTheChecksPlansAreOrdersPlannedAfresh) {
  int compared = 0;
  for (const auto& [scenario, seed] : {std::pair{"demo", 4u}, std::pair{"blenheim", 5u}}) {
    GameState s = load(scenario, seed);
    Bot bot(seed);
    for (int step = 0; step < 120 && !finished(s); ++step) {
      std::vector<Answer> used;
      auto r = test::resolve_bot_step(s, bot.answers(s), &used);
      ASSERT_TRUE(r.ok()) << scenario << ": " << r.error().reason;
      const auto owed = pending(s);
      if (s.phase == Phase::kMovement && retire_pending(s).empty() && pursuit_meeting_pending(s).empty() &&
          !owed.empty()) {
        const MoveChecks checks(s);
        for (const auto& a : used) {
          const auto d = std::find_if(owed.begin(), owed.end(), [&](const Decision& x) { return x.id == a.decision_id; });
          ASSERT_NE(d, owed.end()) << a.decision_id;
          ASSERT_TRUE(checks.check(*d, a).ok()) << a.decision_id;
        }
        GameState planned = s;
        GameState afresh = s;
        KeyedDice d1(s.seed, s.step);
        KeyedDice d2(s.seed, s.step);
        std::vector<Event> e1;
        std::vector<Event> e2;
        ASSERT_TRUE(movement_resolve(planned, used, d1, e1, &owed, &checks).ok());
        ASSERT_TRUE(movement_resolve(afresh, used, d2, e2).ok());
        ASSERT_EQ(state_hash(planned), state_hash(afresh)) << scenario << " step " << step;
        ASSERT_EQ(e1.size(), e2.size()) << scenario << " step " << step;
        for (std::size_t i = 0; i < e1.size(); ++i) {
          EXPECT_EQ(e1[i].kind + ": " + e1[i].text, e2[i].kind + ": " + e2[i].text) << scenario << " step " << step;
        }
        ++compared;
      }
      s = std::move(r->next);
    }
  }
  EXPECT_GE(compared, 8);
}

TEST(FullGame, TheSameSeedPlaysTheSameGame) {
  const Played a = play(load("demo", 5), 5, false);
  const Played b = play(load("demo", 5), 5, false);
  ASSERT_EQ(a.error, "");
  EXPECT_EQ(state_hash(a.last), state_hash(b.last));
  EXPECT_EQ(a.steps, b.steps);
}

// ---- Golden games ----

struct GoldenSpec {
  const char* file;
  const char* scenario;
  std::uint32_t seed;
  std::uint32_t until_turn;  // 0: the whole game
};
// Blenheim is recorded for its first two turns only: a whole game replays in
// minutes in a Debug build.
constexpr GoldenSpec kGolden[] = {
    {"demo.golden", "demo", 11, 0},
    {"blenheim.golden", "blenheim", 12, 2},
    {"cavalry.golden", "cavalry_clash", 13, 0},
};

bool recording() {
  const char* env = std::getenv("GALLOPER_RECORD_GOLDEN");
  return env != nullptr && std::string(env) == "1";
}

TEST(Golden, RecordedGamesReplayToTheirHashes) {
  for (const auto& g : kGolden) {
    const auto path = golden_dir() / g.file;
    if (recording()) {
      const Played p = play(load(g.scenario, g.seed), g.seed, true, g.until_turn);
      ASSERT_EQ(p.error, "") << g.file;
      test::GoldenGame rec;
      rec.scenario = g.scenario;
      rec.seed = g.seed;
      rec.steps = p.answers;
      rec.hash = state_hash(p.last);
      std::ofstream(path, std::ios::binary) << test::golden_write(rec);
      std::printf("[ golden   ] recorded %s: %zu steps\n", g.file, rec.steps.size());
      continue;
    }
    const auto golden = test::golden_read(read_text(path));
    ASSERT_TRUE(golden.has_value()) << path << " is missing or unreadable (GALLOPER_RECORD_GOLDEN=1 records it)";
    GameState s = load(golden->scenario, golden->seed);
    std::size_t i = 0;
    for (; i < golden->steps.size() && !finished(s); ++i) {
      KeyedDice dice(s.seed, s.step);
      auto r = resolve(s, golden->steps[i], dice);
      ASSERT_TRUE(r.ok()) << g.file << " step " << i << ": " << r.error().code << ": " << r.error().reason;
      s = std::move(r->next);
    }
    EXPECT_EQ(i, golden->steps.size()) << g.file << ": the game ended early";
    if (g.until_turn == 0) {
      EXPECT_TRUE(finished(s)) << g.file;
    }
    EXPECT_EQ(state_hash(s), golden->hash) << g.file << " replays to another state: a rule changed. If deliberately, "
                                           << "re-record with GALLOPER_RECORD_GOLDEN=1 (golden/README.md).";
  }
}

TEST(Golden, TheTextFormatRoundTrips) {
  test::GoldenGame g;
  g.scenario = "demo";
  g.seed = 3;
  Answer a;
  a.decision_id = "move/b 1";
  a.seat = "fr/left";
  a.option = "";
  OrderStep st;
  st.action = "formation";
  st.formation = "march column";
  st.distance = 0.1;
  st.angle_deg = -22.5;
  st.to = {1.0 / 3, 2e-7};
  st.target = "100%~";
  a.steps.push_back(st);
  g.steps = {{a}, {}};
  g.hash = 0xfedcba9876543210ULL;
  const auto back = test::golden_read(test::golden_write(g));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->scenario, "demo");
  EXPECT_EQ(back->seed, 3u);
  ASSERT_EQ(back->steps.size(), 2u);
  ASSERT_EQ(back->steps[0].size(), 1u);
  const Answer& b = back->steps[0][0];
  EXPECT_EQ(b.decision_id, "move/b 1");
  EXPECT_EQ(b.option, "");
  ASSERT_EQ(b.steps.size(), 1u);
  EXPECT_EQ(b.steps[0].formation, "march column");
  EXPECT_EQ(b.steps[0].distance, 0.1);
  EXPECT_EQ(b.steps[0].to.x, 1.0 / 3);
  EXPECT_EQ(b.steps[0].to.y, 2e-7);
  EXPECT_EQ(b.steps[0].target, "100%~");
  EXPECT_EQ(back->hash, g.hash);
}

}  // namespace
}  // namespace galloper::rules::malbrook
