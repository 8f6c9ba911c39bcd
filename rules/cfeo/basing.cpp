#include "rules/cfeo/basing.hpp"

#include <algorithm>
#include <limits>
#include <span>

namespace galloper::rules::cfeo {

namespace {

// Space between the bases of unformed troops, side by side in one rank.
constexpr double kUnformedGap = 10;

}  // namespace

BaseSize base_size(Arm arm) { return is_cavalry(arm) ? BaseSize{40, 30} : BaseSize{40, 20}; }

std::uint32_t bases_per_rank(const Unit& unit) {
  const std::uint32_t n = std::max<std::uint32_t>(unit.bases, 1);
  switch (unit.formation) {
    case Formation::kLine: return is_cavalry(unit.arm) ? (n + unit.ranks - 1) / std::max<std::uint32_t>(unit.ranks, 1) : n;
    case Formation::kAssaultColumn: return n < 4 ? 1 : 2;
    case Formation::kMarchColumn: return 1;
    case Formation::kUnformed: return n;
  }
  return n;
}

std::vector<OrientedRect> footprint(const Unit& unit) {
  if (unit.destroyed) return {};
  const BaseSize base = base_size(unit.arm);
  const std::uint32_t per_rank = bases_per_rank(unit);
  const double gap = unit.formation == Formation::kUnformed ? kUnformedGap : 0;
  const OrientedRect front = OrientedRect::from_front_mid(unit.position, base.width, base.depth, unit.facing_deg);
  const Vec2 forward = front.forward();
  const Vec2 right = front.right();
  std::vector<OrientedRect> out;
  out.reserve(unit.bases);
  for (std::uint32_t i = 0; i < unit.bases; ++i) {
    const std::uint32_t rank = i / per_rank;
    const std::uint32_t file = i % per_rank;
    // A short rear rank is centred behind the front rank.
    const std::uint32_t in_rank = std::min(per_rank, unit.bases - rank * per_rank);
    const double offset = (static_cast<double>(file) - (static_cast<double>(in_rank) - 1) / 2.0) * (base.width + gap);
    const Vec2 front_mid = unit.position + right * offset - forward * (base.depth * static_cast<double>(rank));
    out.push_back(OrientedRect::from_front_mid(front_mid, base.width, base.depth, unit.facing_deg));
  }
  return out;
}

double group_gap(const std::vector<OrientedRect>& a, const std::vector<OrientedRect>& b) {
  double best = std::numeric_limits<double>::infinity();
  for (const auto& r : a) best = std::min(best, distance(std::span<const OrientedRect>(b), r));
  return best;
}

OrientedRect footprint(const Gun& gun) {
  return OrientedRect::from_front_mid(gun.position, kGunBase.width, kGunBase.depth, gun.facing_deg);
}

OrientedRect footprint(const Leader& leader) {
  return OrientedRect::from_front_mid(leader.position, kLeaderBase.width, kLeaderBase.depth, leader.facing_deg);
}

}  // namespace galloper::rules::cfeo
