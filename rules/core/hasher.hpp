#pragma once
// A canonical byte stream digested with 64-bit FNV-1a (every ruleset's
// state hash): defined byte by byte,
// so the digest is the same on every compiler and platform (std::hash is not).
#include <bit>
#include <cstdint>
#include <string_view>

#include "rules/core/decision.hpp"
#include "rules/core/vec2.hpp"

namespace galloper::rules {

class Hasher {
 public:
  void byte(std::uint8_t b) {
    h_ ^= b;
    h_ *= 0x100000001b3ULL;
  }
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) byte(static_cast<std::uint8_t>(v >> (8 * i)));
  }
  void u32(std::uint32_t v) { u64(v); }
  void i64(std::int64_t v) { u64(static_cast<std::uint64_t>(v)); }
  void boolean(bool b) { byte(b ? 1 : 0); }
  // IEEE-754 bits; -0.0 and 0.0 hash alike, as they compare alike.
  void real(double d) { u64(d == 0.0 ? 0 : std::bit_cast<std::uint64_t>(d)); }
  void vec(Vec2 v) { real(v.x); real(v.y); }
  // Length first, so "ab"+"c" and "a"+"bc" differ.
  void str(std::string_view s) {
    u64(s.size());
    for (char c : s) byte(static_cast<std::uint8_t>(c));
  }
  // A tag between sections, so a missing element cannot alias the next one.
  void tag(std::uint8_t t) { byte(0xff); byte(t); }

  std::uint64_t digest() const { return h_; }

 private:
  std::uint64_t h_ = 0xcbf29ce484222325ULL;
};

// One step of an order, as the rulesets keep a unit's last move ("Repeat
// last move"): its action and the fields a move or manoeuvre uses.
inline void hash_order_step(Hasher& h, const OrderStep& s) {
  h.str(s.action);
  h.real(s.distance);
  h.real(s.angle_deg);
  h.str(s.pivot);
  h.str(s.formation);
  h.vec(s.to);
  h.str(s.target);
}

}  // namespace galloper::rules
