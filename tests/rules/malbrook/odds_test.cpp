// Exact odds (odds.hpp) against brute-force enumeration of the engine's own
// dice functions with every combination of faces.
#include <gtest/gtest.h>

#include <map>

#include "rules/core/dice.hpp"
#include "rules/core/geometry.hpp"
#include "rules/malbrook/artillery.hpp"
#include "rules/malbrook/damage.hpp"
#include "rules/malbrook/odds.hpp"
#include "tests/rules/malbrook/artillery_helpers.hpp"

namespace galloper::rules::malbrook {
namespace {

TEST(Fraction, ReducesAndKeepsTheSignOnTop) {
  const Fraction a(6, 8);
  EXPECT_EQ(a.num(), 3);
  EXPECT_EQ(a.den(), 4);
  const Fraction b(3, -9);
  EXPECT_EQ(b.num(), -1);
  EXPECT_EQ(b.den(), 3);
  EXPECT_EQ(Fraction(0, 7), Fraction(0));
  EXPECT_EQ(Fraction(0, 7).den(), 1);
  EXPECT_EQ(Fraction(5, 36).str(), "5/36");
  EXPECT_EQ(Fraction(4, 2).str(), "2");
}

TEST(Fraction, Arithmetic) {
  EXPECT_EQ(Fraction(1, 6) + Fraction(1, 3), Fraction(1, 2));
  EXPECT_EQ(Fraction(1, 2) - Fraction(2, 3), Fraction(-1, 6));
  EXPECT_EQ(Fraction(2, 3) * Fraction(9, 4), Fraction(3, 2));
  EXPECT_EQ(Fraction(1, 6) / Fraction(1, 3), Fraction(1, 2));
  EXPECT_TRUE(Fraction(1, 3) < Fraction(1, 2));
  EXPECT_FALSE(Fraction(1, 2) < Fraction(1, 2));
  Fraction sum;
  for (int i = 0; i < 36; ++i) sum += Fraction(1, 36);
  EXPECT_EQ(sum, Fraction(1));
  EXPECT_DOUBLE_EQ(Fraction(1, 4).value(), 0.25);
  // Products with large denominators stay exact (6^20 fits in 64 bits).
  Fraction p(1);
  for (int i = 0; i < 20; ++i) p *= Fraction(1, 6);
  EXPECT_EQ(p.den(), 3656158440062976LL);
}

TEST(DirectFireOdds, MatchEnumerationOfTheEngineRoll) {
  for (RangeBand band : {RangeBand::kClose, RangeBand::kEffective, RangeBand::kBeyond}) {
    for (int mod = -8; mod <= 6; ++mod) {
      std::array<int, 4> count{};
      for (int face = 1; face <= 6; ++face) {
        FixedDice dice{face};
        ++count[static_cast<std::size_t>(roll_direct_fire(dice, mod, band))];
      }
      const ShotOdds o = direct_fire_odds(mod, band);
      Fraction total;
      for (std::size_t r = 0; r < 4; ++r) {
        EXPECT_EQ(o.p[r], Fraction(count[r], 6)) << "band " << to_string(band) << " mod " << mod << " row " << r;
        total += o.p[r];
      }
      EXPECT_EQ(total, Fraction(1));
    }
  }
}

TEST(DirectFireOdds, KnownValues) {
  // A medium gun's first shot at close range: D6 - 1.
  const ShotOdds close = direct_fire_odds(-1, RangeBand::kClose);
  EXPECT_EQ(close.of(ShotResult::kNoEffect), Fraction(1, 3));    // 1, 2
  EXPECT_EQ(close.of(ShotResult::kOneDp), Fraction(1, 3));       // 3, 4
  EXPECT_EQ(close.of(ShotResult::kTwoDps), Fraction(1, 3));      // 5, 6
  EXPECT_EQ(close.of(ShotResult::kDpAndCasualty), Fraction(0));
  EXPECT_EQ(close.expected_dps(), Fraction(1));
  // Heavy, same target and range, close: D6 + 2.
  const ShotOdds heavy = direct_fire_odds(2, RangeBand::kClose);
  EXPECT_EQ(heavy.of(ShotResult::kDpAndCasualty), Fraction(1, 2));
  EXPECT_EQ(heavy.expected_casualties(), Fraction(1, 2));
  // Beyond effective, new target: D6 - 2, 4+ -> only a 6.
  EXPECT_EQ(direct_fire_odds(-2, RangeBand::kBeyond).of(ShotResult::kOneDp), Fraction(1, 6));
}

// A shot described by its numbers (`galloper odds fire`) has the modifiers
// the engine finds for the same shot on the table.
TEST(DirectFireOdds, ProposedShotModifiers) {
  for (const double range : {1.5, 6.0, 12.0}) {
    for (const GunWeight w : {GunWeight::kLight, GunWeight::kMedium, GunWeight::kHeavy}) {
      for (const Formation f : {Formation::kLine, Formation::kMarchColumn}) {
        GameState s = test::gun_state(range);
        s.guns[0].weight = w;
        s.guns[0].dps = 2;
        test::brigade(s, "al_b1").formation = f;
        const auto targets = eligible_targets(s, s.guns[0], FirePhase::kBombardment);
        ASSERT_FALSE(targets.empty()) << range;
        const FireModifiers engine = direct_fire_modifiers(s, s.guns[0], targets.front());
        ProposedShot shot;
        shot.weight = w;
        shot.gun_dps = 2;
        shot.band = targets.front().band;
        shot.exposed = f == Formation::kMarchColumn;
        const FireModifiers proposed = fire_modifiers(shot);
        EXPECT_EQ(proposed.describe(), engine.describe()) << range;
        EXPECT_EQ(proposed.total(), engine.total()) << range;
      }
    }
  }
  ProposedShot dug_in;
  dug_in.target_history = 1;
  dug_in.cover = -2;
  EXPECT_EQ(fire_modifiers(dug_in).total(), -1);
}

TEST(IndirectFireOdds, MatchEnumerationOfTheEngineRoll) {
  // Enumerate scatter face x bearing x distance die through roll_indirect_fire.
  std::map<int, std::int64_t> off_by;  // distance die -> ways
  std::int64_t on = 0;
  std::int64_t total = 0;
  for (int face = 1; face <= 6; ++face) {
    if (scatter_face_on_target(face)) {
      FixedDice dice{face};
      const IndirectShot s = roll_indirect_fire(dice, {0, 0});
      EXPECT_TRUE(s.scatter.on_target);
      on += 360 * 6;  // weight: the bearing and distance dice are not rolled
      total += 360 * 6;
      continue;
    }
    for (int bearing = 0; bearing < 360; bearing += 1) {
      for (int d = 1; d <= 6; ++d) {
        FixedDice dice{face, bearing, d};
        const IndirectShot s = roll_indirect_fire(dice, {0, 0});
        EXPECT_NEAR(distance(s.lands, Vec2{0, 0}), d * 0.5, 1e-9);
        ++off_by[s.distance_die];
        ++total;
      }
    }
  }
  const IndirectOdds o = indirect_fire_odds();
  EXPECT_EQ(o.on_target, Fraction(on, total));
  EXPECT_EQ(o.on_target, Fraction(1, 3));
  Fraction sum = o.on_target;
  for (int d = 1; d <= 6; ++d) {
    EXPECT_EQ(o.off_by[static_cast<std::size_t>(d - 1)], Fraction(off_by[d], total)) << d;
    sum += o.off_by[static_cast<std::size_t>(d - 1)];
  }
  EXPECT_EQ(sum, Fraction(1));
  EXPECT_EQ(o.bearing_each, Fraction(1, 360));
}

TEST(LeaderRiskOdds, MatchEnumeration) {
  for (int hit_faces : {1, 2}) {
    for (std::uint32_t wounds : {0u, 1u}) {
      std::array<int, 4> count{};
      for (int first = 1; first <= 6; ++first) {
        // Attached leaders are hit on a 1; lone leaders fired on by foot on 5-6.
        const bool hit = hit_faces == 1 ? first == 1 : first >= 5;
        for (int second = 1; second <= 6; ++second) {
          const LeaderFate f = hit ? leader_hit_result(second, wounds) : LeaderFate::kUnhurt;
          ++count[static_cast<std::size_t>(f)];
        }
      }
      const LeaderRiskOdds o = leader_risk_odds(hit_faces, wounds);
      for (std::size_t f = 0; f < 4; ++f) EXPECT_EQ(o.p[f], Fraction(count[f], 36)) << hit_faces << " " << wounds << " " << f;
    }
  }
  EXPECT_EQ(leader_risk_odds(1, 0).of(LeaderFate::kKilled), Fraction(1, 36));
  EXPECT_EQ(leader_risk_odds(1, 0).of(LeaderFate::kWounded), Fraction(1, 12));
  EXPECT_EQ(leader_risk_odds(2, 1).of(LeaderFate::kKilled), Fraction(2, 9));
}

}  // namespace
}  // namespace galloper::rules::malbrook

