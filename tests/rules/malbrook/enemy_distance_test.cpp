// enemy_distance (movement.hpp): the edge distance from a footprint to the
// nearest enemy brigade or gun on the table. The phase tries the enemy
// nearest box first and stops once no box is nearer than the best distance
// found; this holds it to the distance to every enemy body, measured one by
// one, over the bot's games on Blenheim and the demo, for probes of every
// size and facing all over the table (a wheeled or oblique body's box can be
// far nearer than the body, so the nearest box is not always the nearest
// body).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "rules/malbrook/manoeuvre.hpp"
#include "rules/malbrook/movement.hpp"
#include "tests/rules/malbrook/bot.hpp"
#include "tests/rules/malbrook/golden_files.hpp"

namespace galloper::rules::malbrook {
namespace {

// What blocks and counts as an enemy body: a gun's stand; a formed brigade's
// envelope unless its bases stand where they were placed; otherwise its bases.
std::vector<OrientedRect> body_of(const Pose& p) {
  if (p.gun || (p.base_poses.empty() && formed(p.formation))) return {pose_envelope(p)};
  return pose_bases(p);
}

double every_body(const GameState& s, std::string_view army, const OrientedRect& r) {
  double best = std::numeric_limits<double>::infinity();
  auto consider = [&](const Pose& p) {
    for (const auto& q : body_of(p)) best = std::min(best, distance(r, q));
  };
  for (const auto& b : s.brigades) {
    if (b.army == army || b.bases == 0 || b.has(Status::kDestroyed) || b.has(Status::kSurrendered)) continue;
    consider(pose_of(b));
  }
  for (const auto& g : s.guns) {
    if (g.army != army && !g.has(Status::kCrewEliminated)) consider(pose_of(g));
  }
  return best;
}

// A fixed sequence of probes (no dice: the same probes every run).
struct Probes {
  std::uint64_t x = 88172645463325252ull;
  double next() {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return static_cast<double>(x >> 11) / static_cast<double>(1ull << 53);
  }
};

void expect_every_body_distance(const char* scenario, std::uint32_t seed, int steps) {
  GameState s = test::scenario_state(scenario, test::bot_seed(seed));
  test::Bot bot(seed);
  Probes g;
  int probed = 0;
  for (int step = 0; step < steps && !finished(s); ++step) {
    if (step % 4 == 0) {
      for (const auto& army : s.armies) {
        for (int k = 0; k < 40; ++k) {
          const OrientedRect r{{g.next() * s.table_width, g.next() * s.table_depth},
                               0.2 + g.next() * 6,
                               0.2 + g.next() * 3,
                               g.next() * 360};
          const double want = every_body(s, army.id, r);
          EXPECT_NEAR(enemy_distance(s, army.id, r), want, 1e-9)
              << scenario << " step " << step << " army " << army.id << " probe " << k;
          ++probed;
        }
      }
    }
    auto r = test::resolve_bot_step(s, bot.answers(s), nullptr);
    ASSERT_TRUE(r) << r.error().reason;
    s = std::move(r->next);
  }
  EXPECT_GT(probed, 400) << scenario;
}

TEST(EnemyDistance, IsTheDistanceToEveryEnemyBodyOnBlenheim) { expect_every_body_distance("blenheim", 11, 120); }

TEST(EnemyDistance, IsTheDistanceToEveryEnemyBodyOnTheDemo) { expect_every_body_distance("demo", 12, 160); }

}  // namespace
}  // namespace galloper::rules::malbrook
