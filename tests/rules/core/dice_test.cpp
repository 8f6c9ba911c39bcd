#include "rules/core/dice.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <map>

namespace galloper::rules {
namespace {

// Random123's published known-answer vectors (kat_vectors, "philox4x32 10").
TEST(Philox, KnownAnswerZeros) {
  const auto out = philox4x32_10({0, 0, 0, 0}, {0, 0});
  EXPECT_EQ(out, (PhiloxCounter{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}));
}

TEST(Philox, KnownAnswerOnes) {
  const auto out = philox4x32_10({0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}, {0xffffffffu, 0xffffffffu});
  EXPECT_EQ(out, (PhiloxCounter{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}));
}

TEST(Philox, KnownAnswerPi) {
  const auto out = philox4x32_10({0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}, {0xa4093822u, 0x299f31d0u});
  EXPECT_EQ(out, (PhiloxCounter{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}));
}

Seed test_seed(std::uint8_t salt) {
  Seed s{};
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<std::uint8_t>(i * 37 + salt);
  return s;
}

// With an all-zero seed the keying reduces to Philox itself: key 0, counter
// (step, 0, block, draw). Step 0, draw 0, block 0 gives the zeros vector, whose
// first word 0x6627e8d5 = 1713891541 is below the D6 limit; 1713891541 % 6 = 1.
TEST(KeyedDice, ZeroSeedMatchesRawPhilox) {
  const Seed zero{};
  EXPECT_EQ(KeyedDice::face_at(zero, 0, 0, 6), static_cast<int>(0x6627e8d5u % 6) + 1);
  EXPECT_EQ(KeyedDice::face_at(zero, 0, 0, 6), 2);
  // Draw 1: counter (0,0,0,1).
  const auto w = philox4x32_10({0, 0, 0, 1}, {0, 0});
  EXPECT_EQ(KeyedDice::face_at(zero, 0, 1, 6), static_cast<int>(w[0] % 6) + 1);
}

TEST(KeyedDice, Deterministic) {
  KeyedDice a(test_seed(1), 42);
  KeyedDice b(test_seed(1), 42);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(a.d6(), b.d6());
  EXPECT_EQ(a.log(), b.log());
}

TEST(KeyedDice, SeedAndStepMatter) {
  int same_seed = 0, same_step = 0;
  KeyedDice base(test_seed(1), 7);
  KeyedDice other_seed(test_seed(2), 7);
  KeyedDice other_step(test_seed(1), 8);
  for (int i = 0; i < 200; ++i) {
    const int f = base.d6();
    same_seed += f == other_seed.d6();
    same_step += f == other_step.d6();
  }
  // Independent streams agree about 1 time in 6.
  EXPECT_LT(same_seed, 70);
  EXPECT_LT(same_step, 70);
}

TEST(KeyedDice, EachDrawIsAPureFunctionOfItsPosition) {
  KeyedDice d(test_seed(3), 5);
  d.d6();
  d.avd();
  d.scatter();
  d.dn(12);
  for (const DieRoll& r : d.log()) {
    const int sides = r.kind == DieKind::kBearing ? 360 : r.sides;
    const int uniform = KeyedDice::face_at(test_seed(3), 5, r.draw, sides);
    const int shown = r.kind == DieKind::kAverage   ? average_die_face(uniform)
                      : r.kind == DieKind::kBearing ? uniform - 1
                                                    : uniform;
    EXPECT_EQ(r.face, shown);
  }
  // A dice object started at a later draw continues the same stream.
  KeyedDice again(test_seed(3), 5, 1);
  EXPECT_EQ(again.avd(), d.log()[1].face);
}

TEST(KeyedDice, LogRecordsKindsAndDrawsAndDrains) {
  KeyedDice d(test_seed(4), 1);
  const int a = d.d6();
  const int b = d.avd();
  ASSERT_EQ(d.log().size(), 2u);
  EXPECT_EQ(d.log()[0].kind, DieKind::kD6);
  EXPECT_EQ(d.log()[0].face, a);
  EXPECT_EQ(d.log()[0].draw, 0u);
  EXPECT_EQ(d.log()[1].kind, DieKind::kAverage);
  EXPECT_EQ(d.log()[1].face, b);
  EXPECT_EQ(d.log()[1].draw, 1u);
  const auto drained = d.drain();
  EXPECT_EQ(drained.size(), 2u);
  EXPECT_TRUE(d.log().empty());
  EXPECT_EQ(d.next_draw(), 2u);
}

TEST(FixedDice, GivesFacesInOrder) {
  FixedDice d{6, 5, 3, 2, 140, 1};
  EXPECT_EQ(d.d6(), 6);
  EXPECT_EQ(d.avd(), 5);
  const Scatter s = d.scatter();  // face 3 -> off target, bearing 2
  EXPECT_FALSE(s.on_target);
  EXPECT_EQ(s.face, 3);
  EXPECT_EQ(s.bearing_deg, 2);
  EXPECT_EQ(d.dn(200), 140);
  const Scatter hit = d.scatter();
  EXPECT_TRUE(hit.on_target);
  EXPECT_EQ(d.remaining(), 0u);
  ASSERT_EQ(d.log().size(), 6u);
  EXPECT_EQ(d.log()[3].kind, DieKind::kBearing);
  EXPECT_EQ(d.log()[3].face, 2);
}

TEST(FixedDiceDeathTest, AbortsWhenExhausted) {
  EXPECT_DEATH(
      {
        FixedDice d{3};
        d.d6();
        d.d6();
      },
      "ran out");
}

TEST(FixedDiceDeathTest, AbortsOnImpossibleFace) {
  EXPECT_DEATH(
      {
        FixedDice d{1};
        d.avd();
      },
      "average die");
}

// Chi-square goodness of fit of `counts` against `expected` probabilities.
double chi_square(const std::map<int, int>& counts, const std::map<int, double>& expected, int n) {
  double chi = 0;
  for (const auto& [face, p] : expected) {
    const double e = p * n;
    const auto it = counts.find(face);
    const double o = it == counts.end() ? 0 : it->second;
    chi += (o - e) * (o - e) / e;
  }
  return chi;
}

constexpr int kRolls = 100000;

// Critical values at p = 0.001: 5 dof 20.52, 3 dof 16.27, 1 dof 10.83.
// The seed is fixed, so each statistic is one deterministic number: these
// tests cannot flake, and still fail for a biased mapping.
TEST(DiceStatistics, D6IsUniform) {
  KeyedDice d(test_seed(9), 1000);
  std::map<int, int> counts;
  for (int i = 0; i < kRolls; ++i) ++counts[d.d6()];
  ASSERT_EQ(counts.size(), 6u);
  std::map<int, double> p;
  for (int f = 1; f <= 6; ++f) p[f] = 1.0 / 6;
  EXPECT_LT(chi_square(counts, p, kRolls), 20.52);
}

TEST(DiceStatistics, AverageDieHasItsFaces) {
  KeyedDice d(test_seed(10), 1001);
  std::map<int, int> counts;
  for (int i = 0; i < kRolls; ++i) ++counts[d.avd()];
  ASSERT_EQ(counts.size(), 4u);
  const std::map<int, double> p{{2, 1.0 / 6}, {3, 2.0 / 6}, {4, 2.0 / 6}, {5, 1.0 / 6}};
  EXPECT_LT(chi_square(counts, p, kRolls), 16.27);
}

TEST(DiceStatistics, ScatterIsOnTargetOneThirdAndBearingsUniform) {
  KeyedDice d(test_seed(11), 1002);
  std::map<int, int> hits;
  std::map<int, int> octants;
  int off = 0;
  for (int i = 0; i < kRolls; ++i) {
    const Scatter s = d.scatter();
    ++hits[s.on_target ? 1 : 0];
    if (!s.on_target) {
      ASSERT_GE(s.bearing_deg, 0);
      ASSERT_LT(s.bearing_deg, 360);
      ++octants[s.bearing_deg / 45];
      ++off;
    }
  }
  EXPECT_LT(chi_square(hits, {{1, 1.0 / 3}, {0, 2.0 / 3}}, kRolls), 10.83);
  std::map<int, double> p;
  for (int o = 0; o < 8; ++o) p[o] = 1.0 / 8;
  EXPECT_LT(chi_square(octants, p, off), 24.32);  // 7 dof
}

TEST(DiceStatistics, GenericDieIsUniform) {
  KeyedDice d(test_seed(12), 1003);
  std::map<int, int> counts;
  for (int i = 0; i < kRolls; ++i) ++counts[d.dn(10)];
  ASSERT_EQ(counts.size(), 10u);
  std::map<int, double> p;
  for (int f = 1; f <= 10; ++f) p[f] = 0.1;
  EXPECT_LT(chi_square(counts, p, kRolls), 27.88);  // 9 dof
}

}  // namespace
}  // namespace galloper::rules
