#include "rules/malbrook/odds.hpp"

#include <cassert>
#include <cmath>
#include <cstdlib>
#include <numeric>
#include <set>
#include <algorithm>

#include "rules/core/tell.hpp"
#include "rules/core/visibility.hpp"
#include "rules/malbrook/charge.hpp"
#include "rules/malbrook/manoeuvre.hpp"
#include "rules/malbrook/movement.hpp"
#include "rules/malbrook/seats.hpp"
#include "rules/malbrook/view.hpp"
#include "rules/malbrook/visibility.hpp"

namespace galloper::rules::malbrook {

// ---- Fraction ----

Fraction::Fraction(std::int64_t num, std::int64_t den) {
  assert(den != 0);
  if (den < 0) {
    num = -num;
    den = -den;
  }
  const std::int64_t g = std::gcd(num < 0 ? -num : num, den);
  num_ = g == 0 ? 0 : num / g;
  den_ = g == 0 ? 1 : den / g;
}

std::string Fraction::str() const {
  return den_ == 1 ? std::to_string(num_) : std::to_string(num_) + "/" + std::to_string(den_);
}

Fraction operator+(Fraction a, Fraction b) {
  const std::int64_t l = std::lcm(a.den_, b.den_);
  return Fraction(a.num_ * (l / a.den_) + b.num_ * (l / b.den_), l);
}
Fraction operator-(Fraction a, Fraction b) { return a + Fraction(-b.num_, b.den_); }
Fraction operator*(Fraction a, Fraction b) {
  // Cross-reduce first to keep the products small.
  const std::int64_t g1 = std::gcd(a.num_ < 0 ? -a.num_ : a.num_, b.den_);
  const std::int64_t g2 = std::gcd(b.num_ < 0 ? -b.num_ : b.num_, a.den_);
  const std::int64_t n1 = g1 == 0 ? a.num_ : a.num_ / g1;
  const std::int64_t d2 = g1 == 0 ? b.den_ : b.den_ / g1;
  const std::int64_t n2 = g2 == 0 ? b.num_ : b.num_ / g2;
  const std::int64_t d1 = g2 == 0 ? a.den_ : a.den_ / g2;
  return Fraction(n1 * n2, d1 * d2);
}
Fraction operator/(Fraction a, Fraction b) {
  assert(b.num_ != 0);
  return a * Fraction(b.den_, b.num_);
}
bool operator<(Fraction a, Fraction b) { return (a - b).num_ < 0; }

// ---- Artillery ----

Fraction ShotOdds::expected_dps() const {
  return of(ShotResult::kOneDp) + of(ShotResult::kTwoDps) * Fraction(2) + of(ShotResult::kDpAndCasualty);
}
Fraction ShotOdds::expected_casualties() const { return of(ShotResult::kDpAndCasualty); }

ShotOdds direct_fire_odds(int modifier, RangeBand band) {
  ShotOdds o;
  // Every face of the D6 is equally likely; the table is a function of the
  // modified total.
  for (int face = 1; face <= 6; ++face) {
    o.p[static_cast<std::size_t>(direct_fire_result(face + modifier, band))] += Fraction(1, 6);
  }
  return o;
}

FireModifiers fire_modifiers(const ProposedShot& shot) {
  FireModifiers m;
  if (shot.weight == GunWeight::kHeavy) m.weight = 1;
  if (shot.weight == GunWeight::kLight) m.weight = -1;
  m.gun_dps = -static_cast<int>(shot.gun_dps);
  if (shot.band == RangeBand::kBeyond) m.beyond_effective = -1;
  m.target_history = std::clamp(shot.target_history, -1, 1);
  m.exposed = shot.exposed ? 1 : 0;
  m.cover = std::clamp(shot.cover, -2, 0);
  return m;
}

IndirectOdds indirect_fire_odds() {
  IndirectOdds o;
  int on = 0;
  for (int face = 1; face <= 6; ++face) on += scatter_face_on_target(face) ? 1 : 0;
  o.on_target = Fraction(on, 6);
  const Fraction off = Fraction(1) - o.on_target;
  for (int k = 1; k <= 6; ++k) o.off_by[static_cast<std::size_t>(k - 1)] = off * Fraction(1, 6);
  o.bearing_each = Fraction(1, 360);
  return o;
}

// ---- Leaders ----

LeaderRiskOdds leader_risk_odds(int hit_faces, std::uint32_t wounds_before) {
  LeaderRiskOdds o;
  const Fraction hit(hit_faces, 6);
  o.p[static_cast<std::size_t>(LeaderFate::kUnhurt)] = Fraction(1) - hit;
  for (int face = 1; face <= 6; ++face) {
    o.p[static_cast<std::size_t>(leader_hit_result(face, wounds_before))] += hit * Fraction(1, 6);
  }
  return o;
}

// ===========================================================================
// ---- Combat (the combat engineer's section) ----

std::vector<std::uint64_t> hit_ways(int n, int hit_on) {
  n = std::max(0, n);
  const std::uint64_t h = static_cast<std::uint64_t>(std::clamp(7 - hit_on, 0, 6));
  std::vector<std::uint64_t> ways(static_cast<std::size_t>(n) + 1, 0);
  ways[0] = 1;
  // One die at a time: ways'(j) = ways(j) (6-h) + ways(j-1) h.
  for (int k = 0; k < n; ++k) {
    for (int j = k + 1; j >= 0; --j) {
      const std::uint64_t miss = ways[static_cast<std::size_t>(j)] * (6 - h);
      const std::uint64_t hit = j > 0 ? ways[static_cast<std::size_t>(j) - 1] * h : 0;
      ways[static_cast<std::size_t>(j)] = miss + hit;
    }
  }
  return ways;
}

namespace {

std::vector<double> hit_probs(int n, int hit_on) {
  n = std::max(0, n);
  const double p = std::clamp(7 - hit_on, 0, 6) / 6.0;
  std::vector<double> pr(static_cast<std::size_t>(n) + 1, 0.0);
  pr[0] = 1;
  for (int k = 0; k < n; ++k) {
    for (int j = k + 1; j >= 0; --j) {
      pr[static_cast<std::size_t>(j)] =
          pr[static_cast<std::size_t>(j)] * (1 - p) + (j > 0 ? pr[static_cast<std::size_t>(j) - 1] * p : 0.0);
    }
  }
  return pr;
}

std::int64_t pow6(int n) {
  std::int64_t v = 1;
  for (int i = 0; i < n; ++i) v *= 6;
  return v;
}

}  // namespace

double CombatOdds::p(int d) const {
  const int i = d - min_difference;
  return i < 0 || i >= static_cast<int>(difference.size()) ? 0.0 : difference[static_cast<std::size_t>(i)];
}

double CombatOdds::band_b(CombatBand band) const {
  double t = 0;
  for (std::size_t i = 0; i < difference.size(); ++i) {
    if (combat_band(-(static_cast<int>(i) + min_difference)) == band) t += difference[i];
  }
  return t;
}

CombatOdds combat_odds(int dice_a, int hit_on_a, int dice_b, int hit_on_b) {
  CombatOdds o;
  o.dice_a = std::max(0, dice_a);
  o.dice_b = std::max(0, dice_b);
  o.hit_on_a = hit_on_a;
  o.hit_on_b = hit_on_b;
  o.min_difference = -o.dice_b;
  const std::size_t span = static_cast<std::size_t>(o.dice_a + o.dice_b) + 1;
  o.difference.assign(span, 0.0);
  const auto pa = hit_probs(o.dice_a, hit_on_a);
  const auto pb = hit_probs(o.dice_b, hit_on_b);
  for (int i = 0; i <= o.dice_a; ++i) {
    for (int j = 0; j <= o.dice_b; ++j) {
      o.difference[static_cast<std::size_t>(i - j - o.min_difference)] +=
          pa[static_cast<std::size_t>(i)] * pb[static_cast<std::size_t>(j)];
    }
  }
  for (std::size_t k = 0; k < span; ++k) {
    o.band_a[static_cast<std::size_t>(combat_band(static_cast<int>(k) + o.min_difference))] += o.difference[k];
  }
  if (o.dice_a + o.dice_b <= kExactCombatDice) {
    const auto wa = hit_ways(o.dice_a, hit_on_a);
    const auto wb = hit_ways(o.dice_b, hit_on_b);
    std::vector<std::uint64_t> w(span, 0);
    for (int i = 0; i <= o.dice_a; ++i) {
      for (int j = 0; j <= o.dice_b; ++j) {
        w[static_cast<std::size_t>(i - j - o.min_difference)] += wa[static_cast<std::size_t>(i)] * wb[static_cast<std::size_t>(j)];
      }
    }
    const std::int64_t den = pow6(o.dice_a + o.dice_b);
    std::array<std::uint64_t, kCombatBandCount> bw{};
    for (std::size_t k = 0; k < span; ++k) {
      o.exact.emplace_back(static_cast<std::int64_t>(w[k]), den);
      bw[static_cast<std::size_t>(combat_band(static_cast<int>(k) + o.min_difference))] += w[k];
    }
    for (std::size_t b = 0; b < bw.size(); ++b) o.band_a_exact[b] = Fraction(static_cast<std::int64_t>(bw[b]), den);
  }
  return o;
}

CombatOdds combat_odds(int bases_a, int modifiers_a, int hit_on_a, int bases_b, int modifiers_b, int hit_on_b) {
  return combat_odds(bases_a + modifiers_a, hit_on_a, bases_b + modifiers_b, hit_on_b);
}

CombatOdds combat_odds(const CombatResult& r) { return combat_odds(r.a.dice, r.a.hit_on, r.b.dice, r.b.hit_on); }

namespace {

// The table as `seat` knows it (RULINGS C17): the enemy its view shows
// (view_for, the one path to what a seat sees), their grade unknown (C), their
// inspiration only from the marker. The seat's own side stays whole (its
// friends block paths and fire as they would). `side`: the seat's army, empty
// for an unknown seat (whose picture has no troops).
// `visible`: the ids of the pieces its view shows.
GameState seat_picture(const GameState& s, std::string_view seat, const ViewSettings& settings, std::string& side,
                       std::set<std::string>& visible) {
  const View v = view_for(s, seat, settings);
  side = v.side;
  for (const auto& u : v.units) visible.insert(u.id);
  GameState p = s;
  std::erase_if(p.brigades, [&](const Brigade& b) { return b.army != side && !visible.contains(b.id); });
  std::erase_if(p.guns, [&](const Gun& g) { return g.army != side && !visible.contains(g.id); });
  for (auto& b : p.brigades) {
    if (b.army == side) continue;
    b.grade = Grade::kC;
    b.inspire_actions = b.has(Status::kInspired) ? 1 : 0;
  }
  return p;
}

}  // namespace

Result<ChargeOdds> charge_odds(const GameState& state, std::string_view seat, std::string_view charger,
                               std::string_view target, std::uint32_t dice, bool a_outrance,
                               const ViewSettings& settings) {
  std::string side;
  std::set<std::string> visible;
  GameState p = seat_picture(state, seat, settings, side, visible);
  const Brigade* cb = p.find_brigade(charger);
  if (cb == nullptr || cb->army != side || seat_of(*cb) != seat) {
    return reject("not_yours", "Seat " + std::string(seat) + " has no brigade " + std::string(charger) + ".");
  }
  if (!is_cavalry(cb->type)) return reject("not_cavalry", ref(charger) + " is not cavalry.");
  if (a_outrance && !may_charge_a_outrance(*cb)) {
    return reject("a_outrance", ref(charger) + " may not charge à l'outrance.");
  }
  if (dice < 1 || dice > 3) return reject("dice", "A charge rolls 1, 2 or 3 dice.");
  // A friend the seat is not shown (wing-only vision) is answered as an id that does not exist.
  if ((p.find_brigade(target) == nullptr && p.find_gun(target) == nullptr) || !visible.contains(std::string(target))) {
    return reject("unseen", std::string(target) + " is not an enemy the seat sees.");
  }
  if (unit_army(p, target) == side) return reject("friendly", ref(target) + " is not an enemy.");
  const auto path = charge_contact(p, *cb, target);
  if (!path) return reject("no_path", ref(charger) + " has no clear charge path to " + ref(target) + ".");
  ChargeOdds o;
  o.gap = path->contact;

  // The dice: AvD faces 2,3,3,4,4,5 for the first two, a D6 for the third.
  const bool insp = cb->inspire_actions > 0 || cb->has(Status::kInspired);
  const bool formed_fatigue = fatigue_dps({6}, pose_of(*cb), false) > 0;
  std::uint64_t total = 0;
  std::uint64_t reach = 0;
  std::uint64_t reach_tired = 0;
  const int avd = static_cast<int>(std::min<std::uint32_t>(dice, 2));
  const bool d6 = dice >= 3;
  const int outcomes = static_cast<int>(pow6(avd + (d6 ? 1 : 0)));
  for (int code = 0; code < outcomes; ++code) {
    std::vector<int> faces;
    int c = code;
    for (int k = 0; k < avd; ++k, c /= 6) faces.push_back(average_die_face(c % 6 + 1));
    int last = 0;
    if (d6) {
      last = c % 6 + 1;
      faces.push_back(last);
    }
    ++total;
    if (charge_inches(faces, insp) + 1e-9 < o.gap) continue;
    ++reach;
    if (d6 && last == 6 && formed_fatigue) ++reach_tired;
  }
  o.p_contact = Fraction(static_cast<std::int64_t>(reach), static_cast<std::int64_t>(total));
  o.p_no_contact = 1.0 - o.p_contact.value();

  // On contact: move the charger in and assess the combat.
  Brigade* m = const_cast<Brigade*>(p.find_brigade(charger));
  ChargeDeclaration decl;
  decl.charger = std::string(charger);
  decl.target = std::string(target);
  decl.a_outrance = a_outrance;
  decl.dice = dice;
  decl.start = m->position;
  decl.start_facing = m->facing_deg;
  decl.start_gap = o.gap;
  decl.contacted = std::string(target);
  const Vec2 d = path->dir * o.gap;
  m->position = m->position + d;
  for (auto& bp : m->base_poses) bp.center = bp.center + d;
  m->status |= static_cast<std::uint32_t>(Status::kCharging) | static_cast<std::uint32_t>(Status::kMoved);
  p.combat.charges = {decl};
  p.combat.responses.clear();
  auto fresh = assess_combat_of(p, charger);
  if (!fresh) return reject("no_combat", "The charge would not bring " + ref(charger) + " into combat.");
  o.assessed = *fresh;
  CombatOdds rested = combat_odds(o.assessed);
  o.given_contact = rested;
  const auto small = [](const CombatOdds& c) { return c.dice_a + c.dice_b <= kExactChargeDice; };
  o.exact = small(rested);
  std::array<Fraction, kCombatBandCount> given_exact = rested.band_a_exact;
  if (reach_tired > 0 && m->dps < kManoeuvreDpCap) {
    ++m->dps;
    auto tired = assess_combat_of(p, charger);
    const CombatOdds t = tired ? combat_odds(*tired) : rested;
    const double wt = static_cast<double>(reach_tired) / static_cast<double>(reach);
    // The same mixture exactly, while it fits (kExactChargeDice).
    o.exact = o.exact && small(t);
    if (o.exact) {
      const Fraction w(static_cast<std::int64_t>(reach_tired), static_cast<std::int64_t>(reach));
      for (std::size_t b = 0; b < given_exact.size(); ++b) {
        given_exact[b] = (Fraction(1) - w) * rested.band_a_exact[b] + w * t.band_a_exact[b];
      }
    }
    CombatOdds mix = rested;
    mix.exact.clear();  // a mixture: doubles only (the bands exactly: ChargeOdds::band_exact)
    mix.band_a_exact = {};
    mix.min_difference = std::min(rested.min_difference, t.min_difference);
    const int hi = std::max(rested.min_difference + static_cast<int>(rested.difference.size()),
                            t.min_difference + static_cast<int>(t.difference.size()));
    mix.difference.assign(static_cast<std::size_t>(hi - mix.min_difference), 0.0);
    mix.band_a.fill(0.0);
    for (int k = mix.min_difference; k < hi; ++k) {
      const double v = (1 - wt) * rested.p(k) + wt * t.p(k);
      mix.difference[static_cast<std::size_t>(k - mix.min_difference)] = v;
      mix.band_a[static_cast<std::size_t>(combat_band(k))] += v;
    }
    o.given_contact = mix;
  }
  for (std::size_t b = 0; b < o.band.size(); ++b) o.band[b] = o.p_contact.value() * o.given_contact.band_a[b];
  if (o.exact) {
    for (std::size_t b = 0; b < o.band.size(); ++b) o.band_exact[b] = o.p_contact * given_exact[b];
  }
  return o;
}

// ---- A shot as the seat sees it ----

namespace {

std::string_view phase_name(FirePhase phase) {
  return phase == FirePhase::kCloseFire ? "close fire" : "bombardment";
}

std::string ids_of(const std::vector<FireTarget>& targets) {
  std::string out;
  for (const auto& t : targets) out += (out.empty() ? "" : ", ") + ref(t.id);
  return out;
}

std::string inches_text(double d) {
  const double r = std::round(d * 10.0) / 10.0;
  std::string t = std::to_string(r);
  t.erase(t.find_last_not_of('0') + 1);
  if (!t.empty() && t.back() == '.') t.pop_back();
  return t + "\"";
}

}  // namespace

Result<SeatShotOdds> shot_odds(const GameState& state, std::string_view seat, std::string_view gun,
                               std::string_view target, const ViewSettings& settings) {
  std::string side;
  std::set<std::string> visible;
  const GameState p = seat_picture(state, seat, settings, side, visible);
  const Gun* g = p.find_gun(gun);
  if (g == nullptr || g->army != side || seat_of(*g) != seat) {
    return reject("not_yours", "Seat " + std::string(seat) + " has no gun " + std::string(gun) + ".");
  }
  const std::string name = ref(gun);
  if (fires_indirect(g->weight)) {
    return reject("indirect", name + " is a " + std::string(to_string(g->weight)) +
                                  ": it fires indirectly at a point, and every aim point scatters alike (on target 1/3).");
  }
  const FirePhase phase = p.phase == Phase::kCloseFire ? FirePhase::kCloseFire : FirePhase::kBombardment;
  if (g->has(Status::kAbandoned) || g->has(Status::kCrewEliminated) || g->has(Status::kDestroyed)) {
    return reject("cannot_fire", name + " has no crew to fire it.");
  }
  if (g->limbered) return reject("cannot_fire", name + " is limbered: unlimber it to fire.");
  if (!gun_may_fire(p, *g, phase)) {
    return reject("cannot_fire", name + " may not fire in the " + std::string(phase_name(phase)) + " phase: " +
                                     (phase == FirePhase::kBombardment
                                          ? "it is in close combat."
                                          : "it fired at close range in the bombardment, or is in close combat "
                                            "after firing then."));
  }
  const Brigade* tb = p.find_brigade(target);
  const Gun* tg = p.find_gun(target);
  // A friend the seat is not shown (wing-only vision) is answered as an id that does not exist.
  if ((tb == nullptr && tg == nullptr) || !visible.contains(std::string(target))) {
    return reject("unseen", std::string(target) + " is not an enemy the seat sees.");
  }
  if ((tb != nullptr ? tb->army : tg->army) == side) return reject("friendly", ref(target) + " is not an enemy.");
  const std::vector<FireTarget> eligible = eligible_targets(p, *g, phase);
  const auto is_target = [&](const FireTarget& t) { return t.id == target; };
  const auto t = std::find_if(eligible.begin(), eligible.end(), is_target);
  if (t == eligible.end()) {
    const double reach = phase == FirePhase::kCloseFire ? kCloseRange : max_range(g->weight);
    return reject("not_a_target",
                  ref(target) + " is not a target " + name + " may engage in the " +
                      std::string(phase_name(phase)) + " phase: a target must be within " + inches_text(reach) +
                      " in the gun's 45° front arc and its sight, and more than 1\" from the gun's friends (" +
                      (eligible.empty() ? std::string("it has no target now") : "it may engage " + ids_of(eligible)) +
                      ").");
  }
  SeatShotOdds o;
  o.phase = phase;
  o.distance = t->distance;
  o.band = t->band;
  o.under_control = gun_under_control(p, *g, phase);
  if (!o.under_control) {
    const std::vector<FireTarget> allowed = allowed_targets(p, *g, phase);
    if (std::none_of(allowed.begin(), allowed.end(), is_target)) {
      return reject("not_nearest", name + " is not under control: it must fire at the nearest target (" +
                                       ids_of(allowed) + ").");
    }
  }
  o.modifiers = direct_fire_modifiers(p, *g, *t);
  o.odds = direct_fire_odds(o.modifiers.total(), o.band);
  return o;
}

// ---- Game::odds ----

namespace {

OddsOutcome outcome(std::string label, Fraction exact) {
  return {std::move(label), static_cast<std::uint64_t>(exact.num()), static_cast<std::uint64_t>(exact.den()),
          exact.value()};
}

std::string signed_text(int v) { return (v > 0 ? "+" : "") + std::to_string(v); }

std::string modifiers_text(const std::vector<CombatModifier>& ms) {
  std::string out;
  for (const auto& m : ms) out += (out.empty() ? "" : ", ") + signed_text(m.dice) + " " + m.why;
  return out.empty() ? "none" : out;
}

}  // namespace

Result<OddsQuestion> question_of_answer(const std::vector<Decision>& pending, std::string_view seat,
                                        const OddsQuestion& q) {
  const Answer& a = q.answer;
  const Decision* d = nullptr;
  for (const auto& p : pending) {
    if (p.id == a.decision_id && (seat == kUmpireSeat || p.seat == seat)) d = &p;
  }
  if (d == nullptr) return reject("not_pending", "No decision \"" + a.decision_id + "\" waits for your answer.");
  // Only a fire decision's target and a charge declaration's charge are weighed.
  const bool weighed_kind = d->kind == "artillery_fire" || d->kind == "charge_declaration";
  const Option* option = nullptr;
  for (const auto& o : d->options) {
    if (o.id == a.option && o.odds) option = &o;
  }
  if (option == nullptr || !weighed_kind || d->subjects.empty()) {
    return reject("no_odds", "Answering with \"" + a.option + "\" has no odds to give.");
  }
  OddsQuestion put;
  put.unit = d->subjects.front();
  put.target = option->piece;
  put.kind = d->kind == "artillery_fire" ? OddsQuestion::Kind::kShot : OddsQuestion::Kind::kCharge;
  if (put.kind == OddsQuestion::Kind::kCharge) {  // "charge:<t>" or "outrance:<t>"
    put.a_outrance = option->id.starts_with("outrance:");
    put.dice = q.dice == 0 ? 2 : q.dice;
  }
  return put;
}

Result<OddsAnswer> odds_for(const GameState& state, std::string_view seat, const OddsQuestion& q,
                            const ViewSettings& settings) {
  if (q.unit.empty()) {
    return reject("no_unit", q.kind == OddsQuestion::Kind::kCharge ? "Name the brigade that charges."
                                                                   : "Name the gun that fires.");
  }
  if (q.target.empty()) return reject("no_target", "Name the target.");
  // The umpire asks as the unit's own seat would see it.
  std::string asking(seat);
  if (seat == kUmpireSeat) {
    if (const Brigade* b = state.find_brigade(q.unit); b != nullptr && q.kind == OddsQuestion::Kind::kCharge) {
      asking = seat_of(*b);
    }
    if (const Gun* g = state.find_gun(q.unit); g != nullptr && q.kind == OddsQuestion::Kind::kShot) {
      asking = seat_of(*g);
    }
  }
  OddsAnswer a;
  if (q.kind == OddsQuestion::Kind::kCharge) {
    auto r = charge_odds(state, asking, q.unit, q.target, q.dice, q.a_outrance, settings);
    if (!r) return r.error();
    const ChargeOdds& o = r.value();
    a.summary = q.unit + " charges " + q.target + (q.a_outrance ? " à l'outrance" : "") + " with " +
                std::to_string(q.dice) + (q.dice == 1 ? " die" : " dice") + ": contact " + o.p_contact.str() +
                ", then the combat";
    a.notes.push_back(q.target + " is " + inches_text(o.gap) + " away; the dice reach it " + o.p_contact.str() +
                      " of the time.");
    a.notes.push_back("On contact: " + std::to_string(o.assessed.a.dice) + " dice hitting on " +
                      std::to_string(o.assessed.a.hit_on) + "+ (modifiers: " + modifiers_text(o.assessed.a.modifiers) +
                      ") against " + std::to_string(o.assessed.b.dice) + " on " + std::to_string(o.assessed.b.hit_on) +
                      "+ (modifiers: " + modifiers_text(o.assessed.b.modifiers) + ").");
    if (q.dice >= 3) a.notes.push_back("A 6 on the third die costs a fatigue DP before the combat (mixed in).");
    a.notes.push_back("Assumed: the enemy's grade (hidden) is C; no counter-charge or evade.");
    a.outcomes.push_back(outcome("no contact", Fraction(1) - o.p_contact));
    for (std::size_t b = 0; b < o.band.size(); ++b) {
      const std::string label(to_string(static_cast<CombatBand>(b)));
      if (o.exact) {
        a.outcomes.push_back(outcome(label, o.band_exact[b]));
      } else {
        a.outcomes.push_back({label, 0, 0, o.band[b]});
      }
    }
    return a;
  }
  auto r = shot_odds(state, asking, q.unit, q.target, settings);
  if (!r) return r.error();
  const SeatShotOdds& o = r.value();
  a.summary = q.unit + " fires at " + q.target + " (" + std::string(to_string(o.band)) + " range, modifier " +
              signed_text(o.modifiers.total()) + ")";
  a.notes.push_back(q.target + " is " + inches_text(o.distance) + " away: " + std::string(to_string(o.band)) +
                    " range, in the " + std::string(phase_name(o.phase)) + " phase.");
  const std::string described = o.modifiers.describe();
  a.notes.push_back("Modifiers:" + (described.empty() ? std::string(" none") : described) + " (total " +
                    signed_text(o.modifiers.total()) + ").");
  a.notes.push_back(o.under_control ? "Under control: it may choose any eligible target."
                                    : "Not under control: only the nearest target.");
  for (std::size_t k = 0; k < o.odds.p.size(); ++k) {
    const auto res = static_cast<ShotResult>(k);
    // Beyond close range the table has two rows only.
    if (o.band != RangeBand::kClose && (res == ShotResult::kTwoDps || res == ShotResult::kDpAndCasualty)) continue;
    a.outcomes.push_back(outcome(std::string(to_string(res)), o.odds.of(res)));
  }
  return a;
}


}  // namespace galloper::rules::malbrook
