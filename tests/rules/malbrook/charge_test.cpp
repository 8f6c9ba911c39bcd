// Malbrook "Cavalry Charges", "Charge Move", "Failure to contact",
// "Charging à l'outrance", "Charge Responses", with FixedDice.
//
// fr_h: 4 traditional horse bases (1" x 1¼") in line, front edge y=10,
// x 14..18, facing north. Opposite at y=13 (3" away) an enemy foot or horse
// brigade facing south. "fr" has initiative.
#include <gtest/gtest.h>

#include <array>
#include <map>
#include <optional>
#include <random>

#include "rules/core/dice.hpp"
#include "rules/core/tell.hpp"
#include "rules/malbrook/charge.hpp"
#include "rules/malbrook/combat.hpp"
#include "rules/malbrook/basing.hpp"
#include "rules/malbrook/manoeuvre.hpp"
#include "rules/malbrook/movement.hpp"
#include "tests/rules/malbrook/combat_helpers.hpp"

namespace galloper::rules::malbrook {
namespace {

using test::brigade;
using test::combat_state;
using test::modifier;
using test::option_answer;
using test::unit;

bool has_option(const Decision& d, std::string_view o) {
  for (const auto& x : d.options) {
    if (x.id == o) return true;
  }
  return false;
}

const Decision* find_decision(const std::vector<Decision>& ds, std::string_view id) {
  for (const auto& d : ds) {
    if (d.id == id) return &d;
  }
  return nullptr;
}

GameState horse_at_foot(double gap = 3) {
  return combat_state({unit("fr_h", "fr", TroopType::kHorse, {16, 10}, 0),
                       unit("al_b1", "al", TroopType::kFoot, {16, 10 + gap}, 180)});
}

// Answers every pending decision: `chosen` by id, else the default.
Verdict step(GameState& s, std::map<std::string, std::string> chosen, Dice& dice, std::vector<Event>& ev) {
  std::vector<Answer> answers;
  for (const auto& d : combat_pending(s)) {
    auto it = chosen.find(d.id);
    answers.push_back(option_answer(d.id, d.seat, it == chosen.end() ? d.default_option : it->second));
  }
  for (const auto& a : answers) {
    if (auto v = combat_check(s, a); !v) return v;
  }
  return combat_resolve(s, answers, dice, ev);
}

TEST(ChargeDeclare, CavalryNameATargetInTheirFront) {
  GameState s = horse_at_foot();
  const auto ds = combat_pending(s);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].id, "charge/fr_h");
  EXPECT_EQ(ds[0].seat, "fr/left");
  EXPECT_EQ(ds[0].default_option, "none");
  EXPECT_TRUE(has_option(ds[0], "charge:al_b1"));
  EXPECT_FALSE(has_option(ds[0], "outrance:al_b1"));  // traditional horse
  EXPECT_FALSE(has_option(ds[0], "evade"));
  // Foot never charge; halted cavalry may not initiate a charge.
  brigade(s, "fr_h").status |= static_cast<std::uint32_t>(Status::kHalted);
  EXPECT_TRUE(combat_pending(s).empty());
}

// "Brigades with a Halt reaction ... may not initiate a charge. Cavalry may,
// however, counter-charge if charged and, if unformed, may also evade."
TEST(ChargeDeclare, HaltedCavalryMayNotChargeButMayCounterChargeAndUnformedMayEvade) {
  for (const bool hussars : {false, true}) {
    SCOPED_TRACE(hussars ? "halted hussars" : "halted horse");
    GameState s = combat_state({unit("fr_h", "fr", TroopType::kHorse, {16, 10}, 0),
                                unit("al_h", "al", TroopType::kHorse, {16, 13}, 180)});
    Brigade& h = brigade(s, "al_h");
    h.control = ControlResult::kHalt;
    if (hussars) {
      h.type = TroopType::kHussars;
      h.formation = Formation::kUnformed;
    }
    auto ds = combat_pending(s);
    ASSERT_EQ(ds.size(), 1u);  // only fr_h declares: the halted brigade may not charge
    EXPECT_EQ(ds[0].id, "charge/fr_h");
    FixedDice dice(std::vector<int>{});
    std::vector<Event> ev;
    ASSERT_TRUE(step(s, {{"charge/fr_h", "charge:al_h"}}, dice, ev).ok());
    ds = combat_pending(s);
    const Decision* r = nullptr;
    for (const auto& d : ds) {
      if (d.id == "response/al_h") r = &d;
    }
    ASSERT_NE(r, nullptr);
    EXPECT_TRUE(has_option(*r, "counter_charge"));
    EXPECT_EQ(has_option(*r, "evade"), hussars);
  }
}

TEST(ChargeDeclare, ALOutranceForNewStyleHorseAndHussars) {
  GameState s = horse_at_foot();
  brigade(s, "fr_h").style = FightingStyle::kNew;
  auto ds = combat_pending(s);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_TRUE(has_option(ds[0], "outrance:al_b1"));
  brigade(s, "fr_h").style = FightingStyle::kTraditional;
  brigade(s, "fr_h").type = TroopType::kDragoons;
  EXPECT_FALSE(has_option(combat_pending(s)[0], "outrance:al_b1"));
  brigade(s, "fr_h").a_outrance = true;  // "some new style dragoons"
  EXPECT_TRUE(has_option(combat_pending(s)[0], "outrance:al_b1"));
}

