#include "rules/malbrook/movement.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "rules/core/edit.hpp"
#include "rules/core/tell.hpp"
#include "rules/core/visibility.hpp"
#include "rules/malbrook/basing.hpp"
#include "rules/malbrook/combat.hpp"
#include "rules/malbrook/seats.hpp"
#include "rules/malbrook/sequence.hpp"
#include "rules/malbrook/visibility.hpp"

namespace galloper::rules::malbrook {

namespace {

// A declaration that has its unit moving this step (moving_this_step).
bool declares_a_move(const MoveDeclaration& d) { return d.mode != MoveMode::kNone && !d.executed; }

constexpr double kEps = 1e-6;
constexpr double kInf = std::numeric_limits<double>::infinity();
// How close to a halt line (2" from enemy for cavalry, 6" for double moves)
// a unit must be to count as having halted "at" it.
constexpr double kAtLine = 0.05;
// "there may be a gap of up to ½ inch between brigades in the same command"
constexpr double kCommandGap = 0.5;

std::string in(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", d);
  std::string s(buf);
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s + "\"";
}

Rejection no(std::string code, std::string reason) { return reject(std::move(code), std::move(reason)); }

bool on_table(const Brigade& b) {
  return b.bases > 0 && !b.has(Status::kDestroyed) && !b.has(Status::kSurrendered);
}
bool on_table(const Gun& g) { return !g.has(Status::kCrewEliminated); }

std::string label(const Brigade& b) { return ref(b.id); }
std::string label(const Gun& g) { return ref(g.id); }

bool inspired(const Brigade& b) { return b.inspire_actions > 0 || b.has(Status::kInspired); }

// ---------------------------------------------------------------------------
// The table as the phase sees it: every brigade and gun as a body.

// Whether a unit is all one rectangle, its envelope: a formed brigade laid
// out in its formation, a gun.
bool one_body(const Pose& p) { return p.gun || (p.base_poses.empty() && formed(p.formation)); }

// What a unit occupies, exactly: its envelope when that is all base
// (one_body), else each base (a refused flank, an unformed brigade's spaced
// or freely placed bases).
std::vector<OrientedRect> body_rects(const Pose& p) {
  if (one_body(p)) return {pose_envelope(p)};
  return pose_bases(p);
}

// Bases that meet within a thousandth of an inch touch; they do not stand on
// each other. Splitting and re-laying a brigade's bases (after combat, M18)
// can leave neighbours that close, and a tighter test would then refuse every
// order of a unit that merely stays where it stands (RULINGS M18).
constexpr double kOverlapTolerance = 1e-3;

bool rects_overlap(const std::vector<OrientedRect>& a, const std::vector<OrientedRect>& b) {
  for (const auto& x : a) {
    for (const auto& y : b) {
      if (overlaps(x, y, kOverlapTolerance)) return true;
    }
  }
  return false;
}

// The same, for rectangles whose boxes are given (bounds of their corners).
// Two rectangles overlap only where both lie on every axis, so boxes apart
// settle it without the separating-axis test for each pair (most bodies on
// the table lie far from a move's end).
bool rects_overlap(const std::vector<OrientedRect>& a, const Aabb& a_box, const std::vector<OrientedRect>& b,
                   const Aabb& b_box) {
  return a_box.intersects(b_box) && rects_overlap(a, b);
}

struct Body {
  std::string id;
  std::string army;
  std::string command;
  bool gun = false;
  std::size_t index = 0;
  OrientedRect env;
  Polygon poly;
  Aabb box;
  std::vector<OrientedRect> rects;  // body_rects
  Aabb rects_box;                   // their bounds
  std::vector<Polygon> polys;       // their polygons
  bool formed = true;
  bool routing = false;
  bool fired = false;
  bool moving = false;  // moving_this_step in the Field's state (set by Field)
};

Body make_body(const Brigade& b, std::size_t i) {
  Body o;
  o.id = b.id;
  o.army = b.army;
  o.command = b.command;
  o.index = i;
  const Pose pose = pose_of(b);
  o.env = pose_envelope(pose);
  o.poly = o.env.polygon();
  o.box = o.env.bounds();
  // body_rects, with the envelope worked out above.
  o.rects = one_body(pose) ? std::vector<OrientedRect>{o.env} : pose_bases(pose);
  o.rects_box = bounds(o.rects);
  for (const auto& r : o.rects) o.polys.push_back(r.polygon());
  o.formed = b.formation != Formation::kUnformed;
  o.routing = b.has(Status::kRouting);
  return o;
}

Body make_body(const Gun& g, std::size_t i) {
  Body o;
  o.id = g.id;
  o.army = g.army;
  o.command = g.command;
  o.gun = true;
  o.index = i;
  o.env = pose_envelope(pose_of(g));
  o.poly = o.env.polygon();
  o.box = o.env.bounds();
  o.rects = {o.env};
  o.rects_box = o.box;
  o.polys = {o.poly};
  o.fired = g.has(Status::kFired);
  return o;
}

// Flanking musketry's 1" zone of a foot brigade (RULINGS C18): its 45° front
// arc to `range`, or all round for unformed foot ("facing all-round"), where
// whatever lies within `range` of one of its bases is in it.
struct MusketZone {
  bool all_round = false;
  double range = 0;
  Polygon arc;                 // formed: the front arc
  std::vector<Polygon> bases;  // unformed: each base's outline

  bool reaches(const Polygon& poly) const {
    if (!all_round) return intersects(arc, poly);
    return std::any_of(bases.begin(), bases.end(), [&](const Polygon& q) { return distance(q, poly) <= range; });
  }
};

MusketZone musket_zone(const Brigade& foot, double range) {
  const Pose fp = pose_of(foot);
  MusketZone z;
  z.range = range;
  z.all_round = !formed(fp.formation);
  if (z.all_round) {
    for (const auto& r : body_rects(fp)) z.bases.push_back(r.polygon());
  } else {
    z.arc = front_arc_polygon(pose_envelope(fp), range);
  }
  return z;
}

// Each foot brigade's zone in one state, laid out the first time it is asked
// for: a step's orders and its resolution ask about the same foot for every
// brigade that moves past them.
class MusketZones {
 public:
  explicit MusketZones(const GameState& s) : s_(s), zones_(s.brigades.size()) {}
  const MusketZone& of(std::size_t brigade) const {
    if (!zones_[brigade]) zones_[brigade] = musket_zone(s_.brigades[brigade], kFootCombat + kEps);
    return *zones_[brigade];
  }

 private:
  const GameState& s_;
  mutable std::vector<std::optional<MusketZone>> zones_;
};

class Field {
 public:
  explicit Field(const GameState& s) : s_(s), zones_(s) {
    bodies_.reserve(s.brigades.size() + s.guns.size());
    for (std::size_t i = 0; i < s.brigades.size(); ++i) {
      if (on_table(s.brigades[i])) bodies_.push_back(make_body(s.brigades[i], i));
    }
    for (std::size_t i = 0; i < s.guns.size(); ++i) {
      if (on_table(s.guns[i])) bodies_.push_back(make_body(s.guns[i], i));
    }
    // moving_this_step for every body at once: a unit's first declaration decides.
    std::map<std::string_view, bool> moving;
    for (const auto& d : s.movement.declarations) moving.emplace(d.unit, declares_a_move(d));
    for (auto& o : bodies_) {
      const auto it = moving.find(o.id);
      o.moving = it != moving.end() && it->second;
    }
  }

  const GameState& state() const { return s_; }
  const std::vector<Body>& bodies() const { return bodies_; }
  const MusketZones& musket_zones() const { return zones_; }

  // "Known enemy": enemy the army's seats can see now (visibility.hpp).
  bool known(std::size_t body, std::string_view army) const {
    if (same_id(bodies_[body].army, army)) return true;
    compute_seen();
    const auto it = army_mask_.find(std::string(army));
    return it != army_mask_.end() && (seen_[body] & it->second) != 0;
  }

  // Edge distance from poly to the nearest enemy body (known only: seen).
  // The bodies are tried nearest box first: the gap between two boxes is a
  // lower bound of the distance between what they hold, so once the nearest
  // box left is no nearer than the best distance found, no body can improve
  // it. The minimum is the one trying every body gives; most calls now
  // measure one or two bodies' polygons instead of every body nearer than
  // the best found so far in table order.
  double enemy_dist(std::string_view army, const Polygon& poly, bool known_only) const {
    const Aabb box = poly.bounds();
    gaps_.clear();
    for (std::size_t i = 0; i < bodies_.size(); ++i) {
      if (!same_id(bodies_[i].army, army)) gaps_.push_back({box.distance_to(bodies_[i].box), i});
    }
    double best = kInf;
    for (;;) {
      std::size_t pick = gaps_.size();
      double gap = best;
      for (std::size_t k = 0; k < gaps_.size(); ++k) {
        if (gaps_[k].first < gap) {
          gap = gaps_[k].first;
          pick = k;
        }
      }
      if (pick == gaps_.size()) break;
      const std::size_t i = gaps_[pick].second;
      gaps_[pick].first = kInf;  // tried
      if (known_only && !known(i, army)) continue;
      for (const auto& q : bodies_[i].polys) best = std::min(best, distance(poly, q));
    }
    return best;
  }

  bool enemy_front_within(std::string_view army, const OrientedRect& env, double range) const {
    const Polygon arc = front_arc_polygon(env, range);
    const Aabb box = arc.bounds();
    for (const auto& o : bodies_) {
      if (same_id(o.army, army) || !box.intersects(o.box)) continue;
      for (const auto& q : o.polys) {
        if (intersects(arc, q)) return true;
      }
    }
    return false;
  }

  // "Enemy to their front" for a unit standing where `rects` are (its
  // body_rects) with envelope `env` (RULINGS.md M4): a formed unit's 45°
  // front arc; unformed troops "are considered to be facing all-round", so
  // any enemy within `range` of one of their bases (M13).
  bool enemy_front_within(std::string_view army, bool all_round, const OrientedRect& env,
                          const std::vector<OrientedRect>& rects, double range) const {
    if (!all_round) return enemy_front_within(army, env, range);
    for (const auto& r : rects) {
      if (enemy_dist(army, r.polygon(), false) <= range) return true;
    }
    return false;
  }
  bool enemy_front_within(std::string_view army, const Pose& pose, double range) const {
    return enemy_front_within(army, !pose.gun && !formed(pose.formation), pose_envelope(pose), body_rects(pose),
                              range);
  }

  // "terrain which may contain enemy": a wood or town within 6" that no
  // friendly troops occupy (RULINGS.md).
  bool cover_may_hide_enemy(std::string_view army, const Polygon& poly, double range) const {
    for (const auto& a : s_.terrain.areas()) {
      if (!a.blocks_sight()) continue;
      if (distance(a.outline, poly) > range) continue;
      bool occupied = false;
      for (const auto& o : bodies_) {
        if (o.army == army && std::any_of(o.polys.begin(), o.polys.end(),
                                          [&](const Polygon& q) { return intersects(a.outline, q); })) {
          occupied = true;
          break;
        }
      }
      if (!occupied) return true;
    }
    return false;
  }

  const Body* find(std::string_view id) const {
    for (const auto& o : bodies_) {
      if (same_id(o.id, id)) return &o;
    }
    return nullptr;
  }

 private:
  void compute_seen() const {
    if (seen_computed_) return;
    seen_computed_ = true;
    const std::shared_ptr<const SightTable> sight = sight_table(s_);
    for (std::size_t i = 0; i < sight->seats.size() && i < 64; ++i) {
      if (!sight->seats[i].side.empty()) army_mask_[sight->seats[i].side] |= SeatMask{1} << i;
    }
    seen_.assign(bodies_.size(), 0);
    std::map<std::pair<int, std::size_t>, std::size_t> where;
    for (std::size_t i = 0; i < bodies_.size(); ++i) where[{bodies_[i].gun ? 1 : 0, bodies_[i].index}] = i;
    for (std::size_t k = 0; k < sight->scene.refs.size() && k < sight->seen_by.size(); ++k) {
      const PieceRef& r = sight->scene.refs[k];
      if (r.kind != PieceKind::kBrigade && r.kind != PieceKind::kGun) continue;
      auto it = where.find({r.kind == PieceKind::kGun ? 1 : 0, r.index});
      if (it != where.end()) seen_[it->second] = sight->seen_by[k];
    }
  }

