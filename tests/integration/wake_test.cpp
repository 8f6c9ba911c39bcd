// Games wake by time, whether or not anyone is connected, across restarts
// (issue: play-by-web games stopped after a restart until someone joined).
// A game with a step deadline, a live webhook, a digest webhook and a bot
// seat; the server is killed (or stopped) and started again with nobody
// connected: the next deadline passes on time, its webhooks arrive, the bot
// seat answers and the digest goes.
#include <sstream>

#include "galloper/v1/store.pb.h"
#include "tests/integration/game_driver.hpp"
#include "tests/integration/harness.hpp"
#include "tests/integration/receiver.hpp"

namespace galloper::testing {
namespace {

int count_entries(const std::filesystem::path& db, const std::string& game, const std::string& where) {
  auto r = sqlite3(db, "SELECT count(*) FROM steps WHERE game_id = '" + game + "' AND " + where);
  return std::atoi(r.out.c_str());
}

// How many locks the bot made, read from the stored log.
int bot_locks(const std::filesystem::path& db, const std::string& game) {
  auto r = sqlite3(db, "SELECT hex(payload) FROM steps WHERE game_id = '" + game + "' AND kind = 'lock'");
  int n = 0;
  std::istringstream lines(r.out);
  for (std::string hex; std::getline(lines, hex);) {
    std::string bytes;
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
      bytes += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
    }
    v1::StoredLock lock;
    if (lock.ParseFromString(bytes) && lock.by_bot()) ++n;
  }
  return n;
}

class WakeTest : public ::testing::TestWithParam<int> {};

TEST_P(WakeTest, AGamePlaysOnAfterARestartWithNobodyConnected) {
  const int stop_signal = GetParam();
  Receiver live_hook;
  Receiver digest_hook;
  auto dir = make_temp_dir("wake");
  const auto db = dir / "galloper.db";
  auto server = std::make_unique<ServerProcess>(dir, std::vector<std::string>{"--manual-clock", "--webhook-allow", "127.0.0.0/8"});
  server->start();

  std::string game;
  {
    Client organiser(server->port());
    ASSERT_TRUE(organiser.hello().has_welcome());
    v1::Envelope e;
    e.mutable_create_game()->set_scenario_name("demo");
    auto* settings = e.mutable_create_game()->mutable_settings();
    settings->set_step_deadline_seconds(60);
    settings->set_digest_time("20:00");
    for (const auto* seat : {"french/army", "french/droite", "french/gauche"}) settings->add_bot_seats(seat);
    auto* live = settings->add_webhooks();
    live->set_url("http://127.0.0.1:" + std::to_string(live_hook.port()) + "/live");
    auto* digest = settings->add_webhooks();
    digest->set_url("http://127.0.0.1:" + std::to_string(digest_hook.port()) + "/digest");
    digest->set_daily_digest(true);
    auto created = organiser.call(e);
    ASSERT_TRUE(created.has_game_created()) << created.DebugString();
    game = created.game_created().game_id();
  }
  // Nobody joins. The game starts by itself and asks for decisions.
  ASSERT_TRUE(live_hook.wait_for("\"kind\":\"decision_owed\"")) << server->log();
  const int resolved_before = count_entries(db, game, "kind = 'resolve'");
  ASSERT_GE(resolved_before, 1);

  const int bots_before = bot_locks(db, game);
  ASSERT_EQ(server->stop(stop_signal) != 0, stop_signal == SIGKILL) << server->log();
  const auto live_before = live_hook.bodies().size();
  server = std::make_unique<ServerProcess>(dir, std::vector<std::string>{"--manual-clock", "--webhook-allow", "127.0.0.0/8"});
  server->start();

  // Deadlines pass with nobody connected: the missing seats take their
  // defaults, the steps resolve, the live hook hears of it, and the bot's
  // seats answer when they owe.
  ASSERT_EQ(http_post(server->port(), "/debug/clock?advance_seconds=120").status, 200u);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while ((count_entries(db, game, "kind = 'resolve'") <= resolved_before + 2 || bot_locks(db, game) <= bots_before) &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    http_post(server->port(), "/debug/clock?advance_seconds=61");
  }
  EXPECT_GT(count_entries(db, game, "kind = 'resolve'"), resolved_before + 2) << server->log();
  const auto waited_for = [&](const std::string& needle) {
    for (int i = 0; i < 150; ++i) {
      const auto bodies = live_hook.bodies();
      for (std::size_t b = live_before; b < bodies.size(); ++b) {
        if (bodies[b].find(needle) != std::string::npos) return true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return false;
  };
  EXPECT_TRUE(waited_for("\"kind\":\"step_resolved\"")) << server->log();
  EXPECT_TRUE(waited_for("\"kind\":\"decision_owed\"")) << server->log();
  EXPECT_GT(bot_locks(db, game), bots_before) << server->log();

  // A day on: the digest goes, to its own hook, with nobody connected.
  ASSERT_EQ(http_post(server->port(), "/debug/clock?advance_seconds=" + std::to_string(26 * 3600)).status, 200u);
  EXPECT_TRUE(digest_hook.wait_for("\"kind\":\"digest\"")) << server->log();
  EXPECT_NE(server->log().find("is due: loading it"), std::string::npos) << server->log();
  EXPECT_EQ(server->stop(SIGTERM), 0);
  std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Stops, WakeTest, ::testing::Values(SIGKILL, SIGTERM),
                         [](const auto& info) { return info.param == SIGKILL ? "Killed" : "Stopped"; });

}  // namespace
}  // namespace galloper::testing
