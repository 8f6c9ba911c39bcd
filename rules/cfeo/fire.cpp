#include "rules/cfeo/fire.hpp"

#include <algorithm>
#include <string>

#include "rules/cfeo/basing.hpp"
#include "rules/cfeo/fire_tables.hpp"
#include "rules/cfeo/seats.hpp"
#include "rules/cfeo/sequence.hpp"
#include "rules/core/answers.hpp"
#include "rules/core/tell.hpp"

namespace galloper::rules::cfeo {

namespace {

tables::GunClass gun_class(GunType t) {
  switch (t) {
    case GunType::kHeavy: return tables::GunClass::kHeavy;
    case GunType::kField: return tables::GunClass::kField;
    case GunType::kBattalion: return tables::GunClass::kBattalion;
  }
  return tables::GunClass::kField;
}

// Every enemy unit and gun still in the fight, units first, in state order.
std::vector<Target> enemies_of(const GameState& s, Index side) {
  std::vector<Target> out;
  for (std::size_t i = 0; i < s.units.size(); ++i) {
    if (s.units[i].side != side) out.push_back({Target::Kind::kUnit, static_cast<Index>(i)});
  }
  for (std::size_t i = 0; i < s.guns.size(); ++i) {
    if (s.guns[i].side != side && !s.guns[i].abandoned) out.push_back({Target::Kind::kGun, static_cast<Index>(i)});
  }
  return out;
}

// The yards from a firer's front to the nearest base of the target.
double yards_to(const OrientedRect& from, const std::vector<OrientedRect>& target) {
  return distance(std::span<const OrientedRect>(target), from);
}

bool in_arc(const OrientedRect& from, const std::vector<OrientedRect>& target) {
  return std::any_of(target.begin(), target.end(),
                     [&](const OrientedRect& r) { return rect_in_front_arc(from, r, kFireArcDeg); });
}


Decision fire_decision(const GameState& s, std::string id, const std::string& seat, const std::string& piece,
                       std::string prompt, const std::vector<Target>& ts, bool may_reserve) {
  Decision d;
  d.id = std::move(id);
  d.seat = seat;
  d.kind = "fire";
  d.subjects = {piece};
  d.prompt = std::move(prompt);
  for (Target t : ts) d.options.push_back({target_id(s, t), "Fire at " + ref(target_id(s, t)), target_id(s, t)});
  if (may_reserve) d.options.push_back({std::string(kReserve), "Reserve fire for close range"});
  d.options.push_back({std::string(kHold), "Hold fire"});
  d.default_option = std::string(may_reserve ? kReserve : kHold);
  return d;
}

// The front rank's bases: those that give fire.
std::vector<OrientedRect> front_rank(const Unit& u) {
  auto bases = footprint(u);
  bases.resize(std::min<std::size_t>(bases.size(), bases_per_rank(u)));
  return bases;
}

// Bases of the front rank with the target within musketry range and in their front arc.
int bases_able_to_fire(const GameState& s, const Unit& u, Target t) {
  const auto target = target_bases(s, t);
  int n = 0;
  for (const OrientedRect& base : front_rank(u)) {
    if (yards_to(base, target) <= tables::kMusketryMaximumRange && in_arc(base, target)) ++n;
  }
  return n;
}

bool column(const GameState& s, Target t) {
  if (t.kind != Target::Kind::kUnit) return false;
  const Formation f = s.units[at(t.index)].formation;
  return f == Formation::kMarchColumn || f == Formation::kAssaultColumn;
}

// Fired on in enfilade: the gun stands outside the target's front arc.
bool enfilade(const GameState& s, const Gun& g, Target t) {
  const auto target = target_bases(s, t);
  return !target.empty() && !rect_in_front_arc(target.front(), footprint(g), kFireArcDeg);
}

std::string dps_text(int dps) {
  if (dps == 0) return "no effect";
  return std::to_string(dps) + (dps == 1 ? " DP" : " DPs");
}

std::string modifiers_text(const std::vector<tables::Modifier>& ms) {
  std::string out;
  for (const auto& m : ms) out += (m.value >= 0 ? " +" : " ") + std::to_string(m.value) + " (" + std::string(m.why) + ")";
  return out;
}

struct Shot {
  Target target;
  int dps = 0;
  bool artillery = false;
};

void put_dps(GameState& s, Target t, int dps, bool artillery) {
  if (t.kind == Target::Kind::kGun) {
    Gun& g = s.guns[at(t.index)];
    g.dps += static_cast<std::uint32_t>(dps);
    g.under_fire = true;
    return;
  }
  Unit& u = s.units[at(t.index)];
  u.dps += static_cast<std::uint32_t>(dps);
  u.under_fire = true;
  if (artillery && dps > 0) u.artillery_dps = true;
}

Shot gun_shot(const GameState& s, GameState& next, std::size_t gi, Target t, bool close_only, Dice& dice,
              std::vector<Event>& ev) {
  const Gun& g = s.guns[gi];
  const double yards = yards_to(footprint(g), target_bases(s, t));
  tables::DirectShot shot;
  shot.gun = gun_class(g.type);
  shot.range = tables::gun_range(shot.gun, yards);
  const auto band = static_cast<std::uint8_t>(shot.range);
  shot.target = g.last_target != t         ? tables::TargetHistory::kNewTarget
                : g.last_range == band ? tables::TargetHistory::kSameTargetAndRange
                                       : tables::TargetHistory::kSameTargetOtherRange;
  shot.column_or_enfilade = column(s, t) || enfilade(s, g, t);
  shot.gun_dps = static_cast<int>(g.dps);
  const tables::DirectFireRoll roll = tables::roll_direct_fire(dice, shot);
  Gun& fired = next.guns[gi];
  fired.last_target = t;
  fired.last_range = band;
  fired.fired = true;
  fired.reserved = false;
  Event e;
  e.kind = close_only ? "close_artillery" : "artillery_fire";
  e.subjects = {g.id, target_id(s, t)};
  e.where = {{g.position, g.id}};
  e.dice = dice.drain();
  e.text = ref(g.id) + " fires at " + ref(target_id(s, t)) + ": " + std::to_string(roll.face) +
           modifiers_text(tables::direct_fire_modifiers(shot)) + " = " + std::to_string(roll.total) + ", " +
           dps_text(roll.dps) + ".";
  ev.push_back(std::move(e));
  return {t, roll.dps, true};
}

Shot volley(const GameState& s, GameState& next, std::size_t ui, Target t, Dice& dice, std::vector<Event>& ev) {
  const Unit& u = s.units[ui];
  tables::Volley v;
  v.bases_able_to_fire = bases_able_to_fire(s, u, t);
  v.firer_dps = static_cast<int>(u.dps);
  v.skirmishers = u.skirmishers;
  const tables::MusketryRoll roll = tables::roll_musketry(dice, v);
  next.units[ui].fired = true;
  Event e;
  e.kind = "musketry";
  e.subjects = {u.id, target_id(s, t)};
  e.where = {{u.position, u.id}};
  e.dice = dice.drain();
  e.text = ref(u.id) + " gives fire at " + ref(target_id(s, t)) + " with " + std::to_string(roll.faces.size()) +
           (roll.faces.size() == 1 ? " die" : " dice") + ": " + dps_text(roll.dps) + ".";
  ev.push_back(std::move(e));
  return {t, roll.dps, false};
}

}  // namespace

std::vector<Target> seen_enemies(const GameState& s, const SightTable& sight, const std::string& seat, Index side) {
  const SeatMask eyes = eyes_of(sight, seat, !s.options.seat_vision);
  std::vector<Target> out;
  for (Target t : enemies_of(s, side)) {
    if ((sight.seen_by[sight.object_of(s, t)] & eyes) != 0) out.push_back(t);
  }
  return out;
}

const std::string& target_id(const GameState& s, Target t) {
  return t.kind == Target::Kind::kGun ? s.guns[at(t.index)].id : s.units[at(t.index)].id;
}

std::vector<OrientedRect> target_bases(const GameState& s, Target t) {
  if (t.kind == Target::Kind::kGun) return {footprint(s.guns[at(t.index)])};
  return footprint(s.units[at(t.index)]);
}

Target target_named(const GameState& s, std::string_view id) {
  for (std::size_t i = 0; i < s.units.size(); ++i) {
    if (s.units[i].id == id) return {Target::Kind::kUnit, static_cast<Index>(i)};
  }
  for (std::size_t i = 0; i < s.guns.size(); ++i) {
    if (s.guns[i].id == id) return {Target::Kind::kGun, static_cast<Index>(i)};
  }
  return {};
}

std::vector<Decision> fire_pending(const GameState& s, const SightTable& sight) {
  std::vector<Decision> out;
  if (s.phase == Phase::kMusketry) {
    for (std::size_t i = 0; i < s.units.size(); ++i) {
      const Unit& u = s.units[i];
      if (!is_foot(u.arm) || !is_acting(s, u.side) || u.routing || u.retiring) continue;
      // Beyond 40 yds of every base, and within 120 of a base of the front rank that faces it.
      std::vector<Target> ts;
      for (Target t : seen_enemies(s, sight, seat_of(s, u), u.side)) {
        const auto target = target_bases(s, t);
        double nearest = 1e9;
        for (const auto& b : footprint(u)) nearest = std::min(nearest, yards_to(b, target));
        if (nearest > tables::kMusketryCloseRange && bases_able_to_fire(s, u, t) > 0) ts.push_back(t);
      }
      if (ts.empty()) continue;
      out.push_back(fire_decision(s, std::string(kMusketryPrefix) + u.id, seat_of(s, u), u.id,
                                  "Musketry: does " + ref(u.id) + " give fire?", ts, false));
    }
    return out;
  }
  if (s.phase != Phase::kBombardment && s.phase != Phase::kCloseArtillery) return out;
  const bool close = s.phase == Phase::kCloseArtillery;
  for (std::size_t i = 0; i < s.guns.size(); ++i) {
    const Gun& g = s.guns[i];
    if (g.limbered || g.abandoned || !is_acting(s, g.side) || (close && !g.reserved)) continue;
    const auto ranges = tables::gun_ranges(gun_class(g.type));
    const double reach = close ? ranges.close : ranges.maximum;
    std::vector<Target> ts;
    for (Target t : seen_enemies(s, sight, seat_of(s, g), g.side)) {
      const auto target = target_bases(s, t);
      if (yards_to(footprint(g), target) <= reach && in_arc(footprint(g), target)) ts.push_back(t);
    }
    if (ts.empty()) continue;
    out.push_back(fire_decision(s, std::string(close ? kCloseFirePrefix : kFirePrefix) + g.id, seat_of(s, g), g.id,
                                close ? "Close artillery: does " + ref(g.id) + " give fire?"
                                      : "Bombardment: does " + ref(g.id) + " fire?",
                                ts, !close));
  }
  return out;
}

void resolve_fire(GameState& s, const std::vector<Answer>& answers, Dice& dice, std::vector<Event>& ev) {
  const GameState before = s;
  std::vector<Shot> shots;
  for (const Answer& a : answers) {
    const bool musketry = a.decision_id.starts_with(kMusketryPrefix);
    const bool close = a.decision_id.starts_with(kCloseFirePrefix);
    const bool bombard = a.decision_id.starts_with(kFirePrefix);
    if (!musketry && !close && !bombard) continue;
    const std::string_view piece =
        std::string_view(a.decision_id).substr((musketry ? kMusketryPrefix : close ? kCloseFirePrefix : kFirePrefix).size());
    const Target firer = target_named(before, piece);
    if (a.option == kReserve && firer.kind == Target::Kind::kGun) {
      s.guns[at(firer.index)].reserved = true;
      continue;
    }
    if (a.option == kHold) {
      if (firer.kind == Target::Kind::kGun) s.guns[at(firer.index)].reserved = false;
      continue;
    }
    const Target t = target_named(before, a.option);
    if (t.kind == Target::Kind::kNone || firer.kind == Target::Kind::kNone) continue;
    shots.push_back(firer.kind == Target::Kind::kGun ? gun_shot(before, s, at(firer.index), t, close, dice, ev)
                                                      : volley(before, s, at(firer.index), t, dice, ev));
  }
  for (const Shot& shot : shots) put_dps(s, shot.target, shot.dps, shot.artillery);
}

}  // namespace galloper::rules::cfeo