  const GameState& s_;
  std::vector<Body> bodies_;
  MusketZones zones_;
  mutable bool seen_computed_ = false;
  mutable std::vector<SeatMask> seen_;
  mutable std::map<std::string, SeatMask> army_mask_;
  mutable std::vector<std::pair<double, std::size_t>> gaps_;  // enemy_dist's scratch: box gap, body
};

// ---------------------------------------------------------------------------
// Who may move, and with whom.

enum class Right : std::uint8_t { kFree, kHalt, kRepeat, kNone };

Right right_of(const Brigade& b) {
  if (!on_table(b) || b.has(Status::kInCombat)) return Right::kNone;  // "may not move until the combat is resolved"
  if (b.has(Status::kRetiring) && b.has(Status::kMoved)) return Right::kNone;  // continued to retire (after_combat.hpp)
  if (b.has(Status::kRouting) || b.has(Status::kPursuing) || b.has(Status::kEvading)) {
    // Routers and pursuers passing a control test with "act as player
    // wishes" may rally: re-form in place (RULINGS.md M16).
    return b.control == ControlResult::kAsWished && !b.has(Status::kEvading) ? Right::kHalt : Right::kNone;
  }
  if (b.has(Status::kHalted)) return Right::kHalt;
  switch (b.control) {
    case ControlResult::kHalt:
    case ControlResult::kTest: return Right::kHalt;
    case ControlResult::kRepeatLastMove: return Right::kRepeat;
    case ControlResult::kContinue: return Right::kNone;  // continuing rout/pursuit/charge: not here
    default: return Right::kFree;
  }
}

Right right_of(const Gun& g) {
  if (!on_table(g) || g.has(Status::kAbandoned) || g.has(Status::kInCombat)) return Right::kNone;
  if (g.has(Status::kHalted)) return Right::kHalt;
  switch (g.control) {
    case ControlResult::kHalt:
    case ControlResult::kTest: return Right::kHalt;
    case ControlResult::kRepeatLastMove: return Right::kRepeat;
    case ControlResult::kContinue: return Right::kNone;
    default: return Right::kFree;
  }
}

bool has_attached_leader(const GameState& s, const Brigade& b) {
  for (const auto& l : s.leaders) {
    if (l.attached_to == b.id && !l.killed && !l.captured) return true;
  }
  return false;
}

// "Brigades of the same command which are being controlled by the same leader
// move as a single entity using the same die rolls. This applies for brigades
// ... conforming to the movements of a controlled brigade". The lead of a
// brigade's group: the conformed-to brigade's lead, or the first brigade
// (right to left) of the same command controlled by the same detached leader.
std::string group_lead(const GameState& s, const Brigade& b, const std::vector<std::size_t>& order, int depth = 0) {
  if (right_of(b) != Right::kFree || depth > 16) return b.id;
  if (b.control == ControlResult::kConforming && !b.conform_to.empty()) {
    const Brigade* lead = s.find_brigade(b.conform_to);
    if (lead != nullptr && lead->army == b.army && right_of(*lead) == Right::kFree) {
      return group_lead(s, *lead, order, depth + 1);
    }
    return b.id;
  }
  if (b.control != ControlResult::kControlled || b.controlled_by.empty() || has_attached_leader(s, b)) return b.id;
  for (std::size_t i : order) {
    const Brigade& o = s.brigades[i];
    if (o.command == b.command && o.control == ControlResult::kControlled && o.controlled_by == b.controlled_by &&
        right_of(o) == Right::kFree && !has_attached_leader(s, o)) {
      return o.id;
    }
  }
  return b.id;
}

// ---------------------------------------------------------------------------
// Declarations.

std::string option_name(MoveMode mode, std::uint32_t avd, bool d6) {
  switch (mode) {
    case MoveMode::kNone: return "none";
    case MoveMode::kManoeuvre: return "manoeuvre";
    case MoveMode::kRoad: return "road";
    case MoveMode::kDice: return std::to_string(avd) + (d6 ? "+d6" : "");
  }
  return "none";
}

struct ParsedOption {
  MoveMode mode = MoveMode::kNone;
  std::uint32_t avd = 0;
  bool d6 = false;
};

std::optional<ParsedOption> parse_option(std::string_view o) {
  if (o == "none" || o == "halt" || o.empty()) return ParsedOption{};
  if (o == "manoeuvre") return ParsedOption{MoveMode::kManoeuvre, 0, false};
  if (o == "road") return ParsedOption{MoveMode::kRoad, 0, false};
  if (o == "1") return ParsedOption{MoveMode::kDice, 1, false};
  if (o == "2") return ParsedOption{MoveMode::kDice, 2, false};
  if (o == "1+d6") return ParsedOption{MoveMode::kDice, 1, true};
  if (o == "2+d6") return ParsedOption{MoveMode::kDice, 2, true};
  return std::nullopt;
}

std::uint32_t dice_count(MoveMode mode, std::uint32_t avd, bool d6) {
  if (mode == MoveMode::kRoad) return 2;  // "A road move is considered to count as moving two dice"
  if (mode != MoveMode::kDice) return 0;
  return avd + (d6 ? 1 : 0);
}

bool on_road(const GameState& s, Vec2 p) { return s.terrain.on_road(p, 0.25); }

bool road_eligible(const GameState& s, const Brigade& b) {
  return b.formation == Formation::kMarchColumn && on_road(s, b.position);
}
bool road_eligible(const GameState& s, const Gun& g) {
  if (!g.limbered && g.weight == GunWeight::kHeavy) return false;
  return on_road(s, g.position);
}

std::vector<std::string> options_for(const GameState& s, const Brigade& b) {
  const Right r = right_of(b);
  if (r == Right::kNone) return {};
  if (r == Right::kHalt || b.has(Status::kRetiring)) return {"none", "manoeuvre"};
  if (r == Right::kRepeat) {
    if (b.last_move.turn == 0 || b.last_move.turn + 1 != s.turn) return {"none"};
    return {option_name(b.last_move.mode, b.last_move.avd, b.last_move.d6)};
  }
  std::vector<std::string> out;
  if (is_cavalry(b.type)) {
    const auto allowed = cavalry_dice_allowed(b, s.turn);
    auto ok = [&](std::uint32_t n) { return std::find(allowed.begin(), allowed.end(), n) != allowed.end(); };
    if (ok(0)) {
      out.push_back("none");
      out.push_back("manoeuvre");
    }
    if (ok(1)) out.push_back("1");
    if (ok(2)) {
      out.push_back("2");
      out.push_back("1+d6");
    }
    if (ok(3)) out.push_back("2+d6");
    if (ok(2) && road_eligible(s, b)) out.push_back("road");
  } else {
    out = {"none", "manoeuvre", "1", "1+d6"};
    if (road_eligible(s, b)) out.push_back("road");
  }
  return out;
}

std::vector<std::string> options_for(const GameState& s, const Gun& g) {
  const Right r = right_of(g);
  if (r == Right::kNone) return {};
  if (r == Right::kHalt) return {"none", "manoeuvre"};
  if (r == Right::kRepeat) {
    if (g.last_move.turn == 0 || g.last_move.turn + 1 != s.turn) return {"none"};
    return {option_name(g.last_move.mode, g.last_move.avd, g.last_move.d6)};
  }
  std::vector<std::string> out{"none", "manoeuvre"};
  if (g.limbered) {
    out.push_back("1");
    out.push_back("2");
  } else if (g.weight == GunWeight::kLight) {
    out.push_back("1");
  }
  if (road_eligible(s, g)) out.push_back("road");
  return out;
}

std::vector<std::string> intersect(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::string> out;
  for (const auto& x : a) {
    if (std::find(b.begin(), b.end(), x) != b.end()) out.push_back(x);
  }
  return out;
}

bool stale(const GameState& s) {
  return s.movement.stage == MoveStage::kIdle || s.movement.turn != s.turn || s.movement.half != s.half;
}

// A group of units declaring together.
struct Group {
  std::string lead;
  bool gun = false;
  std::vector<std::string> members;  // lead first
  std::vector<std::string> options;
  std::string seat;
};

std::vector<Group> declaration_groups(const GameState& s) {
  std::vector<Group> groups;
  std::map<std::string, std::size_t> by_lead;
  for (const auto& army : acting_armies(s)) {
    const auto order = brigades_right_to_left(s, army);
    for (std::size_t i : order) {
      const Brigade& b = s.brigades[i];
      auto opts = options_for(s, b);
      if (opts.empty()) continue;
      const std::string lead = group_lead(s, b, order);
      auto it = by_lead.find(lead);
      if (it == by_lead.end()) {
        // The lead may come later in right-to-left order than a conforming member.
        by_lead[lead] = groups.size();
        Group g;
        g.lead = lead;
        const Brigade* lb = s.find_brigade(lead);
        g.members.push_back(lead);
        if (lead != b.id) g.members.push_back(b.id);
        g.options = lb != nullptr ? intersect(options_for(s, *lb), opts) : opts;
        g.seat = seat_of(lb != nullptr ? *lb : b);
        groups.push_back(std::move(g));
      } else {
        Group& g = groups[it->second];
        if (std::find(g.members.begin(), g.members.end(), b.id) == g.members.end()) {
          g.members.push_back(b.id);
          g.options = intersect(g.options, opts);
        }
      }
    }
    for (std::size_t i : guns_right_to_left(s, army)) {
      const Gun& gun = s.guns[i];
      auto opts = options_for(s, gun);
      if (opts.empty()) continue;
      Group g;
      g.lead = gun.id;
      g.gun = true;
      g.members = {gun.id};
      g.options = std::move(opts);
      g.seat = seat_of(gun);
      groups.push_back(std::move(g));
    }
  }
  for (auto& g : groups) {
    if (g.options.empty()) g.options = {"none"};
  }
  return groups;
}

std::vector<Decision> declare_decisions(const GameState& s) {
  std::vector<Decision> out;
  for (const auto& g : declaration_groups(s)) {
    Decision d;
    d.id = "dice/" + g.lead;
    d.seat = g.seat;
    d.kind = "move_dice";
    d.subjects = g.members;
    d.prompt = (g.members.size() > 1 ? "Move dice for the group led by " : "Move dice for ") + ref(g.lead) +
               ": none, manoeuvre (no dice), AvD count with an optional +d6, or road. Add an 'objective' step to "
               "declare an objective halt.";
    for (const auto& o : g.options) d.options.push_back({o, o});
    d.default_option = std::find(g.options.begin(), g.options.end(), "none") != g.options.end() ? "none"
                                                                                                   : g.options.front();
    if (!g.gun) {
      if (const Brigade* b = s.find_brigade(g.lead)) {
        d.limits.push_back({"last_turn_dice", static_cast<double>(move_dice_last_turn(*b, s.turn))});
      }
    }
    out.push_back(std::move(d));
  }
  return out;
}

// ---------------------------------------------------------------------------
// Executing an order: the plan of one unit's move.

// A point along an order: `t` of the way through its step `step` (the
// distance of a forward move, incline, side step or step back, the angle of a
// wheel; other steps only at their end, t = 1).
struct PathPoint {
  std::size_t step = 0;
  double t = 1;

