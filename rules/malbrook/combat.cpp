#include "rules/malbrook/combat.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

#include "rules/core/tell.hpp"
#include "rules/malbrook/artillery.hpp"
#include "rules/malbrook/basing.hpp"
#include "rules/malbrook/charge.hpp"
#include "rules/malbrook/damage.hpp"
#include "rules/malbrook/manoeuvre.hpp"
#include "rules/malbrook/movement.hpp"
#include "rules/malbrook/sequence.hpp"
#include "rules/malbrook/state.hpp"
#include "rules/malbrook/visibility.hpp"

namespace galloper::rules::malbrook {

// ---------------------------------------------------------------------------
// The table and the vocabulary.

std::string_view to_string(CombatBand b) {
  switch (b) {
    case CombatBand::kBreakthrough: return "breakthrough";
    case CombatBand::kVictory: return "victory";
    case CombatBand::kSuccess: return "success";
    case CombatBand::kInconclusive: return "inconclusive";
    case CombatBand::kDrivenBack: return "driven back";
    case CombatBand::kDefeat: return "defeat";
    case CombatBand::kBreak: return "break";
  }
  return "?";
}

std::string_view to_string(ChargeResponse r) {
  switch (r) {
    case ChargeResponse::kStand: return "stand";
    case ChargeResponse::kCounterCharge: return "counter_charge";
    case ChargeResponse::kEvade: return "evade";
    case ChargeResponse::kAboutFace: return "about_face";
    case ChargeResponse::kRefuseFlank: return "refuse_flank";
  }
  return "?";
}

CombatBand combat_band(int d) {
  if (d >= 7) return CombatBand::kBreakthrough;
  if (d >= 4) return CombatBand::kVictory;
  if (d >= 2) return CombatBand::kSuccess;
  if (d >= -1) return CombatBand::kInconclusive;
  if (d >= -4) return CombatBand::kDrivenBack;
  if (d >= -6) return CombatBand::kDefeat;
  return CombatBand::kBreak;
}

BandCost band_cost(CombatBand band, bool a_outrance) {
  switch (band) {
    case CombatBand::kBreakthrough: return {0, 0};
    case CombatBand::kVictory: return {1, 0};
    case CombatBand::kSuccess: return {1, 0};
    case CombatBand::kInconclusive: return {a_outrance ? 2 : 1, 1};
    case CombatBand::kDrivenBack: return {2, 1};
    case CombatBand::kDefeat: return {2, 2};
    case CombatBand::kBreak: return {0, 3};
  }
  return {};
}

void hash_combat(Hasher& h, const CombatState& c, const AdvantageOverrides& advantage) {
  h.u32(c.turn);
  h.u32(static_cast<std::uint32_t>(c.stage));
  h.u32(c.half);
  h.u32(c.next_id);
  h.u64(c.charges.size());
  for (const auto& x : c.charges) {
    h.str(x.charger);
    h.str(x.target);
    h.boolean(x.a_outrance);
    h.boolean(x.counter);
    h.u32(x.dice);
    h.vec(x.start);
    h.real(x.start_facing);
    h.real(x.start_gap);
    h.u64(x.faces.size());
    for (int f : x.faces) h.i64(f);
    h.real(x.inches);
    h.str(x.contacted);
  }
  h.u64(c.responses.size());
  for (const auto& r : c.responses) {
    h.str(r.brigade);
    h.u32(static_cast<std::uint32_t>(r.response));
    h.str(r.against);
  }
  h.u64(c.evaders.size());
  for (const auto& e : c.evaders) h.str(e);
  h.u64(c.results.size());
  for (const auto& r : c.results) {
    h.str(r.id);
    h.u32(r.turn);
    for (const CombatSide* side : {&r.a, &r.b}) {
      h.str(side->army);
      h.u64(side->parts.size());
      for (const auto& p : side->parts) {
        h.str(p.brigade);
        h.i64(p.bases_in_combat);
        h.i64(p.dps);
        h.i64(p.casualties);
        h.u64(p.options.size());
        for (auto o : p.options) h.u32(static_cast<std::uint32_t>(o));
      }
      h.u64(side->guns.size());
      for (const auto& g : side->guns) h.str(g);
      h.i64(side->dice);
      h.i64(side->hit_on);
      h.i64(side->hits);
    }
    h.i64(r.difference);
    h.str(r.loser);
    h.boolean(r.pursuit);
  }
  h.u64(c.failed.size());
  for (const auto& f : c.failed) {
    h.str(f.charger);
    h.str(f.target);
    h.u32(f.turn);
  }
  h.u64(c.flanking.size());
  for (const auto& f : c.flanking) {
    h.str(f.target);
    h.str(f.firer);
    h.u32(f.turn);
    h.boolean(f.rolled);
  }
  h.u64(advantage.size());
  for (const auto& [id, v] : advantage) {
    h.str(id);
    h.boolean(v);
  }
}

namespace {

constexpr double kEps = 1e-6;
constexpr std::uint32_t bit(Status s) { return static_cast<std::uint32_t>(s); }

Brigade* find_mut(GameState& s, std::string_view id) { return const_cast<Brigade*>(s.find_brigade(id)); }
Gun* find_gun_mut(GameState& s, std::string_view id) { return const_cast<Gun*>(s.find_gun(id)); }

OrientedRect env_of(const Brigade& b) { return pose_envelope(pose_of(b)); }

bool unformed(const Brigade& b) { return b.formation == Formation::kUnformed || always_unformed(b.type); }

int grade_dice(Grade g) {
  switch (g) {
    case Grade::kA: return 2;
    case Grade::kB: return 1;
    case Grade::kC: return 0;
    case Grade::kD: return -1;
    case Grade::kE: return -2;
  }
  return 0;
}

int ceil_div(int a, int b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }

// ---- Who is in combat with whom ----

struct Body {
  std::string id;
  std::string army;
  bool gun = false;
  std::size_t index = 0;
  OrientedRect env;
  Polygon poly;
};

std::vector<Body> combat_bodies(const GameState& s) {
  std::vector<Body> out;
  for (std::size_t i = 0; i < s.brigades.size(); ++i) {
    const Brigade& b = s.brigades[i];
    if (!unit_on_table(b)) continue;
    Body o{b.id, b.army, false, i, env_of(b), {}};
    o.poly = o.env.polygon();
    out.push_back(std::move(o));
  }
  for (std::size_t i = 0; i < s.guns.size(); ++i) {
    const Gun& g = s.guns[i];
    if (!unit_on_table(g) || g.has(Status::kAbandoned)) continue;
    Body o{g.id, g.army, true, i, footprint(g), {}};
    o.poly = o.env.polygon();
    out.push_back(std::move(o));
  }
  return out;
}

// "Brigades within 1 inch of enemy foot to their front, and cavalry in base
// to base contact are considered to be in close combat" (RULINGS C6).
bool engages(const GameState& s, const Body& x, const Body& y) {
  if (x.army == y.army) return false;
  if (distance(x.poly, y.poly) <= kContactGap) return true;
  if (x.gun) return false;
  const Brigade& b = s.brigades[x.index];
  if (!is_foot(b.type)) return false;
  // A brigade that passed by this foot's front "will take fire without
  // responding": flanking musketry, not close combat, this turn (RULINGS C18).
  for (const auto& f : s.combat.flanking) {
    if (f.turn == s.turn && f.firer == b.id && f.target == y.id) return false;
  }
  if (unformed(b)) return distance(x.poly, y.poly) <= kFootCombat + kEps;
  return intersects(front_arc_polygon(x.env, kFootCombat), y.poly);
}

// Connected groups of bodies engaged with each other, each with both armies.
std::vector<std::vector<std::size_t>> find_groups(const GameState& s, const std::vector<Body>& bodies) {
  const std::size_t n = bodies.size();
  std::vector<std::size_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  auto root = [&](std::size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  // Each body's box once, not once per pair.
  std::vector<Aabb> box(n);
  for (std::size_t i = 0; i < n; ++i) box[i] = bodies[i].poly.bounds();
  for (std::size_t i = 0; i < n; ++i) {
    const Aabb reach = box[i].expanded(kFootCombat + 0.1);
    for (std::size_t j = i + 1; j < n; ++j) {
      if (same_id(bodies[i].army, bodies[j].army)) continue;
      if (!reach.intersects(box[j])) continue;
      if (engages(s, bodies[i], bodies[j]) || engages(s, bodies[j], bodies[i])) parent[root(i)] = root(j);
    }
  }
  std::map<std::size_t, std::vector<std::size_t>> by_root;
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t r = root(i);
    if (!by_root.contains(r)) order.push_back(r);
    by_root[r].push_back(i);
  }
  std::vector<std::vector<std::size_t>> out;
  for (std::size_t r : order) {
    const auto& g = by_root[r];
    std::set<std::string> armies;
    for (std::size_t i : g) armies.insert(bodies[i].army);
    if (armies.size() >= 2) out.push_back(g);
  }
  return out;
}

// ---- Terrain between two footprints ----

// Linear obstacles crossed by the line between the centres, on own's side.
std::vector<const Linear*> obstacles_in_front(const GameState& s, const Polygon& own, const Polygon& enemy) {
  std::vector<const Linear*> out;
  const Segment seg{own.centroid(), enemy.centroid()};
  for (const auto& c : s.terrain.obstacles_crossed(seg)) {
    if (c.feature == nullptr || !c.feature->is_obstacle()) continue;
    if (distance(own, c.point) <= distance(enemy, c.point) + kEps) out.push_back(c.feature);
  }
  return out;
}

bool behind(const GameState& s, const Polygon& own, const Polygon& enemy, LinearKind kind) {
  for (const Linear* l : obstacles_in_front(s, own, enemy)) {
    if (l->kind == kind) return true;
  }
  return false;
}

// "Advantage of Ground ... uphill, behind a minor obstacle or defending the
// edge of a town or woods" (RULINGS C10). The umpire's ruling wins.
bool advantage_of_ground(const GameState& s, const Brigade& b, const std::vector<const Body*>& enemies) {
  if (auto it = s.advantage_of_ground.find(b.id); it != s.advantage_of_ground.end()) return it->second;
  const OrientedRect env = env_of(b);
  const Polygon own = env.polygon();
  const double h = s.terrain.elevation_at(env.center);
  for (const Body* e : enemies) {
    if (h > s.terrain.elevation_at(e->env.center) + kEps) return true;
    if (!obstacles_in_front(s, own, e->poly).empty()) return true;
    for (AreaKind k : {AreaKind::kWood, AreaKind::kTown}) {
      const Area* a = s.terrain.at_edge_of(env, k, kCoverEdgeDepth);
      if (a != nullptr && !intersects(a->outline, e->poly)) return true;
    }
  }
  return false;
}

// "Supported": facing the opponent, 2+ ranks, the second at least half the
// first; or a friendly brigade in contact directly behind (RULINGS C9).
bool supported(const GameState& s, const Brigade& b, const std::vector<const Body*>& enemies) {
  if (unformed(b)) return false;
  const OrientedRect env = env_of(b);
  bool facing = false;
  for (const Body* e : enemies) {
    if (intersects(front_arc_polygon(env, kFootCombat + kContactGap), e->poly)) facing = true;
  }
  if (!facing) return false;
  const int n = static_cast<int>(b.bases);
  const int front = std::max(1, bases_per_rank(b.formation, b.bases));
  if (n > front) {
    const int second = std::min(front, n - front);
    if (2 * second >= front) return true;
  }
  for (const auto& f : s.brigades) {
    if (f.army != b.army || f.id == b.id || !unit_on_table(f) || unformed(f)) continue;
    if (std::abs(angle_diff_deg(f.facing_deg, b.facing_deg)) > 45) continue;
    if (!directly_behind(env, env_of(f), kContactGap + 0.5, 0.05)) continue;
    if (2 * std::max(1, bases_per_rank(f.formation, f.bases)) >= front) return true;
  }
  return false;
}

// "Bases in Combat" (RULINGS C8).
int bases_in_combat(const Brigade& b, const std::vector<const Body*>& enemies) {
  std::vector<Polygon> polys;
  for (const Body* e : enemies) polys.push_back(e->poly);
  const auto mask = base_in_combat(b, polys);
  return static_cast<int>(std::count(mask.begin(), mask.end(), true));
}

bool single_rank(const Brigade& b) {
  return unformed(b) || bases_per_rank(b.formation, b.bases) >= static_cast<int>(b.bases);
}

// A refused flank faces every charge on that brigade (RULINGS C5).
bool refused(const GameState& s, std::string_view target) {
  for (const auto& r : s.combat.responses) {
    if (r.brigade == target && r.response == ChargeResponse::kRefuseFlank) return true;
  }
  return false;
}

// Builds one side's parts (no modifiers yet).
void build_parts(const GameState& s, CombatSide& side, const std::vector<const Body*>& own,
                 const std::vector<const Body*>& enemy) {
  for (const Body* o : own) {
    if (o->gun) {
      side.guns.push_back(o->id);
      continue;
    }
    const Brigade& b = s.brigades[o->index];
    if (b.type == TroopType::kCivilians) continue;
    CombatBrigade p;
    p.brigade = b.id;
    p.type = b.type;
    p.grade = b.grade;
    p.bases_in_combat = bases_in_combat(b, enemy);
    p.pursuing = b.has(Status::kPursuing);
    p.moved = b.has(Status::kMoved);
    p.single_rank = single_rank(b);
    side.brigades.push_back(b.id);
    side.parts.push_back(std::move(p));
  }
}

CombatBrigade* part_of(CombatSide& side, std::string_view id) {
  for (auto& p : side.parts) {
    if (p.brigade == id) return &p;
  }
  return nullptr;
}

bool side_has(const CombatSide& side, std::string_view id) {
  return std::find(side.brigades.begin(), side.brigades.end(), id) != side.brigades.end() ||
         std::find(side.guns.begin(), side.guns.end(), id) != side.guns.end();
}

// Charges that made contact inside this combat.
void mark_charges(const GameState& s, CombatSide& x, CombatSide& y) {
  for (const auto& c : s.combat.charges) {
    if (c.contacted.empty()) continue;
    for (auto [own, other] : {std::pair{&x, &y}, std::pair{&y, &x}}) {
      CombatBrigade* p = part_of(*own, c.charger);
      if (p == nullptr || !side_has(*other, c.contacted)) continue;
      p->charged = true;
      p->counter_charged = c.counter;
      p->a_outrance = c.a_outrance && !c.counter;
      if (c.counter) continue;
      CombatBrigade* t = part_of(*other, c.contacted);
      const Brigade* tb = s.find_brigade(c.contacted);
      const Brigade* cb = s.find_brigade(c.charger);
      if (t != nullptr && tb != nullptr && cb != nullptr && !refused(s, c.contacted) &&
          charge_from_behind_flank(*tb, brigade_bases_at(*cb, c.start, c.start_facing))) {
        t->flanked = true;
      }
    }
  }
}

void add_mod(CombatSide& side, std::string why, int dice) {
  if (dice != 0) side.modifiers.push_back({std::move(why), dice});
}

void compute_modifiers(const GameState& s, CombatSide& side, const CombatSide& enemy,
                       const std::vector<const Body*>& own_bodies, const std::vector<const Body*>& enemy_bodies) {
  side.bases = 0;
  for (const auto& p : side.parts) side.bases += p.bases_in_combat;
  side.charged = false;
  side.a_outrance = false;
  side.cavalry = !side.parts.empty();
  side.foot = false;
  for (const auto& p : side.parts) {
    side.charged = side.charged || p.charged;
    side.a_outrance = side.a_outrance || p.a_outrance;
    side.cavalry = side.cavalry && is_cavalry(p.type);
    side.foot = side.foot || is_foot(p.type);
  }
  if (side.parts.empty()) {
    side.dice = 0;
    return;
  }
  // Grade: the majority's, or if equal the average rounded up (RULINGS C11).
  std::map<Grade, int> count;
  for (const auto& p : side.parts) ++count[p.grade];
  int best = 0;
  int tied = 0;
  Grade majority = Grade::kC;
  for (const auto& [g, c] : count) {
    if (c > best) {
      best = c;
      majority = g;
      tied = 1;
    } else if (c == best) {
      ++tied;
    }
  }
  int grade_mod = grade_dice(majority);
  if (tied > 1) {
    int sum = 0;
    for (const auto& p : side.parts) sum += grade_dice(p.grade);
    grade_mod = ceil_div(sum, static_cast<int>(side.parts.size()));
  }
  add_mod(side, "grade", grade_mod);

  int inspire = 0;
  int dps = 0;
  bool ground = false;
  bool pursuing = false;
  bool cavalry_pursuing = false;
  bool any_supported = false;
  bool moved_foot = false;
  bool flanked = false;
  int platoon_bases = 0;
  std::vector<const Body*> enemy_fighting;
  for (const Body* e : enemy_bodies) {
    if (!e->gun) enemy_fighting.push_back(e);
  }
  for (const auto& p : side.parts) {
    const Brigade& b = *s.find_brigade(p.brigade);
    inspire += static_cast<int>(b.inspire_actions);
    dps += static_cast<int>(b.dps);
    ground = ground || advantage_of_ground(s, b, enemy_fighting);
    pursuing = pursuing || p.pursuing;
    cavalry_pursuing = cavalry_pursuing || (p.pursuing && is_cavalry(p.type));
    // "Cavalry charging à l'outrance and foot giving fire by platoon never
    // count as supported regardless of the number of ranks": new style foot
    // fire by platoon in any formation (RULINGS C9).
    const bool platoon_firing = b.type == TroopType::kFoot && b.style == FightingStyle::kNew;
    any_supported = any_supported || (!p.a_outrance && !platoon_firing && supported(s, b, enemy_bodies));
    moved_foot = moved_foot || (is_foot(p.type) && p.moved);
    flanked = flanked || p.flanked;
    if (b.type == TroopType::kFoot && b.style == FightingStyle::kNew && b.formation == Formation::kLine) {
      platoon_bases += p.bases_in_combat;
    }
  }
  add_mod(side, "inspired", inspire);
  if (ground) add_mod(side, "advantage of ground", 1);
  // "-1 opponent defending fieldworks"
  bool fieldworks = false;
  bool attacking_fortifications = false;
  for (const Body* e : enemy_bodies) {
    for (const Body* o : own_bodies) {
      fieldworks = fieldworks || behind(s, e->poly, o->poly, LinearKind::kFieldworks);
      attacking_fortifications = attacking_fortifications || behind(s, e->poly, o->poly, LinearKind::kFortification);
    }
  }
  if (fieldworks) add_mod(side, "opponent defending fieldworks", -1);
  if (side.charged || pursuing) add_mod(side, side.charged ? "charging" : "pursuing", 1);
  bool soft_enemy = !enemy.parts.empty();
  for (const auto& p : enemy.parts) {
    const Brigade& eb = *s.find_brigade(p.brigade);
    soft_enemy = soft_enemy && (is_cavalry(eb.type) || (is_foot(eb.type) && unformed(eb)));
  }
  if (side.a_outrance && soft_enemy) add_mod(side, "à l'outrance against cavalry or unformed foot", 2);
  if (cavalry_pursuing) add_mod(side, "cavalry pursuing", 2);
  bool enemy_infantry = false;
  for (const auto& p : enemy.parts) enemy_infantry = enemy_infantry || p.type == TroopType::kFoot;
  const int platoon = enemy_infantry ? platoon_bases / 3 : 0;
  if (any_supported && !side.a_outrance && !pursuing && platoon == 0) add_mod(side, "supported", 1);
  add_mod(side, "platoon fire", platoon);
  bool charged_by_cavalry = false;
  for (const auto& p : enemy.parts) charged_by_cavalry = charged_by_cavalry || (p.charged && is_cavalry(p.type));
  if (moved_foot && charged_by_cavalry) add_mod(side, "foot that moved, charged by cavalry", -2);
  if (flanked) add_mod(side, "charged in the flank or rear", -2);
  add_mod(side, "DPs", -ceil_div(dps, static_cast<int>(side.parts.size())));

  int total = side.bases;
  for (const auto& m : side.modifiers) total += m.dice;
  side.dice = std::max(0, total);

  // Hits: "6 if unformed, in march column or attacking fortifications", by
  // the majority of the bases in combat (RULINGS C13).
  int on5 = 0;
  int on6 = 0;
  for (const auto& p : side.parts) {
    const Brigade& b = *s.find_brigade(p.brigade);
    const bool six = unformed(b) || b.formation == Formation::kMarchColumn || attacking_fortifications;
    (six ? on6 : on5) += std::max(1, p.bases_in_combat);
  }
  side.hit_on = on6 > on5 ? 6 : 5;
}

std::string side_text(const CombatSide& side) {
  std::string t;
  for (std::size_t i = 0; i < side.brigades.size(); ++i) t += (i ? " + " : "") + ref(side.brigades[i]);
  for (const auto& g : side.guns) t += (t.empty() ? "" : " + ") + ref(g);
  t += ": " + std::to_string(side.bases) + " bases";
  for (const auto& m : side.modifiers) t += (m.dice > 0 ? " +" : " ") + std::to_string(m.dice) + " " + m.why;
  t += " = " + std::to_string(side.dice) + " dice hitting on " + (side.hit_on == 6 ? "6" : "5-6");
  return t;
}

CombatResult assess_group(const GameState& s, const std::vector<const Body*>& group) {
  std::vector<std::string> armies;
  for (const Body* b : group) {
    if (std::find(armies.begin(), armies.end(), b->army) == armies.end()) armies.push_back(b->army);
  }
  std::sort(armies.begin(), armies.end(), [&](const std::string& x, const std::string& y) {
    if (x == s.initiative) return y != s.initiative;
    if (y == s.initiative) return false;
    return x < y;
  });
  CombatResult r;
  r.turn = s.turn;
  r.a.army = armies[0];
  r.b.army = armies.size() > 1 ? armies[1] : std::string();
  std::vector<const Body*> a_bodies;
  std::vector<const Body*> b_bodies;
  for (const Body* b : group) (b->army == r.a.army ? a_bodies : b_bodies).push_back(b);
  build_parts(s, r.a, a_bodies, b_bodies);
  build_parts(s, r.b, b_bodies, a_bodies);
  mark_charges(s, r.a, r.b);
  bool a_charged = false;
  bool b_charged = false;
  for (const auto& p : r.a.parts) a_charged = a_charged || (p.charged && !p.counter_charged);
  for (const auto& p : r.b.parts) b_charged = b_charged || (p.charged && !p.counter_charged);
  if (b_charged && !a_charged) {
    std::swap(r.a, r.b);
    std::swap(a_bodies, b_bodies);
  }
  compute_modifiers(s, r.a, r.b, a_bodies, b_bodies);
  compute_modifiers(s, r.b, r.a, b_bodies, a_bodies);
  return r;
}

void fill_options(const GameState&, CombatResult& r) {
  for (auto [own, other, band, other_band] :
       {std::tuple{&r.a, &r.b, r.band_a, r.band_b}, std::tuple{&r.b, &r.a, r.band_b, r.band_a}}) {
    for (auto& p : own->parts) p.options = after_combat_options(p, band, *other, other_band);
  }
}

void apply_side(GameState& s, CombatSide& side, CombatBand band, Dice& dice, std::vector<Event>& events) {
  // Casualties: one at a time, the brigade with the most bases in combat
  // first, then round the side (RULINGS C14).
  std::vector<std::size_t> order(side.parts.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return side.parts[x].bases_in_combat > side.parts[y].bases_in_combat;
  });
  std::vector<int> casualties(side.parts.size(), 0);
  const int side_casualties = band_cost(band, false).casualties;
  for (int k = 0; k < side_casualties && !order.empty(); ++k) ++casualties[order[static_cast<std::size_t>(k) % order.size()]];
  for (std::size_t i = 0; i < side.parts.size(); ++i) {
    CombatBrigade& p = side.parts[i];
    Brigade* b = find_mut(s, p.brigade);
    if (b == nullptr) continue;
    b->status |= bit(Status::kInCombat);
    b->combat_turn = s.turn;
    const BandCost cost = band_cost(band, p.a_outrance);
    const DamageResult d = inflict_damage(s, *b, cost.dps, casualties[i], DpCause::kCombat, dice, events);
    p.dps = d.dps;
    p.casualties = d.casualties;
    p.destroyed = d.destroyed;
  }
  // Guns: "Defeat / Break: guns abandoned and crew eliminated".
  if (band == CombatBand::kDefeat || band == CombatBand::kBreak) {
    for (const auto& id : side.guns) {
      if (Gun* g = find_gun_mut(s, id); g != nullptr && !g->has(Status::kCrewEliminated)) {
        abandon_gun(s, *g, true, events);
      }
    }
  }
}

CombatResult& roll_and_apply(GameState& s, CombatResult r, Dice& dice, std::vector<Event>& events) {
  r.id = "t" + std::to_string(s.turn) + "c" + std::to_string(s.combat.next_id++);
  roll_combat(r, dice);
  fill_options(s, r);
  Event e;
  e.kind = "combat";
  for (const CombatSide* side : {&r.a, &r.b}) {
    for (const auto& id : side->brigades) e.subjects.push_back(id);
    for (const auto& id : side->guns) e.subjects.push_back(id);
  }
  for (const auto& id : e.subjects) {
    if (const Brigade* b = s.find_brigade(id)) e.where.push_back({b->position, id});
    if (const Gun* g = s.find_gun(id)) e.where.push_back({g->position, id});
  }
  e.text = "Combat " + r.id + ": " + side_text(r.a) + ", " + std::to_string(r.a.hits) + " hits; against " +
           side_text(r.b) + ", " + std::to_string(r.b.hits) + " hits. Result " + (r.difference > 0 ? "+" : "") +
           std::to_string(r.difference) + ": " + std::string(to_string(r.band_a)) + " for " + r.a.army + ", " +
           std::string(to_string(r.band_b)) + " for " + r.b.army + ".";
  e.dice = dice.drain();
  events.push_back(std::move(e));
  apply_side(s, r.a, r.band_a, dice, events);
  apply_side(s, r.b, r.band_b, dice, events);
  s.combat.results.push_back(std::move(r));
  return s.combat.results.back();
}

// Eliminates civilians and marks guns of the groups; returns the groups to fight.
void prepare_groups(GameState& s, const std::vector<Body>& bodies, const std::vector<std::vector<std::size_t>>& groups,
                    std::vector<Event>& events) {
  for (const auto& g : groups) {
    for (std::size_t i : g) {
      const Body& o = bodies[i];
      if (o.gun) {
        s.guns[o.index].status |= bit(Status::kInCombat);
        continue;
      }
      Brigade& b = s.brigades[o.index];
      if (b.type == TroopType::kCivilians && unit_on_table(b)) {
        // "Civilians who come into combat are automatically eliminated."
        Event e;
        e.kind = "civilians_eliminated";
        e.text = ref(b.id) + " (civilians) come into combat and are eliminated.";
        e.subjects = {b.id};
        e.where = {{b.position, b.id}};
        events.push_back(std::move(e));
        take_casualty(s, b, events, static_cast<int>(b.bases));
        b.status |= bit(Status::kDestroyed);
      }
    }
  }
}

std::vector<const Body*> group_ptrs(const std::vector<Body>& bodies, const std::vector<std::size_t>& g) {
  std::vector<const Body*> out;
  for (std::size_t i : g) out.push_back(&bodies[i]);
  return out;
}

bool fights(const CombatResult& r) {
  // A combat needs brigades on one side and brigades or guns on the other.
  return (!r.a.parts.empty() || !r.b.parts.empty()) && (!r.a.parts.empty() || !r.a.guns.empty()) &&
         (!r.b.parts.empty() || !r.b.guns.empty());
}

// ---- The phase ----

bool stale(const GameState& s) { return s.combat.turn != s.turn || s.combat.stage == CombatStage::kIdle; }

void start_phase(GameState& s) {
  CombatState fresh;
  fresh.turn = s.turn;
  fresh.stage = CombatStage::kDeclare;
  fresh.next_id = s.combat.next_id;
  for (const auto& f : s.combat.failed) {
    if (f.turn + 1 == s.turn) fresh.failed.push_back(f);
  }
  for (const auto& f : s.combat.flanking) {
    if (f.turn + 1 >= s.turn) fresh.flanking.push_back(f);
  }
  s.combat = std::move(fresh);
  s.half = 0;
  for (auto& b : s.brigades) b.status &= ~(bit(Status::kCharging) | bit(Status::kEvading));
}

struct Cursor {
  CombatStage stage = CombatStage::kDeclare;
  std::uint32_t half = 0;
};

bool alternate(const GameState& s) { return !s.simultaneous && s.armies.size() > 1; }

std::vector<Decision> decisions_at(const GameState& s, Cursor c) {
  switch (c.stage) {
    case CombatStage::kDeclare: {
      if (s.half == c.half) return charge_declare_decisions(s);
      GameState copy = s;
      copy.half = c.half;
      auto out = charge_declare_decisions(copy);
      s.sight_memo.take_from(copy.sight_memo);
      return out;
    }
    case CombatStage::kRespond: return charge_response_decisions(s);
    case CombatStage::kDice: return charge_dice_decisions(s);
    default: return {};
  }
}

Cursor next(const GameState& s, Cursor c) {
  switch (c.stage) {
    case CombatStage::kDeclare:
      if (alternate(s) && c.half == 0) return {CombatStage::kDeclare, 1};
      return {CombatStage::kRespond, 0};
    case CombatStage::kRespond: return {CombatStage::kDice, 0};
    default: return {CombatStage::kResolved, 0};
  }
}

Cursor open_from(const GameState& s, Cursor c, std::vector<Decision>& out) {
  while (c.stage != CombatStage::kResolved && c.stage != CombatStage::kIdle) {
    out = decisions_at(s, c);
    if (!out.empty()) return c;
    c = next(s, c);
  }
  out.clear();
  return {CombatStage::kResolved, 0};
}

// The stage whose decisions `owed` are, given owed == combat_pending(s),
// without working them out again: each stage names its decisions by its own
// prefix (charge.cpp), and a half's declarations are its acting army's
// brigades'. Declarations are owed only from the declaration stage, so at
// half 0 they are half 1's when the brigade is not in the first army.
Cursor cursor_of(const GameState& s, const std::vector<Decision>& owed) {
  if (owed.empty()) return {CombatStage::kResolved, 0};
  const std::string& id = owed.front().id;
  if (id.starts_with("charge_dice/")) return {CombatStage::kDice, 0};
  if (id.starts_with("response/")) return {CombatStage::kRespond, 0};
  Cursor c{CombatStage::kDeclare, s.combat.half};
  if (c.half == 0 && alternate(s)) {
    const Brigade* b = s.find_brigade(std::string_view(id).substr(std::string_view("charge/").size()));
    if (b != nullptr && b->army != armies_in_order(s).front()) c.half = 1;
  }
  return c;
}

const Decision* find_decision(const std::vector<Decision>& ds, std::string_view id) {
  for (const auto& d : ds) {
    if (d.id == id) return &d;
  }
  return nullptr;
}

Verdict check_in(const std::vector<Decision>& ds, const Answer& a) {
  const Decision* d = find_decision(ds, a.decision_id);
  if (d == nullptr) return reject("unknown_decision", "Nothing called \"" + a.decision_id + "\" is pending in the combat phase now.");
  if (d->seat != a.seat) return reject("wrong_seat", "\"" + d->id + "\" is for seat " + d->seat + ", not " + a.seat + ".");
  const std::string opt = a.option.empty() ? d->default_option : a.option;
  for (const auto& o : d->options) {
    if (o.id == opt) return Ok{};
  }
  std::string listed;
  for (const auto& o : d->options) listed += (listed.empty() ? "\"" : ", \"") + o.id + "\"";
  return reject("bad_option", "\"" + opt + "\" is not an option for " + d->id + "; choose one of " + listed + ".");
}

}  // namespace

