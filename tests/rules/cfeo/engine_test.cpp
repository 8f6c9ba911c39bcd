// The CF&EO sequence of play and its fire phases, with fixed dice: who acts
// when, what each piece is offered, each shot's dice and DPs, redress in
// the morale phase, and a game played to its turn limit.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "rules/cfeo/engine.hpp"
#include "rules/cfeo/game.hpp"
#include "rules/cfeo/setup.hpp"
#include "rules/core/dice.hpp"
#include "tests/rules/cfeo/specs.hpp"
#include "rules/core/tell.hpp"

namespace galloper::rules::cfeo {
namespace {

using specs::gun;
using specs::leader;
using specs::unit;

// Blue (the attacker) at the south facing north, red to the north facing
// south. Blue has a battalion and a field gun beside it; red a battalion 100
// yards from blue's and, beyond a wood on the east, a hidden one.
ScenarioSpec spec() {
  ScenarioSpec s;
  s.name = "test";
  s.table_width = 3000;
  s.table_depth = 2000;
  s.turn_limit = 3;
  s.attacker = "blue";
  s.no_control_tests = true;  // the commanders stand at the rear
  TerrainSpec wood;
  wood.id = "wood";
  wood.shape = TerrainShape::kArea;
  wood.kind = TerrainKind::kWood;
  wood.points = {{2400, 0}, {2500, 0}, {2500, 2000}, {2400, 2000}};
  s.terrain.push_back(wood);
  for (const std::string side : {"blue", "red"}) {
    const bool blue = side == "blue";
    SideSpec a;
    a.id = side;
    a.name = blue ? "Blue" : "Red";
    a.style = CavalryStyle::kTraditional;
    a.marshal = leader(side + "_m", {500, blue ? 50.0 : 1950.0});
    WingSpec w;
    w.id = "w";
    w.general = leader(side + "_g", {600, blue ? 50.0 : 1950.0});
    BrigadeSpec b;
    b.id = side + "_b";
    b.brigadier = leader(side + "_bde", {700, blue ? 50.0 : 1950.0});
    if (blue) {
      b.units.push_back(unit("blue_foot", Arm::kFoot, 4, {1000, 500}, 0));
      b.guns.push_back(gun("blue_gun", GunType::kField, {1130, 500}, 0));
    } else {
      b.units.push_back(unit("red_foot", Arm::kFoot, 4, {1000, 600}, 180));
      b.units.push_back(unit("red_far", Arm::kFoot, 2, {2800, 1000}, 180));
    }
    w.brigades.push_back(b);
    a.wings.push_back(w);
    s.sides.push_back(a);
  }
  return s;
}

std::vector<std::string> ids(const std::vector<Decision>& ds) {
  std::vector<std::string> out;
  for (const auto& d : ds) out.push_back(d.id + "@" + d.seat);
  return out;
}

std::vector<std::string> options(const Decision& d) {
  std::vector<std::string> out;
  for (const auto& o : d.options) out.push_back(o.id);
  return out;
}

GameState started(GameState s) {
  FixedDice none({});
  auto r = resolve(s, {}, none);
  EXPECT_TRUE(r.ok());
  return std::move(r->next);
}

Answer answer(const Decision& d, std::string option) { return {d.id, d.seat, std::move(option), {}}; }

TEST(CfeoSequence, TheAttackerActsFirstAndTheBombardmentAsksItsGun) {
  const GameState s = started(initial_state(spec()));
  EXPECT_EQ(s.turn, 1u);
  EXPECT_EQ(s.phase, Phase::kBombardment);
  EXPECT_EQ(s.first, 0);
  const auto owed = pending(s);
  ASSERT_EQ(ids(owed), std::vector<std::string>{"fire/blue_gun@blue/w"});
  // The red battalion is in range and seen; the one behind the wood is not offered.
  EXPECT_EQ(options(owed[0]), (std::vector<std::string>{"red_foot", "reserve", "hold"}));
  EXPECT_EQ(owed[0].default_option, "reserve");
}

TEST(CfeoFire, AFieldGunAtLongRangeOnANewTargetNeedsAFourAfterItsModifiers) {
  const GameState s = started(initial_state(spec()));
  const auto owed = pending(s);
  ASSERT_EQ(owed.size(), 1u);
  // About 106 yards from the gun's front to the red battalion: close range;
  // a new target -1. 2-3 = 1 DP, 4+ = 2 DPs: a 4 is 3, 1 DP.
  FixedDice dice({4});
  auto r = resolve(s, {answer(owed[0], "red_foot")}, dice);
  ASSERT_TRUE(r.ok()) << r.error().reason;
  const Unit& red = r->next.units[1];
  EXPECT_EQ(red.id, "red_foot");
  EXPECT_EQ(red.dps, 1u);
  EXPECT_TRUE(red.artillery_dps);
  const auto shot = std::find_if(r->events.begin(), r->events.end(), [](const Event& e) { return e.kind == "artillery_fire"; });
  ASSERT_NE(shot, r->events.end());
  EXPECT_EQ(plain_text(shot->text), "blue_gun fires at red_foot: 4 -1 (new target) = 3, 1 DP.");
  ASSERT_EQ(shot->dice.size(), 1u);
  EXPECT_EQ(shot->dice[0].face, 4);
  // Each seat is told it as it knows the pieces: blue names its gun and sees
  // a battalion; red names its battalion and sees a gun.
  const SeatKnowledge blue(CfeoGame(r->next, Seed{}).view_for("blue/w", {}));
  EXPECT_EQ(tell_text(shot->text, blue), "blue_gun fires at an enemy battalion of foot: 4 -1 (new target) = 3, 1 DP.");
  const SeatKnowledge red_seat(CfeoGame(r->next, Seed{}).view_for("red/w", {}));
  EXPECT_EQ(tell_text(shot->text, red_seat), "An enemy field gun fires at red_foot: 4 -1 (new target) = 3, 1 DP.");
}

TEST(CfeoFire, AHiddenTargetIsRefusedInTheWordsAMadeUpOneGets) {
  const GameState s = started(initial_state(spec()));
  const auto owed = pending(s);
  ASSERT_EQ(owed.size(), 1u);
  const auto hidden = check(s, answer(owed[0], "red_far"));
  const auto made_up = check(s, answer(owed[0], "no_such"));
  ASSERT_FALSE(hidden.ok());
  ASSERT_FALSE(made_up.ok());
  EXPECT_EQ(hidden.error().code, made_up.error().code);
  std::string told = hidden.error().reason;
  told.replace(told.find("red_far"), 7, "no_such");
  EXPECT_EQ(told, made_up.error().reason);
  // Another seat's decision reads as one that is not pending.
  const auto wrong = check(s, {owed[0].id, "red/w", "hold", {}});
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.error().code, "unknown_decision");
}

TEST(CfeoFire, MusketryRollsADiePerBaseAndEachSixIsADp) {
  GameState s = started(initial_state(spec()));
  // The gun holds; on to the musketry phase, where blue's battalion sees red's
  // 100 yards off: 4 bases give fire.
  FixedDice none({});
  auto r = resolve(s, {answer(pending(s)[0], "hold")}, none);
  ASSERT_TRUE(r.ok());
  s = r->next;
  EXPECT_EQ(s.phase, Phase::kMusketry);
  const auto owed = pending(s);
  ASSERT_EQ(ids(owed), std::vector<std::string>{"musketry/blue_foot@blue/w"});
  FixedDice dice({6, 1, 6, 5});
  r = resolve(s, {answer(owed[0], "red_foot")}, dice);
  ASSERT_TRUE(r.ok()) << r.error().reason;
  EXPECT_EQ(r->next.units[1].dps, 2u);
  EXPECT_FALSE(r->next.units[1].artillery_dps);
  EXPECT_TRUE(r->next.units[0].fired);
}

TEST(CfeoSequence, AGameOfDefaultsRunsToItsTurnLimit) {
  std::unique_ptr<Game> game = make_game(spec(), Seed{});
  for (int step = 0; step < 200 && !game->finished(); ++step) {
    std::vector<Answer> answers;
    for (const auto& d : game->pending()) answers.push_back(answer(d, d.default_option));
    KeyedDice dice(Seed{}, game->step());
    auto r = game->resolve(answers, dice);
    ASSERT_TRUE(r.ok()) << r.error().reason;
    game = std::move(r->next);
  }
  EXPECT_TRUE(game->finished());
  EXPECT_EQ(game->turn(), 3u);
  FixedDice none({});
  EXPECT_FALSE(game->resolve({}, none).ok());
}

TEST(CfeoMorale, RedressRemovesADpFromAStationaryCGradeUnitNotShotByGuns) {
  GameState s = started(initial_state(spec()));
  s.units[1].dps = 2;  // red_foot
  s.phase = Phase::kCommand;
  s.guns[0].reserved = false;  // no close artillery
  // Every order halts, so red's battalion stands still and nothing shoots
  // at it before the morale phase.
  std::vector<Event> events;
  FixedDice none({});
  while (s.turn == 1) {
    std::vector<Answer> answers;
    for (const auto& d : pending(s)) answers.push_back(answer(d, d.default_option));
    auto r = resolve(s, answers, none);
    ASSERT_TRUE(r.ok()) << r.error().reason;
    events.insert(events.end(), r->events.begin(), r->events.end());
    s = r->next;
  }
  EXPECT_EQ(s.units[1].dps, 1u);
  const auto redressed = std::find_if(events.begin(), events.end(), [](const Event& e) { return e.kind == "redress"; });
  ASSERT_NE(redressed, events.end());
  EXPECT_EQ(plain_text(redressed->text), "red_foot redresses its ranks: 1 DP removed.");
}

}  // namespace
}  // namespace galloper::rules::cfeo
