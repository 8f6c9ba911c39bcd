#include "rules/malbrook/after_combat.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>

#include "rules/core/geometry.hpp"
#include "rules/core/tell.hpp"
#include "rules/malbrook/basing.hpp"
#include "rules/malbrook/combat.hpp"
#include "rules/malbrook/damage.hpp"
#include "rules/malbrook/manoeuvre.hpp"
#include "rules/malbrook/morale.hpp"
#include "rules/malbrook/movement.hpp"
#include "rules/malbrook/seats.hpp"
#include "rules/malbrook/sequence.hpp"

namespace galloper::rules::malbrook {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kEps = 1e-6;
constexpr double kClear = 0.01;     // halt this far short of what stops a move
constexpr double kContact = 0.06;   // base-to-base contact for the free hack (charge.hpp kContactGap + rounding)

constexpr std::uint32_t bit(Status s) { return static_cast<std::uint32_t>(s); }

std::string in(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f\"", d);
  return buf;
}

Brigade* find_mut(GameState& s, std::string_view id) { return const_cast<Brigade*>(s.find_brigade(id)); }

OrientedRect env_of(const Brigade& b) { return pose_envelope(pose_of(b)); }

void translate(Brigade& b, Vec2 d) {
  b.position = b.position + d;
  for (auto& p : b.base_poses) p.center = p.center + d;
}

void place_leaders(GameState& s, const Brigade& b) {
  for (auto& l : s.leaders) {
    if (l.attached_to == b.id && !l.killed && !l.captured) {
      l.position = attached_leader_position(b);
      l.facing_deg = b.facing_deg;
    }
  }
}

Event event(std::string kind, std::string text, const Brigade& b) {
  Event e;
  e.kind = std::move(kind);
  e.text = std::move(text);
  e.subjects = {b.id};
  e.where = {{b.position, b.id}};
  return e;
}

// A pursuer waits for the enemy cavalry it met to answer (RULINGS AC8).
bool meeting_waits(const GameState& s) { return !s.after_combat.meeting_enemy.empty(); }

bool enemy_of(const GameState& s, std::string_view army, std::string_view id) {
  if (const Brigade* b = s.find_brigade(id)) return b->army != army;
  if (const Gun* g = s.find_gun(id)) return g->army != army;
  return false;
}

// Another unit in the way: the id of what `b` first touches moving along
// `dir`, and how far it gets.
struct Stop {
  double distance = 0;
  std::string by;  // unit id; "terrain" or "edge"; "" when nothing stops it
};

// `env` moving along `dir`: the brigade `self` whole, or one of its bases.
Stop first_stop(const GameState& s, std::string_view self, const OrientedRect& env, Vec2 dir, double distance,
                const std::vector<std::string>& ignore) {
  Stop st{distance, ""};
  const Polygon poly = env.polygon();
  auto consider = [&](const std::string& id, const Polygon& other) {
    if (std::find(ignore.begin(), ignore.end(), id) != ignore.end()) return;
    auto t = first_contact(poly, dir, st.distance, other);
    if (!t) return;
    double at = *t;
    if (*t <= kEps) {
      // Already touching: only a blocker if moving on would push into it. A
      // move along it that drifts into it (a direction a hair off its edge)
      // stops where it would press in more than the tolerance: penetration
      // grows with the distance slid, so over a long move a drift too small
      // to see in the first 0.05" would still end inside it.
      constexpr double kProbe = 0.05;
      constexpr double kPress = 1e-4;
      const double pen = convex_penetration(env.translated(dir * kProbe).polygon(), other);
      if (pen <= 0) return;
      if (pen <= kPress) at = kProbe * kPress / pen;
    }
    if (at < st.distance) {
      st.distance = at;
      st.by = id;
    }
  };
  for (const auto& o : s.brigades) {
    if (o.id == self || !brigade_on_table(o)) continue;
    consider(o.id, env_of(o).polygon());
  }
  for (const auto& g : s.guns) {
    if (g.has(Status::kCrewEliminated)) continue;
    consider(g.id, pose_envelope(pose_of(g)).polygon());
  }
  // The table edge.
  if (s.table_width > 0 && s.table_depth > 0) {
    for (Vec2 c : env.corners()) {
      auto edge = [&](double pos, double v, double lo, double hi) {
        if (v > kEps) return (hi - pos) / v;
        if (v < -kEps) return (lo - pos) / v;
        return kInf;
      };
      const double t = std::min(edge(c.x, dir.x, 0, s.table_width), edge(c.y, dir.y, 0, s.table_depth));
      if (t < st.distance) {
        st.distance = std::max(0.0, t);
        st.by = "edge";
      }
    }
  }
  // Impassable terrain: the longest sweep that crosses none.
  auto crosses = [&](double d) {
    for (const auto& c : s.terrain.obstacles_crossed(sweep_straight(env, dir * d))) {
      if (c.feature->impassable && c.via == nullptr) return true;
    }
    return false;
  };
  if (st.distance > kEps && crosses(st.distance)) {
    double lo = 0;
    double hi = st.distance;
    for (int i = 0; i < 30; ++i) {
      const double mid = (lo + hi) / 2;
      (crosses(mid) ? hi : lo) = mid;
    }
    st.distance = lo;
    st.by = "terrain";
  }
  return st;
}

Stop first_stop(const GameState& s, const Brigade& b, Vec2 dir, double distance,
                const std::vector<std::string>& ignore) {
  return first_stop(s, b.id, env_of(b), dir, distance, ignore);
}

std::string describe_stop(const GameState& s, const std::string& by) {
  if (by == "edge") return "the table edge";
  if (by == "terrain") return "impassable terrain";
  if (s.find_brigade(by) != nullptr || s.find_gun(by) != nullptr) return ref(by);
  return "nothing";
}

// ---- Bases bound by the result, and splitting ----

// A new brigade's id for a part split off `id` after combat: "<id>_<n>".
std::string split_id(const GameState& s, const std::string& id) {
  for (int n = 1;; ++n) {
    std::string c = id + "_" + std::to_string(n);
    if (s.find_brigade(c) == nullptr && s.find_gun(c) == nullptr && s.find_leader(c) == nullptr) return c;
  }
}

// Where a base stands across the brigade's front: its centre along the
// facing's right.
double lateral(const Brigade& b, const OrientedRect& r) { return dot(r.center, facing_unit(b.facing_deg + 90)); }

