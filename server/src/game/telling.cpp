#include "server/src/game/telling.hpp"

#include "codec/play_codec.hpp"

namespace galloper::server {

std::vector<HistoryEvent> tell_step(const RoomState& state, const rules::Game& before, const rules::Game& after,
                                    const std::vector<rules::Event>& events) {
  std::vector<std::uint64_t> masks(events.size(), 0);
  for (std::size_t s = 0; s < state.seats.size() && s < 64; ++s) {
    const auto& seat = state.seats[s].seat;
    std::string as = seat.id;
    rules::ViewSettings settings = state.view_settings;
    if (RoomState::is_spectator(seat)) {
      as = state.spectator_eyes();
      settings.side_shared_vision = true;
    }
    for (const auto i : after.visible_events(events, as, settings)) {
      if (i < masks.size()) masks[i] |= std::uint64_t{1} << s;
    }
  }
  std::vector<HistoryEvent> out(events.size());
  for (std::size_t i = 0; i < events.size(); ++i) {
    codec::to_proto(events[i], &out[i].told);
    out[i].told.set_step(before.step());
    out[i].told.set_turn(before.turn());
    out[i].told.set_phase(before.phase());
    out[i].seat_mask = masks[i];
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
