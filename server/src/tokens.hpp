#pragma once
// Secrets: invite and resume tokens, game seeds, their hashes and commitments.
// Randomness and hashing come from OpenSSL.
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace galloper::server {

// `bytes` random bytes from OpenSSL's CSPRNG, as lowercase hex. Aborts if the
// generator fails: a server that cannot make secrets must not hand out tokens.
std::string random_hex(std::size_t bytes);

std::array<std::uint8_t, 32> random_seed();

// Lowercase hex SHA-256.
std::string sha256_hex(std::span<const std::uint8_t> data);
std::string sha256_hex(std::string_view text);

// Tokens are stored only as hashes.
inline std::string token_hash(std::string_view token) { return sha256_hex(token); }

// The public commitment to a game's seed: SHA-256(seed || game id), hex.
std::string seed_commitment(std::span<const std::uint8_t> seed, std::string_view game_id);

// Equal-length comparison that takes the same time wherever the strings differ.
bool constant_time_equal(std::string_view a, std::string_view b);

}  // namespace galloper::server
