#include "rules/malbrook/charge.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

#include "rules/core/tell.hpp"
#include "rules/core/visibility.hpp"
#include "rules/malbrook/artillery.hpp"
#include "rules/malbrook/basing.hpp"
#include "rules/malbrook/combat.hpp"
#include "rules/malbrook/damage.hpp"
#include "rules/malbrook/manoeuvre.hpp"
#include "rules/malbrook/movement.hpp"
#include "rules/malbrook/seats.hpp"
#include "rules/malbrook/sequence.hpp"
#include "rules/malbrook/visibility.hpp"

namespace galloper::rules::malbrook {

namespace {

constexpr double kEps = 1e-6;
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kPathStep = 0.25;  // degrees between charge directions tried

std::string in(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", d);
  std::string s(buf);
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s + "\"";
}

constexpr std::uint32_t bit(Status s) { return static_cast<std::uint32_t>(s); }

Brigade* find_mut(GameState& s, std::string_view id) { return const_cast<Brigade*>(s.find_brigade(id)); }

bool inspired(const Brigade& b) { return b.inspire_actions > 0 || b.has(Status::kInspired); }

OrientedRect env_of(const Brigade& b) { return pose_envelope(pose_of(b)); }

bool gun_fights(const Gun& g) { return unit_on_table(g) && !g.has(Status::kAbandoned); }

// Whether the eyes that pick a brigade's charge targets see each brigade and
// gun now, by their index in the state (RULINGS C2): every seat of its army
// with side-shared vision; with wing-only vision its own seat's alone, so a
// seat is never offered a target its view does not show.
struct SeenFlags {
  std::vector<char> brigades;
  std::vector<char> guns;
};

SeenFlags seen_by_eyes(const GameState& s, std::string_view army, std::string_view seat) {
  SeenFlags out{std::vector<char>(s.brigades.size(), 0), std::vector<char>(s.guns.size(), 0)};
  const std::shared_ptr<const SightTable> sight = sight_table(s, s.wing_vision ? SightGrain::kSeat : SightGrain::kSide);
  SeatMask mask = 0;
  if (!s.wing_vision) {
    mask = sight->side_mask(army);
  } else {
    for (std::size_t i = 0; i < sight->seats.size() && i < 64; ++i) {
      if (sight->seats[i].id == seat) mask |= SeatMask{1} << i;
    }
  }
  for (std::size_t k = 0; k < sight->scene.refs.size() && k < sight->seen_by.size(); ++k) {
    if ((sight->seen_by[k] & mask) == 0) continue;
    const PieceRef& r = sight->scene.refs[k];
    if (r.kind == PieceKind::kBrigade) out.brigades[r.index] = 1;
    if (r.kind == PieceKind::kGun) out.guns[r.index] = 1;
  }
  return out;
}

// Enemy foot have the (unformed) cavalry within 1" to their front: the Note.
bool foot_within_one_inch(const GameState& s, const Brigade& b, const Brigade** which = nullptr) {
  const Polygon p = env_of(b).polygon();
  for (const auto& f : s.brigades) {
    if (f.army == b.army || !unit_on_table(f) || !is_foot(f.type)) continue;
    const OrientedRect fe = env_of(f);
    const bool near = f.formation == Formation::kUnformed ? distance(fe.polygon(), p) <= kFootCombat + kEps
                                                           : intersects(front_arc_polygon(fe, kFootCombat), p);
    if (near) {
      if (which != nullptr) *which = &f;
      return true;
    }
  }
  return false;
}

bool unformed_cavalry(const Brigade& b) {
  return is_cavalry(b.type) && (b.formation == Formation::kUnformed || always_unformed(b.type));
}

// Moves a brigade (and its placed bases and attached leaders) by d.
void translate(GameState& s, Brigade& b, Vec2 d) {
  b.position = b.position + d;
  for (auto& bp : b.base_poses) bp.center = bp.center + d;
  for (auto& l : s.leaders) {
    if (l.attached_to == b.id) {
      l.position = attached_leader_position(b);
      l.facing_deg = b.facing_deg;
    }
  }
}

// How far `poly` may travel along dir before meeting `other`: first contact,
// except that something it already touches only stops it if moving on would
// push into it (sliding past a neighbour is no contact).
// A refused flank's stepped-back bases enter no other unit (touching is fine).
bool refused_base_clear(const GameState& s, const Brigade& b, const Pose& end) {
  for (const auto& r : pose_bases(end)) {
    for (const auto& o : s.brigades) {
      if (o.id == b.id || !unit_on_table(o)) continue;
      for (const auto& ob : footprint(o)) {
        if (overlaps(r, ob, 1e-6)) return false;
      }
    }
    for (const auto& g : s.guns) {
      if (unit_on_table(g) && overlaps(r, footprint(g), 1e-6)) return false;
    }
  }
  return true;
}

// "Foot who stand to receive a charge from over 2 inches away may step-back
// an end stand ... to refuse a flank": the end stand on the side of `from`
// (the nearest charger's centre) steps back as the movement phase's step
// places it (manoeuvre.hpp "refuse_step_back"): 1", or ¾", ½", ¼" where 1"
// would put it into another unit. Its step and pose, or nullopt and why it
// cannot (the manoeuvre's limits, or no room): then the flank is not refused
// (RULINGS C5).
struct Refusal {
  OrderStep step;
  Pose end;
  double back = 0;
};
std::optional<Refusal> refusal(const GameState& s, const Brigade& b, Vec2 from, std::string& why) {
  OrderStep st;
  st.action = "refuse_step_back";
  st.pivot = dot(from - env_of(b).center, facing_unit(b.facing_deg + 90)) > 0 ? "right" : "left";
  st.target = "1";
  StepContext ctx;
  ctx.who = ref(b.id);
  ctx.grade = b.grade;
  why = "no room to step back";
  for (double back : {1.0, 0.75, 0.5, 0.25}) {
    st.distance = back;
    auto eff = manoeuvre_step(pose_of(b), st, ctx);
    if (!eff) {
      why = eff.error().reason;
      return std::nullopt;
    }
    if (refused_base_clear(s, b, eff->end)) return Refusal{st, eff->end, back};
  }
  return std::nullopt;
}

std::optional<double> first_hit(const Polygon& poly, Vec2 dir, double max, const Polygon& other) {
  auto t = first_contact(poly, dir, max, other);
  if (!t) return std::nullopt;
  if (*t > kEps) return t;
  for (double step = 0.02; step <= max + 0.02; step += 0.1) {
    Polygon moved = poly;
    for (auto& p : moved.points) p = p + dir * std::min(step, max);
    if (convex_penetration(moved, other) > 1e-4) return std::max(0.0, step - 0.1);
    if (step >= max) break;
  }
  return std::nullopt;
}

// The farthest poly may travel along dir and stay on the table.
double table_limit(const GameState& s, const Polygon& poly, Vec2 dir) {
  if (s.table_width <= 0 || s.table_depth <= 0) return kInf;
  double best = kInf;
  for (Vec2 p : poly.points) {
    if (dir.x > kEps) best = std::min(best, (s.table_width - p.x) / dir.x);
    if (dir.x < -kEps) best = std::min(best, -p.x / dir.x);
    if (dir.y > kEps) best = std::min(best, (s.table_depth - p.y) / dir.y);
    if (dir.y < -kEps) best = std::min(best, -p.y / dir.y);
  }
  return std::max(0.0, best);
}

struct Travel {
  double distance = 0;
  std::string hit;      // the unit met, if any
  bool enemy = false;   // ... an enemy brigade or a gun with its crew
  std::string stopped;  // what else stopped it ("the table edge", "a wood")
};

// Straight travel of a brigade along dir for up to `max`, stopping at the
// first unit (other than `ignore`), closed terrain (cavalry) or the table edge.
Travel travel(const GameState& s, const Brigade& mover, Vec2 dir, double max, std::string_view ignore) {
  const Polygon poly = env_of(mover).polygon();
  // All the mover can meet lies in the box of its outline at the start and
  // at `max` along (widened far beyond first_hit's tolerances): a unit whose
  // outline's box misses it is passed without the path test.
  Aabb reach = poly.bounds();
  for (Vec2 p : poly.points) reach.add(p + dir * max);
  reach = reach.expanded(kEps);
  Travel t;
  t.distance = max;
  auto consider = [&](const std::string& id, const std::string& army, const Polygon& other, bool fights) {
    if (id == mover.id || id == ignore) return;
    if (!reach.intersects(other.bounds())) return;
    if (auto d = first_hit(poly, dir, t.distance, other); d && *d < t.distance - kEps) {
      t.distance = *d;
      t.hit = id;
      t.enemy = army != mover.army && fights;
      t.stopped.clear();
    }
  };
  for (const auto& o : s.brigades) {
    if (unit_on_table(o)) consider(o.id, o.army, env_of(o).polygon(), true);
  }
  for (const auto& g : s.guns) {
    if (unit_on_table(g)) consider(g.id, g.army, footprint(g).polygon(), !g.has(Status::kAbandoned));
  }
  if (is_cavalry(mover.type)) {
    // "Guns and cavalry may not move in dense woods ... swamps, or built-up areas"
    for (const auto& a : s.terrain.areas()) {
      if (a.kind == AreaKind::kRough || intersects(a.outline, poly)) continue;
      if (auto d = first_contact(poly, dir, t.distance, a.outline); d && *d < t.distance - kEps) {
        t.distance = *d;
        t.hit.clear();
        t.enemy = false;
        t.stopped = a.kind == AreaKind::kWood ? "a wood" : a.kind == AreaKind::kTown ? "a town" : "a marsh";
      }
    }
  }
  const double edge = table_limit(s, poly, dir);
  if (edge < t.distance - kEps) {
    t.distance = edge;
    t.hit.clear();
    t.enemy = false;
    t.stopped = "the table edge";
  }
  return t;
}

// ChargeDeclaration::dice: 1, 2 or 3 dice (2 AvD + D6), or kOneAvdAndD6.
constexpr std::uint32_t kOneAvdAndD6 = 4;
std::uint32_t dice_count(std::uint32_t code) { return code == kOneAvdAndD6 ? 2 : code; }

std::vector<int> roll_charge_dice(Dice& dice, std::uint32_t n) {
  std::vector<int> faces;
  const std::uint32_t avd = n == kOneAvdAndD6 ? 1 : std::min<std::uint32_t>(n, 2);
  for (std::uint32_t i = 0; i < avd; ++i) faces.push_back(dice.avd());
  if (n >= 3) faces.push_back(dice.d6());
  return faces;
}

std::string faces_text(const std::vector<int>& faces) {
  std::string t;
  for (int f : faces) t += (t.empty() ? "" : "+") + std::to_string(f);
  return t;
}

// Rolls a charger's (or counter-charger's) dice: distance, fatigue DPs, the
// change-of-speed record, the moved marker.
void roll_for(GameState& s, Brigade& b, ChargeDeclaration& c, Dice& dice, std::vector<Event>& events) {
  if (c.dice == 0) c.dice = 1;
  c.faces = roll_charge_dice(dice, c.dice);
  c.inches = charge_inches(c.faces, inspired(b));
  const int fatigue = fatigue_dps(c.faces, pose_of(b), s.terrain.is_rough(env_of(b).polygon(), true));
  const std::uint32_t this_turn = b.move_dice_turn == s.turn ? b.move_dice : 0;
  record_move_dice(b, s.turn, std::max(this_turn, dice_count(c.dice)));
  b.status |= bit(Status::kMoved);
  Event e;
  e.kind = "charge_dice";
  e.subjects = {b.id, c.target};
  e.where = {{b.position, b.id}};
  e.text = ref(b.id) + (c.counter ? " counter-charges " : " charges ") + ref(c.target) +
           (c.a_outrance ? " à l'outrance" : "") + ": " + std::to_string(dice_count(c.dice)) +
           (c.dice == 1 ? " die, " : " dice, ") + faces_text(c.faces) + " = " + in(c.inches) + ".";
  e.dice = dice.drain();
  events.push_back(std::move(e));
  if (fatigue > 0) add_dps(s, b, fatigue, DpCause::kManoeuvre, events);
}

void evade(GameState& s, Brigade& b, Vec2 away_from, Dice& dice, std::vector<Event>& events) {
  const OrientedRect env = env_of(b);
  Vec2 dir = env.center - away_from;
  const double len = length(dir);
  dir = len > kEps ? dir * (1 / len) : facing_unit(b.facing_deg + 180);
  const FastMove m = roll_fast_move(dice, b, true);
  const Travel t = travel(s, b, dir, m.inches, "");
  translate(s, b, dir * t.distance);
  b.status |= bit(Status::kEvading) | bit(Status::kMoved);
  Event e;
  e.kind = "evade";
  e.subjects = {b.id};
  e.where = {{env.front_mid(), b.id}, {b.position, b.id}};
  e.text = ref(b.id) + " evades: " + faces_text(m.faces) + " = " + in(m.inches) + ", moves " + in(t.distance) +
           (t.distance < m.inches - kEps ? " (stopped by " + (t.hit.empty() ? t.stopped : ref(t.hit)) + ")" : "") + ".";
  e.dice = dice.drain();
  events.push_back(std::move(e));
  add_dps(s, b, 1, DpCause::kMorale, events);  // "This costs them 1 DP" (RULINGS C4)
}

ChargeDeclaration* find_charge(GameState& s, std::string_view charger) {
  for (auto& c : s.combat.charges) {
    if (c.charger == charger) return &c;
  }
  return nullptr;
}

const ChargeDeclaration* find_charge(const GameState& s, std::string_view charger) {
  for (const auto& c : s.combat.charges) {
    if (c.charger == charger) return &c;
  }
  return nullptr;
}

std::string answer_for(const Decision& d, const std::vector<Answer>& answers) {
  for (const auto& a : answers) {
    if (a.decision_id == d.id) return a.option.empty() ? d.default_option : a.option;
  }
  return d.default_option;
}

std::string after_prefix(std::string_view id, std::string_view prefix) {
  return id.substr(0, prefix.size()) == prefix ? std::string(id.substr(prefix.size())) : std::string();
}

// The option the brigade `lead` declared in this step ("" when it has no declaration).
std::string lead_answer(const std::vector<Decision>& ds, const std::vector<Answer>& answers, std::string_view lead) {
  for (const auto& d : ds) {
    if (d.id == "charge/" + std::string(lead)) return answer_for(d, answers);
  }
  return {};
}

bool is_charge_option(std::string_view opt) { return opt.rfind("charge:", 0) == 0 || opt.rfind("outrance:", 0) == 0; }

// A line conformer's declaration once its lead's is known (RULINGS C19): no
// charge unless the lead charges; "conform" takes the lead's target if it has
// a path to it, else its nearest, à l'outrance when the lead's is and it may.
std::string conformed_charge(const Decision& d, const std::string& opt, const std::string& lead_opt, bool outrance_ok) {
  if (!is_charge_option(lead_opt)) return {};
  if (opt != "conform") return opt;
  const bool lead_outrance = lead_opt.rfind("outrance:", 0) == 0;
  const std::string target = after_prefix(lead_opt, lead_outrance ? "outrance:" : "charge:");
  const std::string kind = lead_outrance && outrance_ok ? "outrance:" : "charge:";
  for (const auto& o : d.options) {
    if (o.id == "charge:" + target) return kind + target;
  }
  for (const auto& o : d.options) {
    if (o.id.rfind("charge:", 0) == 0) return kind + after_prefix(o.id, "charge:");
  }
  return {};
}

}  // namespace

std::vector<OrientedRect> brigade_bases_at(const Brigade& b, Vec2 position, double facing) {
  Pose p = pose_of(b);
  const Vec2 d = position - b.position;
  p.position = position;
  p.facing_deg = facing;
  for (auto& bp : p.base_poses) bp.center = bp.center + d;
  if (std::abs(angle_diff_deg(facing, b.facing_deg)) > 1e-9) p.base_poses.clear();
  return pose_bases(p);
}

// ---------------------------------------------------------------------------

bool unit_on_table(const Brigade& b) {
  return b.bases > 0 && !b.has(Status::kDestroyed) && !b.has(Status::kSurrendered);
}
bool unit_on_table(const Gun& g) { return !g.has(Status::kCrewEliminated) && !g.has(Status::kDestroyed); }

std::vector<OrientedRect> unit_bases(const GameState& s, std::string_view id) {
  if (const Brigade* b = s.find_brigade(id)) return pose_bases(pose_of(*b));
  if (const Gun* g = s.find_gun(id)) return {footprint(*g)};
  return {};
}

Polygon unit_polygon(const GameState& s, std::string_view id) {
  if (const Brigade* b = s.find_brigade(id)) return env_of(*b).polygon();
  if (const Gun* g = s.find_gun(id)) return footprint(*g).polygon();
  return {};
}

std::string unit_army(const GameState& s, std::string_view id) {
  if (const Brigade* b = s.find_brigade(id)) return b->army;
  if (const Gun* g = s.find_gun(id)) return g->army;
  return {};
}

bool may_charge_a_outrance(const Brigade& b) {
  return b.type == TroopType::kHussars || (b.type == TroopType::kHorse && b.style == FightingStyle::kNew) ||
         (b.a_outrance && is_cavalry(b.type));
}

namespace {

// What the questions of one charge declaration step share: who each army
// sees (one sight-table lookup, not one per charger), each enemy's outline,
// and each charger's targets once worked out (a line conformer asks for its
// lead's). A cache for one call on one unchanging state.
class ChargeSight {
 public:
  explicit ChargeSight(const GameState& s) : s_(s), brigades_(s.brigades.size()), guns_(s.guns.size()) {}

