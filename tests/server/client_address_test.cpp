// Who the limits per address count (server/src/network/client_address.hpp):
// IPv6 by its /64, and the client a trusted proxy names, never one a client
// names for itself.
#include "server/src/network/client_address.hpp"

#include <gtest/gtest.h>

namespace galloper::server {
namespace {

namespace ip = boost::asio::ip;

std::string key(const char* address) { return limit_key(ip::make_address(address)); }

ProxyTrust trusting(const std::vector<std::string>& cidrs) {
  auto t = ProxyTrust::of(cidrs);
  EXPECT_TRUE(std::holds_alternative<ProxyTrust>(t)) << std::get<std::string>(t);
  return std::get<ProxyTrust>(t);
}

std::string client(const ProxyTrust& trust, const char* peer, std::string_view forwarded_for) {
  return trust.client_of(ip::make_address(peer), forwarded_for).to_string();
}

TEST(LimitKeys, IPv4IsItselfAndIPv6IsItsSlash64) {
  EXPECT_EQ(key("203.0.113.7"), "203.0.113.7");
  EXPECT_EQ(key("::ffff:203.0.113.7"), "203.0.113.7") << "an IPv4 client on a dual-stack socket is that client";
  EXPECT_EQ(key("2001:db8:1:2::1"), "2001:db8:1:2::/64");
  EXPECT_EQ(key("2001:db8:1:2:ffff:ffff:ffff:ffff"), "2001:db8:1:2::/64") << "the same subscriber's block";
  EXPECT_EQ(key("2001:db8:1:3::1"), "2001:db8:1:3::/64") << "the next block is someone else";
  EXPECT_EQ(key("::1"), "::/64");
}

TEST(ProxyTrust, APeerNotTrustedIsTheClientWhateverItSays) {
  const auto none = trusting({});
  EXPECT_EQ(client(none, "127.0.0.1", "198.51.100.7"), "127.0.0.1");
  const auto proxy = trusting({"10.0.0.0/8"});
  EXPECT_EQ(client(proxy, "192.0.2.1", "198.51.100.7"), "192.0.2.1");
}

TEST(ProxyTrust, ATrustedProxyNamesTheClientItSaw) {
  const auto proxy = trusting({"127.0.0.1"});
  EXPECT_EQ(client(proxy, "127.0.0.1", "198.51.100.7"), "198.51.100.7");
  EXPECT_EQ(client(proxy, "127.0.0.1", " 198.51.100.7 "), "198.51.100.7");
  EXPECT_EQ(client(proxy, "::ffff:127.0.0.1", "198.51.100.7"), "198.51.100.7") << "the proxy over a dual-stack socket";
  EXPECT_EQ(client(proxy, "127.0.0.1", "2001:db8::5"), "2001:db8::5");
  EXPECT_EQ(client(proxy, "127.0.0.1", "198.51.100.7:4711"), "198.51.100.7") << "with a port";
  EXPECT_EQ(client(proxy, "127.0.0.1", "[2001:db8::5]:80"), "2001:db8::5") << "bracketed, with a port";
  EXPECT_EQ(client(proxy, "127.0.0.1", ""), "127.0.0.1") << "no header: the proxy itself";
}

TEST(ProxyTrust, WhatAClientPrependsIsNotBelieved) {
  // The client sent "X-Forwarded-For: 1.1.1.1"; the proxy appended what it saw.
  const auto proxy = trusting({"127.0.0.1"});
  EXPECT_EQ(client(proxy, "127.0.0.1", "1.1.1.1, 198.51.100.7"), "198.51.100.7");
  EXPECT_EQ(client(proxy, "127.0.0.1", "1.1.1.1,198.51.100.7"), "198.51.100.7");
}

TEST(ProxyTrust, AChainOfTrustedProxiesIsWalkedFromTheRight) {
  const auto proxies = trusting({"127.0.0.1", "10.0.0.0/8"});
  EXPECT_EQ(client(proxies, "127.0.0.1", "198.51.100.7, 10.0.0.3"), "198.51.100.7");
  EXPECT_EQ(client(proxies, "127.0.0.1", "10.0.0.9, 10.0.0.3"), "10.0.0.9") << "the list ends at a trusted proxy";
  EXPECT_EQ(client(proxies, "127.0.0.1", "198.51.100.7, unknown, 10.0.0.3"), "10.0.0.3")
      << "an entry that is not an address stops the walk at the last proxy reached";
  EXPECT_EQ(client(proxies, "127.0.0.1", "garbage"), "127.0.0.1");
}

TEST(ProxyTrust, ABadRangeIsRefusedWithTheReason) {
  auto bad = ProxyTrust::of({"127.0.0.1", "10.0.0.0/40"});
  ASSERT_TRUE(std::holds_alternative<std::string>(bad));
  EXPECT_EQ(std::get<std::string>(bad), "\"10.0.0.0/40\": the prefix length must be 0 to 32");
  bad = ProxyTrust::of({"proxy.example"});
  ASSERT_TRUE(std::holds_alternative<std::string>(bad));
  EXPECT_NE(std::get<std::string>(bad).find("is not an address or CIDR range"), std::string::npos);
}

}  // namespace
}  // namespace galloper::server
