#include "server/src/tokens.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace galloper::server {

namespace {

std::string to_hex(const unsigned char* p, std::size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out(2 * n, '0');
  for (std::size_t i = 0; i < n; ++i) {
    out[2 * i] = kDigits[p[i] >> 4];
    out[2 * i + 1] = kDigits[p[i] & 0xf];
  }
  return out;
}

void fill_random(unsigned char* p, std::size_t n) {
  if (RAND_bytes(p, static_cast<int>(n)) != 1) {
    std::fputs("galloper: OpenSSL RAND_bytes failed; refusing to continue\n", stderr);
    std::abort();
  }
}

std::string sha256_hex_raw(const void* data, std::size_t n) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(data, n, digest, &len, EVP_sha256(), nullptr) != 1) std::abort();
  return to_hex(digest, len);
}

}  // namespace

std::string random_hex(std::size_t bytes) {
  std::vector<unsigned char> buf(bytes);
  fill_random(buf.data(), buf.size());
  return to_hex(buf.data(), buf.size());
}

std::array<std::uint8_t, 32> random_seed() {
  std::array<std::uint8_t, 32> seed{};
  fill_random(seed.data(), seed.size());
  return seed;
}

std::string sha256_hex(std::span<const std::uint8_t> data) { return sha256_hex_raw(data.data(), data.size()); }
std::string sha256_hex(std::string_view text) { return sha256_hex_raw(text.data(), text.size()); }

std::string seed_commitment(std::span<const std::uint8_t> seed, std::string_view game_id) {
  std::string buf(reinterpret_cast<const char*>(seed.data()), seed.size());
  buf.append(game_id);
  return sha256_hex(buf);
}

bool constant_time_equal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  return CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace galloper::server
