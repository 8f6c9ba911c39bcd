#pragma once
// The fuzz targets: each takes any bytes and must return without a crash, a
// sanitizer report or an assertion, whatever the bytes are. libFuzzer drives
// each alone (fuzzer_main.cpp, .ci/fuzz); the replay test runs every file
// of tests/fuzz/corpus/<name>/ through its target (replay_test.cpp).
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace galloper::fuzz {

using Bytes = std::span<const std::uint8_t>;

// A WebSocket frame, decoded as binary protobuf and as JSON (frame_codec).
void frame(Bytes data);
// A connection's frames to the lobby and a game's room, from a joined seat
// (room_target.cpp says how the bytes are cut into frames).
void room(Bytes data);
// Malbrook answers checked against a game, and resolved when they pass.
void answers(Bytes data);
// A scenario file: checked, and loaded when the check passes.
void scenario(Bytes data);
// Snapshot bytes restored on a bundled scenario's initial game.
void snapshot(Bytes data);
// A game export file: read, and verified when it reads.
void game_export(Bytes data);

struct Target {
  std::string_view name;  // also its corpus folder and its fuzz program's suffix
  void (*run)(Bytes);
};
const std::vector<Target>& targets();

}  // namespace galloper::fuzz
