// Which addresses the server posts webhooks to (server/src/notify/destination.hpp).
#include "server/src/notify/destination.hpp"

#include <gtest/gtest.h>

namespace galloper::server {
namespace {

namespace ip = boost::asio::ip;

DestinationPolicy policy(const std::vector<std::string>& allowed = {}) {
  auto p = DestinationPolicy::allowing(allowed);
  EXPECT_TRUE(std::holds_alternative<DestinationPolicy>(p)) << std::get<std::string>(p);
  return std::get<DestinationPolicy>(p);
}

std::string kind(const DestinationPolicy& p, const char* address) {
  return p.refuses(ip::make_address(address)).value_or("allowed");
}

TEST(Destinations, OnlyPublicUnicastAddressesByDefault) {
  const auto p = policy();
  EXPECT_EQ(kind(p, "93.184.216.34"), "allowed");
  EXPECT_EQ(kind(p, "2606:2800:220:1:248:1893:25c8:1946"), "allowed");
  EXPECT_EQ(kind(p, "8.8.8.8"), "allowed");
  EXPECT_EQ(kind(p, "127.0.0.1"), "a loopback address");
  EXPECT_EQ(kind(p, "127.255.1.2"), "a loopback address");
  EXPECT_EQ(kind(p, "::1"), "a loopback address");
  EXPECT_EQ(kind(p, "::ffff:127.0.0.1"), "a loopback address") << "an IPv4 address written as IPv6 is that address";
  EXPECT_EQ(kind(p, "0.0.0.0"), "an unspecified address");
  EXPECT_EQ(kind(p, "::"), "an unspecified address");
  EXPECT_EQ(kind(p, "10.1.2.3"), "a private address");
  EXPECT_EQ(kind(p, "172.16.0.1"), "a private address");
  EXPECT_EQ(kind(p, "172.31.255.255"), "a private address");
  EXPECT_EQ(kind(p, "172.32.0.1"), "allowed");
  EXPECT_EQ(kind(p, "192.168.1.1"), "a private address");
  EXPECT_EQ(kind(p, "::ffff:10.0.0.1"), "a private address");
  EXPECT_EQ(kind(p, "100.64.0.1"), "a shared (carrier-grade NAT) address");
  EXPECT_EQ(kind(p, "169.254.169.254"), "a link-local address (where cloud metadata services answer)");
  EXPECT_EQ(kind(p, "fd00:ec2::254"), "a private (unique local) address") << "AWS's IPv6 metadata address";
  EXPECT_EQ(kind(p, "fe80::1"), "a link-local address");
  EXPECT_EQ(kind(p, "224.0.0.1"), "a multicast address");
  EXPECT_EQ(kind(p, "ff02::1"), "a multicast address");
  EXPECT_EQ(kind(p, "255.255.255.255"), "a reserved address");
  EXPECT_EQ(kind(p, "64:ff9b::a00:1"), "a NAT64 address");
  EXPECT_EQ(kind(p, "192.0.2.7"), "a documentation address");
  EXPECT_EQ(kind(p, "2001:db8::1"), "a documentation address");
}

TEST(Destinations, AnOperatorMayAllowRanges) {
  const auto p = policy({"127.0.0.0/8", "10.20.0.0/16", "fd12:3456::/32", "169.254.169.254"});
  EXPECT_EQ(kind(p, "127.0.0.1"), "allowed");
  EXPECT_EQ(kind(p, "::ffff:127.0.0.1"), "allowed");
  EXPECT_EQ(kind(p, "10.20.30.40"), "allowed");
  EXPECT_EQ(kind(p, "10.21.0.1"), "a private address");
  EXPECT_EQ(kind(p, "fd12:3456::1"), "allowed");
  EXPECT_EQ(kind(p, "fd12:3457::1"), "a private (unique local) address");
  EXPECT_EQ(kind(p, "169.254.169.254"), "allowed") << "one address alone";
  EXPECT_EQ(kind(p, "169.254.169.253"), "a link-local address (where cloud metadata services answer)");
  EXPECT_EQ(kind(p, "::1"), "a loopback address") << "IPv4 loopback allowed is not IPv6 loopback";
}

TEST(Destinations, RangesThatDoNotParseSayWhy) {
  for (const char* bad : {"10.0.0.0/33", "fd00::/129", "localhost", "10.0.0.0/", "10.0.0.0/8x", "10.0.0/8", ""}) {
    const auto p = DestinationPolicy::allowing({bad});
    ASSERT_TRUE(std::holds_alternative<std::string>(p)) << bad;
    EXPECT_NE(std::get<std::string>(p).find(bad), std::string::npos) << std::get<std::string>(p);
  }
}

TEST(Destinations, HostsThatAreAddressesOrLocalhostAreCheckedAsGiven) {
  const auto p = policy();
  EXPECT_EQ(p.refuses_host("localhost").value_or("allowed"), "a loopback address");
  EXPECT_EQ(p.refuses_host("LOCALHOST.").value_or("allowed"), "a loopback address");
  EXPECT_EQ(p.refuses_host("api.localhost").value_or("allowed"), "a loopback address");
  EXPECT_EQ(p.refuses_host("169.254.169.254").value_or("allowed"), "a link-local address (where cloud metadata services answer)");
  EXPECT_EQ(p.refuses_host("::1").value_or("allowed"), "a loopback address");
  // Names are checked where they are resolved, each time.
  EXPECT_EQ(p.refuses_host("discord.com").value_or("allowed"), "allowed");
  EXPECT_EQ(p.refuses_host("2130706433").value_or("allowed"), "allowed") << "not an address literal; resolved later";
}

}  // namespace
}  // namespace galloper::server