  // Enemies the brigade's side sees and could reach by a charge path within
  // the sight range, nearest first (charge_targets).
  const std::vector<std::string>& targets(const Brigade& b) {
    auto memo = targets_.find(b.id);
    if (memo != targets_.end()) return memo->second;
    const OrientedRect env = env_of(b);
    const Aabb box = env.bounds();
    const SeenFlags& seen = seen_by(b);
    std::vector<std::pair<double, std::string>> found;
    auto consider = [&](bool is_seen, const std::string& id, const Outline& o) {
      if (!is_seen) return;
      // Nothing beyond the sight range can be reached: the boxes' gap is a
      // lower bound of the footprints' (saves the path sweep for most pairs).
      if (box.distance_to(o.box) > kChargeSightRange) return;
      if (auto p = charge_path(env, o.poly, kChargeSightRange)) found.emplace_back(p->contact, id);
    };
    for (std::size_t i = 0; i < s_.brigades.size(); ++i) {
      const Brigade& o = s_.brigades[i];
      if (same_id(o.army, b.army) || !unit_on_table(o)) continue;
      consider(seen.brigades[i] != 0, o.id, brigade(i));
    }
    for (std::size_t i = 0; i < s_.guns.size(); ++i) {
      const Gun& g = s_.guns[i];
      if (same_id(g.army, b.army) || !gun_fights(g)) continue;
      consider(seen.guns[i] != 0, g.id, gun(i));
    }
    std::sort(found.begin(), found.end());
    std::vector<std::string> out;
    for (auto& f : found) out.push_back(std::move(f.second));
    return targets_.emplace(b.id, std::move(out)).first->second;
  }

