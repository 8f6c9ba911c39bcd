// Views told as changes (codec::to_proto_change, codec::apply_change): the
// change from a seat's last view, applied to the last view sent whole, gives
// exactly the new view sent whole; over whole bot games, and for each way a
// view can change; and a change that does not fit is refused with a reason.
#include <gtest/gtest.h>

#include <google/protobuf/util/message_differencer.h>

#include <cstdint>
#include <string>
#include <vector>

#include "codec/view_codec.hpp"
#include "rules/core/dice.hpp"
#include "tests/rules/malbrook/bot.hpp"
#include "tests/rules/malbrook/golden_files.hpp"

namespace galloper::codec {
namespace {

using google::protobuf::util::MessageDifferencer;

v1::GameView whole(const rules::View& v) {
  v1::GameView out;
  to_proto(v, &out);
  return out;
}

// What a client holds after `change` from `last`; fails the test if the
// change does not apply.
v1::GameView applied(const rules::View& last, const rules::View& now, v1::ViewChange* change_out = nullptr) {
  v1::GameView view;
  v1::ViewChange change;
  EXPECT_TRUE(to_proto_change(last, now, &view, &change));
  v1::GameView out;
  const auto wrong = apply_change(whole(last), view, change, &out);
  EXPECT_FALSE(wrong) << *wrong;
  if (change_out != nullptr) *change_out = change;
  return out;
}

rules::UnitView unit(std::string id, double x) {
  rules::UnitView u;
  u.id = std::move(id);
  u.name = u.id;
  u.side = "fr";
  u.position = {x, 1};
  u.bases.push_back(rules::RectView{{x, 1}, 4, 1, 0});
  return u;
}

rules::View table(std::vector<rules::UnitView> units) {
  rules::View v;
  v.ruleset = "malbrook";
  v.seat = "fr/w0";
  v.table_width = 72;
  v.table_depth = 48;
  v.turn = 3;
  v.phase = "movement";
  v.terrain.push_back(rules::TerrainView{"wood", rules::TerrainKind::kWood, "Bois", {{1, 1}, {2, 1}, {2, 2}}, true, 0,
                                         false, false});
  v.units = std::move(units);
  return v;
}

TEST(ViewChange, ARulesetsOwnCountersAndAttributesTravelAndChange) {
  rules::View last = table({unit("a", 1), unit("b", 2)});
  last.units[0].counters = {{"casualties", 2, 6}, {"stamina", 3, 0}};
  last.units[0].attributes = {{"pikes", "2 bases"}};
  const auto sent = whole(last);
  ASSERT_EQ(sent.units(0).counters_size(), 2);
  EXPECT_EQ(sent.units(0).counters(0).name(), "casualties");
  EXPECT_EQ(sent.units(0).counters(0).value(), 2);
  EXPECT_EQ(sent.units(0).counters(0).max(), 6);
  EXPECT_EQ(sent.units(0).counters(1).max(), 0);
  ASSERT_EQ(sent.units(0).attributes_size(), 1);
  EXPECT_EQ(sent.units(0).attributes(0).value(), "2 bases");
  // A counter that changes is a changed unit, told like any other change.
  rules::View next = last;
  next.units[0].counters[0].value = 3;
  v1::ViewChange change;
  EXPECT_TRUE(MessageDifferencer::Equals(applied(last, next, &change), whole(next)));
  EXPECT_EQ(change.unit_index_size(), 1);
}

TEST(ViewChange, EachWayAViewChangesAppliesToTheNewView) {
  const rules::View last = table({unit("a", 1), unit("b", 2), unit("c", 3), unit("d", 4)});

  // Nothing changed but the header: no units, no terrain, nothing gone.
  rules::View same = last;
  same.phase = "combat";
  v1::ViewChange change;
  auto got = applied(last, same, &change);
  EXPECT_TRUE(MessageDifferencer::Equals(got, whole(same)));
  EXPECT_EQ(change.unit_index_size(), 0);
  EXPECT_EQ(change.units_gone_size(), 0);
  EXPECT_FALSE(change.terrain_changed());

  // One unit moved, one gone, one new in the middle, one new at the end.
  rules::View next = table({unit("a", 1), unit("e", 9), unit("c", 3.5), unit("d", 4), unit("f", 7)});
  got = applied(last, next, &change);
  EXPECT_TRUE(MessageDifferencer::Equals(got, whole(next))) << got.ShortDebugString();
  EXPECT_EQ(std::vector<std::uint32_t>(change.unit_index().begin(), change.unit_index().end()),
            (std::vector<std::uint32_t>{1, 2, 4}));
  EXPECT_EQ(std::vector<std::string>(change.units_gone().begin(), change.units_gone().end()),
            std::vector<std::string>{"b"});

  // Every unit gone; then all back.
  rules::View empty = table({});
  EXPECT_TRUE(MessageDifferencer::Equals(applied(last, empty), whole(empty)));
  EXPECT_TRUE(MessageDifferencer::Equals(applied(empty, last), whole(last)));

  // A changed unit may move in the order; only kept units must keep theirs.
  rules::View moved = table({unit("b", 2.5), unit("a", 1), unit("c", 3), unit("d", 4)});
  EXPECT_TRUE(MessageDifferencer::Equals(applied(last, moved), whole(moved)));

  // The terrain is sent only when it changed, and then whole.
  rules::View dug = next;
  dug.terrain.push_back(rules::TerrainView{"works", rules::TerrainKind::kFieldworks, "", {{5, 5}, {9, 5}}, false, 0,
                                           false, false});
  got = applied(next, dug, &change);
  EXPECT_TRUE(change.terrain_changed());
  EXPECT_TRUE(MessageDifferencer::Equals(got, whole(dug)));
}

TEST(ViewChange, KeptUnitsInAnotherOrderAreSentWhole) {
  const rules::View last = table({unit("a", 1), unit("b", 2), unit("c", 3)});
  const rules::View swapped = table({unit("c", 3), unit("a", 1), unit("b", 2)});
  v1::GameView view;
  v1::ViewChange change;
  EXPECT_FALSE(to_proto_change(last, swapped, &view, &change));
  EXPECT_EQ(view.ByteSizeLong(), 0u) << "nothing written when the view must go whole";
  EXPECT_EQ(change.ByteSizeLong(), 0u);
}

TEST(ViewChange, AChangeThatDoesNotFitTheLastViewIsRefusedWithAReason) {
  const v1::GameView last = whole(table({unit("a", 1), unit("b", 2)}));
  v1::GameView view = whole(table({unit("c", 3)}));
  v1::GameView out;

  v1::ViewChange gone;
  gone.add_unit_index(0);
  gone.add_units_gone("z");
  auto wrong = apply_change(last, view, gone, &out);
  ASSERT_TRUE(wrong);
  EXPECT_NE(wrong->find("\"z\""), std::string::npos) << *wrong;

  v1::ViewChange uncounted;  // a unit with no place
  wrong = apply_change(last, view, uncounted, &out);
  ASSERT_TRUE(wrong);
  EXPECT_NE(wrong->find("places 0 units but holds 1"), std::string::npos) << *wrong;

  v1::ViewChange beyond;
  beyond.add_unit_index(7);
  wrong = apply_change(last, view, beyond, &out);
  ASSERT_TRUE(wrong);
  EXPECT_NE(wrong->find("at place 7"), std::string::npos) << *wrong;

  view = whole(table({unit("c", 3), unit("d", 4)}));
  v1::ViewChange backwards;
  backwards.add_unit_index(2);
  backwards.add_unit_index(1);
  wrong = apply_change(last, view, backwards, &out);
  ASSERT_TRUE(wrong);
  EXPECT_NE(wrong->find("out of order"), std::string::npos) << *wrong;
}

// Whole games: every seat's view after every step, told as a change from
// its view before the step, is the whole view once applied; and the changes
// are what saves: far fewer bytes than the views.
TEST(ViewChange, OverBotGamesEveryChangeAppliedIsTheWholeView) {
  using namespace rules::malbrook;
  for (const bool side_shared : {true, false}) {
    for (const char* scenario : {"demo", "cavalry_clash"}) {
      GameState s = test::scenario_state(scenario, test::bot_seed(3));
      test::Bot bot(3);
      rules::ViewSettings settings;
      settings.side_shared_vision = side_shared;
      const MalbrookGame first(s);
      const auto seats = first.seats();
      std::vector<rules::View> last;
      for (const auto& seat : seats) last.push_back(first.view_for(seat.id, settings));
      std::size_t whole_bytes = 0;
      std::size_t change_bytes = 0;
      int steps = 0;
      for (; steps < 60 && !finished(s); ++steps) {
        auto r = test::resolve_bot_step(s, bot.answers(s));
        ASSERT_TRUE(r) << r.error().reason;
        s = std::move(r->next);
        const MalbrookGame game(s);
        for (std::size_t i = 0; i < seats.size(); ++i) {
          rules::View now = game.view_for(seats[i].id, settings);
          v1::GameView view;
          v1::ViewChange change;
          ASSERT_TRUE(to_proto_change(last[i], now, &view, &change)) << scenario << " " << seats[i].id;
          v1::GameView out;
          const auto wrong = apply_change(whole(last[i]), view, change, &out);
          ASSERT_FALSE(wrong) << *wrong;
          const v1::GameView expected = whole(now);
          ASSERT_TRUE(MessageDifferencer::Equals(out, expected))
              << scenario << " seat " << seats[i].id << " step " << steps;
          whole_bytes += expected.ByteSizeLong();
          change_bytes += view.ByteSizeLong() + change.ByteSizeLong();
          last[i] = std::move(now);
        }
      }
      EXPECT_GT(steps, 20) << scenario;
      EXPECT_LT(change_bytes * 3, whole_bytes) << scenario << ": changes " << change_bytes << " bytes, views "
                                               << whole_bytes;
    }
  }
}

}  // namespace
}  // namespace galloper::codec
