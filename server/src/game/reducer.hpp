#pragma once
// The one path from a log entry to the room's state. A live room applies
// each entry as it writes it and performs the effects this returns once the
// entry is on disk; loading applies the same entries in order and drops the
// effects. So what the log says and what the room holds can never differ.
#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "galloper/v1/store.pb.h"
#include "rules/core/game.hpp"
#include "server/src/game/effects.hpp"
#include "server/src/game/room_state.hpp"

namespace galloper::server {

// What the store says of an entry besides its message.
struct EntryMeta {
  std::uint64_t seq = 0;
  std::uint64_t state_hash = 0;  // resolutions and edits: the state after them
  bool superseded = false;       // undone by a rewind: kept, never replayed
  // Before the snapshot a load starts from: the snapshot stands for the
  // state, so resolutions and edits contribute only what they say (events,
  // answers, the audit) and the open step's entries are past.
  bool before_snapshot = false;
};

// Work the live room has already done for an entry, so it is not done twice:
// the state a resolution or an edit leads to (its hash is the entry's), and
// what each seat was told of a resolution.
struct Prepared {
  std::shared_ptr<const rules::Game> next;
  std::vector<HistoryEvent> told;
};

// Applies `entry` to `state`. A reason naming the entry when it cannot be
// applied (damaged, refused by the engine, a state hash that differs): the
// game then cannot be loaded, and the state is left part-way.
std::variant<Effects, std::string> apply_entry(RoomState& state, const v1::LogEntry& entry, const EntryMeta& meta,
                                               const Prepared* prepared = nullptr);

}  // namespace galloper::server
