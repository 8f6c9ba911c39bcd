#include "rules/malbrook/artillery.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <span>

#include "rules/core/geometry.hpp"
#include "rules/core/tell.hpp"
#include "rules/core/visibility.hpp"
#include "rules/malbrook/basing.hpp"
#include "rules/malbrook/control.hpp"
#include "rules/malbrook/damage.hpp"
#include "rules/malbrook/seats.hpp"
#include "rules/malbrook/sequence.hpp"

namespace galloper::rules::malbrook {

namespace {

constexpr double kSlack = 1e-6;
constexpr double kInf = std::numeric_limits<double>::infinity();

constexpr std::string_view kFirePrefix = "fire/";
constexpr std::string_view kAimPrefix = "aim/";
constexpr std::string_view kRecrewPrefix = "recrew/";
constexpr std::string_view kTakeOverPrefix = "take_over/";
constexpr std::string_view kMusketPrefix = "musket/";

std::string inches(double d) {
  const double r = std::round(d * 10.0) / 10.0;
  std::string s = std::to_string(r);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s + "\"";
}

bool gun_crewed(const Gun& g) {
  return !g.has(Status::kAbandoned) && !g.has(Status::kCrewEliminated) && !g.has(Status::kDestroyed);
}
bool gun_present(const Gun& g) { return !g.has(Status::kDestroyed); }

bool formed(const Brigade& b) {
  return brigade_on_table(b) && b.formation != Formation::kUnformed && !b.has(Status::kRouting) &&
         !b.has(Status::kRetiring);
}

double gap(const std::vector<OrientedRect>& a, const OrientedRect& b) { return distance(std::span(a), b); }

double gap(const std::vector<OrientedRect>& a, const std::vector<OrientedRect>& b) {
  double best = kInf;
  for (const auto& y : b) best = std::min(best, gap(a, y));
  return best;
}

std::vector<OrientedRect> target_bases(const GameState& s, const FireTarget& t) {
  if (t.kind == PieceKind::kGun) return {footprint(s.guns[t.index])};
  return footprint(s.brigades[t.index]);
}

Vec2 target_position(const GameState& s, const FireTarget& t) {
  return t.kind == PieceKind::kGun ? s.guns[t.index].position : s.brigades[t.index].position;
}

// Any base of the target within the gun's 45° front arc.
bool in_arc(const OrientedRect& gun, const std::vector<OrientedRect>& bases) {
  return std::any_of(bases.begin(), bases.end(),
                     [&](const OrientedRect& r) { return rect_in_front_arc(gun, r, kArtilleryArc); });
}

std::size_t gun_index(const GameState& s, const Gun& g) { return static_cast<std::size_t>(&g - s.guns.data()); }

// A unit's bases and the box around them. The boxes' gap is a lower bound of
// the bases' (gap): a pair whose boxes lie further apart than a distance
// asked about cannot be within it, so the exact test is skipped (kBoxSlack
// keeps the bound safe from rounding). This changes no answer.
struct Body {
  std::vector<OrientedRect> bases;
  Aabb box;
};
constexpr double kBoxSlack = 1e-6;

Body body_of(std::vector<OrientedRect> bases) {
  const Aabb box = bounds(bases);
  return {std::move(bases), box};
}

// Whether the bodies' gap may be <= d: false only when it certainly is not.
bool may_be_within(const Body& a, const Body& b, double d) { return a.box.distance_to(b.box) <= d + kBoxSlack; }

// What a phase's questions share, built once on first use: the sight scene
// and the units' footprints. A gun's control is asked as it stands now (the
// bombardment phase precedes this turn's command phase: gun_controlled).
class FireContext {
 public:
  FireContext(const GameState& s, FirePhase phase)
      : s_(s), phase_(phase), brigades_(s.brigades.size()), guns_(s.guns.size()) {}
  const Body& brigade(std::size_t i) {
    if (!brigades_[i]) brigades_[i] = body_of(footprint(s_.brigades[i]));
    return *brigades_[i];
  }
  const Body& gun(std::size_t i) {
    if (!guns_[i]) guns_[i] = body_of({footprint(s_.guns[i])});
    return *guns_[i];
  }
  const Body& target(const FireTarget& t) { return t.kind == PieceKind::kGun ? gun(t.index) : brigade(t.index); }
  const SceneLookup& scene() {
    if (!scene_) scene_ = std::make_unique<SceneLookup>(s_);
    return *scene_;
  }
  bool controlled(const Gun& g) {
    if (phase_ == FirePhase::kCloseFire) return g.control == ControlResult::kControlled;
    return gun_controlled(s_, scene(), gun_index(s_, g));
  }

