#include "rules/cfeo/fire_tables.hpp"

#include <algorithm>
#include <cassert>

namespace galloper::rules::cfeo::tables {

GunRange gun_range(GunClass gun, double yards) {
  const GunRanges r = gun_ranges(gun);
  if (yards <= r.close) return GunRange::kClose;
  if (yards <= r.effective) return GunRange::kEffective;
  if (yards <= r.maximum) return GunRange::kLong;
  return GunRange::kOutOfRange;
}

MusketRange musket_range(double yards) {
  if (yards <= kMusketryCloseRange) return MusketRange::kClose;
  if (yards <= kMusketryMaximumRange) return MusketRange::kMusketry;
  return MusketRange::kOutOfRange;
}

std::vector<Modifier> direct_fire_modifiers(const DirectShot& shot) {
  std::vector<Modifier> out;
  if (shot.target == TargetHistory::kSameTargetAndRange) out.push_back({"same target and range", +1});
  if (shot.target == TargetHistory::kNewTarget) out.push_back({"new target", -1});
  if (shot.column_or_enfilade) out.push_back({"column or enfilade", +1});
  if (shot.gun_dps > 0) out.push_back({"each DP", -shot.gun_dps});
  if (shot.range == GunRange::kLong) out.push_back({"beyond effective range", -1});
  if (shot.target_in_fieldworks) out.push_back({"target in fieldworks", -1});
  if (shot.gun == GunClass::kHeavy) out.push_back({"heavy gun", +1});
  if (shot.gun == GunClass::kBattalion) out.push_back({"battalion gun", -1});
  return out;
}

int direct_fire_modifier(const DirectShot& shot) {
  int total = 0;
  for (const Modifier& m : direct_fire_modifiers(shot)) total += m.value;
  return total;
}

int direct_fire_dps(int total, GunRange range) {
  switch (range) {
    case GunRange::kClose:
      if (total >= 4) return 2;
      return total >= 2 ? 1 : 0;
    case GunRange::kEffective:
    case GunRange::kLong:
      return total >= 4 ? 1 : 0;
    case GunRange::kOutOfRange:
      return 0;
  }
  return 0;
}

DirectFireRoll roll_direct_fire(Dice& dice, const DirectShot& shot) {
  assert(shot.range != GunRange::kOutOfRange && "no shot beyond maximum range");
  DirectFireRoll r;
  r.face = dice.d6();
  r.total = r.face + direct_fire_modifier(shot);
  r.dps = direct_fire_dps(r.total, shot.range);
  return r;
}

std::string_view to_string(FallOfShot f) {
  switch (f) {
    case FallOfShot::kShort: return "falls short";
    case FallOfShot::kOver: return "overshoots";
    case FallOfShot::kRight: return "falls to the right";
    case FallOfShot::kLeft: return "falls to the left";
    case FallOfShot::kOnTarget: return "on target";
  }
  return "";
}

FallOfShot fall_of_shot(int total) {
  if (total <= 1) return FallOfShot::kShort;
  switch (total) {
    case 2: return FallOfShot::kOver;
    case 3: return FallOfShot::kRight;
    case 4: return FallOfShot::kLeft;
    default: return FallOfShot::kOnTarget;
  }
}

IndirectFireRoll roll_indirect_fire(Dice& dice, bool same_target_not_moved) {
  IndirectFireRoll r;
  r.face = dice.d6();
  r.total = r.face + (same_target_not_moved ? 1 : 0);
  r.fall = fall_of_shot(r.total);
  return r;
}

int musketry_dice(const Volley& volley) {
  const int dice = std::max(0, volley.bases_able_to_fire - std::max(0, volley.firer_dps));
  // Once only, whichever of the causes apply; halving rounds up.
  if (volley.skirmishers || volley.target_in_cover) return (dice + 1) / 2;
  return dice;
}

int musketry_dps(std::span<const int> faces) {
  return static_cast<int>(std::count(faces.begin(), faces.end(), 6));
}

MusketryRoll roll_musketry(Dice& dice, const Volley& volley) {
  MusketryRoll r;
  r.faces = dice.d6s(musketry_dice(volley));
  r.dps = musketry_dps(r.faces);
  return r;
}

}  // namespace galloper::rules::cfeo::tables
