#include "server/src/game/room.hpp"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>

#include "codec/edit_codec.hpp"
#include "codec/odds_codec.hpp"
#include "rules/core/edit.hpp"
#include "rules/core/odds.hpp"
#include "rules/core/tell.hpp"
#include "server/src/game/chat_desk.hpp"
#include "server/src/game/log_entry.hpp"
#include "server/src/game/restore.hpp"
#include "server/src/game/step_desk.hpp"
#include "server/src/game/umpire_desk.hpp"
#include "server/src/network/frame_codec.hpp"

namespace galloper::server {

Room::Room(RoomServices services, persistence::GameRecord record, std::unique_ptr<rules::Game> initial,
           std::vector<persistence::SeatRecord> seats)
    : strand_(net::make_strand(services.ioc)),
      services_(services),
      record_(std::move(record)),
      state_(record_, std::move(initial)),
      fanout_(state_, links_, record_),
      notifications_(services.notifier) {
  links_.init(state_, seats);
  services_.metrics.games_loaded++;
}

Room::~Room() { services_.metrics.games_loaded--; }

std::optional<std::string> Room::restore(const std::vector<persistence::StepRecord>& log,
                                         const std::vector<persistence::SnapshotRecord>& snapshots) {
  return restore_state(state_, log, snapshots, services_.metrics);
}

void Room::start() {
  net::post(strand_, [self = shared_from_this()] {
    self->advance();
    self->do_tick();
  });
}

// ---- Requests, posted onto the strand. ----

template <class Request>
void Room::post_request(void (Room::*handler)(const Request&, const std::shared_ptr<Peer>&, std::uint64_t),
                        Request request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id, bool writes) {
  net::post(strand_, [self = shared_from_this(), handler, request = std::move(request), peer = std::move(peer),
                      correlation_id, writes] {
    if (writes && self->state_.log_seq >= self->max_log_entries_.load()) {
      self->services_.metrics.limited_log++;
      return self->error(peer, correlation_id,
                         Refusal{v1::ERROR_CODE_UNAVAILABLE,
                                 "this game's log is full (" + std::to_string(self->max_log_entries_.load()) +
                                     " entries, the server's limit); it takes no more orders, chat or settings",
                                 {}});
    }
    ((*self).*handler)(request, peer, correlation_id);
  });
}

void Room::join(v1::JoinGame r, std::shared_ptr<Peer> p, std::uint64_t c) { post_request(&Room::do_join, std::move(r), std::move(p), c, false); }
void Room::submit(v1::SubmitAnswer r, std::shared_ptr<Peer> p, std::uint64_t c) { post_request(&Room::do_submit, std::move(r), std::move(p), c, true); }
void Room::lock(v1::LockAnswers r, std::shared_ptr<Peer> p, std::uint64_t c) { post_request(&Room::do_lock, std::move(r), std::move(p), c, true); }
void Room::standing_orders(v1::SetStandingOrders r, std::shared_ptr<Peer> p, std::uint64_t c) { post_request(&Room::do_standing, std::move(r), std::move(p), c, true); }
void Room::umpire(v1::UmpireAction r, std::shared_ptr<Peer> p, std::uint64_t c) { post_request(&Room::do_umpire, std::move(r), std::move(p), c, true); }
void Room::chat(v1::SendChat r, std::shared_ptr<Peer> p, std::uint64_t c) { post_request(&Room::do_chat, std::move(r), std::move(p), c, true); }
void Room::audit(v1::ListAudit r, std::shared_ptr<Peer> p, std::uint64_t c) { post_request(&Room::do_audit, std::move(r), std::move(p), c, false); }
void Room::notifications(v1::SetNotifications r, std::shared_ptr<Peer> p, std::uint64_t c) { post_request(&Room::do_notifications, std::move(r), std::move(p), c, true); }
void Room::odds(v1::OddsRequest r, std::shared_ptr<Peer> p, std::uint64_t c) { post_request(&Room::do_odds, std::move(r), std::move(p), c, false); }

void Room::tick() {
  net::post(strand_, [self = shared_from_this()] { self->do_tick(); });
}

void Room::put_away_if_idle(std::int64_t until_ms, std::function<void(bool)> done) {
  net::post(strand_, [self = shared_from_this(), until_ms, done = std::move(done)] {
    const auto wake = self->next_wake_ms();
    const bool idle = !self->failed_ && !self->reloading_ && self->in_flight_ == 0 && !self->links_.anyone_connected() &&
                      (wake == 0 || wake > until_ms);
    if (idle) self->put_away_ = true;
    done(idle);
  });
}

// ---- Replies and errors. ----

void Room::reply(const std::shared_ptr<Peer>& peer, v1::Envelope envelope, std::uint64_t correlation_id) {
  envelope.set_correlation_id(correlation_id);
  peer->send(make_outgoing(std::move(envelope)));
}

void Room::error(const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id, Refusal refusal) {
  // The rules' reasons name pieces by reference: told as the reader knows them.
  if (const auto reader = links_.seat_of(peer)) {
    refusal.message = rules::tell_text(refusal.message, fanout_.knowledge_of(*reader));
  } else {
    refusal.message = rules::plain_text(refusal.message);
  }
  spdlog::info("{} error {}: {}", peer->describe(), v1::ErrorCode_Name(refusal.code), refusal.message);
  auto e = make_error(correlation_id, refusal.code, std::move(refusal.message));
  auto& context = *e.mutable_error()->mutable_context();
  for (auto& [k, v] : refusal.context) context[k] = std::move(v);
  context["game_id"] = record_.id;
  services_.metrics.errors++;
  peer->send(make_outgoing(std::move(e)));
}

std::optional<std::size_t> Room::holder(const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id) {
  if (failed_) {
    error(peer, correlation_id, {v1::ERROR_CODE_STORAGE, "this game is being reloaded; rejoin it", {}});
    return std::nullopt;
  }
  if (reloading_) {
    error(peer, correlation_id,
          {v1::ERROR_CODE_UNAVAILABLE, "the umpire is rewinding this game; send it again in a moment", {}});
    return std::nullopt;
  }
  auto seat = links_.seat_of(peer);
  if (!seat) {
    error(peer, correlation_id,
          {v1::ERROR_CODE_PERMISSION_DENIED,
           "this connection holds no seat in game " + record_.id + "; join with your invite link first", {}});
  }
  return seat;
}

// ---- Join. ----

void Room::do_join(const v1::JoinGame& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id) {
  if (put_away_ && redirect_) return redirect_(request, peer, correlation_id);
  if (in_flight_ > 0) {
    // The state already holds entries not yet on disk: were the server to
    // stop now, the game would come back without them.
    joins_after_disk_.push_back({request, peer, correlation_id});
    return;
  }
  const auto seat = links_.seat_for_token(request.token());
  if (!seat) {
    spdlog::warn("{} join refused: token matches no seat of game {}", peer->describe(), record_.id);
    return error(peer, correlation_id,
                 {v1::ERROR_CODE_BAD_TOKEN,
                  "that token does not open any seat of game " + record_.id + "; ask the umpire for a fresh invite link",
                  {}});
  }
  const auto resume = links_.attach(*seat, peer);
  peer->set_seat(record_.id, state_.seats[*seat].seat.id);
  spdlog::info("{} joined", peer->describe());
  fanout_.joined(*seat, peer, correlation_id, resume, request);
}

// ---- The open step. ----

void Room::do_submit(const v1::SubmitAnswer& request, const std::shared_ptr<Peer>& peer,
                     std::uint64_t correlation_id) {
  const auto held = holder(peer, correlation_id);
  if (!held) return;
  StepDesk desk(state_);
  auto seat = desk.acting_seat(*held, request.step(), request.seat());
  if (auto* refused = std::get_if<Refusal>(&seat)) return error(peer, correlation_id, std::move(*refused));
  auto entry = desk.answer(std::get<std::size_t>(seat), request.answer());
  if (auto* refused = std::get_if<Refusal>(&entry)) return error(peer, correlation_id, std::move(*refused));
  // Acknowledged only once it is on disk.
  write(std::move(std::get<v1::LogEntry>(entry)), 0, nullptr,
        [self = shared_from_this(), peer, correlation_id, id = request.answer().decision_id()] {
          v1::Envelope env;
          env.mutable_answer_accepted()->set_decision_id(id);
          self->reply(peer, std::move(env), correlation_id);
        });
}

void Room::do_lock(const v1::LockAnswers& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id) {
  const auto held = holder(peer, correlation_id);
  if (!held) return;
  StepDesk desk(state_);
  auto seat = desk.acting_seat(*held, request.step(), request.seat());
  if (auto* refused = std::get_if<Refusal>(&seat)) return error(peer, correlation_id, std::move(*refused));
  auto lock = desk.lock(std::get<std::size_t>(seat));
  if (auto* refused = std::get_if<Refusal>(&lock)) return error(peer, correlation_id, std::move(*refused));
  auto& taken = std::get<StepDesk::Lock>(lock);
  write(std::move(taken.entry), 0, nullptr,
        [self = shared_from_this(), peer, correlation_id, locked = std::move(taken.reply)]() mutable {
          v1::Envelope env;
          *env.mutable_answers_locked() = std::move(locked);
          self->reply(peer, std::move(env), correlation_id);
        });
}

void Room::do_standing(const v1::SetStandingOrders& request, const std::shared_ptr<Peer>& peer,
                       std::uint64_t correlation_id) {
  const auto seat = holder(peer, correlation_id);
  if (!seat) return;
  const auto& held = state_.seats[*seat].seat;
  if (RoomState::is_spectator(held) || RoomState::is_umpire(held)) {
    return error(peer, correlation_id, {v1::ERROR_CODE_PERMISSION_DENIED, "only a player's seat has standing orders", {}});
  }
  v1::LogEntry entry;
  entry.mutable_standing()->set_seat(held.id);
  *entry.mutable_standing()->mutable_by_kind() = request.by_kind();
  write(std::move(entry), 0, nullptr, [self = shared_from_this(), peer, correlation_id] {
    v1::Envelope env;
    env.mutable_standing_orders_set();
    self->reply(peer, std::move(env), correlation_id);
  });
}

// ---- The umpire. ----

void Room::do_umpire(const v1::UmpireAction& request, const std::shared_ptr<Peer>& peer,
                     std::uint64_t correlation_id) {
  const auto seat = holder(peer, correlation_id);
  if (!seat) return;
  UmpireDesk desk(state_);
  if (auto refused = desk.check(*seat, request)) return error(peer, correlation_id, std::move(*refused));
  if (request.has_rewind()) return do_rewind(request, *seat, peer, correlation_id);
  if (request.has_edit_state()) return do_edit(request, *seat, peer, correlation_id);

  const auto& who = state_.seats[*seat].seat.id;
  const auto* action = v1::UmpireAction::descriptor()->FindFieldByNumber(request.action_case());
  spdlog::info("{} umpire action {}", peer->describe(), action != nullptr ? action->name() : "?");
  write(desk.entry(who, request, services_.clock.now_ms()), 0, nullptr,
        [self = shared_from_this(), peer, correlation_id, name = action != nullptr ? action->name() : ""] {
          v1::Envelope env;
          env.mutable_umpire_done()->set_action(name);
          self->reply(peer, std::move(env), correlation_id);
        });
  if (request.has_force_resolve()) {
    StepDesk steps(state_);
    for (const auto& s : state_.owing_seats()) {
      if (state_.locked.contains(s)) continue;
      if (auto lock = steps.default_lock(s, "was forced by the umpire")) write(std::move(*lock));
    }
  }
}

void Room::do_rewind(const v1::UmpireAction& request, std::size_t seat, const std::shared_ptr<Peer>& peer,
                     std::uint64_t correlation_id) {
  UmpireDesk desk(state_);
  auto point = desk.rewind_point(request.rewind().to_step());
  if (auto* refused = std::get_if<Refusal>(&point)) return error(peer, correlation_id, std::move(*refused));
  if (in_flight_ > 0) {
    return error(peer, correlation_id,
                 {v1::ERROR_CODE_UNAVAILABLE, "the game is being saved; send the rewind again in a moment", {}});
  }
  persistence::RewindRecord rewind;
  rewind.game_id = record_.id;
  rewind.after_seq = std::get<std::uint64_t>(point);
  rewind.kinds = rewound_kinds();
  rewind.entry = encode_entry(desk.entry(state_.seats[seat].seat.id, request, services_.clock.now_ms()));
  rewind.entry.game_id = record_.id;
  rewind.entry.seq = state_.log_seq + 1;
  rewind.entry.created_unix = services_.clock.now_unix();
  // Nothing else is written until the room has reloaded from the rewound log.
  reloading_ = true;
  spdlog::info("{} umpire action rewind to step {} (after log entry {}): {}", peer->describe(),
               request.rewind().to_step(), rewind.after_seq, request.reason());
  services_.store.rewind(std::move(rewind), [self = shared_from_this(), peer, correlation_id](persistence::Status status) {
    net::post(self->strand_, [self, peer, correlation_id, status] {
      if (self->failed_) return;
      if (!status.ok()) {
        // Nothing of the rewind is on disk; the game is as it was.
        self->reloading_ = false;
        return self->error(peer, correlation_id,
                           {v1::ERROR_CODE_STORAGE,
                            "the rewind could not be stored (" + status.error->message + "); nothing changed", {}});
      }
      self->reload_after_rewind(peer, correlation_id);
    });
  });
}

void Room::reload_after_rewind(const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id) {
  // The same path as loading the game: snapshots, then the log.
  auto self = shared_from_this();
  services_.store.load_snapshots(
      record_.id, snapshot_turns_back(record_),
      [self, peer, correlation_id](std::vector<persistence::SnapshotRecord> snapshots, persistence::Status status) {
        if (!status.ok()) return net::post(self->strand_, [self, status] { self->fail(status.error->message); });
        self->services_.store.load_steps(
            self->record_.id, 0,
            [self, peer, correlation_id, snapshots = std::move(snapshots)](std::vector<persistence::StepRecord> log,
                                                                           persistence::Status status) mutable {
              net::post(self->strand_, [self, peer, correlation_id, snapshots = std::move(snapshots),
                                        log = std::move(log), status] {
                if (self->failed_) return;
                if (!status.ok()) return self->fail(status.error->message);
                self->state_.reset();
                Effects rewound;
                if (auto problem = restore_state(self->state_, log, snapshots, self->services_.metrics, &rewound)) {
                  return self->fail(*problem);
                }
                self->reloading_ = false;
                v1::Envelope env;
                env.mutable_umpire_done()->set_action("rewind");
                self->reply(peer, std::move(env), correlation_id);
                // The rewind's own effects, as its entry says them: every seat's
                // new view and decisions, and the notice.
                self->perform(rewound, self->state_.log_seq);
                self->advance();
              });
            });
      });
}

void Room::do_edit(const v1::UmpireAction& request, std::size_t seat, const std::shared_ptr<Peer>& peer,
                   std::uint64_t correlation_id) {
  const rules::StateEdit edit = codec::from_proto(request.edit_state());
  auto edited = state_.game->edit(edit);
  if (!edited) {
    return error(peer, correlation_id,
                 {v1::ERROR_CODE_INVALID_ARGUMENT, "the edit was refused: " + edited.error().reason + "; nothing changed",
                  {{"code", edited.error().code}}});
  }
  Prepared prepared;
  prepared.next = std::move(edited.value());
  const auto hash = prepared.next->state_hash();
  spdlog::info("{} umpire action edit_state {}: {}", peer->describe(), rules::describe(edit), request.reason());
  write(UmpireDesk(state_).entry(state_.seats[seat].seat.id, request, services_.clock.now_ms()), hash, &prepared,
        [self = shared_from_this(), peer, correlation_id] {
          v1::Envelope env;
          env.mutable_umpire_done()->set_action("edit_state");
          self->reply(peer, std::move(env), correlation_id);
        });
}

void Room::do_audit(const v1::ListAudit&, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id) {
  const auto seat = holder(peer, correlation_id);
  if (!seat) return;
  if (!RoomState::is_umpire(state_.seats[*seat].seat)) {
    return error(peer, correlation_id, {v1::ERROR_CODE_PERMISSION_DENIED, "the audit trail is the umpire's", {}});
  }
  v1::Envelope env;
  auto* trail = env.mutable_audit_trail();
  for (const auto& e : state_.audit) *trail->add_entries() = e;
  reply(peer, std::move(env), correlation_id);
}

// ---- Chat and notifications. ----

void Room::do_chat(const v1::SendChat& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id) {
  const auto seat = holder(peer, correlation_id);
  if (!seat) return;
  auto entry = ChatDesk(state_).message(*seat, request, services_.clock.now_unix());
  if (auto* refused = std::get_if<Refusal>(&entry)) return error(peer, correlation_id, std::move(*refused));
  write(std::move(std::get<v1::LogEntry>(entry)), 0, nullptr, [self = shared_from_this(), peer, correlation_id, s = *seat] {
    // The sender's own count of the chat it may read.
    v1::Envelope env;
    env.mutable_chat_sent()->set_sequence(self->fanout_.chat_count(s));
    self->reply(peer, std::move(env), correlation_id);
  });
}

void Room::do_notifications(const v1::SetNotifications& request, const std::shared_ptr<Peer>& peer,
                            std::uint64_t correlation_id) {
  const auto seat = holder(peer, correlation_id);
  if (!seat) return;
  if (RoomState::is_spectator(state_.seats[*seat].seat)) {
    return error(peer, correlation_id, {v1::ERROR_CODE_PERMISSION_DENIED, "join a seat to set its notifications", {}});
  }
  const auto& url = request.webhook().url();
  if (!url.empty()) {
    if (auto why = services_.notifier.refuses(url)) {
      return error(peer, correlation_id, {v1::ERROR_CODE_INVALID_ARGUMENT, "webhook: " + *why, {}});
    }
  }
  v1::LogEntry entry;
  entry.mutable_notify()->set_seat(state_.seats[*seat].seat.id);
  *entry.mutable_notify()->mutable_webhook() = request.webhook();
  write(std::move(entry), 0, nullptr, [self = shared_from_this(), peer, correlation_id] {
    v1::Envelope env;
    env.mutable_notifications_set();
    self->reply(peer, std::move(env), correlation_id);
  });
}

// ---- Questions. ----

// Odds are a question, not an action: nothing is written, no step, lock or
// deadline is touched, and no other seat is told. What the answer may use is
// the rules' business (Game::odds sees only the asking seat's view).
void Room::do_odds(const v1::OddsRequest& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id) {
  const auto seat = holder(peer, correlation_id);
  if (!seat) return;
  const auto& held = state_.seats[*seat].seat;
  if (RoomState::is_spectator(held)) {
    return error(peer, correlation_id, {v1::ERROR_CODE_PERMISSION_DENIED, "spectators watch; they do not ask odds", {}});
  }
  std::string asking = held.id;
  if (!request.seat().empty() && request.seat() != asking) {
    if (!RoomState::is_umpire(held)) {
      return error(peer, correlation_id,
                   {v1::ERROR_CODE_PERMISSION_DENIED, "only the umpire may ask as another seat; you hold " + asking, {}});
    }
    const auto* as = state_.seat_named(request.seat());
    if (as == nullptr || RoomState::is_spectator(as->seat) || RoomState::is_umpire(as->seat)) {
      return error(peer, correlation_id,
                   {v1::ERROR_CODE_NOT_FOUND, "game " + record_.id + " has no player seat " + request.seat(), {}});
    }
    asking = as->seat.id;
  }
  const auto question = codec::from_proto(request);
  if (!question) {
    return error(peer, correlation_id,
                 {v1::ERROR_CODE_INVALID_ARGUMENT,
                  "OddsRequest needs a proposal: a charge (charger, target, dice) or a shot (gun, target)", {}});
  }
  auto answer = state_.game->odds(asking, *question, state_.view_settings);
  if (!answer) {
    const rules::Rejection& why = answer.error();
    const auto code = why.code == "not_yours" ? v1::ERROR_CODE_PERMISSION_DENIED : v1::ERROR_CODE_INVALID_ARGUMENT;
    return error(peer, correlation_id, {code, why.reason, {{"rule", why.code}}});
  }
  // Told as the asker knows the pieces it names.
  const auto knows = fanout_.knowledge_of(*seat);
  auto told = std::move(answer.value());
  told.summary = rules::tell_text(told.summary, knows);
  for (auto& note : told.notes) note = rules::tell_text(note, knows);
  for (auto& outcome : told.outcomes) outcome.label = rules::tell_text(outcome.label, knows);
  v1::Envelope env;
  codec::to_proto(told, env.mutable_odds_reply());
  reply(peer, std::move(env), correlation_id);
}

// ---- Writing, and what follows. ----

void Room::write(v1::LogEntry entry, rules::StateHash hash, const Prepared* prepared, std::function<void()> on_disk) {
  if (failed_) return;
  const EntryMeta meta{state_.log_seq + 1, hash, false, false};
  auto applied = apply_entry(state_, entry, meta, prepared);
  if (auto* why = std::get_if<std::string>(&applied)) {
    // The room made this entry from its own state: the reducer refusing it is a bug.
    spdlog::error("game {}: entry {} ({}) refused by its own reducer: {}", record_.id, meta.seq, kind_of(entry), *why);
    return fail(*why);
  }
  auto record = encode_entry(entry);
  record.game_id = record_.id;
  record.seq = meta.seq;
  record.state_hash = hash;
  record.created_unix = services_.clock.now_unix();
  ++in_flight_;
  // The writer is first-in first-out, so entries commit in the order written.
  auto done = [self = shared_from_this(), effects = std::move(std::get<Effects>(applied)), on_disk = std::move(on_disk),
               seq = meta.seq](persistence::Status status) mutable {
    net::post(self->strand_, [self, effects = std::move(effects), on_disk = std::move(on_disk), seq, status] {
      --self->in_flight_;
      if (self->failed_) return;
      if (!status.ok()) return self->fail(status.error->message);
      self->perform(effects, seq);
      if (on_disk) on_disk();
      if (self->in_flight_ == 0 && !self->joins_after_disk_.empty()) {
        auto joins = std::move(self->joins_after_disk_);
        self->joins_after_disk_.clear();
        for (const auto& j : joins) self->do_join(j.request, j.peer, j.correlation_id);
      }
      self->advance();
    });
  };
  services_.store.append_step(std::move(record), std::move(done));
}

void Room::perform(const Effects& effects, std::uint64_t seq) {
  fanout_.perform(effects);
  const auto now = services_.clock.now_ms();
  bool game_ended = false;
  for (const auto& n : effects.notify) {
    for (auto& item : notifications_.deliver(state_, n, now)) {
      v1::LogEntry entry;
      *entry.mutable_digest() = std::move(item);
      write(std::move(entry));
    }
    game_ended = game_ended || n.kind == "game_ended";
  }
  if (game_ended) {
    // The game is over: there is no later day to wait for.
    for (auto& sent : due_digests(state_, now, true)) {
      v1::LogEntry entry;
      *entry.mutable_digest() = std::move(sent);
      write(std::move(entry));
    }
  }
  if (effects.digest) notifications_.post_digest(state_, effects.digest->first, effects.digest->second);
  if (effects.step && effects.status) {
    if (!effects.status->pending.empty() || effects.status->ended) idle_resolutions_ = 0;
    spdlog::info("game {} resolved step {} ({} events); turn {} {}", record_.id, effects.step->step,
                 effects.step->end_event - effects.step->first_event, effects.status->game->turn(),
                 effects.status->game->phase());
    snapshot_after(seq, *effects.step, *effects.status->game);
  }
  if (effects.ended && effects.status) announce_end(effects.status);
  store_wake();
}

void Room::advance() {
  if (failed_ || reloading_ || put_away_ || state_.ended()) return;
  const bool deadlines = state_.settings.step_deadline_seconds() > 0 || state_.daily_deadline;
  if (!state_.pending.empty() && state_.deadline_ms == 0 && deadlines) {
    constexpr std::int64_t kDailyLeadMs = 3600 * 1000;  // a step gets at least an hour
    const auto now = services_.clock.now_ms();
    v1::LogEntry entry;
    entry.mutable_deadline()->set_step(state_.game->step());
    entry.mutable_deadline()->set_deadline_ms(
        state_.daily_deadline ? next_daily_deadline(now, *state_.daily_deadline, kDailyLeadMs)
                              : now + static_cast<std::int64_t>(state_.settings.step_deadline_seconds()) * 1000);
    write(std::move(entry));
  }
  if (state_.paused) return store_wake();
  for (auto& entry : StepDesk(state_).bot_turns()) write(std::move(entry));
  if (state_.all_locked()) return resolve();
  if (state_.pending.empty()) {
    // The engine resolves on to the next decision; a state that asks for
    // nothing twice running is a bug there, not a reason to spin.
    if (++idle_resolutions_ > 2) {
      spdlog::error("game {}: the engine asks for no decision at step {} and has not ended", record_.id,
                    state_.game->step());
      return;
    }
    return resolve();
  }
  store_wake();
}

void Room::resolve() {
  auto resolution = StepDesk(state_).resolve();
  if (!resolution) return;
  write(std::move(resolution->entry), resolution->hash, &resolution->prepared);
}

void Room::snapshot_after(std::uint64_t seq, const StepOut& step, const rules::Game& game) {
  const bool turn_start = step.turn_started;
  if (!turn_start && ++resolves_since_snapshot_ < kSnapshotEvery) return;
  persistence::SnapshotRecord snap;
  snap.game_id = record_.id;
  snap.seq = seq;
  snap.turn = game.turn();
  snap.state_hash = game.state_hash();
  snap.turn_start = turn_start;
  snap.state = game.snapshot();
  if (snap.state.empty()) return;  // the ruleset has no snapshots: loading replays the log
  resolves_since_snapshot_ = 0;
  // Derived data: a failed write costs only loading time, so it is logged and
  // play goes on (the log entry it follows is already committed).
  services_.store.append_snapshot(std::move(snap), [self = shared_from_this(), seq](persistence::Status status) {
    if (status.ok()) {
      self->services_.metrics.snapshots_written++;
    } else {
      spdlog::warn("game {}: the snapshot after log entry {} was not stored: {}", self->record_.id, seq,
                   status.error->message);
    }
  });
}

void Room::announce_end(std::shared_ptr<const StepStatus> now) {
  // The seed is revealed only once the store says the game has ended, so an
  // export made from then on carries it too.
  record_.ended = true;
  services_.store.mark_ended(record_.id, [self = shared_from_this(), now](persistence::Status status) {
    net::post(self->strand_, [self, now, status] {
      if (self->failed_) return;
      if (!status.ok()) return self->fail(status.error->message);
      self->fanout_.ended(*now);
    });
  });
}

// ---- Time. ----

void Room::do_tick() {
  if (failed_ || reloading_ || put_away_) return;
  const auto now = services_.clock.now_ms();
  for (auto& sent : due_digests(state_, now, false)) {
    v1::LogEntry entry;
    *entry.mutable_digest() = std::move(sent);
    write(std::move(entry));
  }
  if (state_.ended()) return store_wake();
  if (state_.paused && state_.pause_until_ms != 0 && now >= state_.pause_until_ms) {
    write(UmpireDesk(state_).pause_ran_out(now));
    return store_wake();
  }
  if (state_.paused || state_.deadline_ms == 0 || state_.pending.empty()) return store_wake();
  // "Deadline near": an hour before, or half the step's time for short deadlines.
  const std::int64_t warn_ms =
      state_.daily_deadline
          ? 3600 * 1000
          : std::min<std::int64_t>(3600 * 1000, static_cast<std::int64_t>(state_.settings.step_deadline_seconds()) * 500);
  if (!state_.warned_deadline && now >= state_.deadline_ms - warn_ms) {
    v1::LogEntry entry;
    entry.mutable_deadline()->set_step(state_.game->step());
    entry.mutable_deadline()->set_deadline_ms(state_.deadline_ms);
    entry.mutable_deadline()->set_warned(true);
    write(std::move(entry));
  }
  if (now >= state_.deadline_ms + static_cast<std::int64_t>(state_.settings.grace_seconds()) * 1000) {
    StepDesk desk(state_);
    for (const auto& seat : state_.owing_seats()) {
      if (state_.locked.contains(seat)) continue;
      if (auto lock = desk.default_lock(seat, "missed the deadline")) write(std::move(*lock));
    }
  }
  store_wake();
}

std::int64_t Room::next_wake_ms() const {
  if (failed_) return 0;
  const auto now = services_.clock.now_ms();
  std::int64_t wake = 0;
  auto consider = [&](std::int64_t at) {
    if (at > 0 && (wake == 0 || at < wake)) wake = at;
  };
  consider(next_digest_ms(state_));
  if (state_.ended()) return wake;
  if (state_.paused) {
    consider(state_.pause_until_ms);
    return wake;
  }
  if (state_.pending.empty() || state_.all_locked()) {
    consider(now);  // a step to resolve
    return wake;
  }
  const bool deadlines = state_.settings.step_deadline_seconds() > 0 || state_.daily_deadline;
  if (state_.deadline_ms == 0 && deadlines) consider(now);
  for (const auto& seat : state_.owing_seats()) {
    if (state_.is_bot(seat) && !state_.locked.contains(seat) && state_.reopened < 8) consider(now);
  }
  if (state_.deadline_ms != 0) {
    const std::int64_t warn_ms =
        state_.daily_deadline
            ? 3600 * 1000
            : std::min<std::int64_t>(3600 * 1000,
                                     static_cast<std::int64_t>(state_.settings.step_deadline_seconds()) * 500);
    if (!state_.warned_deadline) consider(state_.deadline_ms - warn_ms);
    consider(state_.deadline_ms + static_cast<std::int64_t>(state_.settings.grace_seconds()) * 1000);
  }
  return wake;
}

void Room::store_wake() {
  if (failed_ || put_away_) return;
  const auto wake = next_wake_ms();
  if (wake == stored_wake_ms_) return;
  stored_wake_ms_ = wake;
  services_.store.set_wake(record_.id, wake, [id = record_.id](persistence::Status status) {
    if (!status.ok()) spdlog::warn("game {}: its next wake-up was not stored: {}", id, status.error->message);
  });
}

void Room::fail(const std::string& why) {
  // What is in memory may now be ahead of the disk. Stop, and let the next
  // join load the game again from what was committed.
  failed_ = true;
  spdlog::error("game {}: a write failed ({}); the game will be reloaded from the store", record_.id, why);
  auto e = make_error(0, v1::ERROR_CODE_STORAGE,
                      "the game could not be saved (" + why + "); rejoin to continue from the last saved point");
  (*e.mutable_error()->mutable_context())["game_id"] = record_.id;
  auto out = make_outgoing(std::move(e));
  for (std::size_t s = 0; s < links_.size(); ++s) links_.send(s, out);
  for (const auto& j : joins_after_disk_) {
    error(j.peer, j.correlation_id,
          {v1::ERROR_CODE_STORAGE, "the game could not be saved (" + why + "); join again to continue from the last saved point", {}});
  }
  joins_after_disk_.clear();
  if (on_failed_) on_failed_(record_.id);
}

}  // namespace galloper::server
