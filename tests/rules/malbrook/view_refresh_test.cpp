// Malbrook's views built in place (MalbrookGame::refresh_view): over whole
// bot games, every seat's view kept from step to step is exactly view_for's,
// whichever view it is built into (the seat's last one, another seat's, one
// from many steps ago), and its update is what comparing the two views says.
#include <gtest/gtest.h>

#include <cstddef>
#include <vector>

#include "rules/core/view_update.hpp"
#include "rules/malbrook/game.hpp"
#include "tests/rules/malbrook/bot.hpp"
#include "tests/rules/malbrook/golden_files.hpp"

namespace galloper::rules::malbrook {
namespace {

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

}  // namespace
}  // namespace galloper::rules::malbrook
