#pragma once
// Malbrook "Manoeuvre": each primitive of an order (OrderStep) on its own —
// where it leaves the unit, what part of the move it takes, what DPs it costs,
// and whether this unit may do it at all. The movement phase (movement.cpp)
// chains these and checks the whole path against the table.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rules/core/decision.hpp"
#include "rules/core/geometry.hpp"
#include "rules/core/result.hpp"
#include "rules/malbrook/state.hpp"
#include "rules/malbrook/types.hpp"

namespace galloper::rules::malbrook {

// A unit's shape at one moment of its move.
struct Pose {
  Vec2 position;  // middle of the front edge
  double facing_deg = 0;
  Formation formation = Formation::kLine;
  TroopType type = TroopType::kFoot;
  FightingStyle style = FightingStyle::kTraditional;
  std::uint32_t bases = 0;
  bool gun = false;
  GunWeight weight = GunWeight::kMedium;
  bool limbered = false;
  // Brigade::base_poses: a refused flank, or an unformed brigade's bases
  // placed one by one. Empty: laid out from position, facing and formation.
  std::vector<BasePose> base_poses;
};

Pose pose_of(const Brigade& b);
Pose pose_of(const Gun& g);
std::vector<OrientedRect> pose_bases(const Pose& p);
OrientedRect pose_envelope(const Pose& p);
void apply_pose(Brigade& b, const Pose& p);
void apply_pose(Gun& g, const Pose& p);

constexpr bool in_line(Formation f) { return f == Formation::kLine || f == Formation::kTwoRankLine; }
constexpr bool formed(Formation f) { return f != Formation::kUnformed; }

// Everything about the unit and its situation a single step's legality and
// cost depend on.
struct StepContext {
  std::string who;             // ref(id) (rules/core/tell.hpp) — for reasons
  bool dice = false;           // a diced (or road) move: distance may be spent
  bool road = false;
  double allowance = 0;        // inches for diced and road moves
  bool within6 = false;        // within 6" of enemy before this step
  bool under_fire = false;
  Grade grade = Grade::kC;
  bool controlled = true;      // guns: "may only unlimber if under control of a leader"
  bool is_unformed_status = false;  // routing, pursuing, evading: may not re-form
  int formation_changes = 0;   // formation changes already made in this move
  double first_formation_cost = 0;
};

// What one step does.
struct StepEffect {
  Pose end;
  double fraction = 0;  // of the whole move taken by a manoeuvre (1 = a full move)
  double inches = 0;    // distance spent from the allowance
  int dps = 0;          // manoeuvre DPs (before the 3-DP cap)
  bool moves = false;   // the unit left its spot (not stationary)
  bool wheel = false;   // the sweep is a wheel
  WheelPivot wheel_pivot = WheelPivot::kLeft;
  double wheel_angle = 0;     // core sign: > 0 forward
  Polygon swept;              // straight moves: the swept hull; in place: start U end hull
  // Where only part of the brigade wheels (a refused flank): the rect that
  // wheels, instead of the whole envelope.
  std::optional<OrientedRect> wheel_body;
  // Bases moving separately (unformed bases, a posed unformed brigade moving
  // on): the area each sweeps; `swept` then contains them all.
  std::vector<Polygon> parts;
  int base_index = -1;        // "base": the base moved
  double base_path = 0;       // "base": how far that base's centre travelled
  bool refuse = false;        // "refuse_step_back" / "refuse_wheel" / "straighten"
  bool formation_change = false;
  bool mount = false;
  bool dismount = false;
};

// The footprint geometry of a step's sweep: a WheelSweep for wheels.
struct StepSweep {
  Polygon poly;  // a containing polygon (exact for straight moves)
  std::optional<WheelSweep> wheel;
  std::vector<Polygon> parts;  // when not empty: what really sweeps (within poly)
};
StepSweep sweep_of(const Pose& from, const StepEffect& e);
bool sweep_hits(const StepSweep& s, const OrientedRect& r);  // interiors meet (touching is fine)

// The legality and effect of one step for a unit in `from`.
Result<StepEffect> manoeuvre_step(const Pose& from, const OrderStep& step, const StepContext& ctx);

// ---- Per-base poses ----
// Up to how far a base of an unformed brigade may be from the nearest other
// base of its brigade ("may not ... be separated by more than 1 inch").
inline constexpr double kUnformedMaxGap = 1.0;
// Bases that may step back to refuse a flank ("One or two bases"), how far
// ("up to 1 inch back"), and how far a flank may wheel back (RULINGS.md M21).
inline constexpr std::uint32_t kRefuseStepBackBases = 2;
inline constexpr double kRefuseStepBackMax = 1.0;
inline constexpr double kRefuseWheelMaxDeg = 90.0;

// True when the brigade stands in line with a refused flank.
bool has_refused_flank(const Pose& p);
// Empty when no two bases overlap and every base is within 1" of another
// so that the brigade is one connected group; else why not.
std::optional<std::string> unformed_spacing_problem(const std::vector<OrientedRect>& bases);

// Formations this unit may take ("Brigade Formations").
bool formation_allowed(const Pose& p, Formation f);
std::optional<Formation> formation_from_name(std::string_view name);

}  // namespace galloper::rules::malbrook