namespace galloper::rules::malbrook {
namespace {

// Two seats' pending decisions, as pending() gives them.
std::vector<Decision> two_seats_pending() {
  Decision fire;
  fire.id = "fire/bat";
  fire.seat = "allies/left";
  fire.kind = "artillery_fire";
  fire.subjects = {"bat"};
  fire.options = {{"hold", "Hold fire"}, {"artois", "Fire at artois", "artois", true}};
  Decision charge;
  charge.id = "charge/horse";
  charge.seat = "french/droite";
  charge.kind = "charge_declaration";
  charge.subjects = {"horse"};
  charge.options = {{"none", "No charge"},
                    {"charge:b1", "Charge b1", "b1", true},
                    {"outrance:b1", "Charge b1 à l'outrance", "b1", true}};
  return {fire, charge};
}

OddsQuestion answering(std::string decision, std::string option, std::uint32_t dice = 0) {
  OddsQuestion q;
  q.kind = OddsQuestion::Kind::kAnswer;
  q.answer.decision_id = std::move(decision);
  q.answer.option = std::move(option);
  q.dice = dice;
  return q;
}

TEST(QuestionOfAnswer, AFireTargetIsAShotAndAChargeIsAChargeWithTheDiceAssumed) {
  const auto pending = two_seats_pending();
  auto shot = question_of_answer(pending, "allies/left", answering("fire/bat", "artois"));
  ASSERT_TRUE(shot);
  EXPECT_EQ(shot.value().kind, OddsQuestion::Kind::kShot);
  EXPECT_EQ(shot.value().unit, "bat");
  EXPECT_EQ(shot.value().target, "artois");
  auto charge = question_of_answer(pending, "french/droite", answering("charge/horse", "outrance:b1", 3));
  ASSERT_TRUE(charge);
  EXPECT_EQ(charge.value().kind, OddsQuestion::Kind::kCharge);
  EXPECT_EQ(charge.value().unit, "horse");
  EXPECT_EQ(charge.value().target, "b1");
  EXPECT_TRUE(charge.value().a_outrance);
  EXPECT_EQ(charge.value().dice, 3u);
  auto two = question_of_answer(pending, "french/droite", answering("charge/horse", "charge:b1"));
  ASSERT_TRUE(two);
  EXPECT_EQ(two.value().dice, 2u) << "no count given: two dice";
  EXPECT_FALSE(two.value().a_outrance);
  // The umpire may weigh any seat's answer.
  EXPECT_TRUE(question_of_answer(pending, "umpire", answering("charge/horse", "charge:b1")));
}

TEST(QuestionOfAnswer, AnotherSeatsDecisionIsRefusedAsOneThatDoesNotExist) {
  const auto pending = two_seats_pending();
  auto theirs = question_of_answer(pending, "allies/left", answering("charge/horse", "charge:b1"));
  auto made_up = question_of_answer(pending, "allies/left", answering("charge/horsf", "charge:b1"));
  ASSERT_FALSE(theirs);
  ASSERT_FALSE(made_up);
  EXPECT_EQ(theirs.error().code, "not_pending");
  EXPECT_EQ(made_up.error().code, "not_pending");
  const auto without = [](std::string reason, const std::string& id) {
    const auto at = reason.find(id);
    EXPECT_NE(at, std::string::npos) << reason;
    if (at != std::string::npos) reason.replace(at, id.size(), "<id>");
    return reason;
  };
  EXPECT_EQ(without(theirs.error().reason, "charge/horse"), without(made_up.error().reason, "charge/horsf"));
}

TEST(QuestionOfAnswer, OptionsWithoutOddsOrNotOfferedAreRefusedAlike) {
  const auto pending = two_seats_pending();
  for (const char* option : {"hold", "not_offered", ""}) {
    auto r = question_of_answer(pending, "allies/left", answering("fire/bat", option));
    ASSERT_FALSE(r) << option;
    EXPECT_EQ(r.error().code, "no_odds") << option;
  }
}

}  // namespace
}  // namespace galloper::rules::malbrook
