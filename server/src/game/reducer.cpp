#include "server/src/game/reducer.hpp"

#include <ctime>

#include "codec/edit_codec.hpp"
#include "codec/play_codec.hpp"
#include "rules/core/edit.hpp"
#include "server/src/game/log_entry.hpp"
#include "server/src/game/replay.hpp"
#include "server/src/game/telling.hpp"
#include "server/src/notify/notifications.hpp"

namespace galloper::server {

namespace {

using Outcome = std::variant<Effects, std::string>;

std::string action_name(const v1::UmpireAction& a) {
  switch (a.action_case()) {
    case v1::UmpireAction::kPause: return "pause";
    case v1::UmpireAction::kResume: return "resume";
    case v1::UmpireAction::kForceResolve: return "force_resolve";
    case v1::UmpireAction::kSetDeadline: return "set_deadline";
    case v1::UmpireAction::kBroadcast: return "broadcast";
    case v1::UmpireAction::kEndGame: return "end_game";
    case v1::UmpireAction::kRewind: return "rewind";
    case v1::UmpireAction::kEditState: return "edit_state";
    case v1::UmpireAction::kSetBotSeat: return "set_bot_seat";
    default: return "unknown";
  }
}

// "2025-03-30 18:00 UTC", for people.
std::string utc_text(std::int64_t ms) {
  const std::time_t t = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M UTC", &tm);
  return buf;
}

const char* policy_name(v1::MissedDeadline policy) {
  switch (policy) {
    case v1::MISSED_DEADLINE_REPEAT_LAST: return "repeat last answer";
    case v1::MISSED_DEADLINE_STANDING_ORDERS: return "standing orders";
    default: return "hold, halt or stand";
  }
}

// Events are numbered by their place in the history (every seat's count is
// worked out from it when they are sent).
void add_history(RoomState& state, std::vector<HistoryEvent> told, bool superseded) {
  for (auto& h : told) {
    h.superseded = superseded;
    state.history.push_back(std::move(h));
  }
}

Outcome on_answer(RoomState& state, const v1::StoredAnswer& a, const EntryMeta& meta) {
  // Before the snapshot an open step's entries are past: its resolution follows.
  if (meta.superseded || meta.before_snapshot || a.step() != state.game->step()) return Effects{};
  auto answer = codec::from_proto(a.answer().answer(), a.answer().seat());
  state.answers[answer.decision_id] = std::move(answer);
  return Effects{};
}

Outcome on_lock(RoomState& state, const v1::StoredLock& l, const EntryMeta& meta) {
  if (meta.superseded || meta.before_snapshot || l.step() != state.game->step()) return Effects{};
  for (const auto& d : l.defaulted()) {
    auto answer = codec::from_proto(d.answer(), d.seat());
    state.answers[answer.decision_id] = std::move(answer);
  }
  state.locked.insert(l.seat());
  Effects out;
  out.seat_status = true;
  if (!l.why().empty()) {
    out.notices.push_back(NoticeOut{"defaulted",
                                    "seat " + l.seat() + " " + l.why() + ": " + std::to_string(l.defaulted_size()) +
                                        " decision(s) took " + policy_name(state.settings.missed_deadline()),
                                    "", 0, Audience::kPlayers});
  }
  return out;
}

Outcome on_resolve(RoomState& state, const v1::StoredStep& stored, const EntryMeta& meta, const Prepared* prepared) {
  if (meta.superseded) {
    // Undone by a rewind; its events keep their places in the numbering.
    if (auto told = told_in(stored)) add_history(state, std::move(*told), true);
    return Effects{};
  }
  for (const auto& a : stored.answers()) {
    auto answer = codec::from_proto(a.answer(), a.seat());
    state.previous[answer.decision_id] = std::move(answer);
  }
  state.resolve_seq[stored.step()] = meta.seq;
  if (meta.before_snapshot) {
    // The snapshot stands for the state; the history comes from the entry.
    auto told = told_in(stored);
    if (!told) return "log entry " + std::to_string(meta.seq) + " kept no events";
    add_history(state, std::move(*told), false);
    state.answers.clear();
    state.locked.clear();
    state.deadline_ms = 0;
    state.warned_deadline = false;
    return Effects{};
  }

  std::shared_ptr<const rules::Game> next;
  std::vector<HistoryEvent> told;
  if (prepared != nullptr && prepared->next) {
    next = prepared->next;
    told = prepared->told;
  } else {
    auto applied = resolve_stored(*state.game, state.seed, stored, meta.seq, meta.state_hash);
    if (applied.error) return *applied.error;
    next = std::move(applied.next);
    auto kept = told_in(stored);
    told = kept ? std::move(*kept) : tell_step(state, *state.game, *next, applied.events);
  }

  Effects out;
  StepOut step;
  step.step = state.game->step();
  step.first_event = state.history.size();
  step.spectator_turn_before = state.spectator_turn();
  add_history(state, std::move(told), false);
  step.end_event = state.history.size();

  const auto old_turn = state.game->turn();
  state.game = std::move(next);
  if (state.game->turn() != old_turn && !state.turn_start.contains(state.game->turn())) {
    state.turn_start[state.game->turn()] = state.game;
  }
  state.open_step();

  step.turn_started = state.game->turn() != old_turn;
  out.seat_status = true;
  if (state.ended()) {
    out.ended = true;
    out.notify.push_back(NotifyOut{"game_ended", "", state.end_text()});
  } else {
    out.notify.push_back(NotifyOut{"step_resolved", "",
                                   "step " + std::to_string(step.step) + " resolved; now turn " +
                                       std::to_string(state.game->turn()) + ", " + state.game->phase()});
    for (const auto& seat : state.owing_seats()) {
      if (state.is_bot(seat)) continue;  // the bot answers at once
      out.notify.push_back(NotifyOut{"decision_owed", seat,
                                     "seat " + seat + " owes decisions at step " + std::to_string(state.game->step())});
    }
  }
  out.step = std::move(step);
  return out;
}

Outcome on_deadline(RoomState& state, const v1::StoredDeadline& d, const EntryMeta& meta) {
  if (meta.superseded || meta.before_snapshot || d.step() != state.game->step()) return Effects{};
  Effects out;
  if (d.warned()) {
    state.warned_deadline = true;
    for (const auto& seat : state.owing_seats()) {
      if (!state.locked.contains(seat)) {
        out.notify.push_back(NotifyOut{"deadline_near", seat,
                                       "the deadline of step " + std::to_string(d.step()) + " is near"});
      }
    }
    return out;
  }
  state.deadline_ms = d.deadline_ms();
  out.notices.push_back(
      NoticeOut{"deadline", "step " + std::to_string(d.step()) + " closes at the deadline", "", 0, Audience::kPlayers});
  out.notify.push_back(
      NotifyOut{"deadline", "", "step " + std::to_string(d.step()) + " closes at " + utc_text(d.deadline_ms())});
  return out;
}

v1::AuditEntry audit_entry(const v1::StoredUmpire& u, bool undone) {
  const auto& action = u.action();
  v1::AuditEntry entry;
  entry.set_at_unix(u.at_ms() / 1000);
  entry.set_seat(u.seat());
  entry.set_action(action_name(action));
  entry.set_reason(action.reason());
  entry.set_step(u.step());
  if (action.has_broadcast()) entry.set_detail(action.broadcast().text());
  if (action.has_rewind()) entry.set_detail("to step " + std::to_string(action.rewind().to_step()));
  if (action.has_set_deadline()) entry.set_detail(std::to_string(action.set_deadline().deadline_unix()));
  if (action.has_end_game()) entry.set_detail(action.end_game().result());
  if (action.has_set_bot_seat()) {
    entry.set_detail(action.set_bot_seat().seat() + (action.set_bot_seat().bot() ? " to the bot" : " back from the bot"));
  }
  if (action.has_edit_state()) {
    entry.set_detail(rules::describe(codec::from_proto(action.edit_state())) + (undone ? " (undone by a rewind)" : ""));
  }
  return entry;
}

void set_bot_seat(RoomState& state, const v1::SetBotSeat& action) {
  auto* seats = state.settings.mutable_bot_seats();
  if (action.bot()) {
    if (!state.is_bot(action.seat())) seats->Add(std::string(action.seat()));
    return;
  }
  for (int i = 0; i < seats->size(); ++i) {
    if (seats->Get(i) == action.seat()) {
      seats->erase(seats->begin() + i);
      return;
    }
  }
}

Outcome on_umpire(RoomState& state, const v1::StoredUmpire& u, const EntryMeta& meta) {
  if (meta.superseded) return Effects{};
  const auto& action = u.action();
  const auto& who = u.seat();
  const auto at_ms = u.at_ms();
  Effects out;
  const std::string reason = action.reason();
  switch (action.action_case()) {
    case v1::UmpireAction::kPause:
      state.paused = true;
      state.paused_by = who;
      state.paused_at_ms = at_ms;
      state.pause_until_ms = 0;
      if (who != kUmpireSeat && state.settings.max_pause_seconds() > 0) {
        state.pause_until_ms = at_ms + static_cast<std::int64_t>(state.settings.max_pause_seconds()) * 1000;
      }
      if (auto* s = state.seat_named(who); s != nullptr && !RoomState::is_umpire(s->seat)) ++s->pauses_used;
      out.notices.push_back(NoticeOut{"paused", who + " paused the game: " + reason, "", 0, Audience::kEveryone});
      break;
    case v1::UmpireAction::kResume:
      // The open step keeps the time it had left when play stopped.
      if (state.deadline_ms != 0 && state.paused) state.deadline_ms += at_ms - state.paused_at_ms;
      state.paused = false;
      state.pause_until_ms = 0;
      out.notices.push_back(NoticeOut{"resumed",
                                      who == "server" ? "the pause ran out; play resumes"
                                                      : who + " resumed the game: " + reason,
                                      "", 0, Audience::kEveryone});
      break;
    case v1::UmpireAction::kForceResolve:
      // Its effect is the locks written after it; spectators see the step's result, not how it came.
      out.notices.push_back(NoticeOut{"forced", "the umpire forced step " + std::to_string(u.step()) + ": " + reason,
                                      "", 0, Audience::kPlayers});
      break;
    case v1::UmpireAction::kSetDeadline:
      state.deadline_ms = action.set_deadline().deadline_unix() * 1000;
      out.notices.push_back(NoticeOut{"deadline", "the umpire set the deadline: " + reason, "", 0, Audience::kPlayers});
      break;
    case v1::UmpireAction::kBroadcast:
      out.notices.push_back(NoticeOut{"broadcast", action.broadcast().text(), "", 0, Audience::kEveryone});
      break;
    case v1::UmpireAction::kEndGame:
      // Every seat is shown the whole table, spectators what they had not been told yet.
      out.spectators_from_turn = state.spectator_turn();
      out.fresh_state = true;
      state.ended_by_umpire = true;
      state.umpire_result = action.end_game().result();
      state.open_step();
      out.ended = true;
      out.seat_status = true;
      out.notify.push_back(NotifyOut{"game_ended", "", state.end_text()});
      break;
    case v1::UmpireAction::kRewind:
      // The entries of the undone steps are superseded in the log and were
      // skipped on the way here, so the state is already the rewound one;
      // what the open step had gathered goes.
      state.answers.clear();
      state.locked.clear();
      state.deadline_ms = 0;
      state.warned_deadline = false;
      for (auto it = state.resolve_seq.lower_bound(action.rewind().to_step()); it != state.resolve_seq.end();) {
        it = state.resolve_seq.erase(it);
      }
      out.fresh_state = true;
      out.notices.push_back(NoticeOut{"rewound",
                                      "the umpire rewound the game from step " + std::to_string(u.step()) +
                                          " to step " + std::to_string(action.rewind().to_step()) + ": " + reason,
                                      "", action.rewind().to_step(), Audience::kEveryone,
                                      "the umpire rewound the game: " + reason});
      break;
    case v1::UmpireAction::kSetBotSeat:
      set_bot_seat(state, action.set_bot_seat());
      out.seat_status = true;
      out.notices.push_back(NoticeOut{"bot_seat",
                                      "the umpire gave seat " + action.set_bot_seat().seat() +
                                          (action.set_bot_seat().bot() ? " to the bot: " : " back to its player: ") +
                                          reason,
                                      "", 0, Audience::kEveryone});
      break;
    default:
      break;
  }
  state.audit.push_back(audit_entry(u, false));
  return out;
}

Outcome on_edit(RoomState& state, const v1::StoredUmpire& u, const EntryMeta& meta, const Prepared* prepared) {
  if (!u.action().has_edit_state()) return "log entry " + std::to_string(meta.seq) + " (edit) is damaged";
  // Undone by a rewind: audited, not applied.
  state.audit.push_back(audit_entry(u, meta.superseded));
  if (meta.superseded) return Effects{};
  const bool had_answers = !state.answers.empty() || !state.locked.empty();
  if (meta.before_snapshot) {
    // The snapshot's state already holds it (snapshots follow resolutions).
    state.answers.clear();
    state.locked.clear();
    return Effects{};
  }
  std::shared_ptr<const rules::Game> next;
  if (prepared != nullptr && prepared->next) {
    next = prepared->next;
  } else {
    auto edited = edit_stored(*state.game, u, meta.seq, meta.state_hash);
    if (edited.error) return *edited.error;
    next = std::move(edited.next);
  }
  state.game = std::move(next);
  // The edit reopens the open step (RULINGS.md "Umpire edits"): answers given
  // to the old state may not fit the new one, so every owing seat answers again.
  state.open_step();
  Effects out;
  out.fresh_state = true;
  out.seat_status = true;
  const std::string again = had_answers ? " (the step is open again: answer anew)" : "";
  // Players learn that the table changed, not what: the edit names a unit and
  // where it went, which only the umpire may know.
  out.notices.push_back(NoticeOut{
      "edited", "the umpire edited the state" + again,
      "the umpire edited the state (" + rules::describe(codec::from_proto(u.action().edit_state())) +
          "): " + u.action().reason() + again,
      state.game->step(), Audience::kEveryone});
  return out;
}

Outcome on_reopen(RoomState& state, const v1::StoredReopen& r, const EntryMeta& meta) {
  if (meta.superseded || meta.before_snapshot || r.step() != state.game->step()) return Effects{};
  state.locked.clear();
  ++state.reopened;
  Effects out;
  out.seat_status = true;
  out.reopen = ReopenOut{r.step(), r.reason(), {r.decisions().begin(), r.decisions().end()}};
  return out;
}

}  // namespace

std::variant<Effects, std::string> apply_entry(RoomState& state, const v1::LogEntry& entry, const EntryMeta& meta,
                                               const Prepared* prepared) {
  Outcome out = Effects{};
  switch (entry.entry_case()) {
    case v1::LogEntry::kAnswer: out = on_answer(state, entry.answer(), meta); break;
    case v1::LogEntry::kLock: out = on_lock(state, entry.lock(), meta); break;
    case v1::LogEntry::kResolve: out = on_resolve(state, entry.resolve(), meta, prepared); break;
    case v1::LogEntry::kDeadline: out = on_deadline(state, entry.deadline(), meta); break;
    case v1::LogEntry::kUmpire: out = on_umpire(state, entry.umpire(), meta); break;
    case v1::LogEntry::kEdit: out = on_edit(state, entry.edit(), meta, prepared); break;
    case v1::LogEntry::kReopen: out = on_reopen(state, entry.reopen(), meta); break;
    case v1::LogEntry::kChat: {
      // Chat, standing orders and hooks stand whatever a rewind undid.
      state.chat.push_back(entry.chat());
      Effects e;
      e.chat = state.chat.size() - 1;
      out = std::move(e);
      break;
    }
    case v1::LogEntry::kStanding:
      if (auto* seat = state.seat_named(entry.standing().seat())) {
        seat->standing = {entry.standing().by_kind().begin(), entry.standing().by_kind().end()};
      }
      break;
    case v1::LogEntry::kNotify:
      if (auto* seat = state.seat_named(entry.notify().seat())) {
        const auto& hook = entry.notify().webhook();
        seat->webhook.reset();
        state.digests.erase("seat:" + seat->seat.id);  // what was queued was for the old hook
        if (!hook.url().empty()) {
          seat->webhook = Webhook{hook.url(), static_cast<WebhookFormat>(hook.format()), hook.daily_digest()};
        }
      }
      break;
    case v1::LogEntry::kDigest:
      if (auto sent = apply_digest(state, entry.digest())) {
        Effects e;
        e.digest = std::pair{entry.digest().hook(), std::move(*sent)};
        out = std::move(e);
      }
      break;
    case v1::LogEntry::ENTRY_NOT_SET:
      return "log entry " + std::to_string(meta.seq) + " holds nothing";
  }
  state.log_seq = meta.seq;
  if (auto* effects = std::get_if<Effects>(&out); effects != nullptr && !meta.before_snapshot) {
    effects->status = state.status();
  }
  return out;
}

}  // namespace galloper::server
