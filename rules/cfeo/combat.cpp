#include "rules/cfeo/combat.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "rules/cfeo/basing.hpp"
#include "rules/cfeo/combat_moves.hpp"
#include "rules/cfeo/combat_tables.hpp"
#include "rules/cfeo/fire.hpp"
#include "rules/cfeo/move_tables.hpp"
#include "rules/cfeo/seats.hpp"
#include "rules/cfeo/sequence.hpp"
#include "rules/cfeo/sight.hpp"
#include "rules/core/answers.hpp"
#include "rules/core/geometry.hpp"
#include "rules/core/tell.hpp"

namespace galloper::rules::cfeo {

namespace {

constexpr double kGroundEps = 1e-6;  // yards of height that count as higher
constexpr double kArcDeg = 45;        // the front arc, as for fire (RULINGS F8)
constexpr double kCountRange = 40;    // "count bases within 40 yds of enemy"
constexpr double kInContact = 1;      // yards: bases this close touch
constexpr int kHighestAvd = 5;        // an average die reads 2,3,3,4,4,5

constexpr std::string_view kStand = "stand";
constexpr std::string_view kCounterCharge = "counter_charge";
constexpr std::string_view kEvade = "evade";
constexpr std::string_view kRemain = "remain";
constexpr std::string_view kPursue = "pursue";
constexpr std::string_view kRetire = "retire";
constexpr std::string_view kTakePosition = "take_position";
constexpr std::string_view kRide2 = "ride_2";
constexpr std::string_view kRide3 = "ride_3";

tables::Arm table_arm(const Unit& u) { return is_cavalry(u.arm) ? tables::Arm::kCavalry : tables::Arm::kInfantry; }

std::string dps_text(int dps) { return std::to_string(dps) + (dps == 1 ? " DP" : " DPs"); }

// ---- Who may charge whom ----

tables::MoveDice charge_dice(const Unit& u) { return {is_cavalry(u.arm) ? 2 : 1, true}; }

bool may_charge(const Unit& u) { return in_field(u) && u.formation != Formation::kMarchColumn; }

// The unit's whole front rank as one rectangle: its front arc is the unit's.
OrientedRect front_of(const Unit& u) {
  const BaseSize base = base_size(u.arm);
  const double width = base.width * static_cast<double>(std::min(bases_per_rank(u), u.bases));
  return OrientedRect::from_front_mid(u.position, width, base.depth, u.facing_deg);
}

bool in_front_arc(const Unit& u, const std::vector<OrientedRect>& target) {
  const OrientedRect front = front_of(u);
  return std::any_of(target.begin(), target.end(), [&](const OrientedRect& r) { return rect_in_front_arc(front, r, kArcDeg); });
}

std::vector<Target> chargeable(const GameState& s, const SightTable& sight, const Unit& u) {
  std::vector<Target> out;
  const auto bases = footprint(u);
  for (Target t : seen_enemies(s, sight, seat_of(s, u), u.side)) {
    const auto target = target_bases(s, t);
    if (group_gap(bases, target) <= charge_reach(u) && in_front_arc(u, target)) out.push_back(t);
  }
  return out;
}

std::size_t unit_named(const GameState& s, std::string_view id) {
  for (std::size_t i = 0; i < s.units.size(); ++i) {
    if (s.units[i].id == id) return i;
  }
  return s.units.size();
}

std::string_view piece_of(std::string_view decision_id, std::string_view prefix) { return decision_id.substr(prefix.size()); }

// ---- The fight ----

// The unit's counted dice in its combat with `enemy` (the enemy's bases),
// with the modifiers (RULINGS C4, C5).
struct Fighter {
  Target piece;
  bool charged = false;       // charged or counter-charged
  bool was_charged = false;
  bool flank_or_rear = false; // charged from outside its front arc
  bool moved_before = false;  // moved this turn before it was charged
};

int counted_bases(const Unit& u, const std::vector<OrientedRect>& enemy, bool charging) {
  const auto bases = footprint(u);
  const std::size_t front = std::min<std::size_t>(bases.size(), bases_per_rank(u));
  if (u.formation == Formation::kAssaultColumn && is_foot(u.arm)) {
    // Only when its head is within reach of the enemy.
    if (group_gap({bases.front()}, enemy) > kCountRange) return 0;
    std::vector<int> ranks;
    for (std::size_t i = 0; i < bases.size(); i += front) ranks.push_back(static_cast<int>(std::min(front, bases.size() - i)));
    return tables::assault_column_bases(ranks, charging);
  }
  if (is_cavalry(u.arm)) {
    // "Count cavalry bases in contact with enemy +1 base extending out on
    // either flank."
    int first = -1;
    int last = -1;
    for (std::size_t i = 0; i < front; ++i) {
      if (group_gap({bases[i]}, enemy) <= kInContact) {
        if (first < 0) first = static_cast<int>(i);
        last = static_cast<int>(i);
      }
    }
    if (first < 0) return 0;
    return (last - first + 1) + (first > 0 ? 1 : 0) + (last + 1 < static_cast<int>(front) ? 1 : 0);
  }
  // "Infantry and guns, count bases within 40 yds of enemy to front and 45°
  // from the flanks."
  int n = 0;
  for (std::size_t i = 0; i < front; ++i) {
    const bool faces = std::any_of(enemy.begin(), enemy.end(),
                                   [&](const OrientedRect& r) { return rect_in_front_arc(bases[i], r, kArcDeg); });
    if (faces && group_gap({bases[i]}, enemy) <= kCountRange) ++n;
  }
  return n;
}

struct Rolled {
  int dice = 0;
  tables::CombatRoll roll;
  std::vector<tables::Modifier> modifiers;
};

Rolled fight(const GameState& s, const Fighter& f, const std::vector<Target>& enemies, Dice& dice) {
  std::vector<OrientedRect> enemy;
  bool enemy_cavalry = false;
  std::uint32_t enemy_ranks = 1;
  for (Target e : enemies) {
    for (const auto& r : target_bases(s, e)) enemy.push_back(r);
    if (e.kind == Target::Kind::kUnit && is_cavalry(s.units[at(e.index)].arm)) {
      enemy_cavalry = true;
      enemy_ranks = std::max(enemy_ranks, s.units[at(e.index)].ranks);
    }
  }
  Rolled out;
  if (f.piece.kind == Target::Kind::kGun) {
    // A gun is one base; its crew fight as C Grade (RULINGS C5).
    const Gun& g = s.guns[at(f.piece.index)];
    const bool faces = std::any_of(enemy.begin(), enemy.end(),
                                   [&](const OrientedRect& r) { return rect_in_front_arc(footprint(g), r, kArcDeg); });
    const int bases = faces && group_gap({footprint(g)}, enemy) <= kCountRange ? 1 : 0;
    tables::CombatFactors cf;
    cf.dps = static_cast<int>(g.dps);
    cf.advantage_of_ground = advantage_of_ground(s, f.piece, enemies);
    cf.hit_in_flank_or_rear = f.flank_or_rear;
    out.modifiers = tables::combat_modifiers(cf);
    out.dice = tables::combat_dice(bases, tables::combat_modifier(cf));
    out.roll = tables::roll_combat(dice, out.dice, tables::hit_threshold(false, false));
    return out;
  }
  const Unit& u = s.units[at(f.piece.index)];
  const int bases = counted_bases(u, enemy, f.charged);
  int base_dice = bases;
  if (u.pike_bases > 0) {
    // The pikes stand in the counted bases first (RULINGS C5).
    const int pikes = std::min(bases, static_cast<int>(u.pike_bases));
    base_dice = (bases - pikes) + pikes * tables::pike_base_dice(enemy_cavalry ? tables::Arm::kCavalry : tables::Arm::kInfantry, f.charged);
  }
  tables::CombatFactors cf;
  cf.grade = u.grade;
  cf.inspire_actions = static_cast<int>(u.inspired);
  cf.advantage_of_ground = advantage_of_ground(s, f.piece, enemies);
  cf.charging_or_pursuing = f.charged;
  cf.a_outrance_vs_cavalry = f.charged && u.a_outrance && enemy_cavalry;
  cf.traditional_cavalry_deeper_vs_cavalry =
      is_cavalry(u.arm) && u.style == CavalryStyle::kTraditional && enemy_cavalry && u.ranks > enemy_ranks;
  cf.foot_line_not_fired_by_platoons = is_foot(u.arm) && u.formation == Formation::kLine && !u.platoon_fire;
  cf.dps = static_cast<int>(u.dps);
  cf.foot_moved_charged_by_cavalry = is_foot(u.arm) && f.moved_before && f.was_charged && enemy_cavalry;
  cf.hit_in_flank_or_rear = f.flank_or_rear;
  out.modifiers = tables::combat_modifiers(cf);
  out.dice = tables::combat_dice(base_dice, tables::combat_modifier(cf));
  const bool loose = u.formation == Formation::kMarchColumn || u.formation == Formation::kUnformed;
  out.roll = tables::roll_combat(dice, out.dice, tables::hit_threshold(loose, false));
  return out;
}

tables::Opponents opponents_of(const GameState& s, const std::vector<Target>& enemies) {
  tables::Opponents o;
  for (Target e : enemies) {
    if (e.kind == Target::Kind::kGun) {
      o.guns = true;
      continue;
    }
    const Unit& u = s.units[at(e.index)];
    if (is_cavalry(u.arm)) {
      o.cavalry = true;
      o.deep_cavalry = o.deep_cavalry || u.ranks > 1;
    } else if (u.skirmishers) {
      o.skirmishers = true;
    } else {
      o.formed_foot = true;
    }
  }
  return o;
}

// One combat: a target and every unit that reached it.
struct Combat {
  Target target;
  std::vector<Fighter> attackers;
  Fighter defender;
};

std::string name_list(const GameState& s, const std::vector<Fighter>& fs) {
  std::string out;
  for (std::size_t i = 0; i < fs.size(); ++i) {
    if (i > 0) out += i + 1 == fs.size() ? " and " : ", ";
    out += ref(target_id(s, fs[i].piece));
  }
  return out;
}

std::string roll_text(const GameState& s, const Fighter& f, const Rolled& r) {
  std::string out = ref(target_id(s, f.piece)) + " " + std::to_string(r.dice) + (r.dice == 1 ? " die" : " dice");
  for (const auto& m : r.modifiers) out += std::string(m.value >= 0 ? " +" : " ") + std::to_string(m.value) + " (" + std::string(m.why) + ")";
  return out + ", " + std::to_string(r.roll.hits) + (r.roll.hits == 1 ? " hit" : " hits");
}

void take(GameState& s, Target t, int dps) {
  if (t.kind == Target::Kind::kGun) {
    s.guns[at(t.index)].dps += static_cast<std::uint32_t>(dps);
  } else {
    s.units[at(t.index)].dps += static_cast<std::uint32_t>(dps);
    s.units[at(t.index)].in_combat = true;
  }
}

Event event_of(const GameState& s, std::string kind, std::vector<std::string> subjects, Target at_piece, std::string text) {
  Event e;
  e.kind = std::move(kind);
  e.subjects = std::move(subjects);
  const std::string& id = target_id(s, at_piece);
  const Vec2 where = at_piece.kind == Target::Kind::kGun ? s.guns[at(at_piece.index)].position : s.units[at(at_piece.index)].position;
  e.where = {{where, id}};
  e.text = std::move(text);
  return e;
}

// Applies a fighter's row: its DPs, and its forced move or its player's choice.
void apply_row(GameState& s, const Fighter& f, const tables::CombatOutcome& o, Index enemy_unit,
               std::vector<AfterCombat>& choices, std::vector<Index>& pursuers, Dice& dice,
               std::vector<Event>& ev) {
  take(s, f.piece, o.dps);
  const std::string& id = target_id(s, f.piece);
  std::string text = ref(id) + ": " + std::string(tables::to_string(o.result)) + ", " + dps_text(o.dps);
  if (f.piece.kind == Target::Kind::kGun) {
    Gun& g = s.guns[at(f.piece.index)];
    if (o.reaction == tables::Reaction::kGunsAbandoned || o.reaction == tables::Reaction::kGunsAbandonedCrewKilled) {
      g.abandoned = true;
      g.crew_killed = o.reaction == tables::Reaction::kGunsAbandonedCrewKilled;
      text += g.crew_killed ? "; the gun is abandoned and its crew killed." : "; the gun is abandoned.";
    } else {
      text += "; the gun stands.";
    }
    ev.push_back(event_of(s, "combat_result", {id}, f.piece, text));
    return;
  }
  const Index ui = f.piece.index;
  switch (o.reaction) {
    case tables::Reaction::kRetire:
    case tables::Reaction::kGunsAbandoned:
    case tables::Reaction::kGunsAbandonedCrewKilled:
      ev.push_back(event_of(s, "combat_result", {id}, f.piece, text + "; it retires."));
      fall_back(s, ui, FallBack::kRetire, dice, ev);
      return;
    case tables::Reaction::kRout:
      ev.push_back(event_of(s, "combat_result", {id}, f.piece, text + "; it routs."));
      fall_back(s, ui, FallBack::kRout, dice, ev);
      return;
    case tables::Reaction::kRemainInPlace:
      ev.push_back(event_of(s, "combat_result", {id}, f.piece, text + "; it remains in place."));
      return;
    case tables::Reaction::kPursue:
      ev.push_back(event_of(s, "combat_result", {id}, f.piece, text + "; it must pursue."));
      pursuers.push_back(ui);
      return;
    case tables::Reaction::kAnyPermittedAction:
      ev.push_back(event_of(s, "combat_result", {id}, f.piece, text + "."));
      choices.push_back({ui, AfterCombatChoice::kAnyPermittedAction, enemy_unit, false});
      return;
    case tables::Reaction::kRemainOrRetire:
      ev.push_back(event_of(s, "combat_result", {id}, f.piece, text + "; it may remain in place or retire."));
      choices.push_back({ui, AfterCombatChoice::kRemainOrRetire, enemy_unit, false});
      return;
    case tables::Reaction::kRideThrough:
      ev.push_back(event_of(s, "combat_result", {id}, f.piece, text + "; it rides through."));
      choices.push_back({ui, AfterCombatChoice::kRideThrough, enemy_unit, false});
      return;
  }
}

tables::CombatUnit combat_unit(const GameState& s, const Fighter& f) {
  tables::CombatUnit cu;
  if (f.piece.kind == Target::Kind::kGun) {
    cu.arm = tables::Arm::kGuns;
  } else {
    const Unit& u = s.units[at(f.piece.index)];
    cu.arm = table_arm(u);
    cu.grade = u.grade;
    cu.a_outrance = f.charged && u.a_outrance;
  }
  cu.charged = f.charged;
  cu.was_charged = f.was_charged;
  return cu;
}

// A unit among the fighters that gave ground (retired or routed), to be
// pursued or its position taken; kNone if none did.
Index gave_ground(const GameState& s, const std::vector<Fighter>& fs) {
  for (const Fighter& f : fs) {
    if (f.piece.kind != Target::Kind::kUnit) continue;
    const Unit& u = s.units[at(f.piece.index)];
    if (u.retiring || u.routing) return f.piece.index;
  }
  return kNone;
}

Index first_unit(const std::vector<Fighter>& fs) {
  for (const Fighter& f : fs) {
    if (f.piece.kind == Target::Kind::kUnit) return f.piece.index;
  }
  return kNone;
}

void fight_out(GameState& s, const Combat& c, Dice& dice, std::vector<Event>& ev) {
  const GameState before = s;
  std::vector<Target> attackers;
  for (const Fighter& f : c.attackers) attackers.push_back(f.piece);
  const std::vector<Target> defenders{c.target};
  int attack_hits = 0;
  std::string text = "Combat: " + name_list(before, c.attackers) + " against " + ref(target_id(before, c.target)) + ". ";
  std::vector<std::string> subjects;
  for (const Fighter& f : c.attackers) {
    const Rolled r = fight(before, f, defenders, dice);
    attack_hits += r.roll.hits;
    text += roll_text(before, f, r) + "; ";
    subjects.push_back(target_id(before, f.piece));
  }
  const Rolled d = fight(before, c.defender, attackers, dice);
  text += roll_text(before, c.defender, d) + ".";
  subjects.push_back(target_id(before, c.target));
  Event e = event_of(before, "combat", subjects, c.target, text);
  e.dice = dice.drain();
  ev.push_back(std::move(e));

  // Each side reads its own row (T9): the losers' forced moves first, so a
  // winner's pursuit or choice knows who gave ground.
  std::vector<AfterCombat> choices;
  std::vector<Index> pursuers;  // forced to pursue whoever gave ground
  const tables::Opponents vs_defender = opponents_of(before, defenders);
  const tables::Opponents vs_attackers = opponents_of(before, attackers);
  const auto defender_row = tables::combat_outcome(d.roll.hits - attack_hits, combat_unit(before, c.defender), vs_attackers);
  std::vector<tables::CombatOutcome> attacker_rows;
  for (const Fighter& f : c.attackers) {
    attacker_rows.push_back(tables::combat_outcome(attack_hits - d.roll.hits, combat_unit(before, f), vs_defender));
  }
  const bool defender_lost = d.roll.hits < attack_hits;
  const Index attacker_unit = first_unit(c.attackers);
  const Index defender_unit = c.target.kind == Target::Kind::kUnit ? c.target.index : kNone;
  if (defender_lost) apply_row(s, c.defender, defender_row, attacker_unit, choices, pursuers, dice, ev);
  for (std::size_t i = 0; i < c.attackers.size(); ++i) {
    apply_row(s, c.attackers[i], attacker_rows[i], defender_unit, choices, pursuers, dice, ev);
  }
  if (!defender_lost) apply_row(s, c.defender, defender_row, attacker_unit, choices, pursuers, dice, ev);

  // Who gave ground decides what the winners may do.
  const Index fled_attacker = gave_ground(s, c.attackers);
  const bool defender_fled = defender_unit != kNone && (s.units[at(defender_unit)].retiring || s.units[at(defender_unit)].routing);
  for (AfterCombat& a : choices) {
    const bool is_defender = a.unit == defender_unit;
    a.enemy = is_defender ? fled_attacker : (defender_fled ? defender_unit : kNone);
    a.enemy_gave_ground = a.enemy != kNone;
    if (!a.enemy_gave_ground) a.enemy = is_defender ? attacker_unit : defender_unit;
    // A unit in two combats (charging one enemy, charged by another) makes
    // one move after them, as its first combat allows.
    const bool owed = std::any_of(s.after_combat.begin(), s.after_combat.end(),
                                  [&](const AfterCombat& x) { return x.unit == a.unit; });
    if (!owed) s.after_combat.push_back(a);
  }
  for (const Index unit : pursuers) {
    const bool is_defender = unit == defender_unit;
    const Index fled = is_defender ? fled_attacker : (defender_fled ? defender_unit : kNone);
    if (fled != kNone) {
      pursue(s, unit, fled, dice, ev);
    } else {
      ev.push_back(event_of(s, "after_combat", {s.units[at(unit)].id}, {Target::Kind::kUnit, unit},
                            ref(s.units[at(unit)].id) + " has no one to pursue and remains in place."));
    }
  }
}

// ---- The stages ----

void record_charges(GameState& s, const std::vector<Answer>& answers, std::vector<Event>& ev) {
  for (const Answer& a : answers) {
    if (!a.decision_id.starts_with(kChargePrefix) || a.option == kNoCharge) continue;
    const std::size_t ui = unit_named(s, piece_of(a.decision_id, kChargePrefix));
    const Target t = target_named(s, a.option);
    if (ui >= s.units.size() || t.kind == Target::Kind::kNone) continue;
    s.charges.push_back({static_cast<Index>(ui), t, Response::kStand});
    Event e = event_of(s, "charge_declared", {s.units[ui].id, target_id(s, t)}, {Target::Kind::kUnit, static_cast<Index>(ui)},
                       ref(s.units[ui].id) + " charges " + ref(target_id(s, t)) + ".");
    ev.push_back(std::move(e));
  }
}

void record_responses(GameState& s, const std::vector<Answer>& answers, std::vector<Event>& ev) {
  for (const Answer& a : answers) {
    if (!a.decision_id.starts_with(kResponsePrefix)) continue;
    const Target t = target_named(s, piece_of(a.decision_id, kResponsePrefix));
    const Response r = a.option == kCounterCharge ? Response::kCounterCharge
                       : a.option == kEvade       ? Response::kEvade
                                                  : Response::kStand;
    for (Charge& c : s.charges) {
      if (c.target == t) c.response = r;
    }
    if (r == Response::kStand) continue;
    ev.push_back(event_of(s, "response", {target_id(s, t)}, t,
                          ref(target_id(s, t)) + (r == Response::kEvade ? " evades." : " counter-charges.")));
  }
}

// Stage 3: the evaders fall back, the charges close, the combats are fought.
void execute_charges(GameState& s, Dice& dice, std::vector<Event>& ev) {
  const std::vector<Charge> charges = s.charges;
  s.charges.clear();
  // Targets in the order first charged.
  std::vector<Target> targets;
  for (const Charge& c : charges) {
    if (std::find(targets.begin(), targets.end(), c.target) == targets.end()) targets.push_back(c.target);
  }
  for (Target t : targets) {
    Response response = Response::kStand;
    for (const Charge& c : charges) {
      if (c.target == t) response = c.response;
    }
    if (response == Response::kEvade && t.kind == Target::Kind::kUnit) {
      // "Evading = 1 DP" (the morale phase); the nearest charger is whom it flees.
      s.units[at(t.index)].evaded = true;
      fall_back(s, t.index, FallBack::kEvade, dice, ev);
    }
  }
  std::vector<Combat> combats;
  for (Target t : targets) {
    Combat c;
    c.target = t;
    c.defender.piece = t;
    c.defender.was_charged = true;
    c.defender.moved_before = t.kind == Target::Kind::kUnit && (s.units[at(t.index)].moved || s.units[at(t.index)].evaded);
    Response response = Response::kStand;
    for (const Charge& ch : charges) {
      if (ch.target == t) response = ch.response;
    }
    for (const Charge& ch : charges) {
      if (ch.target != t) continue;
      const Unit& u = s.units[at(ch.unit)];
      if (!in_field(u)) continue;
      // From behind the target's flank: outside its front arc where it began.
      const bool flank = t.kind == Target::Kind::kUnit ? !in_front_arc(s.units[at(t.index)], footprint(u))
                                                       : !rect_in_front_arc(footprint(s.guns[at(t.index)]), footprint(u).front(), kArcDeg);
      const tables::MoveRoll roll = tables::roll_move(dice, charge_dice(u), false, false);
      int counter = 0;
      if (response == Response::kCounterCharge && t.kind == Target::Kind::kUnit) {
        counter = tables::roll_move(dice, charge_dice(s.units[at(t.index)]), false, false).yards;
      }
      const bool reached = close_in(s, ch.unit, t, roll.yards, counter, ev, dice);
      if (!reached) {
        // "Must always test if charged last turn and failed to contact."
        s.units[at(ch.unit)].charge_failed = true;
        continue;
      }
      Fighter f;
      f.piece = {Target::Kind::kUnit, ch.unit};
      f.charged = true;
      f.moved_before = true;
      c.attackers.push_back(f);
      c.defender.flank_or_rear = c.defender.flank_or_rear || flank;
    }
    c.defender.charged = response == Response::kCounterCharge;
    if (!c.attackers.empty()) combats.push_back(std::move(c));
  }
  for (const Combat& c : combats) fight_out(s, c, dice, ev);
}

// Stage 4: the moves after combat that the players chose.
void execute_after_combat(GameState& s, const std::vector<Answer>& answers, Dice& dice, std::vector<Event>& ev) {
  const std::vector<AfterCombat> owed = s.after_combat;
  s.after_combat.clear();
  for (const AfterCombat& a : owed) {
    const std::string decision = std::string(kAfterCombatPrefix) + s.units[at(a.unit)].id;
    std::string option(kRemain);
    for (const Answer& x : answers) {
      if (x.decision_id == decision) option = x.option;
    }
    if (!in_field(s.units[at(a.unit)])) {
      continue;
    } else if (option == kRetire) {
      fall_back(s, a.unit, FallBack::kRetire, dice, ev);
    } else if (option == kPursue && a.enemy_gave_ground) {
      pursue(s, a.unit, a.enemy, dice, ev);
    } else if (option == kTakePosition && a.enemy_gave_ground) {
      take_position(s, a.unit, a.enemy, ev);
    } else if (option == kRide2 || option == kRide3) {
      ride_through(s, a.unit, option == kRide3 ? 3 : 2, dice, ev);
    } else if (in_field(s.units[at(a.unit)])) {
      ev.push_back(event_of(s, "after_combat", {s.units[at(a.unit)].id}, {Target::Kind::kUnit, a.unit},
                            ref(s.units[at(a.unit)].id) + " remains in place."));
    }
  }
}

}  // namespace

bool advantage_of_ground(const GameState& s, Target self, const std::vector<Target>& enemies) {
  if (self.kind == Target::Kind::kUnit && s.units[at(self.index)].ground_ruling) {
    return *s.units[at(self.index)].ground_ruling;
  }
  const std::vector<OrientedRect> own = target_bases(s, self);
  if (own.empty()) return false;
  const Vec2 middle = own.front().center;
  const double height = s.terrain.elevation_at(middle);
  for (Target e : enemies) {
    const std::vector<OrientedRect> theirs = target_bases(s, e);
    if (theirs.empty()) continue;
    const Vec2 their_middle = theirs.front().center;
    if (height > s.terrain.elevation_at(their_middle) + kGroundEps) return true;
    for (const auto& c : s.terrain.obstacles_crossed(Segment{middle, their_middle})) {
      if (c.feature != nullptr && c.feature->is_obstacle() && distance(middle, c.point) <= distance(their_middle, c.point)) {
        return true;
      }
    }
    for (AreaKind k : {AreaKind::kWood, AreaKind::kTown}) {
      const Area* a = s.terrain.at_edge_of(own.front(), k, visibility_rules().cover_edge_depth);
      if (a != nullptr && std::none_of(theirs.begin(), theirs.end(), [&](const OrientedRect& r) { return intersects(r, a->outline); })) {
        return true;
      }
    }
  }
  return false;
}

double charge_reach(const Unit& u) {
  const tables::MoveDice d = charge_dice(u);
  return (d.avd * kHighestAvd + (d.d6 ? 6 : 0)) * tables::kYardsPerPip;
}

std::vector<Decision> combat_pending(const GameState& s, const SightTable& sight) {
  std::vector<Decision> out;
  if (s.phase != Phase::kCombat) return out;
  switch (s.combat_stage) {
    case CombatStage::kCharges:
      for (const Unit& u : s.units) {
        // A steadied unit "must remain halted" (RULINGS K6).
        if (!is_acting(s, u.side) || !may_charge(u) || u.steadied) continue;
        const auto targets = chargeable(s, sight, u);
        if (targets.empty()) continue;
        Decision d;
        d.id = std::string(kChargePrefix) + u.id;
        d.seat = seat_of(s, u);
        d.kind = "charge";
        d.subjects = {u.id};
        d.prompt = "Does " + ref(u.id) + " charge? It reaches up to " + std::to_string(static_cast<int>(charge_reach(u))) + " yds.";
        for (Target t : targets) d.options.push_back({target_id(s, t), "Charge " + ref(target_id(s, t)), target_id(s, t)});
        if (u.control == Control::kContinueCharge) {
          // Its control test kept it charging: it charges again (RULINGS K6).
          d.prompt = ref(u.id) + " continues its charge: which enemy? It reaches up to " +
                     std::to_string(static_cast<int>(charge_reach(u))) + " yds.";
          d.default_option = d.options.front().id;
        } else {
          d.options.push_back({std::string(kNoCharge), "No charge"});
          d.default_option = std::string(kNoCharge);
        }
        out.push_back(std::move(d));
      }
      return out;
    case CombatStage::kResponses: {
      std::vector<Target> done;
      for (const Charge& c : s.charges) {
        if (c.target.kind != Target::Kind::kUnit || std::find(done.begin(), done.end(), c.target) != done.end()) continue;
        done.push_back(c.target);
        const Unit& u = s.units[at(c.target.index)];
        if (!in_field(u)) continue;
        Decision d;
        d.id = std::string(kResponsePrefix) + u.id;
        d.seat = seat_of(s, u);
        d.kind = "response";
        d.subjects = {u.id};
        d.prompt = ref(u.id) + " is charged: how does it respond?";
        d.options.push_back({std::string(kStand), "Stand"});
        const bool from_front = in_front_arc(u, footprint(s.units[at(c.unit)]));
        if (is_cavalry(u.arm) && from_front && u.formation != Formation::kMarchColumn) {
          d.options.push_back({std::string(kCounterCharge), "Counter-charge"});
        }
        if (is_cavalry(u.arm) || u.skirmishers) d.options.push_back({std::string(kEvade), "Evade"});
        // Formed foot and guns have no choice: they stand.
        if (d.options.size() == 1) continue;
        d.default_option = std::string(kStand);
        out.push_back(std::move(d));
      }
      return out;
    }
    case CombatStage::kAfterCombat:
      for (const AfterCombat& a : s.after_combat) {
        const Unit& u = s.units[at(a.unit)];
        if (!in_field(u)) continue;
        Decision d;
        d.id = std::string(kAfterCombatPrefix) + u.id;
        d.seat = seat_of(s, u);
        d.kind = "after_combat";
        d.subjects = {u.id};
        d.prompt = "After combat: what does " + ref(u.id) + " do?";
        if (a.choice == AfterCombatChoice::kRideThrough) {
          d.options.push_back({std::string(kRide2), "Ride through, 2 dice"});
          d.options.push_back({std::string(kRide3), "Ride through, 3 dice"});
          d.default_option = std::string(kRide2);
        } else {
          d.options.push_back({std::string(kRemain), "Remain in place"});
          if (a.choice == AfterCombatChoice::kRemainOrRetire || is_cavalry(u.arm)) d.options.push_back({std::string(kRetire), "Retire"});
          if (a.choice == AfterCombatChoice::kAnyPermittedAction && a.enemy_gave_ground) {
            d.options.push_back({std::string(kPursue), "Pursue " + ref(s.units[at(a.enemy)].id), s.units[at(a.enemy)].id});
            if (is_foot(u.arm) && s.units[at(a.enemy)].retiring) {
              d.options.push_back({std::string(kTakePosition), "Take the position"});
            }
          }
          d.default_option = std::string(kRemain);
        }
        out.push_back(std::move(d));
      }
      return out;
  }
  return out;
}

bool resolve_combat(GameState& s, const std::vector<Answer>& answers, Dice& dice, std::vector<Event>& ev) {
  switch (s.combat_stage) {
    case CombatStage::kCharges:
      record_charges(s, answers, ev);
      if (s.charges.empty()) return true;
      s.combat_stage = CombatStage::kResponses;
      if (!combat_pending(s, sight_table(s)).empty()) return false;
      [[fallthrough]];
    case CombatStage::kResponses:
      record_responses(s, answers, ev);
      execute_charges(s, dice, ev);
      s.combat_stage = CombatStage::kAfterCombat;
      if (!combat_pending(s, sight_table(s)).empty()) return false;
      [[fallthrough]];
    case CombatStage::kAfterCombat:
      execute_after_combat(s, answers, dice, ev);
      s.combat_stage = CombatStage::kCharges;
      return true;
  }
  return true;
}

}  // namespace galloper::rules::cfeo
