#pragma once
// A range of IP addresses written as CIDR ("10.0.0.0/8", "fd00::/8", or one
// address). IPv4 and IPv6 are held alike, as IPv6 bytes with IPv4 as its
// v4-mapped form (::ffff:a.b.c.d), so one comparison serves both and a
// v4-mapped IPv6 address is judged as the IPv4 address it is. Used for the
// webhook destinations an operator allows and the proxies it trusts.
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/address_v6.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace galloper::server {

using AddressBytes = boost::asio::ip::address_v6::bytes_type;

// `a` as IPv6 bytes, IPv4 as v4-mapped.
AddressBytes address_bytes(const boost::asio::ip::address& a);

struct AddressRange {
  AddressBytes network{};
  unsigned prefix = 0;  // of the IPv6 form (an IPv4 /8 is /104)

  // A reason a person can act on when `text` is not a range.
  static std::variant<AddressRange, std::string> parse(std::string_view text);
  bool contains(const AddressBytes& address) const;
  bool contains(const boost::asio::ip::address& address) const { return contains(address_bytes(address)); }
};

// Every range of a repeatable option, or the reason for the first that does
// not parse.
std::variant<std::vector<AddressRange>, std::string> parse_ranges(const std::vector<std::string>& texts);

}  // namespace galloper::server
