// Statistical tests, one per dice table of the sequence of play, command and
// control and movement: 10^5 rolls of the real dice (KeyedDice over
// consecutive steps of a fixed seed) through the real rules functions,
// against the EXACT distribution each test computes from the text's table.
// A chi-square test must not reject at p = 0.001; categories the table makes
// impossible must never occur.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "rules/core/dice.hpp"
#include "rules/malbrook/basing.hpp"
#include "rules/malbrook/control.hpp"
#include "rules/malbrook/movement.hpp"
#include "rules/malbrook/sequence.hpp"
#include "tests/rules/malbrook/test_state.hpp"

namespace galloper::rules::malbrook {
namespace {

using namespace test;

constexpr int kRolls = 100000;
constexpr double kAlpha = 0.001;

Seed seed_of(std::uint8_t salt) {
  Seed s{};
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<std::uint8_t>(i * 37 + salt);
  return s;
}

// Q(a, x), the regularised upper incomplete gamma function (Numerical
// Recipes' gser/gcf): the chi-square p-value is Q(df/2, x/2).
double upper_gamma_q(double a, double x) {
  if (x <= 0) return 1;
  const double gln = std::lgamma(a);
  if (x < a + 1) {
    double ap = a;
    double sum = 1 / a;
    double del = sum;
    for (int n = 0; n < 1000; ++n) {
      ap += 1;
      del *= x / ap;
      sum += del;
      if (std::abs(del) < std::abs(sum) * 1e-15) break;
    }
    return 1 - sum * std::exp(-x + a * std::log(x) - gln);
  }
  double b = x + 1 - a;
  double c = 1 / 1e-300;
  double d = 1 / b;
  double h = d;
  for (int i = 1; i < 1000; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::abs(d) < 1e-300) d = 1e-300;
    c = b + an / c;
    if (std::abs(c) < 1e-300) c = 1e-300;
    d = 1 / d;
    const double del = d * c;
    h *= del;
    if (std::abs(del - 1) < 1e-15) break;
  }
  return std::exp(-x + a * std::log(x) - gln) * h;
}

TEST(ChiSquare, PValuesOfKnownQuantiles) {
  EXPECT_NEAR(upper_gamma_q(0.5, 10.828 / 2), 0.001, 2e-6);  // df 1
  EXPECT_NEAR(upper_gamma_q(1.0, 13.816 / 2), 0.001, 2e-6);  // df 2
  EXPECT_NEAR(upper_gamma_q(5.0, 18.307 / 2), 0.05, 2e-5);   // df 10
}

// Observed counts (category -> n) against exact probabilities.
template <class Key>
void expect_distribution(const std::map<Key, int>& observed, const std::map<Key, double>& exact,
                         const std::string& what) {
  double total_p = 0;
  for (const auto& [k, p] : exact) total_p += p;
  ASSERT_NEAR(total_p, 1.0, 1e-12) << what << ": the exact distribution must sum to 1";
  int n = 0;
  for (const auto& [k, c] : observed) {
    n += c;
    const auto it = exact.find(k);
    EXPECT_TRUE(it != exact.end() && it->second > 0) << what << ": an impossible outcome occurred " << c << " times";
  }
  double chi2 = 0;
  int categories = 0;
  for (const auto& [k, p] : exact) {
    if (p <= 0) continue;
    const auto it = observed.find(k);
    const double o = it == observed.end() ? 0 : it->second;
    const double e = p * n;
    ASSERT_GT(e, 5) << what << ": merge small categories";
    chi2 += (o - e) * (o - e) / e;
    ++categories;
  }
  if (categories < 2) return;  // a certain outcome: checked exactly above
  const double p_value = upper_gamma_q((categories - 1) / 2.0, chi2 / 2);
  EXPECT_GT(p_value, kAlpha) << what << ": chi-square " << chi2 << " on " << categories - 1 << " df";
}

// ---- The Control Test ----

// The text's table: "2- Continue rout/pursuit/charge Otherwise halt; 3-4 Act
// as player wishes; 5+ Repeat last move Continue rout/pursuit/charge"
// (looting continues on 5+ only: RULINGS.md SC17).
std::map<ControlResult, double> control_table(int modifier, bool continuing, bool looting) {
  std::map<ControlResult, double> out;
  for (int face = 1; face <= 6; ++face) {
    const int total = face + modifier;
    ControlResult r = ControlResult::kAsWished;
    if (total <= 2) r = continuing ? ControlResult::kContinue : ControlResult::kHalt;
    else if (total >= 5) r = continuing || looting ? ControlResult::kContinue : ControlResult::kRepeatLastMove;
    out[r] += 1.0 / 6;
  }
  return out;
}

struct ControlCase {
  std::string name;
  Grade grade = Grade::kC;
  bool leader = false;
  Status status = Status::kMoved;  // kMoved: none of routing/pursuing/looting
  std::string option;              // the seat's choice
  int modifier = 0;                // what the text adds: +1 rout/pursuit/charge, the chosen +/-1s
  bool continuing = false;
  bool looting = false;
};

TEST(ControlTestStats, EachModifierCombinationFollowsTheTable) {
  const std::vector<ControlCase> cases = {
      {"no modifier", Grade::kC, false, Status::kMoved, "", 0, false, false},
      {"A-B grade +1", Grade::kA, false, Status::kMoved, "test+1", 1, false, false},
      {"A-B grade -1", Grade::kB, false, Status::kMoved, "test-1", -1, false, false},
      {"leader and grade +2", Grade::kA, true, Status::kMoved, "test+2", 2, false, false},
      {"leader and grade -2", Grade::kA, true, Status::kMoved, "test-2", -2, false, false},
      {"leader +1 -1 grade", Grade::kA, true, Status::kMoved, "test+0", 0, false, false},
      {"routing +1", Grade::kC, false, Status::kRouting, "", 1, true, false},
      {"pursuing +1, leader +1", Grade::kC, true, Status::kPursuing, "test+1", 2, true, false},
      {"routing +1, leader and grade -2", Grade::kA, true, Status::kRouting, "test-2", -1, true, false},
      {"routing +1, leader and grade +2", Grade::kA, true, Status::kRouting, "test+2", 3, true, false},
      {"looting", Grade::kC, false, Status::kLooting, "", 0, false, true},
  };
  std::uint8_t salt = 1;
  for (const auto& c : cases) {
    GameState s = tiny_state();
    s.command_stage = CommandStage::kControl;
    // Only the pieces the test needs: fewer to order right to left.
    std::erase_if(s.brigades, [](const Brigade& x) { return x.id != "fr_b1" && x.id != "al_b1"; });
    std::erase_if(s.leaders, [](const Leader& x) { return x.id != "fr_mg1" && x.id != "al_m"; });
    Brigade& b = brigade(s, "fr_b1");
    b.grade = c.grade;
    if (c.status != Status::kMoved) b.status |= static_cast<std::uint32_t>(c.status);
    if (c.leader) {
      leader(s, "fr_mg1").attached_to = "fr_b1";
      leader(s, "fr_mg1").position = attached_leader_position(b);
    }
    // The seat's choices on offer are those of the case.
    const ControlModifiers m = control_modifiers(s, b);
    ASSERT_EQ(m.choices, (c.grade <= Grade::kB ? 1 : 0) + (c.leader ? 1 : 0)) << c.name;
    std::vector<Answer> answers;
    if (!c.option.empty()) answers.push_back(option_answer("control/fr_b1", "fr/left", c.option));
    const Seed seed = seed_of(salt++);
    std::map<ControlResult, int> seen;
    const std::uint32_t status = b.status;
    for (int i = 0; i < kRolls; ++i) {
      b.control = ControlResult::kTest;
      b.status = status;
      KeyedDice dice(seed, static_cast<std::uint64_t>(i));
      std::vector<Event> events;
      resolve_control(s, answers, dice, events);
      ASSERT_EQ(events.size(), 1u) << c.name;
      ++seen[brigade(s, "fr_b1").control];
    }
    expect_distribution(seen, control_table(c.modifier, c.continuing, c.looting), "control test, " + c.name);
  }
}

// ---- Move distances ----

// Half-inches for `avd` AvD (faces 2-3-3-4-4-5) and the optional D6, with
// "adds ½ inch for every die rolled" when inspired, doubled for a double move.
std::map<int, double> move_table(int avd, bool d6, bool inspired, bool doubled) {
  std::map<int, double> dist{{0, 1.0}};
  const std::vector<int> avd_faces{2, 3, 3, 4, 4, 5};
  auto add_die = [&](const std::vector<int>& faces) {
    std::map<int, double> next;
    for (const auto& [v, p] : dist) {
      for (int f : faces) next[v + f + (inspired ? 1 : 0)] += p / static_cast<double>(faces.size());
    }
    dist = std::move(next);
  };
  for (int i = 0; i < avd; ++i) add_die(avd_faces);
  if (d6) add_die({1, 2, 3, 4, 5, 6});
  if (!doubled) return dist;
  std::map<int, double> twice;
  for (const auto& [v, p] : dist) twice[2 * v] += p;
  return twice;
}

TEST(MoveDistanceStats, AverageDiceAndTheOptionalD6InHalfInches) {
  struct Case {
    int avd;
    bool d6;
    bool inspired;
    bool doubled;
  };
  const std::vector<Case> cases = {
      {1, false, false, false}, {2, false, false, false}, {1, true, false, false}, {2, true, false, false},
      {2, true, true, false},   {1, true, false, true},   {1, false, true, true},
  };
  std::uint8_t salt = 40;
  for (const auto& c : cases) {
    const std::string name = std::to_string(c.avd) + " AvD" + (c.d6 ? " + D6" : "") +
                             (c.inspired ? ", inspired" : "") + (c.doubled ? ", doubled" : "");
    const Seed seed = seed_of(salt++);
    std::map<int, int> seen;
    for (int i = 0; i < kRolls; ++i) {
      KeyedDice dice(seed, static_cast<std::uint64_t>(i));
      const auto faces = roll_move_dice(dice, static_cast<std::uint32_t>(c.avd), c.d6);
      ASSERT_EQ(faces.size(), static_cast<std::size_t>(c.avd + (c.d6 ? 1 : 0)));
      const double inches = move_inches(faces, c.inspired, c.doubled);
      const double halves = inches * 2;
      ASSERT_NEAR(halves, std::round(halves), 1e-12);
      ++seen[static_cast<int>(std::lround(halves))];
    }
    expect_distribution(seen, move_table(c.avd, c.d6, c.inspired, c.doubled), "move distance, " + name);
  }
}

// ---- Fatigue and disorder when moving ----

// DPs per move: each die at or above `threshold` (7: none) is 1 DP; the
// AvD faces are 2-3-3-4-4-5, the D6 1-6.
std::map<int, double> fatigue_table(int avd, bool d6, int threshold) {
  std::map<int, double> dist{{0, 1.0}};
  auto add_die = [&](const std::vector<int>& faces) {
    std::map<int, double> next;
    for (const auto& [v, p] : dist) {
      for (int f : faces) next[v + (f >= threshold ? 1 : 0)] += p / static_cast<double>(faces.size());
    }
    dist = std::move(next);
  };
  for (int i = 0; i < avd; ++i) add_die({2, 3, 3, 4, 4, 5});
  if (d6) add_die({1, 2, 3, 4, 5, 6});
  return dist;
}

TEST(FatigueStats, DpsPerTerrainRowFollowTheTable) {
  struct Case {
    std::string name;
    Pose pose;
    bool rough;
    int avd;
    bool d6;
    int threshold;  // from the text
  };
  auto pose = [](TroopType t, Formation f, bool gun = false) {
    Pose p;
    p.type = t;
    p.formation = f;
    p.bases = 4;
    p.gun = gun;
    p.limbered = gun;
    return p;
  };
  const std::vector<Case> cases = {
      // "Good terrain ... 1 DP each time a '6' is rolled" (only the D6 can show one)
      {"good, foot line", pose(TroopType::kFoot, Formation::kLine), false, 1, true, 6},
      {"good, cavalry line", pose(TroopType::kHorse, Formation::kLine), false, 2, true, 6},
      // "Unless in march column, or unformed"
      {"good, foot march column", pose(TroopType::kFoot, Formation::kMarchColumn), false, 1, true, 7},
      {"good, unformed", pose(TroopType::kHussars, Formation::kUnformed), false, 2, true, 7},
      // Rough: "1 DP for each 6 rolled if foot in field column"
      {"rough, foot field column", pose(TroopType::kFoot, Formation::kFieldColumn), true, 1, true, 6},
      // "1 DP for each 5-6 if foot in line"
      {"rough, foot line", pose(TroopType::kFoot, Formation::kLine), true, 1, true, 5},
      {"rough, foot two-rank line", pose(TroopType::kFoot, Formation::kTwoRankLine), true, 1, true, 5},
      // "1 DP for each 4-6 rolled if cavalry or guns"
      {"rough, cavalry", pose(TroopType::kHorse, Formation::kLine), true, 2, true, 4},
      {"rough, cavalry column", pose(TroopType::kDragoons, Formation::kMarchColumn), true, 1, true, 4},
      {"rough, limbered gun", pose(TroopType::kFoot, Formation::kLine, true), true, 1, false, 4},
      // "No penalty if unformed or if foot in march column"
      {"rough, foot march column", pose(TroopType::kFoot, Formation::kMarchColumn), true, 1, true, 7},
      {"rough, unformed", pose(TroopType::kDismountedDragoons, Formation::kUnformed), true, 1, true, 7},
  };
  std::uint8_t salt = 80;
  for (const auto& c : cases) {
    const Seed seed = seed_of(salt++);
    std::map<int, int> seen;
    for (int i = 0; i < kRolls; ++i) {
      KeyedDice dice(seed, static_cast<std::uint64_t>(i));
      const auto faces = roll_move_dice(dice, static_cast<std::uint32_t>(c.avd), c.d6);
      ++seen[fatigue_dps(faces, c.pose, c.rough)];
    }
    expect_distribution(seen, fatigue_table(c.avd, c.d6, c.threshold), "fatigue, " + c.name);
  }
}

// ---- Initiative ----

// "dice to determine who moves first by rolling one D6. Add 1 to the die roll
// if the army is commanded by an exceptional Marshal"; ties roll again
// (RULINGS.md SC1). Outcome: (winner, rolls needed, 4 = 4 or more).
std::map<std::pair<std::string, int>, double> initiative_table(int mod_fr, int mod_al) {
  double p_fr = 0;
  double p_al = 0;
  double p_tie = 0;
  for (int a = 1; a <= 6; ++a) {
    for (int b = 1; b <= 6; ++b) {
      const int ta = a + mod_fr;
      const int tb = b + mod_al;
      (ta > tb ? p_fr : ta < tb ? p_al : p_tie) += 1.0 / 36;
    }
  }
  std::map<std::pair<std::string, int>, double> out;
  for (int k = 1; k <= 3; ++k) {
    out[{"fr", k}] = std::pow(p_tie, k - 1) * p_fr;
    out[{"al", k}] = std::pow(p_tie, k - 1) * p_al;
  }
  out[{"fr", 4}] = std::pow(p_tie, 3) * p_fr / (1 - p_tie);
  out[{"al", 4}] = std::pow(p_tie, 3) * p_al / (1 - p_tie);
  return out;
}

TEST(InitiativeStats, HighScoreWinsTiesRollAgainExceptionalMarshalAddsOne) {
  struct Case {
    std::string name;
    bool fr_exceptional;
    bool al_exceptional;
  };
  const std::vector<Case> cases = {
      {"no exceptional Marshal", false, false},
      {"French exceptional", true, false},
      {"both exceptional", true, true},
  };
  std::uint8_t salt = 120;
  for (const auto& c : cases) {
    GameState s = tiny_state();
    s.turn = 2;  // not the attacker's first turn
    s.phase = Phase::kInitiative;
    leader(s, "fr_m").exceptional = c.fr_exceptional;
    leader(s, "al_m").exceptional = c.al_exceptional;
    const Seed seed = seed_of(salt++);
    std::map<std::pair<std::string, int>, int> seen;
    for (int i = 0; i < kRolls; ++i) {
      KeyedDice dice(seed, static_cast<std::uint64_t>(i));
      std::vector<Event> events;
      settle_initiative(s, dice, events);
      int rolls = 0;
      for (const auto& e : events) rolls += e.kind == "initiative_roll" ? 1 : 0;
      ASSERT_EQ(dice.next_draw(), static_cast<std::uint32_t>(2 * rolls)) << "one D6 each per roll";
      ++seen[{s.initiative_winner, std::min(rolls, 4)}];
    }
    expect_distribution(seen, initiative_table(c.fr_exceptional ? 1 : 0, c.al_exceptional ? 1 : 0),
                        "initiative, " + c.name);
  }
}

}  // namespace
}  // namespace galloper::rules::malbrook
