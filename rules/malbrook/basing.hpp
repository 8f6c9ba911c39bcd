#pragma once
// Bases and footprints ("Basing", "Brigade Formations"). Sizes in inches.
#include <cstdint>
#include <vector>

#include "rules/core/geometry.hpp"
#include "rules/malbrook/state.hpp"
#include "rules/malbrook/types.hpp"

namespace galloper::rules::malbrook {

struct BaseSize {
  double width = 0;  // along the front
  double depth = 0;
  friend bool operator==(const BaseSize&, const BaseSize&) = default;
};

// Traditional foot 1"x1"; new style foot 1"x3/4"; traditional horse and
// mounted dragoons 1"x1 1/4"; new style horse, all hussars and new style
// dragoons 1 1/4"x1 1/4"; dismounted dragoons on a foot base of their style;
// civilians on a traditional foot base (RULINGS.md).
BaseSize base_size(TroopType type, FightingStyle style);
// Light guns 1" wide, medium/heavy 1 1/2" wide (the text); howitzers and
// mortars 1 1/2" wide; every gun base 1 1/2" deep (RULINGS.md).
BaseSize gun_base_size(GunWeight weight);
// Major General 3/4"x1 1/4" (one rider), Lieutenant General 1"x1 1/4" (two),
// Marshal 1 1/2"x1 1/4" (three) (RULINGS.md).
BaseSize leader_base_size(LeaderRank rank);

// Space between the bases of an unformed brigade, side by side in one rank
// ("spaced apart"; "may not be separated by more than 1 inch").
inline constexpr double kUnformedGap = 0.5;

// Bases in the front rank for a formation of `bases` bases:
// line and unformed all; two-rank line ceil(n/2); march column 1; field column 2.
int bases_per_rank(Formation formation, std::uint32_t bases);

// "A brigade in line may form two ranks deep as long as the formation is at
// least as wide as it is deep."
bool two_rank_line_allowed(BaseSize base, std::uint32_t bases);
// "Field Column ... two bases wide and two or more deep": at least 3 bases.
bool field_column_allowed(std::uint32_t bases);

// Each base of a brigade, front rank first, left to right as the troops face.
// `front_mid` is the middle of the front edge of the front rank. Ranks are
// centred on one axis; a short rear rank is centred behind the front rank.
std::vector<OrientedRect> layout(Vec2 front_mid, double facing_deg, BaseSize base,
                                 std::uint32_t bases, Formation formation);
// The rects of bases standing where `poses` put them (Brigade::base_poses).
std::vector<OrientedRect> posed_bases(const std::vector<BasePose>& poses, BaseSize base);
// The poses of laid-out bases (the inverse of posed_bases for a layout).
std::vector<BasePose> poses_of(const std::vector<OrientedRect>& bases);
// A brigade's bases: Brigade::base_poses when it has them, else its layout.
std::vector<OrientedRect> footprint(const Brigade& b);
OrientedRect footprint(const Gun& g);
OrientedRect footprint(const Leader& l);

// A messenger marker, "a single mounted staff officer or rider": a Major
// General's one-rider stand, front middle at its position (RULINGS.md R23).
OrientedRect footprint(const Messenger& m);
// A horse-holder marker, "a single dismounted dragoon and one or two horses":
// a dismounted dragoon base of the brigade's style, front middle at the
// marker's point, facing as the brigade (RULINGS.md R23). Only for brigades
// with Brigade::horse_holders.
OrientedRect horse_holder_footprint(const Brigade& b);

// Where an attached leader stands: his stand's front edge against the middle
// of the rear edge of the brigade, facing with it.
Vec2 attached_leader_position(const Brigade& b);

}  // namespace galloper::rules::malbrook
