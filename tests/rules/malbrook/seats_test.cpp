// Who commands a piece (seats.hpp): `commands(seat, piece)` is exactly
// `seat_of(piece) == seat` without building the name, and the event filter
// built on the view's path (MalbrookGame::visible_events) lets through what
// a seat's shown pieces name, for every seat and both vision settings.
#include <gtest/gtest.h>

#include <algorithm>
#include <iterator>
#include <set>
#include <string>

#include "rules/malbrook/game.hpp"
#include "rules/malbrook/seats.hpp"
#include "rules/malbrook/view.hpp"
#include "rules/malbrook/visibility.hpp"
#include "tests/rules/malbrook/bot.hpp"
#include "tests/rules/malbrook/golden_files.hpp"

namespace galloper::rules::malbrook {
namespace {

// Every seat of the state, and names that nearly match them.
std::vector<std::string> seat_names(const GameState& s) {
  std::vector<std::string> out;
  for (const auto& seat : seats_of(s)) {
    out.push_back(seat.id);
    out.push_back(seat.id + "x");
    out.push_back(seat.id.substr(0, seat.id.size() - 1));
    out.push_back("x" + seat.id);
  }
  out.emplace_back("");
  out.emplace_back("/");
  return out;
}

void expect_commands_agrees(const GameState& s) {
  for (const auto& seat : seat_names(s)) {
    for (const auto& b : s.brigades) EXPECT_EQ(commands(seat, b), seat_of(b) == seat) << b.id << " " << seat;
    for (const auto& g : s.guns) EXPECT_EQ(commands(seat, g), seat_of(g) == seat) << g.id << " " << seat;
    for (const auto& l : s.leaders) EXPECT_EQ(commands(seat, l), seat_of(l) == seat) << l.id << " " << seat;
    for (const auto& m : s.messengers) EXPECT_EQ(commands(seat, s, m), seat_of(s, m) == seat) << m.id << " " << seat;
  }
}

TEST(Seats, CommandsIsSeatOfComparedForEveryPieceAndSeat) {
  for (const char* name : {"demo", "blenheim"}) {
    SCOPED_TRACE(name);
    expect_commands_agrees(test::scenario_state(name, test::bot_seed(1)));
  }
}

TEST(Seats, CommandsHandlesArmyLevelPiecesOddWingNamesAndLostSenders) {
  GameState s = test::scenario_state("demo", test::bot_seed(1));
  ASSERT_FALSE(s.brigades.empty());
  ASSERT_FALSE(s.guns.empty());
  ASSERT_FALSE(s.leaders.empty());
  const std::string army = s.brigades[0].army;
  // A wing whose id is "army" names the army's seat (as seat_of's string does).
  s.brigades[0].wing = "army";
  EXPECT_TRUE(commands(army + "/army", s.brigades[0]));
  // A wing id with a slash in it, and a gun and a leader of the army (no wing).
  s.brigades.push_back(s.brigades[0]);
  s.brigades.back().wing = "a/b";
  s.guns[0].wing.clear();
  s.leaders[0].wing.clear();
  EXPECT_TRUE(commands(army + "/army", s.guns[0]));
  // Messengers: from a listed leader, and from one no longer listed.
  Messenger from_leader;
  from_leader.id = "m1";
  from_leader.army = s.leaders[0].army;
  from_leader.from = s.leaders[0].id;
  Messenger lost = from_leader;
  lost.id = "m2";
  lost.from = "nobody";
  s.messengers = {from_leader, lost};
  EXPECT_TRUE(commands(s.leaders[0].army + "/army", s, lost));
  expect_commands_agrees(s);
  for (const auto& seat : seat_names(s)) {
    EXPECT_EQ(commands(seat, s.brigades.back()), seat_of(s.brigades.back()) == seat);
  }
}

// The scene's owner of every piece (build_scene, which keeps the last answer
// while the army and wing stay the same) is the seat seat_of names, over bot
// games of the demo and Blenheim and a state with odd wings and messengers.
void expect_owners_are_seats(const GameState& s) {
  const std::vector<Seat> seats = seats_of(s);
  const MalbrookScene scene = build_scene(s, seats);
  ASSERT_EQ(scene.owners.size(), scene.refs.size());
  for (std::size_t i = 0; i < scene.refs.size(); ++i) {
    const PieceRef ref = scene.refs[i];
    std::string seat;
    switch (ref.kind) {
      case PieceKind::kBrigade:
      case PieceKind::kHorseHolders: seat = seat_of(s.brigades[ref.index]); break;
      case PieceKind::kGun: seat = seat_of(s.guns[ref.index]); break;
      case PieceKind::kLeader: seat = seat_of(s.leaders[ref.index]); break;
      case PieceKind::kMessenger: seat = seat_of(s, s.messengers[ref.index]); break;
    }
    std::uint32_t expected = MalbrookScene::kNoOwner;
    for (std::size_t k = 0; k < seats.size(); ++k) {
      if (seats[k].id == seat) {
        expected = static_cast<std::uint32_t>(k);
        break;
      }
    }
    ASSERT_EQ(scene.owners[i], expected) << "piece " << i << " of seat " << seat;
  }
}

TEST(Seats, TheScenesOwnerOfEveryPieceIsItsSeat) {
  for (const char* name : {"demo", "blenheim"}) {
    SCOPED_TRACE(name);
    GameState s = test::scenario_state(name, test::bot_seed(3));
    test::Bot bot(3);
    for (int step = 0; step < 40 && !finished(s); ++step) {
      expect_owners_are_seats(s);
      auto r = test::resolve_bot_step(s, bot.answers(s));
      ASSERT_TRUE(r) << r.error().reason;
      s = std::move(r->next);
    }
  }
  // Pieces of one army in alternating wings, a wing named like the army's
  // seat, pieces of no seat, and the first brigade of the second army in a
  // wing of the same id as the last of the first army's.
  GameState s = test::scenario_state("demo", test::bot_seed(1));
  ASSERT_GE(s.brigades.size(), 4u);
  std::swap(s.brigades[1], s.brigades.back());
  s.brigades[0].wing = "army";
  s.brigades[2].wing = "nowhere";
  s.guns[0].wing.clear();
  s.leaders[0].wing.clear();
  expect_owners_are_seats(s);
  std::stable_sort(s.brigades.begin(), s.brigades.end(),
                   [](const Brigade& a, const Brigade& b) { return a.army < b.army; });
  const auto second = std::find_if(s.brigades.begin(), s.brigades.end(),
                                   [&](const Brigade& b) { return b.army != s.brigades.front().army; });
  ASSERT_NE(second, s.brigades.end());
  second->wing = std::prev(second)->wing;
  expect_owners_are_seats(s);
}

// The filter as it was written before visible_events looked ids up in a
// table of its own: the set of the ids of every piece the seat is shown.
std::vector<std::size_t> reference_events(const GameState& s, const std::vector<Event>& events,
                                          std::string_view seat, const ViewSettings& settings) {
  const bool umpire = seat == kUmpireSeat;
  std::set<std::string, std::less<>> seen;
  if (!umpire) {
    const auto table = sight_table(s, sight_grain(settings));
    for_each_shown(s, *table, seat, settings,
                   [&](std::size_t i, Knowledge) { seen.insert(shown_id(s, table->scene.refs[i])); });
  }
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < events.size(); ++i) {
    bool shown = umpire || events[i].is_public;
    for (const auto& id : events[i].subjects) shown = shown || seen.count(id) > 0;
    if (shown) out.push_back(i);
  }
  return out;
}

TEST(Seats, EveryEventFilterMatchesTheShownPiecesIdsOverABotGame) {
  GameState s = test::scenario_state("blenheim", test::bot_seed(3));
  test::Bot bot(3);
  std::size_t events_seen = 0;
  std::size_t events_hidden = 0;
  for (int step = 0; step < 80 && !finished(s); ++step) {
    auto r = test::resolve_bot_step(s, bot.answers(s), nullptr);
    ASSERT_TRUE(r) << r.error().reason;
    // Every event, also those not about this step, so that hidden ones are tried.
    std::vector<Event> events = r->events;
    auto probe = [&](std::vector<std::string> subjects) {
      Event e;
      e.kind = "probe";
      e.subjects = std::move(subjects);
      events.push_back(std::move(e));
    };
    for (const auto& b : s.brigades) {
      probe({b.id});
      probe({horse_holder_id(b)});
    }
    for (const auto& g : s.guns) probe({"nobody", g.id});
    for (const auto& l : s.leaders) probe({l.id});
    s = std::move(r->next);
    const MalbrookGame game(s);
    for (bool side_shared : {true, false}) {
      ViewSettings settings;
      settings.side_shared_vision = side_shared;
      for (const auto& seat : game.seats()) {
        const auto got = game.visible_events(events, seat.id, settings);
        ASSERT_EQ(got, reference_events(s, events, seat.id, settings)) << "step " << step << " seat " << seat.id;
        events_seen += got.size();
        events_hidden += events.size() - got.size();
      }
    }
  }
  // The comparison covered events let through and events held back.
  EXPECT_GT(events_seen, 0u);
  EXPECT_GT(events_hidden, 0u);
}

}  // namespace
}  // namespace galloper::rules::malbrook
