#pragma once
// Reads structured values from a fuzzer's bytes. Past the end every read
// gives zero or empty, so any input is a complete one: a shorter input is
// the same input with its tail zeroed.
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace galloper::fuzz {

class FuzzInput {
 public:
  explicit FuzzInput(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}

  bool empty() const { return at_ >= bytes_.size(); }
  std::size_t left() const { return empty() ? 0 : bytes_.size() - at_; }

  std::uint8_t u8() { return empty() ? 0 : bytes_[at_++]; }
  std::uint16_t u16() { return static_cast<std::uint16_t>(u8() | (u8() << 8)); }
  bool flag() { return (u8() & 1) != 0; }

  // Any double: NaN and the infinities included.
  double raw_double() {
    std::uint64_t bits = 0;
    for (int i = 0; i < 8; ++i) bits |= static_cast<std::uint64_t>(u8()) << (8 * i);
    double d;
    std::memcpy(&d, &bits, sizeof d);
    return d;
  }
  // Mostly small table distances and angles; one value in eight is any double.
  double number() {
    const std::uint8_t how = u8();
    if ((how & 7) == 0) return raw_double();
    return static_cast<double>(static_cast<std::int16_t>(u16())) / 16.0;
  }

  // Up to `max` bytes, as they are.
  std::string text(std::size_t max) {
    const std::size_t n = std::min<std::size_t>(u8() % (max + 1), left());
    std::string out(reinterpret_cast<const char*>(bytes_.data() + at_), n);
    at_ += n;
    return out;
  }

  // One of `choices` (its index taken from the input), or, one time in
  // `made_up_one_in`, a string of the input's own.
  template <class T>
  std::string pick(const std::vector<T>& choices, std::uint8_t made_up_one_in = 8) {
    const std::uint8_t how = u8();
    if (choices.empty() || how % made_up_one_in == 0) return text(16);
    return std::string(choices[(how / made_up_one_in) % choices.size()]);
  }

  // What is left, whole.
  std::span<const std::uint8_t> rest() {
    auto out = empty() ? std::span<const std::uint8_t>{} : bytes_.subspan(at_);
    at_ = bytes_.size();
    return out;
  }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t at_ = 0;
};

}  // namespace galloper::fuzz
