// Bytes for snapshots: the writer's encodings pinned byte by byte, the
// reader's bounds and refusals, the envelope, and Game's snapshot defaults.
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "rules/core/bytes.hpp"
#include "rules/core/game.hpp"

namespace galloper::rules {
namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes varint_bytes(std::uint64_t v) {
  ByteWriter w;
  w.varint(v);
  return w.bytes();
}

TEST(Bytes, FixedWidthNumbersAreLittleEndian) {
  ByteWriter w;
  w.fixed16(0x0102);
  w.fixed64(0x0102030405060708ULL);
  EXPECT_EQ(w.bytes(), (Bytes{0x02, 0x01, 0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01}));
  ByteReader r(w.bytes());
  EXPECT_EQ(r.fixed16(), 0x0102);
  EXPECT_EQ(r.fixed64(), 0x0102030405060708ULL);
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(r.at_end());
}

TEST(Bytes, VarintsArePinnedAndRoundTrip) {
  EXPECT_EQ(varint_bytes(0), (Bytes{0x00}));
  EXPECT_EQ(varint_bytes(127), (Bytes{0x7f}));
  EXPECT_EQ(varint_bytes(128), (Bytes{0x80, 0x01}));
  EXPECT_EQ(varint_bytes(300), (Bytes{0xac, 0x02}));
  EXPECT_EQ(varint_bytes(std::numeric_limits<std::uint64_t>::max()),
            (Bytes{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}));
  for (std::uint64_t v : std::vector<std::uint64_t>{0, 1, 127, 128, 16383, 16384, 0xffffffff, std::uint64_t{1} << 63,
                                                   std::numeric_limits<std::uint64_t>::max()}) {
    const Bytes b = varint_bytes(v);
    ByteReader r(b);
    EXPECT_EQ(r.varint(), v);
    EXPECT_TRUE(r.ok()) << r.error();
    EXPECT_TRUE(r.at_end());
  }
}

TEST(Bytes, ZigzagKeepsSmallNegativesShort) {
  ByteWriter w;
  w.zigzag(0);
  w.zigzag(-1);
  w.zigzag(1);
  w.zigzag(-2);
  EXPECT_EQ(w.bytes(), (Bytes{0, 1, 2, 3}));
  for (std::int64_t v : {std::int64_t{0}, std::int64_t{-1}, std::int64_t{63}, std::int64_t{-64},
                         std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()}) {
    ByteWriter x;
    x.zigzag(v);
    ByteReader r(x.bytes());
    EXPECT_EQ(r.zigzag(), v);
    EXPECT_TRUE(r.ok());
  }
}

TEST(Bytes, DoublesKeepTheirExactBits) {
  for (double d : {0.0, -0.0, 1.0 / 3, -1e-300, std::numeric_limits<double>::infinity(),
                   std::numeric_limits<double>::denorm_min()}) {
    ByteWriter w;
    w.f64(d);
    ByteReader r(w.bytes());
    const double back = r.f64();
    EXPECT_EQ(std::bit_cast<std::uint64_t>(back), std::bit_cast<std::uint64_t>(d));
  }
}

TEST(Bytes, TheReaderRefusesLongerFormsAndOverflow) {
  {
    const Bytes overlong{0x80, 0x00};  // 0 in two bytes
    ByteReader r(overlong);
    EXPECT_EQ(r.varint(), 0u);
    EXPECT_FALSE(r.ok());
  }
  {
    const Bytes too_big{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02};
    ByteReader r(too_big);
    r.varint();
    EXPECT_FALSE(r.ok());
  }
  {
    const Bytes eleven(11, 0x80);
    ByteReader r(eleven);
    r.varint();
    EXPECT_FALSE(r.ok());
  }
}

TEST(Bytes, TheReaderNeverReadsPastItsInput) {
  ByteWriter w;
  w.str("hello");
  w.fixed64(7);
  const Bytes all = w.bytes();
  for (std::size_t n = 0; n < all.size(); ++n) {
    const Bytes cut(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(n));
    ByteReader r(cut);
    const std::string s = r.str();
    const std::uint64_t v = r.fixed64();
    EXPECT_FALSE(r.ok()) << n;
    EXPECT_LE(r.offset(), n);
    // The first failure sticks; later reads give zero.
    EXPECT_EQ(v, 0u);
    EXPECT_EQ(r.u8(), 0u);
    EXPECT_NE(r.error().find("of " + std::to_string(n)), std::string::npos) << r.error();
  }
}

TEST(Bytes, LengthsAndCountsAreBoundedByTheBytesLeft) {
  ByteWriter w;
  w.varint(1'000'000'000);  // a text "a billion bytes long" in a 6-byte input
  w.u8('x');
  ByteReader r(w.bytes());
  EXPECT_EQ(r.str(), "");
  EXPECT_FALSE(r.ok());
  ByteReader c(w.bytes());
  EXPECT_EQ(c.count(), 0u);
  EXPECT_FALSE(c.ok());
}

TEST(Bytes, FnvIsTheStandardOne) {
  // FNV-1a 64 test vectors (Fowler/Noll/Vo): "" and "a".
  EXPECT_EQ(fnv1a64({}), 0xcbf29ce484222325ULL);
  const Bytes a{'a'};
  EXPECT_EQ(fnv1a64(a), 0xaf63dc4c8601ec8cULL);
}

// ---- The envelope ----

Bytes sealed(std::string_view ruleset, std::uint16_t version, const Bytes& body) {
  ByteWriter w = begin_snapshot(ruleset, version);
  w.raw(body);
  return seal_snapshot(std::move(w));
}

TEST(SnapshotEnvelope, OpensToItsBody) {
  const Bytes body{1, 2, 3};
  const Bytes b = sealed("malbrook", 4, body);
  ASSERT_EQ(b.size(), 8u + 2 + 1 + 8 + 3 + 8);
  EXPECT_EQ(std::string(b.begin(), b.begin() + 7), "GALSNAP");
  auto opened = open_snapshot(b, "malbrook", 4);
  ASSERT_TRUE(opened.ok()) << opened.error().reason;
  EXPECT_EQ(Bytes(opened->begin(), opened->end()), body);
}

TEST(SnapshotEnvelope, SaysWhyItRefuses) {
  const Bytes b = sealed("malbrook", 4, {1, 2, 3});
  EXPECT_EQ(open_snapshot(b, "malbrook", 5).error().code, kSnapshotVersion);
  EXPECT_NE(open_snapshot(b, "malbrook", 5).error().reason.find("version 4"), std::string::npos);
  EXPECT_EQ(open_snapshot(b, "cfeo", 4).error().code, kSnapshotRuleset);
  Bytes bad_magic = b;
  bad_magic[0] = 'X';
  EXPECT_EQ(open_snapshot(bad_magic, "malbrook", 4).error().code, kSnapshotDamaged);
  for (std::size_t n = 0; n < b.size(); ++n) {
    const Bytes cut(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(n));
    auto r = open_snapshot(cut, "malbrook", 4);
    ASSERT_FALSE(r.ok()) << n;
    EXPECT_EQ(r.error().code, kSnapshotDamaged) << n;
  }
  for (std::size_t i = 8 + 2 + 1 + 8; i < b.size(); ++i) {
    Bytes flipped = b;
    flipped[i] ^= 0x10;
    auto r = open_snapshot(flipped, "malbrook", 4);
    ASSERT_FALSE(r.ok()) << i;
    EXPECT_EQ(r.error().code, kSnapshotDamaged) << i;
  }
}

// ---- Game's defaults: a ruleset without snapshots says so ----

class Bare final : public Game {
 public:
  std::string_view ruleset() const override { return "bare"; }
  std::string_view scenario_name() const override { return "s"; }
  std::string_view title() const override { return "t"; }
  std::uint32_t turn() const override { return 1; }
  std::string phase() const override { return "p"; }
  std::vector<Seat> seats() const override { return {}; }
  View view_for(std::string_view, const ViewSettings&) const override { return {}; }
  StateHash state_hash() const override { return 0; }
  std::unique_ptr<Game> clone() const override { return std::make_unique<Bare>(); }
};

TEST(SnapshotDefaults, ARulesetWithoutSnapshotsRefusesThem) {
  const Bare g;
  EXPECT_TRUE(g.snapshot().empty());
  const Bytes any{1, 2, 3};
  auto r = g.from_snapshot(any);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, kSnapshotUnsupported);
  EXPECT_FALSE(r.error().reason.empty());
}

}  // namespace
}  // namespace galloper::rules
