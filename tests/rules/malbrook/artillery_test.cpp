// Artillery fire ("Artillery Fire", "Guns in Combat", "Guns", the Bombardment
// and Close Artillery Fire phases of the "Sequence of Play").
#include <gtest/gtest.h>

#include "rules/core/dice.hpp"
#include "rules/core/geometry.hpp"
#include "rules/malbrook/artillery.hpp"
#include "rules/malbrook/damage.hpp"
#include "rules/malbrook/engine.hpp"
#include "tests/rules/malbrook/artillery_helpers.hpp"
#include "tests/rules/malbrook/bot.hpp"
#include "tests/rules/malbrook/golden_files.hpp"

namespace galloper::rules::malbrook {
namespace {

using test::answers_with;
using test::brigade;
using test::find_decision;
using test::gun;
using test::gun_state;
using test::has_event;
using test::leader;
using test::make_brigade;
using test::make_gun;
using test::option_answer;
using test::option_ids;

std::vector<std::string> targets(const GameState& s, std::string_view gun_id, FirePhase phase = FirePhase::kBombardment) {
  std::vector<std::string> out;
  for (const auto& t : allowed_targets(s, *s.find_gun(gun_id), phase)) out.push_back(t.id);
  return out;
}

FireTarget target_of(const GameState& s, std::string_view gun_id, std::string_view id) {
  for (const auto& t : eligible_targets(s, *s.find_gun(gun_id), FirePhase::kBombardment)) {
    if (t.id == id) return t;
  }
  ADD_FAILURE() << id << " is not an eligible target";
  return {};
}

// Puts fr_mg1 (Major General of c1) right behind the gun: it is under control.
void control_gun(GameState& s) { leader(s, "fr_mg1").position = {30, 7}; }

// ---- Eligibility ----

TEST(ArtilleryEligibility, UnlimberedGunFiresAtAnEnemyInRangeToItsFront) {
  GameState s = gun_state(6);
  EXPECT_EQ(targets(s, "fr_g1"), (std::vector<std::string>{"al_b1"}));
  const auto ds = pending(s);
  const Decision* d = find_decision(ds, "fire/fr_g1");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->seat, "fr/left");
  EXPECT_EQ(d->kind, "artillery_fire");
  EXPECT_EQ(d->default_option, "hold");
  EXPECT_EQ(option_ids(*d), (std::vector<std::string>{"hold", "al_b1"}));
}

TEST(ArtilleryEligibility, LimberedAbandonedOrCrewlessGunsDoNotFire) {
  GameState s = gun_state(6);
  gun(s, "fr_g1").limbered = true;
  EXPECT_TRUE(targets(s, "fr_g1").empty());
  gun(s, "fr_g1").limbered = false;
  gun(s, "fr_g1").status = static_cast<std::uint32_t>(Status::kAbandoned);
  EXPECT_TRUE(targets(s, "fr_g1").empty());
  gun(s, "fr_g1").status = static_cast<std::uint32_t>(Status::kCrewEliminated);
  EXPECT_TRUE(targets(s, "fr_g1").empty());
}

TEST(ArtilleryEligibility, TargetMustBeWithin45DegreesOfTheFront) {
  GameState s = gun_state(6);
  // 10" to the east and 6" ahead: well outside the 45° arc from the front corners.
  brigade(s, "al_b1").position = {44, 14};
  EXPECT_TRUE(targets(s, "fr_g1").empty());
  // Just inside the arc: the line's left end (x 38..42 for a 4" line at 40)
  // with the front corner at x 30.75: 7.25" out, 8" ahead.
  brigade(s, "al_b1").position = {40, 18};
  EXPECT_EQ(targets(s, "fr_g1"), (std::vector<std::string>{"al_b1"}));
  // Behind the gun.
  brigade(s, "al_b1").position = {30, 4};
  EXPECT_TRUE(targets(s, "fr_g1").empty());
}

TEST(ArtilleryEligibility, RangesByWeight) {
  GameState s = gun_state(30);
  EXPECT_EQ(targets(s, "fr_g1"), (std::vector<std::string>{"al_b1"}));  // medium: 36"
  gun(s, "fr_g1").weight = GunWeight::kHeavy;
  EXPECT_EQ(targets(s, "fr_g1"), (std::vector<std::string>{"al_b1"}));  // heavy: 36"
  gun(s, "fr_g1").weight = GunWeight::kLight;
  EXPECT_TRUE(targets(s, "fr_g1").empty());                                // light: 24"
  s = gun_state(24);
  gun(s, "fr_g1").weight = GunWeight::kLight;
  EXPECT_EQ(targets(s, "fr_g1"), (std::vector<std::string>{"al_b1"}));
  s = gun_state(36.5);
  EXPECT_TRUE(targets(s, "fr_g1").empty());
}

TEST(ArtilleryEligibility, NeedsLineOfSight) {
  GameState s = gun_state(10);
  // A formed French brigade 4" ahead of the gun blocks its view.
  s.brigades.push_back(make_brigade("fr_b9", "fr", "left", "c1", {30, 14}, 0));
  EXPECT_TRUE(targets(s, "fr_g1").empty());
}

TEST(ArtilleryEligibility, TargetMustBeBeyondOneInchOfFriends) {
  GameState s = gun_state(10);
  // A French brigade 1" from the Allied line, off to the side (not in the way).
  s.brigades.push_back(make_brigade("fr_b9", "fr", "left", "c1", {35, 20}, 0));
  EXPECT_TRUE(targets(s, "fr_g1").empty());
  brigade(s, "fr_b9").position = {35.5, 20};  // 1.5" away now
  EXPECT_EQ(targets(s, "fr_g1"), (std::vector<std::string>{"al_b1"}));
}

TEST(ArtilleryEligibility, NearestUnlessUnderControl) {
  GameState s = gun_state(6);
  brigade(s, "al_b2").position = {36, 22};  // 12" ahead, 5"+ to the right, seen past al_b1's end
  const auto all = eligible_targets(s, s.guns[0], FirePhase::kBombardment);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].id, "al_b1");
  EXPECT_EQ(targets(s, "fr_g1"), (std::vector<std::string>{"al_b1"}));
  control_gun(s);
  EXPECT_TRUE(gun_under_control(s, s.guns[0], FirePhase::kBombardment));
  EXPECT_EQ(targets(s, "fr_g1"), (std::vector<std::string>{"al_b1", "al_b2"}));
  const auto ds = pending(s);
  ASSERT_NE(find_decision(ds, "fire/fr_g1"), nullptr);
  EXPECT_EQ(option_ids(*find_decision(ds, "fire/fr_g1")), (std::vector<std::string>{"hold", "al_b1", "al_b2"}));
}

