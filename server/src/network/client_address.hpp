#pragma once
// Who a connection is for the limits per address (docs/SECURITY.md,
// "Abuse limits"): the peer's address, or, when the peer is a proxy the
// operator trusts (--trust-proxy CIDR), the client its X-Forwarded-For
// names. IPv6 clients are counted by their /64, the block one subscriber
// usually holds, so walking through 2^64 addresses buys no fresh budget.
#include <boost/asio/ip/address.hpp>

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "server/src/network/address_range.hpp"

namespace galloper::server {

// The key the limits count `address` under: an IPv4 address (or a
// v4-mapped IPv6 one) as itself, "a.b.c.d"; IPv6 as its /64,
// "2001:db8:1:2::/64".
std::string limit_key(const boost::asio::ip::address& address);

class ProxyTrust {
 public:
  // The ranges of --trust-proxy, or the reason the first is not a range.
  static std::variant<ProxyTrust, std::string> of(const std::vector<std::string>& cidrs);

  bool trusts(const boost::asio::ip::address& peer) const;

  // The client a request came from. A peer not trusted is the client
  // itself, whatever it says. From a trusted peer the X-Forwarded-For list
  // is read from the right, skipping trusted proxies: the first address
  // left is the one the nearest trusted proxy saw (a client can prepend
  // anything, but not what the proxy appends). A list that ends, or an
  // entry that is not an address, before an untrusted address leaves the
  // last trusted address reached. Entries may carry a port ("1.2.3.4:5",
  // "[2001:db8::1]:5").
  boost::asio::ip::address client_of(const boost::asio::ip::address& peer, std::string_view forwarded_for) const;

 private:
  std::vector<AddressRange> trusted_;
};

}  // namespace galloper::server
