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

// A pose moved by d (no turn); placed bases move with it.
Pose translated(const Pose& p, Vec2 d) {
  Pose q = p;
  q.position = p.position + d;
  for (auto& bp : q.base_poses) bp.center = bp.center + d;
  return q;
}

// The pose turned by turn_deg about the centre of its envelope.
Pose turned_in_place(const Pose& p, double turn_deg) {
  const Vec2 c = pose_envelope(p).center;
  Pose q = p;
  q.facing_deg = normalize_deg(p.facing_deg + turn_deg);
  q.position = rotate_cw_about(p.position, c, turn_deg);
  for (auto& bp : q.base_poses) {
    bp.center = rotate_cw_about(bp.center, c, turn_deg);
    bp.facing_deg = normalize_deg(bp.facing_deg + turn_deg);
  }
  return q;
}

// The pose with the same envelope centre but a new formation and facing. The
// bases are re-arranged into the formation's layout: placed bases (a refused
// flank, unformed bases) come back into it, unless `keep_placed` (an unformed
// brigade turning about: every base turns with it).
Pose rearranged(const Pose& p, Formation f, double turn_deg, bool keep_placed = false) {
  if (keep_placed && !p.base_poses.empty()) return turned_in_place(p, turn_deg);
  Pose q = p;
  q.formation = f;
  q.base_poses.clear();
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


// The decimal count in an OrderStep's target ("2"), or nullopt.
std::optional<std::uint32_t> parse_count(std::string_view t) {
  if (t.empty() || t.size() > 3) return std::nullopt;
  std::uint32_t n = 0;
  for (char c : t) {
    if (c < '0' || c > '9') return std::nullopt;
    n = n * 10 + static_cast<std::uint32_t>(c - '0');
  }
  return n;
}

// The bases at one end of a single line that refuse a flank, and how they
// wheel back: about the rear corner of their inner end, so that they stay
// touching the rest of the line without overlapping it (RULINGS.md M21).
struct Flank {
  std::vector<std::size_t> idx;  // indices into the line's bases (left to right)
  OrientedRect seg;              // the envelope of those bases standing in line
  Vec2 pivot;                    // the rear corner of their inner end
  double sign = 1;               // +1: a right flank wheels back clockwise; -1: a left flank anticlockwise
  WheelPivot about_pivot = WheelPivot::kRight;  // the pivot corner of `seg` turned about
};

Flank flank_of(const std::vector<OrientedRect>& line, double facing_deg, bool right, std::uint32_t k) {
  Flank f;
  const std::size_t n = line.size();
  std::vector<OrientedRect> rs;
  for (std::size_t i = 0; i < k && i < n; ++i) {
    f.idx.push_back(right ? n - k + i : i);
    rs.push_back(line[f.idx.back()]);
  }
  f.seg = envelope(rs, facing_deg);
  f.pivot = right ? f.seg.rear_left() : f.seg.rear_right();
  f.sign = right ? 1.0 : -1.0;
  f.about_pivot = right ? WheelPivot::kRight : WheelPivot::kLeft;
  return f;
}

// The flank's bases turned to face the rear: its rear edge becomes the front
// edge, so the core wheel (about a front corner) wheels it about its rear corner.
OrientedRect about_faced(const OrientedRect& r) { return {r.center, r.width, r.depth, normalize_deg(r.facing_deg + 180)}; }

// "measures the distance moved by the outside base": the arc of its outer front corner.
double flank_arc(const Flank& f, double angle_deg) {
  return deg_to_rad(angle_deg) * std::hypot(f.seg.width, f.seg.depth);
}

}  // namespace

bool has_refused_flank(const Pose& p) {
  return !p.gun && p.formation != Formation::kUnformed && !p.base_poses.empty();
}

std::optional<std::string> unformed_spacing_problem(const std::vector<OrientedRect>& bases) {
  const std::size_t n = bases.size();
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = i + 1; j < n; ++j) {
      if (overlaps(bases[i], bases[j], kEps)) {
        return "bases " + std::to_string(i) + " and " + std::to_string(j) + " would stand on top of each other";
      }
    }
  }
  // Connected through gaps of at most 1": every base is within 1" of another
  // and the brigade is not split into groups further apart.
  std::vector<bool> reached(n, false);
  std::vector<std::size_t> todo;
  if (n > 0) {
    reached[0] = true;
    todo.push_back(0);
  }
  while (!todo.empty()) {
    const std::size_t i = todo.back();
    todo.pop_back();
    for (std::size_t j = 0; j < n; ++j) {
      if (!reached[j] && distance(bases[i], bases[j]) <= kUnformedMaxGap + kEps) {
        reached[j] = true;
        todo.push_back(j);
      }
    }
  }
  for (std::size_t j = 0; j < n; ++j) {
    if (!reached[j]) {
      return "base " + std::to_string(j) + " would be more than 1\" from the rest of its brigade";
    }
  }
  return std::nullopt;
}

