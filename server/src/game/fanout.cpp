#include "server/src/game/fanout.hpp"

#include <algorithm>

#include "codec/play_codec.hpp"
#include "codec/ruleset_codec.hpp"
#include "codec/rulesets.hpp"
#include "codec/view_codec.hpp"
#include "rules/core/tell.hpp"
#include "rules/core/view_update.hpp"

namespace galloper::server {

namespace {

// Chat and history go to a joining connection in pages of this many
// messages, as many pages as it missed.
constexpr std::size_t kPage = 500;

std::string hex(const rules::Seed& seed) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (auto b : seed) {
    out += kDigits[b >> 4];
    out += kDigits[b & 0xf];
  }
  return out;
}

}  // namespace

// ---- What a seat was told. ----

bool Fanout::told(std::size_t seat, const HistoryEvent& h) const {
  // A spectator watching late was not told what a rewind undid before the
  // delay reached it, so undone events take no place in its count; a seat
  // that plays was told them as they happened, and they keep their numbers.
  if (h.superseded && is_spectator(seat) && state_.settings.spectator_delay_turns() > 0) return false;
  return seat < 64 && (h.seat_mask & (std::uint64_t{1} << seat)) != 0;
}

std::uint64_t Fanout::told_count(std::size_t seat, std::size_t end) const {
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < end && i < state_.history.size(); ++i) n += told(seat, state_.history[i]) ? 1 : 0;
  return n;
}

void Fanout::add_told(std::size_t seat, std::size_t first, std::size_t end,
                      google::protobuf::RepeatedPtrField<v1::Event>* out) const {
  auto number = told_count(seat, first);
  for (std::size_t i = first; i < end && i < state_.history.size(); ++i) {
    const auto& h = state_.history[i];
    if (!told(seat, h)) continue;
    ++number;
    if (h.superseded) continue;  // undone by a rewind: its number stays taken
    auto* e = out->Add();
    *e = h.told;
    e->set_sequence(number);
  }
}

std::size_t Fanout::first_of_turn(const StepStatus& now, std::uint32_t turn) const {
  std::size_t i = 0;
  while (i < now.history_size && state_.history[i].told.turn() < turn) ++i;
  return i;
}

std::size_t Fanout::spectator_end(const StepStatus& now, std::uint32_t turn) const {
  if (now.ended || state_.settings.spectator_delay_turns() == 0) return now.history_size;
  return first_of_turn(now, turn);
}

// ---- Views, decisions, settings. ----

void Fanout::fill_header(std::size_t seat, const StepStatus& now, const rules::Game& shown, std::size_t history_end,
                         v1::GameView* out) const {
  out->set_game_id(record_.id);
  out->set_seed_commitment(record_.seed_commitment);
  if (!record_.title.empty()) out->set_title(record_.title);
  out->set_sequence(told_count(seat, history_end));
  out->set_step(shown.step());
  out->set_paused(now.paused);
  out->set_ended(now.ended);
  // A spectator watches the past: nothing of the open step (its deadline)
  // and no measure of how far behind it is beyond the game's own setting.
  if (is_spectator(seat) && !now.ended) {
    out->set_delayed_turns(state_.settings.spectator_delay_turns());
  } else {
    out->set_deadline_unix(now.deadline_ms / 1000);
  }
}

void Fanout::fill_view(std::size_t seat, const StepStatus& now, v1::GameView* out) {
  auto& link = links_.at(seat);
  link.shown.reset();
  const auto& id = state_.seats[seat].seat.id;
  if (now.ended) {
    // At the end of the game everything is revealed.
    codec::to_proto(now.game->view_for(std::string(kUmpireSeat), state_.view_settings), out);
    out->set_seat(id);
    out->set_seed_hex(hex(state_.seed));
    out->set_result(now.end_text);
    fill_header(seat, now, *now.game, now.history_size, out);
  } else if (is_spectator(seat)) {
    rules::ViewSettings shared;
    shared.side_shared_vision = true;
    codec::to_proto(now.spectator_game->view_for(state_.spectator_eyes(), shared), out);
    out->set_seat(id);
    fill_header(seat, now, *now.spectator_game, spectator_end(now, now.spectator_turn), out);
  } else {
    rules::View view = now.game->view_for(id, state_.view_settings);
    codec::to_proto(view, out);
    link.shown = std::move(view);
    link.shown_of = now.game;
    fill_header(seat, now, *now.game, now.history_size, out);
  }
}