// allowed_targets judges the nearest targets first and the farther ones
// only for a gun under control: it must give exactly the rule written out
// plainly -- every eligible target for a gun under control, else those as
// near as the nearest. Checked for every gun in every artillery phase of
// Blenheim and the demo (two seeds each) played by the bot for five turns.
TEST(ArtilleryEligibility, AllowedTargetsAreTheNearestEligibleUnlessUnderControl) {
  int nearest_cut = 0;   // uncontrolled guns with farther eligible targets left out
  int controlled = 0;    // controlled guns with more than one target
  int checked = 0;
  for (const auto& [scenario, seed] : {std::pair{"blenheim", 3u}, {"blenheim", 11u}, {"demo", 5u}, {"demo", 8u}}) {
    GameState s = test::scenario_state(scenario, test::bot_seed(seed));
    test::Bot bot(seed);
    for (int step = 0; step < 2000 && !finished(s) && s.turn <= 5; ++step) {
      if (s.phase == Phase::kBombardment || s.phase == Phase::kCloseFire) {
        const FirePhase phase = s.phase == Phase::kCloseFire ? FirePhase::kCloseFire : FirePhase::kBombardment;
        for (const Gun& g : s.guns) {
          std::vector<FireTarget> want = eligible_targets(s, g, phase);
          const bool under_control = gun_under_control(s, g, phase);
          if (!under_control && !want.empty()) {
            const double nearest = want.front().distance;
            const auto before = want.size();
            std::erase_if(want, [&](const FireTarget& t) { return t.distance > nearest + 1e-6; });
            nearest_cut += want.size() < before ? 1 : 0;
          }
          controlled += under_control && want.size() > 1 ? 1 : 0;
          std::vector<std::string> want_ids, got_ids;
          for (const auto& t : want) want_ids.push_back(t.id);
          for (const auto& t : allowed_targets(s, g, phase)) got_ids.push_back(t.id);
          EXPECT_EQ(got_ids, want_ids) << scenario << " seed " << seed << " turn " << s.turn << " " << g.id;
          ++checked;
        }
      }
      auto r = test::resolve_bot_step(s, bot.answers(s));
      ASSERT_TRUE(r.ok()) << r.error().reason;
      s = std::move(r->next);
    }
  }
  std::printf("[ checked  ] %d guns, %d cut to the nearest, %d under control with several\n", checked, nearest_cut, controlled);
  // Both branches of the rule are met, or the comparison would prove little.
  EXPECT_GT(checked, 100);
  EXPECT_GT(nearest_cut, 5);
  EXPECT_GT(controlled, 5);
}

// Two enemies exactly as near (mirror images about the gun's line of fire):
// a gun not under control may choose either.
TEST(ArtilleryEligibility, TargetsAsNearAsTheNearestAreAllAllowed) {
  GameState s = gun_state(6);
  brigade(s, "al_b1").position = {25, 17};
  brigade(s, "al_b2").position = {35, 17};
  ASSERT_FALSE(gun_under_control(s, s.guns[0], FirePhase::kBombardment));
  EXPECT_EQ(targets(s, "fr_g1"), (std::vector<std::string>{"al_b1", "al_b2"}));
  brigade(s, "al_b2").position = {35, 17.5};  // half an inch farther
  EXPECT_EQ(targets(s, "fr_g1"), (std::vector<std::string>{"al_b1"}));
}

TEST(ArtilleryEligibility, CloseFirePhaseOnlyWithinTwoInches) {
  GameState s = gun_state(6);
  s.phase = Phase::kCloseFire;
  EXPECT_TRUE(targets(s, "fr_g1", FirePhase::kCloseFire).empty());
  EXPECT_TRUE(pending(s).empty());
  s = gun_state(1.5);
  s.phase = Phase::kCloseFire;
  EXPECT_EQ(targets(s, "fr_g1", FirePhase::kCloseFire), (std::vector<std::string>{"al_b1"}));
}

