#include "server/src/notify/destination.hpp"

#include <array>
#include <charconv>
#include <cstdint>
#include <vector>

namespace galloper::server {

namespace ip = boost::asio::ip;

namespace {

using Bytes = ip::address_v6::bytes_type;

// Every address as IPv6 bytes: an IPv4 address as its v4-mapped form
// (::ffff:a.b.c.d), so one comparison serves both and a v4-mapped IPv6
// address is judged as the IPv4 address it is.
Bytes bytes_of(const ip::address& a) {
  if (a.is_v4()) return ip::make_address_v6(ip::v4_mapped, a.to_v4()).to_bytes();
  return a.to_v6().to_bytes();
}

using Range = DestinationPolicy::Range;

bool in_range(const Bytes& address, const Range& r) {
  for (unsigned bit = 0; bit < r.prefix; bit += 8) {
    const unsigned left = r.prefix - bit;
    const std::uint8_t mask = left >= 8 ? 0xff : static_cast<std::uint8_t>(0xff << (8 - left));
    if ((address[bit / 8] & mask) != (r.network[bit / 8] & mask)) return false;
  }
  return true;
}

struct Blocked {
  const char* network;
  unsigned prefix;  // of the address as written (IPv4 prefixes are for IPv4)
  const char* kind;
};

// Everything but public unicast (IANA's special-purpose registries).
constexpr std::array kBlocked = {
    Blocked{"0.0.0.0", 8, "an unspecified address"},
    Blocked{"10.0.0.0", 8, "a private address"},
    Blocked{"100.64.0.0", 10, "a shared (carrier-grade NAT) address"},
    Blocked{"127.0.0.0", 8, "a loopback address"},
    Blocked{"169.254.0.0", 16, "a link-local address (where cloud metadata services answer)"},
    Blocked{"172.16.0.0", 12, "a private address"},
    Blocked{"192.0.0.0", 24, "a reserved address"},
    Blocked{"192.0.2.0", 24, "a documentation address"},
    Blocked{"192.168.0.0", 16, "a private address"},
    Blocked{"198.18.0.0", 15, "a benchmarking address"},
    Blocked{"198.51.100.0", 24, "a documentation address"},
    Blocked{"203.0.113.0", 24, "a documentation address"},
    Blocked{"224.0.0.0", 4, "a multicast address"},
    Blocked{"240.0.0.0", 4, "a reserved address"},
    Blocked{"::", 128, "an unspecified address"},
    Blocked{"::1", 128, "a loopback address"},
    Blocked{"::", 96, "a reserved (IPv4-compatible) address"},
    Blocked{"64:ff9b::", 96, "a NAT64 address"},
    Blocked{"64:ff9b:1::", 48, "a NAT64 address"},
    Blocked{"100::", 64, "a discard address"},
    Blocked{"2001:db8::", 32, "a documentation address"},
    Blocked{"fc00::", 7, "a private (unique local) address"},
    Blocked{"fe80::", 10, "a link-local address"},
    Blocked{"fec0::", 10, "a site-local address"},
    Blocked{"ff00::", 8, "a multicast address"},
};

// A network and prefix as IPv6 bytes and an IPv6 prefix.
std::optional<Range> parse_range(std::string_view text, std::string* why) {
  const auto slash = text.find('/');
  const std::string address(text.substr(0, slash));
  boost::system::error_code ec;
  const auto a = ip::make_address(address, ec);
  if (ec) {
    if (why) *why = "\"" + std::string(text) + "\" is not an address or CIDR range (e.g. 10.0.0.0/8, fd00::/8)";
    return std::nullopt;
  }
  const unsigned width = a.is_v4() ? 32 : 128;
  unsigned prefix = width;
  if (slash != std::string_view::npos) {
    const auto digits = text.substr(slash + 1);
    const auto [end, err] = std::from_chars(digits.data(), digits.data() + digits.size(), prefix);
    if (err != std::errc{} || end != digits.data() + digits.size() || digits.empty() || prefix > width) {
      if (why) *why = "\"" + std::string(text) + "\": the prefix length must be 0 to " + std::to_string(width);
      return std::nullopt;
    }
  }
  return DestinationPolicy::Range{bytes_of(a), a.is_v4() ? prefix + 96 : prefix};
}

// kBlocked as ranges, parsed once.
struct BlockedRange {
  Range range;
  const char* kind;
};
const std::vector<BlockedRange>& blocked_ranges() {
  static const std::vector<BlockedRange> ranges = [] {
    std::vector<BlockedRange> out;
    for (const auto& b : kBlocked) {
      const auto range = parse_range(std::string(b.network) + "/" + std::to_string(b.prefix), nullptr);
      out.push_back({*range, b.kind});  // the table above is well formed (destination_test)
    }
    return out;
  }();
  return ranges;
}

}  // namespace

std::variant<DestinationPolicy, std::string> DestinationPolicy::allowing(const std::vector<std::string>& cidrs) {
  DestinationPolicy policy;
  for (const auto& c : cidrs) {
    std::string why;
    const auto range = parse_range(c, &why);
    if (!range) return why;
    policy.allowed_.push_back(*range);
  }
  return policy;
}

std::optional<std::string> DestinationPolicy::refuses(const ip::address& address) const {
  const Bytes b = bytes_of(address);
  for (const auto& r : allowed_) {
    if (in_range(b, r)) return std::nullopt;
  }
  for (const auto& blocked : blocked_ranges()) {
    if (in_range(b, blocked.range)) return blocked.kind;
  }
  return std::nullopt;
}

std::optional<std::string> DestinationPolicy::refuses_host(std::string_view host) const {
  std::string name(host);
  for (auto& c : name) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  while (!name.empty() && name.back() == '.') name.pop_back();
  if (name == "localhost" || (name.size() > 10 && name.ends_with(".localhost"))) {
    return refuses(ip::make_address("127.0.0.1"));
  }
  boost::system::error_code ec;
  const auto a = ip::make_address(name, ec);
  if (ec) return std::nullopt;
  return refuses(a);
}

}  // namespace galloper::server
