// Webhooks cannot be aimed inside the server's network (server-side request
// forgery): loopback, private, link-local and metadata destinations are
// refused when given, names are checked where they are resolved, redirects
// are not followed and a long answer fails the delivery.
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "tests/integration/harness.hpp"
#include "tests/integration/receiver.hpp"

namespace galloper::testing {
namespace {

// The value of a counter on /metrics.
long metric(unsigned short port, const std::string& name) {
  const auto body = http_get(port, "/metrics").body;
  const auto at = body.find("\n" + name + " ");
  if (at == std::string::npos) return -1;
  return std::stol(body.substr(at + name.size() + 2));
}

bool wait_for_metric(unsigned short port, const std::string& name, long at_least, int seconds = 15) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (std::chrono::steady_clock::now() < deadline) {
    if (metric(port, name) >= at_least) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

v1::Envelope create_with_hook(const std::string& url) {
  v1::Envelope e;
  e.mutable_create_game()->set_scenario_name("demo");
  e.mutable_create_game()->mutable_settings()->add_webhooks()->set_url(url);
  return e;
}

TEST(WebhookDestinations, InsideAddressesAreRefusedWhenGivenAndNothingIsStored) {
  Receiver inside;
  const std::string port = std::to_string(inside.port());
  auto dir = make_temp_dir("hook-ssrf");
  ServerProcess server(dir);
  server.start();
  Client organiser(server.port());
  ASSERT_TRUE(organiser.hello().has_welcome());

  for (const std::string& url : std::vector<std::string>{
           "http://127.0.0.1:" + port + "/x", "http://localhost:" + port + "/x", "http://[::1]:" + port + "/x",
        "http://[::ffff:127.0.0.1]:" + port + "/x", "http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/",
        "http://192.168.1.1:8080/admin", "http://[fd00:ec2::254]/latest", "https://0.0.0.0:" + port + "/"}) {
    const auto reply = organiser.call(create_with_hook(url));
    ASSERT_TRUE(reply.has_error()) << url << ": " << reply.ShortDebugString();
    EXPECT_EQ(reply.error().code(), v1::ERROR_CODE_INVALID_ARGUMENT) << url;
    EXPECT_NE(reply.error().message().find("--webhook-allow"), std::string::npos) << reply.error().message();
  }
  v1::Envelope list;
  list.mutable_list_games();
  EXPECT_EQ(organiser.call(list).game_list().games_size(), 0) << "no game was created";

  // A seat's own hook likewise.
  const auto created = organiser.call(create_with_hook("https://hooks.example/game"));
  ASSERT_TRUE(created.has_game_created()) << created.ShortDebugString();
  const auto& gc = created.game_created();
  Client player(server.port());
  ASSERT_TRUE(player.hello().has_welcome());
  v1::Envelope join;
  join.mutable_join_game()->set_game_id(gc.game_id());
  join.mutable_join_game()->set_token(gc.invites(1).token());
  ASSERT_TRUE(player.call(join).has_joined());
  v1::Envelope set;
  set.mutable_set_notifications()->set_game_id(gc.game_id());
  set.mutable_set_notifications()->mutable_webhook()->set_url("http://127.0.0.1:" + port + "/me");
  const auto refused = player.call(set);
  ASSERT_TRUE(refused.has_error()) << refused.ShortDebugString();
  EXPECT_EQ(refused.error().code(), v1::ERROR_CODE_INVALID_ARGUMENT);
  EXPECT_NE(refused.error().message().find("a loopback address"), std::string::npos) << refused.error().message();

  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  EXPECT_EQ(inside.requests(), 0) << server.log();
  EXPECT_EQ(server.stop(SIGTERM), 0);
  std::filesystem::remove_all(dir);
}

// "2130706433" is not an address literal, but the system resolver reads it
// as 127.0.0.1 (as it reads "0177.0.0.1"): checked where it is resolved, the
// delivery is refused and counted, and nothing reaches the receiver.
TEST(WebhookDestinations, ANameThatResolvesInsideIsRefusedWhenResolved) {
  Receiver inside;
  auto dir = make_temp_dir("hook-ssrf-name");
  ServerProcess server(dir);
  server.start();
  Client organiser(server.port());
  ASSERT_TRUE(organiser.hello().has_welcome());
  const auto created = organiser.call(create_with_hook("http://2130706433:" + std::to_string(inside.port()) + "/x"));
  ASSERT_TRUE(created.has_game_created()) << created.ShortDebugString();
  // The game's first step resolves at once and its hook is notified: refused.
  EXPECT_TRUE(wait_for_metric(server.port(), "galloper_webhooks_refused_total", 1)) << server.log();
  EXPECT_EQ(inside.requests(), 0);
  EXPECT_EQ(metric(server.port(), "galloper_webhooks_delivered_total"), 0);
  EXPECT_EQ(server.stop(SIGTERM), 0);
  std::filesystem::remove_all(dir);
}

// With loopback allowed by the operator: a redirect is one failed delivery,
// never followed; an answer longer than the server reads fails and is retried.
TEST(WebhookDestinations, RedirectsAreNotFollowedAndLongAnswersFail) {
  Receiver elsewhere;
  Receiver redirecting(0, {http::status::found, "http://127.0.0.1:" + std::to_string(elsewhere.port()) + "/"});
  Receiver long_answer(0, {http::status::ok, "", 1024 * 1024});
  auto dir = make_temp_dir("hook-redirect");
  ServerProcess server(dir, {"--webhook-allow", "127.0.0.0/8"});
  server.start();
  Client organiser(server.port());
  ASSERT_TRUE(organiser.hello().has_welcome());
  ASSERT_TRUE(organiser.call(create_with_hook("http://127.0.0.1:" + std::to_string(redirecting.port()) + "/r"))
                  .has_game_created());
  ASSERT_TRUE(redirecting.wait_for("\"kind\":\"step_resolved\"")) << server.log();
  ASSERT_TRUE(organiser.call(create_with_hook("http://127.0.0.1:" + std::to_string(long_answer.port()) + "/l"))
                  .has_game_created());
  ASSERT_TRUE(long_answer.wait_for("\"kind\":\"step_resolved\"")) << server.log();
  // The first retry comes a second after the first attempt.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (long_answer.requests() < 3 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_GE(long_answer.requests(), 3) << "each notification's long answer failed and was retried";
  EXPECT_GE(metric(server.port(), "galloper_webhooks_failed_total"), 1) << "the redirected deliveries failed";
  EXPECT_EQ(elsewhere.requests(), 0) << "the redirect was not followed";
  EXPECT_EQ(server.stop(SIGTERM), 0);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace galloper::testing
