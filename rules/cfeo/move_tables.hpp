#pragma once
// The sheet's "Move Distances" and "Fatigue and Disorder" tables: march move
// limits, the dice of tactical and fast moves and the yards they give, and
// the DPs the move dice cost. Pure functions of plain inputs. Rulings
// T14-T16 (RULINGS.md "Tables").
#include <span>
#include <vector>

#include "rules/cfeo/table_terms.hpp"
#include "rules/core/dice.hpp"

namespace galloper::rules::cfeo::tables {

// "Tactical Move (within 120 yds of enemy)"; a march move "starts and ends
// beyond 120 yds of enemy".
inline constexpr int kTacticalZone = 120;
inline constexpr int kYardsPerPip = 10;  // "x 10yds"

// Who moves. "Limbered and battalion guns move at infantry speed. Other guns
// may not move once unlimbered other than to pivot": kGuns is a gun that may
// move, and moves as infantry does in every table below.
enum class Mover : std::uint8_t { kInfantry, kCavalry, kGuns };

// "March Move ... Infantry up to 160 yds, cavalry up to 240 yds. Infantry up
// to 240 yds if in march column on a road." (T14)
int march_move_limit(Mover mover, bool march_column_on_road);

// "Road move: up to 120 yds if in march column. No dice required."
inline constexpr int kTacticalRoadMove = 120;

// "Detached leaders/messengers: up to 120 yds, 240 yds if beyond 120 yds of
// enemy."
int leader_move_limit(bool beyond_120_yds_of_enemy);

// ---- Move dice ----

struct MoveDice {
  int avd = 1;      // average dice
  bool d6 = false;  // the optional D6
  friend bool operator==(const MoveDice&, const MoveDice&) = default;
};
// "Infantry: 1 AvD + 1 optional D6 x 10yds; Cavalry: 1 or 2 AvD + 1 optional
// D6 x 10yds."
bool tactical_dice_allowed(Mover mover, const MoveDice& dice);
// "Fast Move (evade, rout, retire and pursuit): Maximum dice and all optional
// additions."
MoveDice fast_move_dice(Mover mover);

// Yards from the faces of the move dice: the pips x 10, plus 10 for each die
// when inspired ("Inspired unit: +10 yds for each die rolled") and 10 more for
// each die on an initial rout, evade or retire move ("+10 yds for each die
// rolled on initial rout, evade or retire move (not pursuit)"). Both may
// apply to one move (T15).
int move_yards(std::span<const int> faces, bool inspired, bool initial_rout_evade_or_retire);

struct MoveRoll {
  std::vector<int> faces;  // the AvD first, then the D6
  int yards = 0;
  friend bool operator==(const MoveRoll&, const MoveRoll&) = default;
};
MoveRoll roll_move(Dice& dice, const MoveDice& which, bool inspired, bool initial_rout_evade_or_retire);

// ---- Fatigue and Disorder ----

enum class MoveFormation : std::uint8_t { kLine, kAssaultColumn, kMarchColumn, kUnformed };

// The lowest face of a move die that costs a DP; 7 when none does.
//   march column, unformed: none.
//   good terrain: line or gun 6; assault column none.
//   rough terrain: line 5-6; cavalry or gun 4-6; assault column 6.
// Cavalry in any formation but march column or unformed fight as a line
// (T16).
int fatigue_threshold(Arm arm, MoveFormation formation, bool rough);
// One DP for each move die at or above the threshold (T16).
int fatigue_dps(std::span<const int> faces, Arm arm, MoveFormation formation, bool rough);

}  // namespace galloper::rules::cfeo::tables