// ---------------------------------------------------------------------------

std::vector<AfterAction> after_combat_options(const CombatBrigade& p, CombatBand band, const CombatSide& enemy,
                                              CombatBand enemy_band) {
  const bool cav = is_cavalry(p.type);
  const bool foot = is_foot(p.type);
  const bool c_to_e = p.grade == Grade::kC || p.grade == Grade::kD || p.grade == Grade::kE;
  const bool charged = p.charged && !p.counter_charged;
  const bool charged_foot = cav && charged && enemy.foot;
  const bool charged_only_guns = cav && charged && enemy.parts.empty() && !enemy.guns.empty();
  const bool enemy_all_cavalry = !enemy.parts.empty() && enemy.cavalry;
  std::vector<AfterAction> any{AfterAction::kRemain, AfterAction::kPursue};
  if (cav) any.push_back(AfterAction::kRetire);
  if (foot) any.push_back(AfterAction::kTakePosition);
  const std::vector<AfterAction> ride{AfterAction::kRideThrough2, AfterAction::kRideThrough3};
  switch (band) {
    case CombatBand::kBreakthrough:
      if (c_to_e) return {AfterAction::kPursue};
      if (cav) return {AfterAction::kPursue, AfterAction::kRemainWithDp, AfterAction::kRetire};
      return any;
    case CombatBand::kVictory:
      // "Cavalry who charged and failed to defeat foot (-5/-6 result) must retire."
      if (charged_foot && enemy_band != CombatBand::kDefeat && enemy_band != CombatBand::kBreak) {
        return {AfterAction::kRetire};
      }
      if (c_to_e) return {AfterAction::kPursue};
      return any;
    case CombatBand::kSuccess:
      if (charged_foot) return {AfterAction::kRetire};
      if (foot && enemy_all_cavalry) return {AfterAction::kRemain};
      if (charged_only_guns) return ride;
      return any;
    case CombatBand::kInconclusive: {
      // "Cavalry who charged à l'outrance against dismounted dragoons or a
      // single rank of enemy cavalry, ride-through" names dismounted dragoons,
      // who are foot: it comes before "Cavalry who charged foot retire".
      bool soft = !enemy.parts.empty();
      for (const auto& e : enemy.parts) {
        soft = soft && (e.type == TroopType::kDismountedDragoons || (is_cavalry(e.type) && e.single_rank));
      }
      if (cav && charged && p.a_outrance && soft) return ride;
      if (charged_foot) return {AfterAction::kRetire};
      return {AfterAction::kRemain, AfterAction::kRetire};
    }
    case CombatBand::kDrivenBack: {
      bool charged_by_cav_only = enemy_all_cavalry;
      for (const auto& e : enemy.parts) charged_by_cav_only = charged_by_cav_only && e.charged;
      if (foot && charged_by_cav_only) return {AfterAction::kRemain};
      return {AfterAction::kRetire};
    }
    case CombatBand::kDefeat: return {AfterAction::kRetire};
    case CombatBand::kBreak: return {AfterAction::kRout};
  }
  return {AfterAction::kRemain};
}