TEST(ArtilleryEligibility, CloseFireAfterBombardmentUnlessThatWasAtCloseRange) {
  GameState s = gun_state(1.5);
  s.phase = Phase::kCloseFire;
  gun(s, "fr_g1").bombarded_turn = 1;
  gun(s, "fr_g1").bombarded_close = false;
  EXPECT_TRUE(gun_may_fire(s, s.guns[0], FirePhase::kCloseFire));
  gun(s, "fr_g1").bombarded_close = true;
  EXPECT_FALSE(gun_may_fire(s, s.guns[0], FirePhase::kCloseFire));
  gun(s, "fr_g1").bombarded_turn = 0;  // last turn's shot does not count... turn 1 has none before
  EXPECT_TRUE(gun_may_fire(s, s.guns[0], FirePhase::kCloseFire));
}

TEST(ArtilleryEligibility, GunsInCombatFireInCloseFireOnlyIfSilentInBombardment) {
  GameState s = gun_state(0.5);  // enemy foot within 1": close combat
  EXPECT_FALSE(gun_may_fire(s, s.guns[0], FirePhase::kBombardment));
  EXPECT_TRUE(gun_may_fire(s, s.guns[0], FirePhase::kCloseFire));
  gun(s, "fr_g1").bombarded_turn = 1;
  EXPECT_FALSE(gun_may_fire(s, s.guns[0], FirePhase::kCloseFire));
}

TEST(ArtilleryEligibility, HowitzersFireIndirectlyInBombardmentOnly) {
  GameState s = gun_state(10);
  gun(s, "fr_g1").weight = GunWeight::kHowitzer;
  EXPECT_TRUE(eligible_targets(s, s.guns[0], FirePhase::kBombardment).empty());
  const auto ds = pending(s);
  const Decision* d = find_decision(ds, "aim/fr_g1");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->kind, "artillery_aim");
  s.phase = Phase::kCloseFire;
  EXPECT_FALSE(gun_may_fire(s, s.guns[0], FirePhase::kCloseFire));
}

// ---- Modifiers ----

TEST(ArtilleryModifiers, GunWeight) {
  GameState s = gun_state(6);
  EXPECT_EQ(direct_fire_modifiers(s, s.guns[0], target_of(s, "fr_g1", "al_b1")).weight, 0);
  gun(s, "fr_g1").weight = GunWeight::kHeavy;
  EXPECT_EQ(direct_fire_modifiers(s, s.guns[0], target_of(s, "fr_g1", "al_b1")).weight, 1);
  gun(s, "fr_g1").weight = GunWeight::kLight;
  EXPECT_EQ(direct_fire_modifiers(s, s.guns[0], target_of(s, "fr_g1", "al_b1")).weight, -1);
}

TEST(ArtilleryModifiers, EachDpOnTheFiringGun) {
  GameState s = gun_state(6);
  gun(s, "fr_g1").dps = 2;
  EXPECT_EQ(direct_fire_modifiers(s, s.guns[0], target_of(s, "fr_g1", "al_b1")).gun_dps, -2);
}

TEST(ArtilleryModifiers, BeyondEffectiveRange) {
  GameState s = gun_state(8);
  EXPECT_EQ(target_of(s, "fr_g1", "al_b1").band, RangeBand::kEffective);
  EXPECT_EQ(direct_fire_modifiers(s, s.guns[0], target_of(s, "fr_g1", "al_b1")).beyond_effective, 0);
  s = gun_state(8.5);
  EXPECT_EQ(target_of(s, "fr_g1", "al_b1").band, RangeBand::kBeyond);
  EXPECT_EQ(direct_fire_modifiers(s, s.guns[0], target_of(s, "fr_g1", "al_b1")).beyond_effective, -1);
  s = gun_state(2);
  EXPECT_EQ(target_of(s, "fr_g1", "al_b1").band, RangeBand::kClose);
}

TEST(ArtilleryModifiers, NewTargetAndSameTargetAndRange) {
  GameState s = gun_state(6);
  const FireTarget t = target_of(s, "fr_g1", "al_b1");
  EXPECT_EQ(direct_fire_modifiers(s, s.guns[0], t).target_history, -1);  // first shot: new target
  Gun& g = gun(s, "fr_g1");
  g.last_target = "al_b1";
  g.last_band = static_cast<std::uint8_t>(RangeBand::kEffective);
  g.last_shot_from = g.position;
  g.last_shot_facing = g.facing_deg;
  EXPECT_EQ(direct_fire_modifiers(s, s.guns[0], t).target_history, 1);
  g.last_band = static_cast<std::uint8_t>(RangeBand::kBeyond);  // same target, other range
  EXPECT_EQ(direct_fire_modifiers(s, s.guns[0], t).target_history, 0);
  g.last_band = static_cast<std::uint8_t>(RangeBand::kEffective);
  g.last_target = "al_b2";
  EXPECT_EQ(direct_fire_modifiers(s, s.guns[0], t).target_history, -1);
  g.last_target = "al_b1";
  g.last_shot_facing = 20;  // the gun has pivoted since
  EXPECT_EQ(direct_fire_modifiers(s, s.guns[0], t).target_history, -1);
}