TEST(ChargeDeclare, TargetOutsideTwentyTwoAndAHalfDegreesIsNotOffered) {
  // Far off to the side: no straight path within 22½° reaches it.
  GameState s = combat_state({unit("fr_h", "fr", TroopType::kHorse, {16, 10}, 0),
                              unit("al_b1", "al", TroopType::kFoot, {30, 12}, 180)});
  EXPECT_TRUE(combat_pending(s).empty());
}

// "Cavalry may charge any enemy unit they can see" (charge targets are the
// enemies the brigade's side sees): a wood across the table between the
// sides hides the foot from every French piece, and it is then not offered,
// though its path is as straight as before.
TEST(ChargeDeclare, AnEnemyTheSideCannotSeeIsNotOffered) {
  GameState s = combat_state({unit("fr_h", "fr", TroopType::kHorse, {16, 10}, 0),
                              unit("al_b1", "al", TroopType::kFoot, {16, 22}, 180)});
  {
    const auto ds = combat_pending(s);
    ASSERT_EQ(ds.size(), 1u);
    EXPECT_TRUE(has_option(ds[0], "charge:al_b1"));
  }
  Feature wood;
  wood.id = "w";
  wood.kind = TerrainKind::kWood;
  wood.points = {{0, 13}, {72, 13}, {72, 19}, {0, 19}};
  wood.closed = true;
  s.features.push_back(wood);
  s.terrain = make_terrain_map(s.features);
  EXPECT_TRUE(combat_pending(s).empty());
}

TEST(ChargeFlow, DeclareRespondDiceMoveAndFight) {
  GameState s = horse_at_foot();
  // 2 AvD 4+4 = 4": contact at 3". Then fr 5 dice (+1 charging), al 4 dice.
  FixedDice dice{4, 4, 6, 6, 6, 1, 1, 5, 1, 1, 1};
  std::vector<Event> ev;
  ASSERT_TRUE(step(s, {{"charge/fr_h", "charge:al_b1"}}, dice, ev).ok());
  ASSERT_EQ(s.combat.stage, CombatStage::kRespond);
  auto ds = combat_pending(s);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].id, "response/al_b1");
  EXPECT_EQ(ds[0].seat, "al/right");
  EXPECT_TRUE(has_option(ds[0], "stand"));
  EXPECT_TRUE(has_option(ds[0], "about_face"));  // charge from beyond 2"
  EXPECT_FALSE(has_option(ds[0], "counter_charge"));
  EXPECT_FALSE(has_option(ds[0], "refuse_flank"));  // a frontal charge
  ASSERT_TRUE(step(s, {}, dice, ev).ok());
  ASSERT_EQ(s.combat.stage, CombatStage::kDice);
  ds = combat_pending(s);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].id, "charge_dice/fr_h");
  EXPECT_TRUE(has_option(ds[0], "1"));
  EXPECT_TRUE(has_option(ds[0], "2"));
  EXPECT_FALSE(has_option(ds[0], "3"));  // stationary last turn: at most 2 dice
  ASSERT_TRUE(step(s, {{"charge_dice/fr_h", "2"}}, dice, ev).ok());
  ASSERT_TRUE(combat_resolved(s));
  EXPECT_EQ(dice.remaining(), 0u);
  EXPECT_NEAR(brigade(s, "fr_h").position.y, 13, 1e-6);  // moved 3" into contact
  EXPECT_EQ(s.combat.charges[0].contacted, "al_b1");
  ASSERT_EQ(s.combat.results.size(), 1u);
  const CombatResult& r = s.combat.results[0];
  EXPECT_EQ(r.a.army, "fr");
  EXPECT_EQ(r.a.bases, 4);
  EXPECT_EQ(modifier(r.a, "charging"), 1);
  EXPECT_EQ(r.a.dice, 5);
  EXPECT_EQ(r.b.dice, 4);
  EXPECT_EQ(r.difference, 2);
  EXPECT_EQ(r.a.parts[0].options, (std::vector<AfterAction>{AfterAction::kRetire}));  // charged foot
  EXPECT_EQ(r.b.parts[0].options, (std::vector<AfterAction>{AfterAction::kRemain}));  // foot charged by cavalry
  EXPECT_TRUE(brigade(s, "fr_h").has(Status::kMoved));
  EXPECT_EQ(brigade(s, "fr_h").move_dice, 2u);
}

TEST(ChargeFlow, FailureToContactMustChargeAgainNextTurn) {
  GameState s = horse_at_foot();
  FixedDice dice{2};  // 1 AvD: 1"
  std::vector<Event> ev;
  ASSERT_TRUE(step(s, {{"charge/fr_h", "charge:al_b1"}}, dice, ev).ok());
  ASSERT_TRUE(step(s, {}, dice, ev).ok());
  ASSERT_TRUE(step(s, {{"charge_dice/fr_h", "1"}}, dice, ev).ok());
  EXPECT_NEAR(brigade(s, "fr_h").position.y, 11, 1e-6);  // "The full distance rolled must be moved"
  EXPECT_TRUE(brigade(s, "fr_h").has(Status::kFailedCharge));
  EXPECT_FALSE(brigade(s, "fr_h").has(Status::kCharging));
  ASSERT_EQ(s.combat.failed.size(), 1u);
  EXPECT_TRUE(s.combat.results.empty());

  // Next turn: the control test did not give "act as player wishes".
  s.turn = 2;
  brigade(s, "fr_h").control = ControlResult::kContinue;
  auto ds = combat_pending(s);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_FALSE(has_option(ds[0], "none"));
  EXPECT_EQ(ds[0].default_option, "charge:al_b1");
  // With "act as player wishes" it need not.
  brigade(s, "fr_h").control = ControlResult::kAsWished;
  ds = combat_pending(s);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_TRUE(has_option(ds[0], "none"));
}

