#pragma once
// Bases and footprints, in yards (RULINGS F4): what a piece covers on the
// table, for sight, contact and the views.
#include <cstdint>
#include <vector>

#include "rules/cfeo/state.hpp"
#include "rules/core/geometry.hpp"

namespace galloper::rules::cfeo {

struct BaseSize {
  double width = 0;  // along the front
  double depth = 0;
  friend bool operator==(const BaseSize&, const BaseSize&) = default;
};

// Foot 40 x 20 yds, cavalry 40 x 30 yds, a gun 30 x 40 yds, a leader's stand
// 20 x 20 yds.
BaseSize base_size(Arm arm);
inline constexpr BaseSize kGunBase{30, 40};
inline constexpr BaseSize kLeaderBase{20, 20};

// Bases in each rank: line all (cavalry: over `ranks` ranks), assault column
// two abreast (one for a unit of fewer than four bases), march column one;
// unformed troops stand in one loose rank.
std::uint32_t bases_per_rank(const Unit& unit);

// Each base of a unit, front rank first, left to right as the troops face;
// none once it is destroyed.
std::vector<OrientedRect> footprint(const Unit& unit);
// The yards between the nearest bases of two groups (infinite if either is empty).
double group_gap(const std::vector<OrientedRect>& a, const std::vector<OrientedRect>& b);
OrientedRect footprint(const Gun& gun);
OrientedRect footprint(const Leader& leader);

}  // namespace galloper::rules::cfeo