TEST(ArtilleryModifiers, TargetColumnLimberedOrEnfiladeOnce) {
  GameState s = gun_state(6);
  EXPECT_EQ(direct_fire_modifiers(s, s.guns[0], target_of(s, "fr_g1", "al_b1")).exposed, 0);
  brigade(s, "al_b1").formation = Formation::kFieldColumn;
  EXPECT_EQ(direct_fire_modifiers(s, s.guns[0], target_of(s, "fr_g1", "al_b1")).exposed, 1);
  brigade(s, "al_b1").formation = Formation::kMarchColumn;
  EXPECT_EQ(direct_fire_modifiers(s, s.guns[0], target_of(s, "fr_g1", "al_b1")).exposed, 1);
  // Enfilade: the line faces east, so the gun (south of it) is off its flank.
  brigade(s, "al_b1").formation = Formation::kLine;
  brigade(s, "al_b1").position = {30, 16};
  brigade(s, "al_b1").facing_deg = 90;
  const FireTarget t = target_of(s, "fr_g1", "al_b1");
  EXPECT_TRUE(enfilades(s.guns[0], s, t));
  EXPECT_EQ(direct_fire_modifiers(s, s.guns[0], t).exposed, 1);
  // A column fired on from its flank still counts +1 once.
  brigade(s, "al_b1").formation = Formation::kMarchColumn;
  EXPECT_EQ(direct_fire_modifiers(s, s.guns[0], target_of(s, "fr_g1", "al_b1")).exposed, 1);
  // Unformed troops have no flanks.
  brigade(s, "al_b1").formation = Formation::kUnformed;
  EXPECT_FALSE(enfilades(s.guns[0], s, target_of(s, "fr_g1", "al_b1")));
}

TEST(ArtilleryModifiers, LimberedGunTarget) {
  GameState s = gun_state(20);
  s.guns.push_back(make_gun("al_g1", "al", "right", "c3", {30, 14}, 180));
  EXPECT_EQ(direct_fire_modifiers(s, s.guns[0], target_of(s, "fr_g1", "al_g1")).exposed, 0);
  gun(s, "al_g1").limbered = true;
  EXPECT_EQ(direct_fire_modifiers(s, s.guns[0], target_of(s, "fr_g1", "al_g1")).exposed, 1);
}

GameState with_work(TerrainKind kind) {
  GameState s = gun_state(6);
  Feature f;
  f.id = "works";
  f.kind = kind;
  f.points = {{25, 15.5}, {35, 15.5}};  // 1/2" in front of the Allied line
  s.features = {f};
  s.terrain = make_terrain_map(s.features);
  return s;
}

TEST(ArtilleryModifiers, TargetInFortificationsOrFieldworks) {
  GameState s = with_work(TerrainKind::kFortification);
  EXPECT_EQ(direct_fire_modifiers(s, s.guns[0], target_of(s, "fr_g1", "al_b1")).cover, -2);
  s = with_work(TerrainKind::kFieldworks);
  EXPECT_EQ(direct_fire_modifiers(s, s.guns[0], target_of(s, "fr_g1", "al_b1")).cover, -1);
  // A work 4" in front of the target does not protect it.
  s = with_work(TerrainKind::kFieldworks);
  s.features[0].points = {{25, 12}, {35, 12}};
  s.terrain = make_terrain_map(s.features);
  EXPECT_EQ(direct_fire_modifiers(s, s.guns[0], target_of(s, "fr_g1", "al_b1")).cover, 0);
}

// ---- Results ----

TEST(ArtilleryResults, CloseRangeRows) {
  EXPECT_EQ(direct_fire_result(1, RangeBand::kClose), ShotResult::kNoEffect);
  EXPECT_EQ(direct_fire_result(2, RangeBand::kClose), ShotResult::kOneDp);
  EXPECT_EQ(direct_fire_result(3, RangeBand::kClose), ShotResult::kOneDp);
  EXPECT_EQ(direct_fire_result(4, RangeBand::kClose), ShotResult::kTwoDps);
  EXPECT_EQ(direct_fire_result(5, RangeBand::kClose), ShotResult::kTwoDps);
  EXPECT_EQ(direct_fire_result(6, RangeBand::kClose), ShotResult::kDpAndCasualty);
  EXPECT_EQ(direct_fire_result(8, RangeBand::kClose), ShotResult::kDpAndCasualty);
}

TEST(ArtilleryResults, EffectiveAndBeyondRows) {
  for (RangeBand b : {RangeBand::kEffective, RangeBand::kBeyond}) {
    EXPECT_EQ(direct_fire_result(3, b), ShotResult::kNoEffect);
    EXPECT_EQ(direct_fire_result(4, b), ShotResult::kOneDp);
    EXPECT_EQ(direct_fire_result(7, b), ShotResult::kOneDp);
  }
}

// ---- The phases through the engine ----