 private:
  const GameState& s_;
  FirePhase phase_;
  std::unique_ptr<SceneLookup> scene_;
  std::vector<std::optional<Body>> brigades_;
  std::vector<std::optional<Body>> guns_;
};

// Friends of `army` (brigades and crewed guns, `except` aside) within `d` of the bases.
bool friends_within(const GameState& s, FireContext& ctx, std::string_view army, const Body& target, double d,
                    const Gun* except) {
  for (std::size_t i = 0; i < s.brigades.size(); ++i) {
    const Brigade& b = s.brigades[i];
    if (!same_id(b.army, army) || !brigade_on_table(b)) continue;
    const Body& friend_body = ctx.brigade(i);
    if (!may_be_within(friend_body, target, d + kSlack)) continue;
    if (gap(friend_body.bases, target.bases) <= d + kSlack) return true;
  }
  for (std::size_t i = 0; i < s.guns.size(); ++i) {
    const Gun& g = s.guns[i];
    if (!same_id(g.army, army) || &g == except || !gun_crewed(g)) continue;
    const Body& friend_body = ctx.gun(i);
    if (!may_be_within(friend_body, target, d + kSlack)) continue;
    if (gap(target.bases, friend_body.bases.front()) <= d + kSlack) return true;
  }
  return false;
}

bool gun_in_combat(const GameState& s, FireContext& ctx, const Gun& g) {
  if (g.has(Status::kInCombat)) return true;
  const Body& me = ctx.gun(gun_index(s, g));
  for (std::size_t i = 0; i < s.brigades.size(); ++i) {
    const Brigade& b = s.brigades[i];
    if (same_id(b.army, g.army) || !brigade_on_table(b)) continue;
    const Body& enemy = ctx.brigade(i);
    if (!may_be_within(enemy, me, kGunCombat + kSlack)) continue;
    if (gap(enemy.bases, me.bases.front()) <= kGunCombat + kSlack) return true;
  }
  return false;
}

// Enemy units (brigades, crewed guns) any part of which is in the gun's arc
// within [min, max] inches -- the candidates before sight and friends --
// nearest first (by distance, then id). A unit's gap is measured only when it
// might come next: its box gap less kBoxSlack is a lower bound of its gap
// (Body), so a measured unit nearer than every unmeasured unit's bound comes
// before all of them. A gun not under control, which may shoot only the
// nearest, measures a few units instead of every one in range. Debug builds
// measure them all as well and check each target given against that order.
class ArcTargets {
 public:
  ArcTargets(const GameState& s, FireContext& ctx, const Gun& g, double min, double max)
      : ctx_(ctx), min_(min), max_(max) {
    const Body& gun_body = ctx.gun(gun_index(s, g));
    me_ = gun_body.bases.front();
    const auto consider = [&](PieceKind kind, std::size_t i, const std::string& id, const Body& body) {
      const double box_gap = body.box.distance_to(gun_body.box);
      if (box_gap > max + kSlack + kBoxSlack) return;  // may_be_within
      left_.push_back({box_gap - kBoxSlack, false, {kind, i, id, 0, RangeBand::kNone}});
    };
    for (std::size_t i = 0; i < s.brigades.size(); ++i) {
      const Brigade& b = s.brigades[i];
      if (!same_id(b.army, g.army) && brigade_on_table(b)) consider(PieceKind::kBrigade, i, b.id, ctx.brigade(i));
    }
    for (std::size_t i = 0; i < s.guns.size(); ++i) {
      const Gun& t = s.guns[i];
      if (!same_id(t.army, g.army) && gun_crewed(t)) consider(PieceKind::kGun, i, t.id, ctx.gun(i));
    }
#ifndef NDEBUG
    for (Candidate c : left_) {
      if (measure(c)) all_.push_back(c.target);
    }
    std::sort(all_.begin(), all_.end(), [](const FireTarget& a, const FireTarget& b) {
      return a.distance != b.distance ? a.distance < b.distance : a.id < b.id;
    });
#endif
  }

  // The next target, or nothing when none is left.
  std::optional<FireTarget> next() {
    while (!left_.empty()) {
      std::size_t best = 0;
      for (std::size_t k = 1; k < left_.size(); ++k) {
        if (before(left_[k], left_[best])) best = k;
      }
      Candidate& c = left_[best];
      if (!c.measured && measure(c)) continue;
      std::optional<FireTarget> out;
      if (c.measured) out = std::move(c.target);
      left_[best] = std::move(left_.back());
      left_.pop_back();
      if (!out) continue;  // out of range or arc
#ifndef NDEBUG
      assert(given_ < all_.size() && all_[given_].id == out->id && all_[given_].distance == out->distance);
      ++given_;
#endif
      return out;
    }
    assert(given_ == all_.size());
    return std::nullopt;
  }

 private:
  struct Candidate {
    double key = 0;         // the lower bound until measured, then the gap
    bool measured = false;  // measured and in range and arc
    FireTarget target;
  };
  // (key, unmeasured first, id): a measured unit comes first only when no
  // unmeasured one's bound reaches its gap.
  static bool before(const Candidate& a, const Candidate& b) {
    if (a.key != b.key) return a.key < b.key;
    if (a.measured != b.measured) return !a.measured;
    return a.target.id < b.target.id;
  }
  // Measures the unit's gap; false when it is out of [min, max] or the arc.
  bool measure(Candidate& c) {
    FireTarget& t = c.target;
    double d = 0;
    bool in = false;
    if (t.kind == PieceKind::kBrigade) {
      const auto& bases = ctx_.brigade(t.index).bases;
      d = gap(bases, me_);
      in = d <= max_ + kSlack && d >= min_ - kSlack && in_arc(me_, bases);
    } else {
      const OrientedRect& r = ctx_.gun(t.index).bases.front();
      d = distance(me_, r);
      in = d <= max_ + kSlack && d >= min_ - kSlack && rect_in_front_arc(me_, r, kArtilleryArc);
    }
    if (!in) return false;
    t.distance = d;
    t.band = range_band(d);
    c.key = d;
    c.measured = true;
    return true;
  }

