// The WebSocket protocol over a real connection: handshake, encodings, and
// every kind of bad frame gets its typed error while the server carries on.
#include "tests/integration/game_driver.hpp"
#include "tests/integration/harness.hpp"

namespace galloper::testing {
namespace {

class ProtocolTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = make_temp_dir("proto");
    server_.emplace(dir_, std::vector<std::string>{"--read-message-max", "4096"});
    server_->start();
  }
  void TearDown() override {
    if (server_) {
      EXPECT_EQ(server_->stop(SIGTERM), 0) << server_->log();
    }
    std::filesystem::remove_all(dir_);
  }
  std::filesystem::path dir_;
  std::optional<ServerProcess> server_;
};

TEST_F(ProtocolTest, HelloGetsWelcomeInBinary) {
  Client c(server_->port(), Client::Mode::kBinary);
  ASSERT_TRUE(c.connected()) << c.handshake_error().message();
  auto reply = c.hello();
  ASSERT_TRUE(reply.has_welcome()) << reply.DebugString();
  EXPECT_EQ(reply.welcome().protocol().major(), 1u);
  EXPECT_FALSE(reply.welcome().server_version().empty());
  EXPECT_TRUE(c.last_was_binary());
}

TEST_F(ProtocolTest, HelloGetsWelcomeInJson) {
  Client c(server_->port(), Client::Mode::kJson);
  auto reply = c.hello();
  ASSERT_TRUE(reply.has_welcome()) << reply.DebugString();
  EXPECT_FALSE(c.last_was_binary());
  EXPECT_NE(c.last_text().find("\"welcome\""), std::string::npos) << c.last_text();
}

TEST_F(ProtocolTest, DifferentMajorVersionIsRefusedAndClosed) {
  Client c(server_->port());
  auto reply = c.hello(2);
  ASSERT_TRUE(reply.has_error()) << reply.DebugString();
  EXPECT_EQ(reply.error().code(), v1::ERROR_CODE_VERSION_MISMATCH);
  EXPECT_EQ(reply.error().context().at("server_major"), "1");
  EXPECT_FALSE(c.receive().has_value());
  EXPECT_EQ(c.close_reason().code, websocket::close_code::protocol_error);
}

TEST_F(ProtocolTest, RequestBeforeHelloIsRefused) {
  Client c(server_->port());
  v1::Envelope e;
  e.mutable_list_games();
  auto reply = c.call(e);
  ASSERT_TRUE(reply.has_error());
  EXPECT_EQ(reply.error().code(), v1::ERROR_CODE_HANDSHAKE_REQUIRED);
  EXPECT_TRUE(c.hello().has_welcome());  // and the connection is still usable
}

TEST_F(ProtocolTest, MalformedBinaryFrameGetsTypedErrorAndConnectionSurvives) {
  Client c(server_->port());
  ASSERT_TRUE(c.hello().has_welcome());
  c.send_raw(std::string("\xff\xff\xff\xff\x0f garbage", 13), true);
  auto reply = c.receive();
  ASSERT_TRUE(reply && reply->has_error());
  EXPECT_EQ(reply->error().code(), v1::ERROR_CODE_MALFORMED_FRAME);
  v1::Envelope e;
  e.mutable_list_scenarios();
  EXPECT_TRUE(c.call(e).has_scenario_list());
}

TEST_F(ProtocolTest, MalformedJsonFrameGetsTypedError) {
  Client c(server_->port(), Client::Mode::kJson);
  ASSERT_TRUE(c.hello().has_welcome());
  c.send_raw("{\"correlationId\": \"7\", \"hello\": ", false);
  auto reply = c.receive();
  ASSERT_TRUE(reply && reply->has_error());
  EXPECT_EQ(reply->error().code(), v1::ERROR_CODE_MALFORMED_FRAME);
  EXPECT_FALSE(c.last_was_binary());  // answered in the client's encoding
}

TEST_F(ProtocolTest, UnknownBinaryMessageKeepsItsCorrelationId) {
  Client c(server_->port());
  ASSERT_TRUE(c.hello().has_welcome());
  // correlation_id = 42, then field 999 (length-delimited, empty): a message
  // from a newer protocol this server does not know.
  std::string frame;
  frame += static_cast<char>(0x08);
  frame += static_cast<char>(42);
  frame += "\xba\x3e";  // tag (999 << 3) | 2 as a varint
  frame += static_cast<char>(0);
  c.send_raw(frame, true);
  auto reply = c.receive();
  ASSERT_TRUE(reply && reply->has_error());
  EXPECT_EQ(reply->error().code(), v1::ERROR_CODE_UNKNOWN_MESSAGE);
  EXPECT_EQ(reply->correlation_id(), 42u);
}

