#pragma once
// Plain HTTP on the shared port: static files, /healthz, /metrics, and the
// WebSocket upgrade at /ws (with the Origin check).
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <memory>
#include <optional>

#include "server/src/network/shared_state.hpp"

namespace galloper::server {

namespace beast = boost::beast;
namespace http = beast::http;

class HttpSession : public std::enable_shared_from_this<HttpSession> {
 public:
  HttpSession(boost::asio::ip::tcp::socket&& socket, std::shared_ptr<SharedState> state, IpSlot slot,
              bool over_limit);

  void run();

 private:
  void do_read();
  void on_read(beast::error_code ec, std::size_t);
  void on_write(bool keep_alive, beast::error_code ec, std::size_t);
  void send(http::message_generator&& msg);
  void do_close();

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::shared_ptr<SharedState> state_;
  IpSlot slot_;
  bool over_limit_;
  std::string peer_;
  std::optional<http::request_parser<http::string_body>> parser_;
};

}  // namespace galloper::server
