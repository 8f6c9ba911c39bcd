#include "server/src/network/client_address.hpp"

#include <boost/asio/ip/address_v6.hpp>

#include <algorithm>

namespace galloper::server {

namespace ip = boost::asio::ip;

std::string limit_key(const ip::address& address) {
  if (address.is_v4()) return address.to_string();
  const auto v6 = address.to_v6();
  if (v6.is_v4_mapped()) return ip::make_address_v4(ip::v4_mapped, v6).to_string();
  auto bytes = v6.to_bytes();
  std::fill(bytes.begin() + 8, bytes.end(), 0);
  return ip::address_v6(bytes).to_string() + "/64";
}

std::variant<ProxyTrust, std::string> ProxyTrust::of(const std::vector<std::string>& cidrs) {
  auto ranges = parse_ranges(cidrs);
  if (auto* why = std::get_if<std::string>(&ranges)) return std::move(*why);
  ProxyTrust trust;
  trust.trusted_ = std::get<std::vector<AddressRange>>(std::move(ranges));
  return trust;
}

bool ProxyTrust::trusts(const ip::address& peer) const {
  return std::any_of(trusted_.begin(), trusted_.end(), [&](const AddressRange& r) { return r.contains(peer); });
}

namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// An X-Forwarded-For entry without its port or brackets.
std::string_view host_of(std::string_view entry) {
  if (entry.starts_with('[')) {
    const auto close = entry.find(']');
    return close == std::string_view::npos ? entry : entry.substr(1, close - 1);
  }
  const auto colon = entry.find(':');
  if (colon != std::string_view::npos && entry.find(':', colon + 1) == std::string_view::npos) {
    return entry.substr(0, colon);  // IPv4 with a port; IPv6 has two colons or more
  }
  return entry;
}

}  // namespace

ip::address ProxyTrust::client_of(const ip::address& peer, std::string_view forwarded_for) const {
  ip::address client = peer;
  while (trusts(client)) {
    if (forwarded_for.empty()) return client;
    const auto comma = forwarded_for.rfind(',');
    const auto entry = trimmed(comma == std::string_view::npos ? forwarded_for : forwarded_for.substr(comma + 1));
    forwarded_for = comma == std::string_view::npos ? std::string_view{} : forwarded_for.substr(0, comma);
    boost::system::error_code ec;
    const auto named = ip::make_address(std::string(host_of(entry)), ec);
    if (ec) return client;  // "unknown", a port, garbage: the last proxy is all that is known
    client = named;
  }
  return client;
}

}  // namespace galloper::server
