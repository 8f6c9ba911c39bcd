// Webhook notifications delivered to a local receiver on loopback.
#include "server/src/notify/notifier.hpp"
#include "tests/integration/harness.hpp"
#include "tests/integration/receiver.hpp"

namespace galloper::testing {
namespace {

std::optional<v1::Envelope> read_until_kind(Client& c, v1::Envelope::BodyCase kind) {
  for (int i = 0; i < 200; ++i) {
    auto m = c.receive();
    if (!m) return std::nullopt;
    if (m->body_case() == kind) return m;
  }
  return std::nullopt;
}

TEST(Webhooks, UrlsAreParsedStrictly) {
  auto u = server::parse_webhook_url("https://discord.example/api/webhooks/1/x");
  ASSERT_TRUE(u);
  EXPECT_TRUE(u->tls);
  EXPECT_EQ(u->host, "discord.example");
  EXPECT_EQ(u->port, "443");
  EXPECT_EQ(u->target, "/api/webhooks/1/x");
  auto local = server::parse_webhook_url("http://127.0.0.1:9000");
  ASSERT_TRUE(local);
  EXPECT_EQ(local->port, "9000");
  EXPECT_EQ(local->target, "/");
  EXPECT_FALSE(server::parse_webhook_url("ftp://x/"));
  EXPECT_FALSE(server::parse_webhook_url("http://"));
  EXPECT_FALSE(server::parse_webhook_url("http://user@host/"));
  EXPECT_FALSE(server::parse_webhook_url("http://host:port/"));
}

TEST(Webhooks, BodiesInEachFormat) {
  const server::Notification n{"step_resolved", "g1", "a/b", "step 3 \"resolved\""};
  EXPECT_EQ(server::webhook_body(n, server::WebhookFormat::kJson),
            R"({"kind":"step_resolved","game_id":"g1","seat":"a/b","text":"step 3 \"resolved\""})");
  EXPECT_EQ(server::webhook_body(n, server::WebhookFormat::kDiscord), R"({"content":"[g1 a/b] step 3 \"resolved\""})");
  EXPECT_EQ(server::webhook_body(n, server::WebhookFormat::kSlack), R"({"text":"[g1 a/b] step 3 \"resolved\""})");
}

TEST(Webhooks, GameAndSeatHooksAreToldAndFailuresAreRetried) {
  Receiver game_hook(/*failures=*/1);
  Receiver seat_hook;
  auto dir = make_temp_dir("hooks");
  ServerProcess server(dir, {"--webhook-allow", "127.0.0.0/8"});
  server.start();

  Client umpire(server.port());
  ASSERT_TRUE(umpire.hello().has_welcome());
  v1::Envelope e;
  e.mutable_create_game()->set_scenario_name("demo");
  auto* hook = e.mutable_create_game()->mutable_settings()->add_webhooks();
  hook->set_url("http://127.0.0.1:" + std::to_string(game_hook.port()) + "/game");
  auto created = umpire.call(e);
  ASSERT_TRUE(created.has_game_created()) << created.DebugString();
  const auto& gc = created.game_created();

  // The game starts by itself (the first step resolves); the game hook is told,
  // after one refused delivery and a retry.
  EXPECT_TRUE(game_hook.wait_for("\"kind\":\"step_resolved\"")) << server.log();
  EXPECT_GE(game_hook.requests(), 2);
  EXPECT_TRUE(game_hook.wait_for("\"kind\":\"decision_owed\""));

  // A seat's own hook, in Discord format.
  std::string seat, token;
  for (const auto& inv : gc.invites()) {
    if (inv.seat().find("/army") != std::string::npos) {
      seat = inv.seat();
      token = inv.token();
    }
  }
  Client player(server.port());
  ASSERT_TRUE(player.hello().has_welcome());
  v1::Envelope j;
  j.mutable_join_game()->set_game_id(gc.game_id());
  j.mutable_join_game()->set_token(token);
  ASSERT_TRUE(player.call(j).has_joined());
  v1::Envelope bad;
  bad.mutable_set_notifications()->set_game_id(gc.game_id());
  bad.mutable_set_notifications()->mutable_webhook()->set_url("gopher://x");
  auto refused = player.call(bad);
  ASSERT_TRUE(refused.has_error());
  EXPECT_EQ(refused.error().code(), v1::ERROR_CODE_INVALID_ARGUMENT);
  v1::Envelope set;
  set.mutable_set_notifications()->set_game_id(gc.game_id());
  set.mutable_set_notifications()->mutable_webhook()->set_url("http://127.0.0.1:" + std::to_string(seat_hook.port()) + "/me");
  set.mutable_set_notifications()->mutable_webhook()->set_format(v1::WEBHOOK_FORMAT_DISCORD);
  ASSERT_TRUE(player.call(set).has_notifications_set());

  // The umpire ends the game: everyone's hooks hear of it.
  v1::Envelope end;
  end.mutable_umpire_action()->set_game_id(gc.game_id());
  end.mutable_umpire_action()->set_reason("test over");
  end.mutable_umpire_action()->mutable_end_game()->set_result("a draw");
  v1::Envelope uj;
  uj.mutable_join_game()->set_game_id(gc.game_id());
  uj.mutable_join_game()->set_token(gc.invites(0).token());
  ASSERT_TRUE(umpire.call(uj).has_joined());
  ASSERT_TRUE(umpire.call(end).has_umpire_done());
  EXPECT_TRUE(seat_hook.wait_for("\"content\":")) << server.log();
  EXPECT_TRUE(seat_hook.wait_for("a draw"));
  EXPECT_TRUE(game_hook.wait_for("\"kind\":\"game_ended\""));
  EXPECT_EQ(server.stop(SIGTERM), 0);
  std::filesystem::remove_all(dir);
}


