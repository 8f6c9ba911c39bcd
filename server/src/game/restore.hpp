#pragma once
// Loading a game: its state rebuilt by applying the log, entry by entry,
// through the reducer (reducer.hpp), starting from the newest usable snapshot
// of the state when there is one. The log is the record; a snapshot only
// saves time, and one that does not decode to the state the log recorded is
// skipped (and counted).
#include <optional>
#include <string>
#include <vector>

#include "persistence/store.hpp"
#include "server/src/game/effects.hpp"
#include "server/src/game/room_state.hpp"
#include "server/src/metrics.hpp"

namespace galloper::server {

// How many turns back a loader needs snapshots for (the newest is where
// loading starts; a delayed spectator view needs the start of each turn it
// may still show).
std::uint32_t snapshot_turns_back(const persistence::GameRecord& record);

// `state` fresh (RoomState's constructor, or reset()). A reason naming the
// first entry that cannot be applied. `last`, if given, gets the effects of
// the last entry (a rewind's reload performs them: the rewind is an entry).
std::optional<std::string> restore_state(RoomState& state, const std::vector<persistence::StepRecord>& log,
                                         const std::vector<persistence::SnapshotRecord>& snapshots,
                                         Metrics& metrics, Effects* last = nullptr);

}  // namespace galloper::server
