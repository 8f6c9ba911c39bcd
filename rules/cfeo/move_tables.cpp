#include "rules/cfeo/move_tables.hpp"

#include <algorithm>
#include <numeric>

namespace galloper::rules::cfeo::tables {

int march_move_limit(Mover mover, bool march_column_on_road) {
  if (mover == Mover::kCavalry) return 240;
  return march_column_on_road ? 240 : 160;
}

int leader_move_limit(bool beyond_120_yds_of_enemy) { return beyond_120_yds_of_enemy ? 240 : 120; }

bool tactical_dice_allowed(Mover mover, const MoveDice& dice) {
  if (mover == Mover::kCavalry) return dice.avd == 1 || dice.avd == 2;
  return dice.avd == 1;
}

MoveDice fast_move_dice(Mover mover) { return {mover == Mover::kCavalry ? 2 : 1, true}; }

int move_yards(std::span<const int> faces, bool inspired, bool initial_rout_evade_or_retire) {
  const int pips = std::accumulate(faces.begin(), faces.end(), 0);
  const int per_die = (inspired ? 1 : 0) + (initial_rout_evade_or_retire ? 1 : 0);
  return (pips + per_die * static_cast<int>(faces.size())) * kYardsPerPip;
}

MoveRoll roll_move(Dice& dice, const MoveDice& which, bool inspired, bool initial_rout_evade_or_retire) {
  MoveRoll r;
  for (int i = 0; i < which.avd; ++i) r.faces.push_back(dice.avd());
  if (which.d6) r.faces.push_back(dice.d6());
  r.yards = move_yards(r.faces, inspired, initial_rout_evade_or_retire);
  return r;
}

int fatigue_threshold(Arm arm, MoveFormation formation, bool rough) {
  constexpr int kNone = 7;
  if (formation == MoveFormation::kMarchColumn || formation == MoveFormation::kUnformed) return kNone;
  const bool gun = arm == Arm::kGuns;
  const bool cavalry = arm == Arm::kCavalry;
  const bool assault_column = formation == MoveFormation::kAssaultColumn && !gun && !cavalry;
  if (!rough) return assault_column ? kNone : 6;
  if (gun || cavalry) return 4;
  return assault_column ? 6 : 5;
}

int fatigue_dps(std::span<const int> faces, Arm arm, MoveFormation formation, bool rough) {
  const int threshold = fatigue_threshold(arm, formation, rough);
  return static_cast<int>(std::count_if(faces.begin(), faces.end(), [&](int f) { return f >= threshold; }));
}

}  // namespace galloper::rules::cfeo::tables