void roll_combat(CombatResult& r, Dice& dice) {
  r.a.faces = dice.d6s(r.a.dice);
  r.b.faces = dice.d6s(r.b.dice);
  for (CombatSide* side : {&r.a, &r.b}) {
    side->hits = 0;
    for (int f : side->faces) side->hits += f >= side->hit_on ? 1 : 0;
  }
  r.difference = r.a.hits - r.b.hits;
  r.band_a = combat_band(r.difference);
  r.band_b = combat_band(-r.difference);
  r.loser = r.difference > 0 ? r.b.army : r.difference < 0 ? r.a.army : std::string();
}

std::optional<CombatResult> assess_combat_of(const GameState& s, std::string_view brigade) {
  const std::vector<Body> bodies = combat_bodies(s);
  for (const auto& g : find_groups(s, bodies)) {
    for (std::size_t i : g) {
      if (bodies[i].id == brigade) {
        CombatResult r = assess_group(s, group_ptrs(bodies, g));
        if (!fights(r)) return std::nullopt;
        return r;
      }
    }
  }
  return std::nullopt;
}

void resolve_all_combats(GameState& s, Dice& dice, std::vector<Event>& events) {
  for (auto& b : s.brigades) b.status &= ~bit(Status::kInCombat);
  for (auto& g : s.guns) g.status &= ~bit(Status::kInCombat);
  const std::vector<Body> bodies = combat_bodies(s);
  const auto groups = find_groups(s, bodies);
  prepare_groups(s, bodies, groups, events);
  // Assessed against the table as it stands when combat begins ("Combat is
  // resolved simultaneously"), then rolled and applied one after another.
  std::vector<CombatResult> assessed;
  for (const auto& g : groups) {
    CombatResult r = assess_group(s, group_ptrs(bodies, g));
    if (fights(r)) assessed.push_back(std::move(r));
  }
  // "Guns are abandoned by their crews."
  abandon_guns_in_combat(s, events);
  for (auto& r : assessed) roll_and_apply(s, std::move(r), dice, events);
}