rules::SeatKnowledge Fanout::knowledge_of(std::size_t seat, const rules::Game& game) {
  auto& link = links_.at(seat);
  if (link.shown && link.shown_of.get() == &game) return rules::SeatKnowledge(*link.shown);
  return rules::SeatKnowledge(game.view_for(state_.seats[seat].seat.id, state_.view_settings));
}

rules::SeatKnowledge Fanout::knowledge_of(std::size_t seat) { return knowledge_of(seat, *state_.game); }

void Fanout::decisions_of(std::size_t seat, const StepStatus& now, v1::DecisionsOwed* out) {
  const auto& id = state_.seats[seat].seat.id;
  out->set_game_id(record_.id);
  out->set_step(now.game->step());
  out->set_locked(now.locked.contains(id));
  // The umpire sees every decision (to answer for empty seats), but not
  // what the other seats answered.
  const bool umpire = is_umpire(seat);
  const bool owes = std::any_of(now.pending.begin(), now.pending.end(), [&](const auto& d) { return d.seat == id; });
  if (!owes && !umpire) return;
  // Each decision told as the seat knows its pieces: its prompt, its options.
  const auto knows = knowledge_of(seat, *now.game);
  for (const auto& d : now.pending) {
    if (d.seat != id && !umpire) continue;
    codec::to_proto(rules::tell_decision(d, knows), out->add_decisions());
    if (d.seat != id) continue;
    if (auto it = now.answers.find(d.id); it != now.answers.end()) codec::to_proto(it->second, out->add_answers());
  }
}

v1::SeatStatus Fanout::seat_status_of(const StepStatus& now) const {
  v1::SeatStatus st;
  st.set_game_id(record_.id);
  st.set_step(now.game->step());
  for (const auto& s : now.owing()) {
    st.add_owing(s);
    if (now.locked.contains(s)) st.add_locked(s);
  }
  for (const auto& b : now.bots) st.add_bots(b);
  return st;
}

v1::GameSettings Fanout::settings_for(std::size_t seat) const {
  v1::GameSettings out = state_.settings;
  // A webhook URL is a bearer secret (Discord's and Slack's are): the game's
  // hooks were set by whoever made the game, which is the umpire's business.
  if (!is_umpire(seat)) {
    for (auto& hook : *out.mutable_webhooks()) hook.set_url("");
  }
  return out;
}

// ---- Joining. ----

void Fanout::joined(std::size_t seat, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id,
                    const std::string& resume_token, const v1::JoinGame& request) {
  const auto now = state_.status();
  auto& link = links_.at(seat);
  v1::Envelope reply;
  reply.set_correlation_id(correlation_id);
  auto* joined = reply.mutable_joined();
  joined->set_game_id(record_.id);
  joined->set_seat(state_.seats[seat].seat.id);
  joined->set_resume_token(resume_token);
  // The seat's other connections hold the view it was last sent; a change
  // can follow for all of them only if this one is sent that view too.
  const bool others = std::any_of(link.peers.begin(), link.peers.end(), [&](const std::weak_ptr<Peer>& p) {
    auto held = p.lock();
    return held && held != peer;
  });
  std::optional<rules::View> before = std::move(link.shown);
  fill_view(seat, *now, joined->mutable_view());
  if (others && !(before && link.shown && *before == *link.shown)) link.shown.reset();
  *joined->mutable_settings() = settings_for(seat);
  if (const auto* ruleset = codec::find_ruleset(state_.game->ruleset())) {
    codec::to_proto(ruleset->info(), joined->mutable_ruleset());
  }
  peer->send(make_outgoing(std::move(reply)));

  if (!is_spectator(seat)) {
    v1::Envelope owed;
    decisions_of(seat, *now, owed.mutable_decisions());
    peer->send(make_outgoing(std::move(owed)));
    v1::Envelope status;
    *status.mutable_seat_status() = seat_status_of(*now);
    peer->send(make_outgoing(std::move(status)));
  }
  history(seat, peer, *now, request);
}

