// The odds of a proposed shot as the asking seat sees the table (odds.hpp:
// shot_odds, odds_for; RULINGS C23), worked by hand from the Results table.
#include <gtest/gtest.h>

#include "rules/core/odds.hpp"
#include "rules/core/tell.hpp"
#include "rules/malbrook/artillery.hpp"
#include "rules/malbrook/odds.hpp"
#include "tests/rules/malbrook/artillery_helpers.hpp"

namespace galloper::rules::malbrook {
namespace {

using test::brigade;
using test::gun;
using test::gun_state;
using test::leader;
using test::make_brigade;

ViewSettings wing_only() {
  ViewSettings v;
  v.side_shared_vision = false;
  return v;
}

std::string refusal(const Result<SeatShotOdds>& r) { return r.ok() ? "accepted" : r.error().code; }

TEST(ShotOdds, MediumGunAtEffectiveRangeOnANewTarget) {
  const GameState s = gun_state(6);
  auto r = shot_odds(s, "fr/left", "fr_g1", "al_b1");
  ASSERT_TRUE(r.ok()) << r.error().reason;
  EXPECT_EQ(r->phase, FirePhase::kBombardment);
  EXPECT_NEAR(r->distance, 6, 1e-6);
  EXPECT_EQ(r->band, RangeBand::kEffective);
  EXPECT_FALSE(r->under_control);
  // A new target: -1. Effective range hits (1 DP) on 4+: faces 5 and 6.
  EXPECT_EQ(r->modifiers.total(), -1);
  EXPECT_EQ(r->odds.of(ShotResult::kNoEffect), Fraction(2, 3));
  EXPECT_EQ(r->odds.of(ShotResult::kOneDp), Fraction(1, 3));
  EXPECT_EQ(r->odds.of(ShotResult::kTwoDps), Fraction(0));
  // The engine's own modifiers, found on the full table.
  const auto all = eligible_targets(s, s.guns[0], FirePhase::kBombardment);
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(r->modifiers.total(), direct_fire_modifiers(s, s.guns[0], all[0]).total());
}

TEST(ShotOdds, HeavyGunAtCloseRangeOnAColumn) {
  GameState s = gun_state(1.5);
  gun(s, "fr_g1").weight = GunWeight::kHeavy;
  auto r = shot_odds(s, "fr/left", "fr_g1", "al_b1");
  ASSERT_TRUE(r.ok()) << r.error().reason;
  EXPECT_EQ(r->band, RangeBand::kClose);
  // Heavy +1, new target -1: faces as rolled. 1 nothing, 2-3 1 DP, 4-5 2 DPs, 6 DP and casualty.
  EXPECT_EQ(r->modifiers.total(), 0);
  EXPECT_EQ(r->odds.of(ShotResult::kNoEffect), Fraction(1, 6));
  EXPECT_EQ(r->odds.of(ShotResult::kOneDp), Fraction(1, 3));
  EXPECT_EQ(r->odds.of(ShotResult::kTwoDps), Fraction(1, 3));
  EXPECT_EQ(r->odds.of(ShotResult::kDpAndCasualty), Fraction(1, 6));
  // In column: +1 more. 1-2 -> 2-3 1 DP, 3-4 -> 4-5 2 DPs, 5-6 -> 6+.
  brigade(s, "al_b1").formation = Formation::kFieldColumn;
  r = shot_odds(s, "fr/left", "fr_g1", "al_b1");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->modifiers.exposed, 1);
  EXPECT_EQ(r->odds.of(ShotResult::kNoEffect), Fraction(0));
  EXPECT_EQ(r->odds.of(ShotResult::kOneDp), Fraction(1, 3));
  EXPECT_EQ(r->odds.of(ShotResult::kTwoDps), Fraction(1, 3));
  EXPECT_EQ(r->odds.of(ShotResult::kDpAndCasualty), Fraction(1, 3));
}

TEST(ShotOdds, TheCloseFirePhaseReachesTwoInchesOnly) {
  GameState s = gun_state(6);
  s.phase = Phase::kCloseFire;
  const auto r = shot_odds(s, "fr/left", "fr_g1", "al_b1");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, "not_a_target");
  EXPECT_NE(r.error().reason.find("within 2\""), std::string::npos) << r.error().reason;
  EXPECT_NE(r.error().reason.find("no target now"), std::string::npos) << r.error().reason;
}

