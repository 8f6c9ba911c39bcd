#include "rules/core/dice.hpp"

#include <cstdio>
#include <cstdlib>
#include <utility>

namespace galloper::rules {
namespace {

constexpr std::uint32_t kPhiloxM0 = 0xD2511F53u;
constexpr std::uint32_t kPhiloxM1 = 0xCD9E8D57u;
constexpr std::uint32_t kPhiloxW0 = 0x9E3779B9u;  // golden ratio
constexpr std::uint32_t kPhiloxW1 = 0xBB67AE85u;  // sqrt(3) - 1

PhiloxCounter philox_round(PhiloxCounter c, PhiloxKey k) {
  const std::uint64_t p0 = static_cast<std::uint64_t>(kPhiloxM0) * c[0];
  const std::uint64_t p1 = static_cast<std::uint64_t>(kPhiloxM1) * c[2];
  const auto hi0 = static_cast<std::uint32_t>(p0 >> 32);
  const auto lo0 = static_cast<std::uint32_t>(p0);
  const auto hi1 = static_cast<std::uint32_t>(p1 >> 32);
  const auto lo1 = static_cast<std::uint32_t>(p1);
  return {hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0};
}

std::uint64_t seed_word(const Seed& s, int i) {
  std::uint64_t w = 0;
  for (int b = 7; b >= 0; --b) w = (w << 8) | s[static_cast<std::size_t>(i * 8 + b)];
  return w;
}

[[noreturn]] void die_loudly(const char* what) {
  std::fprintf(stderr, "galloper::rules::FixedDice: %s\n", what);
  std::abort();
}

}  // namespace

PhiloxCounter philox4x32_10(PhiloxCounter counter, PhiloxKey key) {
  counter = philox_round(counter, key);
  for (int round = 1; round < 10; ++round) {
    key[0] += kPhiloxW0;
    key[1] += kPhiloxW1;
    counter = philox_round(counter, key);
  }
  return counter;
}

// ---- Dice ----

int Dice::roll(DieKind kind, int sides) {
  const std::uint32_t draw = next_draw_++;
  const int uniform = face(kind, sides, draw);
  const int shown = kind == DieKind::kAverage   ? average_die_face(uniform)
                    : kind == DieKind::kBearing ? uniform - 1
                                                : uniform;
  log_.push_back(DieRoll{kind, shown, draw, sides});
  return shown;
}

int Dice::d6() { return roll(DieKind::kD6, 6); }
int Dice::avd() { return roll(DieKind::kAverage, 6); }
int Dice::dn(int sides) {
  if (sides < 2) die_loudly("a die needs at least two sides");
  return roll(DieKind::kDn, sides);
}

Scatter Dice::scatter() {
  Scatter s;
  s.face = roll(DieKind::kScatter, 6);
  s.on_target = scatter_face_on_target(s.face);
  if (!s.on_target) s.bearing_deg = roll(DieKind::kBearing, 360);
  return s;
}

std::vector<int> Dice::d6s(int n) {
  std::vector<int> out;
  out.reserve(static_cast<std::size_t>(n > 0 ? n : 0));
  for (int i = 0; i < n; ++i) out.push_back(d6());
  return out;
}

std::vector<DieRoll> Dice::drain() { return std::exchange(log_, {}); }

// ---- KeyedDice ----

KeyedDice::KeyedDice(const Seed& seed, std::uint64_t step, std::uint32_t first_draw)
    : Dice(first_draw), seed_(seed), step_(step) {}

int KeyedDice::face_at(const Seed& seed, std::uint64_t step, std::uint32_t draw, int sides) {
  const std::uint64_t s0 = seed_word(seed, 0);
  const std::uint64_t s1 = seed_word(seed, 1);
  const std::uint64_t s2 = seed_word(seed, 2);
  const std::uint64_t s3 = seed_word(seed, 3);
  const std::uint64_t k = s0 ^ s3;
  const PhiloxKey key{static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(k >> 32)};
  const auto n = static_cast<std::uint64_t>(sides);
  // Largest multiple of `sides` not above 2^32: words at or beyond it are
  // rejected so every face has exactly the same number of words.
  const std::uint64_t limit = (std::uint64_t{1} << 32) - ((std::uint64_t{1} << 32) % n);
  for (std::uint32_t block = 0;; ++block) {
    const std::uint64_t c0 = step ^ s1;
    const std::uint64_t c1 = ((static_cast<std::uint64_t>(draw) << 32) | block) ^ s2;
    const PhiloxCounter ctr{static_cast<std::uint32_t>(c0), static_cast<std::uint32_t>(c0 >> 32),
                            static_cast<std::uint32_t>(c1), static_cast<std::uint32_t>(c1 >> 32)};
    for (std::uint32_t w : philox4x32_10(ctr, key)) {
      if (w < limit) return static_cast<int>(w % n) + 1;
    }
  }
}

int KeyedDice::face(DieKind /*kind*/, int sides, std::uint32_t draw) {
  return face_at(seed_, step_, draw, sides);
}

// ---- FixedDice ----

FixedDice::FixedDice(std::initializer_list<int> faces) : faces_(faces) {}
FixedDice::FixedDice(std::vector<int> faces) : faces_(std::move(faces)) {}

int FixedDice::face(DieKind kind, int sides, std::uint32_t /*draw*/) {
  if (pos_ >= faces_.size()) die_loudly("ran out of fixed dice");
  const int shown = faces_[pos_++];
  switch (kind) {
    case DieKind::kAverage:
      // Back to a uniform face that maps to the shown AvD face.
      switch (shown) {
        case 2: return 1;
        case 3: return 2;
        case 4: return 4;
        case 5: return 6;
        default: die_loudly("an average die shows 2, 3, 4 or 5");
      }
    case DieKind::kBearing:
      if (shown < 0 || shown >= 360) die_loudly("a bearing is 0..359");
      return shown + 1;
    case DieKind::kD6:
    case DieKind::kScatter:
    case DieKind::kDn:
      if (shown < 1 || shown > sides) die_loudly("face out of range for this die");
      return shown;
  }
  die_loudly("unknown die kind");
}

}  // namespace galloper::rules
