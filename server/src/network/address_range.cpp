#include "server/src/network/address_range.hpp"

#include <charconv>
#include <cstdint>

namespace galloper::server {

namespace ip = boost::asio::ip;

AddressBytes address_bytes(const ip::address& a) {
  if (a.is_v4()) return ip::make_address_v6(ip::v4_mapped, a.to_v4()).to_bytes();
  return a.to_v6().to_bytes();
}

std::variant<AddressRange, std::string> AddressRange::parse(std::string_view text) {
  const auto slash = text.find('/');
  const std::string address(text.substr(0, slash));
  boost::system::error_code ec;
  const auto a = ip::make_address(address, ec);
  if (ec) return "\"" + std::string(text) + "\" is not an address or CIDR range (e.g. 10.0.0.0/8, fd00::/8)";
  const unsigned width = a.is_v4() ? 32 : 128;
  unsigned prefix = width;
  if (slash != std::string_view::npos) {
    const auto digits = text.substr(slash + 1);
    const auto [end, err] = std::from_chars(digits.data(), digits.data() + digits.size(), prefix);
    if (err != std::errc{} || end != digits.data() + digits.size() || digits.empty() || prefix > width) {
      return "\"" + std::string(text) + "\": the prefix length must be 0 to " + std::to_string(width);
    }
  }
  return AddressRange{address_bytes(a), a.is_v4() ? prefix + 96 : prefix};
}

bool AddressRange::contains(const AddressBytes& address) const {
  for (unsigned bit = 0; bit < prefix; bit += 8) {
    const unsigned left = prefix - bit;
    const std::uint8_t mask = left >= 8 ? 0xff : static_cast<std::uint8_t>(0xff << (8 - left));
    if ((address[bit / 8] & mask) != (network[bit / 8] & mask)) return false;
  }
  return true;
}

std::variant<std::vector<AddressRange>, std::string> parse_ranges(const std::vector<std::string>& texts) {
  std::vector<AddressRange> ranges;
  for (const auto& t : texts) {
    auto range = AddressRange::parse(t);
    if (auto* why = std::get_if<std::string>(&range)) return std::move(*why);
    ranges.push_back(std::get<AddressRange>(range));
  }
  return ranges;
}

}  // namespace galloper::server