int resolve_combat_of(GameState& s, std::string_view brigade, Dice& dice, std::vector<Event>& events) {
  const std::vector<Body> bodies = combat_bodies(s);
  for (const auto& g : find_groups(s, bodies)) {
    bool mine = false;
    for (std::size_t i : g) mine = mine || bodies[i].id == brigade;
    if (!mine) continue;
    prepare_groups(s, bodies, {g}, events);
    CombatResult r = assess_group(s, group_ptrs(bodies, g));
    if (!fights(r)) return -1;
    abandon_guns_in_combat(s, events);
    roll_and_apply(s, std::move(r), dice, events);
    return static_cast<int>(s.combat.results.size()) - 1;
  }
  return -1;
}

int pursuit_charge(GameState& s, std::string_view pursuer, std::string_view enemy, bool enemy_counter_charges,
                   Dice& dice, std::vector<Event>& events) {
  Brigade* p = find_mut(s, pursuer);
  if (p == nullptr || !unit_on_table(*p)) return -1;
  const Polygon target = unit_polygon(s, enemy);
  if (target.points.empty()) return -1;
  // Pursuers are unformed: they turn to face the enemy they meet.
  const OrientedRect env = env_of(*p);
  p->facing_deg = normalize_deg(bearing_of(target.centroid() - env.center));
  p->position = p->position + (env.center - env_of(*p).center);
  auto path = charge_path(env_of(*p), target, 1000);
  if (!path) return -1;
  double gap = path->contact;
  Brigade* e = find_mut(s, enemy);
  if (enemy_counter_charges && e != nullptr && is_cavalry(e->type)) {
    // The counter-charge meets the pursuers half way (RULINGS C3).
    const Vec2 fwd = facing_unit(e->facing_deg);
    auto meet = first_contact(env_of(*e).polygon(), fwd, gap / 2, env_of(*p).polygon());
    const double m = meet ? *meet : gap / 2;
    e->position = e->position + fwd * m;
    for (auto& bp : e->base_poses) bp.center = bp.center + fwd * m;
    path = charge_path(env_of(*p), unit_polygon(s, enemy), 1000);
    if (!path) return -1;
    gap = path->contact;
    ChargeDeclaration cc;
    cc.charger = std::string(enemy);
    cc.target = std::string(pursuer);
    cc.counter = true;
    cc.contacted = std::string(pursuer);
    s.combat.charges.push_back(cc);
  }
  p->position = p->position + path->dir * gap;
  for (auto& bp : p->base_poses) bp.center = bp.center + path->dir * gap;
  p->status |= bit(Status::kPursuing);
  Event ev;
  ev.kind = "pursuit_charge";
  ev.subjects = {std::string(pursuer), std::string(enemy)};
  ev.where = {{p->position, p->id}};
  ev.text = ref(pursuer) + " pursues into " + ref(enemy) + " and charges.";
  events.push_back(std::move(ev));
  const int idx = resolve_combat_of(s, pursuer, dice, events);
  if (idx >= 0) s.combat.results[static_cast<std::size_t>(idx)].pursuit = true;
  return idx;
}