  friend bool operator<(const PathPoint& a, const PathPoint& b) {
    return a.step != b.step ? a.step < b.step : a.t < b.t;
  }
};
bool same_point(const PathPoint& a, const PathPoint& b) { return a.step == b.step && std::abs(a.t - b.t) < 1e-3; }

// Flanking musketry (RULINGS C18): an order passing by the flank of enemy
// foot within 1", and where along it the foot may give fire: where it first
// comes within 1", the first point where the most of the foot's bases bear
// on it, and the last point before it leaves their 1" (or ends its order);
// with the dice each would give.
struct FlankPass {
  std::size_t firer = 0;  // index in GameState::brigades
  PathPoint first, most, last;
  int first_dice = 0, most_dice = 0, last_dice = 0;
};

struct Plan {
  std::string unit;
  bool gun = false;
  std::size_t index = 0;
  const MoveDeclaration* decl = nullptr;
  Pose start;
  Pose end;
  std::vector<StepSweep> sweeps;
  double used = 0;  // fraction of the move
  int manoeuvre_dps = 0;
  int obstacle_dps = 0;
  int fatigue_dps = 0;
  bool moved = false;
  bool rough = false;
  bool dismounted = false;
  bool mounted = false;
  std::optional<Vec2> horse_holders_to;
  std::string merge_with;
  std::string split_id;
  std::uint32_t split_count = 0;
  std::vector<OrderStep> steps;
  std::vector<FlankPass> passes;  // foot whose flank it passes (none when planned to a halt)
  bool halted = false;            // planned to a halt by flanking fire
};

// ---------------------------------------------------------------------------
// Flanking musketry (RULINGS C18): "A brigade wishing to pass by the front of
// enemy foot within 1 inch to its flank (without coming into base to base
// contact) will take fire without responding. The enemy chooses at which point
// in the brigade's move they wish to give fire. The brigade must halt its
// movement at that point." The mover orders its move; the foot choose among
// the points of it in their 1" (FlankPass) before it is carried out.

// Enemy foot that may give `mover` flanking fire, moving from `start` into
// `polys` (where it ends, or a step's sweep): formed or unformed foot on the
// table, not routing, retiring or surrendered, whose 1" zone `polys` reach,
// that the mover did not start within 1" of, and that did not fire on it last
// turn ("may move freely"). Gives their indices in `s`, the state `zones`
// were laid out for.
std::vector<std::size_t> flanking_foot(const GameState& s, const MusketZones& zones, const Brigade& mover,
                                       const Pose& start, const std::vector<Polygon>& polys) {
  std::vector<std::size_t> out;
  const Polygon start_poly = pose_envelope(start).polygon();
  for (std::size_t i = 0; i < s.brigades.size(); ++i) {
    const Brigade& f = s.brigades[i];
    if (same_id(f.army, mover.army) || !is_foot(f.type) || !on_table(f) || f.has(Status::kRouting) ||
        f.has(Status::kRetiring) || f.has(Status::kSurrendered)) {
      continue;
    }
    const MusketZone& zone = zones.of(i);
    if (!std::any_of(polys.begin(), polys.end(), [&](const Polygon& p) { return zone.reaches(p); })) continue;
    if (zone.reaches(start_poly) || flanking_fire_given(s, mover.id, f.id)) continue;
    out.push_back(i);
  }
  return out;
}

// "to its flank": at `at` the foot is not to the mover's own front (that is
// close combat for foot; cavalry halt 2" from it). Unformed troops face all
// round. Corner to corner, the two 45° arcs meet on their edges: that counts
// as passing by (the arc is taken a hair narrower).
bool passes_flank_of(const Pose& at, const Brigade& foot) {
  if (!formed(at.formation)) return false;
  return !intersects(front_arc_polygon(pose_envelope(at), kFootCombat + kAtLine, 44.9),
                     pose_envelope(pose_of(foot)).polygon());
}

const MoveDeclaration* find_decl(const GameState& s, std::string_view unit) {
  for (const auto& d : s.movement.declarations) {
    if (d.unit == unit) return &d;
  }
  return nullptr;
}

bool closed_to(const Pose& p) { return p.gun || is_cavalry(p.type); }

// Woods, towns, marshes and very steep hills: "Guns and cavalry may not move
// in dense woods, very steep rocky hillsides, swamps, or built-up areas,
// unless on a road."
const char* closed_terrain(const TerrainMap& t, const Polygon& poly) {
  for (const Area* a : t.areas_overlapping(poly)) {
    if (a->kind == AreaKind::kWood) return "a wood";
    if (a->kind == AreaKind::kTown) return "a town";
    if (a->kind == AreaKind::kMarsh) return "a marsh";
  }
  for (const Hill* h : t.hills_overlapping(poly)) {
    if (h->steep) return "a steep hillside";
  }
  return nullptr;
}

bool leaves_table(const GameState& s, const OrientedRect& r) {
  if (s.table_width <= 0 || s.table_depth <= 0) return false;
  for (Vec2 c : r.corners()) {
    if (c.x < -kEps || c.y < -kEps || c.x > s.table_width + kEps || c.y > s.table_depth + kEps) return true;
  }
  return false;
}

bool sweep_hits_body(const StepSweep& sw, const Body& o) {
  if (!sw.poly.bounds().intersects(o.box)) return false;
  for (const auto& r : o.rects) {
    if (sweep_hits(sw, r)) return true;
  }
  return false;
}

// The polygons a sweep really covers: its parts, or its one polygon.
const std::vector<Polygon>& sweep_areas(const StepSweep& sw, std::vector<Polygon>& scratch) {
  if (!sw.parts.empty()) return sw.parts;
  scratch.assign(1, sw.poly);
  return scratch;
}

const char* impassable_crossed(const TerrainMap& t, const StepSweep& sw) {
  if (sw.wheel) {
    for (const auto& c : t.obstacles_crossed(*sw.wheel)) {
      if (c.feature->impassable && c.via == nullptr) return "impassable terrain";
    }
    return nullptr;
  }
  std::vector<Polygon> scratch;
  for (const auto& area : sweep_areas(sw, scratch)) {
    for (const auto& c : t.obstacles_crossed(area)) {
      if (c.feature->impassable && c.via == nullptr) return "impassable terrain";
    }
  }
  return nullptr;
}

bool moving_this_step(const GameState& s, std::string_view id) {
  const MoveDeclaration* d = find_decl(s, id);
  return d != nullptr && declares_a_move(*d);
}

std::string army_of(const GameState& s, const Plan& p) {
  return p.gun ? s.guns[p.index].army : s.brigades[p.index].army;
}

// A straight step's distance or a wheel's angle, which a PathPoint scales;
// 0 for steps that happen whole.
double step_extent(const OrderStep& st) {
  if (st.action == "wheel") return std::abs(st.angle_deg);
  if (st.action == "forward" || st.action == "incline" || st.action == "side_step" || st.action == "step_back") {
    return st.distance;
  }
  return 0;
}

// The part of `st` up to `t` of its extent.
OrderStep step_part(const OrderStep& st, double t) {
  OrderStep part = st;
  if (st.action == "wheel") part.angle_deg = st.angle_deg * t;
  else part.distance = st.distance * t;
  return part;
}

// `halt`, when given, plans the order to that point only, halted by flanking
// fire: nothing of it after the point, no merge or split, the full-move rule
// excused (RULINGS C18).
Result<Plan> plan_move(const Field& field, const MoveDeclaration& decl, const std::vector<OrderStep>& steps,
                       const PathPoint* halt = nullptr) {
  const GameState& s = field.state();
  Plan p;
  p.unit = decl.unit;
  p.decl = &decl;
  p.steps = steps;
  p.halted = halt != nullptr;
  if (p.halted) {
    // The steps as made: what "repeat last move" repeats.
    p.steps.clear();
    for (std::size_t k = 0; k <= halt->step && k < steps.size(); ++k) {
      if (steps[k].action == "merge" || steps[k].action == "split") continue;
      p.steps.push_back(k == halt->step && halt->t < 1 ? step_part(steps[k], halt->t) : steps[k]);
    }
  }
  std::string who;
  std::string army;
  bool under_fire = false;
  Grade grade = Grade::kC;
  bool controlled = true;
  Right right = Right::kFree;
  bool unformed_status = false;
  const LastMove* last = nullptr;
  const Brigade* brigade = nullptr;
  if (const Brigade* b = s.find_brigade(decl.unit)) {
    brigade = b;
    p.index = static_cast<std::size_t>(b - s.brigades.data());
    p.start = pose_of(*b);
    who = label(*b);
    army = b->army;
    under_fire = b->has(Status::kUnderFire);
    grade = b->grade;
    right = right_of(*b);
    unformed_status = (b->has(Status::kRouting) || b->has(Status::kPursuing) || b->has(Status::kEvading)) &&
                      b->control != ControlResult::kAsWished;
    last = &b->last_move;
  } else if (const Gun* g = s.find_gun(decl.unit)) {
    p.gun = true;
    p.index = static_cast<std::size_t>(g - s.guns.data());
    p.start = pose_of(*g);
    who = label(*g);
    army = g->army;
    under_fire = g->has(Status::kUnderFire);
    right = right_of(*g);
    controlled = g->control == ControlResult::kControlled || g->control == ControlResult::kUnknown;
    last = &g->last_move;
  } else {
    return no("unknown_unit", "No brigade or gun " + decl.unit + ".");
  }
  if (decl.mode == MoveMode::kNone && !steps.empty()) {
    return no("no_move", who + " declared no move this turn.");
  }

  // "Repeat last move": the same manoeuvres in the same order.
  if (right == Right::kRepeat && last != nullptr && !steps.empty()) {
    bool same = last->steps.size() == steps.size();
    for (std::size_t i = 0; same && i < steps.size(); ++i) {
      const OrderStep& a = last->steps[i];
      const OrderStep& b = steps[i];
      same = a.action == b.action && std::abs(a.angle_deg - b.angle_deg) < kEps && a.pivot == b.pivot &&
             a.formation == b.formation;
    }
    if (!same) {
      return no("repeat_last_move", who + " must repeat its last move: the same steps (actions, angles, "
                                          "formations) in the same order.");
    }
  }

  StepContext ctx;
  ctx.who = who;
  ctx.dice = decl.mode == MoveMode::kDice || decl.mode == MoveMode::kRoad;
  ctx.road = decl.mode == MoveMode::kRoad;
  ctx.allowance = decl.allowance;
  ctx.under_fire = under_fire;
  ctx.grade = grade;
  ctx.controlled = controlled;
  ctx.is_unformed_status = unformed_status;

  const bool foot = !p.gun && is_foot(p.start.type);
  const bool cav = !p.gun && is_cavalry(p.start.type);
  Pose cur = p.start;
  double inches_used = 0;
  double fraction_used = 0;
  bool was_in_combat = false;
  bool refused = false;              // a refusing manoeuvre is the brigade's whole move
  // Flanking musketry: each foot whose 1" zone the order enters (RULINGS C18).
  struct Tracking {
    FlankPass pass;
    bool started = false;  // came within 1" to its flank: a pass
    bool ended = false;    // left the 1", or met the foot to its own front
  };
  std::vector<Tracking> tracks;
  double most_base_path = 0;
  std::map<int, double> base_paths;  // unformed bases moved one by one: each one's path
  std::set<const Linear*> obstacles_paid;
  std::size_t real_steps = 0;
  for (std::size_t k = 0; k < steps.size(); ++k) {
    if (halt != nullptr && k > halt->step) break;
    const OrderStep part = halt != nullptr && k == halt->step && halt->t < 1 ? step_part(steps[k], halt->t) : steps[k];
    const OrderStep& st = part;
    if (st.action == "objective") continue;
    if (halt != nullptr && (st.action == "merge" || st.action == "split")) continue;
    if (st.action == "merge") {
      if (p.gun || st.target.empty()) return no("merge", who + ": merge names the brigade to merge with (target).");
      p.merge_with = st.target;
      continue;
    }
    if (st.action == "split") {
      if (p.gun) return no("split", who + ": guns do not split.");
      p.split_id = st.target;
      p.split_count = static_cast<std::uint32_t>(std::lround(st.distance));
      continue;
    }
    if (st.action == "horse_holders") {
      if (!brigade || !brigade->horse_holders || cur.type != TroopType::kDismountedDragoons) {
        return no("horse_holders", who + " has no horse-holder marker to withdraw.");
      }
      if (brigade->horse_holders_moved) {
        return no("horse_holders", who + ": the horses may not move again on their own.");
      }
      const double d = distance(*brigade->horse_holders, st.to);
      if (d > kHorseHolderWithdraw + kEps) {
        return no("too_far", who + ": horse-holders withdraw up to 6\", not " + in(d) + ".");
      }
      p.horse_holders_to = st.to;
      continue;
    }
    if (st.action == "attach" || st.action == "detach") {
      return no("attach", who + ": attaching and detaching leaders only take place in the command phase.");
    }
    ++real_steps;
    if (right == Right::kHalt) {
      const bool facing_only = st.action == "about_face" || st.action == "formation" || st.action == "reform" ||
                               (st.action == "pivot");
      if (!facing_only) {
        return no("halted", who + " is halted: it may only adjust its facing or formation to face a threat.");
      }
    }
    if (refused && st.action != "formation") {
      return no("refused_flank", who + " has refused a flank: that is its whole move this turn.");
    }
    if (ctx.road && st.action != "forward" && st.action != "wheel") {
      return no("road", who + ": a road move is made in march column (or limbered) along the road: forward and "
                              "wheel only.");
    }
    if (was_in_combat) {
      return no("in_combat", who + " came within 1\" of enemy to its front and is in close combat: it may not "
                                   "move on.");
    }
    ctx.within6 = field.enemy_dist(army, pose_envelope(cur).polygon(), false) <= kDoubleMoveBeyond + kEps;
    auto r = manoeuvre_step(cur, st, ctx);
    if (!r) return r.error();
    StepEffect e = std::move(r).value();
    if (e.formation_change) {
      if (ctx.formation_changes == 0) ctx.first_formation_cost = e.fraction;
      ++ctx.formation_changes;
    }
    StepSweep sw = sweep_of(cur, e);
    // Troops and terrain in the way.
    for (const auto& o : field.bodies()) {
      if (same_id(o.id, p.unit) || same_id(o.army, army)) continue;
      if (sweep_hits_body(sw, o)) {
        return no("blocked", "The " + st.action + " of " + who + " would pass through " + ref(o.id) + ".");
      }
    }
    if (const char* what = impassable_crossed(s.terrain, sw)) {
      return no("impassable", "The " + st.action + " of " + who + " would cross " + what + ".");
    }
    if (closed_to(cur) && !ctx.road) {
      std::vector<Polygon> scratch;
      const char* what = nullptr;
      for (const auto& area : sweep_areas(sw, scratch)) {
        if (what == nullptr) what = closed_terrain(s.terrain, area);
      }
      if (what != nullptr) {
        return no("closed_terrain", who + ": guns and cavalry may not move in " + std::string(what) +
                                        " unless on a road.");
      }
    }
    // Crossing major obstacles: "This takes ½ move ... 1 DP (2 if under
    // fire). ... chevaux de frise ... 2 DPs if cavalry cross them (3 if under
    // fire)." Crossed: the line from the footprint's centre before the step
    // to its centre after it meets the obstacle (RULINGS.md).
    if (e.moves) {
      // A base moved on its own: its own centre's path; the brigade pays the
      // ½ move once per obstacle however many of its bases cross it.
      const bool one_base = e.base_index >= 0;
      const Segment centre_path =
          one_base ? Segment{pose_bases(cur)[static_cast<std::size_t>(e.base_index)].center,
                             pose_bases(e.end)[static_cast<std::size_t>(e.base_index)].center}
                   : Segment{pose_envelope(cur).center, pose_envelope(e.end).center};
      for (const auto& c : s.terrain.obstacles_crossed(centre_path)) {
        if (!c.feature->major || c.via != nullptr) continue;
        if (one_base && !obstacles_paid.insert(c.feature).second) continue;
        e.fraction += 0.5;
        if (formed(cur.formation) || cur.gun) {
          int dp = c.feature->kind == LinearKind::kChevauxDeFrise && cav ? 2 : 1;
          if (under_fire) ++dp;
          p.obstacle_dps += dp;
        }
      }
    }
    if (decl.double_move && e.moves) {
      // "as long as their move does not bring them closer than 6 inches of enemy"
      const double d = field.enemy_dist(army, sw.poly, true);
      if (d < kDoubleMoveBeyond - kEps) {
        return no("double_move", who + " is making a double move and must halt at 6\" of known enemy; this " +
                                     st.action + " comes within " + in(d) + ".");
      }
    }
    if (cav && e.moves && field.enemy_front_within(army, e.end, kCavalryHalt - kEps)) {
      return no("cavalry_halt", who + ": cavalry must halt at 2\" of enemy to their front; only a charge goes "
                                      "closer.");
    }
    if (foot && field.enemy_front_within(army, e.end, kFootCombat)) was_in_combat = true;
    if (brigade != nullptr && e.moves && halt == nullptr) {
      // Flanking musketry (RULINGS C18): where along this step the order is
      // within 1" of enemy foot, to its flank. Steps that move without a
      // distance or angle to scale (mount, formation...) only at their end.
      const double whole = step_extent(st);
      const bool scalable = whole > kEps;
      const double dt = scalable ? std::min(1.0, (st.action == "wheel" ? 0.25 : 0.05) / whole) : 1.0;
      const auto pose_at = [&](double t) -> std::optional<Pose> {
        if (!scalable || t >= 1) return e.end;
        if (t <= 0) return cur;
        auto q = manoeuvre_step(cur, step_part(st, t), ctx);
        if (!q) return std::nullopt;
        return q->end;
      };
      std::vector<Polygon> scratch;
      std::vector<std::size_t> near = flanking_foot(s, field.musket_zones(), *brigade, p.start, sweep_areas(sw, scratch));
      for (const auto& tr : tracks) {
        if (tr.started && !tr.ended && std::find(near.begin(), near.end(), tr.pass.firer) == near.end()) {
          near.push_back(tr.pass.firer);
        }
      }
      for (const std::size_t fi : near) {
        auto it = std::find_if(tracks.begin(), tracks.end(), [&](const Tracking& x) { return x.pass.firer == fi; });
        if (it == tracks.end()) {
          tracks.push_back({});
          tracks.back().pass.firer = fi;
          it = tracks.end() - 1;
        }
        Tracking& tr = *it;
        if (tr.ended) continue;
        const Brigade& f = s.brigades[fi];
        const MusketZone& zone = field.musket_zones().of(fi);
        const auto inside = [&](const Pose& q) { return zone.reaches(pose_envelope(q).polygon()); };
        const auto bears = [&](const Pose& q) { return inside(q) && passes_flank_of(q, f); };
        const auto dice_at = [&](const Pose& q) { return flanking_fire_dice(f, pose_envelope(q).polygon()); };
        // The boundary between lo (pred false, or true for `last`) and hi, to 2^-30 of the step.
        const auto bisect = [&](double lo, double hi, const auto& pred, bool want_first) {
          for (int n = 0; n < 30; ++n) {
            const double mid = (lo + hi) / 2;
            const auto q = pose_at(mid);
            const bool yes = q && pred(*q);
            (yes == want_first ? hi : lo) = mid;
          }
          return want_first ? hi : lo;
        };
        double prev = 0;
        for (double t = dt;; t = std::min(t + dt, 1.0)) {
          if (const auto q = pose_at(t)) {
            if (!tr.started && inside(*q)) {
              const double at = scalable ? bisect(prev, t, inside, true) : t;
              const auto qf = pose_at(at);
              // Foot to its own front: close combat (M4), or cavalry halting 2" off, not flanking fire.
              if (!qf || !passes_flank_of(*qf, f)) {
                tr.ended = true;
                break;
              }
              tr.started = true;
              tr.pass.first = tr.pass.most = tr.pass.last = {k, at};
              tr.pass.first_dice = tr.pass.most_dice = tr.pass.last_dice = dice_at(*qf);
            }
            if (tr.started) {
              if (!bears(*q)) {
                // Left it: the last point that bears.
                const double out = scalable ? bisect(prev, t, bears, false) : prev;
                if (out > 0 || tr.pass.last.step == k) {
                  tr.pass.last = {k, std::max(out, tr.pass.last.step == k ? tr.pass.last.t : 0.0)};
                  if (const auto ql = pose_at(tr.pass.last.t)) tr.pass.last_dice = dice_at(*ql);
                }
                tr.ended = true;
                break;
              }
              const int n = dice_at(*q);
              tr.pass.last = {k, t};
              tr.pass.last_dice = n;
              if (n > tr.pass.most_dice) {
                tr.pass.most = {k, t};
                tr.pass.most_dice = n;
              }
            }
          }
          prev = t;
          if (t >= 1.0) break;
        }
      }
    }
    {
      std::vector<Polygon> scratch;
      for (const auto& area : sweep_areas(sw, scratch)) {
        if (s.terrain.is_rough(area, true)) p.rough = true;
      }
    }
    if (e.refuse) refused = true;
    if (e.base_index >= 0) base_paths[e.base_index] += e.base_path;
    if (e.mount) p.mounted = true;
    if (e.dismount) p.dismounted = true;
    p.manoeuvre_dps += e.dps;
    p.moved = p.moved || e.moves;
    inches_used += e.inches;
    fraction_used += e.fraction;
    p.sweeps.push_back(std::move(sw));
    cur = e.end;
  }
  p.end = cur;
  for (const auto& tr : tracks) {
    if (tr.started) p.passes.push_back(tr.pass);
  }
  if (s.terrain.is_rough(pose_envelope(p.start).polygon(), true)) p.rough = true;
  // Bases moving one by one move at once: the move is as long as the
  // furthest any of them goes (RULINGS.md M13).
  for (const auto& [k, path] : base_paths) {
    (void)k;
    most_base_path = std::max(most_base_path, path);
  }
  inches_used += most_base_path;

  // How much of the move the order takes.
  double used = fraction_used;
  if (inches_used > kEps) {
    if (decl.allowance <= kEps) {
      return no("no_dice", who + " has no move distance this turn.");
    }
    used += inches_used / decl.allowance;
  }
  p.used = used;
  if (used > 1 + 1e-9) {
    if (decl.allowance > 0) {
      return no("too_far", who + " has " + in(decl.allowance) + " this turn; its order needs " +
                               in(used * decl.allowance) + " (" + in(inches_used) + " of movement" +
                               (fraction_used > 0 ? " plus manoeuvres taking " +
                                                        std::to_string(static_cast<int>(std::lround(fraction_used * 100))) +
                                                        "% of the move"
                                                  : std::string()) +
                               ").");
    }
    return no("too_much", who + "'s manoeuvres take more than one full move.");
  }
  if (decl.mode == MoveMode::kRoad) {
    // "the move begins and ends on a road"
    if (!on_road(s, p.end.position)) return no("road", who + ": a road move must end on the road.");
  }
  if (p.gun && p.start.limbered && decl.mode == MoveMode::kDice && decl.avd > 1 && p.rough) {
    return no("gun_rough", who + ": limbered guns move 1 AvD in rough terrain, not 2.");
  }
  const OrientedRect end_env = pose_envelope(p.end);
  const std::vector<OrientedRect> end_rects = body_rects(p.end);
  const Aabb end_box = bounds(end_rects);
  for (const auto& r : end_rects) {
    if (leaves_table(s, r)) return no("off_table", "The order of " + who + " would take it off the table.");
  }
  if (!p.gun && p.end.formation == Formation::kUnformed && !p.end.base_poses.empty()) {
    // "Bases of the same unformed brigade may not, however, be separated by more than 1 inch."
    if (auto why = unformed_spacing_problem(pose_bases(p.end))) {
      return no("unformed_spacing", who + ": " + *why + "; bases of an unformed brigade may not be separated by "
                                          "more than 1\".");
    }
  }

  // Where it ends: not on top of anything that stays put this step.
  for (const auto& o : field.bodies()) {
    if (same_id(o.id, p.unit)) continue;
    if (o.moving) continue;  // judged once every order is in
    if (rects_overlap(end_rects, end_box, o.rects, o.rects_box)) {
      return no("overlap", who + " would end on top of " + ref(o.id) + ".");
    }
  }

  // "Brigades must move the full amount indicated by the dice rolled except..."
  if (decl.mode == MoveMode::kDice && real_steps > 0 && used < 1 - 1e-6) {
    const double short_by = (1 - used) * decl.allowance;
    // A refused flank: the rest of the brigade "remain[s] in place" (RULINGS.md M21).
    bool excused = decl.objective || refused;
    if (!excused && cav && field.enemy_front_within(army, p.end, kCavalryHalt + kAtLine)) excused = true;
    if (!excused && decl.double_move &&
        field.enemy_dist(army, end_env.polygon(), true) <= kDoubleMoveBeyond + kAtLine) {
      excused = true;
    }
    // Halted by flanking fire, or passing foot that will halt it (RULINGS C18).
    if (!excused && (was_in_combat || p.halted || !p.passes.empty())) excused = true;
    if (!excused) {
      // What carrying on straight ahead for the rest of the move would meet.
      const Vec2 d = facing_unit(p.end.facing_deg) * short_by;
      StepSweep on;
      on.poly = sweep_straight(end_env, d);
      const OrientedRect on_end = end_env.translated(d);
      bool blocked = leaves_table(s, on_end) || impassable_crossed(s.terrain, on) != nullptr ||
                     (closed_to(p.end) && closed_terrain(s.terrain, on.poly) != nullptr);
      bool halt_short = false;
      for (const auto& o : field.bodies()) {
        if (o.id == p.unit || !sweep_hits_body(on, o)) continue;
        if (o.army != army) blocked = true;
        else halt_short = true;  // "interpenetrate a friendly brigade"
      }
      if (!halt_short) {
        // "move into or across a terrain feature"
        const auto now_in = s.terrain.areas_overlapping(end_env.polygon());
        for (const Area* a : s.terrain.areas_overlapping(on.poly)) {
          if (std::find(now_in.begin(), now_in.end(), a) == now_in.end()) halt_short = true;
        }
        if (!s.terrain.obstacles_crossed(on.poly).empty()) halt_short = true;
        const auto hills_now = s.terrain.hills_overlapping(end_env.polygon());
        for (const Hill* h : s.terrain.hills_overlapping(on.poly)) {
          if (std::find(hills_now.begin(), hills_now.end(), h) == hills_now.end()) halt_short = true;
        }
      }
      // "or come into combat"
      const bool all_round = !p.gun && !formed(p.end.formation);
      std::vector<OrientedRect> on_rects;
      for (const auto& r : end_rects) on_rects.push_back(r.translated(d));
      if (!halt_short && foot && field.enemy_front_within(army, all_round, on_end, on_rects, kFootCombat)) {
        halt_short = true;
      }
      if (!halt_short && cav && field.enemy_front_within(army, all_round, on_end, on_rects, kCavalryHalt)) {
        halt_short = true;
      }
      excused = blocked || (halt_short && short_by <= kHaltShort + kEps);
    }
    if (!excused) {
      return no("short_move", who + " rolled " + in(decl.allowance) + " and its order moves " +
                                  in(used * decl.allowance) + ": brigades must move the full amount rolled unless "
                                  "halting at a declared objective, cavalry at 2\" of enemy, a double move at 6\" "
                                  "of known enemy, or up to 2\" short of friends, a terrain feature or combat.");
    }
  }

  // Fatigue and disorder from the dice.
  if (decl.mode == MoveMode::kDice && real_steps > 0) {
    p.fatigue_dps = fatigue_dps(decl.faces, p.start, p.rough);
  }

  // Split and merge requirements that one order can settle.
  if (!p.split_id.empty() || p.split_count > 0) {
    // Only the army's own ids count as used: refusing an enemy's would tell
    // the seat it exists (RULINGS R21); do_split then takes a free id.
    const Brigade* bb = s.find_brigade(p.split_id);
    const Gun* gg = s.find_gun(p.split_id);
    const Leader* ll = s.find_leader(p.split_id);
    if (p.split_id.empty() || (bb != nullptr && bb->army == army) || (gg != nullptr && gg->army == army) ||
        (ll != nullptr && ll->army == army)) {
      return no("split", who + ": a split names a new, unused brigade id (target).");
    }
    if (p.split_count < 1 || p.split_count >= p.end.bases) {
      return no("split", who + ": a split takes 1 to " + std::to_string(p.end.bases - 1) +
                             " bases (OrderStep.distance = the number of bases).");
    }
    if (has_refused_flank(p.end)) return no("split", who + ": straighten the refused flank before splitting.");
    if (p.end.formation != Formation::kLine && p.end.formation != Formation::kMarchColumn &&
        p.end.formation != Formation::kUnformed) {
      return no("split", who + ": split from a line, a march column or an unformed brigade.");
    }
  }
  if (!p.merge_with.empty()) {
    const Brigade* t = s.find_brigade(p.merge_with);
    if (t == nullptr || t->army != army || t->id == p.unit) {
      return no("merge", who + ": " + p.merge_with + " is not a friendly brigade to merge with.");
    }
    if (t->type != p.end.type) {
      return no("merge", who + ": only brigades of the same troop type merge (" + std::string(to_string(t->type)) +
                             " and " + std::string(to_string(p.end.type)) + ").");
    }
    if (!moving_this_step(s, t->id) && !in_contact(end_env, pose_envelope(pose_of(*t)), kCommandGap + kEps)) {
      return no("merge", who + " must end in base-to-base contact with " + ref(t->id) + " to merge.");
    }
  }
  if (p.mounted) {
    if (!brigade || !brigade->horse_holders ||
        distance(pose_envelope(p.start).polygon(),
                 OrientedRect::from_front_mid(*brigade->horse_holders, 0.01, 0.01, 0).polygon()) >
            kRemountDistance + kEps) {
      return no("mount", who + " must be within 1\" of its horse-holder marker to remount.");
    }
  }
  return p;
}

// ---------------------------------------------------------------------------

std::string decision_unit(std::string_view id, std::string_view prefix) {
  if (id.substr(0, prefix.size()) != prefix) return {};
  return std::string(id.substr(prefix.size()));
}

std::vector<Decision> execute_decisions(const GameState& s) {
  std::vector<Decision> out;
  for (const auto& d : s.movement.declarations) {
    if (d.mode == MoveMode::kNone || d.executed) continue;
    Decision x;
    x.id = "move/" + d.unit;
    x.kind = "move";
    x.subjects = {d.unit};
    if (const Brigade* b = s.find_brigade(d.unit)) x.seat = seat_of(*b);
    if (const Gun* g = s.find_gun(d.unit)) x.seat = seat_of(*g);
    x.prompt = "Order for " + ref(d.unit) + ": " +
               (d.mode == MoveMode::kManoeuvre ? std::string("manoeuvre without dice")
                                               : in(d.allowance) + (d.double_move ? " (double move)" : "")) +
               ".";
    x.default_option = "halt";
    x.limits.push_back({"allowance", d.allowance});
    x.limits.push_back({"double", d.double_move ? 1.0 : 0.0});
    x.limits.push_back({"objective", d.objective ? 1.0 : 0.0});
    out.push_back(std::move(x));
  }
  for (const auto& army : acting_armies(s)) {
    for (std::size_t i : leaders_right_to_left(s, army)) {
      const Leader& l = s.leaders[i];
      if (l.killed || l.captured || !l.attached_to.empty()) continue;
      Decision x;
      x.id = "leader/" + l.id;
      x.kind = "leader_move";
      x.seat = seat_of(l);
      x.subjects = {l.id};
      x.prompt = "Move " + ref(l.id) + " up to 6\" (12\" beyond 6\" of enemy), or stay.";
      x.default_option = "stay";
      x.limits.push_back({"max_distance", kLeaderMoveInches});
      out.push_back(std::move(x));
    }
  }
  return out;
}

std::vector<Decision> skirmish_decisions(const GameState& s) {
  std::vector<Decision> out;
  for (std::size_t i = 0; i < s.movement.skirmishers.size(); ++i) {
    const Brigade* b = s.find_brigade(s.movement.skirmishers[i]);
    if (b == nullptr) continue;
    Decision x;
    x.id = "skirmish/" + b->id;
    x.kind = "skirmish_withdrawal";
    x.seat = seat_of(*b);
    x.subjects = {b->id};
    if (i < s.movement.threats.size()) x.subjects.push_back(s.movement.threats[i]);
    x.prompt = ref(b->id) + " (dismounted dragoons) is approached within 2\" by formed enemy: withdraw to 2\", or stand.";
    x.options = {{"withdraw", "withdraw"}, {"stand", "stand"}};
    x.default_option = "stand";
    out.push_back(std::move(x));
  }
  return out;
}

// Whether declaration_groups(s) has any group: some brigade or gun of an
// acting army has move options (each such piece makes or joins a group).
// Stops at the first, without laying the groups out.
bool any_declaration(const GameState& s) {
  for (const auto& army : acting_armies(s)) {
    for (const auto& b : s.brigades) {
      if (same_id(b.army, army) && !options_for(s, b).empty()) return true;
    }
    for (const auto& g : s.guns) {
      if (same_id(g.army, army) && !options_for(s, g).empty()) return true;
    }
  }
  return false;
}

MoveStage effective_stage(const GameState& s) {
  if (s.phase != Phase::kMovement) return MoveStage::kDone;
  MoveStage st = stale(s) ? MoveStage::kDeclare : s.movement.stage;
  if (st == MoveStage::kIdle) st = MoveStage::kDeclare;
  if (st == MoveStage::kDeclare) {
    assert(any_declaration(s) == !declaration_groups(s).empty());
    if (!any_declaration(s)) st = MoveStage::kExecute;
  }
  if (st == MoveStage::kExecute && stale(s)) {
    // No declarations this phase: only leaders may move.
  }
  return st;
}

std::vector<Decision> flank_fire_decisions(const GameState& s);

// The state as the decisions of `stage` see it (a stale stamp means no declarations yet).
std::vector<Decision> pending_for(const GameState& s, MoveStage st) {
  switch (st) {
    case MoveStage::kDeclare: return declare_decisions(s);
    case MoveStage::kExecute: {
      if (stale(s)) {
        GameState copy = s;  // rare: nothing to declare; leaders only
        copy.movement = {};
        copy.movement.turn = s.turn;
        copy.movement.half = s.half;
        copy.movement.stage = MoveStage::kExecute;
        auto out = execute_decisions(copy);
        s.sight_memo.take_from(copy.sight_memo);
        return out;
      }
      return execute_decisions(s);
    }
    case MoveStage::kSkirmish: return skirmish_decisions(s);
    case MoveStage::kFlankFire: return flank_fire_decisions(s);
    default: return {};
  }
}

const Decision* find_decision(const std::vector<Decision>& ds, std::string_view id) {
  for (const auto& d : ds) {
    if (d.id == id) return &d;
  }
  return nullptr;
}

Verdict check_declaration(const GameState& s, const Decision& d, const Answer& a) {
  const std::string opt = a.option.empty() ? d.default_option : a.option;
  bool listed = false;
  for (const auto& o : d.options) listed = listed || o.id == opt;
  if (!listed) {
    std::string list;
    for (const auto& o : d.options) list += (list.empty() ? "" : ", ") + o.id;
    return no("bad_option", ref(d.subjects.front()) + " may not declare \"" + opt + "\" now; it may declare: " + list + ".");
  }
  for (const auto& st : a.steps) {
    if (st.action != "objective") {
      return no("bad_step", "A move-dice declaration takes only an 'objective' step, not '" + st.action + "'.");
    }
    if (opt != "1" && opt != "2" && opt != "1+d6" && opt != "2+d6") {
      return no("objective", "An objective halt is declared with a diced move.");
    }
  }
  (void)s;
  return Ok{};
}

Verdict check_leader(const GameState& s, const Field& field, const Answer& a, std::string_view id) {
  const Leader* l = s.find_leader(id);
  if (l == nullptr) return no("unknown_leader", "No leader " + std::string(id) + ".");
  if (a.steps.empty()) return Ok{};
  if (a.steps.size() > 1 || a.steps.front().action != "move_to") {
    return no("leader_move", "A leader's movement-phase order is one 'move_to' step (attach and detach only take "
                             "place in the command phase).");
  }
  const Vec2 to = a.steps.front().to;
  const double d = distance(l->position, to);
  const OrientedRect from_r = footprint(*l);
  const OrientedRect to_r = OrientedRect::from_front_mid(to, from_r.width, from_r.depth, l->facing_deg);
  const bool far = field.enemy_dist(l->army, from_r.polygon(), false) > kDoubleMoveBeyond + kEps &&
                   field.enemy_dist(l->army, to_r.polygon(), false) > kDoubleMoveBeyond + kEps;
  const double max = kLeaderMoveInches * (far ? 2 : 1);
  if (d > max + kEps) {
    return no("too_far", ref(l->id) + " may move up to " + in(max) + (far ? " (double, beyond 6\" of enemy)" : "") +
                             ", not " + in(d) + ".");
  }
  if (leaves_table(s, to_r)) return no("off_table", ref(l->id) + " would leave the table.");
  return Ok{};
}

// ---------------------------------------------------------------------------
// Applying.

void dp_event(std::vector<Event>& events, const std::string& id, Vec2 where, int n, const std::string& why) {
  if (n <= 0) return;
  Event e;
  e.kind = "dp";
  e.text = ref(id) + " takes " + std::to_string(n) + " DP" + (n > 1 ? "s" : "") + " (" + why + ").";
  e.subjects = {id};
  e.where = {{where, id}};
  events.push_back(std::move(e));
}

void add_dps_to(GameState& s, const std::string& id, int n, const std::string& why, std::vector<Event>& events) {
  if (n <= 0) return;
  if (Brigade* b = const_cast<Brigade*>(s.find_brigade(id))) {
    const std::uint32_t before = b->dps;
    add_movement_dps(b->dps, n);
    dp_event(events, id, b->position, static_cast<int>(b->dps - before), why);
  } else if (Gun* g = const_cast<Gun*>(s.find_gun(id))) {
    const std::uint32_t before = g->dps;
    add_movement_dps(g->dps, n);
    dp_event(events, id, g->position, static_cast<int>(g->dps - before), why);
  }
}

void place_attached_leaders(GameState& s, const Brigade& b) {
  for (auto& l : s.leaders) {
    if (l.attached_to == b.id) {
      l.position = attached_leader_position(b);
      l.facing_deg = b.facing_deg;
    }
  }
}

void do_merge(GameState& s, const std::string& mover_id, const std::string& target_id, std::vector<Event>& events) {
  Brigade* m = const_cast<Brigade*>(s.find_brigade(mover_id));
  Brigade* t = const_cast<Brigade*>(s.find_brigade(target_id));
  if (m == nullptr || t == nullptr) return;
  const OrientedRect te = pose_envelope(pose_of(*t));
  const OrientedRect me = pose_envelope(pose_of(*m));
  Brigade merged = *t;
  merged.bases = t->bases + m->bases;
  // The new brigade stands in its formation's layout (RULINGS.md M18).
  merged.base_poses.clear();
  merged.dps = std::max(t->dps, m->dps);  // "take on the DPs of the component brigade which has the most"
  merged.status |= m->status & static_cast<std::uint32_t>(Status::kMoved);
  if (directly_behind(te, me, kCommandGap + kEps, 0.05)) {
    // Reinforcing or supporting from behind: the new brigade is deeper.
    Pose p = pose_of(merged);
    if (t->formation == Formation::kLine || t->formation == Formation::kTwoRankLine) {
      if (formation_allowed(p, Formation::kTwoRankLine)) merged.formation = Formation::kTwoRankLine;
      else if (formation_allowed(p, Formation::kFieldColumn)) merged.formation = Formation::kFieldColumn;
      else merged.formation = Formation::kMarchColumn;
    }
  } else {
    // Side by side: one line across both frontages.
    std::vector<OrientedRect> all = pose_bases(pose_of(*t));
    for (const auto& r : pose_bases(pose_of(*m))) all.push_back(r);
    merged.position = envelope(all, t->facing_deg).front_mid();
  }
  for (auto& l : s.leaders) {
    if (l.attached_to == m->id) l.attached_to = t->id;
  }
  *t = merged;
  Event e;
  e.kind = "merged";
  e.text = ref(mover_id) + " merges into " + ref(target_id) + " (" + std::to_string(merged.bases) + " bases, " +
           std::to_string(merged.dps) + " DPs).";
  e.subjects = {mover_id, target_id};
  e.where = {{merged.position, target_id}};
  events.push_back(std::move(e));
  const std::string gone = m->id;
  std::erase_if(s.brigades, [&](const Brigade& b) { return b.id == gone; });
  place_attached_leaders(s, *s.find_brigade(target_id));
}

// The split order: the last `n` bases (a line's rightmost, a column's rear).
// `wanted`, or when a piece has that id (the enemy's, or another split of
// this step), the first "<wanted>_<n>" none has.
std::string free_id(const GameState& s, const std::string& wanted) {
  const auto used = [&](const std::string& id) {
    return s.find_brigade(id) != nullptr || s.find_gun(id) != nullptr || s.find_leader(id) != nullptr;
  };
  if (!used(wanted)) return wanted;
  for (int n = 2;; ++n) {
    std::string id = wanted + "_" + std::to_string(n);
    if (!used(id)) return id;
  }
}

void do_split(GameState& s, const std::string& id, const std::string& new_id, std::uint32_t n,
              std::vector<Event>& events) {
  const Brigade* b = s.find_brigade(id);
  if (b == nullptr) return;
  std::vector<std::size_t> off;
  for (std::size_t i = b->bases - n; i < b->bases; ++i) off.push_back(i);
  split_brigade(s, id, free_id(s, new_id), off, events);
}

// Moves a skirmisher directly away from `threat` until 2" clear. False (and
// no change) if it cannot get clear without hitting troops, impassable
// terrain or the table edge.
bool skirmish_withdraw(GameState& s, Brigade& b, const Brigade& threat) {
  const Field field(s);
  const OrientedRect te = pose_envelope(pose_of(threat));
  Pose p = pose_of(b);
  for (int i = 0; i < 6; ++i) {
    const OrientedRect env = pose_envelope(p);
    const double d = distance(env, te);
    if (d >= kSkirmishDistance - kEps) break;
    Vec2 dir = env.center - te.center;
    const double len = length(dir);
    dir = len > kEps ? dir * (1 / len) : facing_unit(threat.facing_deg);
    p.position = p.position + dir * (kSkirmishDistance - d + 0.01);
  }
  const OrientedRect end = pose_envelope(p);
  if (distance(end, te) < kSkirmishDistance - kEps || leaves_table(s, end)) return false;
  StepSweep sw;
  sw.poly = sweep_straight(pose_envelope(pose_of(b)), p.position - b.position);
  if (impassable_crossed(s.terrain, sw) != nullptr) return false;
  const std::vector<OrientedRect> rects = body_rects(p);
  const Aabb box = bounds(rects);
  for (const auto& o : field.bodies()) {
    if (o.id == b.id) continue;
    if (rects_overlap(rects, box, o.rects, o.rects_box)) return false;
  }
  const Vec2 shift = p.position - b.position;
  b.position = p.position;
  for (auto& bp : b.base_poses) bp.center = bp.center + shift;
  return true;
}

// The stage's decisions for each resolve_*: `owed` when given
// (movement_resolve; debug builds hold it to the list worked out), else the
// list worked out, kept in `own`.
template <class WorkOut>
const std::vector<Decision>& stage_decisions(const std::vector<Decision>* owed, std::vector<Decision>& own,
                                             const WorkOut& work_out) {
  assert(owed == nullptr || *owed == work_out());
  if (owed != nullptr) return *owed;
  own = work_out();
  return own;
}

Verdict resolve_declare(GameState& s, const std::vector<Answer>& answers, Dice& dice, std::vector<Event>& events,
                        const std::vector<Decision>* owed) {
  std::vector<Decision> own;
  const std::vector<Decision>& decisions = stage_decisions(owed, own, [&] { return declare_decisions(s); });
  std::map<std::string, const Answer*> by_id;
  for (const auto& a : answers) by_id[a.decision_id] = &a;
  for (const auto& a : answers) {
    const Decision* d = find_decision(decisions, a.decision_id);
    if (d == nullptr) return no("no_decision", "Nothing is asked as \"" + a.decision_id + "\" now.");
    if (a.seat != d->seat) return no("wrong_seat", "Decision " + d->id + " is owed by " + d->seat + ".");
    if (auto v = check_declaration(s, *d, a); !v) return v;
  }
  const Field field(s);
  std::vector<MoveDeclaration> decls;
  for (const auto& d : decisions) {
    const auto it = by_id.find(d.id);
    const std::string opt = it == by_id.end() || it->second->option.empty() ? d.default_option : it->second->option;
    bool objective = false;
    if (it != by_id.end()) {
      for (const auto& st : it->second->steps) objective = objective || st.action == "objective";
    }
    const ParsedOption po = parse_option(opt).value_or(ParsedOption{});
    std::vector<int> faces;
    if (po.mode == MoveMode::kDice) faces = roll_move_dice(dice, po.avd, po.d6);
    Event ev;
    ev.kind = "move_dice";
    ev.subjects = d.subjects;
    ev.dice = dice.drain();
    const bool group = d.subjects.size() > 1;
    std::string declared = " declares " + opt + (group ? " with its group" : "") +
                           (objective ? " (halting at an objective)" : "");
    if (!faces.empty()) {
      int total = 0;
      for (int f : faces) total += f;
      declared += ": rolled " + std::to_string(total);
    }
    declared += ".";
    // A group moves on one roll: each member is told only to the seats that
    // see it, so none learns of a member it does not see.
    for (std::size_t k = 0; k < d.subjects.size(); ++k) {
      const std::string said = ref(d.subjects[k]) + declared;
      ev.text += group ? about(d.subjects[k], (k == 0 ? "" : " ") + said) : said;
    }
    for (const auto& unit : d.subjects) {
      MoveDeclaration md;
      md.unit = unit;
      md.lead = d.subjects.front();
      md.mode = po.mode;
      md.avd = po.avd;
      md.d6 = po.d6;
      md.objective = objective;
      md.faces = faces;
      std::string army;
      OrientedRect env;
      bool insp = false;
      double road = kRoadMove;
      if (const Brigade* b = s.find_brigade(unit)) {
        army = b->army;
        env = pose_envelope(pose_of(*b));
        insp = inspired(*b);
        ev.where.push_back({b->position, unit});
      } else if (const Gun* g = s.find_gun(unit)) {
        army = g->army;
        env = pose_envelope(pose_of(*g));
        if (!g->limbered) road = g->weight == GunWeight::kLight ? kRoadLightGun : kRoadMediumGun;
        ev.where.push_back({g->position, unit});
      }
      if (po.mode == MoveMode::kDice || po.mode == MoveMode::kRoad) {
        const Polygon poly = env.polygon();
        md.double_move = field.enemy_dist(army, poly, true) > kDoubleMoveBeyond + kEps &&
                         !field.cover_may_hide_enemy(army, poly, kDoubleMoveBeyond);
      }
      if (po.mode == MoveMode::kDice) md.allowance = move_inches(faces, insp, md.double_move);
      if (po.mode == MoveMode::kRoad) md.allowance = road * (md.double_move ? 2 : 1);
      decls.push_back(std::move(md));
    }
    events.push_back(std::move(ev));
  }
  s.movement.declarations = std::move(decls);
  s.movement.skirmishers.clear();
  s.movement.threats.clear();
  s.movement.stage = MoveStage::kExecute;
  return Ok{};
}

// What MoveChecks keeps of the orders it checked: the field it laid out and
// each order's plan, by decision, with the steps it was planned for.
struct CheckedOrders {
  explicit CheckedOrders(const GameState& s) : field(s) {}
  Field field;
  std::map<std::string, Plan, std::less<>> plans;
};

// The step's orders, planned: each unit's plan and the detached leaders' moves.
struct Orders {
  std::vector<Plan> plans;
  std::vector<std::pair<std::string, Vec2>> leader_moves;
};

bool ends_overlap(const Plan& a, const Plan& b) {
  const auto ra = body_rects(a.end);
  const auto rb = body_rects(b.end);
  return rects_overlap(ra, bounds(ra), rb, bounds(rb)) && a.merge_with != b.unit && b.merge_with != a.unit;
}

// `checked`, when given, was made on a state whose pieces and declarations
// are s's (movement_resolve): the orders are planned on its field, and an
// order it planned for the same steps takes that plan (plan_move depends only
// on the field, the declaration and the steps).
Result<Orders> plan_orders(const GameState& s, const Field& field, const std::vector<Decision>& decisions,
                           const std::vector<Answer>& answers, const CheckedOrders* checked) {
  Orders out;
  std::vector<Plan>& plans = out.plans;
  std::map<std::string, const Answer*> by_id;
  for (const auto& a : answers) {
    const Decision* d = find_decision(decisions, a.decision_id);
    if (d == nullptr) return no("no_decision", "Nothing is asked as \"" + a.decision_id + "\" now.");
    if (a.seat != d->seat) return no("wrong_seat", "Decision " + d->id + " is owed by " + d->seat + ".");
    by_id[a.decision_id] = &a;
  }
  for (const auto& d : decisions) {
    const auto it = by_id.find(d.id);
    const std::vector<OrderStep> none;
    const std::vector<OrderStep>& steps = it == by_id.end() ? none : it->second->steps;
    if (d.kind == "leader_move") {
      const std::string id = decision_unit(d.id, "leader/");
      if (it != by_id.end()) {
        if (auto v = check_leader(s, field, *it->second, id); !v) return v.error();
        if (!steps.empty()) out.leader_moves.emplace_back(id, steps.front().to);
      }
      continue;
    }
    const MoveDeclaration* md = find_decl(s, decision_unit(d.id, "move/"));
    if (md == nullptr) continue;
    if (checked != nullptr) {
      if (auto kept = checked->plans.find(d.id); kept != checked->plans.end() && kept->second.steps == steps) {
        plans.push_back(kept->second);
        plans.back().decl = md;
#ifndef NDEBUG
        // Debug builds (the tests) plan it again and hold the kept plan to it.
        auto again = plan_move(field, *md, steps);
        const Plan& k = plans.back();
        assert(again && pose_bases(again.value().end) == pose_bases(k.end) && again.value().used == k.used &&
               again.value().moved == k.moved && again.value().sweeps.size() == k.sweeps.size() &&
               again.value().manoeuvre_dps == k.manoeuvre_dps && again.value().obstacle_dps == k.obstacle_dps &&
               again.value().fatigue_dps == k.fatigue_dps && again.value().merge_with == k.merge_with &&
               again.value().split_id == k.split_id && again.value().horse_holders_to == k.horse_holders_to &&
               again.value().passes.size() == k.passes.size());
#endif
        continue;
      }
    }
    auto r = plan_move(field, *md, steps);
    if (!r) return r.error();
    plans.push_back(std::move(r).value());
  }
  // Moves are simultaneous: no two units may end on top of each other.
  std::vector<std::vector<OrientedRect>> ends;
  std::vector<Aabb> end_boxes;
  for (const auto& p : plans) {
    ends.push_back(body_rects(p.end));
    end_boxes.push_back(bounds(ends.back()));
  }
  for (std::size_t i = 0; i < plans.size(); ++i) {
    for (std::size_t j = i + 1; j < plans.size(); ++j) {
      if (rects_overlap(ends[i], end_boxes[i], ends[j], end_boxes[j]) && plans[i].merge_with != plans[j].unit &&
          plans[j].merge_with != plans[i].unit) {
        Rejection r = no("overlap", ref(plans[i].unit) + " and " + ref(plans[j].unit) + " would end on top of each other.");
        r.decisions = {"move/" + plans[i].unit, "move/" + plans[j].unit};
        return r;
      }
    }
  }
  return out;
}

// ---- Flanking musketry's point of fire (RULINGS C18) ----

// One foot brigade's choice of where to fire on one order: the points open
// to it (distinct, and not beyond the point where another foot's last chance
// to fire would have halted the brigade anyway), with their dice.
struct FireChoice {
  std::size_t plan = 0;  // in Orders::plans
  std::size_t pass = 0;  // in that plan's passes
  std::vector<std::string> names;
  std::vector<PathPoint> points;
  std::vector<int> dice;
};

std::string fire_decision_id(const GameState& s, const Plan& p, const FlankPass& f) {
  return "flank_fire/" + s.brigades[f.firer].id + "/" + p.unit;
}

std::vector<FireChoice> fire_choices(const Orders& o) {
  std::vector<FireChoice> out;
  for (std::size_t i = 0; i < o.plans.size(); ++i) {
    const Plan& p = o.plans[i];
    if (p.passes.empty()) continue;
    PathPoint reach = p.passes.front().last;  // it halts at the latest by the earliest last point
    for (const auto& f : p.passes) reach = std::min(reach, f.last);
    for (std::size_t k = 0; k < p.passes.size(); ++k) {
      const FlankPass& f = p.passes[k];
      if (reach < f.first && !same_point(reach, f.first)) continue;  // halted before it gets there
      FireChoice c;
      c.plan = i;
      c.pass = k;
      const auto add = [&](const char* name, PathPoint at, int dice) {
        if (reach < at && !same_point(reach, at)) return;
        for (const auto& q : c.points) {
          if (same_point(q, at)) return;
        }
        c.names.push_back(name);
        c.points.push_back(at);
        c.dice.push_back(dice);
      };
      add("first", f.first, f.first_dice);
      add("most", f.most, f.most_dice);
      add("last", f.last, f.last_dice);
      out.push_back(std::move(c));
    }
  }
  return out;
}

Decision fire_decision(const GameState& s, const Orders& o, const FireChoice& c) {
  const Plan& p = o.plans[c.plan];
  const Brigade& f = s.brigades[p.passes[c.pass].firer];
  Decision d;
  d.id = fire_decision_id(s, p, p.passes[c.pass]);
  d.seat = seat_of(f);
  d.kind = "flanking_fire_point";
  d.subjects = {f.id, p.unit};
  d.prompt = ref(p.unit) + " passes within 1\" of the front of " + ref(f.id) +
             ", to its flank: where do they give fire? It halts there (flanking musketry).";
  for (std::size_t k = 0; k < c.names.size(); ++k) {
    const std::string dice = " (" + std::to_string(c.dice[k]) + (c.dice[k] == 1 ? " die)" : " dice)");
    if (c.names[k] == "first") d.options.push_back({"first", "Where it first comes within 1\"" + dice});
    if (c.names[k] == "most") d.options.push_back({"most", "Where the most bases bear on it" + dice});
    if (c.names[k] == "last") d.options.push_back({"last", "As late as it is within 1\"" + dice});
  }
  d.default_option = "first";
  return d;
}

// Every point along an order a halted brigade may stop at, in order: each
// step's end, and the straight steps and wheels every 0.1" or 0.5°.
std::vector<PathPoint> path_points(const std::vector<OrderStep>& steps) {
  std::vector<PathPoint> out;
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const double whole = step_extent(steps[k]);
    if (whole > kEps) {
      const double dt = std::min(1.0, (steps[k].action == "wheel" ? 0.5 : 0.1) / whole);
      for (double t = dt; t < 1 - 1e-9; t += dt) out.push_back({k, t});
    }
    out.push_back({k, 1});
  }
  return out;
}

// The plans carried out: each brigade halted where flanking fire halts it
// (`halts`, by plan), or at the last point before it where it may halt (a
// cavalry brigade may not halt within 2" of enemy to its front). A unit whose
// order would end on top of a brigade so halted stops short of it on its own
// path, at the last point clear of everyone (the later of two halted
// brigades likewise); where none is clear, both carry out their orders in
// full (the orders were checked together in full) -- RULINGS C18.
std::vector<Plan> halt_where_fired_on(const Field& field, std::vector<Plan> plans,
                                      const std::map<std::size_t, PathPoint>& halts) {
  const std::vector<Plan> full = plans;
  std::vector<std::optional<PathPoint>> at(plans.size());  // where each now halts; nullopt: its whole order
  // The last point of plan i's order, `from` or before it, where it may halt
  // with `clear` holding.
  const auto halt_at = [&](std::size_t i, PathPoint from, const auto& clear) -> bool {
    std::vector<PathPoint> tries{from};
    const auto pts = path_points(full[i].steps);
    for (auto it = pts.rbegin(); it != pts.rend(); ++it) {
      if (*it < from && !same_point(*it, from)) tries.push_back(*it);
    }
    for (const PathPoint& p : tries) {
      auto r = plan_move(field, *full[i].decl, full[i].steps, &p);
      if (!r || !clear(r.value())) continue;
      plans[i] = std::move(r).value();
      at[i] = p;
      return true;
    }
    return false;
  };
  for (const auto& [i, h] : halts) {
    if (!halt_at(i, h, [](const Plan&) { return true; })) continue;
    // Fired on where its order ends anyway: the order as given.
    const auto now = pose_bases(plans[i].end);
    const auto was = pose_bases(full[i].end);
    bool same = now.size() == was.size() && plans[i].end.formation == full[i].end.formation;
    for (std::size_t b = 0; same && b < now.size(); ++b) {
      same = distance(now[b].center, was[b].center) < 1e-4 && std::abs(angle_diff_deg(now[b].facing_deg, was[b].facing_deg)) < 1e-3;
    }
    if (same) {
      plans[i] = full[i];
      at[i].reset();
    }
  }
  for (std::size_t round = 0; round <= plans.size(); ++round) {
    bool moved = false;
    for (std::size_t i = 0; i < plans.size(); ++i) {
      for (std::size_t j = i + 1; j < plans.size(); ++j) {
        if (!ends_overlap(plans[i], plans[j])) continue;
        // The one that did not halt stops short; of two that did, the later.
        const std::size_t k = at[i] && !at[j] ? j : at[j] && !at[i] ? i : j;
        const auto clear = [&](const Plan& q) {
          for (std::size_t m = 0; m < plans.size(); ++m) {
            if (m != k && ends_overlap(q, plans[m])) return false;
          }
          return true;
        };
        const PathPoint from = at[k] ? *at[k] : PathPoint{full[k].steps.empty() ? 0 : full[k].steps.size() - 1, 1};
        if (full[k].steps.empty() || !halt_at(k, from, clear)) {
          for (const std::size_t m : {i, j}) {
            plans[m] = full[m];
            at[m].reset();
          }
        }
        moved = true;
      }
    }
    if (!moved) return plans;
  }
  // Still on top of each other: every order in full, as checked.
  for (std::size_t i = 0; i < plans.size(); ++i) {
    for (std::size_t j = i + 1; j < plans.size(); ++j) {
      if (ends_overlap(plans[i], plans[j])) return full;
    }
  }
  return plans;
}

Verdict carry_out(GameState& s, const Field& field, Orders orders, const std::map<std::size_t, PathPoint>& halts,
                  std::vector<Event>& events);

Verdict resolve_execute(GameState& s, const std::vector<Answer>& answers, std::vector<Event>& events,
                        const std::vector<Decision>* owed, const CheckedOrders* checked) {
  std::vector<Decision> own;
  const std::vector<Decision>& decisions = stage_decisions(owed, own, [&] { return execute_decisions(s); });
  std::optional<Field> own_field;
  const Field& field = checked != nullptr ? checked->field : own_field.emplace(s);
  assert(checked == nullptr ||
         (field.state().brigades == s.brigades && field.state().guns == s.guns &&
          field.state().leaders == s.leaders && field.state().movement == s.movement));
  auto orders = plan_orders(s, field, decisions, answers, checked);
  if (!orders) return orders.error();
  // "The enemy chooses at which point in the brigade's move they wish to give
  // fire": where it has a choice, the orders wait for it (RULINGS C18).
  const auto choices = fire_choices(orders.value());
  if (std::any_of(choices.begin(), choices.end(), [](const FireChoice& c) { return c.points.size() > 1; })) {
    s.movement.orders.clear();
    for (const auto& a : answers) s.movement.orders.push_back({a.decision_id, a.steps});
    s.movement.stage = MoveStage::kFlankFire;
    return Ok{};
  }
  std::map<std::size_t, PathPoint> halts;
  for (const auto& c : choices) {
    auto [it, fresh] = halts.emplace(c.plan, c.points.front());
    if (!fresh) it->second = std::min(it->second, c.points.front());
  }
  return carry_out(s, field, std::move(orders).value(), halts, events);
}

// The held orders as the answers they were.
std::vector<Answer> held_answers(const GameState& s, const std::vector<Decision>& decisions) {
  std::vector<Answer> out;
  for (const auto& o : s.movement.orders) {
    Answer a;
    a.decision_id = o.decision;
    a.steps = o.steps;
    if (const Decision* d = find_decision(decisions, o.decision)) a.seat = d->seat;
    out.push_back(std::move(a));
  }
  return out;
}

std::vector<Decision> flank_fire_decisions(const GameState& s) {
  const auto decisions = execute_decisions(s);
  const Field field(s);
  auto orders = plan_orders(s, field, decisions, held_answers(s, decisions), nullptr);
  std::vector<Decision> out;
  if (!orders) return out;
  for (const auto& c : fire_choices(orders.value())) {
    if (c.points.size() > 1) out.push_back(fire_decision(s, orders.value(), c));
  }
  return out;
}

Verdict resolve_flank_fire(GameState& s, const std::vector<Answer>& answers, std::vector<Event>& events,
                           const std::vector<Decision>* owed) {
  std::vector<Decision> own;
  const std::vector<Decision>& asked = stage_decisions(owed, own, [&] { return flank_fire_decisions(s); });
  for (const auto& a : answers) {
    const Decision* d = find_decision(asked, a.decision_id);
    if (d == nullptr) return no("no_decision", "Nothing is asked as \"" + a.decision_id + "\" now.");
    if (a.seat != d->seat) return no("wrong_seat", "Decision " + d->id + " is owed by " + d->seat + ".");
    if (!a.option.empty() && std::none_of(d->options.begin(), d->options.end(),
                                          [&](const Option& o) { return o.id == a.option; })) {
      return no("bad_option", "\"" + a.option + "\" is not an option for " + d->id + ".");
    }
  }
  const auto decisions = execute_decisions(s);
  const Field field(s);
  auto orders = plan_orders(s, field, decisions, held_answers(s, decisions), nullptr);
  if (!orders) return orders.error();
  std::map<std::size_t, PathPoint> halts;
  for (const auto& c : fire_choices(orders.value())) {
    PathPoint at = c.points.front();  // the only point, or "first" (the default)
    if (c.points.size() > 1) {
      const std::string id = fire_decision_id(s, orders.value().plans[c.plan], orders.value().plans[c.plan].passes[c.pass]);
      for (const auto& a : answers) {
        if (a.decision_id != id) continue;
        for (std::size_t k = 0; k < c.names.size(); ++k) {
          if (c.names[k] == a.option) at = c.points[k];
        }
      }
    }
    auto [it, fresh] = halts.emplace(c.plan, at);
    if (!fresh) it->second = std::min(it->second, at);
  }
  s.movement.orders.clear();
  return carry_out(s, field, std::move(orders).value(), halts, events);
}

Verdict carry_out(GameState& s, const Field& field, Orders orders, const std::map<std::size_t, PathPoint>& halts,
                  std::vector<Event>& events) {
  std::vector<Plan> plans = halt_where_fired_on(field, std::move(orders.plans), halts);
  const auto& leader_moves = orders.leader_moves;
  std::set<std::string> movers;
  for (const auto& p : plans) {
    if (p.moved) movers.insert(p.unit);
  }
  // Passage of lines: "No penalty if none are routing and one remains
  // stationary and did not fire ... No penalty if moving through guns that did
  // not fire this turn. Otherwise ... 1DP ... by each formed brigade involved."
  std::map<std::string, int> passage;
  for (const auto& p : plans) {
    if (!p.moved) continue;
    const std::string army = army_of(s, p);
    for (const auto& o : field.bodies()) {
      if (same_id(o.id, p.unit) || !same_id(o.army, army)) continue;
      bool through = false;
      for (const auto& sw : p.sweeps) through = through || sweep_hits_body(sw, o);
      if (!through) continue;
      const bool routing = o.routing || (!p.gun && s.brigades[p.index].has(Status::kRouting));
      const bool other_still = !movers.contains(o.id) && !o.fired;
      if (!routing && other_still) continue;
      if (!p.gun && formed(p.start.formation)) passage[p.unit] = 1;
      if (!o.gun && o.formed) passage[o.id] = 1;
    }
  }

  // Apply.
  std::set<std::string> in_combat_before;
  for (const auto& b : s.brigades) {
    if (b.has(Status::kInCombat)) in_combat_before.insert(b.id);
  }
  std::map<std::string, double> start_gap;  // skirmishers: distance to each mover before
  for (auto& p : plans) {
    if (p.gun) {
      Gun& g = s.guns[p.index];
      apply_pose(g, p.end);
      if (p.moved) g.status |= static_cast<std::uint32_t>(Status::kMoved);
      g.last_move = {s.turn, p.decl->mode, p.decl->avd, p.decl->d6, p.steps};
    } else {
      Brigade& b = s.brigades[p.index];
      if (p.dismounted) {
        b.horse_holders = b.position;  // "placed where they dismounted"
        b.horse_holders_moved = false;
      }
      apply_pose(b, p.end);
      if (p.mounted) {
        b.horse_holders.reset();
        b.horse_holders_moved = false;
      }
      if (p.horse_holders_to) {
        b.horse_holders = *p.horse_holders_to;
        b.horse_holders_moved = true;
      }
      if (p.moved) b.status |= static_cast<std::uint32_t>(Status::kMoved);
      if (p.end.formation != Formation::kUnformed) {
        // Re-formed: no longer retiring, routing or pursuing.
        b.status &= ~(static_cast<std::uint32_t>(Status::kRetiring) | static_cast<std::uint32_t>(Status::kRouting) |
                      static_cast<std::uint32_t>(Status::kPursuing));
      }
      b.last_move = {s.turn, p.decl->mode, p.decl->avd, p.decl->d6, p.steps};
      record_move_dice(b, s.turn, dice_count(p.decl->mode, p.decl->avd, p.decl->d6));
      place_attached_leaders(s, b);
    }
    Event e;
    e.kind = "moved";
    e.subjects = {p.unit};
    e.where = {{p.start.position, p.unit}, {p.end.position, p.unit}};
    e.text = ref(p.unit) + (p.moved ? " moves" : " manoeuvres") +
             (p.decl->allowance > 0 ? " (" + in(p.used * p.decl->allowance) + " of " + in(p.decl->allowance) + ")"
                                    : std::string()) +
             ".";
    events.push_back(std::move(e));
  }
  for (auto& md : s.movement.declarations) {
    md.executed = true;
    if (md.mode == MoveMode::kNone) {
      if (Brigade* b = const_cast<Brigade*>(s.find_brigade(md.unit))) {
        b->last_move = {s.turn, MoveMode::kNone, 0, false, {}};
        record_move_dice(*b, s.turn, 0);
      } else if (Gun* g = const_cast<Gun*>(s.find_gun(md.unit))) {
        g->last_move = {s.turn, MoveMode::kNone, 0, false, {}};
      }
    }
  }
  // DPs: fatigue and disorder, manoeuvre, obstacles, passage of lines.
  for (const auto& p : plans) {
    add_dps_to(s, p.unit, p.fatigue_dps, "fatigue and disorder when moving", events);
    add_dps_to(s, p.unit, p.manoeuvre_dps, "manoeuvre", events);
    add_dps_to(s, p.unit, p.obstacle_dps, "crossing a major obstacle", events);
  }
  for (const auto& [id, n] : passage) add_dps_to(s, id, n, "passage of lines", events);

  // Foot within 1" of enemy to their front are in close combat.
  const Field after(s);
  for (const auto& p : plans) {
    if (p.gun) continue;
    Brigade& b = s.brigades[p.index];
    if (!is_foot(b.type)) continue;
    if (after.enemy_front_within(b.army, pose_of(b), kFootCombat)) {
      b.status |= static_cast<std::uint32_t>(Status::kInCombat);
      if (!in_combat_before.contains(b.id)) {
        Event e;
        e.kind = "combat";
        e.text = ref(b.id) + " has come within 1\" of enemy to its front: close combat.";
        e.subjects = {b.id};
        e.where = {{b.position, b.id}};
        events.push_back(std::move(e));
      }
    }
  }

  // Flanking musketry owed in the combat phase (RULINGS C18). Only the
  // record of fire given changes from here on: the foot stay where they are.
  const MusketZones zones(s);
  for (const auto& p : plans) {
    if (p.gun || !p.moved) continue;
    const Brigade& b = s.brigades[p.index];
    std::vector<std::string> firers;
    for (const std::size_t fi : flanking_foot(s, zones, b, p.start, {pose_envelope(p.end).polygon()})) {
      if (passes_flank_of(p.end, s.brigades[fi])) firers.push_back(s.brigades[fi].id);
    }
    for (const auto& f : firers) {
      record_flanking_fire(s, b.id, f);
      Event e;
      e.kind = "flanking_fire";
      e.text = ref(b.id) + " passes within 1\" of the front of " + ref(f) +
               " and halts: it takes flanking fire in the combat phase.";
      e.subjects = {b.id, f};
      e.where = {{b.position, b.id}};
      events.push_back(std::move(e));
    }
  }

  // Leaders.
  for (const auto& [id, to] : leader_moves) {
    Leader* l = const_cast<Leader*>(s.find_leader(id));
    if (l == nullptr) continue;
    const Vec2 from = l->position;
    if (distance(from, to) > kEps) l->facing_deg = bearing_of(to - from);
    l->position = to;
    Event e;
    e.kind = "leader_moved";
    e.text = ref(id) + " moves " + in(distance(from, to)) + ".";
    e.subjects = {id};
    e.where = {{from, id}, {to, id}};
    events.push_back(std::move(e));
  }

  // Splits, then merges (a merge names brigades as they stand after every move).
  for (const auto& p : plans) {
    if (!p.split_id.empty()) do_split(s, p.unit, p.split_id, p.split_count, events);
  }
  for (const auto& p : plans) {
    if (p.merge_with.empty()) continue;
    const Brigade* m = s.find_brigade(p.unit);
    const Brigade* t = s.find_brigade(p.merge_with);
    if (m == nullptr || t == nullptr) continue;
    if (!in_contact(pose_envelope(pose_of(*m)), pose_envelope(pose_of(*t)), kCommandGap + kEps)) {
      const bool partner_halted = std::any_of(plans.begin(), plans.end(), [&](const Plan& q) {
        return q.halted && q.unit == p.merge_with;
      });
      if (partner_halted) {
        // Its partner halted short of it (flanking fire, RULINGS C18).
        Event e;
        e.kind = "merge_failed";
        e.text = ref(p.unit) + " does not merge: " + ref(p.merge_with) + " halted on its way.";
        e.subjects = {p.unit, p.merge_with};
        e.where = {{m->position, p.unit}};
        events.push_back(std::move(e));
        continue;
      }
      Rejection r = no("merge", ref(p.unit) + " did not end in base-to-base contact with " + ref(p.merge_with) +
                                    " and cannot merge.");
      r.decisions = {"move/" + p.unit};
      for (const auto& q : plans) {
        if (q.unit == p.merge_with) r.decisions.push_back("move/" + q.unit);
      }
      return r;
    }
    do_merge(s, p.unit, p.merge_with, events);
  }

  // Skirmish withdrawal: hussars must, dismounted dragoons may, keep 2" from
  // approaching formed enemy.
  s.movement.skirmishers.clear();
  s.movement.threats.clear();
  for (auto& b : s.brigades) {
    if (!on_table(b) || b.has(Status::kInCombat)) continue;
    if (b.type != TroopType::kHussars && b.type != TroopType::kDismountedDragoons) continue;
    const OrientedRect env = pose_envelope(pose_of(b));
    for (const auto& p : plans) {
      if (p.gun || !p.moved || !formed(p.end.formation)) continue;
      const Brigade* m = s.find_brigade(p.unit);
      if (m == nullptr || m->army == b.army) continue;
      const double now = distance(env, pose_envelope(pose_of(*m)));
      const double before = distance(env, pose_envelope(p.start));
      if (now >= kSkirmishDistance - kEps || now >= before - kEps) continue;
      if (b.type == TroopType::kHussars) {
        const bool ok = skirmish_withdraw(s, b, *m);
        Event e;
        e.kind = "skirmish_withdrawal";
        e.text = ok ? ref(b.id) + " (hussars) withdraw to keep 2\" from " + ref(m->id) + "."
                    : ref(b.id) + " (hussars) cannot withdraw from " + ref(m->id) + ": the way is blocked.";
        e.subjects = {b.id, m->id};
        e.where = {{b.position, b.id}};
        events.push_back(std::move(e));
      } else if (std::find(s.movement.skirmishers.begin(), s.movement.skirmishers.end(), b.id) ==
                 s.movement.skirmishers.end()) {
        s.movement.skirmishers.push_back(b.id);
        s.movement.threats.push_back(m->id);
      }
      break;
    }
  }
  s.movement.stage = s.movement.skirmishers.empty() ? MoveStage::kDone : MoveStage::kSkirmish;
  return Ok{};
}

Verdict resolve_skirmish(GameState& s, const std::vector<Answer>& answers, std::vector<Event>& events,
                         const std::vector<Decision>* owed) {
  std::vector<Decision> own;
  const std::vector<Decision>& decisions = stage_decisions(owed, own, [&] { return skirmish_decisions(s); });
  for (const auto& a : answers) {
    const Decision* d = find_decision(decisions, a.decision_id);
    if (d == nullptr) return no("no_decision", "Nothing is asked as \"" + a.decision_id + "\" now.");
    if (a.seat != d->seat) return no("wrong_seat", "Decision " + d->id + " is owed by " + d->seat + ".");
    if (a.option != "withdraw" && a.option != "stand" && !a.option.empty()) {
      return no("bad_option", "Answer \"withdraw\" or \"stand\".");
    }
  }
  for (const auto& a : answers) {
    if (a.option != "withdraw") continue;
    const std::string id = decision_unit(a.decision_id, "skirmish/");
    const auto it = std::find(s.movement.skirmishers.begin(), s.movement.skirmishers.end(), id);
    const std::size_t k = static_cast<std::size_t>(it - s.movement.skirmishers.begin());
    Brigade* b = const_cast<Brigade*>(s.find_brigade(id));
    const Brigade* t = k < s.movement.threats.size() ? s.find_brigade(s.movement.threats[k]) : nullptr;
    if (b == nullptr || t == nullptr) continue;
    const Brigade threat = *t;
    const bool ok = skirmish_withdraw(s, *b, threat);
    Event e;
    e.kind = "skirmish_withdrawal";
    e.text = ok ? ref(id) + " (dismounted dragoons) withdraw to keep 2\" from " + ref(threat.id) + "."
                : ref(id) + " cannot withdraw: the way is blocked.";
    e.subjects = {id, threat.id};
    e.where = {{b->position, id}};
    events.push_back(std::move(e));
  }
  s.movement.stage = MoveStage::kDone;
  return Ok{};
}

}  // namespace