// "Only those bases in combat and supporting rear ranks are bound by the
// result. Others in base to base contact on the flanks remain in place"
// (RULINGS AC5): the bases in combat (C8) against the combat's opponents;
// for a formed brigade also every base between them and every base behind
// them. The rest, in footprint order; empty when every base is bound (or
// none is in combat, as when the geometry no longer shows it).
std::vector<std::uint32_t> unbound_bases(const GameState& s, const Brigade& b, const std::vector<std::string>& enemies) {
  std::vector<Polygon> polys;
  for (const auto& id : enemies) {
    if (const Brigade* o = s.find_brigade(id); o != nullptr && brigade_on_table(*o)) polys.push_back(env_of(*o).polygon());
  }
  const std::vector<bool> in = base_in_combat(b, polys);
  const std::vector<OrientedRect> rects = footprint(b);
  if (in.size() != rects.size() || std::find(in.begin(), in.end(), true) == in.end()) return {};
  std::vector<bool> bound = in;
  if (b.formation != Formation::kUnformed) {
    double lo = kInf;
    double hi = -kInf;
    for (std::size_t i = 0; i < rects.size(); ++i) {
      if (!in[i]) continue;
      lo = std::min(lo, lateral(b, rects[i]));
      hi = std::max(hi, lateral(b, rects[i]));
    }
    // A base of a rear rank straddling a bound file supports it.
    for (std::size_t i = 0; i < rects.size(); ++i) {
      const double x = lateral(b, rects[i]);
      const double half = rects[i].width / 2;
      if (x >= lo - half - kEps && x <= hi + half + kEps) bound[i] = true;
    }
  }
  std::vector<std::uint32_t> out;
  for (std::size_t i = 0; i < bound.size(); ++i) {
    if (!bound[i]) out.push_back(static_cast<std::uint32_t>(i));
  }
  return out;
}

// Before a brigade moves away after combat, its unbound bases split off and
// remain in place: a formed brigade's on each flank as a new brigade each, an
// unformed brigade's as one ("forming two or more new brigades").
void split_unbound(GameState& s, const AfterCombatEntry& e, std::vector<Event>& events) {
  const Brigade* b = s.find_brigade(e.brigade);
  if (b == nullptr || e.unbound.empty()) return;
  const std::vector<OrientedRect> rects = footprint(*b);
  std::vector<bool> off(rects.size(), false);
  for (auto i : e.unbound) {
    if (i >= rects.size()) return;  // the brigade changed since: it acts whole
    off[i] = true;
  }
  if (std::find(off.begin(), off.end(), false) == off.end()) return;
  double lo = kInf;
  for (std::size_t i = 0; i < rects.size(); ++i) {
    if (!off[i]) lo = std::min(lo, lateral(*b, rects[i]));
  }
  std::vector<std::vector<Vec2>> groups(2);  // left of the bound bases, right of them
  for (std::size_t i = 0; i < rects.size(); ++i) {
    if (!off[i]) continue;
    const bool left = b->formation != Formation::kUnformed && lateral(*b, rects[i]) < lo;
    groups[left ? 0 : 1].push_back(rects[i].center);
  }
  for (const auto& g : groups) {
    if (g.empty()) continue;
    const std::vector<OrientedRect> now = footprint(*s.find_brigade(e.brigade));
    std::vector<std::size_t> idx;
    for (std::size_t j = 0; j < now.size(); ++j) {
      for (Vec2 c : g) {
        if (distance(now[j].center, c) < 1e-6) idx.push_back(j);
      }
    }
    const std::string nid = split_id(s, e.brigade);
    split_brigade(s, e.brigade, nid, idx, events);
    const Brigade* part = s.find_brigade(nid);
    if (part == nullptr) continue;
    events.push_back(event("after_combat",
                           ref(nid) + " (" + std::to_string(part->bases) + " bases of " + ref(e.brigade) +
                               ", not in combat) is not bound by the result and remains in place.",
                           *part));
  }
}

// The most a fast move can reach (every die at its highest face).
double max_fast_inches(const Brigade& b, bool initial) {
  std::vector<int> faces(max_move_avd(b), 5);
  faces.push_back(6);
  return move_inches(faces, b.inspire_actions > 0 || b.has(Status::kInspired), false) +
         (initial ? kFastInitialPerDie * static_cast<double>(faces.size()) : 0.0);
}


// ---- The sub-step's bookkeeping ----

bool stale(const GameState& s) { return s.after_combat.turn != s.turn; }

AfterCombatEntry* find_entry(GameState& s, std::string_view brigade) {
  for (auto& e : s.after_combat.entries) {
    if (e.brigade == brigade && !e.executed) return &e;
  }
  return nullptr;
}

bool has_combat(const GameState& s, std::string_view id) {
  return std::any_of(s.after_combat.entries.begin(), s.after_combat.entries.end(),
                     [&](const AfterCombatEntry& e) { return e.combat == id; });
}

// Adds the entries of every combat result not seen yet, after the current round.
void add_entries(GameState& s) {
  std::uint32_t base = s.after_combat.round;
  for (const auto& e : s.after_combat.entries) base = std::max(base, e.executed ? 0u : e.round + 1);
  bool any = false;
  for (const auto& r : s.combat.results) {
    if (r.turn != s.turn || has_combat(s, r.id)) continue;
    any = true;
    // The side with the lower result first; equal: the side without initiative.
    const bool a_first = !r.loser.empty() ? r.loser == r.a.army : r.a.army != s.initiative;
    for (const auto* side : {&r.a, &r.b}) {
      const CombatSide& enemy = side == &r.a ? r.b : r.a;
      const bool first = (side == &r.a) == a_first;
      for (const auto& p : side->parts) {
        AfterCombatEntry e;
        e.combat = r.id;
        e.brigade = p.brigade;
        e.army = side->army;
        e.result = side == &r.a ? r.difference : -r.difference;
        e.options = p.options.empty() ? std::vector<AfterAction>{AfterAction::kRemain} : p.options;
        e.enemies = enemy.brigades;
        e.round = base + (first ? 0 : 1);
        // Take the position: up to where the far edge of the opponent stood.
        if (const Brigade* b = s.find_brigade(p.brigade)) {
          e.unbound = unbound_bases(s, *b, enemy.brigades);
          const Polygon own = env_of(*b).polygon();
          for (const auto& id : enemy.brigades) {
            if (const Brigade* o = s.find_brigade(id)) {
              const OrientedRect oe = env_of(*o);
              e.ground = std::max(e.ground, distance(own, oe.polygon()) + std::min(oe.depth, oe.width));
            }
          }
        }
        s.after_combat.entries.push_back(std::move(e));
      }
    }
  }
  if (any && s.after_combat.done) s.after_combat.done = false;
}

