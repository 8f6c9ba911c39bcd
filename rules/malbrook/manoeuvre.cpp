#include "rules/malbrook/manoeuvre.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "rules/malbrook/basing.hpp"

namespace galloper::rules::malbrook {

namespace {

constexpr double kEps = 1e-6;

std::string inches(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f\"", d);
  std::string s(buf);
  // 3.50" -> 3.5", 3.00" -> 3"
  while (s.size() > 2 && s[s.size() - 2] == '0') s.erase(s.size() - 2, 1);
  if (s.size() > 2 && s[s.size() - 2] == '.') s.erase(s.size() - 2, 1);
  return s;
}

std::string degrees(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f°", d);
  return buf;
}

Rejection no(std::string code, std::string reason) { return reject(std::move(code), std::move(reason)); }

bool is_foot_pose(const Pose& p) { return !p.gun && is_foot(p.type); }
bool is_cav_pose(const Pose& p) { return !p.gun && is_cavalry(p.type); }

// Polygon of the union hull of two footprints (an in-place manoeuvre's area).
Polygon hull_of(const Pose& a, const Pose& b) {
  std::vector<Vec2> pts;
  for (const auto& r : {pose_envelope(a), pose_envelope(b)}) {
    for (Vec2 c : r.corners()) pts.push_back(c);
  }
  return convex_hull(pts);
}

// A pose moved by d (no turn).
Pose translated(const Pose& p, Vec2 d) {
  Pose q = p;
  q.position = p.position + d;
  return q;
}

// The pose with the same envelope centre but a new formation and facing.
Pose rearranged(const Pose& p, Formation f, double turn_deg) {
  Pose q = p;
  q.formation = f;
  if (std::abs(turn_deg) < kEps) {
    // Re-arranged on the spot about the front: the front edge stays where it was.
    return q;
  }
  const OrientedRect old_env = pose_envelope(p);
  q.facing_deg = normalize_deg(p.facing_deg + turn_deg);
  q.position = old_env.center;
  const OrientedRect tmp = pose_envelope(q);
  // Shift so the new envelope is centred where the old one was.
  q.position = q.position + (old_env.center - tmp.center);
  return q;
}

}  // namespace

Pose pose_of(const Brigade& b) {
  Pose p;
  p.position = b.position;
  p.facing_deg = b.facing_deg;
  p.formation = b.formation;
  p.type = b.type;
  p.style = b.style;
  p.bases = b.bases;
  return p;
}

Pose pose_of(const Gun& g) {
  Pose p;
  p.position = g.position;
  p.facing_deg = g.facing_deg;
  p.formation = Formation::kLine;
  p.bases = 1;
  p.gun = true;
  p.weight = g.weight;
  p.limbered = g.limbered;
  return p;
}

std::vector<OrientedRect> pose_bases(const Pose& p) {
  if (p.gun) {
    const BaseSize s = gun_base_size(p.weight);
    return {OrientedRect::from_front_mid(p.position, s.width, s.depth, p.facing_deg)};
  }
  return layout(p.position, p.facing_deg, base_size(p.type, p.style), p.bases, p.formation);
}

OrientedRect pose_envelope(const Pose& p) {
  const auto bases = pose_bases(p);
  if (bases.empty()) return OrientedRect::from_front_mid(p.position, 0, 0, p.facing_deg);
  if (bases.size() == 1) return bases.front();
  return envelope(bases, p.facing_deg);
}

void apply_pose(Brigade& b, const Pose& p) {
  b.position = p.position;
  b.facing_deg = normalize_deg(p.facing_deg);
  b.formation = p.formation;
  b.type = p.type;
}

void apply_pose(Gun& g, const Pose& p) {
  g.position = p.position;
  g.facing_deg = normalize_deg(p.facing_deg);
  g.limbered = p.limbered;
}

std::optional<Formation> formation_from_name(std::string_view name) {
  if (name == "line") return Formation::kLine;
  if (name == "two-rank line" || name == "two_rank_line") return Formation::kTwoRankLine;
  if (name == "march column" || name == "march_column") return Formation::kMarchColumn;
  if (name == "field column" || name == "field_column") return Formation::kFieldColumn;
  if (name == "unformed") return Formation::kUnformed;
  return std::nullopt;
}

bool formation_allowed(const Pose& p, Formation f) {
  if (p.gun) return false;
  if (always_unformed(p.type)) return f == Formation::kUnformed;
  switch (f) {
    case Formation::kLine:
    case Formation::kMarchColumn: return true;
    case Formation::kTwoRankLine: return two_rank_line_allowed(base_size(p.type, p.style), p.bases);
    case Formation::kFieldColumn: return field_column_allowed(p.bases);
    case Formation::kUnformed: return false;  // "may not voluntarily become unformed"
  }
  return false;
}

