#include "rules/cfeo/combat_moves.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "rules/cfeo/basing.hpp"
#include "rules/cfeo/combat_tables.hpp"
#include "rules/cfeo/fire.hpp"
#include "rules/cfeo/morale.hpp"
#include "rules/cfeo/move_tables.hpp"
#include "rules/cfeo/movement.hpp"
#include "rules/core/geometry.hpp"
#include "rules/core/tell.hpp"

namespace galloper::rules::cfeo {

namespace {

constexpr double kStep = 5;          // yards between the points a move is checked at
constexpr double kTouch = 1;         // yards: bases this close are in contact
constexpr double kHaltShort = 20;    // "it will halt beyond 20 yds" of new enemy
constexpr double kTolerance = 1e-6;

tables::Mover mover(const Unit& u) { return is_cavalry(u.arm) ? tables::Mover::kCavalry : tables::Mover::kInfantry; }

bool on_table(const GameState& s, const std::vector<OrientedRect>& bases) {
  for (const auto& b : bases) {
    for (Vec2 c : b.corners()) {
      if (c.x < -kTolerance || c.y < -kTolerance || c.x > s.table_width + kTolerance || c.y > s.table_depth + kTolerance) return false;
    }
  }
  return true;
}

bool overlaps_any(const std::vector<OrientedRect>& mine, const std::vector<OrientedRect>& other) {
  for (const auto& a : mine) {
    for (const auto& b : other) {
      if (overlaps(a, b, kTolerance)) return true;
    }
  }
  return false;
}

// Whether the unit, standing as `u`, is on the table and on no other piece
// but those in `through`; with `halt_short`, not within 20 yds of an enemy
// other than those.
bool clear_at(const GameState& s, Index self, const Unit& u, const std::vector<Index>& through, bool halt_short) {
  const auto mine = footprint(u);
  if (!on_table(s, mine)) return false;
  for (std::size_t i = 0; i < s.units.size(); ++i) {
    const Index other = static_cast<Index>(i);
    if (other == self || s.units[i].destroyed || std::find(through.begin(), through.end(), other) != through.end()) continue;
    const auto theirs = footprint(s.units[i]);
    if (overlaps_any(mine, theirs)) return false;
    if (halt_short && s.units[i].side != u.side && group_gap(mine, theirs) < kHaltShort) return false;
  }
  for (const Gun& g : s.guns) {
    if (g.abandoned) continue;
    if (overlaps_any(mine, {footprint(g)})) return false;
    if (halt_short && g.side != u.side && group_gap(mine, {footprint(g)}) < kHaltShort) return false;
  }
  return true;
}

// Moves the unit along `dir` up to `yards`, as far as it stays clear at
// every point checked; the yards it went.
double slide(GameState& s, Index self, Vec2 dir, double yards, const std::vector<Index>& through, bool halt_short) {
  Unit& u = s.units[at(self)];
  const Vec2 from = u.position;
  double done = 0;
  for (double d = std::min(kStep, yards); d <= yards + kTolerance; d = d + kStep > yards && d < yards ? yards : d + kStep) {
    Unit probe = u;
    probe.position = from + dir * d;
    if (!clear_at(s, self, probe, through, halt_short)) break;
    done = d;
    if (d >= yards) break;
  }
  u.position = from + dir * done;
  return done;
}

// The point of `bases` nearest to `p`.
Vec2 nearest_point(const std::vector<OrientedRect>& bases, Vec2 p) {
  Vec2 best = p;
  double best_d = std::numeric_limits<double>::infinity();
  for (const auto& r : bases) {
    const Vec2 local = r.to_local(p);
    const Vec2 clamped{std::clamp(local.x, -r.width / 2, r.width / 2), std::clamp(local.y, -r.depth / 2, r.depth / 2)};
    const Vec2 q = r.to_world(clamped);
    const double d = distance(p, q);
    if (d < best_d) {
      best_d = d;
      best = q;
    }
  }
  return best;
}

// Whether some base of `target` lies straight ahead of the unit's front
// within `yards`.
bool straight_ahead(const Unit& u, const std::vector<OrientedRect>& target, double yards) {
  const auto bases = footprint(u);
  const std::size_t front = std::min<std::size_t>(bases.size(), bases_per_rank(u));
  for (std::size_t i = 0; i < front; ++i) {
    const OrientedRect lane = OrientedRect::from_front_mid(bases[i].front_mid() + bases[i].forward() * yards, bases[i].width,
                                                           yards, u.facing_deg);
    for (const auto& t : target) {
      if (overlaps(lane, t, kTolerance)) return true;
    }
  }
  return false;
}

// Moves the unit forward up to `yards`, stopping in contact with `target`
// (its bases) or short of anything else; it first turns to face `aim` when
// the target is not straight ahead. The yards left to contact afterwards.
double advance_on(GameState& s, Index self, const std::vector<OrientedRect>& target, Vec2 aim, double yards,
                  const std::vector<Index>& through) {
  Unit& u = s.units[at(self)];
  if (!straight_ahead(u, target, yards) && distance(aim, u.position) > kTolerance) u.facing_deg = bearing_of(aim - u.position);
  const Vec2 from = u.position;
  const Vec2 dir = facing_unit(u.facing_deg);
  auto fits = [&](double d) {
    Unit probe = u;
    probe.position = from + dir * d;
    return clear_at(s, self, probe, through, false) && !overlaps_any(footprint(probe), target);
  };
  double done = 0;
  for (double d = std::min(kStep, yards); done < yards; d = std::min(d + kStep, yards)) {
    if (!fits(d)) {
      // Closer than a step: halve the gap to the first point that does not fit.
      double bad = d;
      for (int i = 0; i < 20; ++i) {
        const double mid = (done + bad) / 2;
        (fits(mid) ? done : bad) = mid;
      }
      break;
    }
    done = d;
  }
  u.position = from + dir * done;
  u.moved = true;
  return group_gap(footprint(u), target);
}

std::vector<Index> enemies_in_contact(const GameState& s, const Unit& u) {
  std::vector<Index> out;
  const auto mine = footprint(u);
  for (std::size_t i = 0; i < s.units.size(); ++i) {
    if (s.units[i].side != u.side && !s.units[i].destroyed && group_gap(mine, footprint(s.units[i])) <= kTouch) {
      out.push_back(static_cast<Index>(i));
    }
  }
  return out;
}

Event move_event(const Unit& u, Vec2 from, std::string kind, std::string text) {
  Event e;
  e.kind = std::move(kind);
  e.subjects = {u.id};
  e.where = {{from, u.id}, {u.position, u.id}};  // both told only to seats that see it
  e.text = std::move(text);
  return e;
}

}  // namespace

void fall_back(GameState& s, Index self, FallBack how, Dice& dice, std::vector<Event>& ev) {
  Unit& u = s.units[at(self)];
  if (u.destroyed) return;
  const Vec2 from = u.position;
  const tables::MoveRoll roll = tables::roll_move(dice, tables::fast_move_dice(mover(u)), false, true);
  // It leaves those it fought behind it: the move starts in contact.
  const std::vector<Index> fought = enemies_in_contact(s, u);
  if (how == FallBack::kRout) u.facing_deg = normalize_deg(u.facing_deg + 180);
  const Vec2 back = how == FallBack::kRout ? facing_unit(u.facing_deg) : facing_unit(u.facing_deg) * -1.0;
  if (how != FallBack::kEvade) u.formation = Formation::kUnformed;
  const double went = slide(s, self, back, roll.yards, fought, false);
  Unit& after = s.units[at(self)];
  after.moved = true;
  std::string text;
  switch (how) {
    case FallBack::kRetire:
      after.retiring = true;
      text = ref(after.id) + " retires " + yards(went) + " (" + yards(roll.yards) + " rolled)";
      break;
    case FallBack::kRout:
      after.routing = true;
      after.retiring = false;
      text = ref(after.id) + " routs " + yards(went) + " (" + yards(roll.yards) + " rolled)";
      break;
    case FallBack::kEvade:
      text = ref(after.id) + " evades " + yards(went) + " (" + yards(roll.yards) + " rolled)";
      break;
  }
  if (went < kTolerance && how == FallBack::kRetire) {
    after.dps += 1;
    text += ": it cannot retire, remains in place and takes 1 DP";
  }
  Event e = move_event(after, from, how == FallBack::kEvade ? "evade" : how == FallBack::kRout ? "rout" : "retire", text + ".");
  e.dice = dice.drain();
  ev.push_back(std::move(e));
}

void rout_on(GameState& s, Index self, Dice& dice, std::vector<Event>& ev) {
  const Vec2 from = s.units[at(self)].position;
  const tables::MoveRoll roll = tables::roll_move(dice, tables::fast_move_dice(mover(s.units[at(self)])), false, false);
  const Vec2 dir = facing_unit(s.units[at(self)].facing_deg);
  double went = 0;
  while (went < roll.yards - kTolerance && enemy_distance(s, s.units[at(self)]) < kRoutClear - kTolerance) {
    const double step = std::min(kStep, roll.yards - went);
    const double done = slide(s, self, dir, step, {}, false);
    went += done;
    if (done < step - kTolerance) break;  // a piece or the table's edge
  }
  Unit& u = s.units[at(self)];
  u.moved = true;
  Event e = move_event(u, from, "rout", ref(u.id) + " routs on " + yards(went) + " (" + yards(roll.yards) + " rolled).");
  e.dice = dice.drain();
  ev.push_back(std::move(e));
}

bool close_in(GameState& s, Index self, Target t, int charge_yards, int counter_yards, std::vector<Event>& ev, Dice& dice) {
  const Vec2 from = s.units[at(self)].position;
  std::vector<Index> through;
  if (counter_yards > 0 && t.kind == Target::Kind::kUnit) {
    // The two meet: each covers its share of the gap (RULINGS C3).
    const Index other = t.index;
    const auto charger = footprint(s.units[at(self)]);
    const double gap = group_gap(charger, footprint(s.units[at(other)]));
    const double share = gap * counter_yards / static_cast<double>(charge_yards + counter_yards);
    const Vec2 counter_from = s.units[at(other)].position;
    advance_on(s, other, charger, nearest_point(charger, s.units[at(other)].position), std::min<double>(counter_yards, share), through);
    Event e = move_event(s.units[at(other)], counter_from, "counter_charge",
                         ref(s.units[at(other)].id) + " counter-charges (" + yards(counter_yards) + " rolled).");
    ev.push_back(std::move(e));
  }
  const auto target = target_bases(s, t);
  const double left = advance_on(s, self, target, nearest_point(target, s.units[at(self)].position), charge_yards, through);
  const bool reached = left <= kTouch;
  const Unit& u = s.units[at(self)];
  Event e = move_event(u, from, "charge",
                       ref(u.id) + " charges " + ref(target_id(s, t)) + " (" + yards(charge_yards) + " rolled): " +
                           (reached ? "contact." : "it falls short by " + yards(left) + "."));
  e.subjects.push_back(target_id(s, t));
  e.dice = dice.drain();
  ev.push_back(std::move(e));
  return reached;
}

void pursue(GameState& s, Index self, Index enemy, Dice& dice, std::vector<Event>& ev) {
  const Vec2 from = s.units[at(self)].position;
  const tables::MoveRoll roll = tables::roll_move(dice, tables::fast_move_dice(mover(s.units[at(self)])), false, false);
  s.units[at(self)].formation = Formation::kUnformed;
  const auto target = footprint(s.units[at(enemy)]);
  const double left = target.empty() ? std::numeric_limits<double>::infinity()
                                     : advance_on(s, self, target, nearest_point(target, s.units[at(self)].position), roll.yards, {});
  const Unit& u = s.units[at(self)];
  Unit& fled = s.units[at(enemy)];
  std::string text = ref(u.id) + " pursues " + ref(fled.id) + " (" + yards(roll.yards) + " rolled)";
  if (left > kTouch) {
    Event e = move_event(u, from, "pursue", text + ": it does not catch it.");
    e.dice = dice.drain();
    ev.push_back(std::move(e));
    return;
  }
  // "Free Hack. Roll 1 D6 for every pursuing stand in contact".
  int stands = 0;
  for (const auto& b : footprint(u)) {
    if (group_gap({b}, target) <= kTouch) ++stands;
  }
  const tables::FreeHackRoll hack = tables::roll_free_hack(dice, std::max(stands, 1));
  const auto lost = static_cast<std::uint32_t>(std::min<int>(hack.casualties, static_cast<int>(fled.bases)));
  fled.bases -= lost;
  text += ": it catches it; free hack, " + std::to_string(hack.casualties) + (hack.casualties == 1 ? " casualty" : " casualties");
  if (fled.bases == 0) {
    fled.bases = 1;
    fled.destroyed = true;
    text += "; " + ref(fled.id) + " is destroyed";
  }
  const bool breaks = !fled.destroyed && fled.retiring;
  if (breaks) text += "; " + ref(fled.id) + " breaks";
  Event e = move_event(u, from, "pursue", text + ".");
  e.subjects.push_back(fled.id);
  e.dice = dice.drain();
  ev.push_back(std::move(e));
  // "Break if caught by pursuers": it routs away at once (RULINGS C9).
  if (breaks) fall_back(s, enemy, FallBack::kRout, dice, ev);
}

void take_position(GameState& s, Index self, Index enemy, std::vector<Event>& ev) {
  Unit& u = s.units[at(self)];
  const Vec2 from = u.position;
  // The ground the enemy stood on: as deep as its formation (RULINGS C8).
  const Unit& e = s.units[at(enemy)];
  const double depth = base_size(e.arm).depth * std::ceil(static_cast<double>(e.bases) / bases_per_rank(e));
  const double went = slide(s, self, facing_unit(u.facing_deg), depth, {}, true);
  Unit& after = s.units[at(self)];
  after.moved = true;
  after.rode_through = true;
  ev.push_back(move_event(after, from, "take_position", ref(after.id) + " takes the position: " + yards(went) + " forward."));
}

void ride_through(GameState& s, Index self, int avd, Dice& dice, std::vector<Event>& ev) {
  const Vec2 from = s.units[at(self)].position;
  tables::MoveDice which;
  which.avd = avd;
  const tables::MoveRoll roll = tables::roll_move(dice, which, false, false);
  const std::vector<Index> fought = enemies_in_contact(s, s.units[at(self)]);
  const Vec2 dir = facing_unit(s.units[at(self)].facing_deg);
  double went = slide(s, self, dir, roll.yards, fought, false);
  // It may not end on those it rode through: back until clear of them.
  Unit& u = s.units[at(self)];
  while (went > 0) {
    bool on = false;
    for (Index f : fought) on = on || overlaps_any(footprint(u), footprint(s.units[at(f)]));
    if (!on) break;
    went = std::max(0.0, went - kStep);
    u.position = from + dir * went;
  }
  // "End facing the nearest threat."
  double nearest = std::numeric_limits<double>::infinity();
  for (const Unit& e : s.units) {
    if (e.side == u.side || e.destroyed) continue;
    const double d = group_gap(footprint(u), footprint(e));
    if (d < nearest) {
      nearest = d;
      const Vec2 aim = nearest_point(footprint(e), u.position);
      if (distance(aim, u.position) > kTolerance) u.facing_deg = bearing_of(aim - u.position);
    }
  }
  u.moved = true;
  u.rode_through = true;
  Event e = move_event(u, from, "ride_through", ref(u.id) + " rides through " + yards(went) + " (" + yards(roll.yards) + " rolled).");
  e.dice = dice.drain();
  ev.push_back(std::move(e));
}

}  // namespace galloper::rules::cfeo