// A game webhook with daily_digest: nothing is posted per event; one digest a
// day at the digest time (manual clock) lists what happened since the last;
// the queue and the last digest's time survive a restart; the end sends the
// last digest at once.
TEST(Webhooks, DailyDigestCollectsEventsAndSurvivesARestart) {
  Receiver digest_hook;
  auto dir = make_temp_dir("digest");
  auto server = std::make_unique<ServerProcess>(dir, std::vector<std::string>{"--manual-clock", "--webhook-allow", "127.0.0.0/8"});
  server->start();

  Client umpire(server->port());
  ASSERT_TRUE(umpire.hello().has_welcome());
  v1::Envelope bad;
  bad.mutable_create_game()->set_scenario_name("demo");
  bad.mutable_create_game()->mutable_settings()->set_digest_time("25:00");
  auto refused = umpire.call(bad);
  ASSERT_TRUE(refused.has_error());
  EXPECT_EQ(refused.error().code(), v1::ERROR_CODE_INVALID_ARGUMENT);
  EXPECT_NE(refused.error().message().find("digest_time"), std::string::npos) << refused.error().message();

  v1::Envelope e;
  e.mutable_create_game()->set_scenario_name("demo");
  auto* settings = e.mutable_create_game()->mutable_settings();
  settings->set_digest_time("20:00");
  settings->set_time_zone("Europe/Paris");
  auto* hook = settings->add_webhooks();
  hook->set_url("http://127.0.0.1:" + std::to_string(digest_hook.port()) + "/digest");
  hook->set_daily_digest(true);
  auto created = umpire.call(e);
  ASSERT_TRUE(created.has_game_created()) << created.DebugString();
  const auto& gc = created.game_created();
  v1::Envelope uj;
  uj.mutable_join_game()->set_game_id(gc.game_id());
  uj.mutable_join_game()->set_token(gc.invites(0).token());
  ASSERT_TRUE(umpire.call(uj).has_joined());

  // The game's first step resolved by itself: queued, not posted.
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  EXPECT_EQ(digest_hook.requests(), 0);

  // A day later the digest has gone, once, with the step and what is owed.
  ASSERT_EQ(http_post(server->port(), "/debug/clock?advance_seconds=" + std::to_string(25 * 3600)).status, 200u);
  ASSERT_TRUE(digest_hook.wait_for("\"kind\":\"digest\"")) << server->log();
  auto first = digest_hook.bodies().front();
  EXPECT_NE(first.find("since the game began"), std::string::npos) << first;
  EXPECT_NE(first.find("step resolved"), std::string::npos) << first;
  EXPECT_NE(first.find("decision owed"), std::string::npos) << first;
  ASSERT_EQ(http_post(server->port(), "/debug/clock?advance_seconds=60").status, 200u);
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_EQ(digest_hook.requests(), 1);

  // Something happens, then the server restarts (its manual clock back at the real time).
  v1::Envelope force;
  force.mutable_umpire_action()->set_game_id(gc.game_id());
  force.mutable_umpire_action()->set_reason("move on");
  force.mutable_umpire_action()->mutable_force_resolve();
  ASSERT_TRUE(umpire.call(force).has_umpire_done());
  ASSERT_TRUE(read_until_kind(umpire, v1::Envelope::kStepResolved));
  ASSERT_EQ(server->stop(SIGTERM), 0) << server->log();
  server = std::make_unique<ServerProcess>(dir, std::vector<std::string>{"--manual-clock", "--webhook-allow", "127.0.0.0/8"});
  server->start();
  Client again(server->port());
  ASSERT_TRUE(again.hello().has_welcome());
  uj.set_correlation_id(0);
  ASSERT_TRUE(again.call(uj).has_joined());
  // The last digest went a day ahead of this clock: the next is due the day after it.
  ASSERT_EQ(http_post(server->port(), "/debug/clock?advance_seconds=" + std::to_string(3600)).status, 200u);
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));
  EXPECT_EQ(digest_hook.requests(), 1);
  ASSERT_EQ(http_post(server->port(), "/debug/clock?advance_seconds=" + std::to_string(48 * 3600)).status, 200u);
  ASSERT_TRUE(digest_hook.wait_for("since the last digest")) << server->log();
  const auto second = digest_hook.bodies().back();
  EXPECT_NE(second.find("step resolved"), std::string::npos) << second;

  // The end: the last digest goes at once.
  v1::Envelope end;
  end.mutable_umpire_action()->set_game_id(gc.game_id());
  end.mutable_umpire_action()->set_reason("test over");
  end.mutable_umpire_action()->mutable_end_game()->set_result("a draw");
  ASSERT_TRUE(again.call(end).has_umpire_done());
  ASSERT_TRUE(digest_hook.wait_for("game ended")) << server->log();
  EXPECT_EQ(digest_hook.requests(), 3);
  EXPECT_EQ(server->stop(SIGTERM), 0);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace galloper::testing