void start(GameState& s) {
  s.after_combat = {};
  s.after_combat.turn = s.turn;
  s.after_combat.started = true;
  add_entries(s);
}

bool retreating(const Brigade& b) { return b.has(Status::kRetiring) || b.has(Status::kRouting); }

// What a ride-through goes through: the opposing brigades of the entry's
// combat and the guns it charged ("Cavalry who charged only guns
// ride-through": their crews gone, the guns stay where they stood).
std::vector<std::string> ridden_through(const GameState& s, const AfterCombatEntry& e) {
  std::vector<std::string> out = e.enemies;
  for (const auto& r : s.combat.results) {
    if (r.id != e.combat) continue;
    const CombatSide& enemy = r.a.army == e.army ? r.b : r.a;
    out.insert(out.end(), enemy.guns.begin(), enemy.guns.end());
  }
  return out;
}

// Room to ride through: no opponent more than one rank deep, and the ground
// just beyond them (brigades and guns) free of other troops (RULINGS AC6).
bool room_to_ride_through(const GameState& s, const Brigade& b, const std::vector<std::string>& enemies) {
  const OrientedRect env = env_of(b);
  const Vec2 fwd = facing_unit(b.facing_deg);
  double beyond = 0;
  for (const auto& id : enemies) {
    OrientedRect oe;
    if (const Brigade* o = s.find_brigade(id); o != nullptr && brigade_on_table(*o)) {
      if (o->formation == Formation::kTwoRankLine || o->formation == Formation::kFieldColumn ||
          o->formation == Formation::kMarchColumn) {
        return false;
      }
      oe = env_of(*o);
    } else if (const Gun* g = s.find_gun(id); g != nullptr && !g->has(Status::kDestroyed)) {
      oe = pose_envelope(pose_of(*g));
    } else {
      continue;
    }
    // How far forward the rider must go to clear this opponent.
    for (Vec2 c : oe.corners()) beyond = std::max(beyond, dot(c - env.front_mid(), fwd));
  }
  const OrientedRect past = env.translated(fwd * (beyond + env.depth + kClear));
  std::vector<std::string> ignore = enemies;
  ignore.push_back(b.id);
  for (const auto& o : s.brigades) {
    if (!brigade_on_table(o) || std::find(ignore.begin(), ignore.end(), o.id) != ignore.end()) continue;
    if (overlaps(past, env_of(o), kEps)) return false;
  }
  return true;
}

// ---- Carrying out one brigade's action ----

void leave_combat(Brigade& b) { b.status &= ~bit(Status::kInCombat); }

void do_ride_through(GameState& s, Brigade& b, const AfterCombatEntry& e, bool three, Dice& dice,
                     std::vector<Event>& events) {
  std::vector<int> faces{dice.avd(), dice.avd()};
  if (three) faces.push_back(dice.d6());
  const double inches = move_inches(faces, b.inspire_actions > 0, false);
  const Vec2 fwd = facing_unit(b.facing_deg);
  const std::vector<std::string> ignore = ridden_through(s, e);
  const Stop st = first_stop(s, b, fwd, inches, ignore);
  double d = st.distance;
  if (!st.by.empty()) d = std::max(0.0, d - kRideThroughHalt);  // "it will halt beyond 2 inches"
  // It must end clear of the opponents it rode through.
  const OrientedRect end = env_of(b).translated(fwd * d);
  bool clear = true;
  for (const auto& id : ignore) {
    if (const Brigade* o = s.find_brigade(id); o != nullptr && brigade_on_table(*o)) {
      clear = clear && !overlaps(end, env_of(*o), kEps);
    } else if (const Gun* g = s.find_gun(id); g != nullptr && !g->has(Status::kDestroyed)) {
      clear = clear && !overlaps(end, pose_envelope(pose_of(*g)), kEps);
    }
  }
  Event ev = event("ride_through", "", b);
  ev.dice = dice.drain();
  if (!clear || d <= kEps) {
    ev.text = ref(b.id) + " cannot ride through (" + in(inches) + " rolled, stopped by " + describe_stop(s, st.by) +
              "): it remains in place.";
    events.push_back(std::move(ev));
    return;
  }
  translate(b, fwd * d);
  // "End facing the nearest enemy threat."
  const OrientedRect now = env_of(b);
  double best = kInf;
  Vec2 towards;
  for (const auto& o : s.brigades) {
    if (o.army == b.army || !brigade_on_table(o)) continue;
    const double dist = distance(now.polygon(), env_of(o).polygon());
    if (dist < best) {
      best = dist;
      towards = env_of(o).center;
    }
  }
  if (best < kInf) {
    Brigade turned = b;
    turned.facing_deg = normalize_deg(bearing_of(towards - now.center));
    turned.base_poses.clear();
    const OrientedRect te = env_of(turned);
    translate(turned, now.center - te.center);
    bool free = true;
    for (const auto& o : s.brigades) {
      if (o.id != b.id && brigade_on_table(o) && overlaps(env_of(turned), env_of(o), kEps)) free = false;
    }
    if (free) b = turned;
  }
  b.status |= bit(Status::kMoved);
  leave_combat(b);
  if (b.dps > 0) --b.dps;  // "remove 1 DP"
  ev.where.push_back({b.position, b.id});
  ev.text = ref(b.id) + " rides through " + in(d) + " and turns to face the nearest enemy; -1 DP.";
  events.push_back(std::move(ev));
  place_leaders(s, b);
}

void do_take_position(GameState& s, Brigade& b, const AfterCombatEntry& e, std::vector<Event>& events) {
  const Vec2 fwd = facing_unit(b.facing_deg);
  const Stop st = first_stop(s, b, fwd, e.ground, {});
  const double d = std::max(0.0, st.distance - (st.by.empty() ? 0 : kClear));
  translate(b, fwd * d);
  b.status |= bit(Status::kMoved);
  leave_combat(b);
  if (b.dps > 0) --b.dps;  // "remove 1 DP"
  events.push_back(event("take_position", ref(b.id) + " advances " + in(d) + " to take the position; -1 DP.", b));
  place_leaders(s, b);
}