  // Whether the eyes that pick `b`'s targets (seen_by) see brigade `other`.
  bool sees(const Brigade& b, const Brigade& other) {
    const std::size_t i = static_cast<std::size_t>(&other - s_.brigades.data());
    return i < s_.brigades.size() && seen_by(b).brigades[i] != 0;
  }

  // Base-to-base contact with an enemy brigade or fighting gun (within
  // kContactGap). A pair whose boxes lie further apart than the gap (and a
  // rounding margin) cannot be in contact: its exact distance is not needed.
  bool in_enemy_contact(const Brigade& b) {
    const Polygon p = env_of(b).polygon();
    const Aabb box = p.bounds();
    auto touches = [&](const Outline& o) {
      return box.distance_to(o.box) <= kContactGap + kBoxMargin && distance(p, o.poly) <= kContactGap;
    };
    for (std::size_t i = 0; i < s_.brigades.size(); ++i) {
      const Brigade& o = s_.brigades[i];
      if (same_id(o.army, b.army) || !unit_on_table(o)) continue;
      if (touches(brigade(i))) return true;
    }
    for (std::size_t i = 0; i < s_.guns.size(); ++i) {
      const Gun& g = s_.guns[i];
      if (same_id(g.army, b.army) || !gun_fights(g)) continue;
      if (touches(gun(i))) return true;
    }
    return false;
  }