bool Fanout::may_read(std::size_t seat, const v1::ChatMessage& m) const {
  const auto& reader = state_.seats[seat].seat;
  if (RoomState::is_umpire(reader)) return true;
  switch (m.channel()) {
    case v1::CHAT_CHANNEL_ALL: return true;
    case v1::CHAT_CHANNEL_SIDE: return !RoomState::is_spectator(reader) && reader.side == m.side();
    case v1::CHAT_CHANNEL_WING: return reader.id == m.from_seat();
    case v1::CHAT_CHANNEL_UMPIRE: return reader.id == m.from_seat() || reader.id == m.to_seat();
    default: return false;
  }
}

std::uint64_t Fanout::chat_count(std::size_t seat) const {
  return static_cast<std::uint64_t>(
      std::count_if(state_.chat.begin(), state_.chat.end(), [&](const auto& c) { return may_read(seat, c); }));
}

void Fanout::history(std::size_t seat, const std::shared_ptr<Peer>& peer, const StepStatus& now,
                     const v1::JoinGame& request) {
  const bool want_events = request.last_sequence() > 0 || request.full_history();
  const std::size_t end = is_spectator(seat) ? spectator_end(now, now.spectator_turn) : now.history_size;

  // The seat's events after the one it has, and its chat after the one it
  // has, in pages; the last page says so (more = false).
  google::protobuf::RepeatedPtrField<v1::Event> events;
  if (want_events) add_told(seat, 0, end, &events);
  std::size_t e = 0;
  while (e < static_cast<std::size_t>(events.size()) && events[static_cast<int>(e)].sequence() <= request.last_sequence() &&
         !request.full_history()) {
    ++e;
  }
  std::vector<v1::ChatMessage> chat;
  std::uint64_t number = 0;
  for (const auto& c : state_.chat) {
    if (!may_read(seat, c)) continue;
    ++number;
    if (number <= request.last_chat_sequence()) continue;
    chat.push_back(c);
    chat.back().set_sequence(number);
  }
  std::size_t c = 0;
  do {
    v1::Envelope env;
    auto* since = env.mutable_events_since();
    since->set_game_id(record_.id);
    for (std::size_t n = 0; n < kPage && e < static_cast<std::size_t>(events.size()); ++n) {
      *since->add_events() = std::move(events[static_cast<int>(e++)]);
    }
    for (std::size_t n = 0; n < kPage && c < chat.size(); ++n) *since->add_chat() = std::move(chat[c++]);
    since->set_more(e < static_cast<std::size_t>(events.size()) || c < chat.size());
    peer->send(make_outgoing(std::move(env)));
  } while (e < static_cast<std::size_t>(events.size()) || c < chat.size());
}

// ---- Pushes. ----

void Fanout::seat_status(const StepStatus& now) {
  v1::Envelope env;
  *env.mutable_seat_status() = seat_status_of(now);
  auto out = make_outgoing(std::move(env));
  for (std::size_t s = 0; s < links_.size(); ++s) {
    if (!is_spectator(s)) links_.send(s, out);
  }
}

void Fanout::fresh_state(const StepStatus& now) {
  for (std::size_t s = 0; s < links_.size(); ++s) {
    if (!links_.connected(s)) {
      links_.at(s).shown.reset();
      continue;
    }
    v1::Envelope view;
    fill_view(s, now, view.mutable_view());
    links_.send(s, make_outgoing(std::move(view)));
    if (is_spectator(s)) continue;
    v1::Envelope owed;
    decisions_of(s, now, owed.mutable_decisions());
    links_.send(s, make_outgoing(std::move(owed)));
  }
  seat_status(now);
}