std::string pursuit_target(const GameState& s, const Brigade& b, const std::vector<std::string>& enemies) {
  std::string best;
  double best_d = kInf;
  for (const auto& id : enemies) {
    const Brigade* o = s.find_brigade(id);
    if (o == nullptr || !brigade_on_table(*o) || !retreating(*o)) continue;
    const double d = distance(env_of(b).polygon(), env_of(*o).polygon());
    if (d < best_d) {
      best_d = d;
      best = id;
    }
  }
  return best;
}

// An opponent of the entry's combat retiring or routing on the table: someone
// to pursue ("pursue an opponent who routed or retired").
bool someone_to_pursue(const GameState& s, const AfterCombatEntry& e) {
  for (const auto& id : e.enemies) {
    const Brigade* o = s.find_brigade(id);
    if (o != nullptr && brigade_on_table(*o) && retreating(*o)) return true;
  }
  return false;
}

// `could_pursue`: an opponent was retiring or routing when the brigade chose
// (someone_to_pursue then).
void execute(GameState& s, AfterCombatEntry& e, bool could_pursue, Dice& dice, std::vector<Event>& events) {
  e.executed = true;
  Brigade* b = find_mut(s, e.brigade);
  if (b == nullptr || !brigade_on_table(*b)) return;
  if (e.chosen != AfterAction::kRemain && e.chosen != AfterAction::kRemainWithDp &&
      !(e.chosen == AfterAction::kPursue && pursuit_target(s, *b, e.enemies).empty())) {
    split_unbound(s, e, events);
    b = find_mut(s, e.brigade);
  }
  switch (e.chosen) {
    case AfterAction::kRemain:
      events.push_back(event("after_combat", ref(b->id) + " remains in place.", *b));
      return;
    case AfterAction::kRemainWithDp:
      events.push_back(event("after_combat", ref(b->id) + " does not pursue and remains in place: 1 DP.", *b));
      add_dps(s, *b, 1, DpCause::kCombat, events);
      return;
    case AfterAction::kRetire:
    case AfterAction::kRetireHaltShort:
    case AfterAction::kRout:
      // "+7 Breakthrough ... Cavalry who elect not to pursue take 1 DP":
      // retiring is not pursuing either -- where there was anyone to pursue
      // (RULINGS C21).
      if (e.chosen != AfterAction::kRout && e.result >= 7 && is_cavalry(b->type) && could_pursue) {
        events.push_back(event("after_combat", ref(b->id) + " does not pursue the broken enemy: 1 DP.", *b));
        add_dps(s, *b, 1, DpCause::kCombat, events);
        b = find_mut(s, e.brigade);
        if (b == nullptr || !brigade_on_table(*b)) return;
      }
      retire_or_rout(s, *b, e.enemies, e.chosen == AfterAction::kRout, true, dice, events,
                     e.chosen == AfterAction::kRetireHaltShort);
      return;
    case AfterAction::kPursue: {
      const std::string target = pursuit_target(s, *b, e.enemies);
      if (target.empty()) {
        events.push_back(event("after_combat", ref(b->id) + " has nobody to pursue and remains in place.", *b));
        return;
      }
      pursue(s, *b, target, true, dice, events);
      return;
    }
    case AfterAction::kRideThrough2:
    case AfterAction::kRideThrough3:
      do_ride_through(s, *b, e, e.chosen == AfterAction::kRideThrough3, dice, events);
      return;
    case AfterAction::kTakePosition: do_take_position(s, *b, e, events); return;
  }
}

AfterAction default_action(const std::vector<AfterAction>& options) {
  for (auto o : options) {
    if (o == AfterAction::kRemain) return o;
  }
  return options.front();
}

// Runs rounds until decisions are owed or everything is done.
void run(GameState& s, Dice& dice, std::vector<Event>& events) {
  auto& ac = s.after_combat;
  for (int guard = 0; guard < 1000; ++guard) {
    bool any_left = false;
    std::uint32_t round = std::numeric_limits<std::uint32_t>::max();
    for (const auto& e : ac.entries) {
      if (!e.executed) round = std::min(round, e.round);
    }
    if (round == std::numeric_limits<std::uint32_t>::max()) {
      add_entries(s);  // pursuit charges add combats
      for (const auto& e : ac.entries) any_left = any_left || !e.executed;
      if (!any_left) break;
      continue;
    }
    ac.round = round;
    // Forced actions (and those the situation leaves single) need no answer.
    bool owed = false;
    for (auto& e : ac.entries) {
      if (e.executed || e.round != round || e.decided) continue;
      const auto avail = available_actions(s, e);
      if (avail.size() == 1) {
        e.chosen = avail.front();
        e.decided = true;
      } else {
        owed = true;
      }
    }
    if (owed) return;
    // Whom each could pursue when it chose: nothing has moved since.
    std::vector<bool> could_pursue(ac.entries.size(), false);
    for (std::size_t i = 0; i < ac.entries.size(); ++i) {
      if (!ac.entries[i].executed && ac.entries[i].round == round) {
        could_pursue[i] = someone_to_pursue(s, ac.entries[i]);
      }
    }
    for (std::size_t i = 0; i < ac.entries.size(); ++i) {
      if (ac.entries[i].executed || ac.entries[i].round != round) continue;
      AfterCombatEntry e = ac.entries[i];
      execute(s, e, could_pursue[i], dice, events);
      s.after_combat.entries[i] = e;
      if (meeting_waits(s)) return;  // the cavalry met decide first
    }
  }
  // Brigades whose opponents have all gone are no longer in combat.
  for (auto& b : s.brigades) {
    if (!b.has(Status::kInCombat) || !brigade_on_table(b)) continue;
    if (enemy_distance(s, b.army, env_of(b)) > kFootCombat + 0.05) leave_combat(b);
  }
  ac.done = true;
}

}  // namespace

// ---------------------------------------------------------------------------

std::string_view option_id(AfterAction a) {
  switch (a) {
    case AfterAction::kRemain: return "remain";
    case AfterAction::kRetire: return "retire";
    case AfterAction::kRout: return "rout";
    case AfterAction::kPursue: return "pursue";
    case AfterAction::kRideThrough2: return "ride_through_2";
    case AfterAction::kRideThrough3: return "ride_through_3";
    case AfterAction::kTakePosition: return "take_position";
    case AfterAction::kRemainWithDp: return "remain_dp";
    case AfterAction::kRetireHaltShort: return "retire_halt";
  }
  return "remain";
}

