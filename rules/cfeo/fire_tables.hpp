#pragma once
// The sheet's "Shooting" tables: ranges, direct artillery, indirect
// artillery's fall of shot, and musketry beyond 40 yds. Pure functions of
// plain inputs; the engine finds the inputs (distances, targets, cover) on
// the table. Rulings T1-T4 (RULINGS.md "Tables").
#include <span>
#include <string_view>
#include <vector>

#include "rules/cfeo/table_terms.hpp"
#include "rules/core/dice.hpp"

namespace galloper::rules::cfeo::tables {

// ---- Ranges ("Maximum Range / Effective Range / Close Range"), yards ----

// "Heavy Gun" and "Field/Bn Gun" share a row of ranges; the battalion gun
// differs only in its -1 to hit.
enum class GunClass : std::uint8_t { kHeavy, kField, kBattalion };

struct GunRanges {
  int maximum = 0;
  int effective = 0;
  int close = 0;
};
constexpr GunRanges gun_ranges(GunClass gun) {
  return gun == GunClass::kHeavy ? GunRanges{720, 360, 120} : GunRanges{480, 240, 120};
}

// Musketry: "120 yds - 40 yds" (no effective range). Within 40 yds fire is
// close fire, part of combat.
inline constexpr int kMusketryMaximumRange = 120;
inline constexpr int kMusketryCloseRange = 40;

// Where a distance falls: "within" a range includes its boundary (T3).
enum class GunRange : std::uint8_t {
  kClose,       // <= close range
  kEffective,   // beyond close, <= effective range
  kLong,        // beyond effective, <= maximum range
  kOutOfRange,  // beyond maximum range: no shot
};
GunRange gun_range(GunClass gun, double yards);

enum class MusketRange : std::uint8_t {
  kClose,       // <= 40 yds: close fire, in the combat phase
  kMusketry,    // beyond 40, <= 120 yds: the musketry phase
  kOutOfRange,  // beyond 120 yds
};
MusketRange musket_range(double yards);

// ---- Direct artillery ("Roll 1 D6 per gun") ----

// "Same target and range +1", "New target -1"; a gun that fires again at
// the same target at another range band takes neither. A gun's first shot
// is at a new target (T1).
enum class TargetHistory : std::uint8_t { kNewTarget, kSameTargetOtherRange, kSameTargetAndRange };

struct DirectShot {
  GunClass gun = GunClass::kField;
  GunRange range = GunRange::kEffective;  // not kOutOfRange
  TargetHistory target = TargetHistory::kNewTarget;
  bool column_or_enfilade = false;  // target in column, or fired on in enfilade: +1 once (T1)
  int gun_dps = 0;                  // "Each DP -1": the firing gun's DPs
  bool target_in_fieldworks = false;
};

// Every line of the modifier list that applies, in the sheet's order.
std::vector<Modifier> direct_fire_modifiers(const DirectShot& shot);
int direct_fire_modifier(const DirectShot& shot);

// The results: "Beyond close range: 4+ = 1 DP"; "Close range: 2-3 = 1 DP,
// 4+ = 2 DPs". The modified total is read as it is, whatever it comes to
// (T2): above 6 it is still 4+, below 1 it does nothing.
int direct_fire_dps(int total, GunRange range);

struct DirectFireRoll {
  int face = 0;   // the D6 as rolled
  int total = 0;  // face + modifier
  int dps = 0;
  friend bool operator==(const DirectFireRoll&, const DirectFireRoll&) = default;
};
// One D6 for the gun. The shot must be in range.
DirectFireRoll roll_direct_fire(Dice& dice, const DirectShot& shot);

// ---- Indirect artillery: fall of shot ----

enum class FallOfShot : std::uint8_t { kShort, kOver, kRight, kLeft, kOnTarget };
std::string_view to_string(FallOfShot f);
// "1 = falls short. 2 = overshoots. 3 = falls to the right. 4 = falls to the
// left. 5+ = on target." Totals below 1 cannot happen (the only modifier is +1).
FallOfShot fall_of_shot(int total);

// "1 DP on any troops (friendly or enemy) within 10 yds of fall of shot."
inline constexpr int kFallOfShotRadius = 10;
inline constexpr int kFallOfShotDps = 1;

struct IndirectFireRoll {
  int face = 0;
  int total = 0;  // face, +1 "if shooting at same target which has not since moved"
  FallOfShot fall = FallOfShot::kShort;
  friend bool operator==(const IndirectFireRoll&, const IndirectFireRoll&) = default;
};
IndirectFireRoll roll_indirect_fire(Dice& dice, bool same_target_not_moved);

// ---- Musketry beyond 40 yds ----

struct Volley {
  int bases_able_to_fire = 0;
  int firer_dps = 0;               // "-DPs on unit firing": one die fewer each
  bool skirmishers = false;        // the firers are skirmishers
  bool target_in_cover = false;    // "target in fieldworks/hard cover"
};
// "1 D6 per base able to give fire -DPs on unit firing. Halve dice if
// skirmishers, or if target in fieldworks/hard cover (once only). Round up."
// DPs come off first, then the one halving, rounded up; never below 0 (T4).
int musketry_dice(const Volley& volley);

// "Result: 6 = 1 DP on target": one DP for each 6.
int musketry_dps(std::span<const int> faces);

struct MusketryRoll {
  std::vector<int> faces;
  int dps = 0;
  friend bool operator==(const MusketryRoll&, const MusketryRoll&) = default;
};
MusketryRoll roll_musketry(Dice& dice, const Volley& volley);

}  // namespace galloper::rules::cfeo::tables
