#include "server/src/network/abuse_guard.hpp"

#include <gtest/gtest.h>

#include "server/src/game/scenario_limits.hpp"
#include "server/src/metrics.hpp"

namespace galloper::server {
namespace {

using namespace std::chrono_literals;

TEST(TokenBucket, StartsFullRefillsAtTheRateAndStopsAtCapacity) {
  TokenBucket b;
  const auto t0 = TokenBucket::Clock::time_point{} + 1h;
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(b.take(2, 4, t0));
  EXPECT_FALSE(b.take(2, 4, t0));
  EXPECT_NEAR(b.wait_seconds(2), 0.5, 1e-9);
  EXPECT_FALSE(b.take(2, 4, t0 + 400ms));
  EXPECT_TRUE(b.take(2, 4, t0 + 600ms));
  // An hour idle refills to the capacity, no further.
  const auto later = t0 + 1h;
  for (int i = 0; i < 4; ++i) EXPECT_TRUE(b.take(2, 4, later));
  EXPECT_FALSE(b.take(2, 4, later));
}

TEST(AbuseGuard, FailedTokensBanOneAddressOnly) {
  ServerConfig cfg;
  cfg.max_failed_tokens = 3;
  cfg.failed_token_ban = 60s;
  AbuseGuard guard(cfg);
  EXPECT_FALSE(guard.failed_token("192.0.2.1"));
  EXPECT_FALSE(guard.failed_token("192.0.2.1"));
  EXPECT_EQ(guard.banned_for("192.0.2.1"), 0);
  EXPECT_TRUE(guard.failed_token("192.0.2.1"));
  EXPECT_GT(guard.banned_for("192.0.2.1"), 55);
  EXPECT_EQ(guard.banned_for("192.0.2.2"), 0);
}

TEST(AbuseGuard, CreationsAndConnectionsAreCountedPerAddress) {
  ServerConfig cfg;
  cfg.games_per_ip_per_hour = 2;
  cfg.connections_per_ip_per_second = 1;
  AbuseGuard guard(cfg);
  EXPECT_TRUE(guard.admit_creation("192.0.2.1"));
  EXPECT_TRUE(guard.admit_creation("192.0.2.1"));
  EXPECT_FALSE(guard.admit_creation("192.0.2.1"));
  EXPECT_TRUE(guard.admit_creation("192.0.2.2"));
  EXPECT_TRUE(guard.admit_connection("192.0.2.1"));
  EXPECT_TRUE(guard.admit_connection("192.0.2.1"));  // bursts of twice the rate
  EXPECT_FALSE(guard.admit_connection("192.0.2.1"));
  EXPECT_TRUE(guard.admit_connection("192.0.2.2"));
}

TEST(ScenarioLimits, BytesThenPartsAreCounted) {
  EXPECT_FALSE(scenario_too_big("name: \"x\"", 100, 10));
  EXPECT_NE(scenario_too_big(std::string(200, ' '), 100, 10)->find("--max-scenario-bytes"), std::string::npos);
  std::string wood = "terrain { area { kind: AREA_KIND_WOOD";
  for (int i = 0; i < 12; ++i) wood += " outline { x: 1 y: 2 }";
  wood += " } }";
  // The scenario, the feature, the area and its twelve points: 15 parts.
  EXPECT_FALSE(scenario_too_big(wood, 10000, 15));
  EXPECT_NE(scenario_too_big(wood, 10000, 14)->find("--max-scenario-parts"), std::string::npos);
  // Text that does not parse is the scenario checks' to explain.
  EXPECT_FALSE(scenario_too_big("terrain { area {", 10000, 1));
}

TEST(Metrics, LimitsAreOneLabelledFamily) {
  Metrics m;
  m.limited_chat = 4;
  const auto text = m.render();
  EXPECT_NE(text.find("# TYPE galloper_limited_total counter\n"), std::string::npos) << text;
  EXPECT_NE(text.find("galloper_limited_total{limit=\"chat\"} 4\n"), std::string::npos) << text;
  EXPECT_NE(text.find("galloper_limited_total{limit=\"messages\"} 0\n"), std::string::npos) << text;
}

}  // namespace
}  // namespace galloper::server