TEST(BombardmentPhase, ShotHitsMarksAndRecords) {
  GameState s = gun_state(6);
  const auto ds = pending(s);
  FixedDice dice{5};  // 5 -1 (new target) = 4: 1 DP at effective range
  auto r = resolve(s, answers_with(ds, {option_answer("fire/fr_g1", "fr/left", "al_b1")}), dice);
  ASSERT_TRUE(r.ok()) << r.error().reason;
  const GameState& n = r->next;
  EXPECT_EQ(brigade(n, "al_b1").dps, 1u);
  EXPECT_TRUE(brigade(n, "al_b1").has(Status::kUnderFire));
  EXPECT_TRUE(n.guns[0].has(Status::kFired));
  EXPECT_EQ(n.guns[0].last_target, "al_b1");
  EXPECT_EQ(n.guns[0].bombarded_turn, 1u);
  EXPECT_FALSE(n.guns[0].bombarded_close);
  EXPECT_TRUE(has_event(r->events, "artillery_fire"));
  // No Allied gun: the second half passes, on to the command phase.
  EXPECT_EQ(n.phase, Phase::kCommand);
}

TEST(BombardmentPhase, MissStillPutsTheTargetUnderFire) {
  GameState s = gun_state(6);
  FixedDice dice{4};  // 4 -1 = 3: no effect
  auto r = resolve(s, answers_with(pending(s), {option_answer("fire/fr_g1", "fr/left", "al_b1")}), dice);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(brigade(r->next, "al_b1").dps, 0u);
  EXPECT_TRUE(brigade(r->next, "al_b1").has(Status::kUnderFire));
}

TEST(BombardmentPhase, HoldFiresNothing) {
  GameState s = gun_state(6);
  FixedDice none{};
  auto r = resolve(s, test::default_answers(pending(s)), none);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(brigade(r->next, "al_b1").dps, 0u);
  EXPECT_FALSE(r->next.guns[0].has(Status::kFired));
}

TEST(BombardmentPhase, RejectsATargetThatIsNotAnOption) {
  GameState s = gun_state(6);
  auto v = check(s, option_answer("fire/fr_g1", "fr/left", "al_b2"));
  EXPECT_FALSE(v.ok());
}

// artillery_resolve takes a fire answer's target as allowed (it was checked
// against the pending options): resolve must refuse one that is in arc and
// range but not allowed, here the farther target of a gun not under control,
// and one the gun cannot see, and leave the state as it was.
TEST(BombardmentPhase, ResolveRefusesATargetTheGunMayNotChoose) {
  GameState s = gun_state(6);
  brigade(s, "al_b2").position = {36, 22};  // in arc and seen, but farther than al_b1
  ASSERT_EQ(eligible_targets(s, s.guns[0], FirePhase::kBombardment).size(), 2u);
  const GameState before = s;
  FixedDice dice{6};
  auto r = resolve(s, answers_with(pending(s), {option_answer("fire/fr_g1", "fr/left", "al_b2")}), dice);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(state_hash(s), state_hash(before));
  EXPECT_TRUE(resolve(s, answers_with(pending(s), {option_answer("fire/fr_g1", "fr/left", "al_b1")}), dice).ok());
  // Hidden: a formed French brigade between the gun and al_b1.
  s = gun_state(10);
  s.brigades.push_back(make_brigade("fr_b9", "fr", "left", "c1", {30, 14}, 0));
  r = resolve(s, {option_answer("fire/fr_g1", "fr/left", "al_b1")}, dice);
  ASSERT_FALSE(r.ok());
}

TEST(BombardmentPhase, CloseRangeSixIsADpAndACasualty) {
  GameState s = gun_state(1.5);
  FixedDice dice{6};
  gun(s, "fr_g1").weight = GunWeight::kHeavy;  // 6 +1 (heavy) -1 (new target) = 6
  auto r = resolve(s, answers_with(pending(s), {option_answer("fire/fr_g1", "fr/left", "al_b1")}), dice);
  ASSERT_TRUE(r.ok()) << r.error().reason;
  EXPECT_EQ(brigade(r->next, "al_b1").dps, 1u);
  EXPECT_EQ(brigade(r->next, "al_b1").bases, 3u);
  EXPECT_TRUE(r->next.guns[0].bombarded_close);
}

TEST(BombardmentPhase, BothSidesFireInTurn) {
  GameState s = gun_state(20);
  s.guns.push_back(make_gun("al_g1", "al", "right", "c3", {50, 30}, 180));
  brigade(s, "fr_b1").position = {50, 16};  // 12.5" in front of al_g1 (its base is 1.5" deep)
  // fr acts first: only fr_g1 owes a decision.
  auto ds = pending(s);
  ASSERT_NE(find_decision(ds, "fire/fr_g1"), nullptr);
  EXPECT_EQ(find_decision(ds, "fire/al_g1"), nullptr);
  FixedDice d1{6};
  auto r = resolve(s, answers_with(ds, {option_answer("fire/fr_g1", "fr/left", "al_b1")}), d1);
  ASSERT_TRUE(r.ok()) << r.error().reason;
  EXPECT_EQ(r->next.phase, Phase::kBombardment);
  EXPECT_EQ(r->next.half, 1u);
  ds = pending(r->next);
  ASSERT_NE(find_decision(ds, "fire/al_g1"), nullptr);
  FixedDice d2{6};
  auto r2 = resolve(r->next, answers_with(ds, {option_answer("fire/al_g1", "al/right", "fr_b1")}), d2);
  ASSERT_TRUE(r2.ok()) << r2.error().reason;
  EXPECT_EQ(brigade(r2->next, "fr_b1").dps, 1u);
  EXPECT_EQ(r2->next.phase, Phase::kCommand);
}