bool parse_after_action(std::string_view id, AfterAction& out) {
  for (auto a : {AfterAction::kRemain, AfterAction::kRetire, AfterAction::kRout, AfterAction::kPursue,
                 AfterAction::kRideThrough2, AfterAction::kRideThrough3, AfterAction::kTakePosition,
                 AfterAction::kRemainWithDp, AfterAction::kRetireHaltShort}) {
    if (option_id(a) == id) {
      out = a;
      return true;
    }
  }
  return false;
}

std::vector<AfterAction> available_actions(const GameState& s, const AfterCombatEntry& e) {
  const Brigade* b = s.find_brigade(e.brigade);
  if (b == nullptr || !brigade_on_table(*b)) return {AfterAction::kRemain};
  bool opponent_retreating = false;
  bool opponent_gone = false;
  for (const auto& id : e.enemies) {
    const Brigade* o = s.find_brigade(id);
    if (o == nullptr || !brigade_on_table(*o)) {
      opponent_gone = true;
    } else if (retreating(*o)) {
      opponent_retreating = true;
      opponent_gone = true;
    }
  }
  std::vector<AfterAction> out;
  auto add = [&](AfterAction a) {
    if (std::find(out.begin(), out.end(), a) == out.end()) out.push_back(a);
  };
  for (auto a : e.options) {
    switch (a) {
      case AfterAction::kPursue:
        if (opponent_retreating) add(a);
        break;
      case AfterAction::kRemainWithDp:
        // Nobody to pursue, no pursuit declined: remain without the DP
        // (RULINGS C21).
        add(opponent_retreating ? a : AfterAction::kRemain);
        break;
      case AfterAction::kTakePosition:
        if (opponent_gone && is_foot(b->type)) add(a);
        break;
      case AfterAction::kRideThrough2:
      case AfterAction::kRideThrough3:
        if (room_to_ride_through(s, *b, ridden_through(s, e))) {
          add(a);
        } else {
          // "the brigade must either remain in place or retire"
          add(AfterAction::kRemain);
          add(AfterAction::kRetire);
        }
        break;
      default: add(a);
    }
  }
  // A breakthrough's "must pursue" with nobody to pursue: remain (RULINGS AC3).
  if (out.empty()) out.push_back(AfterAction::kRemain);
  // "They may halt short of the full move once behind ... fortifications or
  // obstacle": offered where the retire move can get behind one (RULINGS AC4).
  const auto retire = std::find(out.begin(), out.end(), AfterAction::kRetire);
  if (retire != out.end() && halt_behind(s, *b, away_from(s, *b, e.enemies), true)) {
    out.insert(retire + 1, AfterAction::kRetireHaltShort);
  }
  return out;
}

std::vector<Decision> after_combat_pending(const GameState& s) {
  std::vector<Decision> out;
  if (stale(s) || s.after_combat.done) return out;
  if (meeting_waits(s)) return pursuit_meeting_pending(s);
  for (const auto& e : s.after_combat.entries) {
    if (e.executed || e.decided || e.round != s.after_combat.round) continue;
    const auto avail = available_actions(s, e);
    if (avail.size() < 2) continue;
    const Brigade* b = s.find_brigade(e.brigade);
    Decision d;
    d.id = std::string(kAfterCombatPrefix) + e.brigade;
    d.seat = seat_of(*b);
    d.kind = "after_combat";
    d.subjects = {e.brigade};
    for (const auto& x : e.enemies) d.subjects.push_back(x);
    d.prompt = "Combat " + e.combat + " (result " + (e.result > 0 ? "+" : "") + std::to_string(e.result) + "): what does " +
               ref(e.brigade) + " do now?";
    for (auto a : avail) d.options.push_back({std::string(option_id(a)), std::string(option_id(a))});
    d.default_option = std::string(option_id(default_action(avail)));
    out.push_back(std::move(d));
  }
  return out;
}

bool after_combat_done(const GameState& s) { return !stale(s) && s.after_combat.done; }

void after_combat_resolve(GameState& s, const std::vector<Answer>& answers, Dice& dice, std::vector<Event>& events) {
  if (stale(s) || !s.after_combat.started) start(s);
  if (meeting_waits(s)) {
    resolve_pursuit_meeting(s, answers, dice, events);
    run(s, dice, events);  // the round goes on
    return;
  }
  for (const auto& a : answers) {
    if (a.decision_id.rfind(kAfterCombatPrefix, 0) != 0) continue;
    AfterCombatEntry* e = find_entry(s, a.decision_id.substr(kAfterCombatPrefix.size()));
    if (e == nullptr) continue;
    AfterAction act = AfterAction::kRemain;
    const auto avail = available_actions(s, *e);
    if (!parse_after_action(a.option, act) || std::find(avail.begin(), avail.end(), act) == avail.end()) {
      act = default_action(avail);
    }
    e->chosen = act;
    e->decided = true;
  }
  run(s, dice, events);
}

// ---- Moves ----

std::optional<Vec2> fled_point(const GameState& s, const Brigade& b, const std::vector<std::string>& enemies) {
  Vec2 sum;
  int n = 0;
  for (const auto& id : enemies) {
    if (const Brigade* o = s.find_brigade(id); o != nullptr && brigade_on_table(*o)) {
      sum = sum + env_of(*o).center;
      ++n;
    }
  }
  if (n > 0) return sum * (1.0 / n);
  // The nearest enemy brigade.
  const Polygon own = env_of(b).polygon();
  double best = kInf;
  std::optional<Vec2> out;
  for (const auto& o : s.brigades) {
    if (o.army == b.army || !brigade_on_table(o)) continue;
    const double d = distance(own, env_of(o).polygon());
    if (d < best) {
      best = d;
      out = env_of(o).center;
    }
  }
  return out;
}

Vec2 away_from(const GameState& s, const Brigade& b, const std::vector<std::string>& enemies) {
  const OrientedRect env = env_of(b);
  const auto from = fled_point(s, b, enemies);
  const Vec2 d = from ? env.center - *from : Vec2{};
  const double len = length(d);
  if (len < kEps) return facing_unit(b.facing_deg + 180);
  return d * (1.0 / len);
}

double free_distance(const GameState& s, const Brigade& b, Vec2 dir, double distance,
                     const std::vector<std::string>& ignore) {
  return first_stop(s, b, dir, distance, ignore).distance;
}

void make_unformed(Brigade& b) {
  if (b.formation == Formation::kUnformed) return;
  b.base_poses = poses_of(footprint(b));
  b.formation = Formation::kUnformed;
}