namespace {
}  // namespace

Pose pose_of(const Brigade& b) {
  Pose p;
  p.position = b.position;
  p.facing_deg = b.facing_deg;
  p.formation = b.formation;
  p.type = b.type;
  p.style = b.style;
  p.bases = b.bases;
  if (b.base_poses.size() == b.bases) p.base_poses = b.base_poses;
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
  if (!p.base_poses.empty() && p.base_poses.size() == p.bases) {
    return posed_bases(p.base_poses, base_size(p.type, p.style));
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
  b.base_poses = p.base_poses;
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
    s.wheel.emplace(e.wheel_body ? *e.wheel_body : pose_envelope(from), e.wheel_pivot, e.wheel_angle);
    s.poly = s.wheel->outline(8);
  } else {
    s.poly = e.swept;
    s.parts = e.parts;
  }
  return s;
}

bool sweep_hits(const StepSweep& s, const OrientedRect& r) {
  // Shrink the other body a hair so footprints that only touch do not count.
  const OrientedRect inner{r.center, std::max(0.0, r.width - 2 * kEps), std::max(0.0, r.depth - 2 * kEps),
                           r.facing_deg};
  if (s.wheel) return s.wheel->intersects(inner);
  if (!s.poly.bounds().intersects(inner.bounds())) return false;
  const Polygon ip = inner.polygon();
  if (!s.parts.empty()) {
    for (const auto& part : s.parts) {
      if (part.bounds().intersects(inner.bounds()) && intersects(part, ip)) return true;
    }
    return false;
  }
  return intersects(s.poly, ip);
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

  if (has_refused_flank(from) && a != "straighten" && a != "formation") {
    return no("refused_flank", who + " has a refused flank: 'straighten' it (or change formation) before '" + a + "'.");
  }

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
    if (!from.base_poses.empty()) {
      for (const auto& r : pose_bases(from)) e.parts.push_back(sweep_straight(r, d));
    }
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

  if (a == "refuse_step_back" || a == "refuse_wheel") {
    // "One or two bases of a brigade may step back while the rest remain in
    // place in order to refuse a flank"; "Only foot in line may perform a
    // backwards wheel with one or more of the brigade's bases in order to
    // refuse a flank ... Move at ½ speed".
    const bool wheel_back = a == "refuse_wheel";
    if (!is_foot_pose(from) || from.formation != Formation::kLine) {
      return no("refuse", who + ": only foot in a single line may refuse a flank.");
    }
    if (!wheel_back && ctx.grade > Grade::kD) {
      return no("refuse", who + ": only A-D grade foot in line may step back.");
    }
    if (step.pivot != "left" && step.pivot != "right") {
      return no("bad_side", who + ": refuse the \"left\" or \"right\" flank (OrderStep.pivot).");
    }
    const auto k = parse_count(step.target);
    const std::uint32_t most = wheel_back ? from.bases - 1 : std::min(kRefuseStepBackBases, from.bases - 1);
    if (!k || *k < 1 || *k > most) {
      return no("refuse_count", who + ": " + (wheel_back ? std::string("one or more bases may wheel back, the rest remaining")
                                                          : std::string("one or two bases may step back, the rest remaining")) +
                                    " in place: OrderStep.target is the number of bases, 1 to " + std::to_string(most) + ".");
    }
    const std::vector<OrientedRect> line = pose_bases(from);
    const Flank f = flank_of(line, from.facing_deg, step.pivot == "right", *k);
    std::vector<BasePose> poses = poses_of(line);
    e.end = from;
    e.moves = true;
    e.refuse = true;
    if (!wheel_back) {
      if (ctx.dice) {
        return no("refuse", who + ": stepping back is done instead of a normal move, without dice (declare 'manoeuvre').");
      }
      if (step.distance <= 0 || step.distance > kRefuseStepBackMax + kEps) {
        return no("too_far", who + ": bases step back up to 1\", not " + inches(step.distance) + ".");
      }
      const Vec2 back = facing_unit(from.facing_deg + 180) * step.distance;
      for (std::size_t i : f.idx) poses[i].center = poses[i].center + back;
      e.swept = sweep_straight(f.seg, back);
      e.fraction = 1;  // "Takes 1 full move."
    } else {
      if (auto r = need_dice()) return *r;
      const double ang = step.angle_deg;
      if (ang <= kEps || ang > kRefuseWheelMaxDeg + kEps) {
        return no("bad_angle", who + ": a flank wheels back through more than 0° and at most 90°, not " +
                                   degrees(ang) + ".");
      }
      for (std::size_t i : f.idx) {
        poses[i].center = rotate_cw_about(poses[i].center, f.pivot, f.sign * ang);
        poses[i].facing_deg = normalize_deg(from.facing_deg + f.sign * ang);
      }
      e.wheel = true;
      e.wheel_body = about_faced(f.seg);
      e.wheel_pivot = f.about_pivot;
      e.wheel_angle = ang;
      e.inches = 2 * flank_arc(f, ang);  // "½ speed if wheeling backwards to refuse a flank"
      if (ctx.within6) e.dps = 1;        // "1 DP if in line within 6 inches of enemy"
    }
    e.end.base_poses = std::move(poses);
    return e;
  }

  if (a == "straighten") {
    // Bringing a refused flank back into line: the reverse of the manoeuvre
    // that refused it (RULINGS.md M21).
    if (!has_refused_flank(from)) return no("straighten", who + " has no refused flank to straighten.");
    Pose line_pose = from;
    line_pose.base_poses.clear();
    const std::vector<OrientedRect> line = pose_bases(line_pose);
    std::vector<std::size_t> out;
    bool wheeled = false;
    for (std::size_t i = 0; i < line.size() && i < from.base_poses.size(); ++i) {
      const BasePose& bp = from.base_poses[i];
      const bool turned = std::abs(angle_diff_deg(bp.facing_deg, line[i].facing_deg)) > 1e-6;
      if (turned || distance(bp.center, line[i].center) > 1e-6) out.push_back(i);
      wheeled = wheeled || turned;
    }
    e.end = line_pose;
    e.refuse = true;
    if (out.empty()) return e;
    e.moves = true;
    const bool right = out.back() == line.size() - 1;
    const Flank f = flank_of(line, from.facing_deg, right, static_cast<std::uint32_t>(out.size()));
    if (wheeled) {
      if (auto r = need_dice()) return *r;
      const double ang = std::abs(angle_diff_deg(from.base_poses[out.front()].facing_deg, from.facing_deg));
      e.wheel = true;
      e.wheel_body = about_faced(f.seg);
      e.wheel_pivot = f.about_pivot;
      e.wheel_angle = ang;
      e.inches = flank_arc(f, ang);  // a forward wheel: normal speed
      if (ctx.within6) e.dps = 1;
    } else {
      if (ctx.dice) return no("straighten", who + ": stepping forward again is done without dice (declare 'manoeuvre').");
      const double d = distance(from.base_poses[out.front()].center, line[out.front()].center);
      e.swept = sweep_straight(f.seg, facing_unit(from.facing_deg + 180) * d);
      e.fraction = 1;
    }
    return e;
  }

  if (a == "base") {
    // "bases are moved individually with no penalties for manoeuvre"; "They
    // are considered to be facing all-round". The spacing ("may not ... be
    // separated by more than 1 inch") is judged once the whole order is in.
    if (!unformed) return no("base", who + ": only unformed brigades move their bases one by one.");
    if (auto r = need_dice()) return *r;
    const auto k = parse_count(step.target);
    if (!k || *k >= from.bases) {
      return no("bad_base", who + ": OrderStep.target names the base to move, 0 to " + std::to_string(from.bases - 1) + ".");
    }
    Pose q = from;
    if (q.base_poses.empty()) q.base_poses = poses_of(pose_bases(from));
    const BaseSize size = base_size(from.type, from.style);
    BasePose& bp = q.base_poses[*k];
    const OrientedRect r0{bp.center, size.width, size.depth, bp.facing_deg};
    bp.center = step.to;
    bp.facing_deg = normalize_deg(bp.facing_deg + step.angle_deg);
    const OrientedRect r1{bp.center, size.width, size.depth, bp.facing_deg};
    q.position = envelope(posed_bases(q.base_poses, size), q.facing_deg).front_mid();
    std::vector<Vec2> pts;
    for (Vec2 c : r0.corners()) pts.push_back(c);
    for (Vec2 c : r1.corners()) pts.push_back(c);
    e.end = std::move(q);
    e.swept = convex_hull(pts);
    e.parts = {e.swept};
    e.base_index = static_cast<int>(*k);
    e.base_path = distance(r0.center, r1.center);
    e.moves = e.base_path > kEps;
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
    if (*f == from.formation && std::abs(turn) < kEps && from.base_poses.empty()) {
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
      e.end = rearranged(from, from.formation, step.angle_deg, true);
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
    e.end.base_poses.clear();  // re-based: the new bases stand in their formation
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