// ---------------------------------------------------------------------------

void add_movement_dps(std::uint32_t& dps, int n) {
  if (n <= 0 || dps >= kMovementDpCap) return;
  dps = std::min<std::uint32_t>(kMovementDpCap, dps + static_cast<std::uint32_t>(n));
}

int fatigue_dps(const std::vector<int>& faces, const Pose& pose, bool rough) {
  if (!pose.gun && pose.formation == Formation::kUnformed) return 0;
  int threshold = 7;
  if (!rough) {
    // "Unless in march column, or unformed, ... 1 DP each time a 6 is rolled";
    // the sheet adds limbered guns.
    if (pose.gun ? pose.limbered : pose.formation == Formation::kMarchColumn) return 0;
    threshold = 6;
  } else if (pose.gun || is_cavalry(pose.type)) {
    threshold = 4;  // "1 DP for each 4-6 rolled if cavalry or guns"
  } else if (pose.formation == Formation::kMarchColumn) {
    return 0;  // "No penalty if ... foot in march column"
  } else if (pose.formation == Formation::kFieldColumn) {
    threshold = 6;
  } else {
    threshold = 5;  // foot in line
  }
  int n = 0;
  for (int f : faces) n += f >= threshold ? 1 : 0;
  return n;
}

std::vector<int> roll_move_dice(Dice& dice, std::uint32_t avd, bool d6) {
  std::vector<int> faces;
  for (std::uint32_t k = 0; k < avd; ++k) faces.push_back(dice.avd());
  if (d6) faces.push_back(dice.d6());
  return faces;
}

