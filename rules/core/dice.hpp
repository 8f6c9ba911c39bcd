#pragma once
// Dice: counter-based, replayable, recordable.
//
// Every die is a pure function of (game seed, step, draw index): the engine
// gives each step its own KeyedDice, so a game replays exactly from its log and
// players can verify every roll once the seed is revealed. Faces come from our
// own rejection mapping of Philox4x32-10 output (never std:: distributions,
// which differ between standard libraries).
//
// Engines take a `Dice&`; tests pass FixedDice with the faces they want.
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include "rules/core/game.hpp"

namespace galloper::rules {

// ---- Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as
// 1, 2, 3", SC11), exactly as Random123 defines it. ----
using PhiloxCounter = std::array<std::uint32_t, 4>;
using PhiloxKey = std::array<std::uint32_t, 2>;
PhiloxCounter philox4x32_10(PhiloxCounter counter, PhiloxKey key);

// What kind of die a roll was. Recorded in events, so values are stable.
enum class DieKind : std::uint8_t {
  kD6 = 0,            // faces 1..6
  kAverage = 1,       // AvD: faces 2,3,3,4,4,5
  kScatter = 2,       // faces 1..6; see Scatter below
  kBearing = 3,       // direction of an off-target scatter: 0..359 whole degrees
  kDn = 4,            // generic die with `sides` faces 1..sides (rulesets other than Malbrook)
};

// One recorded roll: enough to show it to players and to check it against the
// seed after the game (kind + draw index recompute it; face must match).
struct DieRoll {
  DieKind kind = DieKind::kD6;
  int face = 0;              // as rolled (AvD: 2..5; bearing: 0..359)
  std::uint32_t draw = 0;    // draw index within the step
  int sides = 6;             // faces on the die (6, or 360 for kBearing, or N for kDn)
  friend bool operator==(const DieRoll&, const DieRoll&) = default;
};

// The scatter die (howitzers and mortars). Modelled on the common wargames
// scatter die: six faces, two marked HIT (faces 1 and 2 -> on target), four
// marked with an arrow (faces 3..6 -> off target). A physical arrow points
// wherever the die happens to land, so an off-target roll takes a second draw:
// a uniform compass bearing in whole degrees (clockwise from north, 0..359).
// The distance (D6 x 1/2" in Malbrook) is the ruleset's own further roll.
struct Scatter {
  bool on_target = true;
  int face = 1;          // the scatter die's face, 1..6
  int bearing_deg = 0;   // only meaningful when !on_target
};
constexpr bool scatter_face_on_target(int face) { return face == 1 || face == 2; }

// Maps a uniform D6 face (1..6) to the AvD face (2,3,3,4,4,5). This is also
// the rules' own substitute ("throw a D6 and count 1 as 3, 6 as 4") up to
// which faces carry which value; the distribution is identical.
constexpr int average_die_face(int d6_face) {
  constexpr std::array<int, 6> kFaces{2, 3, 3, 4, 4, 5};
  return kFaces[static_cast<std::size_t>(d6_face - 1)];
}

// The source of dice the engine takes. Each roll consumes one draw index and
// is appended to a log the engine drains into its events.
class Dice {
 public:
  virtual ~Dice() = default;

  int d6();                      // 1..6
  int avd();                     // 2,3,3,4,4,5
  int dn(int sides);             // 1..sides, sides >= 2
  Scatter scatter();             // one draw, plus one more if off target
  std::vector<int> d6s(int n);   // n independent D6, in order

  // Every roll since the last drain, in order.
  const std::vector<DieRoll>& log() const { return log_; }
  std::vector<DieRoll> drain();
  // The draw index the next roll will use.
  std::uint32_t next_draw() const { return next_draw_; }

 protected:
  explicit Dice(std::uint32_t first_draw = 0) : next_draw_(first_draw) {}
  // The uniform face in 1..sides for draw `draw`. kind is for checking only
  // (FixedDice validates it); KeyedDice ignores it, so a D6 and an AvD at the
  // same draw come from the same underlying face.
  virtual int face(DieKind kind, int sides, std::uint32_t draw) = 0;

 private:
  int roll(DieKind kind, int sides);
  std::uint32_t next_draw_ = 0;
  std::vector<DieRoll> log_;
};

// The real dice: uniform faces keyed by (seed, step, draw).
//
// Keying: the 256-bit seed is read as four little-endian 64-bit words
// s0..s3. Philox key = s0 ^ s3 (as two 32-bit halves, low first); counter =
// (step ^ s1, ((draw << 32) | block) ^ s2) as four 32-bit words, low first.
// Every seed bit affects every roll. A roll maps a 32-bit word w to a face by
// rejection (accept w < 2^32 - 2^32 mod sides; face = w mod sides + 1), taking
// words in order from block 0, 1, ... of its own draw index, so each die is
// independent of every other and of how many words its neighbours needed.
class KeyedDice final : public Dice {
 public:
  KeyedDice(const Seed& seed, std::uint64_t step, std::uint32_t first_draw = 0);

  // The face of any die of `sides` faces at (seed, step, draw): what a
  // verifier recomputes. Bearings use sides = 360 and face - 1.
  static int face_at(const Seed& seed, std::uint64_t step, std::uint32_t draw, int sides);

 protected:
  int face(DieKind kind, int sides, std::uint32_t draw) override;

 private:
  Seed seed_;
  std::uint64_t step_;
};

// Dice with faces fixed in advance, for tests and umpire-forced rolls. Each
// entry is the face as the die shows it (AvD 2..5; scatter 1..6; bearing
// 0..359). Running out, or a face impossible for the die asked for, is a
// programming error: the process aborts with a message.
class FixedDice final : public Dice {
 public:
  FixedDice(std::initializer_list<int> faces);
  explicit FixedDice(std::vector<int> faces);
  std::size_t remaining() const { return faces_.size() - pos_; }

 protected:
  int face(DieKind kind, int sides, std::uint32_t draw) override;

 private:
  std::vector<int> faces_;
  std::size_t pos_ = 0;
};

}  // namespace galloper::rules
