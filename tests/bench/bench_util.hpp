#pragma once
// What the benchmarks share: a temporary directory for a store on disk
// (tests/temp_dir.hpp), and
// showing a resolved step to every seat as a room does.
#include <stdlib.h>

#include <cstddef>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>
#include <vector>

#include <google/protobuf/arena.h>

#include "codec/view_codec.hpp"
#include "galloper/v1/game.pb.h"
#include "rules/core/game.hpp"
#include "tests/temp_dir.hpp"

namespace galloper::bench {

using galloper::testing::TempDir;

// What a room does for each seat after a step: the events it may see, and its
// view serialized (into `bytes`). Returns the number of events shown in all.
inline std::size_t show_every_seat(const rules::Game& next, const std::vector<rules::Event>& events,
                                   const std::vector<rules::Seat>& seats, const rules::ViewSettings& settings,
                                   std::string& bytes) {
  std::size_t seen = 0;
  for (const auto& seat : seats) {
    seen += next.visible_events(events, seat.id, settings).size();
    // On an arena, as the room builds each seat's StepResolved (outgoing.hpp).
    google::protobuf::Arena arena;
    auto* view = google::protobuf::Arena::CreateMessage<v1::GameView>(&arena);
    codec::to_proto(next.view_for(seat.id, settings), view);
    view->SerializeToString(&bytes);
  }
  return seen;
}

}  // namespace galloper::bench