double move_inches(const std::vector<int>& faces, bool insp, bool doubled) {
  int pips = 0;
  for (int f : faces) pips += f;
  double d = pips * kInchesPerPip + (insp ? kInspiredPerDie * static_cast<double>(faces.size()) : 0.0);
  return doubled ? 2 * d : d;
}

void record_move_dice(Brigade& b, std::uint32_t turn, std::uint32_t dice) {
  if (b.move_dice_turn != turn) {
    b.move_dice_before = b.move_dice_turn + 1 == turn ? b.move_dice : 0;
    b.move_dice_turn = turn;
  }
  b.move_dice = dice;
}

std::uint32_t move_dice_last_turn(const Brigade& b, std::uint32_t turn) {
  if (b.move_dice_turn == turn) return b.move_dice_before;
  if (b.move_dice_turn + 1 == turn) return b.move_dice;
  return 0;
}

std::vector<std::uint32_t> cavalry_dice_allowed(const Brigade& b, std::uint32_t turn) {
  const std::uint32_t last = move_dice_last_turn(b, turn);
  std::vector<std::uint32_t> out;
  for (std::uint32_t n = 0; n <= 3; ++n) {
    const std::uint32_t diff = n > last ? n - last : last - n;
    if (diff <= 2) out.push_back(n);  // "may only change speed by up to 2 dice per turn"
  }
  return out;
}

