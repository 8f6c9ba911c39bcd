// What the fuzzers found, each held as a test that does not depend on the
// compiler: the corpus inputs index the states of a bot game, and those
// states are not the same in every build (docs/SECURITY.md, "Fuzzing").
#include <gtest/gtest.h>

#include <limits>

#include "rules/core/decision.hpp"
#include "tests/fuzz/bundled_games.hpp"

namespace galloper::fuzz {
namespace {

// answers: an order with a NaN angle passed the checks of a decision that
// takes no such number, and resolving put NaN into the next state, where
// turning it into a grid cell is undefined behaviour (found by UBSan).
// Then a distance of 1e223 overflowed the terrain grid's cell numbers while
// the move was checked.
TEST(FuzzFindings, OrdersWithNumbersNoTableHoldsAreRefused) {
  const double bad[] = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                        -std::numeric_limits<double>::infinity(), 1.14069e+223, -1e7};
  for (const auto& game : demo_states()) {
    for (const auto& d : game->pending()) {
      for (const double x : bad) {
        for (int field = 0; field < 4; ++field) {
          rules::Answer a;
          a.decision_id = d.id;
          a.seat = d.seat;
          a.option = d.options.empty() ? d.default_option : d.options.front().id;
          rules::OrderStep step;
          step.action = "forward";
          (field == 0 ? step.distance : field == 1 ? step.angle_deg : field == 2 ? step.to.x : step.to.y) = x;
          a.steps.push_back(step);
          const auto verdict = game->check(a);
          ASSERT_FALSE(verdict.ok()) << "step " << game->step() << " " << d.id << " field " << field;
          EXPECT_EQ(verdict.error().code, "bad_number");
        }
      }
    }
  }
}

}  // namespace
}  // namespace galloper::fuzz
