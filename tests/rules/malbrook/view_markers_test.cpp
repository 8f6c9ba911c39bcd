// Messengers and markers on the table ("Visibility": "Leaders, messengers,
// and markers do not block line of sight and they have the same ability to
// see things as normal brigades"; "Markers": messenger and horse-holder
// markers): in the visibility scene and in each seat's view.
#include <gtest/gtest.h>

#include <algorithm>

#include "rules/malbrook/basing.hpp"
#include "rules/malbrook/seats.hpp"
#include "rules/malbrook/view.hpp"
#include "rules/malbrook/visibility.hpp"
#include "tests/rules/malbrook/artillery_helpers.hpp"
#include "tests/rules/malbrook/test_state.hpp"

namespace galloper::rules::malbrook {
namespace {

using namespace test;

const UnitView* unit(const View& v, std::string_view id) {
  for (const auto& u : v.units) {
    if (u.id == id) return &u;
  }
  return nullptr;
}

Messenger messenger(Vec2 at) {
  Messenger m;
  m.id = "msg1";
  m.army = "fr";
  m.from = "fr_m";  // the Marshal: seat fr/army
  m.to = "fr_lg";
  m.position = at;
  m.facing_deg = 0;
  return m;
}

ViewSettings wing_only() {
  ViewSettings v;
  v.side_shared_vision = false;
  return v;
}

TEST(MessengerView, OwnSideAlwaysEnemyOnlyWhenSeenUmpireAll) {
  GameState s = tiny_state();
  s.messengers.push_back(messenger({5, 3}));  // ~46" from every Allied piece
  const View own = view_for(s, "fr/army", ViewSettings{});
  const UnitView* u = unit(own, "msg1");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->kind, UnitKind::kMessenger);
  EXPECT_EQ(u->knowledge, Knowledge::kOwn);
  EXPECT_EQ(u->side, "fr");
  EXPECT_EQ(u->name, "Messenger from fr_m to fr_lg");
  ASSERT_EQ(u->bases.size(), 1u);
  // A one-rider stand (3/4" x 1 1/4"), front middle at its position.
  EXPECT_NEAR(u->bases[0].center.x, 5, 1e-9);
  EXPECT_NEAR(u->bases[0].center.y, 3 - 0.625, 1e-9);
  EXPECT_NEAR(u->bases[0].width, 0.75, 1e-9);
  // The rest of its side sees it even without shared vision.
  const View friendly = view_for(s, "fr/left", wing_only());
  ASSERT_NE(unit(friendly, "msg1"), nullptr);
  EXPECT_EQ(unit(friendly, "msg1")->knowledge, Knowledge::kFriendly);
  // The enemy does not see it here...
  EXPECT_EQ(unit(view_for(s, "al/right", ViewSettings{}), "msg1"), nullptr);
  EXPECT_EQ(unit(view_for(s, "al/army", ViewSettings{}), "msg1"), nullptr);
  // ... the umpire does.
  ASSERT_NE(unit(view_for(s, "umpire", ViewSettings{}), "msg1"), nullptr);
  EXPECT_EQ(unit(view_for(s, "umpire", ViewSettings{}), "msg1")->knowledge, Knowledge::kUmpire);
  // Riding within sight of the Allies it is seen: a rider, not his message.
  s.messengers[0].position = {40, 30};
  const View v1 = view_for(s, "al/right", ViewSettings{});
  const UnitView* seen = unit(v1, "msg1");
  ASSERT_NE(seen, nullptr);
  EXPECT_EQ(seen->knowledge, Knowledge::kSeen);
  EXPECT_EQ(seen->kind, UnitKind::kMessenger);
  EXPECT_TRUE(seen->name.empty());
}

TEST(MessengerView, AMessengerSeesForItsSendersSeatAndBlocksNothing) {
  GameState s = tiny_state();
  // Without shared vision, fr/army sees with the Marshal alone (at (50, 2)):
  // al_b2 (x 42..46, y 38..39) is just over 36" away.
  ASSERT_EQ(unit(view_for(s, "fr/army", wing_only()), "al_b2"), nullptr);
  s.messengers.push_back(messenger({44, 30}));
  const View v = view_for(s, "fr/army", wing_only());
  ASSERT_NE(unit(v, "al_b2"), nullptr);
  EXPECT_EQ(unit(v, "al_b2")->knowledge, Knowledge::kSeen);
  // In the scene: a messenger object observing for the sender's seat.
  const auto seats = seats_of(s);
  const MalbrookScene scene = build_scene(s, seats);
  bool found = false;
  for (std::size_t i = 0; i < scene.refs.size(); ++i) {
    if (scene.refs[i].kind != PieceKind::kMessenger) continue;
    found = true;
    EXPECT_EQ(scene.scene.objects[i].kind, SceneKind::kMessenger);
    SeatMask army_bit = 0;
    for (std::size_t k = 0; k < seats.size(); ++k) {
      if (seats[k].id == "fr/army") army_bit = SeatMask{1} << k;
    }
    EXPECT_EQ(scene.scene.objects[i].observer_for, army_bit);
  }
  EXPECT_TRUE(found);
  // It blocks nothing: a messenger right in front of al_b1 hides it from no one.
  GameState t = tiny_state();
  const bool seen_before = unit(view_for(t, "fr/left", ViewSettings{}), "al_b1") != nullptr;
  t.messengers.push_back(messenger({36, 36.5}));
  EXPECT_EQ(unit(view_for(t, "fr/left", ViewSettings{}), "al_b1") != nullptr, seen_before);
}

TEST(HorseHolderView, AMarkerWhereTheDragoonsDismountedSeenLikeAnyPiece) {
  GameState s = tiny_state();
  Brigade& d = brigade(s, "fr_b5");
  d.type = TroopType::kDismountedDragoons;
  d.formation = Formation::kUnformed;
  d.horse_holders = Vec2{60, 5};
  const View own = view_for(s, "fr/right", ViewSettings{});
  const UnitView* u = unit(own, "fr_b5/horse-holders");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->kind, UnitKind::kMarker);
  EXPECT_EQ(u->knowledge, Knowledge::kOwn);
  EXPECT_EQ(u->troop_type, "horse-holders");
  EXPECT_EQ(u->name, "Horses of fr_b5");
  ASSERT_EQ(u->bases.size(), 1u);
  EXPECT_NEAR(u->bases[0].center.x, 60, 1e-9);
  EXPECT_NEAR(u->bases[0].center.y, 4.5, 1e-9);  // a 1" dismounted dragoon base behind the point
  EXPECT_NEAR(u->position.y, 5, 1e-9);
  // Out of the Allies' sight at (60, 5); the umpire sees it.
  EXPECT_EQ(unit(view_for(s, "al/right", ViewSettings{}), "fr_b5/horse-holders"), nullptr);
  EXPECT_NE(unit(view_for(s, "umpire", ViewSettings{}), "fr_b5/horse-holders"), nullptr);
  // Without shared vision the other French wing sees it only as its own
  // pieces do (fr_mg2 at (40, 2) is 20" away).
  ASSERT_NE(unit(view_for(s, "fr/left", wing_only()), "fr_b5/horse-holders"), nullptr);
  EXPECT_EQ(unit(view_for(s, "fr/left", wing_only()), "fr_b5/horse-holders")->knowledge, Knowledge::kFriendly);
  // The marker sees for its brigade's seat: al_b1 moved to (10, 40) is out of
  // sight of fr/right's brigade and leaders, but not of horses at (40, 26).
  GameState far = s;
  brigade(far, "al_b1").position = {10, 40};
  EXPECT_EQ(unit(view_for(far, "fr/right", wing_only()), "al_b1"), nullptr);
  brigade(far, "fr_b5").horse_holders = Vec2{40, 26};
  EXPECT_NE(unit(view_for(far, "fr/right", wing_only()), "al_b1"), nullptr);
  // Brought forward within sight, the Allies see a marker and nothing more.
  d.horse_holders = Vec2{40, 26};
  const View v2 = view_for(s, "al/right", ViewSettings{});
  const UnitView* seen = unit(v2, "fr_b5/horse-holders");
  ASSERT_NE(seen, nullptr);
  EXPECT_EQ(seen->knowledge, Knowledge::kSeen);
  EXPECT_TRUE(seen->name.empty());
  EXPECT_TRUE(seen->command.empty());
}

