#pragma once
// HTTP on the shared port: static files, /healthz, /metrics, and the
// WebSocket upgrade at /ws (with the Origin check). With --tls-cert the port
// speaks TLS: the first bytes tell a TLS client from a plain one
// (async_detect_ssl); a plain request is answered 400 with what to use.
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "server/src/network/shared_state.hpp"

namespace galloper::server {

namespace beast = boost::beast;
namespace http = beast::http;

using PlainHttpStream = beast::tcp_stream;
using TlsHttpStream = beast::ssl_stream<beast::tcp_stream>;

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  // A client connected directly: `client` is its limit key; `refusal` empty
  // to serve, otherwise the connection is over a per-address limit and is
  // answered 429 (HTTP) or closed with 1013 (WebSocket) saying so.
  HttpSession(boost::asio::ip::tcp::socket&& socket, std::shared_ptr<SharedState> state, std::string client,
              IpSlot slot, std::string refusal);
  // A trusted proxy (--trust-proxy): each request is admitted for the client
  // its X-Forwarded-For names.
  enum class Admission { kPerRequest };
  HttpSession(boost::asio::ip::tcp::socket&& socket, std::shared_ptr<SharedState> state, Admission);

  void run();

 private:
  void start();
  void on_detect(beast::error_code ec, bool tls);
  void on_handshake(beast::error_code ec, std::size_t used);
  void do_read();
  void on_read(beast::error_code ec, std::size_t);
  void on_write(bool keep_alive, beast::error_code ec, std::size_t);
  void send(http::message_generator&& msg);
  void do_close();
  void admit_forwarded(const http::request<http::string_body>& req);
  beast::tcp_stream& tcp();

  // The stream is a variant, not a template parameter: whether a connection
  // is TLS is known only after its first bytes, and one class with one .cpp
  // keeps every handler out of headers (Beast's flex example needs CRTP and
  // two session classes per protocol for the same choice). The context comes
  // first so it outlives the stream that uses it.
  std::shared_ptr<boost::asio::ssl::context> tls_context_;
  std::variant<PlainHttpStream, TlsHttpStream> stream_;
  beast::flat_buffer buffer_;
  std::shared_ptr<SharedState> state_;
  std::string client_;  // the limit key
  IpSlot slot_;
  std::string refusal_;
  bool per_request_ = false;
  bool plain_on_tls_port_ = false;
  std::string peer_;        // "address:port" of the TCP peer
  std::string described_;   // how the log names the connection: peer_, or the client via peer_
  std::optional<http::request_parser<http::string_body>> parser_;
};

}  // namespace galloper::server