void Fanout::step_to(std::size_t seat, const StepOut& step, const StepStatus& now) {
  auto& link = links_.at(seat);
  auto out = std::make_shared<Outgoing>(Outgoing::OnArena{});
  auto* sr = out->build()->mutable_step_resolved();
  sr->set_game_id(record_.id);
  sr->set_step(step.step);
  if (is_spectator(seat)) {
    // Spectators are told a turn's events once the delay has passed them;
    // at the end, everything the delay still held back.
    const bool delayed = state_.settings.spectator_delay_turns() > 0;
    add_told(seat, delayed ? first_of_turn(now, step.spectator_turn_before) : step.first_event,
             delayed && !now.ended ? spectator_end(now, now.spectator_turn) : step.end_event, sr->mutable_events());
    fill_view(seat, now, sr->mutable_view());
    return links_.send(seat, std::move(out));
  }
  add_told(seat, step.first_event, step.end_event, sr->mutable_events());
  if (!link.shown || now.ended) {
    fill_view(seat, now, sr->mutable_view());
    decisions_of(seat, now, sr->mutable_next());  // what it owes next: the step just opened
    return links_.send(seat, std::move(out));
  }
  // Most of a view is as it was a step ago: the seat is sent what changed,
  // still built by the one path to what it may see (refresh_view), into the
  // view it was sent.
  const auto& id = state_.seats[seat].seat.id;
  rules::ViewUpdate update;
  now.game->refresh_view(id, state_.view_settings, *link.shown, update);
  link.shown_of = now.game;
  if (!codec::to_proto_change(*link.shown, update, sr->mutable_view(), sr->mutable_change())) {
    codec::to_proto(*link.shown, sr->mutable_view());
  }
  fill_header(seat, now, *now.game, step.end_event, sr->mutable_view());
  decisions_of(seat, now, sr->mutable_next());  // what it owes next: the step just opened
  if (!sr->has_change()) return links_.send(seat, std::move(out));

  // Connections of protocol 1.0 get the same StepResolved with its view whole.
  OutgoingPtr changed = std::move(out);
  OutgoingPtr whole;
  for (const auto& p : link.peers) {
    auto peer = p.lock();
    if (!peer) continue;
    if (peer->takes_view_changes()) {
      peer->send(changed);
      continue;
    }
    if (!whole) {
      auto copy = std::make_shared<Outgoing>(Outgoing::OnArena{});
      auto* whole_sr = copy->build()->mutable_step_resolved();
      *whole_sr = changed->envelope().step_resolved();
      whole_sr->clear_change();
      whole_sr->clear_view();
      codec::to_proto(*link.shown, whole_sr->mutable_view());
      fill_header(seat, now, *now.game, step.end_event, whole_sr->mutable_view());
      whole = std::move(copy);
    }
    peer->send(whole);
  }
}

void Fanout::notice(const NoticeOut& n, const StepStatus& now) {
  // A spectator watching late hears the notice without the open step's
  // number or deadline.
  auto build = [&](const std::string& text, bool live) {
    v1::Envelope env;
    auto* out = env.mutable_notice();
    out->set_game_id(record_.id);
    out->set_kind(n.kind);
    out->set_text(text);
    out->set_paused(now.paused);
    if (live) {
      out->set_step(n.step);
      out->set_deadline_unix(now.deadline_ms / 1000);
    }
    return make_outgoing(std::move(env));
  };
  const auto players = build(n.text, true);
  const auto umpire = n.umpire_text.empty() ? players : build(n.umpire_text, true);
  OutgoingPtr spectators;
  for (std::size_t s = 0; s < links_.size(); ++s) {
    if (!is_spectator(s)) {
      links_.send(s, is_umpire(s) ? umpire : players);
    } else if (n.audience == Audience::kEveryone) {
      const bool live = now.ended || state_.settings.spectator_delay_turns() == 0;
      if (!spectators) spectators = build(live || n.spectator_text.empty() ? n.text : n.spectator_text, live);
      links_.send(s, spectators);
    }
  }
}