std::uint32_t max_move_avd(const Brigade& b) { return is_cavalry(b.type) ? 2 : 1; }

namespace {

// The formation whose layout puts `n` bases exactly on `rects` (in layout
// order), trying `first` before a line and a march column; none: empty.
std::optional<Formation> formation_laying_out(const Brigade& b, const std::vector<OrientedRect>& rects,
                                              Formation first) {
  const BaseSize size = base_size(b.type, b.style);
  const Vec2 front_mid = envelope(rects, b.facing_deg).front_mid();
  for (Formation f : {first, Formation::kLine, Formation::kMarchColumn}) {
    if (f == Formation::kUnformed) continue;
    const auto laid = layout(front_mid, b.facing_deg, size, static_cast<std::uint32_t>(rects.size()), f);
    bool same = laid.size() == rects.size();
    for (std::size_t i = 0; same && i < laid.size(); ++i) {
      same = distance(laid[i].center, rects[i].center) < 1e-6 &&
             std::abs(angle_diff_deg(laid[i].facing_deg, rects[i].facing_deg)) < 1e-6;
    }
    if (same) return f;
  }
  return std::nullopt;
}

}  // namespace

void split_brigade(GameState& s, const std::string& id, const std::string& new_id, const std::vector<std::size_t>& off_idx,
                   std::vector<Event>& events) {
  Brigade* b = const_cast<Brigade*>(s.find_brigade(id));
  if (b == nullptr) return;
  const auto bases = pose_bases(pose_of(*b));
  std::vector<OrientedRect> kept;
  std::vector<OrientedRect> off;
  for (std::size_t i = 0; i < bases.size(); ++i) {
    (std::find(off_idx.begin(), off_idx.end(), i) != off_idx.end() ? off : kept).push_back(bases[i]);
  }
  if (off.empty() || kept.empty()) return;
  Brigade nb = *b;
  nb.id = new_id;
  nb.name = b->name + " (" + new_id + ")";
  nb.bases = static_cast<std::uint32_t>(off.size());
  nb.position = envelope(off, b->facing_deg).front_mid();
  // "each new brigade takes on all the DPs of the original parent brigade"
  b->bases = static_cast<std::uint32_t>(kept.size());
  b->position = envelope(kept, b->facing_deg).front_mid();
  if (!b->base_poses.empty()) {
    // Unformed bases placed one by one stay where they stand.
    nb.base_poses = poses_of(off);
    b->base_poses = poses_of(kept);
  } else {
    // A laid-out part stands in the formation that puts its bases where they
    // are; a part no formation fits (e.g. a broken-off corner of a field
    // column) is unformed with its bases where they stand (RULINGS M18).
    for (auto* part : {b, &nb}) {
      const auto& rects = part == b ? kept : off;
      if (auto f = formation_laying_out(*part, rects, part->formation)) {
        part->formation = *f;
      } else {
        part->formation = Formation::kUnformed;
        part->base_poses = poses_of(rects);
      }
    }
  }
  Event e;
  e.kind = "split";
  e.text = ref(id) + " splits: " + std::to_string(off.size()) + " bases form " + ref(new_id) + ", both with " +
           std::to_string(b->dps) + " DPs.";
  e.subjects = {id, new_id};
  e.where = {{b->position, id}, {nb.position, new_id}};
  events.push_back(std::move(e));
  place_attached_leaders(s, *b);
  s.brigades.push_back(std::move(nb));
}

