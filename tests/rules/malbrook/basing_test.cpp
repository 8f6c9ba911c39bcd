// Base sizes ("Basing") and footprints per formation ("Brigade Formations").
#include <gtest/gtest.h>

#include "rules/malbrook/basing.hpp"

namespace galloper::rules::malbrook {
namespace {

TEST(BaseSize, PerTroopTypeAndStyle) {
  using T = TroopType;
  using S = FightingStyle;
  EXPECT_EQ(base_size(T::kFoot, S::kTraditional), (BaseSize{1.0, 1.0}));
  EXPECT_EQ(base_size(T::kFoot, S::kNew), (BaseSize{1.0, 0.75}));
  EXPECT_EQ(base_size(T::kHorse, S::kTraditional), (BaseSize{1.0, 1.25}));
  EXPECT_EQ(base_size(T::kDragoons, S::kTraditional), (BaseSize{1.0, 1.25}));
  EXPECT_EQ(base_size(T::kHorse, S::kNew), (BaseSize{1.25, 1.25}));
  EXPECT_EQ(base_size(T::kDragoons, S::kNew), (BaseSize{1.25, 1.25}));
  EXPECT_EQ(base_size(T::kHussars, S::kTraditional), (BaseSize{1.25, 1.25}));
  EXPECT_EQ(base_size(T::kHussars, S::kNew), (BaseSize{1.25, 1.25}));
  EXPECT_EQ(base_size(T::kDismountedDragoons, S::kTraditional), (BaseSize{1.0, 1.0}));
  EXPECT_EQ(base_size(T::kCivilians, S::kNew), (BaseSize{1.0, 1.0}));
}

TEST(BaseSize, GunsAndLeaders) {
  EXPECT_EQ(gun_base_size(GunWeight::kLight), (BaseSize{1.0, 1.5}));
  EXPECT_EQ(gun_base_size(GunWeight::kMedium), (BaseSize{1.5, 1.5}));
  EXPECT_EQ(gun_base_size(GunWeight::kHeavy), (BaseSize{1.5, 1.5}));
  EXPECT_EQ(gun_base_size(GunWeight::kHowitzer), (BaseSize{1.5, 1.5}));
  EXPECT_EQ(leader_base_size(LeaderRank::kMajorGeneral), (BaseSize{0.75, 1.25}));
  EXPECT_EQ(leader_base_size(LeaderRank::kLieutenantGeneral), (BaseSize{1.0, 1.25}));
  EXPECT_EQ(leader_base_size(LeaderRank::kMarshal), (BaseSize{1.5, 1.25}));
}

void expect_centers(const std::vector<OrientedRect>& bases, const std::vector<Vec2>& centers, double w, double d) {
  ASSERT_EQ(bases.size(), centers.size());
  for (std::size_t i = 0; i < bases.size(); ++i) {
    EXPECT_NEAR(bases[i].center.x, centers[i].x, 1e-12) << "base " << i;
    EXPECT_NEAR(bases[i].center.y, centers[i].y, 1e-12) << "base " << i;
    EXPECT_EQ(bases[i].width, w);
    EXPECT_EQ(bases[i].depth, d);
  }
}

const BaseSize kTradFoot{1.0, 1.0};

TEST(Footprint, LineSideBySide) {
  expect_centers(layout({10, 10}, 0, kTradFoot, 4, Formation::kLine),
                 {{8.5, 9.5}, {9.5, 9.5}, {10.5, 9.5}, {11.5, 9.5}}, 1, 1);
}

TEST(Footprint, TwoRankLineShortRankCentredBehind) {
  expect_centers(layout({10, 10}, 0, kTradFoot, 5, Formation::kTwoRankLine),
                 {{9, 9.5}, {10, 9.5}, {11, 9.5}, {9.5, 8.5}, {10.5, 8.5}}, 1, 1);
}

TEST(Footprint, MarchColumnSingleFile) {
  expect_centers(layout({10, 10}, 0, {1.0, 0.75}, 3, Formation::kMarchColumn),
                 {{10, 9.625}, {10, 8.875}, {10, 8.125}}, 1, 0.75);
}

TEST(Footprint, FieldColumnTwoWideSmallestRankAtTheRear) {
  expect_centers(layout({10, 10}, 0, kTradFoot, 5, Formation::kFieldColumn),
                 {{9.5, 9.5}, {10.5, 9.5}, {9.5, 8.5}, {10.5, 8.5}, {10, 7.5}}, 1, 1);
}

TEST(Footprint, UnformedBasesSpacedHalfAnInch) {
  expect_centers(layout({10, 10}, 0, {1.25, 1.25}, 3, Formation::kUnformed),
                 {{8.25, 9.375}, {10, 9.375}, {11.75, 9.375}}, 1.25, 1.25);
  EXPECT_LE(kUnformedGap, 1.0);  // "may not be separated by more than 1 inch"
}

TEST(Footprint, FacingEastPutsTheLeftBaseNorth) {
  const auto bases = layout({10, 10}, 90, {1.0, 1.25}, 2, Formation::kLine);
  expect_centers(bases, {{9.375, 10.5}, {9.375, 9.5}}, 1, 1.25);
  EXPECT_EQ(bases[0].facing_deg, 90);
}

TEST(Footprint, OfABrigadeUsesItsTypeAndStyle) {
  Brigade b;
  b.type = TroopType::kHorse;
  b.style = FightingStyle::kNew;
  b.bases = 2;
  b.formation = Formation::kLine;
  b.position = {0, 0};
  b.facing_deg = 180;  // facing south: its left is to the east
  expect_centers(footprint(b), {{0.625, 0.625}, {-0.625, 0.625}}, 1.25, 1.25);
}

TEST(Footprint, GunAndLeaderStandsHangBackFromTheirFrontEdge) {
  Gun g;
  g.weight = GunWeight::kMedium;
  g.position = {5, 5};
  const OrientedRect r = footprint(g);
  EXPECT_DOUBLE_EQ(r.center.x, 5);
  EXPECT_DOUBLE_EQ(r.center.y, 4.25);
  EXPECT_EQ(r.width, 1.5);
  Leader l;
  l.rank = LeaderRank::kMarshal;
  l.position = {5, 5};
  EXPECT_DOUBLE_EQ(footprint(l).center.y, 4.375);
}

TEST(Formations, TwoRankLineAtLeastAsWideAsDeep) {
  EXPECT_TRUE(two_rank_line_allowed(kTradFoot, 3));         // 2" x 2"
  EXPECT_FALSE(two_rank_line_allowed({1.0, 1.25}, 4));      // 2" x 2.5"
  EXPECT_TRUE(two_rank_line_allowed({1.0, 1.25}, 5));       // 3" x 2.5"
  EXPECT_TRUE(two_rank_line_allowed({1.25, 1.25}, 3));      // 2.5" x 2.5"
  EXPECT_FALSE(two_rank_line_allowed(kTradFoot, 1));
  EXPECT_FALSE(field_column_allowed(2));
  EXPECT_TRUE(field_column_allowed(3));
}

TEST(Leaders, AttachedLeaderStandsBehindTheRearMiddle) {
  Brigade b;
  b.type = TroopType::kFoot;
  b.bases = 4;
  b.formation = Formation::kFieldColumn;
  b.position = {10, 10};
  const Vec2 p = attached_leader_position(b);
  EXPECT_DOUBLE_EQ(p.x, 10);
  EXPECT_DOUBLE_EQ(p.y, 8);
}

TEST(Leaders, ActionsByRankAndQuality) {
  Leader l;
  l.rank = LeaderRank::kMajorGeneral;
  EXPECT_EQ(l.base_actions(), 1);
  l.rank = LeaderRank::kMarshal;
  l.action_modifier = 1;  // Marlborough
  EXPECT_EQ(l.base_actions(), 3);
  l.action_modifier = -1;  // Burgundy
  EXPECT_EQ(l.base_actions(), 1);
}

}  // namespace
}  // namespace galloper::rules::malbrook