TEST(ChargeFlow, CounterChargeMeetsInTheMiddleAndBothCountCharging) {
  GameState s = combat_state({unit("fr_h", "fr", TroopType::kHorse, {16, 10}, 0),
                              unit("al_h", "al", TroopType::kHorse, {16, 14}, 180)});
  std::vector<Event> ev;
  FixedDice dice{4, 4, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};  // 2" each: they meet; then 5 dice each
  ASSERT_TRUE(step(s, {{"charge/fr_h", "charge:al_h"}}, dice, ev).ok());
  // al_h may declare its own charge in its half; it does not.
  auto ds = combat_pending(s);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].id, "charge/al_h");
  ASSERT_TRUE(step(s, {}, dice, ev).ok());
  ds = combat_pending(s);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_TRUE(has_option(ds[0], "counter_charge"));
  EXPECT_FALSE(has_option(ds[0], "evade"));  // formed horse
  ASSERT_TRUE(step(s, {{"response/al_h", "counter_charge"}}, dice, ev).ok());
  ds = combat_pending(s);
  ASSERT_EQ(ds.size(), 2u);  // both choose dice
  ASSERT_TRUE(step(s, {{"charge_dice/fr_h", "1"}, {"charge_dice/al_h", "1"}}, dice, ev).ok());
  EXPECT_NEAR(brigade(s, "fr_h").position.y, 12, 1e-6);
  EXPECT_NEAR(brigade(s, "al_h").position.y, 12, 1e-6);
  ASSERT_EQ(s.combat.results.size(), 1u);
  const CombatResult& r = s.combat.results[0];
  EXPECT_EQ(modifier(r.a, "charging"), 1);
  EXPECT_EQ(modifier(r.b, "charging"), 1);
  EXPECT_EQ(r.a.dice, 5);
  EXPECT_EQ(r.b.dice, 5);
  EXPECT_EQ(dice.remaining(), 0u);
}

TEST(ChargeFlow, HussarsEvadeAFullFastMoveForOneDp) {
  GameState s = combat_state({unit("fr_h", "fr", TroopType::kHorse, {16, 10}, 0),
                              unit("al_hu", "al", TroopType::kHussars, {16, 14}, 180)});
  std::vector<Event> ev;
  // Evade: 2 AvD + D6 = 5+5+6 -> 8" + 1½" initial. Then the charge: 2 AvD 5+5 = 5".
  FixedDice dice{5, 5, 6, 5, 5};
  ASSERT_TRUE(step(s, {{"charge/fr_h", "charge:al_hu"}}, dice, ev).ok());
  ASSERT_TRUE(step(s, {}, dice, ev).ok());  // al_hu declares nothing
  auto ds = combat_pending(s);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_TRUE(has_option(ds[0], "evade"));
  ASSERT_TRUE(step(s, {{"response/al_hu", "evade"}}, dice, ev).ok());
  ASSERT_TRUE(step(s, {{"charge_dice/fr_h", "2"}}, dice, ev).ok());
  EXPECT_TRUE(brigade(s, "al_hu").has(Status::kEvading));
  EXPECT_EQ(brigade(s, "al_hu").dps, 1u);
  EXPECT_NEAR(brigade(s, "al_hu").position.y, 23.5, 1e-6);
  EXPECT_TRUE(brigade(s, "fr_h").has(Status::kFailedCharge));
  EXPECT_TRUE(s.combat.results.empty());
}

TEST(ChargeFlow, FlankChargeFromBehindTheFlankUnlessRefused) {
  auto flank_state = [] {
    return combat_state({unit("fr_h", "fr", TroopType::kHorse, {21, 12.9}, 270),
                         unit("al_b1", "al", TroopType::kFoot, {16, 13}, 180)});
  };
  for (const std::string response : {"stand", "refuse_flank"}) {
    GameState s = flank_state();
    std::vector<Event> ev;
    std::vector<int> faces{4, 4};  // 4": contact at 3"
    for (int i = 0; i < 20; ++i) faces.push_back(1);
    FixedDice dice(faces);
    ASSERT_TRUE(step(s, {{"charge/fr_h", "charge:al_b1"}}, dice, ev).ok());
    const auto ds = combat_pending(s);
    ASSERT_EQ(ds.size(), 1u);
    ASSERT_TRUE(has_option(ds[0], "refuse_flank"));
    ASSERT_TRUE(step(s, {{"response/al_b1", response}}, dice, ev).ok());
    ASSERT_TRUE(step(s, {{"charge_dice/fr_h", "2"}}, dice, ev).ok());
    ASSERT_EQ(s.combat.results.size(), 1u) << response;
    const CombatResult& r = s.combat.results[0];
    EXPECT_EQ(modifier(r.b, "charged in the flank or rear"), response == "stand" ? -2 : 0) << response;
    // The end base in contact, and its neighbour whose 45° front arc reaches
    // the horse within 1" ("out to 45° from the flanks").
    EXPECT_EQ(r.b.bases, 2) << response;
    EXPECT_EQ(r.a.bases, 2) << response;  // the horse bases touching the flank
  }
}