TEST(ShotOdds, NearestTargetUnlessUnderControl) {
  GameState s = gun_state(6);
  brigade(s, "al_b2").position = {36, 22};  // 12" ahead, seen past al_b1's end
  auto r = shot_odds(s, "fr/left", "fr_g1", "al_b2");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, "not_nearest");
  EXPECT_NE(plain_text(r.error().reason).find("(al_b1)"), std::string::npos) << r.error().reason;
  leader(s, "fr_mg1").position = {30, 7};  // under control now
  r = shot_odds(s, "fr/left", "fr_g1", "al_b2");
  ASSERT_TRUE(r.ok()) << r.error().reason;
  EXPECT_TRUE(r->under_control);
  // Beyond effective range -1, new target -1: 1 DP on a 6 only.
  EXPECT_EQ(r->band, RangeBand::kBeyond);
  EXPECT_EQ(r->modifiers.total(), -2);
  EXPECT_EQ(r->odds.of(ShotResult::kOneDp), Fraction(1, 6));
}

TEST(ShotOdds, RefusedWithAReason) {
  GameState s = gun_state(6);
  EXPECT_EQ(refusal(shot_odds(s, "al/right", "fr_g1", "al_b1")), "not_yours");   // the enemy's gun
  EXPECT_EQ(refusal(shot_odds(s, "fr/right", "fr_g1", "al_b1")), "not_yours");   // another wing's gun
  EXPECT_EQ(refusal(shot_odds(s, "fr/left", "nope", "al_b1")), "not_yours");
  EXPECT_EQ(refusal(shot_odds(s, "fr/left", "fr_g1", "fr_b1")), "friendly");
  EXPECT_EQ(refusal(shot_odds(s, "fr/left", "fr_g1", "al_b2")), "unseen");      // 40" off: nobody French sees it
  EXPECT_EQ(refusal(shot_odds(s, "fr/left", "fr_g1", "nope")), "unseen");       // the same words: no hint either way
  gun(s, "fr_g1").limbered = true;
  EXPECT_EQ(refusal(shot_odds(s, "fr/left", "fr_g1", "al_b1")), "cannot_fire");
  gun(s, "fr_g1").limbered = false;
  gun(s, "fr_g1").status = static_cast<std::uint32_t>(Status::kAbandoned);
  EXPECT_EQ(refusal(shot_odds(s, "fr/left", "fr_g1", "al_b1")), "cannot_fire");
  gun(s, "fr_g1").status = 0;
  gun(s, "fr_g1").weight = GunWeight::kHowitzer;
  EXPECT_EQ(refusal(shot_odds(s, "fr/left", "fr_g1", "al_b1")), "indirect");
}

TEST(ShotOdds, WhatTheSeatSeesFollowsTheVisionSetting) {
  GameState s = gun_state(6);
  // The French right wing's brigade sees al_b2; the gun's wing does not.
  s.brigades.push_back(make_brigade("fr_b5", "fr", "right", "c5", {66, 32}, 0));
  // Side-shared vision: seen, but far outside the gun's arc and range.
  EXPECT_EQ(refusal(shot_odds(s, "fr/left", "fr_g1", "al_b2")), "not_a_target");
  // Wing-only vision: the left wing does not know it is there.
  EXPECT_EQ(refusal(shot_odds(s, "fr/left", "fr_g1", "al_b2", wing_only())), "unseen");
}

TEST(OddsFor, AShotWrittenOutForPeopleAndTheUmpireAsksAsTheGunsSeat) {
  const GameState s = gun_state(6);
  OddsQuestion q;
  q.kind = OddsQuestion::Kind::kShot;
  q.unit = "fr_g1";
  q.target = "al_b1";
  for (const char* seat : {"fr/left", "umpire"}) {
    const auto a = odds_for(s, seat, q, ViewSettings{});
    ASSERT_TRUE(a.ok()) << a.error().reason;
    // Effective range: the table's two rows.
    ASSERT_EQ(a->outcomes.size(), 2u);
    EXPECT_EQ(a->outcomes[0].label, "no effect");
    EXPECT_EQ(a->outcomes[0].numerator, 2u);
    EXPECT_EQ(a->outcomes[0].denominator, 3u);
    EXPECT_EQ(a->outcomes[1].label, "1 DP");
    EXPECT_EQ(a->outcomes[1].numerator, 1u);
    EXPECT_EQ(a->outcomes[1].denominator, 3u);
    EXPECT_NEAR(a->outcomes[1].probability, 1.0 / 3, 1e-12);
    EXPECT_NE(a->summary.find("effective range, modifier -1"), std::string::npos) << a->summary;
  }
  q.target.clear();
  EXPECT_EQ(odds_for(s, "fr/left", q, ViewSettings{}).error().code, "no_target");
}

}  // namespace
}  // namespace galloper::rules::malbrook