TEST_F(ProtocolTest, UnknownJsonMessageIsNamed) {
  Client c(server_->port(), Client::Mode::kJson);
  ASSERT_TRUE(c.hello().has_welcome());
  c.send_raw(R"({"correlationId": "9", "launchRockets": {}})", false);
  auto reply = c.receive();
  ASSERT_TRUE(reply && reply->has_error());
  EXPECT_EQ(reply->error().code(), v1::ERROR_CODE_UNKNOWN_MESSAGE);
  EXPECT_EQ(reply->correlation_id(), 9u);
  EXPECT_NE(reply->error().message().find("launchRockets"), std::string::npos) << reply->error().message();
}

TEST_F(ProtocolTest, ServerOnlyMessageFromClientIsRefused) {
  Client c(server_->port());
  ASSERT_TRUE(c.hello().has_welcome());
  v1::Envelope e;
  e.mutable_welcome();
  auto reply = c.call(e);
  ASSERT_TRUE(reply.has_error());
  EXPECT_EQ(reply.error().code(), v1::ERROR_CODE_UNKNOWN_MESSAGE);
}

TEST_F(ProtocolTest, OversizedFrameClosesWith1009AndOthersCarryOn) {
  Client other(server_->port());
  ASSERT_TRUE(other.hello().has_welcome());

  Client big(server_->port());
  ASSERT_TRUE(big.hello().has_welcome());
  big.send_raw(std::string(5000, 'x'), true);  // --read-message-max 4096
  EXPECT_FALSE(big.receive().has_value());
  EXPECT_EQ(big.close_reason().code, websocket::close_code::too_big);

  v1::Envelope e;
  e.mutable_list_scenarios();
  EXPECT_TRUE(other.call(e).has_scenario_list());
  Client fresh(server_->port());
  EXPECT_TRUE(fresh.hello().has_welcome());
}

TEST_F(ProtocolTest, ForeignOriginIsRefusedOwnOriginAccepted) {
  Client evil(server_->port(), Client::Mode::kBinary, "http://evil.example");
  EXPECT_FALSE(evil.connected());
  EXPECT_EQ(evil.handshake_response().result_int(), 403u);
  EXPECT_NE(evil.handshake_response().body().find("ORIGIN_NOT_ALLOWED"), std::string::npos);

  Client own(server_->port(), Client::Mode::kBinary, "http://127.0.0.1:" + std::to_string(server_->port()));
  ASSERT_TRUE(own.connected());
  EXPECT_TRUE(own.hello().has_welcome());
}

// A connection may be opened for one game (/ws/games/{id}) so a proxy can
// route every connection of a game to the node that holds it: it plays that
// game, may use the lobby, and is refused in any other game. Any other path
// under /ws is not found.
TEST_F(ProtocolTest, AConnectionForOneGameActsOnlyInThatGame) {
  const auto game = create_demo_game(server_->port());
  const auto other = create_demo_game(server_->port());
  Client c(server_->port(), Client::Mode::kBinary, {}, "/ws/games/" + game.id);
  ASSERT_TRUE(c.connected()) << c.handshake_error().message();
  ASSERT_TRUE(c.hello().has_welcome());
  EXPECT_TRUE(join_game(c, game.id, game.tokens.at("umpire")).has_joined());
  v1::Envelope list;
  list.mutable_list_games();
  EXPECT_TRUE(c.call(list).has_game_list());
  v1::Envelope elsewhere;
  elsewhere.mutable_join_game()->set_game_id(other.id);
  elsewhere.mutable_join_game()->set_token(other.tokens.at("umpire"));
  auto refused = c.call(elsewhere);
  ASSERT_TRUE(refused.has_error());
  EXPECT_EQ(refused.error().code(), v1::ERROR_CODE_INVALID_ARGUMENT);
  EXPECT_NE(refused.error().message().find("/ws/games/" + other.id), std::string::npos) << refused.error().message();

  const std::vector<std::string> hostile = {"/ws/games/", "/ws/games/../x", "/ws/games/a%2Fb", "/ws/gamesx",
                                            "/ws/games/" + std::string(65, 'a'), "/wss"};
  for (const auto& path : hostile) {
    Client bad(server_->port(), Client::Mode::kBinary, {}, path);
    EXPECT_FALSE(bad.connected()) << path;
    EXPECT_EQ(bad.handshake_response().result_int(), 404u) << path;
  }
}