  FireContext& ctx_;
  OrientedRect me_;
  double min_;
  double max_;
  std::vector<Candidate> left_;
#ifndef NDEBUG
  std::vector<FireTarget> all_;
  std::size_t given_ = 0;
#endif
};

// The nearest of the targets: those within kSlack of the first.
std::vector<FireTarget> nearest_only(ArcTargets targets) {
  std::vector<FireTarget> out;
  while (auto t = targets.next()) {
    if (!out.empty() && t->distance > out.front().distance + kSlack) break;
    out.push_back(std::move(*t));
  }
  return out;
}

FirePhase fire_phase(const GameState& s) {
  return s.phase == Phase::kCloseFire ? FirePhase::kCloseFire : FirePhase::kBombardment;
}

std::string suffix(std::string_view id, std::string_view prefix) {
  return id.substr(0, prefix.size()) == prefix ? std::string(id.substr(prefix.size())) : std::string();
}

Gun* gun_by_id(GameState& s, std::string_view id) { return const_cast<Gun*>(s.find_gun(id)); }
Brigade* brigade_by_id(GameState& s, std::string_view id) { return const_cast<Brigade*>(s.find_brigade(id)); }

OrientedRect messenger_stand(const Messenger& m) {
  const BaseSize size = leader_base_size(LeaderRank::kMajorGeneral);
  return OrientedRect::from_front_mid(m.position, size.width, size.depth, m.facing_deg);
}

// Can the howitzer aim at `p`? Returns the reason if not.
std::optional<std::string> aim_problem(const GameState& s, FireContext& ctx, const Gun& g, Vec2 p) {
  const OrientedRect me = footprint(g);
  const double d = distance(me.polygon(), p);
  if (d <= kIndirectMinRange) return "the aim point must be beyond " + inches(kIndirectMinRange) + " (it is " + inches(d) + ")";
  if (d > kIndirectMaxRange + kSlack) return "the aim point must be within " + inches(kIndirectMaxRange) + " (it is " + inches(d) + ")";
  if (!in_front_arc(me, p, kArtilleryArc)) return "the aim point must be within 45 degrees of the gun's front";
  if (ctx.controlled(g)) return std::nullopt;
  // Not under control: on the nearest enemy in that band (RULINGS.md).
  const auto near = nearest_only(ArcTargets(s, ctx, g, kIndirectMinRange + kSlack, kIndirectMaxRange));
  for (const auto& t : near) {
    for (const auto& r : target_bases(s, t)) {
      if (r.contains(p, kSlack)) return std::nullopt;
    }
  }
  return "a gun not under control must aim at the nearest enemy (" +
         (near.empty() ? std::string("none in range") : ref(near.front().id)) + ")";
}

// Whether the brigade itself sees a piece.
bool sees(const GameState& s, FireContext& ctx, const Brigade& b, PieceKind kind, std::ptrdiff_t index) {
  const SceneLookup& scene = ctx.scene();
  const auto eye = scene.find(PieceKind::kBrigade, static_cast<std::size_t>(&b - s.brigades.data()));
  const auto mark = scene.find(kind, static_cast<std::size_t>(index));
  return eye && mark && scene.sees(*eye, *mark);
}

struct LoneTarget {
  std::string id;
  bool messenger = false;
};

// Lone enemy leaders and messengers within musket range of a foot brigade's
// front that it sees ("Leaders and troops can only react to, or shoot at,
// what they can see").
std::vector<LoneTarget> lone_targets_of(const GameState& s, FireContext& ctx, const Brigade& b) {
  std::vector<LoneTarget> out;
  if (!is_foot(b.type) || !brigade_on_table(b) || b.has(Status::kRouting) || b.has(Status::kRetiring)) return out;
  const Body me = body_of(footprint(b));
  const auto& bases = me.bases;
  const OrientedRect env = envelope(bases, b.facing_deg);
  // Beyond musket range by the boxes (a lower bound of the gap): not a target.
  auto out_of_range = [&](const OrientedRect& stand) {
    return me.box.distance_to(stand.bounds()) > kMusketRange + kSlack + kBoxSlack ||
           gap(bases, stand) > kMusketRange + kSlack;
  };
  for (const auto& l : s.leaders) {
    if (l.army == b.army || l.killed || l.captured || !l.attached_to.empty()) continue;
    const OrientedRect stand = footprint(l);
    if (out_of_range(stand) || !rect_in_front_arc(env, stand, kArtilleryArc)) continue;
    if (!lone(s, l.army, l.position, stand) || !sees(s, ctx, b, PieceKind::kLeader, &l - s.leaders.data())) continue;
    out.push_back({l.id, false});
  }
  for (const auto& m : s.messengers) {
    if (m.army == b.army) continue;
    const OrientedRect stand = messenger_stand(m);
    if (out_of_range(stand) || !rect_in_front_arc(env, stand, kArtilleryArc)) continue;
    if (!lone(s, m.army, m.position, stand) || !sees(s, ctx, b, PieceKind::kMessenger, &m - s.messengers.data())) continue;
    out.push_back({m.id, true});
  }
  return out;
}

// ---- Planned shots ----

struct Shot {
  std::string gun;
  bool indirect = false;
  FireTarget target;  // direct
  FireModifiers mods;
  Vec2 aim;           // indirect
};

void record_shot(GameState& s, Gun& g, const Shot& shot) {
  g.status |= static_cast<std::uint32_t>(Status::kFired);
  if (!shot.indirect) {
    g.last_target = shot.target.id;
    g.last_band = static_cast<std::uint8_t>(shot.target.band);
    g.last_shot_from = g.position;
    g.last_shot_facing = g.facing_deg;
  }
  if (s.phase == Phase::kBombardment) {
    g.bombarded_turn = s.turn;
    g.bombarded_close = !shot.indirect && shot.target.band == RangeBand::kClose;
  }
}

// Hits whatever the target is now (it may have been destroyed by an earlier shot).
void hit(GameState& s, const FireTarget& t, int dps, int casualties, Dice& dice, std::vector<Event>& events) {
  if (t.kind == PieceKind::kBrigade) {
    Brigade& b = s.brigades[t.index];
    if (!brigade_on_table(b)) return;
    mark_under_fire(b);
    inflict_damage(s, b, dps, casualties, DpCause::kFire, dice, events);
    return;
  }
  Gun& g = s.guns[t.index];
  if (!gun_present(g)) return;
  mark_under_fire(g);
  add_dps(s, g, dps, DpCause::kFire, events);
  if (casualties > 0 && !g.has(Status::kCrewEliminated)) {
    // RULINGS.md "Casualties on guns": the battery's one base is its crew.
    g.status |= static_cast<std::uint32_t>(Status::kAbandoned) | static_cast<std::uint32_t>(Status::kCrewEliminated);
    g.crew_with.clear();
    Event e;
    e.kind = "crew_eliminated";
    e.text = "The crew of " + ref(g.id) + " is shot down: the gun is abandoned.";
    e.subjects = {g.id};
    e.where = {{g.position, g.id}};
    events.push_back(std::move(e));
  }
}

void fire_direct(GameState& s, const Shot& shot, Dice& dice, std::vector<Event>& events) {
  Gun& g = *gun_by_id(s, shot.gun);
  const int face = dice.d6();
  const int total = face + shot.mods.total();
  const ShotResult r = direct_fire_result(total, shot.target.band);
  Event e;
  e.kind = "artillery_fire";
  // How far it fired tells where the gun stands: said to seats that see the
  // gun, the distance only to those that see both ends.
  e.text = ref(g.id) + " fires at " + ref(shot.target.id) +
           about(g.id, " (" + std::string(to_string(shot.target.band)) + " range" +
                           about(shot.target.id, ", " + inches(shot.target.distance)) + ")") +
           ": rolled " + std::to_string(face) + shot.mods.describe() + " = " + std::to_string(total) + ": " +
           std::string(to_string(r)) + ".";
  e.subjects = {g.id, shot.target.id};
  e.where = {{g.position, g.id}, {target_position(s, shot.target), shot.target.id}};
  e.dice = dice.drain();
  events.push_back(std::move(e));
  record_shot(s, g, shot);
  int dps = 0;
  int cas = 0;
  switch (r) {
    case ShotResult::kNoEffect: break;
    case ShotResult::kOneDp: dps = 1; break;
    case ShotResult::kTwoDps: dps = 2; break;
    case ShotResult::kDpAndCasualty: dps = 1; cas = 1; break;
  }
  hit(s, shot.target, dps, cas, dice, events);
}

void fire_indirect(GameState& s, const Shot& shot, Dice& dice, std::vector<Event>& events) {
  Gun& g = *gun_by_id(s, shot.gun);
  const IndirectShot roll = roll_indirect_fire(dice, shot.aim);
  const auto at = unit_at(s, roll.lands);
  Event e;
  e.kind = "artillery_fire";
  e.text = ref(g.id) + " fires indirectly: " +
           (roll.scatter.on_target ? std::string("on target")
                                   : "off target, " + inches(roll.distance_die * kScatterPerPip) + " towards " +
                                         std::to_string(roll.scatter.bearing_deg) + " degrees") +
           (at ? ": the shot lands on " + ref(at->id) + ", 1 DP." : ": the shot lands on empty ground.");
  e.subjects = {g.id};
  if (at) e.subjects.push_back(at->id);
  // Where it was aimed and where it fell are the gun's: told with it.
  e.where = {{g.position, g.id}, {shot.aim, g.id}, {roll.lands, at ? at->id : g.id}};
  e.dice = dice.drain();
  events.push_back(std::move(e));
  record_shot(s, g, shot);
  if (at) hit(s, *at, 1, 0, dice, events);
}

void apply_recrew_and_take_over(GameState& s, const std::vector<Answer>& answers, std::vector<Event>& events) {
  for (const auto& a : answers) {
    if (const std::string id = suffix(a.decision_id, kRecrewPrefix); !id.empty()) {
      Gun* g = gun_by_id(s, id);
      if (g != nullptr && a.option == "recrew" && may_recrew(s, *g)) recrew_gun(s, *g, events);
    } else if (const std::string gid = suffix(a.decision_id, kTakeOverPrefix); !gid.empty()) {
      Gun* g = gun_by_id(s, gid);
      Brigade* b = brigade_by_id(s, a.option);
      if (g != nullptr && b != nullptr && may_take_over(s, *g, *b)) take_over_gun(s, *g, *b, events);
    }
  }
}

const Answer* answer_for(const std::vector<Answer>& answers, std::string_view id) {
  for (const auto& a : answers) {
    if (a.decision_id == id) return &a;
  }
  return nullptr;
}

}  // namespace

// ---------------------------------------------------------------------------

std::string_view to_string(RangeBand b) {
  switch (b) {
    case RangeBand::kNone: return "none";
    case RangeBand::kClose: return "close";
    case RangeBand::kEffective: return "effective";
    case RangeBand::kBeyond: return "beyond effective";
  }
  return "?";
}

RangeBand range_band(double d) {
  if (d <= kCloseRange + kSlack) return RangeBand::kClose;
  if (d <= kEffectiveRange + kSlack) return RangeBand::kEffective;
  return RangeBand::kBeyond;
}

double max_range(GunWeight w) {
  switch (w) {
    case GunWeight::kLight: return kLightMaxRange;
    case GunWeight::kMedium:
    case GunWeight::kHeavy: return kHeavyMaxRange;
    case GunWeight::kHowitzer:
    case GunWeight::kMortar: return kIndirectMaxRange;
  }
  return 0;
}

std::string_view to_string(ShotResult r) {
  switch (r) {
    case ShotResult::kNoEffect: return "no effect";
    case ShotResult::kOneDp: return "1 DP";
    case ShotResult::kTwoDps: return "2 DPs";
    case ShotResult::kDpAndCasualty: return "1 DP and 1 casualty";
  }
  return "?";
}

namespace {

bool gun_may_fire(const GameState& s, FireContext& ctx, const Gun& g, FirePhase phase) {
  if (!gun_crewed(g) || g.limbered) return false;
  const bool in_combat = gun_in_combat(s, ctx, g);
  if (phase == FirePhase::kBombardment) return !in_combat;
  if (fires_indirect(g.weight)) return false;  // indirect fire is beyond 2" only
  const bool bombarded = g.bombarded_turn == s.turn;
  if (bombarded && g.bombarded_close) return false;
  if (in_combat && bombarded) return false;
  return true;
}

}  // namespace

bool gun_may_fire(const GameState& s, const Gun& g, FirePhase phase) {
  FireContext ctx(s, phase);
  return gun_may_fire(s, ctx, g, phase);
}

namespace {

// How far a gun's direct fire reaches in the phase.
double direct_reach(const Gun& g, FirePhase phase) {
  return phase == FirePhase::kCloseFire ? kCloseRange : max_range(g.weight);
}

// A target in the gun's arc and range that it may shoot: no friends within
// the clearance of it, and in sight.
bool clear_and_seen(const GameState& s, FireContext& ctx, const Gun& g, const FireTarget& t) {
  if (friends_within(s, ctx, g.army, ctx.target(t), kFriendsClearance, &g)) return false;
  const SceneLookup& scene = ctx.scene();
  const auto eye = scene.find(PieceKind::kGun, gun_index(s, g));
  const auto mark = scene.find(t.kind, t.index);
  return eye && mark && scene.sees(*eye, *mark);
}

// The targets in the gun's arc and range that it may shoot (clear_and_seen),
// nearest first. With `nearest_unless_controlled`, only those as near as the
// nearest of them unless the gun is under control: the arc's targets come
// nearest first, so farther ones are judged (sight lines, friends'
// clearance) only for a gun under control, and its control is asked about
// only when a farther one is reached.
std::vector<FireTarget> shootable(const GameState& s, FireContext& ctx, const Gun& g, FirePhase phase,
                                  bool nearest_unless_controlled) {
  if (fires_indirect(g.weight) || !gun_may_fire(s, ctx, g, phase)) return {};
  std::vector<FireTarget> out;
  std::optional<bool> controlled;
  ArcTargets targets(s, ctx, g, 0, direct_reach(g, phase));
  while (auto t = targets.next()) {
    if (nearest_unless_controlled && !out.empty() && t->distance > out.front().distance + kSlack) {
      if (!controlled) controlled = ctx.controlled(g);
      if (!*controlled) break;
    }
    if (clear_and_seen(s, ctx, g, *t)) out.push_back(std::move(*t));
  }
  return out;
}

std::vector<FireTarget> eligible_in(const GameState& s, FireContext& ctx, const Gun& g, FirePhase phase) {
  return shootable(s, ctx, g, phase, false);
}

// eligible_in cut to nearest_only's targets unless the gun is under control.
std::vector<FireTarget> allowed_in(const GameState& s, FireContext& ctx, const Gun& g, FirePhase phase) {
  return shootable(s, ctx, g, phase, true);
}

// The target a fire answer names. The answer was checked against
// artillery_pending(s), whose options are allowed_in's targets, so the
// target is one of those: only its arc and range are found again (for its
// distance and band), not its sight line and friends' clearance.
std::optional<FireTarget> answered_target(const GameState& s, FireContext& ctx, const Gun& g, FirePhase phase,
                                          std::string_view id) {
  ArcTargets targets(s, ctx, g, 0, direct_reach(g, phase));
  while (auto t = targets.next()) {
    if (t->id == id) return t;
  }
  return std::nullopt;
}

}  // namespace

bool gun_under_control(const GameState& s, const Gun& g, FirePhase phase) {
  FireContext ctx(s, phase);
  return ctx.controlled(g);
}

std::vector<FireTarget> eligible_targets(const GameState& s, const Gun& g, FirePhase phase) {
  FireContext ctx(s, phase);
  return eligible_in(s, ctx, g, phase);
}

std::vector<FireTarget> allowed_targets(const GameState& s, const Gun& g, FirePhase phase) {
  FireContext ctx(s, phase);
  return allowed_in(s, ctx, g, phase);
}

bool enfilades(const Gun& firer, const GameState& s, const FireTarget& t) {
  OrientedRect env;
  if (t.kind == PieceKind::kBrigade) {
    const Brigade& b = s.brigades[t.index];
    if (b.formation == Formation::kUnformed || always_unformed(b.type)) return false;  // no flanks
    env = envelope(footprint(b), b.facing_deg);
  } else {
    env = footprint(s.guns[t.index]);
  }
  const Vec2 p = firer.position;
  OrientedRect back = env;
  back.facing_deg = normalize_deg(env.facing_deg + 180.0);
  return !in_front_arc(env, p, kArtilleryArc) && !in_front_arc(back, p, kArtilleryArc);
}

FireModifiers direct_fire_modifiers(const GameState& s, const Gun& g, const FireTarget& t) {
  FireModifiers m;
  if (g.weight == GunWeight::kHeavy) m.weight = 1;
  if (g.weight == GunWeight::kLight) m.weight = -1;
  m.gun_dps = -static_cast<int>(g.dps);
  if (t.band == RangeBand::kBeyond) m.beyond_effective = -1;
  // RULINGS.md "Same target and range": the gun's last shot, from where it stands now.
  const bool unmoved = distance(g.last_shot_from, g.position) <= kSlack &&
                       std::abs(angle_diff_deg(g.last_shot_facing, g.facing_deg)) <= kSlack;
  if (g.last_target.empty() || g.last_target != t.id || !unmoved) {
    m.target_history = -1;
  } else if (g.last_band == static_cast<std::uint8_t>(t.band)) {
    m.target_history = 1;
  }
  bool exposed = false;
  if (t.kind == PieceKind::kBrigade) {
    const Formation f = s.brigades[t.index].formation;
    exposed = f == Formation::kMarchColumn || f == Formation::kFieldColumn;
  } else {
    exposed = s.guns[t.index].limbered;
  }
  if (exposed || enfilades(g, s, t)) m.exposed = 1;
  // RULINGS.md "In fortifications": the line of fire crosses the work within 1" of the target.
  const auto bases = target_bases(s, t);
  Vec2 aim = bases.front().center;
  double best = kInf;
  for (const auto& r : bases) {
    const double d = distance(r, footprint(g));
    if (d < best) {
      best = d;
      aim = r.center;
    }
  }
  for (const auto& c : s.terrain.obstacles_crossed(Segment{g.position, aim})) {
    if (c.feature == nullptr) continue;
    const bool fort = c.feature->kind == LinearKind::kFortification;
    const bool works = c.feature->kind == LinearKind::kFieldworks;
    if (!fort && !works) continue;
    double near = kInf;
    for (const auto& r : bases) near = std::min(near, distance(r.polygon(), c.point));
    if (near > 1.0 + kSlack) continue;
    m.cover = std::min(m.cover, fort ? -2 : -1);
  }
  return m;
}

std::string FireModifiers::describe() const {
  std::string out;
  auto add = [&](int v, std::string_view why) {
    if (v == 0) return;
    out += (v > 0 ? " +" : " ") + std::to_string(v) + " " + std::string(why);
  };
  add(weight, weight > 0 ? "heavy gun" : "light gun");
  add(gun_dps, "DPs on the gun");
  add(beyond_effective, "beyond effective range");
  add(target_history, target_history > 0 ? "same target and range" : "new target");
  add(exposed, "column, limbered or enfilade");
  add(cover, cover == -2 ? "fortifications" : "fieldworks");
  return out;
}

ShotResult direct_fire_result(int modified, RangeBand band) {
  if (band == RangeBand::kClose) {
    if (modified >= 6) return ShotResult::kDpAndCasualty;
    if (modified >= 4) return ShotResult::kTwoDps;
    if (modified >= 2) return ShotResult::kOneDp;
    return ShotResult::kNoEffect;
  }
  return modified >= 4 ? ShotResult::kOneDp : ShotResult::kNoEffect;
}

ShotResult roll_direct_fire(Dice& dice, int modifier, RangeBand band) {
  return direct_fire_result(dice.d6() + modifier, band);
}

IndirectShot roll_indirect_fire(Dice& dice, Vec2 aim) {
  IndirectShot out;
  out.scatter = dice.scatter();
  out.lands = aim;
  if (!out.scatter.on_target) {
    out.distance_die = dice.d6();
    out.lands = aim + facing_unit(out.scatter.bearing_deg) * (out.distance_die * kScatterPerPip);
  }
  return out;
}

std::optional<FireTarget> unit_at(const GameState& s, Vec2 p) {
  for (std::size_t i = 0; i < s.brigades.size(); ++i) {
    const Brigade& b = s.brigades[i];
    if (!brigade_on_table(b)) continue;
    for (const auto& r : footprint(b)) {
      if (r.contains(p)) return FireTarget{PieceKind::kBrigade, i, b.id, 0, RangeBand::kNone};
    }
  }
  for (std::size_t i = 0; i < s.guns.size(); ++i) {
    const Gun& g = s.guns[i];
    if (!gun_crewed(g)) continue;  // an abandoned gun has no troops to hit
    if (footprint(g).contains(p)) return FireTarget{PieceKind::kGun, i, g.id, 0, RangeBand::kNone};
  }
  return std::nullopt;
}

// ---- Guns in combat, re-crewing, taking over ----

void abandon_gun(GameState& s, Gun& g, bool crew_killed, std::vector<Event>& events) {
  if (g.has(Status::kAbandoned) || !gun_present(g)) return;
  const OrientedRect r = footprint(g);
  const Brigade* refuge = nullptr;
  double best = kInf;
  if (!crew_killed) {
    for (const auto& b : s.brigades) {
      if (b.army != g.army || !brigade_on_table(b) || b.has(Status::kRouting)) continue;
      const double d = gap(footprint(b), r);
      if (d <= kCrewRefuge + kSlack && (d < best || (d == best && refuge != nullptr && b.id < refuge->id))) {
        best = d;
        refuge = &b;
      }
    }
  }
  g.status |= static_cast<std::uint32_t>(Status::kAbandoned);
  Event e;
  e.subjects = {g.id};
  e.where = {{g.position, g.id}};
  if (refuge != nullptr) {
    g.crew_with = refuge->id;
    e.kind = "gun_abandoned";
    e.text = "The crew of " + ref(g.id) + " abandon their gun and seek refuge with " + ref(refuge->id) + ".";
    e.subjects.push_back(refuge->id);
  } else {
    g.crew_with.clear();
    g.status |= static_cast<std::uint32_t>(Status::kCrewEliminated);
    e.kind = "gun_captured";
    e.text = crew_killed ? ref(g.id) + " is abandoned and its crew eliminated."
                         : ref(g.id) + " is captured: no friends within 2\", its crew is eliminated.";
  }
  events.push_back(std::move(e));
}

void abandon_guns_in_combat(GameState& s, std::vector<Event>& events) {
  // One context for every gun: abandoning a gun changes its status and its
  // crew's refuge, never a footprint, so the bodies it keeps hold throughout.
  FireContext ctx(s, FirePhase::kBombardment);
  for (auto& g : s.guns) {
    if (gun_crewed(g) && gun_in_combat(s, ctx, g)) abandon_gun(s, g, false, events);
  }
}

bool may_recrew(const GameState& s, const Gun& g) {
  if (!g.has(Status::kAbandoned) || g.has(Status::kCrewEliminated) || !gun_present(g) || g.crew_with.empty()) {
    return false;
  }
  const Brigade* refuge = s.find_brigade(g.crew_with);
  if (refuge == nullptr || !brigade_on_table(*refuge)) return false;  // the crew went with it
  const OrientedRect r = footprint(g);
  for (const auto& b : s.brigades) {
    if (same_id(b.army, g.army) || !formed(b)) continue;
    if (gap(footprint(b), r) <= kRecrewClear + kSlack) return false;
  }
  return true;
}

void recrew_gun(GameState& s, Gun& g, std::vector<Event>& events) {
  (void)s;
  const std::string from = g.crew_with;
  g.status &= ~static_cast<std::uint32_t>(Status::kAbandoned);
  g.crew_with.clear();
  Event e;
  e.kind = "gun_recrewed";
  e.text = "The crew of " + ref(g.id) + " return from " + ref(from) + " and bring the gun back into action.";
  e.subjects = {g.id};
  e.where = {{g.position, g.id}};
  events.push_back(std::move(e));
}

bool may_take_over(const GameState& s, const Gun& g, const Brigade& by) {
  (void)s;
  if (!g.has(Status::kAbandoned) || !g.limbered || !gun_present(g) || by.army == g.army) return false;
  if (!brigade_on_table(by) || by.bases < 2 || by.has(Status::kInCombat) || by.has(Status::kRouting) ||
      by.has(Status::kRetiring)) {
    return false;
  }
  return gap(footprint(by), footprint(g)) <= kTakeOverReach + kSlack;
}

void take_over_gun(GameState& s, Gun& g, Brigade& by, std::vector<Event>& events) {
  (void)s;
  const std::string was = g.army;
  remove_base(by);
  g.army = by.army;
  g.wing = by.wing;
  g.command = by.command;
  g.status &= ~(static_cast<std::uint32_t>(Status::kAbandoned) | static_cast<std::uint32_t>(Status::kCrewEliminated));
  g.crew_with.clear();
  g.dps = 0;
  g.last_target.clear();
  g.last_band = 0;
  g.control = ControlResult::kUnknown;
  g.controlled_by.clear();
  Event e;
  e.kind = "gun_taken_over";
  e.text = ref(by.id) + " detaches a base to take over the abandoned " + ref(g.id) + " of " + was + ".";
  e.subjects = {g.id, by.id};
  e.where = {{g.position, g.id}, {by.position, by.id}};
  events.push_back(std::move(e));
}

// ---- Lone leaders ----

bool lone(const GameState& s, std::string_view army, Vec2 at, const OrientedRect& stand) {
  (void)at;
  for (const auto& b : s.brigades) {
    if (b.army != army || !brigade_on_table(b)) continue;
    if (gap(footprint(b), stand) <= kLoneLeader + kSlack) return false;
  }
  for (const auto& g : s.guns) {
    if (g.army != army || !gun_crewed(g)) continue;
    if (distance(footprint(g), stand) <= kLoneLeader + kSlack) return false;
  }
  return true;
}

void capture_lone_leaders(GameState& s, const Brigade& cavalry, std::vector<Event>& events) {
  if (!is_cavalry(cavalry.type) || !brigade_on_table(cavalry)) return;
  const auto bases = footprint(cavalry);
  for (auto& l : s.leaders) {
    if (l.army == cavalry.army || l.killed || l.captured || !l.attached_to.empty()) continue;
    const OrientedRect stand = footprint(l);
    if (gap(bases, stand) > kCaptureContact + kSlack || !lone(s, l.army, l.position, stand)) continue;
    l.captured = true;
    s.fallen_leaders.push_back({l.id, l.army, l.rank, l.position, s.turn, s.phase, true});
    Event e;
    e.kind = "leader_captured";
    e.text = ref(l.id) + ", alone and more than 4\" from any friend, is captured by " + ref(cavalry.id) + ".";
    e.subjects = {l.id, cavalry.id};
    e.where = {{l.position, l.id}};
    events.push_back(std::move(e));
  }
  std::vector<Messenger> kept;
  for (auto& m : s.messengers) {
    const OrientedRect stand = messenger_stand(m);
    if (m.army != cavalry.army && gap(bases, stand) <= kCaptureContact + kSlack && lone(s, m.army, m.position, stand)) {
      Event e;
      e.kind = "messenger_captured";
      e.text = ref(m.id) + " is captured by " + ref(cavalry.id) + ".";
      e.subjects = {m.id, cavalry.id};
      e.where = {{m.position, m.id}};
      events.push_back(std::move(e));
      continue;
    }
    kept.push_back(std::move(m));
  }
  s.messengers = std::move(kept);
}

void musket_at_lone(GameState& s, const Brigade& firer, std::string_view target, Dice& dice,
                    std::vector<Event>& events) {
  const int first = dice.d6();
  const bool is_hit = first >= 5;
  if (Leader* l = const_cast<Leader*>(s.find_leader(target))) {
    const std::string why = "fired on by " + ref(firer.id) + ", rolled " + std::to_string(first);
    if (!is_hit) {
      apply_leader_fate(s, *l, LeaderFate::kUnhurt, dice.drain(), why, events);
      return;
    }
    const int second = dice.d6();
    apply_leader_fate(s, *l, leader_hit_result(second, l->wounds), dice.drain(), why + " then " + std::to_string(second),
                      events);
    return;
  }
  auto it = std::find_if(s.messengers.begin(), s.messengers.end(), [&](const Messenger& m) { return m.id == target; });
  if (it == s.messengers.end()) return;
  int second = 0;
  LeaderFate fate = LeaderFate::kUnhurt;
  if (is_hit) {
    second = dice.d6();
    fate = leader_hit_result(second, 0);
  }
  Event e;
  e.subjects = {it->id, firer.id};
  e.where = {{it->position, it->id}};
  e.dice = dice.drain();
  const std::string rolled = "rolled " + std::to_string(first) + (is_hit ? " then " + std::to_string(second) : "");
  if (fate == LeaderFate::kKilled || fate == LeaderFate::kWounded) {
    // RULINGS.md "Messengers hit": killed or wounded, the message is lost.
    e.kind = "messenger_shot";
    e.text = ref(it->id) + " is shot down by " + ref(firer.id) + " (" + rolled + "): the message is lost.";
    events.push_back(std::move(e));
    s.messengers.erase(it);
    return;
  }
  e.kind = "messenger_risk";
  e.text = ref(it->id) + " is fired on by " + ref(firer.id) + " and rides on (" + rolled + ").";
  events.push_back(std::move(e));
}

// ---- The phases ----

std::vector<Decision> artillery_pending(const GameState& s) {
  std::vector<Decision> out;
  if (s.phase != Phase::kBombardment && s.phase != Phase::kCloseFire) return out;
  const FirePhase phase = fire_phase(s);
  FireContext ctx(s, phase);
  for (const auto& army : acting_armies(s)) {
    if (phase == FirePhase::kBombardment) {
      for (std::size_t gi : guns_right_to_left(s, army)) {
        const Gun& g = s.guns[gi];
        if (!may_recrew(s, g)) continue;
        Decision d;
        d.id = std::string(kRecrewPrefix) + g.id;
        d.seat = seat_of(g);
        d.kind = "recrew";
        d.subjects = {g.id};
        d.prompt = "The crew of " + ref(g.id) + " may return to the gun: no formed enemy within 2\".";
        d.options = {{"recrew", "Re-crew the gun"}, {"stay", "Leave it abandoned"}};
        d.default_option = "stay";
        out.push_back(std::move(d));
      }
      // Enemy abandoned limbered guns this army's brigades may take over.
      for (const auto& g : s.guns) {
        if (g.army == army || !g.has(Status::kAbandoned) || !g.limbered) continue;
        std::vector<Option> opts{{"no", "Leave it"}};
        std::string seat;
        for (std::size_t bi : brigades_right_to_left(s, army)) {
          const Brigade& b = s.brigades[bi];
          // It takes over only a gun it sees: the gun is the decision's subject.
          if (!may_take_over(s, g, b) || !sees(s, ctx, b, PieceKind::kGun, &g - s.guns.data())) continue;
          // One seat decides: the first (rightmost) eligible brigade's.
          if (seat.empty()) seat = seat_of(b);
          if (seat_of(b) != seat) continue;
          opts.push_back({b.id, ref(b.id) + " detaches a base to take it over", b.id});
        }
        if (opts.size() < 2) continue;
        Decision d;
        d.id = std::string(kTakeOverPrefix) + g.id;
        d.seat = seat;
        d.kind = "take_over";
        d.subjects = {g.id};
        d.prompt = "The enemy's abandoned limbered gun, " + ref(g.id) + ", may be taken over by detaching one base.";
        d.options = std::move(opts);
        d.default_option = "no";
        out.push_back(std::move(d));
      }
    }
    for (std::size_t gi : guns_right_to_left(s, army)) {
      const Gun& g = s.guns[gi];
      if (!gun_may_fire(s, ctx, g, phase)) continue;
      if (fires_indirect(g.weight)) {
        if (phase != FirePhase::kBombardment) continue;
        if (!ArcTargets(s, ctx, g, kIndirectMinRange + kSlack, kIndirectMaxRange).next()) continue;
        Decision d;
        d.id = std::string(kAimPrefix) + g.id;
        d.seat = seat_of(g);
        d.kind = "artillery_aim";
        d.subjects = {g.id};
        d.prompt = ref(g.id) + " may fire indirectly: aim at a point 2\"-36\" away, within 45 degrees of its front" +
                   (ctx.controlled(g) ? "." : ", on the nearest enemy (not under control).");
        d.options = {{"hold", "Hold fire"}};
        d.default_option = "hold";
        d.limits = {{"min_range", kIndirectMinRange}, {"max_range", kIndirectMaxRange}};
        out.push_back(std::move(d));
        continue;
      }
      const auto targets = allowed_in(s, ctx, g, phase);
      if (targets.empty()) continue;
      Decision d;
      d.id = std::string(kFirePrefix) + g.id;
      d.seat = seat_of(g);
      d.kind = "artillery_fire";
      d.subjects = {g.id};
      d.prompt = ref(g.id) + (phase == FirePhase::kCloseFire ? " may fire at close range." : " may fire.");
      d.options.push_back({"hold", "Hold fire"});
      for (const auto& t : targets) {
        const FireModifiers m = direct_fire_modifiers(s, g, t);
        d.options.push_back({t.id,
                             "Fire at " + ref(t.id) + " (" + inches(t.distance) + ", " +
                                 std::string(to_string(t.band)) + " range, modifier " + (m.total() >= 0 ? "+" : "") +
                                 std::to_string(m.total()) + ")",
                             t.id, /*odds=*/true});
      }
      d.default_option = "hold";
      out.push_back(std::move(d));
    }
    if (phase == FirePhase::kCloseFire) {
      for (std::size_t bi : brigades_right_to_left(s, army)) {
        const Brigade& b = s.brigades[bi];
        const auto targets = lone_targets_of(s, ctx, b);
        if (targets.empty()) continue;
        Decision d;
        d.id = std::string(kMusketPrefix) + b.id;
        d.seat = seat_of(b);
        d.kind = "musket_at_leader";
        d.subjects = {b.id};
        d.prompt = ref(b.id) + " may fire on a lone enemy leader or messenger within 1\" (hit on 5-6).";
        d.options.push_back({"hold", "Hold fire"});
        for (const auto& t : targets) d.options.push_back({t.id, "Fire at " + ref(t.id), t.id});
        d.default_option = "hold";
        out.push_back(std::move(d));
      }
    }
  }
  return out;
}

Verdict artillery_check(const GameState& s, const Answer& a) { return artillery_check(s, artillery_pending(s), a); }

Verdict artillery_check(const GameState& s, const std::vector<Decision>& ds, const Answer& a) {
  const Decision* d = nullptr;
  for (const auto& x : ds) {
    if (x.id == a.decision_id) d = &x;
  }
  if (d == nullptr) return reject("unknown_decision", "Nothing called \"" + a.decision_id + "\" is pending now.");
  if (d->kind == "artillery_aim" && !a.steps.empty()) {
    if (a.steps.size() != 1 || a.steps.front().action != "aim") {
      return reject("bad_order", "Answer " + d->id + " with one step {action: \"aim\", to: <point>} or \"hold\".");
    }
    const Gun* g = s.find_gun(suffix(d->id, kAimPrefix));
    if (g == nullptr) return reject("unknown_unit", "No gun " + d->id + ".");
    FireContext ctx(s, FirePhase::kBombardment);
    if (auto why = aim_problem(s, ctx, *g, a.steps.front().to)) {
      return reject("bad_aim", ref(g->id) + ": " + *why + ".");
    }
    return Ok{};
  }
  if (!a.steps.empty()) return reject("bad_order", d->id + " takes an option, not steps.");
  for (const auto& o : d->options) {
    if (o.id == a.option) return Ok{};
  }
  std::string listed;
  for (const auto& o : d->options) listed += (listed.empty() ? "\"" : ", \"") + o.id + "\"";
  return reject("bad_option", "\"" + a.option + "\" is not an option for " + d->id + "; choose one of " + listed + ".");
}

void artillery_resolve(GameState& s, const std::vector<Answer>& answers, Dice& dice, std::vector<Event>& events) {
  const FirePhase phase = fire_phase(s);
  FireContext ctx(s, phase);
  // Plan every shot against the state as it stands now (simultaneous fire).
  std::vector<Shot> shots;
  for (const auto& army : acting_armies(s)) {
    for (std::size_t gi : guns_right_to_left(s, army)) {
      const Gun& g = s.guns[gi];
      if (const Answer* a = answer_for(answers, std::string(kFirePrefix) + g.id); a != nullptr && a->option != "hold") {
        if (auto t = answered_target(s, ctx, g, phase, a->option)) {
          shots.push_back({g.id, false, *t, direct_fire_modifiers(s, g, *t), {}});
        }
      } else if (const Answer* b = answer_for(answers, std::string(kAimPrefix) + g.id); b != nullptr && !b->steps.empty()) {
        Shot shot;
        shot.gun = g.id;
        shot.indirect = true;
        shot.aim = b->steps.front().to;
        shots.push_back(shot);
      }
    }
  }
  apply_recrew_and_take_over(s, answers, events);
  // "Cavalry able to move into contact with a lone leader or messenger will
  // capture him": checked for every cavalry brigade once movement is over.
  if (phase == FirePhase::kCloseFire && s.half == 0) {
    for (const auto& b : s.brigades) {
      if (is_cavalry(b.type)) capture_lone_leaders(s, b, events);
    }
  }
  for (const auto& shot : shots) {
    if (shot.indirect) {
      fire_indirect(s, shot, dice, events);
    } else {
      fire_direct(s, shot, dice, events);
    }
  }
  if (phase == FirePhase::kCloseFire) {
    for (const auto& army : acting_armies(s)) {
      for (std::size_t bi : brigades_right_to_left(s, army)) {
        const Brigade& b = s.brigades[bi];
        const Answer* a = answer_for(answers, std::string(kMusketPrefix) + b.id);
        if (a == nullptr || a->option == "hold") continue;
        musket_at_lone(s, b, a->option, dice, events);
      }
    }
  }
}

}  // namespace galloper::rules::malbrook