bool flanking_fire_given(const GameState& s, std::string_view target, std::string_view firer) {
  return std::any_of(s.combat.flanking.begin(), s.combat.flanking.end(), [&](const FlankingFire& f) {
    return f.target == target && f.firer == firer && f.turn + 1 >= s.turn;
  });
}

void record_flanking_fire(GameState& s, std::string_view target, std::string_view firer) {
  if (flanking_fire_given(s, target, firer)) return;  // once
  s.combat.flanking.push_back({std::string(target), std::string(firer), s.turn, false});
}

int flanking_fire_dice(const Brigade& firer, const Polygon& target) {
  // "1 D6 for each base within 1 inch": each base with the target inside
  // its own 1" front arc (unformed: within 1"), as for bases in combat
  // (C8); the arc a hair wider than 45° so that a target halted corner to
  // corner on its edge is counted (RULINGS C18).
  int n = 0;
  for (const auto& r : pose_bases(pose_of(firer))) {
    const bool in_range = unformed(firer) ? distance(r.polygon(), target) <= kFootCombat + kEps
                                          : intersects(front_arc_polygon(r, kFootCombat + kEps, 45.1), target);
    n += in_range ? 1 : 0;
  }
  return n;
}

void roll_flanking_musketry(GameState& s, Dice& dice, std::vector<Event>& events) {
  for (auto& f : s.combat.flanking) {
    if (f.rolled || f.turn != s.turn) continue;
    f.rolled = true;
    Brigade* t = find_mut(s, f.target);
    const Brigade* firer = s.find_brigade(f.firer);
    if (t == nullptr || firer == nullptr || !unit_on_table(*t) || !unit_on_table(*firer)) continue;
    const int n = flanking_fire_dice(*firer, env_of(*t).polygon());
    const std::vector<int> faces = dice.d6s(n);
    int dps = 0;
    for (int x : faces) dps += x >= 4 ? 1 : 0;
    Event e;
    e.kind = "flanking_musketry";
    e.subjects = {t->id, firer->id};
    e.where = {{t->position, t->id}};
    e.text = ref(firer->id) + " gives flanking fire on " + ref(t->id) + ": " + std::to_string(n) + " dice, " +
             std::to_string(dps) + " DP" + (dps == 1 ? "" : "s") + ".";
    e.dice = dice.drain();
    events.push_back(std::move(e));
    if (dps > 0) inflict_damage(s, *t, dps, 0, DpCause::kFire, dice, events);
  }
}