// "Foot who stand to receive a charge from over 2 inches away may step-back
// an end stand ... to refuse a flank": the flank is refused by the stand that
// steps back. Foot that may not step back (E grade, not a single line: the
// manoeuvre's own limits) or whose end stand has no room behind it are not
// offered the refusal, and the charge from behind the flank counts (RULINGS C5).
TEST(ChargeFlow, NoRefusalWhereTheEndStandCannotStepBack) {
  auto flank_state = [] {
    return combat_state({unit("fr_h", "fr", TroopType::kHorse, {21, 12.9}, 270),
                         unit("al_b1", "al", TroopType::kFoot, {16, 13}, 180)});
  };
  auto response_options = [](GameState& s) {
    std::vector<Event> ev;
    FixedDice none{};
    EXPECT_TRUE(step(s, {{"charge/fr_h", "charge:al_b1"}}, none, ev).ok());
    const auto ds = combat_pending(s);
    return ds.size() == 1 ? ds[0] : Decision{};
  };
  GameState e = flank_state();
  brigade(e, "al_b1").grade = Grade::kE;
  Decision d = response_options(e);
  EXPECT_TRUE(has_option(d, "about_face"));
  EXPECT_FALSE(has_option(d, "refuse_flank"));

  GameState two = flank_state();
  brigade(two, "al_b1").bases = 8;
  brigade(two, "al_b1").formation = Formation::kTwoRankLine;
  d = response_options(two);
  EXPECT_FALSE(has_option(d, "refuse_flank"));

  // A friend touching the end stand's rear (the eastern stand, x 17..18, y 13..14).
  GameState boxed = flank_state();
  Brigade friend_behind = unit("al_b2", "al", TroopType::kFoot, {17.5, 14}, 180, 1);
  boxed.brigades.push_back(friend_behind);
  d = response_options(boxed);
  EXPECT_TRUE(has_option(d, "about_face"));
  EXPECT_FALSE(has_option(d, "refuse_flank"));
  // ... so the charge from behind the flank costs the -2.
  std::vector<int> faces{4, 4};
  for (int i = 0; i < 20; ++i) faces.push_back(1);
  FixedDice dice(faces);
  std::vector<Event> ev;
  ASSERT_TRUE(step(boxed, {{"response/al_b1", "stand"}}, dice, ev).ok());
  ASSERT_TRUE(step(boxed, {{"charge_dice/fr_h", "2"}}, dice, ev).ok());
  ASSERT_EQ(boxed.combat.results.size(), 1u);
  EXPECT_EQ(modifier(boxed.combat.results[0].b, "charged in the flank or rear"), -2);
}

// The refusing base is placed as the movement phase's "refuse_step_back"
// places it (RULINGS C5, M21): the end base on the charger's side, 1" back.
TEST(ChargeFlow, RefusingTheFlankStepsTheEndBaseBackAsTheMovementPhaseDoes) {
  GameState s = combat_state({unit("fr_h", "fr", TroopType::kHorse, {21, 12.9}, 270),
                              unit("al_b1", "al", TroopType::kFoot, {16, 13}, 180)});
  const Brigade before = brigade(s, "al_b1");
  std::vector<Event> ev;
  std::vector<int> faces{4, 4};
  for (int i = 0; i < 20; ++i) faces.push_back(1);
  FixedDice dice(faces);
  ASSERT_TRUE(step(s, {{"charge/fr_h", "charge:al_b1"}}, dice, ev).ok());
  ASSERT_TRUE(step(s, {{"response/al_b1", "refuse_flank"}}, dice, ev).ok());
  const Brigade& al = brigade(s, "al_b1");
  ASSERT_TRUE(has_refused_flank(pose_of(al)));
  // The same pose as the movement phase's step.
  OrderStep st;
  st.action = "refuse_step_back";
  st.pivot = "left";  // facing south, the horse come from the east: the left flank
  st.target = "1";
  st.distance = 1.0;
  StepContext ctx;
  ctx.grade = before.grade;
  const auto eff = manoeuvre_step(pose_of(before), st, ctx);
  ASSERT_TRUE(eff.ok());
  EXPECT_EQ(al.base_poses, eff->end.base_poses);
  // Only the eastern end base moved, 1" back (north).
  const auto was = footprint(before);
  const auto now = footprint(al);
  ASSERT_EQ(now.size(), was.size());
  int moved = 0;
  for (std::size_t i = 0; i < now.size(); ++i) {
    if (distance(now[i].center, was[i].center) < 1e-9) continue;
    ++moved;
    EXPECT_NEAR(now[i].center.y - was[i].center.y, 1.0, 1e-9);
    EXPECT_GT(was[i].center.x, 17);
  }
  EXPECT_EQ(moved, 1);
}

