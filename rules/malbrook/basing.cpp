#include "rules/malbrook/basing.hpp"

#include <algorithm>

namespace galloper::rules::malbrook {

BaseSize base_size(TroopType type, FightingStyle style) {
  const bool is_new = style == FightingStyle::kNew;
  switch (type) {
    case TroopType::kFoot:
    case TroopType::kDismountedDragoons:
      return is_new ? BaseSize{1.0, 0.75} : BaseSize{1.0, 1.0};
    case TroopType::kHorse:
    case TroopType::kDragoons:
      return is_new ? BaseSize{1.25, 1.25} : BaseSize{1.0, 1.25};
    case TroopType::kHussars:
      return {1.25, 1.25};
    case TroopType::kCivilians:
      return {1.0, 1.0};
  }
  return {1.0, 1.0};
}

BaseSize gun_base_size(GunWeight weight) {
  return weight == GunWeight::kLight ? BaseSize{1.0, 1.5} : BaseSize{1.5, 1.5};
}

BaseSize leader_base_size(LeaderRank rank) {
  switch (rank) {
    case LeaderRank::kMajorGeneral: return {0.75, 1.25};
    case LeaderRank::kLieutenantGeneral: return {1.0, 1.25};
    case LeaderRank::kMarshal: return {1.5, 1.25};
  }
  return {1.0, 1.25};
}

int bases_per_rank(Formation formation, std::uint32_t bases) {
  const int n = static_cast<int>(bases);
  switch (formation) {
    case Formation::kLine:
    case Formation::kUnformed: return std::max(n, 1);
    case Formation::kTwoRankLine: return std::max((n + 1) / 2, 1);
    case Formation::kMarchColumn: return 1;
    case Formation::kFieldColumn: return 2;
  }
  return std::max(n, 1);
}

bool two_rank_line_allowed(BaseSize base, std::uint32_t bases) {
  if (bases < 2) return false;
  const double width = base.width * bases_per_rank(Formation::kTwoRankLine, bases);
  return width + kGeomEpsilon >= 2 * base.depth;
}

bool field_column_allowed(std::uint32_t bases) { return bases >= 3; }

std::vector<OrientedRect> layout(Vec2 front_mid, double facing_deg, BaseSize base,
                                 std::uint32_t bases, Formation formation) {
  const double gap_x = formation == Formation::kUnformed ? kUnformedGap : 0.0;
  return layout_ranks(front_mid, facing_deg, base.width, base.depth, static_cast<int>(bases),
                      bases_per_rank(formation, bases), gap_x, 0.0);
}

std::vector<OrientedRect> posed_bases(const std::vector<BasePose>& poses, BaseSize base) {
  std::vector<OrientedRect> out;
  out.reserve(poses.size());
  for (const auto& p : poses) out.push_back({p.center, base.width, base.depth, p.facing_deg});
  return out;
}

std::vector<BasePose> poses_of(const std::vector<OrientedRect>& bases) {
  std::vector<BasePose> out;
  out.reserve(bases.size());
  for (const auto& r : bases) out.push_back({r.center, r.facing_deg});
  return out;
}

std::vector<OrientedRect> footprint(const Brigade& b) {
  if (!b.base_poses.empty() && b.base_poses.size() == b.bases) {
    return posed_bases(b.base_poses, base_size(b.type, b.style));
  }
  return layout(b.position, b.facing_deg, base_size(b.type, b.style), b.bases, b.formation);
}

OrientedRect footprint(const Gun& g) {
  const BaseSize s = gun_base_size(g.weight);
  return OrientedRect::from_front_mid(g.position, s.width, s.depth, g.facing_deg);
}

OrientedRect footprint(const Leader& l) {
  const BaseSize s = leader_base_size(l.rank);
  return OrientedRect::from_front_mid(l.position, s.width, s.depth, l.facing_deg);
}

OrientedRect footprint(const Messenger& m) {
  const BaseSize s = leader_base_size(LeaderRank::kMajorGeneral);
  return OrientedRect::from_front_mid(m.position, s.width, s.depth, m.facing_deg);
}

OrientedRect horse_holder_footprint(const Brigade& b) {
  const BaseSize s = base_size(TroopType::kDismountedDragoons, b.style);
  return OrientedRect::from_front_mid(b.horse_holders.value_or(b.position), s.width, s.depth, b.facing_deg);
}

Vec2 attached_leader_position(const Brigade& b) {
  const auto bases = footprint(b);
  if (bases.empty()) return b.position;
  return envelope(bases, b.facing_deg).rear_mid();
}

}  // namespace galloper::rules::malbrook