 private:
  static constexpr double kBoxMargin = 1e-6;
  struct Outline {
    Polygon poly;
    Aabb box;
  };
  static Outline outline(Polygon p) {
    const Aabb box = p.bounds();
    return {std::move(p), box};
  }
  const Outline& brigade(std::size_t i) {
    if (!brigades_[i]) brigades_[i] = outline(env_of(s_.brigades[i]).polygon());
    return *brigades_[i];
  }
  const Outline& gun(std::size_t i) {
    if (!guns_[i]) guns_[i] = outline(footprint(s_.guns[i]).polygon());
    return *guns_[i];
  }
  // By army, or with wing-only vision by seat.
  const SeenFlags& seen_by(const Brigade& b) {
    const std::string seat = s_.wing_vision ? seat_of(b) : std::string();
    const std::string& key = s_.wing_vision ? seat : b.army;
    auto it = seen_.find(key);
    if (it == seen_.end()) it = seen_.emplace(key, seen_by_eyes(s_, b.army, seat)).first;
    return it->second;
  }

  const GameState& s_;
  std::vector<std::optional<Outline>> brigades_;
  std::vector<std::optional<Outline>> guns_;
  std::map<std::string, SeenFlags, std::less<>> seen_;
  std::map<std::string, std::vector<std::string>, std::less<>> targets_;
};

// Why the brigade's own state keeps it from initiating a charge (RULINGS C2).
std::optional<Rejection> charge_barred(const Brigade& b, ChargeSight& sight) {
  const std::string who = ref(b.id);
  if (!is_cavalry(b.type)) return reject("not_cavalry", who + " is not cavalry: only cavalry charge.");
  if (!unit_on_table(b)) return reject("not_on_table", who + " is no longer on the table.");
  if (b.control == ControlResult::kHalt) {
    return reject("halt_reaction", who + " has a Halt reaction: it \"may not initiate a charge\".");
  }
  if (b.has(Status::kHalted)) {
    return reject("halted", who + " is halted this turn (a halt marker): it may not declare a charge.");
  }
  if (b.has(Status::kRouting) || b.has(Status::kRetiring) || b.has(Status::kEvading) || b.has(Status::kPursuing) ||
      b.has(Status::kLooting)) {
    return reject("not_formed_to_charge", who + " is routing, retiring, evading, pursuing or looting.");
  }
  if (sight.in_enemy_contact(b)) {
    return reject("in_contact", who + " is already in base-to-base contact with enemy.");
  }
  return std::nullopt;
}

// The brigade a line conformer follows may declare a charge with a target.
bool lead_may_charge(const GameState& s, ChargeSight& sight, const Brigade& b) {
  const Brigade* lead = s.find_brigade(b.conform_to);
  return lead != nullptr && !charge_barred(*lead, sight) && !sight.targets(*lead).empty();
}

bool conforms_in_line(const Brigade& b) {
  return b.control == ControlResult::kConforming && !b.conform_behind && !b.conform_to.empty();
}

// Whether any charge path may reach `target` (false only when none can).
// Every translation that brings the charger onto the target is some target
// point less some charger point; in the charger's frame those lie in the box
// [target's least along - charger's front, target's most along - charger's
// rear] x [the same laterally]. A charge moves its whole distance d within
// kChargeDeviation of its facing: along between d cos(dev) and d, at most
// d sin(dev) sideways -- so never back, never more than `max_distance` on,
// never wider than tan(dev) of its way forward. A box missing that cone by
// more than kEps (far above first_contact's tolerances) is reached by no
// direction the sweep would try.
bool may_reach(const OrientedRect& charger, const Polygon& target, double max_distance) {
  if (target.points.empty()) return false;
  const Vec2 fwd = charger.forward();
  const Vec2 right = charger.right();
  double along_lo = kInf, along_hi = -kInf, side_lo = kInf, side_hi = -kInf;
  for (const Vec2 p : target.points) {
    const Vec2 d = p - charger.center;
    const double a = dot(d, fwd);
    const double l = dot(d, right);
    along_lo = std::min(along_lo, a);
    along_hi = std::max(along_hi, a);
    side_lo = std::min(side_lo, l);
    side_hi = std::max(side_hi, l);
  }
  // Less the charger's own extent (its centre is the frame's origin).
  along_lo -= charger.depth / 2;
  along_hi += charger.depth / 2;
  side_lo -= charger.width / 2;
  side_hi += charger.width / 2;
  if (along_hi < -kEps || along_lo > max_distance + kEps) return false;
  const double reach = std::max(along_hi, 0.0) * std::tan(deg_to_rad(kChargeDeviation)) + kEps;
  return side_lo <= reach && side_hi >= -reach;
}

}  // namespace

bool may_charge(const GameState& s, const Brigade& b) {
  ChargeSight sight(s);
  return !charge_barred(b, sight);
}

std::optional<Rejection> conforming_charge_refusal(const GameState& s, ChargeSight& sight, const Brigade& b);

std::optional<Rejection> conforming_charge_refusal(const GameState& s, const Brigade& b) {
  ChargeSight sight(s);
  return conforming_charge_refusal(s, sight, b);
}

std::optional<Rejection> conforming_charge_refusal(const GameState& s, ChargeSight& sight, const Brigade& b) {
  if (b.control != ControlResult::kConforming) return std::nullopt;
  const std::string who = ref(b.id);
  // Control (RULINGS C19): "Brigades which form rear lines of a command and
  // are within 4 inches, directly behind a controlled brigade of the same
  // command, may also conform to moves made by the lead controlled brigade as
  // above. In this case however the rear brigade does not charge if the lead
  // brigade charges."
  if (b.conform_behind) {
    return reject("conforming_rear_line",
                  who + " conforms from a rear line behind " + ref(b.conform_to) +
                      " and \"does not charge if the lead brigade charges\" (Control: conforming rear lines); to "
                      "charge it must take a control test in the command phase.");
  }
  // "Brigades which are part of a continuous line, in base to base contact
  // with a controlled brigade of the same command, may conform to moves made
  // by the controlled brigade. This means if the controlled brigade halts they
  // halt, if it moves, they move with it, if it charges they charge. They only
  // need to take a control test if they wish to attempt any different
  // actions." So a line charges with its lead or not at all.
  if (!lead_may_charge(s, sight, b)) {
    return reject("conforming_lead_cannot_charge",
                  who + " conforms to " + ref(b.conform_to) + " in its line and charges only if it charges (\"if it " +
                      "charges they charge\"); " + ref(b.conform_to) + " cannot charge now.");
  }
  return std::nullopt;
}

Verdict may_declare_charge(const GameState& s, const Brigade& b) {
  ChargeSight sight(s);
  if (auto r = charge_barred(b, sight)) return *r;
  if (auto r = conforming_charge_refusal(s, sight, b)) return *r;
  return Ok{};
}

bool must_charge_again(const GameState&, const Brigade& b) {
  return b.has(Status::kFailedCharge) && b.control != ControlResult::kAsWished;
}

// The sweep tries the directions in order (straight ahead first, then
// alternately right and left, further each time) and keeps a direction only
// when it is nearer than the best so far by more than 1e-9 (ties go to the
// straighter path). Done literally that is up to 181 first_contacts a pair.
// A cheap lower bound on each direction's contact distance (ContactBound,
// worked out once for the pair) skips the ones that cannot change the answer:
//  - where the bound is beyond reach (first_contact finds nothing), or no
//    nearer than the best so far less 1e-9 (it would not be kept);
//  - before the direction with the least bound (measured first: T inches),
//    those whose bound exceeds T + 1e-6. Keeping or dropping such a
//    direction can change what the sweep holds only while it holds something
//    further than T + 1e-6 - n * 1e-9 after n more directions, and at that
//    direction (n <= 181) both would be replaced by T all the same; from
//    there on every direction is weighed as the sweep weighs it.
// A target no direction can reach (may_reach) is refused before any of that.
// So the answer is exactly the full sweep's (the ChargePath test in
// tests/rules/malbrook/charge_test.cpp compares them), at a few first_contacts.
std::optional<ChargePath> charge_path(const OrientedRect& charger, const Polygon& target, double max_distance) {
  if (!may_reach(charger, target, max_distance)) return std::nullopt;
  const Polygon poly = charger.polygon();
  const ContactBound bound(poly, target);
  const int steps = static_cast<int>(std::lround(kChargeDeviation / kPathStep));
  const int count = 2 * steps + 1;
  auto deviation = [](int k) { return (k + 1) / 2 * (k % 2 == 1 ? 1 : -1) * kPathStep; };
  // 0, +step, -step, +2 step, ...: ties go to the straighter path. The bound
  // takes a direction good to 1e-9: rotate the facing by the step (error
  // ~1e-16 a step) rather than a sine and cosine for every direction.
  std::vector<double> lower(static_cast<std::size_t>(count));
  const Vec2 ahead = facing_unit(charger.facing_deg);
  const double step_cos = std::cos(deg_to_rad(kPathStep));
  const double step_sin = std::sin(deg_to_rad(kPathStep));
  double dev_cos = 1;
  double dev_sin = 0;
  int least = -1;
  for (int k = 0; k < count; ++k) {
    if (k % 2 == 1) {
      const double c = dev_cos * step_cos - dev_sin * step_sin;
      dev_sin = dev_sin * step_cos + dev_cos * step_sin;
      dev_cos = c;
    }
    const double sd = k % 2 == 1 ? dev_sin : -dev_sin;
    const Vec2 near_dir{ahead.x * dev_cos + ahead.y * sd, ahead.y * dev_cos - ahead.x * sd};
    const double lb = bound.lower_bound(near_dir);
    lower[static_cast<std::size_t>(k)] = lb;
    if (lb <= max_distance + kGeomEpsilon && (least < 0 || lb < lower[static_cast<std::size_t>(least)])) least = k;
  }
  std::optional<ChargePath> best;
  if (least < 0) return best;  // nothing within reach in any direction
  auto measure = [&](int k) {
    const double dev = deviation(k);
    const Vec2 dir = facing_unit(charger.facing_deg + dev);
    const auto c = first_contact(poly, dir, max_distance, target);
    return c ? std::optional<ChargePath>(ChargePath{dev, dir, *c}) : std::nullopt;
  };
  const std::optional<ChargePath> first = measure(least);
  const double skip_above = first ? first->contact + 1e-6 : kInf;
  for (int k = 0; k < count; ++k) {
    const double lb = lower[static_cast<std::size_t>(k)];
    if (lb > max_distance + kGeomEpsilon) continue;       // first_contact finds nothing
    if (best && lb >= best->contact - 1e-9) continue;     // it would not be kept
    if (k < least && lb > skip_above) continue;           // replaced at `least` whatever it does
    const std::optional<ChargePath> c = k == least ? first : measure(k);
    if (!c) continue;
    if (!best || c->contact < best->contact - 1e-9) best = c;
  }
  return best;
}

std::optional<ChargePath> charge_contact(const GameState& s, const Brigade& b, std::string_view target) {
  const Polygon poly = unit_polygon(s, target);
  if (poly.points.empty()) return std::nullopt;
  auto path = charge_path(env_of(b), poly, 1000);
  if (!path) return std::nullopt;
  const Travel t = travel(s, b, path->dir, path->contact, target);
  if (t.distance < path->contact - kEps) return std::nullopt;
  return path;
}

std::vector<std::string> charge_targets(const GameState& s, const Brigade& b) { return ChargeSight(s).targets(b); }

bool charge_from_behind_flank(const Brigade& target, const std::vector<OrientedRect>& charger_start_bases) {
  if (target.formation == Formation::kUnformed || always_unformed(target.type)) return false;
  const OrientedRect env = env_of(target);
  for (const auto& r : charger_start_bases) {
    // Behind the line of the front edge: along <= depth/2 from the centre.
    if (env.to_local(r.center).y < env.depth / 2 - kEps) return true;
  }
  return false;
}

double charge_inches(const std::vector<int>& faces, bool insp) { return move_inches(faces, insp, false); }

// ---------------------------------------------------------------------------
// Decisions.

std::vector<Decision> charge_declare_decisions(const GameState& s) {
  std::vector<Decision> out;
  ChargeSight sight(s);
  for (const auto& army : acting_armies(s)) {
    for (std::size_t i : brigades_right_to_left(s, army)) {
      const Brigade& b = s.brigades[i];
      if (charge_barred(b, sight)) continue;  // may_charge
      // A conforming rear line never charges; a line conformer only with its
      // lead (RULINGS C19). Evading the foot within 1" is not a charge.
      std::vector<std::string> targets;
      if (!conforming_charge_refusal(s, sight, b)) targets = sight.targets(b);
      const bool with_lead = conforms_in_line(b);
      const bool may_evade = unformed_cavalry(b) && foot_within_one_inch(s, b);
      const bool must = must_charge_again(s, b);
      if (targets.empty() && !may_evade) continue;
      if (must && targets.empty()) continue;
      if (must) {
        // "they must attempt to charge again": last turn's target first.
        for (const auto& f : s.combat.failed) {
          if (f.charger != b.id) continue;
          auto it = std::find(targets.begin(), targets.end(), f.target);
          if (it != targets.end()) std::rotate(targets.begin(), it, it + 1);
        }
      }
      Decision d;
      // combat.cpp (cursor_of) tells the stages apart by these prefixes:
      // "charge/", "response/", "charge_dice/".
      d.id = "charge/" + b.id;
      d.seat = seat_of(b);
      d.kind = "charge_declaration";
      d.subjects = {b.id};
      if (with_lead && !targets.empty()) {
        d.options.push_back(
            {"conform", "Charge with " + ref(b.conform_to) + " if it charges (its target, or the nearest)", b.conform_to});
      } else if (!must) {
        d.options.push_back({"none", "No charge"});
      }
      for (const auto& t : targets) {
        d.options.push_back({"charge:" + t, "Charge " + ref(t), t, /*odds=*/true});
        if (may_charge_a_outrance(b)) {
          d.options.push_back({"outrance:" + t, "Charge " + ref(t) + " à l'outrance", t, /*odds=*/true});
        }
        d.limits.push_back({"gap:" + t, distance(env_of(b).polygon(), unit_polygon(s, t))});
      }
      if (may_evade && !must) d.options.push_back({"evade", "Evade the foot within 1\""});
      d.default_option = d.options.front().id;
      d.prompt = must ? ref(b.id) + " failed to contact last turn and must charge again: choose the target."
                 : with_lead && !targets.empty()
                     ? ref(b.id) + " conforms to " + ref(b.conform_to) + " in its line: if " + ref(b.conform_to) +
                           " charges, it charges too. Name its target (the dice are chosen after the responses)."
                     : "Does " + ref(b.id) + " charge? Name the target (the dice are chosen after the responses).";
      out.push_back(std::move(d));
    }
  }
  return out;
}

std::vector<Decision> charge_response_decisions(const GameState& s) {
  std::vector<Decision> out;
  ChargeSight sight(s);
  std::vector<std::string> order;
  std::map<std::string, std::vector<const ChargeDeclaration*>> by_target;
  for (const auto& c : s.combat.charges) {
    if (c.counter) continue;
    if (!by_target.contains(c.target)) order.push_back(c.target);
    by_target[c.target].push_back(&c);
  }
  for (const auto& tid : order) {
    const Brigade* t = s.find_brigade(tid);
    if (t == nullptr || !unit_on_table(*t)) continue;
    if (find_charge(s, tid) != nullptr) continue;  // "If not charging themselves"
    if (std::find(s.combat.evaders.begin(), s.combat.evaders.end(), tid) != s.combat.evaders.end()) continue;
    const auto& chargers = by_target[tid];
    const ChargeDeclaration* nearest = chargers.front();
    for (const auto* c : chargers) {
      if (c->start_gap < nearest->start_gap) nearest = c;
    }
    Decision d;
    d.id = "response/" + tid;
    d.seat = seat_of(*t);
    d.kind = "charge_response";
    d.subjects = {tid};
    for (const auto* c : chargers) d.subjects.push_back(c->charger);
    d.options.push_back({"stand", "Stand to receive at the halt"});
    const bool busy = t->has(Status::kRouting) || t->has(Status::kRetiring) || t->has(Status::kEvading);
    // A counter-charge is a charge: only at a charger its eyes see (RULINGS C2).
    const Brigade* charger = s.find_brigade(nearest->charger);
    if (is_cavalry(t->type) && !busy && !sight.in_enemy_contact(*t) && charger != nullptr && sight.sees(*t, *charger)) {
      d.options.push_back({"counter_charge", "Counter-charge " + ref(nearest->charger), nearest->charger});
    }
    if (unformed_cavalry(*t) && !t->has(Status::kRouting)) d.options.push_back({"evade", "Evade (1 DP)"});
    if (is_foot(t->type) && t->formation != Formation::kUnformed && !always_unformed(t->type) &&
        nearest->start_gap > kStandBeyond + kEps) {
      d.options.push_back({"about_face", "About face to meet the charge"});
      bool flank = false;
      for (const auto* c : chargers) {
        const Brigade* cb = s.find_brigade(c->charger);
        if (cb != nullptr && charge_from_behind_flank(*t, brigade_bases_at(*cb, c->start, c->start_facing))) flank = true;
      }
      const Brigade* ncb = s.find_brigade(nearest->charger);
      std::string why;
      if (flank && refusal(s, *t, ncb != nullptr ? env_of(*ncb).center : t->position, why)) {
        d.options.push_back({"refuse_flank", "Step back an end base to refuse the flank"});
      }
    }
    d.default_option = "stand";
    d.prompt = ref(tid) + " is charged by " + ref(nearest->charger) + (chargers.size() > 1 ? " and others" : "") +
               about(nearest->charger, " from " + in(nearest->start_gap)) + ": respond.";
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<Decision> charge_dice_decisions(const GameState& s) {
  std::vector<Decision> out;
  for (const auto& c : s.combat.charges) {
    const Brigade* b = s.find_brigade(c.charger);
    if (b == nullptr || c.dice != 0) continue;
    Decision d;
    d.id = "charge_dice/" + c.charger;
    d.seat = seat_of(*b);
    d.kind = "charge_dice";
    d.subjects = {c.charger, c.target};
    for (std::uint32_t n : cavalry_dice_allowed(*b, s.turn)) {
      if (n == 0) continue;  // "must roll at least one move die"
      const std::string label = n == 1 ? "1 AvD" : n == 2 ? "2 AvD" : "2 AvD + D6";
      d.options.push_back({std::to_string(n), label});
      // "Cavalry 1 or 2 AvD ... Both may add an additional optional D6": two dice.
      if (n == 2) d.options.push_back({"1+d6", "1 AvD + D6"});
    }
    if (d.options.empty()) d.options.push_back({"1", "1 AvD"});
    d.default_option = d.options.size() > 1 ? d.options[1].id : d.options.front().id;
    d.limits.push_back({"gap", c.start_gap});
    d.prompt = std::string(c.counter ? "Counter-charge dice for " : "Charge dice for ") + ref(c.charger) + " against " +
               ref(c.target) + about(c.target, " (" + in(c.start_gap) + " away)") + ".";
    out.push_back(std::move(d));
  }
  return out;
}

void apply_charge_declarations(GameState& s, const std::vector<Decision>& ds, const std::vector<Answer>& answers,
                               std::vector<Event>& events) {
  for (const auto& d : ds) {
    std::string opt = answer_for(d, answers);
    const std::string id = after_prefix(d.id, "charge/");
    Brigade* b = find_mut(s, id);
    if (b == nullptr || opt == "none") continue;
    if (opt != "evade" && conforms_in_line(*b)) {
      opt = conformed_charge(d, opt, lead_answer(ds, answers, b->conform_to), may_charge_a_outrance(*b));
      if (opt.empty()) continue;  // its lead does not charge: neither does it
    }
    Event e;
    e.subjects = {id};
    e.where = {{b->position, id}};
    if (opt == "evade") {
      s.combat.evaders.push_back(id);
      e.kind = "evade_declared";
      e.text = ref(id) + " will evade the foot within 1\".";
      events.push_back(std::move(e));
      continue;
    }
    ChargeDeclaration c;
    c.charger = id;
    c.a_outrance = opt.rfind("outrance:", 0) == 0;
    c.target = after_prefix(opt, c.a_outrance ? "outrance:" : "charge:");
    c.start = b->position;
    c.start_facing = b->facing_deg;
    c.start_gap = distance(env_of(*b).polygon(), unit_polygon(s, c.target));
    b->status |= bit(Status::kCharging);
    e.kind = "charge_declared";
    e.subjects.push_back(c.target);
    // The gap tells where each end stands: said only to seats that see both.
    e.text = ref(id) + " declares a charge" + (c.a_outrance ? " à l'outrance" : "") + " on " + ref(c.target) +
             about(id, about(c.target, " (" + in(c.start_gap) + " away)")) +
             (conforms_in_line(*b) ? ", with " + ref(b->conform_to) + ", to which it conforms" : "") + ".";
    events.push_back(std::move(e));
    s.combat.charges.push_back(std::move(c));
  }
}

void apply_charge_responses(GameState& s, const std::vector<Decision>& ds, const std::vector<Answer>& answers,
                            std::vector<Event>& events) {
  for (const auto& d : ds) {
    const std::string opt = answer_for(d, answers);
    const std::string id = after_prefix(d.id, "response/");
    Brigade* b = find_mut(s, id);
    if (b == nullptr) continue;
    // The nearest charger is the decision's second subject's peer: recompute.
    std::string against;
    double gap = kInf;
    for (const auto& c : s.combat.charges) {
      if (!c.counter && c.target == id && c.start_gap < gap) {
        gap = c.start_gap;
        against = c.charger;
      }
    }
    ResponseRecord r;
    r.brigade = id;
    r.against = against;
    Event e;
    e.kind = "charge_response";
    e.subjects = {id, against};
    e.where = {{b->position, id}};
    if (opt == "counter_charge") {
      r.response = ChargeResponse::kCounterCharge;
      ChargeDeclaration c;
      c.charger = id;
      c.target = against;
      c.counter = true;
      c.start = b->position;
      c.start_facing = b->facing_deg;
      c.start_gap = gap;
      s.combat.charges.push_back(std::move(c));
      b->status |= bit(Status::kCharging);
      e.text = ref(id) + " counter-charges " + ref(against) + ".";
    } else if (opt == "evade") {
      r.response = ChargeResponse::kEvade;
      e.text = ref(id) + " will evade " + ref(against) + ".";
    } else if (opt == "about_face") {
      r.response = ChargeResponse::kAboutFace;
      OrderStep st;
      st.action = "about_face";
      StepContext ctx;
      ctx.who = ref(id);
      ctx.under_fire = b->has(Status::kUnderFire);
      ctx.grade = b->grade;
      auto eff = manoeuvre_step(pose_of(*b), st, ctx);
      if (eff) {
        apply_pose(*b, eff->end);
        translate(s, *b, Vec2{});  // attached leaders follow
        e.text = ref(id) + " about faces to meet the charge of " + ref(against) + ".";
        events.push_back(e);
        if (eff->dps > 0) add_dps(s, *b, eff->dps, DpCause::kManoeuvre, events);
        s.combat.responses.push_back(std::move(r));
        continue;
      }
      e.text = ref(id) + " cannot about face (" + eff.error().reason + ") and stands.";
      r.response = ChargeResponse::kStand;
    } else if (opt == "refuse_flank") {
      r.response = ChargeResponse::kRefuseFlank;
      // The movement phase's step back: the end base on the charger's side
      // steps back as far as it may, up to 1", without entering another unit.
      // Offered only where it can; should an earlier response have taken the
      // room, the flank is not refused (RULINGS C5).
      const Brigade* ch = s.find_brigade(against);
      std::string why;
      if (const auto ref_step = refusal(s, *b, ch != nullptr ? env_of(*ch).center : b->position, why)) {
        e.text = ref(id) + " refuses its " + ref_step->step.pivot + " flank to " + ref(against) + ": ";
        apply_pose(*b, ref_step->end);
        translate(s, *b, Vec2{});  // attached leaders follow
        e.text += "the end base steps back " + in(ref_step->back) + ".";
      } else {
        r.response = ChargeResponse::kStand;
        e.text = ref(id) + " cannot refuse its flank to " + ref(against) + " (" + why + ") and stands.";
      }
    } else {
      e.text = ref(id) + " stands to receive the charge of " + ref(against) + ".";
    }
    events.push_back(std::move(e));
    s.combat.responses.push_back(std::move(r));
  }
}

void apply_charge_dice(GameState& s, const std::vector<Decision>& ds, const std::vector<Answer>& answers,
                       std::vector<Event>&) {
  for (const auto& d : ds) {
    const std::string opt = answer_for(d, answers);
    ChargeDeclaration* c = find_charge(s, after_prefix(d.id, "charge_dice/"));
    if (c == nullptr) continue;
    c->dice = opt == "3" ? 3 : opt == "2" ? 2 : opt == "1+d6" ? kOneAvdAndD6 : 1;
  }
}

// ---------------------------------------------------------------------------
// Execution.

void execute_charges(GameState& s, Dice& dice, std::vector<Event>& events) {
  // Last turn's failed charges have had their test and their chance again.
  for (auto& b : s.brigades) b.status &= ~bit(Status::kFailedCharge);
  s.combat.failed.clear();

  // Evades first: "a full fast move away from the chargers".
  for (const auto& r : s.combat.responses) {
    if (r.response != ChargeResponse::kEvade) continue;
    Brigade* b = find_mut(s, r.brigade);
    const Brigade* from = s.find_brigade(r.against);
    if (b == nullptr || from == nullptr) continue;
    evade(s, *b, env_of(*from).center, dice, events);
  }
  for (const auto& id : s.combat.evaders) {
    Brigade* b = find_mut(s, id);
    const Brigade* foot = nullptr;
    if (b == nullptr || !foot_within_one_inch(s, *b, &foot)) continue;
    evade(s, *b, env_of(*foot).center, dice, events);
  }

  for (std::size_t k = 0; k < s.combat.charges.size(); ++k) {
    if (s.combat.charges[k].counter) continue;
    Brigade* b = find_mut(s, s.combat.charges[k].charger);
    if (b == nullptr || !unit_on_table(*b)) continue;
    roll_for(s, *b, s.combat.charges[k], dice, events);
    // A counter-charge against this charger: it moves out to meet it.
    ChargeDeclaration* counter = nullptr;
    for (auto& c : s.combat.charges) {
      if (c.counter && c.charger == s.combat.charges[k].target && c.target == b->id) counter = &c;
    }
    ChargeDeclaration& c = s.combat.charges[k];
    if (counter != nullptr) {
      Brigade* t = find_mut(s, counter->charger);
      if (t != nullptr && unit_on_table(*t)) {
        roll_for(s, *t, *counter, dice, events);
        const auto path = charge_path(env_of(*b), env_of(*t).polygon(), 1000);
        const double gap = path ? path->contact : kInf;
        const double sum = c.inches + counter->inches;
        // Each covers its share of the gap, in proportion to its roll (RULINGS C3).
        const double want = sum >= gap && sum > 0 ? gap * counter->inches / sum : counter->inches;
        const Vec2 fwd = facing_unit(t->facing_deg);
        const Travel tt = travel(s, *t, fwd, want, "");
        translate(s, *t, fwd * tt.distance);
        Event e;
        e.kind = "counter_charge_move";
        e.subjects = {t->id, b->id};
        e.where = {{t->position, t->id}};
        e.text = ref(t->id) + " rides" + about(t->id, " " + in(tt.distance)) + " forward to meet " + ref(b->id) + ".";
        events.push_back(std::move(e));
      }
    }
    const Brigade* target_b = s.find_brigade(c.target);
    const Gun* target_g = s.find_gun(c.target);
    const bool target_there = (target_b != nullptr && unit_on_table(*target_b)) || (target_g != nullptr && gun_fights(*target_g));
    std::optional<ChargePath> path;
    if (target_there) path = charge_path(env_of(*b), unit_polygon(s, c.target), 1000);
    const Vec2 dir = path ? path->dir : facing_unit(b->facing_deg);
    Travel t = travel(s, *b, dir, c.inches, c.target);
    if (path && path->contact <= t.distance + kEps) {
      t.distance = path->contact;
      t.hit = c.target;
      t.enemy = true;
      t.stopped.clear();
    }
    const Vec2 from = b->position;
    translate(s, *b, dir * t.distance);
    Event e;
    e.kind = "charge_move";
    e.subjects = {b->id, c.target};
    e.where = {{from, b->id}, {b->position, b->id}};
    // How far it rode tells where it started: said only to seats that see it.
    const std::string ridden = about(b->id, " " + in(t.distance));
    if (t.enemy) {
      c.contacted = t.hit;
      if (counter != nullptr && t.hit == counter->charger) counter->contacted = b->id;
      e.text = ref(b->id) + " charges" + ridden + " into contact with " + ref(t.hit) +
               (t.hit != c.target ? " (in the way of its charge on " + ref(c.target) + ")" : "") + ".";
      if (t.hit != c.target) e.subjects.push_back(t.hit);
    } else {
      e.text = ref(b->id) + " charges" + ridden + " and fails to contact " + ref(c.target) +
               (t.hit.empty() && t.stopped.empty() ? "" : " (stopped by " + (t.hit.empty() ? t.stopped : ref(t.hit)) + ")") +
               ": it must test next turn.";
      b->status |= bit(Status::kFailedCharge);
      b->status &= ~bit(Status::kCharging);
      s.combat.failed.push_back({b->id, c.target, s.turn});
    }
    events.push_back(std::move(e));
    capture_lone_leaders(s, *b, events);
  }
  // Counter-chargers that met nobody stop where they are; they are not
  // chargers that failed (RULINGS C3).
}

}  // namespace galloper::rules::malbrook
