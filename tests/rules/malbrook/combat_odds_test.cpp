// Exact odds of combat (odds.hpp, the combat section), checked against brute
// force enumeration of every face.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "rules/malbrook/odds.hpp"
#include "tests/rules/malbrook/combat_helpers.hpp"

namespace galloper::rules::malbrook {
namespace {

using test::brigade;
using test::combat_state;
using test::unit;

TEST(CombatOdds, HitWaysSumToAllFaces) {
  for (int n = 0; n <= 10; ++n) {
    for (int k : {5, 6}) {
      std::uint64_t sum = 0;
      for (auto w : hit_ways(n, k)) sum += w;
      std::uint64_t all = 1;
      for (int i = 0; i < n; ++i) all *= 6;
      EXPECT_EQ(sum, all) << n << " dice on " << k;
    }
  }
  EXPECT_EQ(hit_ways(2, 5), (std::vector<std::uint64_t>{16, 16, 4}));
}

// Every face of every die, counted.
std::map<int, std::int64_t> brute(int na, int ka, int nb, int kb) {
  std::map<int, std::int64_t> out;
  const int n = na + nb;
  std::int64_t all = 1;
  for (int i = 0; i < n; ++i) all *= 6;
  for (std::int64_t code = 0; code < all; ++code) {
    std::int64_t c = code;
    int diff = 0;
    for (int i = 0; i < n; ++i, c /= 6) {
      const int face = static_cast<int>(c % 6) + 1;
      if (i < na) diff += face >= ka ? 1 : 0;
      else diff -= face >= kb ? 1 : 0;
    }
    ++out[diff];
  }
  return out;
}

TEST(CombatOdds, ConvolutionMatchesBruteForceEnumeration) {
  for (int na = 0; na <= 4; ++na) {
    for (int nb = 0; nb <= 3; ++nb) {
      for (int ka : {5, 6}) {
        for (int kb : {5, 6}) {
          const CombatOdds o = combat_odds(na, ka, nb, kb);
          const auto b = brute(na, ka, nb, kb);
          std::int64_t all = 1;
          for (int i = 0; i < na + nb; ++i) all *= 6;
          ASSERT_EQ(o.exact.size(), static_cast<std::size_t>(na + nb + 1));
          Fraction total;
          std::array<Fraction, kCombatBandCount> bands{};
          for (int d = -nb; d <= na; ++d) {
            const auto it = b.find(d);
            const Fraction want(it == b.end() ? 0 : it->second, all);
            EXPECT_EQ(o.exact[static_cast<std::size_t>(d + nb)], want) << na << "v" << nb << " d=" << d;
            EXPECT_NEAR(o.p(d), want.value(), 1e-12);
            total += want;
            bands[static_cast<std::size_t>(combat_band(d))] += want;
          }
          EXPECT_EQ(total, Fraction(1));
          for (std::size_t k = 0; k < bands.size(); ++k) EXPECT_EQ(o.band_a_exact[k], bands[k]);
        }
      }
    }
  }
}

TEST(CombatOdds, BandsSumToOneAndMirror) {
  const CombatOdds o = combat_odds(9, 5, 7, 6);
  double t = 0;
  for (double p : o.band_a) t += p;
  EXPECT_NEAR(t, 1.0, 1e-12);
  // b's Breakthrough is a's Break.
  EXPECT_NEAR(o.band_b(CombatBand::kBreakthrough), o.band_a[static_cast<std::size_t>(CombatBand::kBreak)], 1e-12);
  // Bases plus modifiers, floored at zero.
  const CombatOdds z = combat_odds(2, -4, 5, 4, 0, 5);
  EXPECT_EQ(z.dice_a, 0);
  EXPECT_EQ(z.dice_b, 4);
  // Beyond 24 dice: doubles only.
  const CombatOdds big = combat_odds(14, 5, 14, 5);
  EXPECT_TRUE(big.exact.empty());
  double s = 0;
  for (double p : big.difference) s += p;
  EXPECT_NEAR(s, 1.0, 1e-12);
}

TEST(ChargeOdds, ContactProbabilityAndTheCombatAsTheSeatSeesIt) {
  GameState s = combat_state({unit("fr_h", "fr", TroopType::kHorse, {16, 10}, 0),
                              unit("al_b1", "al", TroopType::kFoot, {16, 13}, 180)});
  brigade(s, "al_b1").grade = Grade::kA;  // hidden from fr: taken as C
  auto r = charge_odds(s, "fr/left", "fr_h", "al_b1", 1, false);
  ASSERT_TRUE(r.ok()) << r.error().reason;
  EXPECT_NEAR(r->gap, 3, 1e-6);
  // 1 AvD x ½" reaches 3" only on a... never (max 2½").
  EXPECT_EQ(r->p_contact, Fraction(0));
  r = charge_odds(s, "fr/left", "fr_h", "al_b1", 2, false);
  ASSERT_TRUE(r.ok());
  // 2 AvD: pips >= 6 -> 1 - P(2+2, 2+3, 3+2) = 1 - 5/36.
  EXPECT_EQ(r->p_contact, Fraction(31, 36));
  EXPECT_EQ(r->assessed.a.dice, 5);  // 4 bases + 1 charging
  EXPECT_EQ(r->assessed.b.dice, 4);  // grade unknown: C
  EXPECT_NEAR(r->band[static_cast<std::size_t>(CombatBand::kSuccess)],
              31.0 / 36 * combat_odds(5, 5, 4, 5).band_a[static_cast<std::size_t>(CombatBand::kSuccess)], 1e-12);
  // Not the seat's brigade.
  EXPECT_FALSE(charge_odds(s, "al/right", "fr_h", "al_b1", 2, false).ok());
  // Three dice: a 6 on the D6 costs a fatigue DP, mixed in.
  r = charge_odds(s, "fr/left", "fr_h", "al_b1", 3, false);
  ASSERT_TRUE(r.ok());
  double t = r->p_no_contact;
  for (double p : r->band) t += p;
  EXPECT_NEAR(t, 1.0, 1e-12);
}

TEST(ChargeOdds, ExactBandsIncludingTheFatigueMixture) {
  GameState s = combat_state({unit("fr_h", "fr", TroopType::kHorse, {16, 10}, 0),
                              unit("al_b1", "al", TroopType::kFoot, {16, 13}, 180)});
  for (std::uint32_t dice : {2u, 3u}) {
    const auto r = charge_odds(s, "fr/left", "fr_h", "al_b1", dice, false);
    ASSERT_TRUE(r.ok()) << r.error().reason;
    ASSERT_TRUE(r->exact);
    Fraction total = Fraction(1) - r->p_contact;
    for (std::size_t b = 0; b < r->band.size(); ++b) {
      total += r->band_exact[b];
      EXPECT_NEAR(r->band_exact[b].value(), r->band[b], 1e-12) << dice << " dice, band " << b;
    }
    EXPECT_EQ(total, Fraction(1)) << dice << " dice";
  }
  // Two dice, no fatigue: contact 31/36 times the 5-against-4 combat exactly.
  const auto r = charge_odds(s, "fr/left", "fr_h", "al_b1", 2, false);
  const auto k = static_cast<std::size_t>(CombatBand::kVictory);
  EXPECT_EQ(r->band_exact[k], Fraction(31, 36) * combat_odds(5, 5, 4, 5).band_a_exact[k]);
}

TEST(OddsFor, AChargeWrittenOutForPeople) {
  GameState s = combat_state({unit("fr_h", "fr", TroopType::kHorse, {16, 10}, 0),
                              unit("al_b1", "al", TroopType::kFoot, {16, 13}, 180)});
  OddsQuestion q;
  q.kind = OddsQuestion::Kind::kCharge;
  q.unit = "fr_h";
  q.target = "al_b1";
  q.dice = 2;
  const auto a = odds_for(s, "fr/left", q, ViewSettings{});
  ASSERT_TRUE(a.ok()) << a.error().reason;
  ASSERT_EQ(a->outcomes.size(), 1u + kCombatBandCount);
  EXPECT_EQ(a->outcomes[0].label, "no contact");
  EXPECT_EQ(a->outcomes[0].numerator, 5u);    // 2+2, 2+3, 3+2 of 36 fall short of 3"
  EXPECT_EQ(a->outcomes[0].denominator, 36u);
  double t = 0;
  for (const auto& o : a->outcomes) t += o.probability;
  EXPECT_NEAR(t, 1.0, 1e-12);
  EXPECT_NE(a->summary.find("contact 31/36"), std::string::npos) << a->summary;
  // The umpire asks as the charger's seat; the enemy's seat may not ask.
  EXPECT_TRUE(odds_for(s, "umpire", q, ViewSettings{}).ok());
  EXPECT_EQ(odds_for(s, "al/right", q, ViewSettings{}).error().code, "not_yours");
  q.dice = 4;
  EXPECT_EQ(odds_for(s, "fr/left", q, ViewSettings{}).error().code, "dice");
}

}  // namespace
}  // namespace galloper::rules::malbrook
