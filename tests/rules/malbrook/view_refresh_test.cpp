// Malbrook's views built in place (MalbrookGame::refresh_view): over whole
// bot games, every seat's view kept from step to step is exactly view_for's,
// whichever view it is built into (the seat's last one, another seat's, one
// from many steps ago), and its update is what comparing the two views says.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <vector>

#include "rules/core/dice.hpp"
#include "rules/core/view_update.hpp"
#include "rules/malbrook/game.hpp"
#include "tests/rules/malbrook/bot.hpp"
#include "tests/rules/malbrook/golden_files.hpp"

namespace galloper::rules::malbrook {
namespace {

// One step of `game`, the bot's answers resolved through Game::resolve as a
// room resolves them (the next game knows the one it came from), held to the
// engine's own resolution of the same answers.
void play_bot_step(std::unique_ptr<Game>& game, test::Bot& bot) {
  const GameState& now_state = static_cast<const MalbrookGame&>(*game).state();
  std::vector<Answer> used;
  auto by_state = test::resolve_bot_step(now_state, bot.answers(now_state), &used);
  ASSERT_TRUE(by_state) << by_state.error().reason;
  KeyedDice dice(now_state.seed, now_state.step);
  auto resolved = game->resolve(used, dice);
  ASSERT_TRUE(resolved) << resolved.error().reason;
  ASSERT_EQ(resolved->next->state_hash(), state_hash(by_state->next));
  game = std::move(resolved->next);
}

TEST(ViewRefresh, OverBotGamesARefreshedViewIsTheViewForTheState) {
  for (const bool side_shared : {true, false}) {
    for (const char* scenario : {"demo", "cavalry_clash"}) {
      GameState s = test::scenario_state(scenario, test::bot_seed(5));
      test::Bot bot(5);
      ViewSettings settings;
      settings.side_shared_vision = side_shared;
      const auto seats = MalbrookGame(s).seats();
      std::vector<View> held(seats.size());  // empty: the first refresh builds them whole
      std::vector<View> last(seats.size());
      std::vector<View> old;                 // the views of step 5
      std::size_t kept_units = 0;
      int steps = 0;
      for (; steps < 50 && !finished(s); ++steps) {
        const MalbrookGame game(s);
        for (std::size_t i = 0; i < seats.size(); ++i) {
          const View now = game.view_for(seats[i].id, settings);
          ViewUpdate update;
          game.refresh_view(seats[i].id, settings, held[i], update);
          ASSERT_TRUE(held[i] == now) << scenario << " seat " << seats[i].id << " step " << steps;
          // The update is what comparing the views says (update_view).
          ViewUpdate compared;
          View from_last = last[i];
          update_view(from_last, now, compared);
          ASSERT_TRUE(update == compared) << scenario << " seat " << seats[i].id << " step " << steps;
          kept_units += now.units.size() - update.changed.size();
          last[i] = now;

          // Built into another seat's view, or a view of an older state.
          View other = held[(i + 1) % seats.size()];
          game.refresh_view(seats[i].id, settings, other, update);
          ASSERT_TRUE(other == now) << scenario << " seat " << seats[i].id << " step " << steps;
          if (!old.empty()) {
            View older = old[i];
            game.refresh_view(seats[i].id, settings, older, update);
            ASSERT_TRUE(older == now) << scenario << " seat " << seats[i].id << " step " << steps;
          }
        }
        if (steps == 5) old = held;
        auto r = test::resolve_bot_step(s, bot.answers(s));
        ASSERT_TRUE(r) << r.error().reason;
        s = std::move(r->next);
      }
      EXPECT_GT(steps, 20) << scenario;
      EXPECT_GT(kept_units, 0u) << "most units are kept from step to step";
    }
  }
}

// Games resolved one from the other, as a room plays them: a view of the
// state a game was resolved from keeps its unchanged pieces' units and its
// terrain without describing them (ViewSince). Every refreshed view must
// still be view_for's, whether it was the seat's own view of the state
// before, another seat's, one of the other vision setting, or one of an
// older state; debug builds also describe every unit and feature kept and
// assert it is the same.
TEST(ViewRefresh, ViewsOfTheStateBeforeKeepUnchangedPiecesExactly) {
  for (const bool side_shared : {true, false}) {
    // Blenheim: leaders of other wings attached to brigades the seat may or
    // may not see, under both vision settings.
    for (const char* scenario : {"demo", "cavalry_clash", "blenheim"}) {
      GameState s = test::scenario_state(scenario, test::bot_seed(9));
      test::Bot bot(9);
      ViewSettings settings;
      settings.side_shared_vision = side_shared;
      ViewSettings other_vision;
      other_vision.side_shared_vision = !side_shared;
      std::unique_ptr<Game> game = std::make_unique<MalbrookGame>(s);
      const auto seats = game->seats();
      std::vector<View> held;
      std::vector<View> held_other;  // each seat's view with the other vision setting
      for (const auto& seat : seats) {
        held.push_back(game->view_for(seat.id, settings));
        held_other.push_back(game->view_for(seat.id, other_vision));
      }
      // A clone holds the same state: views of one are views of the other.
      game = game->clone();
      std::vector<View> old;  // the views of step 3
      std::size_t kept_pieces = 0;
      int steps = 0;
      for (; steps < 40 && !game->finished(); ++steps) {
        ASSERT_NO_FATAL_FAILURE(play_bot_step(game, bot));

        // The seats' views are of the state before, so their unchanged
        // pieces are kept (the path under test is taken).
        const std::vector<View> before = held;
        const ViewSince* since = static_cast<const MalbrookGame&>(*game).since_parent();
        ASSERT_NE(since, nullptr);
        ASSERT_NE(since->parent, nullptr);
        EXPECT_EQ(since->parent, before[0].basis.state);
        kept_pieces += static_cast<std::size_t>(std::count(since->brigades.begin(), since->brigades.end(), 1));
        for (std::size_t i = 0; i < seats.size(); ++i) {
          const View now = game->view_for(seats[i].id, settings);
          ViewUpdate update;
          game->refresh_view(seats[i].id, settings, held[i], update);
          ASSERT_TRUE(held[i] == now) << scenario << " seat " << seats[i].id << " step " << steps;
          ASSERT_NE(now.basis.state, nullptr);
          EXPECT_EQ(held[i].basis.state, now.basis.state) << "a view refreshed from a game is of its state";
          EXPECT_NE(before[i].basis.state, now.basis.state);

          View others = before[(i + 1) % seats.size()];
          game->refresh_view(seats[i].id, settings, others, update);
          ASSERT_TRUE(others == now) << scenario << " seat " << seats[i].id << " step " << steps;

          game->refresh_view(seats[i].id, settings, held_other[i], update);
          ASSERT_TRUE(held_other[i] == now) << scenario << " seat " << seats[i].id << " step " << steps;
          held_other[i] = game->view_for(seats[i].id, other_vision);

          if (!old.empty()) {
            View older = old[i];
            game->refresh_view(seats[i].id, settings, older, update);
            ASSERT_TRUE(older == now) << scenario << " seat " << seats[i].id << " step " << steps;
          }
        }
        if (steps == 3) old = held;
      }
      EXPECT_GT(steps, 20) << scenario;
      EXPECT_GT(kept_pieces, 0u) << "most brigades are unchanged from step to step";

      // Built by the state alone, a view is of no game's state: its basis is cleared.
      const GameState& last = static_cast<const MalbrookGame&>(*game).state();
      View alone = held[0];
      ViewUpdate update;
      refresh_view(last, *sight_table(last, sight_grain(settings)), seats[0].id, settings, alone, update);
      EXPECT_EQ(alone.basis.state, nullptr);
      EXPECT_TRUE(alone == held[0]);
    }
  }
}

// With side-shared vision a room refreshes every seat after a step, and the
// seats of a side after the first are refreshed from it (view.hpp,
// SideRefresh): each view and update must be the seat's own, and the path
// must be taken. Not with wing-only vision, nor for a held view built with
// the other setting or for another seat.
TEST(ViewRefresh, TheSeatsOfASideAreRefreshedFromTheFirst) {
  for (const bool side_shared : {true, false}) {
    for (const char* scenario : {"demo", "blenheim"}) {
      const GameState s = test::scenario_state(scenario, test::bot_seed(9));
      test::Bot bot(9);
      ViewSettings settings;
      settings.side_shared_vision = side_shared;
      std::unique_ptr<Game> game = std::make_unique<MalbrookGame>(s);
      const auto seats = game->seats();
      std::vector<View> held;
      for (const auto& seat : seats) held.push_back(game->view_for(seat.id, settings));
      std::size_t from_side = 0;
      std::size_t refreshed = 0;
      for (int step = 0; step < 30 && !game->finished(); ++step) {
        ASSERT_NO_FATAL_FAILURE(play_bot_step(game, bot));
        for (std::size_t i = 0; i < seats.size(); ++i) {
          View last = held[i];
          ViewUpdate update;
          game->refresh_view(seats[i].id, settings, held[i], update);
          const View now = game->view_for(seats[i].id, settings);
          ASSERT_TRUE(held[i] == now) << scenario << " seat " << seats[i].id << " step " << step;
          ViewUpdate compared;
          update_view(last, now, compared);
          ASSERT_TRUE(update == compared) << scenario << " seat " << seats[i].id << " step " << step;
          ++refreshed;
        }
        from_side += static_cast<const MalbrookGame&>(*game).views_refreshed_from_side();
      }
      if (side_shared) {
        // Of each side's seats all but the first, most steps.
        EXPECT_GT(from_side, refreshed / 3) << scenario;
      } else {
        EXPECT_EQ(from_side, 0u) << scenario;
      }
    }
  }
}

// A messenger belongs to its sender's seat, which its unit does not name: a
// Major General moved to another wing takes his messenger with him. Seats
// that keep the messenger's unit must still be told it as they now know it.
TEST(ViewRefresh, AMessengerWhoseSenderChangedWingIsToldAsEachSeatKnowsIt) {
  GameState s = test::scenario_state("demo", test::bot_seed(2));
  const auto mg = std::find_if(s.leaders.begin(), s.leaders.end(), [](const Leader& l) {
    return l.rank == LeaderRank::kMajorGeneral && !l.wing.empty();
  });
  ASSERT_NE(mg, s.leaders.end());
  Messenger m;
  m.id = "msg1";
  m.army = mg->army;
  m.from = mg->id;
  m.to = mg->id;
  m.position = mg->position + Vec2{0, 1};
  s.messengers.push_back(m);
  ViewSettings settings;  // side-shared
  const MalbrookGame before(s);
  const auto seats = before.seats();
  std::vector<View> held;
  for (const auto& seat : seats) held.push_back(before.view_for(seat.id, settings));

  // The same table, the Major General in another wing of his army.
  GameState moved = s;
  Leader& l =
      *std::find_if(moved.leaders.begin(), moved.leaders.end(), [&](const Leader& x) { return x.id == mg->id; });
  for (const auto& a : moved.armies) {
    if (a.id != l.army) continue;
    for (const auto& w : a.wings) {
      if (w.id != l.wing) {
        l.wing = w.id;
        break;
      }
    }
  }
  ASSERT_NE(l.wing, mg->wing);
  const MalbrookGame after(moved);
  int told_anew = 0;
  for (std::size_t i = 0; i < seats.size(); ++i) {
    const View was = held[i];
    ViewUpdate update;
    after.refresh_view(seats[i].id, settings, held[i], update);
    const View now = after.view_for(seats[i].id, settings);
    ASSERT_TRUE(held[i] == now) << "seat " << seats[i].id;
    for (const auto& u : now.units) {
      if (u.id != "msg1") continue;
      for (const auto& w : was.units) {
        if (w.id == "msg1" && w.knowledge != u.knowledge) ++told_anew;
      }
    }
  }
  EXPECT_EQ(told_anew, 2);  // the old wing's seat (own no more) and the new one's (own now)
  EXPECT_GT(after.views_refreshed_from_side(), 0u);  // the path was open to the seats that kept it
}

}  // namespace
}  // namespace galloper::rules::malbrook