TEST(ChargeFlow, ALOutranceAgainstCavalryAddsTwoAndTakesTwoDpsWhenInconclusive) {
  GameState s = combat_state({unit("fr_h", "fr", TroopType::kHorse, {16, 10}, 0),
                              unit("al_h", "al", TroopType::kHorse, {16, 13}, 180)});
  brigade(s, "fr_h").style = FightingStyle::kNew;  // 1¼" bases: 5" wide
  brigade(s, "al_h").control = ControlResult::kHalt;  // halted: may not charge, may counter-charge
  std::vector<Event> ev;
  std::vector<int> faces{4, 4};
  // fr: 4 bases in contact? al_h is 4" wide: count what touches. All 1s: 0-0, inconclusive.
  for (int i = 0; i < 20; ++i) faces.push_back(1);
  FixedDice dice(faces);
  ASSERT_TRUE(step(s, {{"charge/fr_h", "outrance:al_h"}}, dice, ev).ok());
  ASSERT_TRUE(step(s, {{"response/al_h", "stand"}}, dice, ev).ok());
  ASSERT_TRUE(step(s, {{"charge_dice/fr_h", "2"}}, dice, ev).ok());
  ASSERT_EQ(s.combat.results.size(), 1u);
  const CombatResult& r = s.combat.results[0];
  EXPECT_EQ(modifier(r.a, "charging"), 1);
  EXPECT_EQ(modifier(r.a, "à l'outrance against cavalry or unformed foot"), 2);
  EXPECT_EQ(modifier(r.a, "supported"), 0);
  EXPECT_EQ(r.band_a, CombatBand::kInconclusive);
  EXPECT_EQ(brigade(s, "fr_h").dps, 2u);  // "Take 2 DPs if charged a l'outrance"
  EXPECT_EQ(brigade(s, "al_h").dps, 1u);
  // À l'outrance against a single rank of cavalry, inconclusive: ride through.
  EXPECT_EQ(r.a.parts[0].options, (std::vector<AfterAction>{AfterAction::kRideThrough2, AfterAction::kRideThrough3}));
}

// "+1/-1 ... Cavalry who charged à l'outrance against dismounted dragoons or
// a single rank of enemy cavalry, ride-through" -- though dismounted dragoons
// are foot, and "Cavalry who charged foot retire".
TEST(ChargeFlow, HussarsALOutranceAgainstDismountedDragoonsInconclusiveRideThrough) {
  GameState s = combat_state({unit("fr_hu", "fr", TroopType::kHussars, {16, 10}, 0),
                              unit("al_dd", "al", TroopType::kDismountedDragoons, {16, 13}, 180)});
  std::vector<Event> ev;
  std::vector<int> faces{4, 4};
  for (int i = 0; i < 20; ++i) faces.push_back(1);  // no hits either side: inconclusive
  FixedDice dice(faces);
  ASSERT_TRUE(step(s, {{"charge/fr_hu", "outrance:al_dd"}}, dice, ev).ok());
  ASSERT_TRUE(step(s, {{"response/al_dd", "stand"}}, dice, ev).ok());
  ASSERT_TRUE(step(s, {{"charge_dice/fr_hu", "2"}}, dice, ev).ok());
  ASSERT_EQ(s.combat.results.size(), 1u);
  const CombatResult& r = s.combat.results[0];
  ASSERT_EQ(r.band_a, CombatBand::kInconclusive);
  EXPECT_EQ(r.a.parts[0].options, (std::vector<AfterAction>{AfterAction::kRideThrough2, AfterAction::kRideThrough3}));
  // The dragoons, inconclusive against cavalry, remain or retire.
  EXPECT_EQ(r.b.parts[0].options, (std::vector<AfterAction>{AfterAction::kRemain, AfterAction::kRetire}));
}

TEST(ChargeFlow, FootThatMovedChargedByCavalryLoseTwo) {
  GameState s = horse_at_foot();
  brigade(s, "al_b1").status |= static_cast<std::uint32_t>(Status::kMoved);
  std::vector<Event> ev;
  std::vector<int> faces{4, 4};
  for (int i = 0; i < 20; ++i) faces.push_back(1);
  FixedDice dice(faces);
  ASSERT_TRUE(step(s, {{"charge/fr_h", "charge:al_b1"}}, dice, ev).ok());
  ASSERT_TRUE(step(s, {}, dice, ev).ok());
  ASSERT_TRUE(step(s, {{"charge_dice/fr_h", "2"}}, dice, ev).ok());
  ASSERT_EQ(s.combat.results.size(), 1u);
  EXPECT_EQ(modifier(s.combat.results[0].b, "foot that moved, charged by cavalry"), -2);
}

// Control, the exceptions to the control test: "Brigades which form rear
// lines of a command and are within 4 inches, directly behind a controlled
// brigade of the same command, may also conform to moves made by the lead
// controlled brigade as above. In this case however the rear brigade does not
// charge if the lead brigade charges." (RULINGS C19)
TEST(ChargeDeclare, ConformingRearLineMayNotDeclareACharge) {
  // fr_h2 1¼" directly behind fr_h1 (same command c1); al_b1 3" in front.
  GameState s = combat_state({unit("fr_h1", "fr", TroopType::kHorse, {16, 10}, 0),
                              unit("fr_h2", "fr", TroopType::kHorse, {16, 7.5}, 0),
                              unit("al_b1", "al", TroopType::kFoot, {16, 13}, 180)});
  // Acting as it wishes (it tested), it may charge.
  auto ds = combat_pending(s);
  const Decision* d = find_decision(ds, "charge/fr_h2");
  ASSERT_NE(d, nullptr);
  EXPECT_TRUE(has_option(*d, "charge:al_b1"));
  EXPECT_TRUE(may_declare_charge(s, brigade(s, "fr_h2")).ok());

  Brigade& rear = brigade(s, "fr_h2");
  rear.control = ControlResult::kConforming;
  rear.conform_to = "fr_h1";
  rear.conform_behind = true;
  ds = combat_pending(s);
  EXPECT_EQ(find_decision(ds, "charge/fr_h2"), nullptr);  // no charge to declare
  ASSERT_NE(find_decision(ds, "charge/fr_h1"), nullptr);  // the lead may
  const Verdict v = may_declare_charge(s, brigade(s, "fr_h2"));
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.error().code, "conforming_rear_line");
  EXPECT_NE(v.error().reason.find("does not charge if the lead brigade charges"), std::string::npos);
  EXPECT_FALSE(combat_check(s, option_answer("charge/fr_h2", "fr/left", "charge:al_b1")).ok());

  // The lead charges; the rear line stays (and, not charged, has no response).
  FixedDice dice(std::vector<int>{});
  std::vector<Event> ev;
  ASSERT_TRUE(step(s, {{"charge/fr_h1", "charge:al_b1"}}, dice, ev).ok());
  ASSERT_EQ(s.combat.charges.size(), 1u);
  EXPECT_EQ(s.combat.charges[0].charger, "fr_h1");
  EXPECT_FALSE(brigade(s, "fr_h2").has(Status::kCharging));
}

