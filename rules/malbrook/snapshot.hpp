#pragma once
// Snapshots of a Malbrook game (Game::snapshot, Game::from_snapshot): the
// whole GameState as bytes, so the store can load a game without replaying
// its log. The log stays the record; a snapshot is derived data.
//
// What is in one: every member of GameState and of everything it holds,
// except
//   - the seed: secret until the game ends; a snapshot is restored onto the
//     game's own initial state and takes its seed from there;
//   - the terrain: a TerrainMap derived from `features` (make_terrain_map),
//     which never change in play; it is copied from the initial state, whose
//     features must equal the snapshot's.
//
// Layout: the envelope of rules/core/bytes.hpp (magic, format version,
// ruleset "malbrook", body, FNV-1a digest); the body is GameState's members
// in declaration order, each struct's members in declaration order (one
// field list per struct in snapshot.cpp serves writing and reading):
//   bool, std::uint8_t   1 byte (a bool is 0 or 1)
//   std::uint32_t/64_t   varint
//   int                  zigzag varint
//   double               f64 (IEEE-754 bits, exact)
//   enum                 varint of its value; a reader refuses values past the last
//   std::string          varint length + bytes
//   std::optional<T>     bool, then T when present
//   std::vector<T>       varint count, then the elements
//   std::map<K, V>       varint count, then key, value pairs in key order
// Every bool, enum and map order is checked on reading, so a state has one
// encoding and re-encoding restored bytes gives the same bytes. Doubles keep
// their bits: -0.0 stays -0.0 (it compares equal to 0.0 but atan2 and
// copysign tell them apart, so a restored game must keep it); "equal states"
// give identical bytes when their doubles are bit-equal.
#include <cstdint>
#include <span>
#include <vector>

#include "rules/core/result.hpp"
#include "rules/malbrook/state.hpp"

namespace galloper::rules::malbrook {

// The body's format. Bump it on any change to a field list in snapshot.cpp:
// a member added, removed, reordered or re-typed, or an enum's values
// renumbered (adding one at the end needs no bump). Older snapshots are then
// refused with "snapshot_version" and the store rebuilds them from the log.
// The field lists bind every member by name (structured bindings), so adding
// a member to a state struct does not compile until it is added there too.
inline constexpr std::uint16_t kSnapshotFormat = 4;

// The snapshot of `state` (without its seed and terrain).
std::vector<std::uint8_t> encode_snapshot(const GameState& state);

// The state `bytes` encode, restored onto `initial` (the game's initial
// state): its seed and terrain are initial's. Refuses, with a reason a person
// can act on: "snapshot_damaged" (truncated, changed, or not a snapshot),
// "snapshot_version", "snapshot_ruleset", "snapshot_other_game" (another
// scenario name, table or terrain). Never reads outside `bytes`; allocates
// no more than the bytes could describe.
Result<GameState> restore_snapshot(const GameState& initial, std::span<const std::uint8_t> bytes);

// Every member of the two states equal except the derived `terrain` (which
// has no equality; it is a function of `features`, which are compared). Each
// struct a GameState holds compares with its defaulted operator==, so no
// member can be left out of the comparison; GameState's own members are
// listed in snapshot.cpp against a structured binding of all of them.
bool same_except_terrain(const GameState& a, const GameState& b);

}  // namespace galloper::rules::malbrook
