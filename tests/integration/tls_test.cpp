// TLS on the server's own port: https:// and wss:// with a certificate made
// here, TLS 1.1 refused, a plain client told what to use, the certificate
// reloaded on SIGHUP, and bad certificate files refused at start.
#include <boost/asio/ssl.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "tests/integration/game_driver.hpp"
#include "tests/integration/harness.hpp"

namespace galloper::testing {
namespace {

namespace ssl = net::ssl;

// A self-signed certificate for 127.0.0.1 with common name `cn`, and its key.
void make_certificate(const std::filesystem::path& cert, const std::filesystem::path& key, const std::string& cn) {
  const auto r = run_command("/usr/bin/openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes "
                             "-days 2 -subj /CN=" + cn + " -addext subjectAltName=IP:127.0.0.1 -keyout " +
                             shell_quote(key.string()) + " -out " + shell_quote(cert.string()));
  ASSERT_EQ(r.status, 0) << r.out;
}

// A client context that trusts only `cert` and checks it names 127.0.0.1.
std::unique_ptr<ssl::context> trusting(const std::filesystem::path& cert) {
  auto ctx = std::make_unique<ssl::context>(ssl::context::tls_client);
  ctx->load_verify_file(cert.string());
  ctx->set_verify_mode(ssl::verify_peer);
  X509_VERIFY_PARAM_set1_ip_asc(SSL_CTX_get0_param(ctx->native_handle()), "127.0.0.1");
  return ctx;
}

std::string common_name(SSL* ssl) {
  X509* peer = SSL_get1_peer_certificate(ssl);
  if (peer == nullptr) return {};
  char cn[256] = {};
  X509_NAME_get_text_by_NID(X509_get_subject_name(peer), NID_commonName, cn, sizeof cn);
  X509_free(peer);
  return cn;
}

struct HttpsResult {
  beast::error_code ec;  // of the TLS handshake
  unsigned status = 0;
  std::string body;
  std::string cn;  // the server certificate's common name
  std::string version;  // "TLSv1.3" ...
};

HttpsResult https_get(unsigned short port, ssl::context& ctx, const std::string& target) {
  HttpsResult out;
  net::io_context ioc;
  beast::ssl_stream<beast::tcp_stream> stream(ioc, ctx);
  beast::get_lowest_layer(stream).expires_after(std::chrono::seconds(10));
  beast::get_lowest_layer(stream).connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  stream.handshake(ssl::stream_base::client, out.ec);
  if (out.ec) return out;
  out.cn = common_name(stream.native_handle());
  out.version = SSL_get_version(stream.native_handle());
  http::request<http::empty_body> req{http::verb::get, target, 11};
  req.set(http::field::host, "127.0.0.1:" + std::to_string(port));
  http::write(stream, req);
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  http::read(stream, buffer, res);
  out.status = res.result_int();
  out.body = res.body();
  return out;
}

// Waits until `pred` holds (checked every 50 ms) or 10 seconds pass.
template <class Pred>
bool eventually(Pred pred) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < deadline) {
    if (pred()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

std::string metric(unsigned short port, ssl::context& ctx, const std::string& name) {
  const auto r = https_get(port, ctx, "/metrics");
  const auto at = r.body.find("\n" + name + " ");
  if (at == std::string::npos) return "absent";
  const auto start = at + name.size() + 2;
  return r.body.substr(start, r.body.find('\n', start) - start);
}

class TlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = make_temp_dir("tls");
    cert_ = dir_ / "cert.pem";
    key_ = dir_ / "key.pem";
    make_certificate(cert_, key_, "galloper-first");
    std::filesystem::create_directories(dir_ / "data");
  }
  void TearDown() override {
    if (server_) {
      EXPECT_EQ(server_->stop(SIGTERM), 0);
    }
    std::filesystem::remove_all(dir_);
  }
  void start() {
    server_.emplace(dir_ / "data", std::vector<std::string>{"--tls-cert", cert_.string(), "--tls-key", key_.string()});
    server_->start();
  }
  std::filesystem::path dir_, cert_, key_;
  std::optional<ServerProcess> server_;
};

TEST_F(TlsTest, HttpsAnswersWithTheCertificateGivenAndTls12OrLater) {
  start();
  auto ctx = trusting(cert_);
  const auto r = https_get(server_->port(), *ctx, "/healthz");
  ASSERT_FALSE(r.ec) << r.ec.message();
  EXPECT_EQ(r.status, 200u);
  EXPECT_EQ(r.body, "ok\n");
  EXPECT_EQ(r.cn, "galloper-first");
  EXPECT_TRUE(r.version == "TLSv1.3" || r.version == "TLSv1.2") << r.version;
  EXPECT_NE(server_->log().find("listening on https://"), std::string::npos);
}

TEST_F(TlsTest, WssCarriesTheProtocol) {
  start();
  auto ctx = trusting(cert_);
  net::io_context ioc;
  websocket::stream<beast::ssl_stream<tcp::socket>> ws(ioc, *ctx);
  beast::get_lowest_layer(ws).connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), server_->port()));
  set_receive_timeout(beast::get_lowest_layer(ws), 10);
  ws.next_layer().handshake(ssl::stream_base::client);
  // A browser on the https:// page sends its own origin.
  const std::string host = "127.0.0.1:" + std::to_string(server_->port());
  ws.set_option(websocket::stream_base::decorator(
      [&](websocket::request_type& req) { req.set(http::field::origin, "https://" + host); }));
  ws.handshake(host, "/ws");
  ws.binary(true);
  auto exchange = [&](const v1::Envelope& request) {
    std::string out;
    request.SerializeToString(&out);
    ws.write(net::buffer(out));
    beast::flat_buffer buffer;
    ws.read(buffer);
    v1::Envelope reply;
    EXPECT_TRUE(reply.ParseFromString(beast::buffers_to_string(buffer.data())));
    return reply;
  };
  v1::Envelope hello;
  hello.set_correlation_id(1);
  hello.mutable_hello()->mutable_protocol()->set_major(1);
  hello.mutable_hello()->set_client_name("tls-test");
  EXPECT_TRUE(exchange(hello).has_welcome());
  v1::Envelope list;
  list.set_correlation_id(2);
  list.mutable_list_games();
  const auto games = exchange(list);
  EXPECT_TRUE(games.has_game_list()) << games.DebugString();
  EXPECT_EQ(games.correlation_id(), 2u);
  ws.close(websocket::close_code::normal);
}