// "Brigades which are part of a continuous line, in base to base contact with
// a controlled brigade of the same command, may conform to moves made by the
// controlled brigade. This means if the controlled brigade halts they halt, if
// it moves, they move with it, if it charges they charge. They only need to
// take a control test if they wish to attempt any different actions."
// (RULINGS C19)
GameState line_of_horse() {
  // fr_h1 (x 14..18) and fr_h2 (x 18..22) side by side, fr_h2 conforming to
  // fr_h1; al_b1 and al_b2 3" in front of each.
  GameState s = combat_state({unit("fr_h1", "fr", TroopType::kHorse, {16, 10}, 0),
                              unit("fr_h2", "fr", TroopType::kHorse, {20, 10}, 0),
                              unit("al_b1", "al", TroopType::kFoot, {16, 13}, 180),
                              unit("al_b2", "al", TroopType::kFoot, {20, 13}, 180)});
  Brigade& b = brigade(s, "fr_h2");
  b.control = ControlResult::kConforming;
  b.conform_to = "fr_h1";
  return s;
}

TEST(ChargeDeclare, LineConformerChargesWhenItsLeadChargesAndOnlyThen) {
  GameState s = line_of_horse();
  const auto ds = combat_pending(s);
  const Decision* d = find_decision(ds, "charge/fr_h2");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->default_option, "conform");
  EXPECT_FALSE(has_option(*d, "none"));  // not charging with the lead is a different action: a control test
  EXPECT_TRUE(has_option(*d, "charge:al_b2"));
  EXPECT_NE(plain_text(d->prompt).find("if fr_h1 charges"), std::string::npos);
  EXPECT_TRUE(has_option(*find_decision(ds, "charge/fr_h1"), "none"));
  EXPECT_TRUE(may_declare_charge(s, brigade(s, "fr_h2")).ok());

  FixedDice dice(std::vector<int>{});
  std::vector<Event> ev;
  {
    SCOPED_TRACE("the lead does not charge: neither does the line, whatever it named");
    for (const char* opt : {"conform", "charge:al_b2"}) {
      GameState t = s;
      ASSERT_TRUE(step(t, {{"charge/fr_h1", "none"}, {"charge/fr_h2", opt}}, dice, ev).ok());
      EXPECT_TRUE(t.combat.charges.empty());
      EXPECT_FALSE(brigade(t, "fr_h2").has(Status::kCharging));
    }
  }
  {
    SCOPED_TRACE("the lead charges; conforming, the line charges the lead's target it can reach");
    GameState t = s;
    brigade(t, "fr_h1").style = FightingStyle::kNew;  // the lead goes in à l'outrance; traditional fr_h2 may not
    ASSERT_TRUE(step(t, {{"charge/fr_h1", "outrance:al_b1"}}, dice, ev).ok());
    ASSERT_EQ(t.combat.charges.size(), 2u);
    const ChargeDeclaration* c = t.combat.charges[0].charger == "fr_h2" ? &t.combat.charges[0] : &t.combat.charges[1];
    EXPECT_EQ(c->charger, "fr_h2");
    EXPECT_EQ(c->target, "al_b1");
    EXPECT_FALSE(c->a_outrance);
    EXPECT_TRUE(brigade(t, "fr_h2").has(Status::kCharging));
  }
  {
    SCOPED_TRACE("the lead charges; the line charges the target named for it");
    GameState t = s;
    ASSERT_TRUE(step(t, {{"charge/fr_h1", "charge:al_b1"}, {"charge/fr_h2", "charge:al_b2"}}, dice, ev).ok());
    ASSERT_EQ(t.combat.charges.size(), 2u);
    for (const auto& c : t.combat.charges) EXPECT_EQ(c.target, c.charger == "fr_h1" ? "al_b1" : "al_b2");
  }
}

TEST(ChargeDeclare, LineConformerTakesItsNearestTargetWhenTheLeadsIsOutOfReach) {
  // al_b1 off to the left (x 11..15): fr_h1 reaches it, fr_h2 (x 18..22) does not.
  GameState s = line_of_horse();
  brigade(s, "al_b1").position = {13, 13};
  brigade(s, "al_b2").position = {21, 13};
  const auto ds = combat_pending(s);
  const Decision* d = find_decision(ds, "charge/fr_h2");
  ASSERT_NE(d, nullptr);
  ASSERT_FALSE(has_option(*d, "charge:al_b1"));
  FixedDice dice(std::vector<int>{});
  std::vector<Event> ev;
  ASSERT_TRUE(step(s, {{"charge/fr_h1", "charge:al_b1"}}, dice, ev).ok());
  ASSERT_EQ(s.combat.charges.size(), 2u);
  for (const auto& c : s.combat.charges) EXPECT_EQ(c.target, c.charger == "fr_h1" ? "al_b1" : "al_b2");
}

