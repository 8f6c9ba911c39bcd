#include "rules/core/bytes.hpp"

#include <bit>
#include <cassert>

namespace galloper::rules {

std::uint64_t fnv1a64(std::span<const std::uint8_t> bytes, std::uint64_t h) {
  for (std::uint8_t b : bytes) {
    h ^= b;
    h *= 0x100000001b3ULL;
  }
  return h;
}

// ---- ByteWriter ----

void ByteWriter::fixed16(std::uint16_t v) {
  out_.push_back(static_cast<std::uint8_t>(v));
  out_.push_back(static_cast<std::uint8_t>(v >> 8));
}

void ByteWriter::fixed64(std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

void ByteWriter::varint(std::uint64_t v) {
  while (v >= 0x80) {
    out_.push_back(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  out_.push_back(static_cast<std::uint8_t>(v));
}

void ByteWriter::zigzag(std::int64_t v) {
  const auto u = static_cast<std::uint64_t>(v);
  // The arithmetic shift is spelled out: all ones for negative values.
  varint((u << 1) ^ (v < 0 ? ~std::uint64_t{0} : 0));
}

void ByteWriter::f64(double d) { fixed64(std::bit_cast<std::uint64_t>(d)); }

void ByteWriter::str(std::string_view s) {
  varint(s.size());
  out_.insert(out_.end(), s.begin(), s.end());
}

void ByteWriter::raw(std::span<const std::uint8_t> bytes) { out_.insert(out_.end(), bytes.begin(), bytes.end()); }

// ---- ByteReader ----

void ByteReader::fail(std::string_view what) {
  if (!error_.empty()) return;
  error_ = std::string(what) + " at byte " + std::to_string(pos_) + " of " + std::to_string(in_.size());
}

bool ByteReader::need(std::size_t n, std::string_view what) {
  if (!ok()) return false;
  if (n > remaining()) {
    fail(std::string("ends inside ") + std::string(what));
    return false;
  }
  return true;
}

std::uint8_t ByteReader::u8() {
  if (!need(1, "a byte")) return 0;
  return in_[pos_++];
}

std::uint16_t ByteReader::fixed16() {
  if (!need(2, "a 16-bit number")) return 0;
  const auto v = static_cast<std::uint16_t>(in_[pos_] | (in_[pos_ + 1] << 8));
  pos_ += 2;
  return v;
}

std::uint64_t ByteReader::fixed64() {
  if (!need(8, "a 64-bit number")) return 0;
  std::uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v |= static_cast<std::uint64_t>(in_[pos_ + static_cast<std::size_t>(i)]) << (8 * i);
  pos_ += 8;
  return v;
}

std::uint64_t ByteReader::varint() {
  if (!ok()) return 0;
  const std::size_t start = pos_;
  std::uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (pos_ >= in_.size()) {
      pos_ = start;
      fail("ends inside a number");
      return 0;
    }
    const std::uint8_t b = in_[pos_++];
    // The tenth byte holds bit 63 only.
    if (shift == 63 && b > 1) {
      pos_ = start;
      fail("a number too large for 64 bits");
      return 0;
    }
    v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) {
      // Shortest form only: a last byte of 0 after others adds nothing.
      if (b == 0 && pos_ - start > 1) {
        pos_ = start;
        fail("a number not in its shortest form");
        return 0;
      }
      return v;
    }
  }
  pos_ = start;
  fail("a number longer than ten bytes");
  return 0;
}

std::int64_t ByteReader::zigzag() {
  const std::uint64_t u = varint();
  return static_cast<std::int64_t>((u >> 1) ^ (~(u & 1) + 1));
}

double ByteReader::f64() { return std::bit_cast<double>(fixed64()); }

std::string ByteReader::str() {
  const std::uint64_t n = varint();
  if (!ok()) return {};
  if (n > remaining()) {
    fail("a text of " + std::to_string(n) + " bytes longer than the bytes left");
    return {};
  }
  std::string s(reinterpret_cast<const char*>(in_.data() + pos_), static_cast<std::size_t>(n));
  pos_ += static_cast<std::size_t>(n);
  return s;
}

std::size_t ByteReader::count() {
  const std::uint64_t n = varint();
  if (!ok()) return 0;
  if (n > remaining()) {
    fail("a list of " + std::to_string(n) + " items longer than the bytes left");
    return 0;
  }
  return static_cast<std::size_t>(n);
}

// ---- The envelope ----

namespace {
constexpr std::size_t kDigestBytes = 8;
// Magic, version, the ruleset name's length byte.
constexpr std::size_t kFixedHeader = kSnapshotMagic.size() + 2 + 1;
}  // namespace

ByteWriter begin_snapshot(std::string_view ruleset, std::uint16_t version) {
  ByteWriter w;
  w.raw(kSnapshotMagic);
  w.fixed16(version);
  // Ruleset names are short; the header keeps one byte for the length.
  assert(ruleset.size() <= 255);
  w.u8(static_cast<std::uint8_t>(ruleset.size()));
  for (char c : ruleset) w.u8(static_cast<std::uint8_t>(c));
  return w;
}

std::vector<std::uint8_t> seal_snapshot(ByteWriter&& w) {
  const std::uint64_t digest = fnv1a64(w.bytes());
  w.fixed64(digest);
  return std::move(w).take();
}

Result<std::span<const std::uint8_t>> open_snapshot(std::span<const std::uint8_t> bytes, std::string_view ruleset,
                                                    std::uint16_t version) {
  const std::string replay = "; load the game by replaying its log instead";
  if (bytes.size() < kFixedHeader + kDigestBytes) {
    return reject(std::string(kSnapshotDamaged),
                  "the snapshot is " + std::to_string(bytes.size()) + " bytes long, too short to be one" + replay);
  }
  for (std::size_t i = 0; i < kSnapshotMagic.size(); ++i) {
    if (bytes[i] != kSnapshotMagic[i]) {
      return reject(std::string(kSnapshotDamaged),
                    "these bytes do not start like a Galloper snapshot (wrong magic)" + replay);
    }
  }
  ByteReader r(bytes.subspan(kSnapshotMagic.size()));
  const std::uint16_t got_version = r.fixed16();
  if (got_version != version) {
    return reject(std::string(kSnapshotVersion),
                  "the snapshot is in format version " + std::to_string(got_version) + ", this server reads version " +
                      std::to_string(version) + replay + " (and take a new snapshot)");
  }
  const std::size_t name_size = r.u8();
  if (kFixedHeader + name_size + kDigestBytes > bytes.size()) {
    return reject(std::string(kSnapshotDamaged), "the snapshot ends inside its header" + replay);
  }
  const std::string_view name(reinterpret_cast<const char*>(bytes.data() + kFixedHeader), name_size);
  if (name != ruleset) {
    return reject(std::string(kSnapshotRuleset), "the snapshot is of a '" + std::string(name) +
                                                     "' game, not of a '" + std::string(ruleset) + "' game" + replay);
  }
  const std::size_t body_end = bytes.size() - kDigestBytes;
  ByteReader trailer(bytes.subspan(body_end));
  if (trailer.fixed64() != fnv1a64(bytes.first(body_end))) {
    return reject(std::string(kSnapshotDamaged),
                  "the snapshot's checksum does not match its bytes (damaged or cut short)" + replay);
  }
  const std::size_t body_start = kFixedHeader + name_size;
  return bytes.subspan(body_start, body_end - body_start);
}

}  // namespace galloper::rules
