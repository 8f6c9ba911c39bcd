#pragma once
// Exact odds of Malbrook's dice tables, by enumeration of the faces with
// exact fractions: what a player may be shown before committing to an order,
// and what the statistical tests compare the engine's dice against
// (STYLE.md: "the engine's outcome distributions checked against exact
// probabilities").
//
// Sections: the fraction type; artillery (direct fire, indirect fire);
// leaders (risk to leaders, fire on lone leaders); combat (the combat
// engineer's place, below).
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "rules/core/game.hpp"
#include "rules/core/odds.hpp"
#include "rules/core/result.hpp"
#include "rules/malbrook/artillery.hpp"
#include "rules/malbrook/combat.hpp"
#include "rules/malbrook/damage.hpp"

namespace galloper::rules::malbrook {

// ---- A small exact rational: 64-bit numerator and denominator, always
// reduced, denominator > 0. Dice odds never come near overflow (6^k). ----
class Fraction {
 public:
  constexpr Fraction() = default;
  Fraction(std::int64_t num, std::int64_t den = 1);
  std::int64_t num() const { return num_; }
  std::int64_t den() const { return den_; }
  double value() const { return static_cast<double>(num_) / static_cast<double>(den_); }
  std::string str() const;  // "5/36"

  friend Fraction operator+(Fraction a, Fraction b);
  friend Fraction operator-(Fraction a, Fraction b);
  friend Fraction operator*(Fraction a, Fraction b);
  friend Fraction operator/(Fraction a, Fraction b);
  Fraction& operator+=(Fraction b) { return *this = *this + b; }
  Fraction& operator*=(Fraction b) { return *this = *this * b; }
  friend bool operator==(const Fraction&, const Fraction&) = default;
  friend bool operator<(Fraction a, Fraction b);

