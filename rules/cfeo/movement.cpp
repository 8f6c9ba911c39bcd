#include "rules/cfeo/movement.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <string>

#include "rules/cfeo/basing.hpp"
#include "rules/cfeo/combat_moves.hpp"
#include "rules/cfeo/command_tables.hpp"
#include "rules/cfeo/morale.hpp"
#include "rules/cfeo/move_tables.hpp"
#include "rules/cfeo/seats.hpp"
#include "rules/cfeo/sequence.hpp"
#include "rules/core/answers.hpp"
#include "rules/core/geometry.hpp"
#include "rules/core/tell.hpp"

namespace galloper::rules::cfeo {

namespace {

constexpr double kTolerance = 1e-6;
constexpr double kPathSample = 5;  // yards between the points a forward move is checked at


tables::Mover mover(const Unit& u) { return is_cavalry(u.arm) ? tables::Mover::kCavalry : tables::Mover::kInfantry; }

tables::Arm table_arm(const Unit& u) { return is_cavalry(u.arm) ? tables::Arm::kCavalry : tables::Arm::kInfantry; }

tables::MoveFormation move_formation(Formation f) {
  switch (f) {
    case Formation::kLine: return tables::MoveFormation::kLine;
    case Formation::kAssaultColumn: return tables::MoveFormation::kAssaultColumn;
    case Formation::kMarchColumn: return tables::MoveFormation::kMarchColumn;
    case Formation::kUnformed: return tables::MoveFormation::kUnformed;
  }
  return tables::MoveFormation::kLine;
}

double enemy_distance_of(const GameState& s, Index side, const std::vector<OrientedRect>& bases) {
  double best = std::numeric_limits<double>::infinity();
  for (const Unit& e : s.units) {
    if (e.side != side) best = std::min(best, group_gap(bases, footprint(e)));
  }
  for (const Gun& g : s.guns) {
    if (g.side != side && !g.abandoned) best = std::min(best, group_gap(bases, {footprint(g)}));
  }
  return best;
}

bool tactical(const GameState& s, const Unit& u) { return enemy_distance(s, u) <= tables::kTacticalZone; }

// ---- Dice ----

struct DiceChoice {
  std::string_view id;
  tables::MoveDice dice;
  std::string_view label;
};
constexpr DiceChoice kDiceChoices[] = {
    {"1", {1, false}, "1 AvD"},
    {"1+d6", {1, true}, "1 AvD + D6"},
    {"2", {2, false}, "2 AvD"},
    {"2+d6", {2, true}, "2 AvD + D6"},
};
constexpr std::string_view kHalt = "halt";

// ---- Orders ----

// A unit as an order moves it: where it stands after each step, and what it cost.
struct Moved {
  Unit unit;
  double used = 0;     // yards of the allowance
  int dps = 0;         // manoeuvre DPs incurred
  bool whole_move = false;  // a step that takes the whole move was made
};

Rejection refuse(std::string code, std::string reason) { return reject(std::move(code), std::move(reason)); }

// Whether the unit, standing as `u`, is clear: on the table, not within 20
// yds of an enemy, not on another piece.
std::optional<Rejection> clear(const GameState& s, const Unit& u, std::size_t self) {
  const auto bases = footprint(u);
  for (const auto& b : bases) {
    for (Vec2 c : b.corners()) {
      if (c.x < -kTolerance || c.y < -kTolerance || c.x > s.table_width + kTolerance || c.y > s.table_depth + kTolerance) {
        return refuse("off_table", ref(u.id) + " would leave the table.");
      }
    }
  }
  if (enemy_distance_of(s, u.side, bases) < kHaltFromEnemy - kTolerance) {
    return refuse("too_close", ref(u.id) + " must halt 20 yds from the enemy.");
  }
  for (std::size_t i = 0; i < s.units.size(); ++i) {
    if (i == self || s.units[i].side != u.side) continue;
    for (const auto& b : footprint(s.units[i])) {
      for (const auto& mine : bases) {
        if (overlaps(mine, b, kTolerance)) return refuse("overlap", ref(u.id) + " would end on " + ref(s.units[i].id) + ".");
      }
    }
  }
  for (const Gun& g : s.guns) {
    if (g.side != u.side) continue;
    for (const auto& mine : bases) {
      if (overlaps(mine, footprint(g), kTolerance)) return refuse("overlap", ref(u.id) + " would end on " + ref(g.id) + ".");
    }
  }
  return std::nullopt;
}

// Carries out one step on `m`, within `allowance` yards.
std::optional<Rejection> take_step(const GameState& s, std::size_t self, Moved& m, const OrderStep& st, double allowance,
                                   bool near_enemy) {
  Unit& u = m.unit;
  if (m.whole_move) return refuse("whole_move", "A change of formation within 120 yds of the enemy is the whole move of " + ref(u.id) + ".");
  const double left = allowance - m.used;
  if (st.action == "forward") {
    if (!(st.distance >= 0)) return refuse("bad_distance", "A forward move is 0 yds or more.");
    if (st.distance > left + kTolerance) {
      return refuse("too_far", ref(u.id) + " has " + yards(left) + " of its move left, not " + yards(st.distance) + ".");
    }
    const Vec2 dir = facing_unit(u.facing_deg);
    const Vec2 from = u.position;
    for (double d = kPathSample; d < st.distance; d += kPathSample) {
      u.position = from + dir * d;
      if (auto r = clear(s, u, self); r && r->code == "too_close") return r;
    }
    u.position = from + dir * st.distance;
    m.used += st.distance;
    return clear(s, u, self);
  }
  if (st.action == "wheel") {
    if (st.pivot != "left" && st.pivot != "right") return refuse("bad_pivot", "A wheel pivots on its \"left\" or \"right\" front corner.");
    // The free end swings forward: on the left corner the unit turns left
    // (anticlockwise, a negative angle), on the right corner right.
    if ((st.pivot == "left" && st.angle_deg > 0) || (st.pivot == "right" && st.angle_deg < 0)) {
      return refuse("bad_wheel", "A wheel on the " + st.pivot + " corner turns " + st.pivot + ": its angle is " +
                                     (st.pivot == "left" ? "negative" : "positive") + ".");
    }
    const double width = base_size(u.arm).width * static_cast<double>(std::min(bases_per_rank(u), u.bases));
    const double arc = width * std::abs(st.angle_deg) * std::numbers::pi / 180.0;
    if (arc > left + kTolerance) {
      return refuse("too_far", "The wheel of " + ref(u.id) + " takes " + yards(arc) + "; it has " + yards(left) + " left.");
    }
    const OrientedRect front = OrientedRect::from_front_mid(u.position, width, 1, u.facing_deg);
    const auto corners = front.corners();  // front-left, front-right, ...
    const Vec2 pivot = st.pivot == "left" ? corners[0] : corners[1];
    u.position = rotate_cw_about(u.position, pivot, st.angle_deg);
    u.facing_deg = normalize_deg(u.facing_deg + st.angle_deg);
    m.used += arc;
    // "Wheel: 1 DP in 120 yds of enemy. No penalty if in column, unformed, or further away."
    if (near_enemy && u.formation == Formation::kLine) m.dps += 1;
    return clear(s, u, self);
  }
  if (st.action == "about_face") {
    // "About face: ½ move, 1 DP if cavalry within 120 yds of enemy or if foot under fire."
    if (allowance / 2 > left + kTolerance) return refuse("too_far", "An about face takes half the move of " + ref(u.id) + ".");
    m.used += allowance / 2;
    const auto bases = footprint(u);
    // Turned about its own middle: the rear edge becomes the front.
    const double depth = bases.empty() ? 0 : distance(u.position, bases.back().center) * 2;
    u.position = u.position - facing_unit(u.facing_deg) * depth;
    u.facing_deg = normalize_deg(u.facing_deg + 180);
    if ((is_cavalry(u.arm) && near_enemy) || (is_foot(u.arm) && u.under_fire)) m.dps += 1;
    return clear(s, u, self);
  }
  if (st.action == "formation") {
    const auto f = formation_named(st.formation);
    if (!f || *f == Formation::kUnformed) return refuse("bad_formation", "\"" + st.formation + "\" is not a formation to form.");
    if (*f == Formation::kAssaultColumn && !is_foot(u.arm)) return refuse("bad_formation", "Only foot form an assault column.");
    if (*f == u.formation) return refuse("bad_formation", ref(u.id) + " is already in " + std::string(to_string(*f)) + ".");
    // "Change Formation. 1 move and 1 DP if within 120 yds of enemy. ½ move, no DP if further away."
    if (near_enemy) {
      if (m.used > kTolerance) return refuse("whole_move", "A change of formation within 120 yds of the enemy is the whole move of " + ref(u.id) + ".");
      m.whole_move = true;
      m.used = allowance;
      m.dps += 1;
    } else {
      if (allowance / 2 > left + kTolerance) return refuse("too_far", "A change of formation takes half the move of " + ref(u.id) + ".");
      m.used += allowance / 2;
    }
    u.formation = *f;
    return clear(s, u, self);
  }
  return refuse("bad_action", "\"" + st.action + "\" is not an order CF&EO's movement takes yet: forward, wheel, "
                              "about_face or formation.");
}

// The allowance of a unit's order: its rolled yards, else a march move.
double allowance_of(const Unit& u) {
  if (u.allowance >= 0) return u.allowance;
  return tables::march_move_limit(mover(u), false);
}

// `repeat`: the steps are its last move again ("5+ = Repeat last move."):
// no dice, and a march move may end within 120 yds (RULINGS K7).
Result<Moved> carry_out(const GameState& s, std::size_t self, const std::vector<OrderStep>& steps, bool repeat = false) {
  const Unit& u = s.units[self];
  Moved m{u, 0, 0, false};
  if (steps.empty()) return m;
  const bool march = u.allowance < 0 && !(repeat && tactical(s, u));
  const double allowance = allowance_of(u);
  for (const OrderStep& st : steps) {
    if (auto r = take_step(s, self, m, st, allowance, !march)) return *r;
  }
  // "March Move. Starts and ends beyond 120 yds of enemy."
  if (march && !repeat && enemy_distance_of(s, u.side, footprint(m.unit)) <= tables::kTacticalZone) {
    return reject("march_into_contact", "A march move ends beyond 120 yds of the enemy; within it, " + ref(u.id) +
                                            " needs a tactical move's dice.");
  }
  m.unit.moved = true;
  return m;
}

std::size_t unit_of(const GameState& s, std::string_view decision_id, std::string_view prefix) {
  const std::string_view id = decision_id.substr(prefix.size());
  for (std::size_t i = 0; i < s.units.size(); ++i) {
    if (s.units[i].id == id) return i;
  }
  return s.units.size();
}

void take_dps(Unit& u, int dps, std::string why, std::vector<Event>& ev) {
  const int taken = tables::movement_dps_taken(static_cast<int>(u.dps), dps);
  if (taken <= 0) return;
  u.dps += static_cast<std::uint32_t>(taken);
  Event e;
  e.kind = "dp";
  e.subjects = {u.id};
  e.where = {{u.position, u.id}};
  e.text = ref(u.id) + " takes " + std::to_string(taken) + (taken == 1 ? " DP" : " DPs") + " (" + why + ").";
  ev.push_back(std::move(e));
}

}  // namespace

bool free_to_move(const Unit& u) {
  return !u.steadied && (u.control == Control::kFree || u.control == Control::kAsWished);
}

double enemy_distance(const GameState& s, const Unit& u) { return enemy_distance_of(s, u.side, footprint(u)); }

std::vector<Decision> movement_pending(const GameState& s) {
  std::vector<Decision> out;
  if (s.phase != Phase::kMovement) return out;
  for (const Unit& u : s.units) {
    // Routing and retiring units make no ordered move (RULINGS C7), nor do
    // units steadied or bound by their control test (RULINGS K6, K7).
    if (!is_acting(s, u.side) || !in_field(u) || !free_to_move(u)) continue;
    if (!s.move_orders) {
      if (!tactical(s, u)) continue;
      Decision d;
      d.id = std::string(kMoveDicePrefix) + u.id;
      d.seat = seat_of(s, u);
      d.kind = "move_dice";
      d.subjects = {u.id};
      d.prompt = "Tactical move: how many dice does " + ref(u.id) + " roll?";
      for (const DiceChoice& c : kDiceChoices) {
        if (tables::tactical_dice_allowed(mover(u), c.dice)) d.options.push_back({std::string(c.id), std::string(c.label)});
      }
      d.options.push_back({std::string(kHalt), "Halt"});
      d.default_option = std::string(kHalt);
      out.push_back(std::move(d));
      continue;
    }
    // Orders: a march move, or the yards the dice gave (none: halted).
    if (u.allowance == 0 || (u.allowance < 0 && tactical(s, u))) continue;
    Decision d;
    d.id = std::string(kMovePrefix) + u.id;
    d.seat = seat_of(s, u);
    d.kind = "move";
    d.subjects = {u.id};
    d.prompt = (u.allowance < 0 ? "March move for " : "Tactical move for ") + ref(u.id) + ": up to " +
               yards(allowance_of(u)) + ".";
    // Unanswered, or answered "halt" with no steps, it stands.
    d.default_option = std::string(kHalt);
    d.limits = {{"max_distance", allowance_of(u)}};
    out.push_back(std::move(d));
  }
  return out;
}

Verdict movement_check(const GameState& s, const Decision& d, const Answer& a) {
  if (d.kind == "move_dice") return listed_option(d, a);
  if (!a.option.empty() && a.option != kHalt) {
    return reject("bad_option", "An order is its steps, or \"" + std::string(kHalt) + "\" with none; not \"" + a.option + "\".");
  }
  if (a.option == kHalt && !a.steps.empty()) return reject("bad_option", "\"" + std::string(kHalt) + "\" takes no steps.");
  const std::size_t self = unit_of(s, a.decision_id, kMovePrefix);
  if (self >= s.units.size()) return reject("unknown_decision", "Nothing called \"" + a.decision_id + "\" is pending now.");
  auto moved = carry_out(s, self, a.steps);
  if (!moved) return moved.error();
  return Ok{};
}

Result<bool> resolve_movement(GameState& s, const std::vector<Answer>& answers, Dice& dice, std::vector<Event>& ev) {
  if (!s.move_orders) {
    for (const Answer& a : answers) {
      const std::size_t i = unit_of(s, a.decision_id, kMoveDicePrefix);
      if (i >= s.units.size()) continue;
      Unit& u = s.units[i];
      const auto choice = std::find_if(std::begin(kDiceChoices), std::end(kDiceChoices),
                                       [&](const DiceChoice& c) { return c.id == a.option; });
      if (choice == std::end(kDiceChoices)) {
        u.allowance = 0;
        continue;
      }
      // "Inspired unit: +10 yds for each die rolled" (RULINGS T15).
      const tables::MoveRoll roll = tables::roll_move(dice, choice->dice, u.inspired > 0, false);
      u.allowance = roll.yards;
      Event e;
      e.kind = "move_dice";
      e.subjects = {u.id};
      e.where = {{u.position, u.id}};
      e.dice = dice.drain();
      e.text = ref(u.id) + " rolls " + std::string(choice->label) + (u.inspired > 0 ? ", inspired," : "") +
               " for its move: " + yards(roll.yards) + ".";
      ev.push_back(std::move(e));
      const bool rough = s.terrain.is_rough(footprint(u).front());
      take_dps(u, tables::fatigue_dps(roll.faces, table_arm(u), move_formation(u.formation), rough),
               rough ? "fatigue and disorder, rough terrain" : "fatigue and disorder", ev);
    }
    s.move_orders = true;
    return true;
  }
  const GameState before = s;
  struct Order {
    std::size_t unit;
    std::string decision;
    Moved moved;
    std::vector<OrderStep> steps;
  };
  std::vector<Order> orders;
  for (const Answer& a : answers) {
    const std::size_t i = unit_of(before, a.decision_id, kMovePrefix);
    if (i >= before.units.size() || a.steps.empty()) continue;
    auto m = carry_out(before, i, a.steps);
    if (!m) return m.error();
    orders.push_back({i, a.decision_id, std::move(m.value()), a.steps});
  }
  // Both sides moving at once: enemies whose moves would meet, ending
  // within 20 yds of each other, both halt where they stood (RULINGS F10).
  std::vector<char> met(orders.size(), 0);
  for (std::size_t x = 0; x < orders.size(); ++x) {
    for (std::size_t y = x + 1; y < orders.size(); ++y) {
      const Unit& a = orders[x].moved.unit;
      const Unit& b = orders[y].moved.unit;
      if (a.side != b.side && group_gap(footprint(a), footprint(b)) < kHaltFromEnemy - kTolerance) met[x] = met[y] = 1;
    }
  }
  std::vector<std::pair<std::size_t, std::string>> moved;  // unit, decision
  for (std::size_t x = 0; x < orders.size(); ++x) {
    const Order& o = orders[x];
    Unit& u = s.units[o.unit];
    Event e;
    e.subjects = {u.id};
    if (met[x]) {
      e.kind = "halted";
      e.where = {{u.position, u.id}};
      e.text = ref(u.id) + " meets the enemy moving at the same time and halts where it stood.";
      ev.push_back(std::move(e));
      continue;
    }
    const Vec2 from = u.position;
    const std::uint32_t dps = u.dps;
    u = o.moved.unit;
    u.dps = dps;
    u.last_move = o.steps;
    take_dps(u, o.moved.dps, "manoeuvre", ev);
    e.kind = "moved";
    e.where = {{from, u.id}, {u.position, u.id}};  // both told only to seats that see it
    e.text = ref(u.id) + " moves " + yards(o.moved.used) + ".";
    ev.push_back(std::move(e));
    moved.emplace_back(o.unit, o.decision);
  }
  // Orders legal alone that end on each other.
  for (std::size_t x = 0; x < moved.size(); ++x) {
    for (std::size_t y = x + 1; y < moved.size(); ++y) {
      bool collide = false;
      for (const auto& a : footprint(s.units[moved[x].first])) {
        for (const auto& b : footprint(s.units[moved[y].first])) collide = collide || overlaps(a, b, kTolerance);
      }
      if (!collide) continue;
      Rejection r = reject("collision", "The moves of " + ref(s.units[moved[x].first].id) + " and " +
                                            ref(s.units[moved[y].first].id) + " would end on each other.");
      r.decisions = {moved[x].second, moved[y].second};
      return r;
    }
  }
  return true;
}

void close_movement(GameState& s, Dice& dice, std::vector<Event>& ev) {
  for (std::size_t i = 0; i < s.units.size(); ++i) {
    const Unit& u = s.units[i];
    if (is_acting(s, u.side) && u.routing && !u.destroyed && enemy_distance(s, u) < kRoutClear - kTolerance) {
      rout_on(s, static_cast<Index>(i), dice, ev);
    }
  }
  for (std::size_t i = 0; i < s.units.size(); ++i) {
    Unit& u = s.units[i];
    if (!is_acting(s, u.side) || u.destroyed || u.control != Control::kRepeatLastMove || u.last_move.empty()) continue;
    Event e;
    e.subjects = {u.id};
    auto m = carry_out(s, i, u.last_move, true);
    if (!m) {
      e.kind = "halted";
      e.where = {{u.position, u.id}};
      e.text = ref(u.id) + " cannot repeat its last move (" + m.error().reason + ") and halts.";
      ev.push_back(std::move(e));
      continue;
    }
    const Vec2 from = u.position;
    const std::uint32_t dps = u.dps;
    std::vector<OrderStep> steps = std::move(u.last_move);
    u = m.value().unit;
    u.dps = dps;
    u.last_move = std::move(steps);
    take_dps(u, m.value().dps, "manoeuvre", ev);
    e.kind = "moved";
    e.where = {{from, u.id}, {u.position, u.id}};
    e.text = ref(u.id) + " repeats its last move: " + yards(m.value().used) + ".";
    ev.push_back(std::move(e));
  }
  // "Repeat last move" is of the move it made: one that stood has none.
  for (Unit& u : s.units) {
    if (is_acting(s, u.side) && !u.moved) u.last_move.clear();
  }
}

}  // namespace galloper::rules::cfeo
