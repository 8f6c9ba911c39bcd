#pragma once
// Where the server may post a webhook. A webhook URL is given by whoever
// creates a game or holds a seat, and the server posts to it from inside the
// operator's network: left open, that is a way to reach internal services and
// cloud metadata endpoints (server-side request forgery). So every address a
// destination resolves to is checked, and only public unicast addresses are
// posted to, unless the operator allows a range (`--webhook-allow CIDR`).
// The connection is then made to the addresses that were checked, never
// resolved again (no DNS rebinding).
#include <boost/asio/ip/address.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "server/src/network/address_range.hpp"

namespace galloper::server {

class DestinationPolicy {
 public:
  // The ranges an operator allows besides public addresses, as CIDR
  // ("127.0.0.0/8", "fd00::/8", or one address). A reason for the first one
  // that does not parse.
  static std::variant<DestinationPolicy, std::string> allowing(const std::vector<std::string>& cidrs);

  // Empty when the server may post to `address`; otherwise what kind of
  // address it is ("a loopback address"), for a message a person reads.
  std::optional<std::string> refuses(const boost::asio::ip::address& address) const;
  // The same for a URL's host when it is an IP literal ("127.0.0.1", "::1",
  // IPv6 without brackets) or "localhost"; a name is checked when resolved.
  std::optional<std::string> refuses_host(std::string_view host) const;

 private:
  std::vector<AddressRange> allowed_;
};

}  // namespace galloper::server