FastMove roll_fast_move(Dice& dice, const Brigade& b, bool initial) {
  FastMove m;
  m.avd = max_move_avd(b);
  m.d6 = true;
  for (std::uint32_t i = 0; i < m.avd; ++i) m.faces.push_back(dice.avd());
  m.faces.push_back(dice.d6());
  m.inches = move_inches(m.faces, inspired(b), false) +
             (initial ? kFastInitialPerDie * static_cast<double>(m.faces.size()) : 0.0);
  return m;
}

double enemy_distance(const GameState& state, std::string_view army, const OrientedRect& r) {
  return Field(state).enemy_dist(army, r.polygon(), false);
}

bool enemy_to_front_within(const GameState& state, std::string_view army, const OrientedRect& r, double range) {
  return Field(state).enemy_front_within(army, r, range);
}

std::vector<Decision> movement_pending(const GameState& state) {
  return pending_for(state, effective_stage(state));
}

bool movement_finished(const GameState& state) { return movement_pending(state).empty(); }

Verdict movement_check(const GameState& state, const Answer& answer) {
  const auto decisions = movement_pending(state);
  const Decision* d = find_decision(decisions, answer.decision_id);
  if (d == nullptr) return no("no_decision", "Nothing is asked as \"" + answer.decision_id + "\" now.");
  return movement_check(state, *d, answer);
}