TEST(ChargeDeclare, LineConformerWhoseLeadCannotChargeMayNot) {
  // "if the controlled brigade halts they halt": a lead halted by a steady
  // (halt marker) may not charge, and so neither may the line.
  GameState s = line_of_horse();
  brigade(s, "fr_h1").status |= static_cast<std::uint32_t>(Status::kHalted);
  const auto ds = combat_pending(s);
  EXPECT_TRUE(ds.empty());
  const Verdict v = may_declare_charge(s, brigade(s, "fr_h2"));
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.error().code, "conforming_lead_cannot_charge");
  EXPECT_NE(v.error().reason.find("if it charges they charge"), std::string::npos);
  // A brigade acting as it wishes is not tied to its neighbour.
  brigade(s, "fr_h2").control = ControlResult::kAsWished;
  EXPECT_TRUE(may_declare_charge(s, brigade(s, "fr_h2")).ok());
  // A Halt reaction is its own reason.
  brigade(s, "fr_h2").control = ControlResult::kHalt;
  EXPECT_EQ(may_declare_charge(s, brigade(s, "fr_h2")).error().code, "halt_reaction");
}

TEST(ChargeCheck, WrongSeatAndBadOptionAreRefused) {
  GameState s = horse_at_foot();
  EXPECT_FALSE(combat_check(s, option_answer("charge/fr_h", "al/right", "none")).ok());
  EXPECT_FALSE(combat_check(s, option_answer("charge/fr_h", "fr/left", "charge:nobody")).ok());
  EXPECT_TRUE(combat_check(s, option_answer("charge/fr_h", "fr/left", "charge:al_b1")).ok());
}


// "It is an additional move in the combat phase and may be made by those who
// also moved during the movement phase"; the charge move takes "any DPs for
// fatigue and disorder from their move dice" (a 6 on the D6 in good going).
TEST(ChargeFlow, CavalryThatMovedMayChargeAndTakeFatigueDpsFromTheChargeDice) {
  GameState s = horse_at_foot(8);
  Brigade& h = brigade(s, "fr_h");
  h.status |= static_cast<std::uint32_t>(Status::kMoved);
  s.turn = 2;
  record_move_dice(h, 1, 1);  // 1 AvD last turn: up to 3 dice this turn
  record_move_dice(h, 2, 2);  // 2 AvD in this turn's movement phase
  std::vector<Event> ev;
  FixedDice dice{2, 2, 6};  // 2 AvD + D6: 5"
  auto ds = combat_pending(s);
  ASSERT_EQ(ds.size(), 1u);
  ASSERT_TRUE(has_option(ds[0], "charge:al_b1"));
  ASSERT_TRUE(step(s, {{"charge/fr_h", "charge:al_b1"}}, dice, ev).ok());
  ASSERT_TRUE(step(s, {}, dice, ev).ok());
  ds = combat_pending(s);
  ASSERT_EQ(ds.size(), 1u);
  ASSERT_TRUE(has_option(ds[0], "3"));
  ASSERT_TRUE(step(s, {{"charge_dice/fr_h", "3"}}, dice, ev).ok());
  EXPECT_NEAR(brigade(s, "fr_h").position.y, 15, 1e-6);  // 5" of the 8": it fails to contact
  EXPECT_TRUE(brigade(s, "fr_h").has(Status::kFailedCharge));
  EXPECT_EQ(brigade(s, "fr_h").dps, 1u);  // the 6
}

// "Charge Move. To conduct a charge a brigade must roll at least one move
// die": its move dice are the normal move's, "Cavalry 1 or 2 AvD ... Both may
// add an additional optional D6", and "Cavalry may only change speed by up to
// 2 dice per turn" -- 1 AvD + D6 is two dice, open to a stationary brigade.
TEST(ChargeFlow, CavalryMayChargeOnOneAverageDieAndAD6) {
  GameState s = horse_at_foot(4);
  std::vector<Event> ev;
  std::vector<int> faces{3, 6};  // AvD 3 + D6 6 = 4.5": contact at 4"
  for (int i = 0; i < 20; ++i) faces.push_back(1);  // the combat
  FixedDice dice(faces);
  ASSERT_TRUE(step(s, {{"charge/fr_h", "charge:al_b1"}}, dice, ev).ok());
  ASSERT_TRUE(step(s, {}, dice, ev).ok());
  auto ds = combat_pending(s);
  ASSERT_EQ(ds.size(), 1u);
  std::vector<std::string> options;
  for (const auto& o : ds[0].options) options.push_back(o.id);
  EXPECT_EQ(options, (std::vector<std::string>{"1", "2", "1+d6"}));  // stationary: at most two dice
  EXPECT_EQ(ds[0].default_option, "2");
  EXPECT_TRUE(combat_check(s, option_answer("charge_dice/fr_h", "fr/left", "1+d6")).ok());
  EXPECT_FALSE(combat_check(s, option_answer("charge_dice/fr_h", "fr/left", "3")).ok());
  ASSERT_TRUE(step(s, {{"charge_dice/fr_h", "1+d6"}}, dice, ev).ok());
  ASSERT_EQ(s.combat.charges.size(), 1u);
  EXPECT_EQ(s.combat.charges[0].faces, (std::vector<int>{3, 6}));
  EXPECT_NEAR(s.combat.charges[0].inches, 4.5, 1e-9);
  EXPECT_EQ(s.combat.charges[0].contacted, "al_b1");
  EXPECT_EQ(brigade(s, "fr_h").dps, 2u);  // the 6 on the D6 (fatigue), then the inconclusive combat's
  EXPECT_EQ(brigade(s, "fr_h").move_dice, 2u);  // two dice for the change of speed
  // After three dice last turn, 1 AvD + D6 is among 1 to 3 dice.
  GameState t = horse_at_foot(4);
  t.turn = 2;
  record_move_dice(brigade(t, "fr_h"), 1, 3);
  ASSERT_TRUE(step(t, {{"charge/fr_h", "charge:al_b1"}}, dice, ev).ok());
  ASSERT_TRUE(step(t, {}, dice, ev).ok());
  ds = combat_pending(t);
  ASSERT_EQ(ds.size(), 1u);
  options.clear();
  for (const auto& o : ds[0].options) options.push_back(o.id);
  EXPECT_EQ(options, (std::vector<std::string>{"1", "2", "1+d6", "3"}));
}
}  // namespace
}  // namespace galloper::rules::malbrook

