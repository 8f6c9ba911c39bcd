#include "server/src/network/listener.hpp"

#include <boost/asio/strand.hpp>
#include <spdlog/spdlog.h>

#include "server/src/network/http_session.hpp"

namespace galloper::server {

Listener::Listener(net::io_context& ioc, tcp::endpoint endpoint, std::shared_ptr<SharedState> state,
                   boost::beast::error_code& ec)
    : ioc_(ioc), acceptor_(net::make_strand(ioc)), state_(std::move(state)) {
  acceptor_.open(endpoint.protocol(), ec);
  if (ec) return;
  acceptor_.set_option(net::socket_base::reuse_address(true), ec);
  if (ec) return;
  acceptor_.bind(endpoint, ec);
  if (ec) return;
  acceptor_.listen(net::socket_base::max_listen_connections, ec);
}

tcp::endpoint Listener::local_endpoint() const {
  boost::beast::error_code ec;
  return acceptor_.local_endpoint(ec);
}

void Listener::run() { do_accept(); }

void Listener::stop() {
  net::post(acceptor_.get_executor(), [self = shared_from_this()] {
    boost::beast::error_code ignored;
    self->acceptor_.close(ignored);
  });
}

void Listener::do_accept() {
  // Each connection gets its own strand.
  acceptor_.async_accept(net::make_strand(ioc_),
                         boost::beast::bind_front_handler(&Listener::on_accept, shared_from_this()));
}

void Listener::on_accept(boost::beast::error_code ec, tcp::socket socket) {
  if (ec == net::error::operation_aborted) return;  // stopped
  if (ec) {
    spdlog::warn("accept: {}", ec.message());
  } else {
    boost::beast::error_code ep_ec;
    const auto remote = socket.remote_endpoint(ep_ec);
    if (!ep_ec && state_->proxies().trusts(remote.address())) {
      // A trusted proxy: the limits count the client its requests name.
      std::make_shared<HttpSession>(std::move(socket), state_, HttpSession::Admission::kPerRequest)->run();
    } else {
      const std::string key = ep_ec ? std::string("unknown") : limit_key(remote.address());
      IpSlot slot;
      auto refusal = admit(state_, key, slot);
      std::make_shared<HttpSession>(std::move(socket), state_, key, std::move(slot), std::move(refusal))->run();
    }
  }
  if (acceptor_.is_open()) do_accept();
}

}  // namespace galloper::server