 private:
  std::int64_t num_ = 0;
  std::int64_t den_ = 1;
};

// ---- Artillery ----

// One direct-fire shot: P(result) for each row of the Results table, for a
// D6 with the shot's total modifier at the given range band.
struct ShotOdds {
  std::array<Fraction, 4> p;  // indexed by ShotResult
  Fraction of(ShotResult r) const { return p[static_cast<std::size_t>(r)]; }
  Fraction expected_dps() const;         // 1 / 2 / 1 DPs
  Fraction expected_casualties() const;  // the 6+ row at close range
};
ShotOdds direct_fire_odds(int modifier, RangeBand band);

// A shot described rather than found on the table (`galloper odds fire`):
// the modifiers direct_fire_modifiers would find for it.
struct ProposedShot {
  GunWeight weight = GunWeight::kMedium;
  std::uint32_t gun_dps = 0;
  RangeBand band = RangeBand::kClose;
  int target_history = -1;  // +1 same target and range, 0 same target at another range, -1 a new target
  bool exposed = false;     // target in column, limbered, or fired on in enfilade
  int cover = 0;            // fieldworks -1, fortifications -2
};
FireModifiers fire_modifiers(const ProposedShot& shot);

// One indirect shot: on target (scatter faces 1-2), or off by k x 1/2"
// (k = 1..6, each equally likely) on a uniform whole-degree bearing.
struct IndirectOdds {
  Fraction on_target;
  std::array<Fraction, 6> off_by;  // off_by[k-1]: lands k x 1/2" from the aim point
  Fraction bearing_each;           // each of the 360 bearings, given off target
};
IndirectOdds indirect_fire_odds();

// ---- Leaders ----

// A leader's fate from one test: attached leaders hit on a 1, lone leaders
// fired on by foot on 5-6 (`hit_faces` = 1 or 2), then the hit roll.
struct LeaderRiskOdds {
  std::array<Fraction, 4> p;  // indexed by LeaderFate
  Fraction of(LeaderFate f) const { return p[static_cast<std::size_t>(f)]; }
};
LeaderRiskOdds leader_risk_odds(int hit_faces, std::uint32_t wounds_before);

// ---- Combat (the combat engineer's section: combat.hpp, charge.hpp) ----
//
// Exact by convolution: N dice hitting on k+ give j hits in C(N,j) h^j
// (6-h)^(N-j) of the 6^N equally likely faces (h = 7-k hitting faces); the
// difference a - b is the convolution of the two. Counts are exact in 64
// bits up to 24 dice in all, so the Fractions are exact up to there; the
// doubles always.

inline constexpr int kExactCombatDice = 24;

// Ways (out of 6^n) that n dice hitting on `hit_on`+ score j hits, j = 0..n.
std::vector<std::uint64_t> hit_ways(int n, int hit_on);

struct CombatOdds {
  int dice_a = 0;
  int hit_on_a = 5;
  int dice_b = 0;
  int hit_on_b = 5;
  int min_difference = 0;           // -dice_b
  std::vector<double> difference;   // [d - min_difference]: P(a.hits - b.hits = d)
  std::vector<Fraction> exact;      // the same exactly; empty beyond kExactCombatDice
  std::array<double, kCombatBandCount> band_a{};   // P(a's band), indexed by CombatBand
  std::array<Fraction, kCombatBandCount> band_a_exact{};
  double p(int d) const;            // 0 outside the range
  double band_b(CombatBand band) const;  // P(b's band): the mirror
};
// From the numbers: dice (bases + modifiers, floored at 0 here) and thresholds.
CombatOdds combat_odds(int dice_a, int hit_on_a, int dice_b, int hit_on_b);
CombatOdds combat_odds(int bases_a, int modifiers_a, int hit_on_a, int bases_b, int modifiers_b, int hit_on_b);
// From an assessed combat (assess_combat_of).
CombatOdds combat_odds(const CombatResult& assessed);

// The odds of a proposed charge as the asking seat sees the table (RULINGS
// C17): only the enemy its view shows (view_for with `settings`); enemy grade
// unknown, taken as C; an enemy inspiration marker counts +1; no
// counter-charge or evade assumed. The charger must be the seat's own.
struct ChargeOdds {
  double gap = 0;                 // inches to contact
  Fraction p_contact;             // the dice reach it (exact)
  CombatResult assessed;          // the combat on contact with no fatigue DP (a: the charger's side)
  CombatOdds given_contact;       // mixing the fatigue DP a 6 on the D6 may cost
  std::array<double, kCombatBandCount> band{};  // charger's band, unconditional; the rest: no contact
  double p_no_contact = 0;
  // `band` exactly, while the fractions fit in 64 bits (kExactChargeDice).
  bool exact = false;
  std::array<Fraction, kCombatBandCount> band_exact{};
};
// Dice in all (both sides) up to which ChargeOdds::band_exact is given: the
// contact odds (denominator up to 6^3) times the fatigue mixture (6^3) times
// the combat (6^n) stay within 64 bits.
inline constexpr int kExactChargeDice = 18;
Result<ChargeOdds> charge_odds(const GameState& state, std::string_view seat, std::string_view charger,
                               std::string_view target, std::uint32_t dice, bool a_outrance,
                               const ViewSettings& settings = {});

// The odds of a proposed direct-fire shot as the asking seat sees the table
// (RULINGS C23): the gun must be the seat's own and able to fire, the target
// an enemy the seat's view shows that the gun may engage in the phase (the
// close fire phase when the game is in it, otherwise the bombardment phase);
// the modifiers are the engine's own (direct_fire_modifiers).
struct SeatShotOdds {
  FirePhase phase = FirePhase::kBombardment;
  double distance = 0;            // edge to edge, inches
  RangeBand band = RangeBand::kNone;
  bool under_control = false;     // may choose any eligible target
  FireModifiers modifiers;
  ShotOdds odds;
};
Result<SeatShotOdds> shot_odds(const GameState& state, std::string_view seat, std::string_view gun,
                               std::string_view target, const ViewSettings& settings = {});

// A candidate answer (OddsQuestion::Kind::kAnswer) put as the charge or shot
// it is. The decision must be pending for `seat` (for the umpire, for any
// seat) and the option one marked with odds: a fire decision's target, a
// charge declaration's charge (with `q.dice` dice, 2 when 0). An unknown
// decision and another seat's are refused in the same words, as are an
// option the decision does not offer and one it offers without odds.
// `pending` is pending(state).
Result<OddsQuestion> question_of_answer(const std::vector<Decision>& pending, std::string_view seat,
                                        const OddsQuestion& q);

// Game::odds for Malbrook: the question answered by charge_odds or shot_odds
// and written out for people. The umpire's seat asks as the unit's own seat.
Result<OddsAnswer> odds_for(const GameState& state, std::string_view seat, const OddsQuestion& question,
                            const ViewSettings& settings);

}  // namespace galloper::rules::malbrook
