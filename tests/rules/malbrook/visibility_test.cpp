// Malbrook "Visibility" on the core framework (visibility.hpp): what the
// ruleset decides itself -- who stands on higher elevation.
#include <gtest/gtest.h>

#include "rules/malbrook/visibility.hpp"
#include "tests/rules/malbrook/test_state.hpp"

namespace galloper::rules::malbrook {
namespace {

using test::brigade;
using test::tiny_state;

// fr_b1 (foot, front edge y = 10, x 14..18, its bases y 9..10) with a
// fortification drawn ¼" wide along y = 10.1 in front of it: the work
// touches its front. al_b1 stands 40" off on the diagonal; fr_b2 3" ahead of
// fr_b1 across the line of sight to al_b2.
GameState behind_a_fortification(bool fortified) {
  GameState s = tiny_state();
  if (fortified) {
    Feature f;
    f.id = "works";
    f.kind = TerrainKind::kFortification;
    f.points = {{8, 10.1}, {24, 10.1}};
    s.features = {f};
  }
  s.terrain = make_terrain_map(s.features);
  brigade(s, "fr_b2").position = {16, 14};  // 3" ahead: y 13..14
  brigade(s, "al_b1").position = {55, 29};  // beyond 36", within 48"
  brigade(s, "al_b2").position = {16, 24};  // straight ahead, behind fr_b2
  return s;
}

bool sees(const GameState& s, std::string_view observer, std::string_view target) {
  const SceneLookup scene(s);
  const auto index = [&](std::string_view id) {
    return static_cast<std::size_t>(s.find_brigade(id) - s.brigades.data());
  };
  const auto o = scene.find(PieceKind::kBrigade, index(observer));
  const auto t = scene.find(PieceKind::kBrigade, index(target));
  EXPECT_TRUE(o && t);
  return o && t && scene.sees(*o, *t);
}

double elevation_of(const GameState& s, std::string_view id) {
  const SceneLookup scene(s);
  const auto o =
      scene.find(PieceKind::kBrigade, static_cast<std::size_t>(s.find_brigade(id) - s.brigades.data()));
  return o ? scene.scene().scene.objects[*o].elevation : -1;
}

// "Troops on higher elevation (hill or fortification) can see over
// intervening brigades that are at least 2 inches away ... Higher elevation
// increases visibility to 48 inches." (RULINGS R20)
TEST(Elevation, TroopsAtAFortificationSeeFromHigherElevation) {
  const GameState open = behind_a_fortification(false);
  EXPECT_EQ(elevation_of(open, "fr_b1"), 0);
  EXPECT_FALSE(sees(open, "fr_b1", "al_b1"));  // over 36"
  EXPECT_FALSE(sees(open, "fr_b1", "al_b2"));  // fr_b2 in the way

  const GameState works = behind_a_fortification(true);
  EXPECT_EQ(elevation_of(works, "fr_b1"), 1);
  EXPECT_EQ(elevation_of(works, "fr_b2"), 0);  // 3" from the work: not at it
  EXPECT_TRUE(sees(works, "fr_b1", "al_b1"));  // 48"
  EXPECT_TRUE(sees(works, "fr_b1", "al_b2"));  // over fr_b2, 3" away
  EXPECT_FALSE(sees(works, "fr_b2", "al_b1"));

  // Standing back from the work (its front 1" short of it) is not being at it.
  GameState back = behind_a_fortification(true);
  brigade(back, "fr_b1").position = {16, 9};
  EXPECT_EQ(elevation_of(back, "fr_b1"), 0);
  EXPECT_FALSE(sees(back, "fr_b1", "al_b1"));
}

// A fortification raises its defenders above the ground it stands on: on a
// 1" hill they stand at 2".
TEST(Elevation, AFortificationOnAHillStandsAboveIt) {
  GameState s = behind_a_fortification(true);
  Feature hill;
  hill.id = "hill";
  hill.kind = TerrainKind::kHill;
  hill.points = {{6, 6}, {26, 6}, {26, 16}, {6, 16}};
  hill.closed = true;
  hill.elevation = 1;
  s.features.push_back(hill);
  s.terrain = make_terrain_map(s.features);
  EXPECT_EQ(elevation_of(s, "fr_b1"), 2);
  EXPECT_EQ(elevation_of(s, "fr_b2"), 1);
  // fr_b2 stands on the same hill, lower than the defenders: they see over it.
  EXPECT_TRUE(sees(s, "fr_b1", "al_b2"));
}

}  // namespace
}  // namespace galloper::rules::malbrook