TEST(BombardmentPhase, SimultaneousPlansEveryShotFirst) {
  GameState s = gun_state(20);
  s.simultaneous = true;
  s.guns.push_back(make_gun("al_g1", "al", "right", "c3", {30, 34}, 180));
  brigade(s, "al_b1").position = {60, 40};  // out of the way: the guns shoot each other
  auto ds = pending(s);
  ASSERT_NE(find_decision(ds, "fire/fr_g1"), nullptr);
  ASSERT_NE(find_decision(ds, "fire/al_g1"), nullptr);
  // Both roll 6 - 1 - 1 (beyond effective) = 4: 1 DP each; the Allied gun's
  // DP from the first shot does not reduce its own shot.
  FixedDice dice{6, 6};
  auto r = resolve(s,
                   answers_with(ds, {option_answer("fire/fr_g1", "fr/left", "al_g1"),
                                     option_answer("fire/al_g1", "al/right", "fr_g1")}),
                   dice);
  ASSERT_TRUE(r.ok()) << r.error().reason;
  EXPECT_EQ(r->next.guns[0].dps, 1u);
  EXPECT_EQ(r->next.guns[1].dps, 1u);
  EXPECT_TRUE(r->next.guns[0].has(Status::kUnderFire));
}

TEST(CloseFirePhase, GunFiresAtCloseRangeThenCrewAbandonToFriends) {
  // Called directly: the engine would run on into the combat phase.
  GameState s = gun_state(0.8);  // enemy foot came within 1" in the movement phase
  s.phase = Phase::kCloseFire;
  brigade(s, "fr_b1").position = {30, 7};  // friendly foot 1.5" behind the gun's rear edge
  const auto ds = artillery_pending(s);
  ASSERT_NE(find_decision(ds, "fire/fr_g1"), nullptr);
  FixedDice dice{5};  // 5 - 1 = 4 at close range: 2 DPs
  std::vector<Event> ev;
  artillery_resolve(s, answers_with(ds, {option_answer("fire/fr_g1", "fr/left", "al_b1")}), dice, ev);
  EXPECT_EQ(brigade(s, "al_b1").dps, 2u);
  EXPECT_FALSE(s.guns[0].bombarded_close);  // a close fire phase shot is not a bombardment
  abandon_guns_in_combat(s, ev);
  EXPECT_TRUE(s.guns[0].has(Status::kAbandoned));
  EXPECT_FALSE(s.guns[0].has(Status::kCrewEliminated));
  EXPECT_EQ(s.guns[0].crew_with, "fr_b1");
  EXPECT_TRUE(has_event(ev, "gun_abandoned"));
}

TEST(CloseFirePhase, PassesStraightToCombatWhenNothingCanFire) {
  GameState s = gun_state(6);
  s.phase = Phase::kCloseFire;
  EXPECT_TRUE(pending(s).empty());
  GameState t = s;
  t.guns.clear();
  std::vector<Event> ev;
  FixedDice none{};
  artillery_resolve(t, {}, none, ev);
  EXPECT_TRUE(ev.empty());
}

// ---- Indirect fire ----

OrderStep aim_at(Vec2 p) {
  OrderStep st;
  st.action = "aim";
  st.to = p;
  return st;
}

TEST(IndirectFire, AimPointLimits) {
  GameState s = gun_state(10);
  gun(s, "fr_g1").weight = GunWeight::kHowitzer;
  control_gun(s);
  EXPECT_TRUE(check(s, test::steps_answer("aim/fr_g1", "fr/left", {aim_at({30, 16.5})})).ok());
  EXPECT_TRUE(check(s, test::steps_answer("aim/fr_g1", "fr/left", {aim_at({30, 20})})).ok());   // empty ground, controlled
  EXPECT_FALSE(check(s, test::steps_answer("aim/fr_g1", "fr/left", {aim_at({30, 11.5})})).ok());  // within 2"
  EXPECT_FALSE(check(s, test::steps_answer("aim/fr_g1", "fr/left", {aim_at({30, 47})})).ok());    // beyond 36"
  EXPECT_FALSE(check(s, test::steps_answer("aim/fr_g1", "fr/left", {aim_at({50, 12})})).ok());    // outside the arc
}

TEST(IndirectFire, NotUnderControlAimsAtTheNearestEnemy) {
  GameState s = gun_state(10);
  gun(s, "fr_g1").weight = GunWeight::kHowitzer;
  EXPECT_TRUE(check(s, test::steps_answer("aim/fr_g1", "fr/left", {aim_at({30, 20.5})})).ok());
  EXPECT_FALSE(check(s, test::steps_answer("aim/fr_g1", "fr/left", {aim_at({30, 25})})).ok());
}

TEST(IndirectFire, OnTargetIsOneDp) {
  GameState s = gun_state(10);
  gun(s, "fr_g1").weight = GunWeight::kHowitzer;
  FixedDice dice{1};  // scatter: HIT
  auto r = resolve(s, answers_with(pending(s), {test::steps_answer("aim/fr_g1", "fr/left", {aim_at({30, 20.5})})}), dice);
  ASSERT_TRUE(r.ok()) << r.error().reason;
  EXPECT_EQ(brigade(r->next, "al_b1").dps, 1u);
  EXPECT_TRUE(brigade(r->next, "al_b1").has(Status::kUnderFire));
  EXPECT_TRUE(r->next.guns[0].has(Status::kFired));
}

