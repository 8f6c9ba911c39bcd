#pragma once
// What each seat is told of a step: its events as that seat saw them. Built
// once, when the step resolves, and kept in the log with the resolution, so
// a reconnect or a load from a snapshot sends exactly what was told.
#include <optional>
#include <vector>

#include "galloper/v1/store.pb.h"
#include "rules/core/decision.hpp"
#include "rules/core/game.hpp"
#include "server/src/game/room_state.hpp"

namespace galloper::server {

// The events of one resolution as each seat is told them: one HistoryEvent
// per way an event was told, in the order of the events. `before` is the
// state the step resolved from (its step, turn and phase mark the events),
// `after` the state it led to.
std::vector<HistoryEvent> tell_step(const RoomState& state, const rules::Game& before, const rules::Game& after,
                                    const std::vector<rules::Event>& events);

// What a stored resolution says each seat was told (either stored form);
// nullopt for the oldest logs, which kept no events.
std::optional<std::vector<HistoryEvent>> told_in(const v1::StoredStep& stored);
void store_told(const std::vector<HistoryEvent>& told, v1::StoredStep* out);

}  // namespace galloper::server