void Fanout::reopen(const ReopenOut& r, const StepStatus& now) {
  // The umpire learns why; each seat only which of its own decisions are
  // involved (the reason names the other side's units).
  const auto owing = now.owing();
  for (std::size_t s = 0; s < links_.size(); ++s) {
    if (is_spectator(s) || !links_.connected(s)) continue;
    const auto& id = state_.seats[s].seat.id;
    std::string text;
    if (is_umpire(s)) {
      text = "step " + std::to_string(r.step) + " reopened: " + rules::tell_text(r.reason, knowledge_of(s, *now.game));
    } else if (owing.contains(id)) {
      std::string mine;
      for (const auto& d : now.pending) {
        if (d.seat != id || std::find(r.decisions.begin(), r.decisions.end(), d.id) == r.decisions.end()) continue;
        mine += (mine.empty() ? "" : "; ") + rules::tell_text(d.prompt, knowledge_of(s, *now.game));
      }
      text = "step " + std::to_string(r.step) + " reopened: orders collided when it resolved. " +
             (mine.empty() ? std::string("Yours may stand: lock again.") : "Change your order(s): " + mine + ".");
    } else {
      text = "step " + std::to_string(r.step) + " reopened: orders collided when it resolved.";
    }
    v1::Envelope env;
    auto* n = env.mutable_notice();
    n->set_game_id(record_.id);
    n->set_kind("reopened");
    n->set_text(text);
    n->set_step(r.step);
    n->set_deadline_unix(now.deadline_ms / 1000);
    n->set_paused(now.paused);
    links_.send(s, make_outgoing(std::move(env)));
    // Every seat's lock is undone, on every page: each is sent what it owes, unlocked.
    v1::Envelope owed;
    decisions_of(s, now, owed.mutable_decisions());
    links_.send(s, make_outgoing(std::move(owed)));
  }
}

void Fanout::chat(std::size_t index) {
  const auto& message = state_.chat[index];
  // Each reader numbers the chat it may read.
  for (std::size_t s = 0; s < links_.size(); ++s) {
    if (!may_read(s, message) || !links_.connected(s)) continue;
    std::uint64_t number = 0;
    for (std::size_t i = 0; i <= index; ++i) number += may_read(s, state_.chat[i]) ? 1 : 0;
    v1::Envelope env;
    *env.mutable_chat() = message;
    env.mutable_chat()->set_sequence(number);
    links_.send(s, make_outgoing(std::move(env)));
  }
}

void Fanout::ended(const StepStatus& now) {
  v1::Envelope env;
  auto* n = env.mutable_notice();
  n->set_game_id(record_.id);
  n->set_kind("ended");
  n->set_text(now.end_text);
  n->set_seed_hex(hex(state_.seed));  // the dice can now be verified by everyone
  auto out = make_outgoing(std::move(env));
  for (std::size_t s = 0; s < links_.size(); ++s) links_.send(s, out);
}

void Fanout::spectators_catch_up(const StepStatus& now, std::uint32_t from_turn) {
  for (std::size_t s = 0; s < links_.size(); ++s) {
    if (!is_spectator(s) || !links_.connected(s)) continue;
    v1::Envelope env;
    env.mutable_events_since()->set_game_id(record_.id);
    add_told(s, first_of_turn(now, from_turn), now.history_size, env.mutable_events_since()->mutable_events());
    links_.send(s, make_outgoing(std::move(env)));
  }
}

void Fanout::perform(const Effects& effects) {
  if (!effects.status) return;  // an entry before a snapshot: nothing to tell
  const auto& now = *effects.status;
  if (effects.spectators_from_turn) spectators_catch_up(now, *effects.spectators_from_turn);
  if (effects.step) {
    for (std::size_t s = 0; s < links_.size(); ++s) {
      if (!links_.connected(s)) {
        links_.at(s).shown.reset();
        continue;
      }
      step_to(s, *effects.step, now);
    }
  }
  if (effects.fresh_state) fresh_state(now);
  if (effects.reopen) reopen(*effects.reopen, now);
  if (effects.seat_status && !effects.fresh_state) seat_status(now);
  for (const auto& n : effects.notices) notice(n, now);
  if (effects.chat && *effects.chat < state_.chat.size()) chat(*effects.chat);
}

}  // namespace galloper::server