std::vector<Decision> combat_pending(const GameState& s) {
  if (s.phase != Phase::kCombat) return {};
  std::vector<Decision> out;
  if (stale(s)) {
    GameState copy = s;
    start_phase(copy);
    open_from(copy, {copy.combat.stage, copy.combat.half}, out);
    s.sight_memo.take_from(copy.sight_memo);
    return out;
  }
  if (s.combat.stage == CombatStage::kResolved) return {};
  open_from(s, {s.combat.stage, s.combat.half}, out);
  return out;
}

Verdict combat_check(const GameState& s, const Answer& a) { return check_in(combat_pending(s), a); }

Verdict combat_check(const GameState&, const std::vector<Decision>& pending, const Answer& a) {
  return check_in(pending, a);
}

bool combat_resolved(const GameState& s) { return !stale(s) && s.combat.stage == CombatStage::kResolved; }

Verdict combat_resolve(GameState& s, const std::vector<Answer>& answers, Dice& dice, std::vector<Event>& events,
                       const std::vector<Decision>* owed, std::optional<std::vector<Decision>>* known) {
  if (stale(s)) start_phase(s);
  if (s.combat.stage == CombatStage::kResolved) {
    if (!answers.empty()) return reject("unknown_decision", "Nothing is pending in the combat phase now.");
    return Ok{};
  }
  std::vector<Decision> worked_out;
  Cursor c;
  if (owed != nullptr) {
    c = cursor_of(s, *owed);
#ifndef NDEBUG
    // Debug builds (the tests' CI build among them) hold it to the stage worked out.
    const Cursor w = open_from(s, {s.combat.stage, s.combat.half}, worked_out);
    assert(w.stage == c.stage && w.half == c.half && worked_out == *owed);
#endif
  } else {
    c = open_from(s, {s.combat.stage, s.combat.half}, worked_out);
  }
  const std::vector<Decision>& ds = owed != nullptr ? *owed : worked_out;
  for (const auto& a : answers) {
    if (auto v = check_in(ds, a); !v) return v;
  }
  if (c.stage != CombatStage::kResolved) {
    switch (c.stage) {
      case CombatStage::kDeclare:
        s.half = c.half;
        apply_charge_declarations(s, ds, answers, events);
        break;
      case CombatStage::kRespond: apply_charge_responses(s, ds, answers, events); break;
      case CombatStage::kDice: apply_charge_dice(s, ds, answers, events); break;
      default: break;
    }
    std::vector<Decision> more;
    const std::uint32_t half_asked = s.half;  // the acting half `more` is worked out for, but for declarations
    c = open_from(s, next(s, c), more);
    if (c.stage != CombatStage::kResolved) {
      s.combat.stage = c.stage;
      s.combat.half = c.half;
      s.half = c.stage == CombatStage::kDeclare ? c.half : 0;
      // combat_pending(s) now opens at c and finds `more` there when they
      // were worked out for the same acting half (decisions_at asks for
      // declarations with c.half); the stage recorded plays no part.
      if (known != nullptr && (c.stage == CombatStage::kDeclare || half_asked == s.half)) *known = std::move(more);
      return Ok{};
    }
  }
  // "declare and execute charges and responses; resolve combat between
  // brigades in close combat".
  s.half = 0;
  s.combat.half = 0;
  execute_charges(s, dice, events);
  roll_flanking_musketry(s, dice, events);
  resolve_all_combats(s, dice, events);
  s.combat.stage = CombatStage::kResolved;
  return Ok{};
}


