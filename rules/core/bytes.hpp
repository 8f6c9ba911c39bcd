#pragma once
// Bytes for snapshots (Game::snapshot): a little-endian writer and a bounds-
// checked reader, defined byte by byte so every compiler and platform writes
// and reads the same bytes, and the envelope every ruleset's snapshot shares.
//
// Encodings:
//   u8       one byte
//   fixed16  2 bytes, little-endian       fixed64  8 bytes, little-endian
//   varint   unsigned LEB128, 7 bits a byte, low first; the shortest form only
//            (a reader refuses longer ones, so one value has one encoding)
//   zigzag   a signed value as varint((v << 1) ^ (v >> 63))
//   f64      the IEEE-754 bits as fixed64: exact, -0.0 and NaN payloads kept
//   str      varint length, then the bytes
//
// The reader never reads past its input and never allocates more than the
// bytes left could describe: a length or count larger than what remains fails
// before anything is allocated. Its first failure sticks: every later read
// returns zero and moves nothing, so a caller may read a whole structure and
// check ok() once at the end.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rules/core/result.hpp"

namespace galloper::rules {

// 64-bit FNV-1a of `bytes`, continuing from `h` (the offset basis by default).
std::uint64_t fnv1a64(std::span<const std::uint8_t> bytes, std::uint64_t h = 0xcbf29ce484222325ULL);

class ByteWriter {
 public:
  void u8(std::uint8_t v) { out_.push_back(v); }
  void fixed16(std::uint16_t v);
  void fixed64(std::uint64_t v);
  void varint(std::uint64_t v);
  void zigzag(std::int64_t v);
  void f64(double d);
  void str(std::string_view s);
  void raw(std::span<const std::uint8_t> bytes);

  std::size_t size() const { return out_.size(); }
  const std::vector<std::uint8_t>& bytes() const { return out_; }
  std::vector<std::uint8_t> take() && { return std::move(out_); }

 private:
  std::vector<std::uint8_t> out_;
};

class ByteReader {
 public:
  explicit ByteReader(std::span<const std::uint8_t> in) : in_(in) {}

  std::uint8_t u8();
  std::uint16_t fixed16();
  std::uint64_t fixed64();
  std::uint64_t varint();
  std::int64_t zigzag();
  double f64();
  std::string str();
  // A count of things each encoded in at least one byte: fails (and returns
  // 0) if more than the bytes left could hold.
  std::size_t count();

  // Records the first failure: `what` is for people, the offset is added.
  void fail(std::string_view what);
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }

  std::size_t offset() const { return pos_; }
  std::size_t remaining() const { return in_.size() - pos_; }
  bool at_end() const { return pos_ == in_.size(); }

 private:
  bool need(std::size_t n, std::string_view what);

  std::span<const std::uint8_t> in_;
  std::size_t pos_ = 0;
  std::string error_;
};

// ---- The snapshot envelope (every ruleset's snapshot) ----
//
//   offset 0   magic, 8 bytes: "GALSNAP" then 0x1a
//   offset 8   format version, fixed16 (the ruleset's own numbering)
//   offset 10  ruleset name: u8 length, then the name ("malbrook")
//   ...        the ruleset's body
//   last 8     fixed64: FNV-1a of every byte before it (header and body)
//
// The version and ruleset are read before the digest is checked, so a
// snapshot from another format version or ruleset is reported as such even
// if that format laid out its digest differently.

inline constexpr std::array<std::uint8_t, 8> kSnapshotMagic = {'G', 'A', 'L', 'S', 'N', 'A', 'P', 0x1a};

// Rejection codes of Game::from_snapshot.
inline constexpr std::string_view kSnapshotDamaged = "snapshot_damaged";
inline constexpr std::string_view kSnapshotVersion = "snapshot_version";
inline constexpr std::string_view kSnapshotRuleset = "snapshot_ruleset";
inline constexpr std::string_view kSnapshotOtherGame = "snapshot_other_game";
inline constexpr std::string_view kSnapshotUnsupported = "snapshot_unsupported";

// A writer holding the header; write the body into it, then seal_snapshot().
ByteWriter begin_snapshot(std::string_view ruleset, std::uint16_t version);
// Appends the digest and hands the bytes over.
std::vector<std::uint8_t> seal_snapshot(ByteWriter&& w);
// The body of a snapshot of `ruleset` in format `version`, or why not.
Result<std::span<const std::uint8_t>> open_snapshot(std::span<const std::uint8_t> bytes, std::string_view ruleset,
                                                    std::uint16_t version);

}  // namespace galloper::rules