StepSweep sweep_of(const Pose& from, const StepEffect& e) {
  StepSweep s;
  if (e.wheel) {
    s.wheel.emplace(pose_envelope(from), e.wheel_pivot, e.wheel_angle);
    s.poly = s.wheel->outline(8);
  } else {
    s.poly = e.swept;
  }
  return s;
}

bool sweep_hits(const StepSweep& s, const OrientedRect& r) {
  // Shrink the other body a hair so footprints that only touch do not count.
  const OrientedRect inner{r.center, std::max(0.0, r.width - 2 * kEps), std::max(0.0, r.depth - 2 * kEps),
                           r.facing_deg};
  if (s.wheel) return s.wheel->intersects(inner);
  if (!s.poly.bounds().intersects(inner.bounds())) return false;
  return intersects(s.poly, inner.polygon());
}

Result<StepEffect> manoeuvre_step(const Pose& from, const OrderStep& step, const StepContext& ctx) {
  StepEffect e;
  e.end = from;
  const std::string& who = ctx.who;
  const std::string& a = step.action;
  const bool unformed = from.formation == Formation::kUnformed && !from.gun;

  auto need_dice = [&]() -> std::optional<Rejection> {
    if (!ctx.dice) {
      return no("no_dice", who + " declared no move dice and cannot '" + a + "': declare dice (or a road move) first.");
    }
    return std::nullopt;
  };

  if (a == "forward") {
    if (step.distance <= 0) return no("bad_distance", who + ": a forward move needs a distance greater than 0.");
    const double dev = step.angle_deg;
    if (from.gun && !from.limbered && from.weight != GunWeight::kLight) {
      // Unlimbered medium guns "may ... move up to 1 inch" instead of pivoting;
      // heavy guns may not move at all.
      if (from.weight == GunWeight::kHeavy) {
        return no("heavy_gun", who + " is an unlimbered heavy gun: it may pivot up to 45° but not move.");
      }
      if (ctx.dice) return no("gun_move", who + ": an unlimbered medium gun moves without dice (declare 'manoeuvre').");
      if (step.distance > 1 + kEps) {
        return no("too_far", who + " is an unlimbered medium gun: it may move up to 1\", not " + inches(step.distance) + ".");
      }
      e.fraction = 1;  // "pivot ... or move up to 1 inch but not both"
    } else {
      if (auto r = need_dice()) return *r;
      if (!unformed && std::abs(dev) > 22.5 + kEps) {
        return no("off_facing", who + ": normal moves must be within 22.5° of the facing, not " +
                                    degrees(std::abs(dev)) + ".");
      }
      e.inches = step.distance;
    }
    const Vec2 d = facing_unit(from.facing_deg + dev) * step.distance;
    e.end = translated(from, d);
    e.swept = sweep_straight(pose_envelope(from), d);
    e.moves = true;
    return e;
  }

  if (a == "wheel") {
    if (auto r = need_dice()) return *r;
    if (unformed) return no("unformed_wheel", who + " is unformed and faces all round: turn it with 'pivot' instead.");
    if (from.gun && !from.limbered) return no("gun_wheel", who + ": unlimbered guns pivot, they do not wheel.");
    if (step.pivot != "left" && step.pivot != "right") {
      return no("bad_pivot", who + ": a wheel pivots on the \"left\" or \"right\" front corner.");
    }
    if (std::abs(step.angle_deg) < kEps || std::abs(step.angle_deg) > 180 + kEps) {
      return no("bad_angle", who + ": a wheel turns through more than 0° and at most 180°.");
    }
    const WheelPivot pivot = step.pivot == "left" ? WheelPivot::kLeft : WheelPivot::kRight;
    // OrderStep angles are clockwise positive; pivoting on the right corner a
    // clockwise turn advances the left end (a forward wheel); on the left
    // corner a forward wheel turns anticlockwise.
    const double core_angle = pivot == WheelPivot::kLeft ? -step.angle_deg : step.angle_deg;
    const bool backward = core_angle < 0;
    if (backward && !(is_foot_pose(from) && in_line(from.formation))) {
      return no("backward_wheel", who + ": only foot in line may wheel backwards to refuse a flank.");
    }
    const OrientedRect env = pose_envelope(from);
    const OrientedRect end = wheel(env, pivot, core_angle);
    e.end = from;
    e.end.facing_deg = end.facing_deg;
    e.end.position = end.front_mid();
    e.inches = wheel_distance(env, core_angle) * (backward ? 2.0 : 1.0);  // "½ speed if wheeling backwards"
    e.wheel = true;
    e.wheel_pivot = pivot;
    e.wheel_angle = core_angle;
    e.moves = true;
    // "Cost: 1 DP if in line within 6 inches of enemy. No penalty if in column or unformed."
    if (!from.gun && in_line(from.formation) && ctx.within6) e.dps = 1;
    return e;
  }

  if (a == "incline") {
    if (auto r = need_dice()) return *r;
    if (!is_foot_pose(from) || !in_line(from.formation) || ctx.grade > Grade::kC) {
      return no("incline", who + ": only A-C grade foot in line may incline.");
    }
    if (step.distance <= 0) return no("bad_distance", who + ": an incline needs a distance greater than 0.");
    if (step.pivot != "left" && step.pivot != "right") {
      return no("bad_side", who + ": an incline goes to the \"left\" or \"right\" (OrderStep.pivot).");
    }
    const double side = step.pivot == "right" ? 1.0 : -1.0;
    // "moving up to ½ its allowance to the side and an equal amount forwards"
    const Vec2 d = facing_unit(from.facing_deg) * (step.distance / 2) +
                   facing_unit(from.facing_deg + 90) * (side * step.distance / 2);
    e.end = translated(from, d);
    e.swept = sweep_straight(pose_envelope(from), d);
    e.inches = step.distance;
    e.moves = true;
    return e;
  }

  if (a == "side_step" || a == "step_back") {
    if (!is_foot_pose(from) || !in_line(from.formation) || ctx.grade > Grade::kD) {
      return no(a, who + ": only A-D grade foot in line may side step or step back.");
    }
    if (ctx.dice) return no(a, who + ": a " + (a == "side_step" ? std::string("side step") : std::string("step back")) +
                                   " is made instead of a normal move, without dice (declare 'manoeuvre').");
    if (step.distance <= 0 || step.distance > 1 + kEps) {
      return no("too_far", who + ": a side step or step back is up to 1\", not " + inches(step.distance) + ".");
    }
    Vec2 dir = facing_unit(from.facing_deg + 180);
    if (a == "side_step") {
      if (step.pivot != "left" && step.pivot != "right") {
        return no("bad_side", who + ": a side step goes to the \"left\" or \"right\" (OrderStep.pivot).");
      }
      dir = facing_unit(from.facing_deg + (step.pivot == "right" ? 90 : -90));
    }
    const Vec2 d = dir * step.distance;
    e.end = translated(from, d);
    e.swept = sweep_straight(pose_envelope(from), d);
    e.fraction = 1;  // "Takes 1 full move."
    e.moves = true;
    return e;
  }

  if (a == "about_face") {
    if (unformed) return no("unformed_about_face", who + " is unformed and faces all round: it needs no about face.");
    if (from.gun && !from.limbered) return no("gun_about_face", who + ": unlimbered guns pivot up to 45°.");
    const OrientedRect env = pose_envelope(from);
    e.end = from;
    e.end.facing_deg = normalize_deg(from.facing_deg + 180);
    e.end.position = env.rear_mid();
    e.fraction = 0.5;
    e.swept = hull_of(from, e.end);
    // "1 DP if cavalry within 6 inches of enemy or if foot under fire."
    if (is_cav_pose(from) && ctx.within6) e.dps = 1;
    if (is_foot_pose(from) && ctx.under_fire) e.dps = 1;
    return e;
  }

  if (a == "formation" || a == "reform") {
    if (from.gun) return no("gun_formation", who + ": guns have no formation.");
    const auto f = formation_from_name(step.formation);
    if (!f) {
      return no("bad_formation", who + ": unknown formation \"" + step.formation +
                                     "\" (line, two-rank line, march column, field column).");
    }
    const double turn = step.angle_deg;
    if (a == "reform") {
      if (!unformed || always_unformed(from.type)) {
        return no("reform", who + " is not an unformed brigade that can re-form.");
      }
      if (ctx.is_unformed_status) {
        return no("reform", who + " must first be free of what unformed it (cease pursuing or routing).");
      }
      if (*f == Formation::kUnformed || !formation_allowed(from, *f)) {
        return no("bad_formation", who + " cannot re-form into " + std::string(to_string(*f)) + ".");
      }
      e.end = rearranged(from, *f, turn);
      e.fraction = 1;  // "It takes one complete move. No DPs"
      e.swept = hull_of(from, e.end);
      e.formation_change = true;
      return e;
    }
    if (unformed) return no("unformed", who + " is unformed: it must 're-form' into line or column.");
    if (!formation_allowed(from, *f)) {
      if (*f == Formation::kUnformed) return no("bad_formation", who + " may not voluntarily become unformed.");
      return no("bad_formation", who + " cannot form " + std::string(to_string(*f)) + " with " +
                                     std::to_string(from.bases) + " bases.");
    }
    if (*f == from.formation && std::abs(turn) < kEps) {
      return no("bad_formation", who + " is already in " + std::string(to_string(*f)) + ".");
    }
    const double t = normalize_deg(turn);
    const bool flank_or_rear = std::abs(t) < kEps || std::abs(t - 90) < kEps || std::abs(t - 180) < kEps ||
                               std::abs(t - 270) < kEps;
    if (!flank_or_rear) {
      return no("bad_angle", who + ": a formation change faces the front, a flank (±90°) or the rear (180°).");
    }
    if (ctx.formation_changes >= 2) {
      return no("third_formation", who + ": at most a double formation change is possible in one move.");
    }
    e.end = rearranged(from, *f, turn);
    e.swept = hull_of(from, e.end);
    e.formation_change = true;
    if (ctx.formation_changes == 0) {
      // "a full move and costs 1 DP if within 6 inches of enemy; ½ move and no DPs if further away."
      e.fraction = ctx.within6 ? 1.0 : 0.5;
      e.dps = ctx.within6 ? 1 : 0;
    } else {
      // "a double formation change ... takes a full move but does not incur a second DP."
      e.fraction = std::max(0.0, 1.0 - ctx.first_formation_cost);
    }
    return e;
  }

  if (a == "pivot") {
    if (unformed) {
      // Unformed bases move freely and face all round: turning costs nothing.
      e.end = rearranged(from, from.formation, step.angle_deg);
      e.swept = hull_of(from, e.end);
      return e;
    }
    if (!from.gun || from.limbered) {
      return no("pivot", who + ": only unlimbered guns pivot (and unformed troops turn freely); formed troops wheel.");
    }
    if (std::abs(step.angle_deg) > 45 + kEps) {
      return no("pivot_angle", who + ": a gun pivots up to 45°, not " + degrees(std::abs(step.angle_deg)) + ".");
    }
    if (ctx.dice) return no("gun_move", who + ": a gun pivots instead of moving (declare 'manoeuvre').");
    e.end = rearranged(from, from.formation, step.angle_deg);
    e.swept = hull_of(from, e.end);
    e.fraction = 1;  // "pivot ... but not both"
    return e;
  }

  if (a == "unlimber") {
    if (!from.gun || !from.limbered) return no("unlimber", who + " is not a limbered gun.");
    if (!ctx.controlled) return no("unlimber", who + ": guns may only unlimber under control of a leader.");
    e.end = from;
    e.end.limbered = false;
    e.fraction = 1;  // "This takes 1 move and 1 DP (2 DPs if under fire)."
    e.dps = ctx.under_fire ? 2 : 1;
    e.swept = hull_of(from, e.end);
    return e;
  }
  if (a == "limber") {
    return no("limber", who + ": once unlimbered a gun may not limber up again.");
  }

  if (a == "mount" || a == "dismount") {
    const bool dismount = a == "dismount";
    if (from.gun || (dismount ? from.type != TroopType::kDragoons : from.type != TroopType::kDismountedDragoons) ||
        from.style != FightingStyle::kTraditional) {
      return no(a, who + ": only traditional style dragoons may " + a + ".");
    }
    e.end = from;
    e.end.type = dismount ? TroopType::kDismountedDragoons : TroopType::kDragoons;
    if (dismount) {
      e.end.formation = Formation::kUnformed;
      e.dismount = true;
    } else {
      const auto f = step.formation.empty() ? std::optional<Formation>(Formation::kLine)
                                            : formation_from_name(step.formation);
      if (!f || !formation_allowed(e.end, *f)) {
        return no("bad_formation", who + ": mounted dragoons form line, two-rank line, march or field column.");
      }
      e.end.formation = *f;
      e.mount = true;
    }
    e.fraction = 0.5;  // "Takes ½ move and 1 DP if under fire."
    e.dps = ctx.under_fire ? 1 : 0;
    e.swept = hull_of(from, e.end);
    return e;
  }

  if (a == "pass_gap") {
    if (auto r = need_dice()) return *r;
    if (from.gun || from.formation != Formation::kLine) {
      return no("pass_gap", who + ": only brigades in line reduce frontage to pass a gap (columns just move).");
    }
    if (step.distance <= 0) return no("bad_distance", who + ": passing a gap needs a distance greater than 0.");
    const OrientedRect env = pose_envelope(from);
    // Frontage reduced by half, centred, for the passage.
    const OrientedRect narrow = OrientedRect::from_front_mid(env.front_mid(), env.width / 2, env.depth,
                                                             env.facing_deg);
    const Vec2 d = facing_unit(from.facing_deg) * step.distance;
    e.end = translated(from, d);
    e.swept = sweep_straight(narrow, d);
    // "reduces foot move by ½"; the sheet: "no reduction for cavalry".
    e.inches = step.distance * (is_foot_pose(from) ? 2.0 : 1.0);
    e.dps = ctx.within6 ? 1 : 0;
    e.moves = true;
    return e;
  }

  return no("unknown_step", who + ": unknown order step \"" + a + "\".");
}

}  // namespace galloper::rules::malbrook
