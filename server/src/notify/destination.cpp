#include "server/src/notify/destination.hpp"

#include <array>
#include <vector>

namespace galloper::server {

namespace ip = boost::asio::ip;

namespace {

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

// kBlocked as ranges, parsed once.
struct BlockedRange {
  AddressRange range;
  const char* kind;
};
const std::vector<BlockedRange>& blocked_ranges() {
  static const std::vector<BlockedRange> ranges = [] {
    std::vector<BlockedRange> out;
    for (const auto& b : kBlocked) {
      const auto range = AddressRange::parse(std::string(b.network) + "/" + std::to_string(b.prefix));
      out.push_back({std::get<AddressRange>(range), b.kind});  // the table above is well formed (destination_test)
    }
    return out;
  }();
  return ranges;
}

}  // namespace

std::variant<DestinationPolicy, std::string> DestinationPolicy::allowing(const std::vector<std::string>& cidrs) {
  auto ranges = parse_ranges(cidrs);
  if (auto* why = std::get_if<std::string>(&ranges)) return std::move(*why);
  DestinationPolicy policy;
  policy.allowed_ = std::get<std::vector<AddressRange>>(std::move(ranges));
  return policy;
}

std::optional<std::string> DestinationPolicy::refuses(const ip::address& address) const {
  const AddressBytes b = address_bytes(address);
  for (const auto& r : allowed_) {
    if (r.contains(b)) return std::nullopt;
  }
  for (const auto& blocked : blocked_ranges()) {
    if (blocked.range.contains(b)) return blocked.kind;
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