namespace {

// The first point, within `reach` along `dir`, where the brigade is wholly
// past a linear obstacle this move crossed (not one it started on or
// against) and `accept(feature, distance)` holds.
template <class Accept>
std::optional<HaltPoint> first_behind(const GameState& s, const Brigade& b, Vec2 dir, double reach, Accept accept) {
  const OrientedRect env = env_of(b);
  // Obstacles it already stands on or against are not crossed by this move.
  std::vector<const Linear*> at_start;
  for (const auto& c : s.terrain.obstacles_crossed(env.polygon())) at_start.push_back(c.feature);
  constexpr double kStep = 0.05;
  for (double t = kStep; t <= reach + kEps; t += kStep) {
    const auto crossed = s.terrain.obstacles_crossed(sweep_straight(env, dir * t));
    if (crossed.empty()) continue;
    const auto under = s.terrain.obstacles_crossed(env.translated(dir * t).polygon());
    for (const auto& c : crossed) {
      if (std::find(at_start.begin(), at_start.end(), c.feature) != at_start.end()) continue;
      const bool still_on = std::any_of(under.begin(), under.end(),
                                        [&](const ObstacleCrossing& u) { return u.feature == c.feature; });
      if (!still_on && accept(*c.feature, t)) return HaltPoint{t, c.feature->id};
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<HaltPoint> halt_point(const GameState& s, const Brigade& b, Vec2 dir, double reach) {
  return first_behind(s, b, dir, reach, [](const Linear&, double) { return true; });
}

std::optional<HaltPoint> rout_obstacle_point(const GameState& s, const Brigade& b, Vec2 dir, double reach,
                                             const std::vector<std::string>& fled) {
  const auto from = fled_point(s, b, fled);
  if (!from) return std::nullopt;
  const Vec2 c0 = env_of(b).center;
  // "behind" it: the obstacle lies between the router, where it would halt,
  // and the enemy it flees (RULINGS AC4).
  return first_behind(s, b, dir, reach, [&](const Linear& f, double t) {
    for (const auto& c : s.terrain.obstacles_crossed(Segment{c0 + dir * t, *from})) {
      if (c.feature == &f) return true;
    }
    return false;
  });
}

std::optional<HaltPoint> halt_behind(const GameState& s, const Brigade& b, Vec2 dir, bool initial) {
  const double most = max_fast_inches(b, initial);
  return halt_point(s, b, dir, first_stop(s, b, dir, most, {}).distance);
}

namespace {

// "Brigades unable to retire due to impassable terrain or enemy troops,
// remain in place and receive 1 casualty" (routers also "surrender to any
// enemy within 2 inches").
void unable_to_move(GameState& s, Brigade& b, bool rout, const std::string& by, std::vector<DieRoll> rolled,
                    Dice& dice, std::vector<Event>& events) {
  const char* verb = rout ? "rout" : "retire";
  Event e = event(rout ? "rout_blocked" : "retire_blocked",
                  ref(b.id) + " cannot " + verb + " (" + describe_stop(s, by) + "): it stays and loses a base.", b);
  e.dice = std::move(rolled);
  events.push_back(std::move(e));
  inflict_damage(s, b, 0, 1, DpCause::kCombat, dice, events);
  if (rout && brigade_on_table(b) && enemy_distance(s, b.army, env_of(b)) <= kSurrenderRange + kEps) {
    b.status |= bit(Status::kSurrendered);
    leave_combat(b);
    record_cause(s, MoraleCauseKind::kDestroyed, b);
    for (auto& l : s.leaders) {
      if (l.attached_to == b.id) {
        l.captured = true;
        l.attached_to.clear();
      }
    }
    events.push_back(event("surrendered", ref(b.id) + " surrenders to the enemy within 2\".", b));
  }
}

// "If a retiring brigade is only partially blocked it must split so that the
// part of the brigade which is blocked remains in place as above and the
// remainder keep retiring" (routers "split in the same way"): the bases that
// cannot get ½" away for enemy or impassable terrain, when some others can
// (RULINGS AC5), and what blocks the first of them. Pursuers split the same
// way ("Pursuers ... only partially blocked by terrain or enemy will split"),
// their quarry in `ignore`: touching it is catching it, not being blocked.
std::vector<std::size_t> blocked_bases(const GameState& s, const Brigade& b, Vec2 dir, std::string& by,
                                       const std::vector<std::string>& ignore = {}) {
  const std::vector<OrientedRect> rects = footprint(b);
  std::vector<std::size_t> out;
  if (rects.size() < 2) return out;
  for (std::size_t i = 0; i < rects.size(); ++i) {
    const Stop st = first_stop(s, b.id, rects[i], dir, kUnableToMove, ignore);
    if (st.distance < kUnableToMove && (enemy_of(s, b.army, st.by) || st.by == "terrain")) {
      if (out.empty()) by = st.by;
      out.push_back(i);
    }
  }
  if (out.size() == rects.size()) out.clear();
  return out;
}

}  // namespace

bool retire_or_rout(GameState& s, Brigade& mover, const std::vector<std::string>& fled, bool rout, bool initial,
                    Dice& dice, std::vector<Event>& events, bool halt_short) {
  const std::string id = mover.id;
  const Vec2 dir = away_from(s, mover, fled);
  std::string blocked_by;
  if (const auto blocked = blocked_bases(s, mover, dir, blocked_by); !blocked.empty()) {
    const std::string nid = split_id(s, id);
    split_brigade(s, id, nid, blocked, events);
    if (Brigade* part = find_mut(s, nid)) unable_to_move(s, *part, rout, blocked_by, {}, dice, events);
  }
  Brigade& b = *find_mut(s, id);
  const FastMove fm = roll_fast_move(dice, b, initial);
  std::vector<DieRoll> rolled = dice.drain();
  const Stop st = first_stop(s, b, dir, fm.inches, {});
  const double free = std::max(0.0, st.distance - (st.by.empty() ? 0 : kClear));
  double d = free;
  std::string why = st.by.empty() ? "" : ", stopped by " + describe_stop(s, st.by);
  if (rout) {
    // "until behind formed friendly foot or cavalry, or terrain obstacle, or 6
    // inches from enemy": the first point of the path 6" clear of enemy.
    const OrientedRect env = env_of(b);
    for (double t = 0; t < d; t += 0.25) {
      if (enemy_distance(s, b.army, env.translated(dir * t)) >= kRoutSafe) {
        d = t;
        why = ", 6\" from the enemy";
        break;
      }
    }
    // "... or terrain obstacle": once wholly past a linear obstacle that lies
    // between it and the enemy it flees (RULINGS AC4).
    if (const auto h = rout_obstacle_point(s, b, dir, d, fled); h && h->distance < d) {
      d = h->distance;
      why = ", behind " + h->behind;
    }
  } else if (halt_short) {
    // "They may halt short of the full move once behind ... fortifications or obstacle."
    if (const auto h = halt_point(s, b, dir, d)) {
      d = h->distance;
      why = ", halting behind " + h->behind;
    }
  }
  const char* verb = rout ? "rout" : "retire";
  // The table edge is not a block: the brigade halts there (RULINGS AC5).
  // Unable to move: blocked, not merely arrived (a router already 6" off or
  // behind an obstacle is where it has to be).
  if (free < kUnableToMove && !st.by.empty() && (enemy_of(s, b.army, st.by) || st.by == "terrain")) {
    unable_to_move(s, b, rout, st.by, std::move(rolled), dice, events);
    return false;
  }
  make_unformed(b);
  translate(b, dir * d);
  b.status |= bit(Status::kMoved) | bit(rout ? Status::kRouting : Status::kRetiring);
  if (rout) b.status &= ~bit(Status::kRetiring);
  leave_combat(b);
  record_cause(s, rout ? MoraleCauseKind::kRouted : MoraleCauseKind::kRetired, b);
  place_leaders(s, b);
  Event e = event(rout ? "rout" : "retire", ref(b.id) + " " + verb + "s " + in(d) + " of " + in(fm.inches) + why + ".", b);
  e.dice = std::move(rolled);
  e.where.push_back({b.position, b.id});
  events.push_back(std::move(e));
  return true;
}

int free_hack(GameState& s, const Brigade& pursuer, Brigade& target, Dice& dice, std::vector<Event>& events) {
  const Polygon tp = env_of(target).polygon();
  int bases = 0;
  for (const auto& r : footprint(pursuer)) {
    if (distance(r.polygon(), tp) <= kContact) ++bases;
  }
  bases = std::max(bases, 1);
  const std::vector<int> faces = dice.d6s(bases);
  int hits = 0;
  for (int f : faces) hits += f >= kFreeHackHit ? 1 : 0;
  Event e = event("free_hack",
                  ref(pursuer.id) + " catches " + ref(target.id) + ": free hack, " + std::to_string(bases) + " D6, " +
                      std::to_string(hits) + " casualt" + (hits == 1 ? "y" : "ies") + ".",
                  target);
  e.subjects.push_back(pursuer.id);
  e.dice = dice.drain();
  events.push_back(std::move(e));
  if (hits > 0) inflict_damage(s, target, 0, hits, DpCause::kCombat, dice, events);
  return hits;
}

void pursue(GameState& s, Brigade& pursuer, const std::string& target, bool initial, Dice& dice,
            std::vector<Event>& events) {
  // Copies: `target` may be the pursuer's own Brigade::pursuing, and a split
  // below moves the brigades.
  const std::string pid = pursuer.id;
  const std::string target_id = target;
  Brigade* t = find_mut(s, target_id);
  if (t == nullptr || !brigade_on_table(*t)) return;
  Vec2 dir = env_of(*t).center - env_of(pursuer).center;
  const double len = length(dir);
  dir = len > kEps ? dir * (1.0 / len) : facing_unit(pursuer.facing_deg);
  // "Pursuers of multiple battalions or squadrons who are only partially
  // blocked by terrain or enemy will split with the blocked part halting and
  // the remainder carrying on in pursuit" (RULINGS AC5).
  std::string blocked_by;
  if (const auto blocked = blocked_bases(s, pursuer, dir, blocked_by, {target_id}); !blocked.empty()) {
    const std::string nid = split_id(s, pid);
    const std::string by = describe_stop(s, blocked_by);
    split_brigade(s, pid, nid, blocked, events);
    if (Brigade* part = find_mut(s, nid)) {
      part->status &= ~bit(Status::kPursuing);
      part->pursuing.clear();
      events.push_back(event("pursuit_blocked",
                             ref(nid) + " (" + std::to_string(part->bases) + " bases of " + ref(pid) +
                                 ") is blocked by " + by + " and halts; the rest pursue.",
                             *part));
    }
    t = find_mut(s, target_id);
  }
  Brigade& p = *find_mut(s, pid);
  const FastMove fm = roll_fast_move(dice, p, false);
  (void)initial;  // pursuit never adds the initial ½" a die
  std::vector<DieRoll> rolled = dice.drain();
  make_unformed(p);
  const Stop st = first_stop(s, p, dir, fm.inches, {});
  const double d = std::max(0.0, st.distance);
  translate(p, dir * d);
  p.status |= bit(Status::kMoved) | bit(Status::kPursuing);
  p.pursuing = target_id;
  leave_combat(p);
  place_leaders(s, p);
  // How far it rode tells where it stands: said only to seats that see it.
  Event e = event("pursue", ref(p.id) + " pursues " + ref(target_id) + about(p.id, " " + in(d) + " of " + in(fm.inches)) + ".", p);
  e.dice = std::move(rolled);
  e.subjects.push_back(target_id);
  events.push_back(std::move(e));
  if (st.by == target_id) {
    const bool was_retiring = t->has(Status::kRetiring);
    free_hack(s, p, *t, dice, events);
    // "Retiring brigades caught by pursuers are automatically routed after
    // the pursuers get their free hack" -- and rout away at once (RULINGS AC7).
    if (was_retiring && brigade_on_table(*t)) {
      t->status = (t->status & ~bit(Status::kRetiring)) | bit(Status::kRouting);
      events.push_back(event("routed", ref(target_id) + " is caught retiring and routs.", *t));
      retire_or_rout(s, *t, {pid}, true, true, dice, events);
    }
  } else if (!st.by.empty() && enemy_of(s, p.army, st.by) && s.find_brigade(st.by) != nullptr) {
    // "Pursuers encountering new enemy immediately charge into them, the
    // opponent may countercharge if cavalry": cavalry able to (not retiring,
    // routing or pursuing) are asked first (RULINGS AC8).
    const Brigade* o = s.find_brigade(st.by);
    if (is_cavalry(o->type) && !retreating(*o) && !o->has(Status::kPursuing)) {
      s.after_combat.meeting_pursuer = p.id;
      s.after_combat.meeting_enemy = st.by;
      Event m = event("pursuit_meets", ref(p.id) + " pursues into " + ref(st.by) + ", who may counter-charge.", p);
      m.subjects.push_back(st.by);
      events.push_back(std::move(m));
      return;
    }
    pursuit_charge(s, p.id, st.by, false, dice, events);
  }
}


// ---- The movement phase's pre-step ----

void begin_movement_half(GameState& s, Dice& dice, std::vector<Event>& events) {
  auto& ac = s.after_combat;
  ac.move_turn = s.turn;
  ac.move_half = s.half;
  ac.retire_choices.clear();
  for (const auto& army : acting_armies(s)) {
    for (std::size_t i : brigades_right_to_left(s, army)) {
      Brigade& p = s.brigades[i];
      // Moved: it pursued earlier in this half, before a pursuer met cavalry
      // whose answer was awaited (resolve_pursuit_meeting goes on from here).
      if (!brigade_on_table(p) || !p.has(Status::kPursuing) || p.has(Status::kMoved)) continue;
      if (p.control == ControlResult::kAsWished) {
        // Passed the test to cease pursuit: acts as its player wishes.
        p.status &= ~bit(Status::kPursuing);
        p.pursuing.clear();
        events.push_back(event("pursuit_ends", ref(p.id) + " ceases its pursuit.", p));
        continue;
      }
      Brigade* t = find_mut(s, p.pursuing);
      if (t == nullptr || !brigade_on_table(*t) || !retreating(*t)) {
        p.status &= ~bit(Status::kPursuing);
        p.pursuing.clear();
        events.push_back(event("pursuit_ends", ref(p.id) + " has nobody left to pursue.", p));
        continue;
      }
      if (t->has(Status::kRouting)) {
        // "Subsequent rout moves are made during opponents move phase as long
        // as the opponent is still pursuing ... one casualty for each".
        const std::string tid = t->id;
        if (retire_or_rout(s, *t, {p.id}, true, false, dice, events)) {
          Brigade* tt = find_mut(s, tid);
          events.push_back(event("rout_casualty", ref(tid) + " loses a base routing.", *tt));
          inflict_damage(s, *tt, 0, 1, DpCause::kCombat, dice, events);
        }
      }
      Brigade& pp = s.brigades[i];
      pursue(s, pp, pp.pursuing, false, dice, events);
      if (meeting_waits(s)) return;  // the cavalry met decide first
    }
    for (std::size_t i : brigades_right_to_left(s, army)) {
      const Brigade& b = s.brigades[i];
      if (brigade_on_table(b) && b.has(Status::kRetiring) && !b.has(Status::kMoved) && !b.has(Status::kInCombat)) {
        ac.retire_choices.push_back(b.id);
      }
    }
  }
}

std::vector<Decision> retire_pending(const GameState& s) {
  std::vector<Decision> out;
  if (s.phase != Phase::kMovement || s.after_combat.move_turn != s.turn || s.after_combat.move_half != s.half) {
    return out;
  }
  for (const auto& id : s.after_combat.retire_choices) {
    const Brigade* b = s.find_brigade(id);
    if (b == nullptr) continue;
    Decision d;
    d.id = std::string(kRetirePrefix) + id;
    d.seat = seat_of(*b);
    d.kind = "continue_retire";
    d.subjects = {id};
    d.prompt = ref(id) + " is retiring: continue to retire (a fast move, unformed), or remain in place to re-form.";
    d.options = {{"continue", "Continue to retire"}};
    if (const auto h = halt_behind(s, *b, away_from(s, *b, {}), false)) {
      d.options.push_back({"continue_halt", "Continue to retire, halting once behind " + h->behind});
    }
    d.options.push_back({"remain", "Remain in place"});
    d.default_option = "remain";
    out.push_back(std::move(d));
  }
  return out;
}

void resolve_retire_choices(GameState& s, const std::vector<Answer>& answers, Dice& dice,
                            std::vector<Event>& events) {
  const std::vector<std::string> asked = s.after_combat.retire_choices;
  s.after_combat.retire_choices.clear();
  for (const auto& id : asked) {
    bool go = false;
    bool halt = false;
    for (const auto& a : answers) {
      if (a.decision_id != std::string(kRetirePrefix) + id) continue;
      go = a.option == "continue" || a.option == "continue_halt";
      halt = a.option == "continue_halt";
    }
    Brigade* b = find_mut(s, id);
    if (b == nullptr || !go) continue;
    retire_or_rout(s, *b, {}, false, false, dice, events, halt);
  }
}

std::vector<Decision> pursuit_meeting_pending(const GameState& s) {
  std::vector<Decision> out;
  if (!meeting_waits(s)) return out;
  const Brigade* b = s.find_brigade(s.after_combat.meeting_enemy);
  if (b == nullptr) return out;
  const std::string& pursuer = s.after_combat.meeting_pursuer;
  Decision d;
  d.id = std::string(kCounterPrefix) + b->id;
  d.seat = seat_of(*b);
  d.kind = "pursuit_counter_charge";
  d.subjects = {b->id, pursuer};
  d.prompt = ref(pursuer) + " pursues into " + ref(b->id) + ": does " + ref(b->id) + " counter-charge?";
  d.options = {{"counter_charge", "Counter-charge " + ref(pursuer)}, {"stand", "Receive the charge at the halt"}};
  d.default_option = "counter_charge";
  out.push_back(std::move(d));
  return out;
}

void resolve_pursuit_meeting(GameState& s, const std::vector<Answer>& answers, Dice& dice,
                             std::vector<Event>& events) {
  if (!meeting_waits(s)) return;
  const std::string pursuer = s.after_combat.meeting_pursuer;
  const std::string enemy = s.after_combat.meeting_enemy;
  s.after_combat.meeting_pursuer.clear();
  s.after_combat.meeting_enemy.clear();
  bool counter = true;  // the default
  for (const auto& a : answers) {
    if (a.decision_id == std::string(kCounterPrefix) + enemy) counter = a.option != "stand";
  }
  const Brigade* e = s.find_brigade(enemy);
  if (e != nullptr) {
    Event ev = event("charge_response",
                     ref(enemy) + (counter ? " counter-charges " : " stands to receive ") + ref(pursuer) + ".", *e);
    ev.subjects.push_back(pursuer);
    events.push_back(std::move(ev));
  }
  pursuit_charge(s, pursuer, enemy, counter, dice, events);
  // The movement phase: the other pursuers of the half move on.
  if (s.phase == Phase::kMovement) begin_movement_half(s, dice, events);
}

}  // namespace galloper::rules::malbrook
