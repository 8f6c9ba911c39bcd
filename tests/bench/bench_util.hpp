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
#include "galloper/v1/protocol.pb.h"
#include "rules/core/game.hpp"
#include "tests/temp_dir.hpp"

namespace galloper::bench {

using galloper::testing::TempDir;

// Every seat's view of `game`: what a room has sent its seats by the time
// the next step resolves (the `shown` of show_every_seat).
inline std::vector<rules::View> views_of(const rules::Game& game, const std::vector<rules::Seat>& seats,
                                         const rules::ViewSettings& settings) {
  std::vector<rules::View> out;
  for (const auto& seat : seats) out.push_back(game.view_for(seat.id, settings));
  return out;
}

// What a room does for each seat after a step (room.cpp, fill_step_view):
// the events it may see, and its view told as a change to the one it was
// last sent (`shown`, one per seat, brought up to date by refresh_view), on an
// arena, serialized (into `bytes`; `wire_bytes` adds up the sizes). Returns
// the number of events shown in all. `changed`, if given, gets each seat's
// count of units new or changed (ViewUpdate::changed) and gone, as
// " changed/gone" (" whole" for a view sent whole), seat after seat.
inline std::size_t show_every_seat(const rules::Game& next, const std::vector<rules::Event>& events,
                                   const std::vector<rules::Seat>& seats, const rules::ViewSettings& settings,
                                   std::vector<rules::View>& shown, std::string& bytes, std::size_t& wire_bytes,
                                   std::string* changed = nullptr) {
  std::size_t seen = 0;
  for (std::size_t i = 0; i < seats.size(); ++i) {
    seen += next.visible_events(events, seats[i].id, settings).size();
    // On an arena, as the room builds each seat's StepResolved (outgoing.hpp).
    google::protobuf::Arena arena;
    auto* sr = google::protobuf::Arena::CreateMessage<v1::StepResolved>(&arena);
    rules::ViewUpdate update;
    next.refresh_view(seats[i].id, settings, shown[i], update);
    if (!codec::to_proto_change(shown[i], update, sr->mutable_view(), sr->mutable_change())) {
      codec::to_proto(shown[i], sr->mutable_view());
    }
    sr->SerializeToString(&bytes);
    wire_bytes += bytes.size();
    if (changed != nullptr) {
      *changed += update.whole ? std::string(" whole")
                               : " " + std::to_string(update.changed.size()) + "/" + std::to_string(update.gone.size());
    }
  }
  return seen;
}

}  // namespace galloper::bench