TEST(IndirectFire, OffTargetLandsOnWhateverIsThereFriendOrFoe) {
  GameState s = gun_state(10);
  gun(s, "fr_g1").weight = GunWeight::kHowitzer;
  // A French brigade 2" south of the aim point's line.
  s.brigades.push_back(make_brigade("fr_b9", "fr", "left", "c1", {38, 18}, 0));
  brigade(s, "al_b1").position = {30, 20};
  // fr_b9 covers x 36..40, y 17..18. Aim (under control) at (38, 20.5);
  // off target, bearing 180 (south), 6 x 1/2" = 3": lands at (38, 17.5) on fr_b9.
  control_gun(s);
  FixedDice dice{3, 180, 6};
  auto r = resolve(s, answers_with(pending(s), {test::steps_answer("aim/fr_g1", "fr/left", {aim_at({38, 20.5})})}), dice);
  ASSERT_TRUE(r.ok()) << r.error().reason;
  EXPECT_EQ(brigade(r->next, "fr_b9").dps, 1u);
  EXPECT_EQ(brigade(r->next, "al_b1").dps, 0u);
}

TEST(IndirectFire, OffTargetOnEmptyGroundDoesNothing) {
  GameState s = gun_state(10);
  gun(s, "fr_g1").weight = GunWeight::kHowitzer;
  FixedDice dice{6, 0, 6};  // off target, north, 3"
  auto r = resolve(s, answers_with(pending(s), {test::steps_answer("aim/fr_g1", "fr/left", {aim_at({30, 20.5})})}), dice);
  ASSERT_TRUE(r.ok()) << r.error().reason;
  EXPECT_EQ(brigade(r->next, "al_b1").dps, 0u);
  EXPECT_TRUE(r->next.guns[0].has(Status::kFired));
}

TEST(IndirectFire, ScatterDistanceAndBearing) {
  FixedDice dice{4, 90, 5};
  const IndirectShot shot = roll_indirect_fire(dice, {10, 10});
  EXPECT_FALSE(shot.scatter.on_target);
  EXPECT_EQ(shot.distance_die, 5);
  EXPECT_NEAR(shot.lands.x, 12.5, 1e-9);
  EXPECT_NEAR(shot.lands.y, 10, 1e-9);
  FixedDice hit{2};
  EXPECT_TRUE(roll_indirect_fire(hit, {10, 10}).scatter.on_target);
}

// ---- Guns in combat, re-crewing, taking over ----

TEST(GunsInCombat, NoFriendsWithinTwoInchesCapturedAndCrewEliminated) {
  GameState s = gun_state(0.5);
  std::vector<Event> ev;
  abandon_guns_in_combat(s, ev);
  EXPECT_TRUE(s.guns[0].has(Status::kAbandoned));
  EXPECT_TRUE(s.guns[0].has(Status::kCrewEliminated));
  EXPECT_TRUE(has_event(ev, "gun_captured"));
}

TEST(GunsInCombat, CrewSeekRefugeWithTheNearestFriend) {
  GameState s = gun_state(0.5);
  s.brigades.push_back(make_brigade("fr_b8", "fr", "left", "c1", {34.5, 10}, 0));  // 1.75" to the side
  brigade(s, "fr_b1").position = {30, 7};                                           // 1.5" behind
  std::vector<Event> ev;
  abandon_guns_in_combat(s, ev);
  EXPECT_TRUE(s.guns[0].has(Status::kAbandoned));
  EXPECT_FALSE(s.guns[0].has(Status::kCrewEliminated));
  EXPECT_EQ(s.guns[0].crew_with, "fr_b1");
}

// Every gun of either side is judged in one pass: each one in combat is
// abandoned, and none other, whichever gun before it was abandoned.
TEST(GunsInCombat, EveryGunInCombatOfEitherSideIsAbandonedAndNoOther) {
  GameState s = gun_state(0.5);                                         // fr_g1: al_b1 0.5" in front
  s.guns.push_back(make_gun("fr_g2", "fr", "left", "c1", {66, 39.5}, 0));  // al_b2 0.5" in front
  s.guns.push_back(make_gun("fr_g3", "fr", "left", "c1", {50, 10}, 0));    // nobody near
  s.guns.push_back(make_gun("al_g1", "al", "right", "c3", {10, 10.5}, 180));  // 0.5" in front of fr_b1
  std::vector<Event> ev;
  abandon_guns_in_combat(s, ev);
  EXPECT_TRUE(gun(s, "fr_g1").has(Status::kAbandoned));
  EXPECT_TRUE(gun(s, "fr_g2").has(Status::kAbandoned));
  EXPECT_FALSE(gun(s, "fr_g3").has(Status::kAbandoned));
  EXPECT_TRUE(gun(s, "al_g1").has(Status::kAbandoned));
  EXPECT_EQ(ev.size(), 3u);
}

TEST(GunsInCombat, NotInCombatNotAbandoned) {
  GameState s = gun_state(1.5);
  std::vector<Event> ev;
  abandon_guns_in_combat(s, ev);
  EXPECT_FALSE(s.guns[0].has(Status::kAbandoned));
}