TEST(ProtocolLimits, ConnectionsPerAddressAreCapped) {
  auto dir = make_temp_dir("perip");
  ServerProcess server(dir, {"--max-connections-per-ip", "2"});
  server.start();
  Client a(server.port());
  Client b(server.port());
  ASSERT_TRUE(a.connected());
  ASSERT_TRUE(b.connected());
  // Over the cap: the handshake is taken (a browser cannot read an HTTP
  // refusal of it) and the connection closed at once, saying why.
  Client c(server.port());
  ASSERT_TRUE(c.connected());
  EXPECT_FALSE(c.receive());
  EXPECT_EQ(c.close_reason().code, websocket::close_code::try_again_later);
  const std::string why(c.close_reason().reason.data(), c.close_reason().reason.size());
  EXPECT_NE(why.find("too many connections from your address"), std::string::npos) << why;
  EXPECT_TRUE(a.hello().has_welcome());
  // A plain HTTP request over the cap gets 429 with the reason in JSON.
  auto plain = http_get(server.port(), "/healthz");
  EXPECT_EQ(plain.status, 429u);
  EXPECT_NE(plain.body.find("too many connections from your address"), std::string::npos) << plain.body;
  EXPECT_EQ(server.stop(SIGTERM), 0);
  std::filesystem::remove_all(dir);
}

TEST(ProtocolLimits, ExtraAllowedOriginIsAccepted) {
  auto dir = make_temp_dir("origin");
  ServerProcess server(dir, {"--allowed-origin", "https://play.example"});
  server.start();
  Client ok(server.port(), Client::Mode::kBinary, "https://play.example");
  EXPECT_TRUE(ok.connected());
  Client bad(server.port(), Client::Mode::kBinary, "https://other.example");
  EXPECT_FALSE(bad.connected());
  EXPECT_EQ(server.stop(SIGTERM), 0);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace galloper::testing

namespace galloper::testing {
namespace {

std::string metric_value(unsigned short port, const std::string& name) {
  const auto body = http_get(port, "/metrics").body;
  const auto at = body.find("\n" + name + " ");
  if (at == std::string::npos) return {};
  const auto start = at + name.size() + 2;
  return body.substr(start, body.find('\n', start) - start);
}

TEST(ProtocolLimits, AClientThatStopsReadingIsDroppedAndOthersCarryOn) {
  auto dir = make_temp_dir("slow");
  ServerProcess server(dir, {"--max-queued-messages", "8"});
  server.start();

  // A raw client with a tiny receive buffer that sends requests and never reads.
  net::io_context ioc;
  websocket::stream<tcp::socket> slow(ioc);
  slow.next_layer().open(tcp::v4());
  slow.next_layer().set_option(net::socket_base::receive_buffer_size(2048));
  slow.next_layer().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), server.port()));
  slow.handshake("127.0.0.1", "/ws");
  slow.binary(true);
  v1::Envelope hello;
  hello.mutable_hello()->mutable_protocol()->set_major(1);
  slow.write(net::buffer(hello.SerializeAsString()));
  v1::Envelope list;
  list.mutable_list_scenarios();
  const std::string frame = list.SerializeAsString();
  beast::error_code ec;
  for (int i = 0; i < 20000 && !ec; ++i) slow.write(net::buffer(frame), ec);

  // The server cut it off (the writes above eventually fail, or will).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  while (metric_value(server.port(), "galloper_slow_clients_dropped_total") != "1" &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(metric_value(server.port(), "galloper_slow_clients_dropped_total"), "1") << server.log();

  Client other(server.port());
  EXPECT_TRUE(other.hello().has_welcome());
  EXPECT_EQ(server.stop(SIGTERM), 0);
  std::filesystem::remove_all(dir);
}

TEST(ProtocolLimits, SilentClientIsDroppedAfterTheIdleTimeout) {
  auto dir = make_temp_dir("idle");
  ServerProcess server(dir, {"--idle-timeout", "2"});
  server.start();
  Client quiet(server.port());
  ASSERT_TRUE(quiet.hello().has_welcome());
  // Not reading means not answering the server's ping either.
  std::this_thread::sleep_for(std::chrono::milliseconds(3500));
  EXPECT_EQ(metric_value(server.port(), "galloper_connections"), "0");
  EXPECT_EQ(server.stop(SIGTERM), 0);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace galloper::testing