TEST(MarkerView, HaltAndInspirationShowAsStatusOnTheBrigade) {
  GameState s = tiny_state();
  Brigade& b = brigade(s, "al_b1");
  b.status |= static_cast<std::uint32_t>(Status::kHalted) | static_cast<std::uint32_t>(Status::kInspired);
  const View v3 = view_for(s, "fr/left", ViewSettings{});
  const UnitView* u = unit(v3, "al_b1");
  ASSERT_NE(u, nullptr);
  ASSERT_EQ(u->knowledge, Knowledge::kSeen);
  EXPECT_NE(std::find(u->status.begin(), u->status.end(), "halted"), u->status.end());
  EXPECT_NE(std::find(u->status.begin(), u->status.end(), "inspired"), u->status.end());
}

// A gun whose crew abandoned it observes nothing ("Crews that abandoned their
// guns observe nothing from them"), but it is still its seat's piece: shown to
// that seat in full, and to the rest of its side as a friend. The scene keeps
// the seat's bit for it apart from what it observes for (MalbrookScene::owners).
TEST(AbandonedGunView, StillItsSeatsOwnThoughItObservesNothing) {
  GameState s = tiny_state();
  s.guns = {make_gun("fr_g1", "fr", "left", "c1", {24, 12}, 0)};
  s.guns[0].status = static_cast<std::uint32_t>(Status::kAbandoned);
  const auto seats = seats_of(s);
  const MalbrookScene scene = build_scene(s, seats);
  const auto at = std::find(scene.refs.begin(), scene.refs.end(), PieceRef{PieceKind::kGun, 0});
  ASSERT_NE(at, scene.refs.end());
  const auto i = static_cast<std::size_t>(at - scene.refs.begin());
  EXPECT_EQ(scene.scene.objects[i].observer_for, 0u);
  const auto left = std::find_if(seats.begin(), seats.end(), [](const Seat& x) { return x.id == "fr/left"; });
  ASSERT_NE(left, seats.end());
  EXPECT_EQ(scene.owners[i], static_cast<std::uint32_t>(left - seats.begin()));

  for (const ViewSettings& settings : {ViewSettings{}, wing_only()}) {
    const View left_view = view_for(s, "fr/left", settings);
    const UnitView* own = unit(left_view, "fr_g1");
    ASSERT_NE(own, nullptr);
    EXPECT_EQ(own->knowledge, Knowledge::kOwn);
    EXPECT_EQ(own->name, "fr_g1");
  }
  const View right_view = view_for(s, "fr/right", ViewSettings{});
  const UnitView* friendly = unit(right_view, "fr_g1");
  ASSERT_NE(friendly, nullptr);
  EXPECT_EQ(friendly->knowledge, Knowledge::kFriendly);
}

}  // namespace
}  // namespace galloper::rules::malbrook