std::vector<bool> base_in_combat(const Brigade& b, const std::vector<Polygon>& enemies) {
  const std::vector<OrientedRect> bases = pose_bases(pose_of(b));
  const std::size_t n = bases.size();
  if (b.type == TroopType::kCivilians) return std::vector<bool>(n, false);
  const std::size_t front = unformed(b) ? n : std::min(n, static_cast<std::size_t>(std::max(1, bases_per_rank(b.formation, b.bases))));
  std::vector<bool> contact(n, false);
  std::vector<bool> near(n, false);
  for (std::size_t i = 0; i < n; ++i) {
    const Polygon p = bases[i].polygon();
    for (const Polygon& e : enemies) {
      if (distance(p, e) <= kContactGap) contact[i] = true;
      if (i < front) {
        const bool in_reach = unformed(b) ? distance(p, e) <= kFootCombat + kEps
                                          : intersects(front_arc_polygon(bases[i], kFootCombat), e);
        if (in_reach) near[i] = true;
      }
    }
  }
  // Cavalry: the bases in contact; only when none is (foot came within 1"
  // of them) the front-rank bases with the enemy within 1" to their front.
  const bool any_contact = std::find(contact.begin(), contact.end(), true) != contact.end();
  if (is_cavalry(b.type) && any_contact) return contact;
  std::vector<bool> out(n, false);
  for (std::size_t i = 0; i < n; ++i) out[i] = contact[i] || near[i];
  return out;
}

}  // namespace galloper::rules::malbrook
