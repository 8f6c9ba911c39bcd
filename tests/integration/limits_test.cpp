// Abuse limits, each hit from the outside: the typed error or close code, the
// count on /metrics, other clients (another address, another connection)
// unaffected, and nothing stored from a refused request. Then a session at
// debug level whose log must not hold a token or the organiser key.
#include "tests/integration/game_driver.hpp"
#include "tests/integration/harness.hpp"

namespace galloper::testing {
namespace {

// A second client address on loopback: limits per address must not reach it.
constexpr const char* kOtherAddress = "127.0.0.2";

// Read from kOtherAddress, so reading /metrics spends nothing of the limits under test.
std::string metric_value(unsigned short port, const std::string& name) {
  const auto body = http_get(port, "/metrics", kOtherAddress).body;
  const auto at = body.find("\n" + name + " ");
  if (at == std::string::npos) return "absent";
  const auto start = at + name.size() + 2;
  return body.substr(start, body.find('\n', start) - start);
}

std::string limited(unsigned short port, const std::string& limit) {
  return metric_value(port, "galloper_limited_total{limit=\"" + limit + "\"}");
}

v1::Envelope create(Client& c, const std::string& key = {}) {
  v1::Envelope e;
  e.mutable_create_game()->set_scenario_name("demo");
  if (!key.empty()) e.mutable_create_game()->set_create_key(key);
  return c.call(e);
}

std::size_t stored_games(unsigned short port) {
  Client c(port, Client::Mode::kBinary, {}, "/ws", kOtherAddress);
  c.hello();
  v1::Envelope e;
  e.mutable_list_games();
  return static_cast<std::size_t>(c.call(e).game_list().games_size());
}

v1::Envelope chat(Client& c, const std::string& game, const std::string& text) {
  v1::Envelope e;
  e.mutable_send_chat()->set_game_id(game);
  e.mutable_send_chat()->set_text(text);
  return c.call(e);
}

class LimitsTest : public ::testing::Test {
 protected:
  void TearDown() override {
    if (server_) {
      EXPECT_EQ(server_->stop(SIGTERM), 0);
    }
    std::filesystem::remove_all(dir_);
  }
  void start(std::vector<std::string> args) {
    if (dir_.empty()) dir_ = make_temp_dir("limits");
    std::filesystem::create_directories(dir_ / "data");
    server_.emplace(dir_ / "data", std::move(args));
    server_->start();
  }
  unsigned short port() const { return server_->port(); }
  std::filesystem::path dir_;
  std::optional<ServerProcess> server_;
};

TEST_F(LimitsTest, MessagesOverTheRateAreRefusedAndOtherConnectionsCarryOn) {
  start({"--message-rate", "5"});  // bursts of 25
  Client flood(port());
  ASSERT_TRUE(flood.hello().has_welcome());
  Client calm(port());
  ASSERT_TRUE(calm.hello().has_welcome());
  for (int i = 0; i < 60; ++i) {
    v1::Envelope e;
    e.set_correlation_id(100 + i);
    e.mutable_list_games();
    flood.send(e);
  }
  int answered = 0;
  int refused = 0;
  for (int i = 0; i < 60; ++i) {
    auto m = flood.receive();
    ASSERT_TRUE(m.has_value());
    if (m->has_game_list()) ++answered;
    if (m->has_error()) {
      EXPECT_EQ(m->error().code(), v1::ERROR_CODE_RATE_LIMITED);
      EXPECT_NE(m->error().message().find("slow down"), std::string::npos);
      EXPECT_TRUE(m->error().context().contains("retry_after_seconds"));
      ++refused;
    }
  }
  EXPECT_GE(answered, 24);  // the burst, less the Hello
  EXPECT_GE(refused, 25);
  EXPECT_EQ(limited(port(), "messages"), std::to_string(refused));
  v1::Envelope e;
  e.mutable_list_games();
  EXPECT_TRUE(calm.call(e).has_game_list());
  // The flood's own connection is served again once it waits.
  std::this_thread::sleep_for(std::chrono::milliseconds(600));
  EXPECT_TRUE(flood.call(e).has_game_list());
}

TEST_F(LimitsTest, ChatIsHeldToItsOwnStricterRateAndNothingRefusedIsStored) {
  start({"--chat-per-minute", "1"});  // bursts of 5
  const auto game = create_demo_game(port());
  Client umpire(port());
  umpire.hello();
  ASSERT_TRUE(join_game(umpire, game.id, game.tokens.at("umpire")).has_joined());
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(chat(umpire, game.id, "line " + std::to_string(i)).has_chat_sent());
  const auto refused = chat(umpire, game.id, "one too many");
  ASSERT_TRUE(refused.has_error());
  EXPECT_EQ(refused.error().code(), v1::ERROR_CODE_RATE_LIMITED);
  EXPECT_NE(refused.error().message().find("chat"), std::string::npos);
  // Orders and other requests are not chat: they still go through.
  v1::Envelope e;
  e.mutable_list_games();
  EXPECT_TRUE(umpire.call(e).has_game_list());
  EXPECT_EQ(limited(port(), "chat"), "1");
  // A reader joining now is given the five lines that were stored, not the sixth.
  Client reader(port());
  reader.hello();
  ASSERT_TRUE(join_game(reader, game.id, game.tokens.at("umpire")).has_joined());
  int lines = 0;
  while (auto m = reader.poll(std::chrono::milliseconds(500))) {
    for (const auto& line : m->events_since().chat()) {
      EXPECT_NE(line.text(), "one too many");
      ++lines;
    }
    if (m->has_chat()) ++lines;
  }
  EXPECT_EQ(lines, 5);
}

TEST_F(LimitsTest, NewConnectionsOverTheRateGet429Or1013WithTheReason) {
  start({"--connection-rate", "2"});  // bursts of 4
  Client kept(port());  // open before the burst: it stays served
  ASSERT_TRUE(kept.hello().has_welcome());
  int refused_http = 0;
  for (int i = 0; i < 8; ++i) {
    const auto r = http_get(port(), "/healthz");
    if (r.status == 429) {
      EXPECT_NE(r.body.find("RATE_LIMITED"), std::string::npos);
      EXPECT_NE(r.body.find("new connections"), std::string::npos);
      ++refused_http;
    }
  }
  EXPECT_GE(refused_http, 3);
  Client refused_ws(port());
  ASSERT_TRUE(refused_ws.connected());  // accepted so a browser can read why, then closed
  EXPECT_FALSE(refused_ws.receive().has_value());
  EXPECT_EQ(refused_ws.close_reason().code, websocket::close_code::try_again_later);
  EXPECT_NE(std::string(refused_ws.close_reason().reason.data(), refused_ws.close_reason().reason.size())
                .find("new connections"),
            std::string::npos);
  // Another address, and the connection already open, are served.
  Client other(port(), Client::Mode::kBinary, {}, "/ws", kOtherAddress);
  EXPECT_TRUE(other.hello().has_welcome());
  v1::Envelope e;
  e.mutable_list_games();
  EXPECT_TRUE(kept.call(e).has_game_list());
  EXPECT_GE(std::stoi(limited(port(), "connections")), refused_http + 1);
}

// How many of `n` GETs of /healthz from `source`, naming `forwarded_for`, got 429.
int refused_gets(unsigned short port, int n, const std::string& source, const std::string& forwarded_for) {
  int refused = 0;
  for (int i = 0; i < n; ++i) refused += http_get(port, "/healthz", source, forwarded_for).status == 429 ? 1 : 0;
  return refused;
}

TEST_F(LimitsTest, BehindATrustedProxyEachForwardedClientHasItsOwnBudget) {
  start({"--connection-rate", "2", "--trust-proxy", "127.0.0.1"});  // bursts of 4
  // One client through the proxy runs out; another through the same proxy does not.
  EXPECT_GE(refused_gets(port(), 8, "127.0.0.1", "198.51.100.7"), 3);
  EXPECT_EQ(http_get(port(), "/healthz", "127.0.0.1", "198.51.100.8").status, 200u);
  // What a client prepends is not believed: the proxy's own entry is last.
  EXPECT_EQ(http_get(port(), "/healthz", "127.0.0.1", "198.51.100.8, 198.51.100.7").status, 429u);
  // IPv6 clients are counted by their /64.
  EXPECT_GE(refused_gets(port(), 8, "127.0.0.1", "2001:db8:1:2::1"), 3);
  EXPECT_EQ(http_get(port(), "/healthz", "127.0.0.1", "2001:db8:1:2::ffff").status, 429u) << "same /64";
  EXPECT_EQ(http_get(port(), "/healthz", "127.0.0.1", "2001:db8:1:3::1").status, 200u) << "another /64";
  // A WebSocket through the proxy: the refused client is closed with the
  // reason, another is served.
  Client refused(port(), Client::Mode::kBinary, {}, "/ws", "127.0.0.1", "198.51.100.7");
  EXPECT_FALSE(refused.receive().has_value());
  EXPECT_EQ(refused.close_reason().code, websocket::close_code::try_again_later);
  Client served(port(), Client::Mode::kBinary, {}, "/ws", "127.0.0.1", "198.51.100.9");
  EXPECT_TRUE(served.hello().has_welcome());
}

TEST_F(LimitsTest, AnUntrustedPeerCannotNameItselfAnotherClient) {
  start({"--connection-rate", "2", "--trust-proxy", "127.0.0.1"});
  // 127.0.0.2 is no proxy: every header it sends is its own, and all count as it.
  int refused = 0;
  for (int i = 0; i < 8; ++i) {
    refused += http_get(port(), "/healthz", kOtherAddress, "198.51.100." + std::to_string(i)).status == 429 ? 1 : 0;
  }
  EXPECT_GE(refused, 3);
}

TEST_F(LimitsTest, WrongTokensThroughATrustedProxyBanOnlyThatClient) {
  start({"--max-failed-tokens", "2", "--token-ban", "60", "--trust-proxy", "127.0.0.1"});
  const auto game = create_demo_game(port());
  const auto& good = game.tokens.at("umpire");
  Client guesser(port(), Client::Mode::kBinary, {}, "/ws", "127.0.0.1", "198.51.100.7");
  guesser.hello();
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(join_game(guesser, game.id, std::string(64, static_cast<char>('a' + i))).error().code(),
              v1::ERROR_CODE_BAD_TOKEN);
  }
  EXPECT_EQ(join_game(guesser, game.id, good).error().code(), v1::ERROR_CODE_RATE_LIMITED);
  // Another player behind the same proxy is not banned with the guesser.
  Client player(port(), Client::Mode::kBinary, {}, "/ws", "127.0.0.1", "198.51.100.8");
  player.hello();
  EXPECT_TRUE(join_game(player, game.id, good).has_joined());
}

TEST_F(LimitsTest, WrongTokensBanTheAddressForAWhile) {
  start({"--max-failed-tokens", "3", "--token-ban", "2"});
  const auto game = create_demo_game(port());
  const auto& good = game.tokens.at("umpire");
  Client guesser(port());
  guesser.hello();
  for (int i = 0; i < 3; ++i) {
    const auto r = join_game(guesser, game.id, std::string(64, static_cast<char>('a' + i)));
    ASSERT_TRUE(r.has_error());
    EXPECT_EQ(r.error().code(), v1::ERROR_CODE_BAD_TOKEN);
  }
  // Banned: even the right token is refused from this address, on any connection.
  Client again(port());
  again.hello();
  const auto banned = join_game(again, game.id, good);
  ASSERT_TRUE(banned.has_error());
  EXPECT_EQ(banned.error().code(), v1::ERROR_CODE_RATE_LIMITED);
  EXPECT_NE(banned.error().message().find("try again in"), std::string::npos);
  EXPECT_EQ(create(again).error().code(), v1::ERROR_CODE_RATE_LIMITED);
  // Another address joins with it.
  Client other(port(), Client::Mode::kBinary, {}, "/ws", kOtherAddress);
  other.hello();
  EXPECT_TRUE(join_game(other, game.id, good).has_joined());
  EXPECT_EQ(metric_value(port(), "galloper_failed_tokens_total"), "3");
  EXPECT_EQ(metric_value(port(), "galloper_bans_total"), "1");
  EXPECT_EQ(limited(port(), "banned"), "2");
  EXPECT_EQ(stored_games(port()), 1u);
  // The ban ends by itself.
  std::this_thread::sleep_for(std::chrono::milliseconds(2200));
  EXPECT_TRUE(join_game(again, game.id, good).has_joined());
}

TEST_F(LimitsTest, GameCreationPerAddressPerHourIsCapped) {
  start({"--games-per-ip-per-hour", "2"});
  Client c(port());
  c.hello();
  EXPECT_TRUE(create(c).has_game_created());
  EXPECT_TRUE(create(c).has_game_created());
  const auto third = create(c);
  ASSERT_TRUE(third.has_error());
  EXPECT_EQ(third.error().code(), v1::ERROR_CODE_RATE_LIMITED);
  EXPECT_NE(third.error().message().find("an hour"), std::string::npos);
  Client other(port(), Client::Mode::kBinary, {}, "/ws", kOtherAddress);
  other.hello();
  EXPECT_TRUE(create(other).has_game_created());
  EXPECT_EQ(stored_games(port()), 3u);
  EXPECT_EQ(limited(port(), "creations"), "1");
}

TEST_F(LimitsTest, OrganiserKeyIsRequiredToCreateWhenSet) {
  start({"--create-key", "organiser-key-7f3a9c"});
  Client c(port());
  c.hello();
  const auto none = create(c);
  ASSERT_TRUE(none.has_error());
  EXPECT_EQ(none.error().code(), v1::ERROR_CODE_PERMISSION_DENIED);
  EXPECT_NE(none.error().message().find("create_key"), std::string::npos);
  const auto wrong = create(c, "organiser-key-7f3a9d");
  ASSERT_TRUE(wrong.has_error());
  EXPECT_EQ(wrong.error().code(), v1::ERROR_CODE_PERMISSION_DENIED);
  EXPECT_EQ(stored_games(port()), 0u);
  EXPECT_TRUE(create(c, "organiser-key-7f3a9c").has_game_created());
  EXPECT_EQ(stored_games(port()), 1u);
  EXPECT_EQ(limited(port(), "create_key"), "2");
  EXPECT_EQ(metric_value(port(), "galloper_failed_tokens_total"), "2");  // wrong keys count toward a ban
  EXPECT_EQ(server_->log().find("organiser-key-7f3a9"), std::string::npos);
}

TEST_F(LimitsTest, StoredGamesAreCappedAcrossRestarts) {
  start({"--max-games", "1"});
  Client c(port());
  c.hello();
  EXPECT_TRUE(create(c).has_game_created());
  const auto full = create(c);
  ASSERT_TRUE(full.has_error());
  EXPECT_EQ(full.error().code(), v1::ERROR_CODE_UNAVAILABLE);
  EXPECT_EQ(limited(port(), "games"), "1");
  // The count comes from the store at start.
  EXPECT_EQ(server_->stop(SIGTERM), 0);
  start({"--max-games", "1"});
  Client again(port());
  again.hello();
  EXPECT_EQ(create(again).error().code(), v1::ERROR_CODE_UNAVAILABLE);
  EXPECT_EQ(stored_games(port()), 1u);
}

TEST_F(LimitsTest, AFullGameLogTakesNoMoreRequestsAndOtherGamesCarryOn) {
  start({"--max-log-entries", "100", "--chat-per-minute", "100000", "--message-rate", "1000"});
  const auto full = create_demo_game(port());
  const auto other = create_demo_game(port());
  Client umpire(port());
  umpire.hello();
  ASSERT_TRUE(join_game(umpire, full.id, full.tokens.at("umpire")).has_joined());
  int sent = 0;
  v1::Envelope refused;
  for (int i = 0; i < 200 && !refused.has_error(); ++i) {
    auto r = chat(umpire, full.id, "entry " + std::to_string(i));
    if (r.has_chat_sent()) {
      ++sent;
    } else {
      refused = r;
    }
  }
  ASSERT_TRUE(refused.has_error());
  EXPECT_EQ(refused.error().code(), v1::ERROR_CODE_UNAVAILABLE);
  EXPECT_NE(refused.error().message().find("log is full"), std::string::npos);
  EXPECT_LE(sent, 100);
  EXPECT_EQ(chat(umpire, full.id, "still full").error().code(), v1::ERROR_CODE_UNAVAILABLE);
  EXPECT_EQ(limited(port(), "log"), "2");
  Client elsewhere(port());
  elsewhere.hello();
  ASSERT_TRUE(join_game(elsewhere, other.id, other.tokens.at("umpire")).has_joined());
  EXPECT_TRUE(chat(elsewhere, other.id, "this game has room").has_chat_sent());
}

TEST_F(LimitsTest, AnUploadedScenarioOverTheSizeLimitIsRefusedBeforeItIsRead) {
  start({"--max-scenario-bytes", "2048", "--max-scenario-parts", "50"});
  Client c(port());
  c.hello();
  v1::Envelope e;
  e.mutable_create_game()->set_scenario_text(std::string(3000, '#'));
  const auto r = c.call(e);
  ASSERT_TRUE(r.has_error());
  EXPECT_EQ(r.error().code(), v1::ERROR_CODE_INVALID_ARGUMENT);
  EXPECT_NE(r.error().message().find("--max-scenario-bytes"), std::string::npos);
  v1::Envelope check;
  check.mutable_list_scenarios()->set_scenario_text(std::string(3000, '#'));
  EXPECT_EQ(c.call(check).error().code(), v1::ERROR_CODE_INVALID_ARGUMENT);
  // Small in bytes, but more parts than allowed: a wood of 60 points.
  std::string wood = "name: \"many\" terrain { area { kind: AREA_KIND_WOOD";
  for (int i = 0; i < 60; ++i) wood += " outline { x: " + std::to_string(i % 9) + " y: 1 }";
  wood += " } }";
  ASSERT_LT(wood.size(), 2048u);
  v1::Envelope parts;
  parts.mutable_create_game()->set_scenario_text(wood);
  const auto many = c.call(parts);
  EXPECT_EQ(many.error().code(), v1::ERROR_CODE_INVALID_ARGUMENT);
  EXPECT_NE(many.error().message().find("--max-scenario-parts"), std::string::npos) << many.DebugString();
  EXPECT_EQ(limited(port(), "scenario_size"), "3");
  EXPECT_EQ(stored_games(port()), 0u);
  EXPECT_TRUE(create(c).has_game_created());  // the bundled scenarios are not uploads
}

// Tokens are secrets: a whole session at debug level leaves none in the log.
TEST_F(LimitsTest, NoTokenOrKeyAppearsInTheLogAtDebugLevel) {
  start({"--create-key", "organiser-key-51c0de", "--max-failed-tokens", "100"});
  std::vector<std::string> secrets = {"organiser-key-51c0de"};
  Client organiser(port());
  organiser.hello();
  const auto created = create(organiser, "organiser-key-51c0de");
  ASSERT_TRUE(created.has_game_created());
  const auto& g = created.game_created();
  std::map<std::string, std::string> tokens;
  for (const auto& inv : g.invites()) {
    tokens[inv.seat()] = inv.token();
    secrets.push_back(inv.token());
  }
  secrets.push_back(g.spectators().token());
  std::string resume;
  {
    Client umpire(port());
    umpire.hello();
    const auto joined = join_game(umpire, g.game_id(), tokens.at("umpire"));
    ASSERT_TRUE(joined.has_joined());
    resume = joined.joined().resume_token();
    if (!resume.empty()) secrets.push_back(resume);
    for (const auto& [seat, token] : tokens) {
      if (seat == "umpire") continue;
      Client player(port());
      player.hello();
      const auto p = join_game(player, g.game_id(), token);
      ASSERT_TRUE(p.has_joined());
      if (!p.joined().resume_token().empty()) secrets.push_back(p.joined().resume_token());
      break;
    }
  }
  // Reconnect with the resume token, then with a bad one and a wrong key.
  Client back(port());
  back.hello();
  EXPECT_TRUE(join_game(back, g.game_id(), resume.empty() ? tokens.at("umpire") : resume).has_joined());
  const std::string bad = "badbadbad0123456789abcdef0123456789abcdef0123456789abcdef0123";
  secrets.push_back(bad);
  EXPECT_EQ(join_game(back, g.game_id(), bad).error().code(), v1::ERROR_CODE_BAD_TOKEN);
  secrets.push_back("organiser-key-wrong-51c0de");
  EXPECT_EQ(create(back, "organiser-key-wrong-51c0de").error().code(), v1::ERROR_CODE_PERMISSION_DENIED);
  EXPECT_EQ(server_->stop(SIGTERM), 0);
  const auto log = server_->log();
  EXPECT_NE(log.find("join refused"), std::string::npos) << "the session did not reach the log";
  for (const auto& s : secrets) {
    ASSERT_GE(s.size(), 20u);
    EXPECT_EQ(log.find(s), std::string::npos) << "a secret is in the log";
    EXPECT_EQ(log.find(s.substr(0, 16)), std::string::npos) << "part of a secret is in the log";
  }
  server_.reset();
}

}  // namespace
}  // namespace galloper::testing