TEST_F(TlsTest, Tls11IsRefusedInTheHandshake) {
  start();
  auto ctx = trusting(cert_);
  // A client that offers TLS 1.0-1.1 only (its own floor lowered to be able to).
  SSL_CTX_set_security_level(ctx->native_handle(), 0);
  SSL_CTX_set_min_proto_version(ctx->native_handle(), TLS1_VERSION);
  SSL_CTX_set_max_proto_version(ctx->native_handle(), TLS1_1_VERSION);
  SSL_CTX_set_cipher_list(ctx->native_handle(), "DEFAULT:@SECLEVEL=0");
  const auto r = https_get(server_->port(), *ctx, "/healthz");
  EXPECT_TRUE(r.ec) << "a TLS 1.1 handshake succeeded";
  EXPECT_EQ(r.status, 0u);
  // The server saw the handshake and refused it (not the client giving up alone).
  auto good = trusting(cert_);
  EXPECT_TRUE(eventually([&] { return metric(server_->port(), *good, "galloper_tls_handshakes_failed_total") == "1"; }));
}

TEST_F(TlsTest, PlainHttpOnTheTlsPortIsToldToUseHttps) {
  start();
  const auto r = http_get(server_->port(), "/healthz");
  EXPECT_EQ(r.status, 400u);
  EXPECT_NE(r.body.find("TLS_REQUIRED"), std::string::npos) << r.body;
  EXPECT_NE(r.body.find("https://"), std::string::npos) << r.body;
  // A plain WebSocket handshake gets the same answer instead of an upgrade.
  Client plain(server_->port());
  EXPECT_FALSE(plain.connected());
  EXPECT_EQ(plain.handshake_response().result_int(), 400u);
  auto ctx = trusting(cert_);
  EXPECT_EQ(metric(server_->port(), *ctx, "galloper_tls_plain_refused_total"), "2");
  // The server carries on for TLS clients.
  EXPECT_EQ(https_get(server_->port(), *ctx, "/healthz").status, 200u);
}

