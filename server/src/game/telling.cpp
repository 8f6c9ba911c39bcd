#include "server/src/game/telling.hpp"

#include <google/protobuf/util/message_differencer.h>

#include <algorithm>

#include "codec/play_codec.hpp"
#include "rules/core/tell.hpp"

namespace galloper::server {

namespace {

// Who a seat is told events as: itself, or for spectators their eyes (the
// spectator side's army seat, or the umpire) with side-shared vision.
std::pair<std::string, rules::ViewSettings> eyes_of(const RoomState& state, const rules::Seat& seat) {
  if (!RoomState::is_spectator(seat)) return {seat.id, state.view_settings};
  rules::ViewSettings shared;
  shared.side_shared_vision = true;
  return {state.spectator_eyes(), shared};
}

}  // namespace

std::vector<HistoryEvent> tell_step(const RoomState& state, const rules::Game& before, const rules::Game& after,
                                    const std::vector<rules::Event>& events) {
  // Per event, the ways it was told and to whom (one bit per seat).
  std::vector<std::vector<HistoryEvent>> told(events.size());
  for (std::size_t s = 0; s < state.seats.size() && s < 64; ++s) {
    const auto& seat = state.seats[s].seat;
    const auto [as, settings] = eyes_of(state, seat);
    // What the seat saw when the step opened and once it resolved: the one
    // path to what it sees (view_for), nothing else.
    const rules::View was = before.view_for(as, settings);
    const rules::SeatKnowledge knows(after.view_for(as, settings), &was);
    for (std::size_t i = 0; i < events.size(); ++i) {
      auto event = rules::tell_event(events[i], knows);
      if (!event) continue;
      v1::Event wire;
      codec::to_proto(*event, &wire);
      // The dice of an event are numbered within it for players: the draw
      // index within the step would count the dice the seat was not shown.
      if (!knows.umpire()) {
        for (int d = 0; d < wire.dice_size(); ++d) wire.mutable_dice(d)->set_draw(static_cast<std::uint32_t>(d + 1));
      }
      wire.set_step(before.step());
      wire.set_turn(before.turn());
      wire.set_phase(before.phase());
      auto& ways = told[i];
      auto same = std::find_if(ways.begin(), ways.end(), [&](const HistoryEvent& h) {
        return google::protobuf::util::MessageDifferencer::Equals(h.told, wire);
      });
      if (same == ways.end()) {
        ways.push_back(HistoryEvent{std::move(wire), 0, false});
        same = std::prev(ways.end());
      }
      same->seat_mask |= std::uint64_t{1} << s;
    }
  }
  std::vector<HistoryEvent> out;
  for (auto& ways : told) {
    for (auto& h : ways) out.push_back(std::move(h));
  }
  return out;
}

std::optional<std::vector<HistoryEvent>> told_in(const v1::StoredStep& stored) {
  std::vector<HistoryEvent> out;
  if (stored.has_told()) {
    for (const auto& t : stored.told()) out.push_back(HistoryEvent{t.event(), t.seats(), false});
    return out;
  }
  // The form before ToldEvent: one way per event, with the seats allowed it.
  // Logs older still stored the seats but not the events.
  if (stored.events_size() != stored.event_seat_masks_size()) return std::nullopt;
  for (int i = 0; i < stored.events_size(); ++i) {
    HistoryEvent h{stored.events(i), stored.event_seat_masks(i), false};
    h.told.clear_sequence();
    out.push_back(std::move(h));
  }
  return out;
}

void store_told(const std::vector<HistoryEvent>& told, v1::StoredStep* out) {
  out->set_has_told(true);
  for (const auto& h : told) {
    auto* t = out->add_told();
    t->set_seats(h.seat_mask);
    *t->mutable_event() = h.told;
  }
}

}  // namespace galloper::server
