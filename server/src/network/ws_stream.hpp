#pragma once
// A WebSocket over plain TCP or over TLS, chosen per connection. A variant
// rather than a template parameter on WebSocketSession: the session's code
// stays in one .cpp and Room and Lobby keep seeing one Peer type; each call
// visits the variant, a branch that costs nothing next to a socket write.
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#include <boost/beast/websocket.hpp>
#include <boost/beast/websocket/ssl.hpp>
#include <memory>
#include <type_traits>
#include <utility>
#include <variant>

namespace galloper::server {

class WsStream {
 public:
  // Straight on the socket: the WebSocket layer keeps its own timeouts.
  using Plain = boost::beast::websocket::stream<boost::asio::ip::tcp::socket>;
  using Tls = boost::beast::websocket::stream<boost::beast::ssl_stream<boost::beast::tcp_stream>>;

  explicit WsStream(boost::asio::ip::tcp::socket&& socket) : stream_(std::in_place_type<Plain>, std::move(socket)) {}
  // The context stays alive as long as the connection that uses it.
  WsStream(boost::beast::ssl_stream<boost::beast::tcp_stream>&& tls,
           std::shared_ptr<boost::asio::ssl::context> context)
      : context_(std::move(context)), stream_(std::in_place_type<Tls>, std::move(tls)) {
    // The WebSocket's own timeouts apply; the TCP stream's timer must be off.
    boost::beast::get_lowest_layer(std::get<Tls>(stream_)).expires_never();
  }

  template <class F>
  decltype(auto) visit(F&& f) {
    return std::visit(std::forward<F>(f), stream_);
  }
  template <class F>
  decltype(auto) visit(F&& f) const {
    return std::visit(std::forward<F>(f), stream_);
  }

  // The executor of the connection's socket (its strand).
  boost::asio::any_io_executor socket_executor() {
    return visit([](auto& ws) { return boost::beast::get_lowest_layer(ws).get_executor(); });
  }
  // Closes the TCP connection at once, no closing handshake.
  void cut() {
    visit([](auto& ws) {
      auto& lowest = boost::beast::get_lowest_layer(ws);
      if constexpr (std::is_same_v<std::decay_t<decltype(lowest)>, boost::asio::ip::tcp::socket>) {
        boost::system::error_code ignored;
        lowest.close(ignored);
      } else {
        lowest.close();
      }
    });
  }

 private:
  std::shared_ptr<boost::asio::ssl::context> context_;
  std::variant<Plain, Tls> stream_;
};

}  // namespace galloper::server