namespace {

// Whether checking an answer to `d` needs the state's Field: orders and
// leaders' moves do; declarations and skirmish choices do not, so none is
// laid out for them.
bool needs_field(const Decision& d) {
  return d.kind != "move_dice" && d.kind != "skirmish_withdrawal" && d.kind != "flanking_fire_point";
}

// `field` is the state's, or null where !needs_field(d). `plans`, when
// given, keeps the plan of an order found legal, by decision.
Verdict check_with(const GameState& state, const Field* field, const Decision& d, const Answer& answer,
                   std::map<std::string, Plan, std::less<>>* plans = nullptr) {
  if (answer.seat != d.seat) return no("wrong_seat", "Decision " + d.id + " is owed by " + d.seat + ".");
  if (d.kind == "move_dice") return check_declaration(state, d, answer);
  if (d.kind == "skirmish_withdrawal") {
    if (answer.option != "withdraw" && answer.option != "stand" && !answer.option.empty()) {
      return no("bad_option", "Answer \"withdraw\" or \"stand\".");
    }
    return Ok{};
  }
  if (d.kind == "flanking_fire_point") {
    std::string listed;
    for (const auto& o : d.options) {
      if (o.id == answer.option || answer.option.empty()) return Ok{};
      listed += (listed.empty() ? "\"" : ", \"") + o.id + "\"";
    }
    return no("bad_option", "\"" + answer.option + "\" is not a point " + ref(d.subjects.front()) + " may fire at on " +
                                ref(d.subjects.back()) + "; choose one of " + listed + ".");
  }
  assert(field != nullptr && needs_field(d));
  if (d.kind == "leader_move") return check_leader(state, *field, answer, decision_unit(d.id, "leader/"));
  const MoveDeclaration* md = find_decl(state, decision_unit(d.id, "move/"));
  if (md == nullptr) return no("no_decision", "No move was declared for " + d.subjects.front() + ".");
  auto r = plan_move(*field, *md, answer.steps);
  if (!r) return r.error();
  if (plans != nullptr) plans->insert_or_assign(d.id, std::move(r).value());
  return Ok{};
}

}  // namespace

Verdict movement_check(const GameState& state, const Decision& d, const Answer& answer) {
  if (!needs_field(d)) return check_with(state, nullptr, d, answer);
  const Field field(state);
  return check_with(state, &field, d, answer);
}

struct MoveChecks::Impl : CheckedOrders {
  using CheckedOrders::CheckedOrders;
};

MoveChecks::MoveChecks(const GameState& state) : state_(state) {}
MoveChecks::~MoveChecks() = default;

Verdict MoveChecks::check(const Decision& d, const Answer& answer) const {
  if (!needs_field(d)) return check_with(state_, nullptr, d, answer);
  if (!impl_) impl_ = std::make_unique<Impl>(state_);
  return check_with(state_, &impl_->field, d, answer, &impl_->plans);
}

Verdict movement_resolve(GameState& next, const std::vector<Answer>& answers, Dice& dice,
                         std::vector<Event>& events, const std::vector<Decision>* owed, const MoveChecks* checks) {
  const MoveStage st = effective_stage(next);
  // What the checks kept, when `next` is still their state (a stale stamp is
  // reset below, which changes what the field marks as moving).
  const CheckedOrders* checked = nullptr;
  if (checks != nullptr && st == MoveStage::kExecute && !stale(next)) {
    if (!checks->impl_) checks->impl_ = std::make_unique<MoveChecks::Impl>(checks->state_);
    checked = checks->impl_.get();
  }
  if (stale(next)) {
    next.movement = {};
    next.movement.turn = next.turn;
    next.movement.half = next.half;
    next.movement.stage = MoveStage::kDeclare;
  }
  switch (st) {
    case MoveStage::kDeclare: return resolve_declare(next, answers, dice, events, owed);
    case MoveStage::kExecute:
      next.movement.stage = MoveStage::kExecute;
      return resolve_execute(next, answers, events, owed, checked);
    case MoveStage::kSkirmish: return resolve_skirmish(next, answers, events, owed);
    case MoveStage::kFlankFire: return resolve_flank_fire(next, answers, events, owed);
    default:
      if (!answers.empty()) return no("no_decision", "Nothing is owed in the movement phase now.");
      return Ok{};
  }
}

}  // namespace galloper::rules::malbrook
