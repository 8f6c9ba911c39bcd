#pragma once
// Accepts TCP connections and hands each one, on its own strand, to an
// HttpSession. One port serves HTTP and the WebSocket upgrade.
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/error.hpp>
#include <memory>

#include "server/src/network/shared_state.hpp"

namespace galloper::server {

namespace net = boost::asio;
using tcp = net::ip::tcp;

class Listener : public std::enable_shared_from_this<Listener> {
 public:
  Listener(net::io_context& ioc, tcp::endpoint endpoint, std::shared_ptr<SharedState> state,
           boost::beast::error_code& ec);

  void run();
  void stop();
  tcp::endpoint local_endpoint() const;

 private:
  void do_accept();
  void on_accept(boost::beast::error_code ec, tcp::socket socket);

  net::io_context& ioc_;
  tcp::acceptor acceptor_;
  std::shared_ptr<SharedState> state_;
};

}  // namespace galloper::server