TEST(GunsInCombat, RecrewWhenNoFormedEnemyWithinTwoInches) {
  GameState s = gun_state(1.5);
  brigade(s, "fr_b1").position = {30, 7};
  gun(s, "fr_g1").status = static_cast<std::uint32_t>(Status::kAbandoned);
  gun(s, "fr_g1").crew_with = "fr_b1";
  EXPECT_FALSE(may_recrew(s, s.guns[0]));  // formed enemy 1.5" away
  brigade(s, "al_b1").formation = Formation::kUnformed;
  EXPECT_TRUE(may_recrew(s, s.guns[0]));  // unformed enemy do not stop it
  brigade(s, "al_b1").formation = Formation::kLine;
  brigade(s, "al_b1").position = {30, 12.5};
  EXPECT_TRUE(may_recrew(s, s.guns[0]));
  const auto ds = pending(s);
  const Decision* d = find_decision(ds, "recrew/fr_g1");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(find_decision(ds, "fire/fr_g1"), nullptr);  // re-crewed guns do not fire this phase
  FixedDice none{};
  auto r = resolve(s, answers_with(ds, {option_answer("recrew/fr_g1", "fr/left", "recrew")}), none);
  ASSERT_TRUE(r.ok()) << r.error().reason;
  EXPECT_FALSE(r->next.guns[0].has(Status::kAbandoned));
  EXPECT_TRUE(r->next.guns[0].crew_with.empty());
  EXPECT_FALSE(r->next.guns[0].has(Status::kFired));
}

TEST(GunsInCombat, EliminatedCrewsNeverReturn) {
  GameState s = gun_state(12);
  gun(s, "fr_g1").status = static_cast<std::uint32_t>(Status::kAbandoned) | static_cast<std::uint32_t>(Status::kCrewEliminated);
  EXPECT_FALSE(may_recrew(s, s.guns[0]));
  // Nor when the brigade sheltering them is gone.
  gun(s, "fr_g1").status = static_cast<std::uint32_t>(Status::kAbandoned);
  gun(s, "fr_g1").crew_with = "fr_b1";
  brigade(s, "fr_b1").status = static_cast<std::uint32_t>(Status::kDestroyed);
  brigade(s, "fr_b1").bases = 0;
  EXPECT_FALSE(may_recrew(s, s.guns[0]));
}

TEST(GunsInCombat, EnemyDetachesABaseToTakeOverAnAbandonedLimberedGun) {
  GameState s = gun_state(1.5);
  Gun& g = gun(s, "fr_g1");
  g.status = static_cast<std::uint32_t>(Status::kAbandoned) | static_cast<std::uint32_t>(Status::kCrewEliminated);
  EXPECT_FALSE(may_take_over(s, g, brigade(s, "al_b1")));  // unlimbered: stays where it is
  g.limbered = true;
  EXPECT_TRUE(may_take_over(s, g, brigade(s, "al_b1")));
  EXPECT_FALSE(may_take_over(s, g, brigade(s, "al_b2")));  // too far
  // The Allies act in the second half of the bombardment phase.
  s.half = 1;
  const auto ds = pending(s);
  const Decision* d = find_decision(ds, "take_over/fr_g1");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->seat, "al/right");
  EXPECT_EQ(option_ids(*d), (std::vector<std::string>{"no", "al_b1"}));
  FixedDice none{};
  auto r = resolve(s, answers_with(ds, {option_answer("take_over/fr_g1", "al/right", "al_b1")}), none);
  ASSERT_TRUE(r.ok()) << r.error().reason;
  const Gun& taken = r->next.guns[0];
  EXPECT_EQ(taken.army, "al");
  EXPECT_EQ(taken.command, "c3");
  EXPECT_FALSE(taken.has(Status::kAbandoned));
  EXPECT_FALSE(taken.has(Status::kCrewEliminated));
  EXPECT_EQ(brigade(r->next, "al_b1").bases, 3u);
}

TEST(GunsInCombat, CasualtyOnAGunEliminatesItsCrew) {
  GameState s = gun_state(20);
  s.guns.push_back(make_gun("al_g1", "al", "right", "c3", {30, 11.5}, 180));  // 1.5" away... its rear faces north
  brigade(s, "al_b1").position = {60, 40};
  gun(s, "fr_g1").weight = GunWeight::kHeavy;
  const auto ts = eligible_targets(s, s.guns[0], FirePhase::kBombardment);
  ASSERT_EQ(ts.size(), 1u);
  EXPECT_EQ(ts[0].band, RangeBand::kClose);
  FixedDice dice{6};  // 6 +1 -1 = 6: 1 DP and 1 casualty
  auto r = resolve(s, answers_with(pending(s), {option_answer("fire/fr_g1", "fr/left", "al_g1")}), dice);
  ASSERT_TRUE(r.ok()) << r.error().reason;
  const Gun& hit = r->next.guns[1];
  EXPECT_EQ(hit.dps, 1u);
  EXPECT_TRUE(hit.has(Status::kCrewEliminated));
  EXPECT_TRUE(hit.has(Status::kAbandoned));
}

}  // namespace
}  // namespace galloper::rules::malbrook