namespace galloper::rules::malbrook {
namespace {

// charge_path skips targets no direction can reach (the box of the
// translations onto them lies behind, beyond the reach or outside the 22.5
// degree cone: may_reach) and directions whose contact, by a cheap lower bound
// (ContactBound), cannot be within reach or cannot beat the best found so far
// (charge.cpp). Against every direction tried with first_contact, as the
// straightforward sweep does: the same path (deviation, direction, contact)
// on random chargers and targets near, touching, overlapping, far and behind,
// rotated every way and square to the table, faces turned to make near ties,
// rectangles and L-shaped (non-convex) targets, with short and long reaches.
TEST(ChargePath, SkippingDirectionsChangesNoPath) {
  std::mt19937 g(20261121);
  auto real = [&](double lo, double hi) { return lo + (hi - lo) * (static_cast<double>(g()) / 4294967296.0); };
  int found = 0, refused = 0, touching = 0;
  for (int i = 0; i < 12000; ++i) {
    // A third square to the table or at 45 degrees (exact sines and cosines,
    // edges parallel to the target's).
    auto facing = [&] { return i % 3 == 1 ? 45.0 * static_cast<int>(real(0, 8)) : real(0, 360); };
    const OrientedRect charger{{real(-2, 2), real(-2, 2)}, real(0.5, 6), real(0.5, 3), facing()};
    const double spread = i % 4 == 0 ? 3 : 14;  // a quarter close enough to touch or overlap
    OrientedRect target{{real(-spread, spread), real(-spread, spread)}, real(0.3, 6), real(0.3, 3), facing()};
    if (i % 10 == 5) {
      // Face to face, front edges touching, or a hair apart either way.
      const double apart = std::array{0.0, 1e-10, -1e-10, 1e-7, 0.25}[static_cast<std::size_t>(real(0, 5))];
      target = OrientedRect::from_front_mid(charger.front_mid() + charger.forward() * apart, real(0.3, 6), real(0.3, 3),
                                            charger.facing_deg + 180);
      target.center = target.center + charger.right() * real(-4, 4);
    }
    if (i % 10 == 7) {
      // A wide target whose face is turned an odd number of half steps
      // (0.125 degrees) from square: two directions either side of its normal
      // reach it at the same distance give or take rounding (near ties).
      const double turn = 0.125 * (2 * static_cast<int>(real(-40, 40)) + 1);
      const double along = real(1, 20);
      const Vec2 ahead = facing_unit(charger.facing_deg + turn);
      target = OrientedRect::from_front_mid(charger.center + ahead * along, real(20, 40), real(0.3, 3),
                                            charger.facing_deg + turn + 180);
    }
    const double reach = i % 3 == 0 ? 1000 : real(0.5, 12);
    const Polygon poly = charger.polygon();
    Polygon tpoly = target.polygon();
    if (i % 7 == 3) {
      // An L: the rectangle with a notch out of one corner.
      const auto c = target.corners();
      const Vec2 mid_a = (c[0] + c[1]) * 0.5, mid_b = (c[1] + c[2]) * 0.5, inner = (c[0] + c[2]) * 0.5;
      tpoly.points = {c[0], mid_a, inner, mid_b, c[2], c[3]};
    }
    std::optional<ChargePath> every;
    for (int k = 0; k <= 180; ++k) {
      const int j = (k + 1) / 2 * (k % 2 == 1 ? 1 : -1);
      const double dev = j * 0.25;
      const Vec2 dir = facing_unit(charger.facing_deg + dev);
      auto c = first_contact(poly, dir, reach, tpoly);
      if (c && (!every || *c < every->contact - 1e-9)) every = ChargePath{dev, dir, *c};
    }
    const auto quick = charge_path(charger, tpoly, reach);
    ASSERT_EQ(every.has_value(), quick.has_value()) << "case " << i;
    if (!every) {
      ++refused;
      continue;
    }
    ++found;
    if (every->contact == 0) ++touching;
    EXPECT_EQ(every->deviation_deg, quick->deviation_deg) << "case " << i;
    EXPECT_EQ(every->dir, quick->dir) << "case " << i;
    EXPECT_EQ(every->contact, quick->contact) << "case " << i;
  }
  EXPECT_GT(touching, 200);
  // Both kinds of case came up.
  EXPECT_GT(found, 400);
  EXPECT_GT(refused, 400);
}

}  // namespace
}  // namespace galloper::rules::malbrook
