#include "server/src/tokens.hpp"

#include <gtest/gtest.h>

#include <set>

namespace galloper::server {
namespace {

TEST(Tokens, Sha256KnownAnswer) {
  EXPECT_EQ(sha256_hex(std::string_view("abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex(std::string_view("")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Tokens, RandomHexHasTheLengthAndDoesNotRepeat) {
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    auto t = random_hex(32);
    EXPECT_EQ(t.size(), 64u);
    EXPECT_EQ(t.find_first_not_of("0123456789abcdef"), std::string::npos);
    seen.insert(t);
  }
  EXPECT_EQ(seen.size(), 1000u);
}

TEST(Tokens, CommitmentBindsSeedAndGame) {
  std::array<std::uint8_t, 32> seed{};
  seed[0] = 1;
  const auto a = seed_commitment(seed, "g1");
  EXPECT_EQ(a.size(), 64u);
  EXPECT_NE(a, seed_commitment(seed, "g2"));
  seed[31] = 7;
  EXPECT_NE(a, seed_commitment(seed, "g1"));
  // SHA-256 of the 32 seed bytes followed by the id.
  std::string raw(32, '\0');
  raw[0] = 1;
  raw += "g1";
  EXPECT_EQ(a, sha256_hex(raw));
}

TEST(Tokens, ConstantTimeEqual) {
  EXPECT_TRUE(constant_time_equal("abc", "abc"));
  EXPECT_FALSE(constant_time_equal("abc", "abd"));
  EXPECT_FALSE(constant_time_equal("abc", "abcd"));
}

}  // namespace
}  // namespace galloper::server
