// Plain HTTP on the shared port.
#include "tests/integration/harness.hpp"

namespace galloper::testing {
namespace {

class HttpTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = make_temp_dir("http");
    static_dir_ = dir_ / "static";
    std::filesystem::create_directories(static_dir_ / "assets");
    std::ofstream(static_dir_ / "index.html") << "<!doctype html><title>Galloper</title>";
    std::ofstream(static_dir_ / "assets" / "app.js") << "console.log('hi');";
    std::ofstream(dir_ / "secret.txt") << "not for the web";
    server_.emplace(dir_ / "data", std::vector<std::string>{"--static-dir", static_dir_.string()});
    std::filesystem::create_directories(dir_ / "data");
    server_->start();
  }
  void TearDown() override {
    EXPECT_EQ(server_->stop(SIGTERM), 0);
    std::filesystem::remove_all(dir_);
  }
  std::filesystem::path dir_, static_dir_;
  std::optional<ServerProcess> server_;
};

TEST_F(HttpTest, HealthzIsOk) {
  auto r = http_get(server_->port(), "/healthz");
  EXPECT_EQ(r.status, 200u);
  EXPECT_EQ(r.body, "ok\n");
}

TEST_F(HttpTest, MetricsInPrometheusFormatCountTraffic) {
  {
    Client c(server_->port());
    ASSERT_TRUE(c.hello().has_welcome());
    c.send_raw("junk", true);
    ASSERT_TRUE(c.receive().has_value());
  }
  auto r = http_get(server_->port(), "/metrics");
  EXPECT_EQ(r.status, 200u);
  EXPECT_NE(r.content_type.find("text/plain"), std::string::npos);
  EXPECT_NE(r.body.find("# TYPE galloper_connections gauge"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("galloper_messages_in_total 2"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("galloper_errors_total 1"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("galloper_games 0"), std::string::npos) << r.body;
}

TEST_F(HttpTest, ServesTheWebClient) {
  auto index = http_get(server_->port(), "/");
  EXPECT_EQ(index.status, 200u);
  EXPECT_NE(index.body.find("<title>Galloper</title>"), std::string::npos);
  EXPECT_EQ(index.content_type, "text/html; charset=utf-8");
  auto js = http_get(server_->port(), "/assets/app.js?v=1");
  EXPECT_EQ(js.status, 200u);
  EXPECT_EQ(js.content_type, "text/javascript; charset=utf-8");
}

TEST_F(HttpTest, NeverServesOutsideTheStaticDirectory) {
  EXPECT_EQ(http_get(server_->port(), "/../secret.txt").status, 404u);
  EXPECT_EQ(http_get(server_->port(), "/assets/../../secret.txt").status, 404u);
  EXPECT_EQ(http_get(server_->port(), "/nope.html").status, 404u);
}

TEST_F(HttpTest, WebSocketOnlyAtWs) {
  net::io_context ioc;
  websocket::stream<tcp::socket> ws(ioc);
  ws.next_layer().connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), server_->port()));
  websocket::response_type res;
  beast::error_code ec;
  ws.handshake(res, "127.0.0.1", "/elsewhere", ec);
  EXPECT_TRUE(ec);
  EXPECT_EQ(res.result_int(), 404u);
}

}  // namespace
}  // namespace galloper::testing