TEST_F(TlsTest, SighupReloadsTheCertificateForNewConnectionsAndKeepsItOnABadFile) {
  start();
  // The renewed pair is written beside the old and moved over it, as a
  // certificate manager does.
  make_certificate(dir_ / "new-cert.pem", dir_ / "new-key.pem", "galloper-renewed");
  std::filesystem::rename(dir_ / "new-key.pem", key_);
  std::filesystem::rename(dir_ / "new-cert.pem", cert_);
  ASSERT_EQ(::kill(server_->pid(), SIGHUP), 0);
  auto renewed = trusting(cert_);
  EXPECT_TRUE(eventually([&] { return https_get(server_->port(), *renewed, "/healthz").cn == "galloper-renewed"; }));
  EXPECT_TRUE(eventually([&] { return server_->log().find("SIGHUP: TLS certificate reloaded") != std::string::npos; }));

  // A broken file: the server says why and keeps serving the renewed one.
  std::ofstream(cert_) << "not a certificate\n";
  ASSERT_EQ(::kill(server_->pid(), SIGHUP), 0);
  EXPECT_TRUE(eventually([&] { return server_->log().find("SIGHUP: kept the certificate in use") != std::string::npos; }));
  const auto r = https_get(server_->port(), *renewed, "/healthz");
  ASSERT_FALSE(r.ec) << r.ec.message();
  EXPECT_EQ(r.cn, "galloper-renewed");
  EXPECT_EQ(r.status, 200u);
}

// `galloper serve` with these arguments: its exit code and output.
CommandResult serve_with(const std::filesystem::path& data, const std::string& args) {
  return galloper("serve --listen 127.0.0.1:0 --data " + shell_quote(data.string()) + " " + args, 20);
}

TEST_F(TlsTest, BadCertificateFilesStopTheServerBeforeTheStoreOpens) {
  const auto data = dir_ / "refused";
  make_certificate(dir_ / "other-cert.pem", dir_ / "other-key.pem", "someone-else");
  std::ofstream(dir_ / "junk.pem") << "-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n";
  struct Case {
    std::string args;
    std::string says;
  };
  const std::vector<Case> cases = {
      {"--tls-cert " + cert_.string(), "--tls-key"},  // one without the other
      {"--tls-key " + key_.string(), "--tls-cert"},
      {"--tls-cert " + (dir_ / "missing.pem").string() + " --tls-key " + key_.string(), "no such file"},
      {"--tls-cert " + (dir_ / "junk.pem").string() + " --tls-key " + key_.string(), "not a PEM certificate"},
      {"--tls-cert " + cert_.string() + " --tls-key " + cert_.string(), "not a PEM private key"},
      {"--tls-cert " + cert_.string() + " --tls-key " + (dir_ / "other-key.pem").string(), "does not belong"},
  };
  for (const auto& c : cases) {
    const auto r = serve_with(data, c.args);
    EXPECT_NE(r.status, 0) << c.args;
    EXPECT_NE(r.out.find(c.says), std::string::npos) << c.args << "\n" << r.out;
    EXPECT_FALSE(std::filesystem::exists(data / "galloper.db")) << c.args;
  }
}

}  // namespace
}  // namespace galloper::testing
