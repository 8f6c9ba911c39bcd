#include "server/src/room.hpp"

#include <boost/asio/post.hpp>
#include <google/protobuf/text_format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <ctime>

#include "codec/edit_codec.hpp"
#include "codec/odds_codec.hpp"
#include "codec/play_codec.hpp"
#include "codec/view_codec.hpp"
#include "galloper/v1/store.pb.h"
#include "rules/core/odds.hpp"
#include "server/src/frame_codec.hpp"
#include "server/src/replay.hpp"
#include "server/src/tokens.hpp"

namespace galloper::server {

namespace {

constexpr std::size_t kMaxChatLength = 2000;
constexpr std::size_t kMaxResumeTokens = 32;  // per seat; the oldest lapse first
constexpr std::size_t kChatHistoryOnJoin = 500;

std::string hex(const rules::Seed& seed) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (auto b : seed) {
    out += kDigits[b >> 4];
    out += kDigits[b & 0xf];
  }
  return out;
}

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

template <class Message>
bool parse(const persistence::StepRecord& entry, Message& out) {
  return out.ParseFromArray(entry.payload.data(), static_cast<int>(entry.payload.size()));
}

}  // namespace

Room::Room(RoomServices services, persistence::GameRecord record, std::unique_ptr<rules::Game> game,
           std::vector<persistence::SeatRecord> seats)
    : strand_(net::make_strand(services.ioc)),
      services_(services),
      record_(std::move(record)),
      initial_(game->clone()),
      game_(std::move(game)) {
  if (record_.seed.size() == seed_.size()) std::copy(record_.seed.begin(), record_.seed.end(), seed_.begin());
  if (!record_.settings.empty()) {
    google::protobuf::TextFormat::ParseFromString(record_.settings, &settings_);  // written by us
  }
  view_settings_.side_shared_vision = settings_.vision() == v1::VISION_SIDE_SHARED;
  if (!settings_.daily_deadline().empty()) {
    // Checked when the game was created; a store edited since then loses only the deadline.
    auto daily = parse_daily_time(settings_.daily_deadline(), settings_.time_zone());
    if (auto* d = std::get_if<DailyTime>(&daily)) {
      daily_deadline_ = *d;
    } else {
      spdlog::warn("game {}: {}; its steps have no deadline", record_.id, std::get<std::string>(daily));
    }
  }
  {
    // Daily digests: digest_time, else the daily deadline, else midnight (room_digest.cpp).
    const auto& at = !settings_.digest_time().empty() ? settings_.digest_time()
                     : !settings_.daily_deadline().empty() ? settings_.daily_deadline()
                                                           : std::string("00:00");
    auto parsed = parse_daily_time(at, settings_.time_zone().empty() ? "UTC" : settings_.time_zone());
    if (auto* d = std::get_if<DailyTime>(&parsed)) digest_time_ = *d;
  }

  auto all = game_->seats();
  all.push_back(rules::Seat{std::string(kSpectatorSeat), rules::SeatRole::kSpectator, {}, {},
                            "Spectators (delayed view)"});
  for (auto& s : all) {
    SeatState state;
    state.seat = std::move(s);
    for (const auto& stored : seats) {
      if (stored.seat == state.seat.id) state.invite_hash = stored.token_hash;
    }
    seats_.push_back(std::move(state));
  }
  turn_start_[game_->turn()] = game_->clone();
  refresh_pending();
  services_.metrics.games_loaded++;
}

Room::~Room() { services_.metrics.games_loaded--; }

// ---- Loading. ----

std::uint32_t snapshot_turns_back(const persistence::GameRecord& record) {
  v1::GameSettings settings;
  if (!record.settings.empty()) google::protobuf::TextFormat::ParseFromString(record.settings, &settings);
  return settings.spectator_delay_turns();
}

Room::RestoreBase Room::choose_base(const std::vector<persistence::StepRecord>& log,
                                    const std::vector<persistence::SnapshotRecord>& snapshots) const {
  // A snapshot is used only when it decodes, belongs to a live resolution
  // whose recorded hash it has, and decodes to a state with that hash. Any
  // other is derived data gone bad: the log is the record, so it is skipped.
  auto usable = [&](const persistence::SnapshotRecord& snap) -> std::unique_ptr<rules::Game> {
    const persistence::StepRecord* entry =
        snap.seq >= 1 && snap.seq <= log.size() && log[snap.seq - 1].seq == snap.seq ? &log[snap.seq - 1] : nullptr;
    std::string why;
    if (entry == nullptr || entry->kind != "resolve" || entry->superseded) {
      why = "it does not follow a live resolution in the log";
    } else if (entry->state_hash != snap.state_hash) {
      why = "its hash is not the one the log recorded";
    } else {
      auto decoded = initial_->from_snapshot(snap.state);
      if (!decoded) {
        why = decoded.error().reason;
      } else if (decoded.value()->state_hash() != entry->state_hash) {
        why = "it decodes to a state that differs from the one the log recorded";
      } else {
        return std::move(decoded.value());
      }
    }
    spdlog::warn("game {}: the snapshot after log entry {} is not used ({}); replaying the log instead", record_.id,
                 snap.seq, why);
    services_.metrics.snapshots_rejected++;
    return nullptr;
  };

  RestoreBase base;
  const auto delay = settings_.spectator_delay_turns();
  for (auto it = snapshots.rbegin(); it != snapshots.rend(); ++it) {
    auto game = usable(*it);
    if (!game) continue;
    // A delayed spectator view shows the start of a past turn: each turn it
    // may still show must have its first state at hand.
    std::map<std::uint32_t, std::shared_ptr<const rules::Game>> starts;
    const std::uint32_t turn = game->turn();
    const std::uint32_t first_needed = delay == 0 ? turn + 1 : std::max<std::uint32_t>(2, turn > delay ? turn - delay : 2);
    bool complete = true;
    for (std::uint32_t t = first_needed; t <= turn && complete; ++t) {
      complete = false;
      for (const auto& snap : snapshots) {
        if (snap.turn != t || !snap.turn_start || snap.seq > it->seq) continue;
        if (snap.seq == it->seq) {
          starts[t] = std::shared_ptr<const rules::Game>(game->clone());
          complete = true;
        } else if (auto start = usable(snap)) {
          starts[t] = std::move(start);
          complete = true;
        }
        break;
      }
    }
    if (!complete) continue;  // an older snapshot may still do, or the whole log
    base.seq = it->seq;
    base.game = std::move(game);
    base.turn_starts = std::move(starts);
    break;
  }
  return base;
}

std::optional<std::string> Room::restore(const std::vector<persistence::StepRecord>& log,
                                         const std::vector<persistence::SnapshotRecord>& snapshots) {
  bool incomplete = false;
  auto problem = restore_from(log, choose_base(log, snapshots), incomplete);
  if (!incomplete) return problem;
  // Some resolution before the snapshot was stored without its events (a log
  // older than snapshots): the history can only come from replaying it all.
  spdlog::info("game {}: the log before its snapshot lacks stored events; replaying it from the start", record_.id);
  reset_log_state();
  return restore_from(log, RestoreBase{}, incomplete);
}

std::optional<std::string> Room::restore_from(const std::vector<persistence::StepRecord>& log, RestoreBase base,
                                              bool& incomplete) {
  // Up to base.seq the states are not rebuilt: resolutions contribute their
  // stored events and answers, and the snapshot stands for the state.
  std::uint64_t open_step = game_->step();
  for (const auto& entry : log) {
    log_seq_ = entry.seq;
    const bool skipping = entry.seq <= base.seq;
    const auto step = skipping ? open_step : game_->step();
    const std::string bad = "log entry " + std::to_string(entry.seq) + " (" + entry.kind + ") is damaged";
    if (entry.kind == "resolve") {
      v1::StoredStep stored;
      if (!parse(entry, stored)) return bad;
      const bool has_events = stored.events_size() == stored.event_seat_masks_size();
      std::vector<std::uint64_t> masks(stored.event_seat_masks().begin(), stored.event_seat_masks().end());
      std::vector<v1::Event> wire(stored.events().begin(), stored.events().end());
      if (entry.superseded) {
        // Undone by a rewind; its events keep their sequence numbers.
        if (has_events) add_history(std::move(wire), masks, true);
        continue;
      }
      if (skipping) {
        if (!has_events) {
          incomplete = true;
          return std::nullopt;
        }
        add_history(std::move(wire), masks, false);
        for (const auto& a : stored.answers()) {
          auto answer = codec::from_proto(a.answer(), a.seat());
          previous_[answer.decision_id] = std::move(answer);
        }
        resolve_seq_[stored.step()] = entry.seq;
        open_step = stored.step() + 1;
        answers_.clear();
        locked_.clear();
        deadline_ms_ = 0;
        warned_deadline_ = false;
        if (entry.seq == base.seq) {
          game_ = std::move(base.game);
          for (auto& [turn, start] : base.turn_starts) turn_start_[turn] = std::move(start);
          refresh_pending();
        }
        continue;
      }
      auto applied = apply_resolve_entry(*game_, seed_, entry);
      if (applied.error) return applied.error;
      if (!has_events || stored.events_size() != static_cast<int>(applied.events.size())) {
        wire = wire_events(applied.events);
        if (masks.size() != applied.events.size()) masks = seat_masks(*applied.next, applied.events);
      }
      resolve_seq_[game_->step()] = entry.seq;
      std::vector<rules::Answer> answers;
      for (const auto& a : stored.answers()) answers.push_back(codec::from_proto(a.answer(), a.seat()));
      apply_resolution(std::move(applied.next), std::move(wire), masks, answers);
      continue;
    }
    if (entry.kind == "edit") {
      v1::StoredUmpire u;
      if (!parse(entry, u) || !u.action().has_edit_state()) return bad;
      // Undone by a rewind: audited, not applied. Up to the snapshot: the
      // snapshot's state already holds it (snapshots follow resolutions).
      if (!entry.superseded && !skipping) {
        auto edited = apply_edit_entry(*game_, entry);
        if (edited.error) return *edited.error;
        apply_edit(std::move(edited.next));
      } else if (!entry.superseded) {
        answers_.clear();
        locked_.clear();
      }
      apply_umpire(u.seat(), u.action(), u.at_ms(), u.step(), entry.superseded);
      continue;
    }
    if (entry.superseded) continue;
    if (entry.kind == "answer") {
      v1::StoredAnswer a;
      if (!parse(entry, a)) return bad;
      if (a.step() == step) {
        auto answer = codec::from_proto(a.answer().answer(), a.answer().seat());
        answers_[answer.decision_id] = std::move(answer);
      }
    } else if (entry.kind == "lock") {
      v1::StoredLock l;
      if (!parse(entry, l)) return bad;
      if (l.step() == step) {
        for (const auto& d : l.defaulted()) {
          auto answer = codec::from_proto(d.answer(), d.seat());
          answers_[answer.decision_id] = std::move(answer);
        }
        locked_.insert(l.seat());
      }
    } else if (entry.kind == "deadline") {
      v1::StoredDeadline d;
      if (!parse(entry, d)) return bad;
      if (d.step() == step) deadline_ms_ = d.deadline_ms();
    } else if (entry.kind == "umpire") {
      v1::StoredUmpire u;
      if (!parse(entry, u)) return bad;
      apply_umpire(u.seat(), u.action(), u.at_ms(), u.step());
    } else if (entry.kind == "chat") {
      v1::ChatMessage c;
      if (!parse(entry, c)) return bad;
      chat_.push_back(std::move(c));
    } else if (entry.kind == "notify") {
      v1::StoredNotifications n;
      if (!parse(entry, n)) return bad;
      if (auto* seat = seat_named(n.seat())) {
        seat->webhook.reset();
        digests_.erase("seat:" + seat->seat.id);
        if (!n.webhook().url().empty()) {
          seat->webhook = Webhook{n.webhook().url(), static_cast<WebhookFormat>(n.webhook().format()),
                                  n.webhook().daily_digest()};
        }
      }
    } else if (entry.kind == "digest") {
      v1::StoredDigest d;
      if (!parse(entry, d)) return bad;
      apply_digest(d);
    } else if (entry.kind == "standing") {
      v1::StoredStanding st;
      if (!parse(entry, st)) return bad;
      if (auto* seat = seat_named(st.seat())) seat->standing = {st.by_kind().begin(), st.by_kind().end()};
    }
  }
  if (base.game) return "the snapshot after log entry " + std::to_string(base.seq) + " was never reached";
  return std::nullopt;
}

void Room::reset_log_state() {
  game_ = initial_->clone();
  pending_.clear();
  answers_.clear();
  previous_.clear();
  locked_.clear();
  resolving_ = false;
  deadline_ms_ = 0;
  paused_ = false;
  paused_by_.clear();
  paused_at_ms_ = 0;
  pause_until_ms_ = 0;
  ended_by_umpire_ = false;
  warned_deadline_ = false;
  umpire_result_.clear();
  history_.clear();
  chat_.clear();
  audit_.clear();
  turn_start_.clear();
  turn_start_[game_->turn()] = initial_->clone();
  resolve_seq_.clear();
  resolves_since_snapshot_ = 0;
  idle_resolutions_ = 0;
  for (auto& seat : seats_) {
    seat.standing.clear();
    seat.pauses_used = 0;
    seat.webhook.reset();
  }
  digests_.clear();
  // The bot seats the game was created with; umpire entries change them again.
  v1::GameSettings created;
  if (!record_.settings.empty()) google::protobuf::TextFormat::ParseFromString(record_.settings, &created);
  *settings_.mutable_bot_seats() = created.bot_seats();
  refresh_pending();
}

void Room::start() {
  net::post(strand_, [self = shared_from_this()] { self->resume_play(); });
}

void Room::resume_play() {
  if (!pending_.empty() && deadline_ms_ == 0) open_deadline();
  // Every owing seat's lock was stored but the server stopped before the
  // resolution was: resolve it now.
  if (!pending_.empty() && !paused_ && !ended() && locked_.size() == owing_seats().size()) {
    resolve_step();
    return;
  }
  play_bot_seats();
  advance_if_idle();
}

// ---- Requests, posted onto the strand. ----

template <class Request>
void Room::post_request(void (Room::*handler)(const Request&, const std::shared_ptr<Peer>&, std::uint64_t),
                        Request request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id) {
  net::post(strand_, [self = shared_from_this(), handler, request = std::move(request), peer = std::move(peer),
                      correlation_id] { ((*self).*handler)(request, peer, correlation_id); });
}

void Room::join(v1::JoinGame request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id) {
  post_request(&Room::do_join, std::move(request), std::move(peer), correlation_id);
}

void Room::submit(v1::SubmitAnswer request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id) {
  post_request(&Room::do_submit, std::move(request), std::move(peer), correlation_id);
}

void Room::lock(v1::LockAnswers request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id) {
  post_request(&Room::do_lock, std::move(request), std::move(peer), correlation_id);
}

void Room::standing_orders(v1::SetStandingOrders request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id) {
  post_request(&Room::do_standing, std::move(request), std::move(peer), correlation_id);
}

void Room::umpire(v1::UmpireAction request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id) {
  post_request(&Room::do_umpire, std::move(request), std::move(peer), correlation_id);
}

void Room::chat(v1::SendChat request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id) {
  post_request(&Room::do_chat, std::move(request), std::move(peer), correlation_id);
}

void Room::notifications(v1::SetNotifications request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id) {
  post_request(&Room::do_notifications, std::move(request), std::move(peer), correlation_id);
}

void Room::audit(std::shared_ptr<Peer> peer, std::uint64_t correlation_id) {
  net::post(strand_, [self = shared_from_this(), peer = std::move(peer), correlation_id] {
    self->do_audit(peer, correlation_id);
  });
}

void Room::tick() {
  net::post(strand_, [self = shared_from_this()] {
    if (self->failed_ || self->reloading_ || self->ended()) return;
    self->send_due_digests(false);
    const auto now = self->services_.clock.now_ms();
    if (self->paused_ && self->pause_until_ms_ != 0 && now >= self->pause_until_ms_) {
      v1::UmpireAction resume;
      resume.set_game_id(self->record_.id);
      resume.set_reason("the player's pause ran out");
      resume.mutable_resume();
      v1::StoredUmpire stored;
      stored.set_seat("server");
      *stored.mutable_action() = resume;
      stored.set_at_ms(now);
      stored.set_step(self->game_->step());
      self->apply_umpire("server", resume, now, self->game_->step());
      self->append("umpire", stored, 0, [self] { self->notice("resumed", "the pause ran out; play resumes"); });
      return;
    }
    if (self->paused_ || self->resolving_ || self->deadline_ms_ == 0 || self->pending_.empty()) return;
    // "Deadline near": an hour before, or half the step's time for short deadlines.
    const std::int64_t warn_ms =
        self->daily_deadline_ ? 3600 * 1000
                              : std::min<std::int64_t>(
                                    3600 * 1000, static_cast<std::int64_t>(self->settings_.step_deadline_seconds()) * 500);
    if (!self->warned_deadline_ && now >= self->deadline_ms_ - warn_ms) {
      self->warned_deadline_ = true;
      for (const auto& seat : self->owing_seats()) {
        if (!self->locked_.contains(seat)) self->notify("deadline_near", seat, "the deadline of step " +
                                                        std::to_string(self->game_->step()) + " is near");
      }
    }
    if (now < self->deadline_ms_ + static_cast<std::int64_t>(self->settings_.grace_seconds()) * 1000) return;
    for (const auto& seat : self->owing_seats()) {
      if (self->locked_.contains(seat)) continue;
      if (auto* s = self->seat_named(seat)) self->lock_with_defaults(*s, "missed the deadline");
    }
    if (self->locked_.size() == self->owing_seats().size()) self->resolve_step();
  });
}

// ---- Seats and roles. ----

Room::SeatState* Room::seat_for_token(const std::string& token) {
  // Compare against every stored hash, without stopping at the first match,
  // so the time taken says nothing about which seat (if any) matched.
  const std::string hash = token_hash(token);
  SeatState* found = nullptr;
  for (auto& s : seats_) {
    bool match = !s.invite_hash.empty() && constant_time_equal(hash, s.invite_hash);
    for (const auto& r : s.resume_hashes) match = constant_time_equal(hash, r) || match;
    if (match && found == nullptr) found = &s;
  }
  return found;
}

Room::SeatState* Room::seat_of(const std::shared_ptr<Peer>& peer) {
  for (auto& s : seats_) {
    for (const auto& p : s.peers) {
      if (p.lock() == peer) return &s;
    }
  }
  return nullptr;
}

Room::SeatState* Room::seat_named(std::string_view id) {
  for (auto& s : seats_) {
    if (s.seat.id == id) return &s;
  }
  return nullptr;
}

std::size_t Room::index_of(const SeatState& seat) const { return static_cast<std::size_t>(&seat - seats_.data()); }

bool Room::refuse_if_unavailable(const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id) {
  if (failed_) {
    error(peer, correlation_id, v1::ERROR_CODE_STORAGE, "this game is being reloaded; rejoin it");
    return true;
  }
  if (reloading_) {
    error(peer, correlation_id, v1::ERROR_CODE_UNAVAILABLE,
          "the umpire is rewinding this game; send it again in a moment");
    return true;
  }
  return false;
}

void Room::error(const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id, v1::ErrorCode code,
                 std::string message) {
  spdlog::info("{} error {}: {}", peer->describe(), v1::ErrorCode_Name(code), message);
  auto e = make_error(correlation_id, code, std::move(message));
  (*e.mutable_error()->mutable_context())["game_id"] = record_.id;
  services_.metrics.errors++;
  peer->send(make_outgoing(std::move(e)));
}

void Room::send_to_seat(SeatState& seat, const OutgoingPtr& message) {
  std::erase_if(seat.peers, [](const std::weak_ptr<Peer>& p) { return p.expired(); });
  for (const auto& p : seat.peers) {
    if (auto peer = p.lock()) peer->send(message);
  }
}

void Room::send_view_change(SeatState& seat, OutgoingPtr changed) {
  std::erase_if(seat.peers, [](const std::weak_ptr<Peer>& p) { return p.expired(); });
  OutgoingPtr whole;
  for (const auto& p : seat.peers) {
    auto peer = p.lock();
    if (!peer) continue;
    if (peer->takes_view_changes()) {
      peer->send(changed);
      continue;
    }
    if (!whole) {
      // A client of protocol 1.0: the same StepResolved, its view whole (the
      // seat's `shown`, the view the change leads to).
      auto copy = std::make_shared<Outgoing>(Outgoing::OnArena{});
      auto* sr = copy->build()->mutable_step_resolved();
      *sr = changed->envelope().step_resolved();
      sr->clear_change();
      sr->clear_view();
      codec::to_proto(*seat.shown, sr->mutable_view());
      fill_view_header(sr->mutable_view());
      whole = std::move(copy);
    }
    peer->send(whole);
  }
}

void Room::send_to_all(const OutgoingPtr& message, Audience audience) {
  for (auto& seat : seats_) {
    if (audience == Audience::kPlayers && is_spectator(seat)) continue;
    send_to_seat(seat, message);
  }
}

Room::SeatState* Room::acting_seat(const std::shared_ptr<Peer>& peer, std::uint64_t step, const std::string& for_seat,
                                   std::uint64_t correlation_id) {
  if (refuse_if_unavailable(peer, correlation_id)) return nullptr;
  SeatState* seat = seat_of(peer);
  if (seat == nullptr) {
    error(peer, correlation_id, v1::ERROR_CODE_PERMISSION_DENIED,
          "this connection holds no seat in game " + record_.id + "; join with your invite link first");
    return nullptr;
  }
  if (is_spectator(*seat)) {
    error(peer, correlation_id, v1::ERROR_CODE_PERMISSION_DENIED, "spectators watch; they do not play");
    return nullptr;
  }
  if (!for_seat.empty() && for_seat != seat->seat.id) {
    if (!is_umpire(*seat)) {
      error(peer, correlation_id, v1::ERROR_CODE_PERMISSION_DENIED,
            "only the umpire may act for another seat; you hold " + seat->seat.id);
      return nullptr;
    }
    seat = seat_named(for_seat);
    if (seat == nullptr || is_spectator(*seat)) {
      error(peer, correlation_id, v1::ERROR_CODE_NOT_FOUND, "game " + record_.id + " has no seat " + for_seat);
      return nullptr;
    }
  }
  if (ended()) {
    error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT, "the game has ended");
    return nullptr;
  }
  if (paused_) {
    error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT, "the game is paused");
    return nullptr;
  }
  if (step != game_->step() || resolving_) {
    error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT,
          "step " + std::to_string(step) + " is not open for answers; the current step is " +
              std::to_string(game_->step()) + (resolving_ ? " and it is resolving" : ""));
    return nullptr;
  }
  if (locked_.contains(seat->seat.id)) {
    error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT,
          "seat " + seat->seat.id + " has locked its answers for this step");
    return nullptr;
  }
  return seat;
}

// ---- Join. ----

void Room::do_join(const v1::JoinGame& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id) {
  SeatState* seat = seat_for_token(request.token());
  if (seat == nullptr) {
    spdlog::warn("{} join refused: token matches no seat of game {}", peer->describe(), record_.id);
    error(peer, correlation_id, v1::ERROR_CODE_BAD_TOKEN,
          "that token does not open any seat of game " + record_.id + "; ask the umpire for a fresh invite link");
    return;
  }
  // One connection holds one seat of a game at a time: a second join moves it.
  for (auto& other : seats_) {
    std::erase_if(other.peers, [&](const std::weak_ptr<Peer>& p) { return p.expired() || p.lock() == peer; });
  }
  // A resume token lets this connection come back without the invite.
  const std::string resume = random_hex(32);
  seat->resume_hashes.push_back(token_hash(resume));
  if (seat->resume_hashes.size() > kMaxResumeTokens) seat->resume_hashes.erase(seat->resume_hashes.begin());
  seat->peers.push_back(peer);
  peer->set_seat(record_.id, seat->seat.id);
  spdlog::info("{} joined", peer->describe());

  v1::Envelope reply;
  reply.set_correlation_id(correlation_id);
  auto* joined = reply.mutable_joined();
  joined->set_game_id(record_.id);
  joined->set_seat(seat->seat.id);
  joined->set_resume_token(resume);
  // The seat's other connections hold the view it was last sent; a change
  // can follow for all of them only if this one is sent that view too.
  const bool others = std::any_of(seat->peers.begin(), seat->peers.end(), [&](const std::weak_ptr<Peer>& p) {
    auto held = p.lock();
    return held && held != peer;
  });
  std::optional<rules::View> before = std::move(seat->shown);
  fill_view(*seat, joined->mutable_view());
  if (others && !(before && seat->shown && *before == *seat->shown)) seat->shown.reset();
  *joined->mutable_settings() = settings_;
  peer->send(make_outgoing(std::move(reply)));

  if (!is_spectator(*seat)) {
    v1::Envelope owed;
    fill_decisions(seat->seat.id, owed.mutable_decisions());
    peer->send(make_outgoing(std::move(owed)));
    peer->send(make_outgoing(seat_status()));
  }
  send_history(*seat, peer, request.last_sequence(), request.full_history());
}

void Room::send_history(SeatState& seat, const std::shared_ptr<Peer>& peer, std::uint64_t after_sequence,
                        bool full) {
  v1::Envelope env;
  auto* since = env.mutable_events_since();
  since->set_game_id(record_.id);
  if (after_sequence > 0 || full) {
    const auto bit = std::uint64_t{1} << index_of(seat);
    const bool all = is_umpire(seat) || ended();
    const auto spectator_turn_limit = spectator_turn();
    for (std::size_t i = static_cast<std::size_t>(std::min<std::uint64_t>(after_sequence, history_.size()));
         i < history_.size(); ++i) {
      const auto& h = history_[i];
      if (h.superseded) continue;
      if (is_spectator(seat) && !ended() && h.wire.turn() > spectator_turn_limit) break;
      if (all || (h.seat_mask & bit) != 0) *since->add_events() = h.wire;
    }
  }
  std::vector<const v1::ChatMessage*> readable;
  for (const auto& c : chat_) {
    if (may_read(seat, c)) readable.push_back(&c);
  }
  const std::size_t first = readable.size() > kChatHistoryOnJoin ? readable.size() - kChatHistoryOnJoin : 0;
  for (std::size_t i = first; i < readable.size(); ++i) *since->add_chat() = *readable[i];
  peer->send(make_outgoing(std::move(env)));
}

// ---- The step. ----

void Room::refresh_pending() {
  pending_ = ended() ? std::vector<rules::Decision>{} : game_->pending();
  answers_.clear();
  locked_.clear();
  bot_attempt_ = 0;
}

std::set<std::string> Room::owing_seats() const {
  std::set<std::string> out;
  for (const auto& d : pending_) out.insert(d.seat);
  return out;
}

std::uint32_t Room::spectator_turn() const {
  const auto now = game_->turn();
  const auto delay = settings_.spectator_delay_turns();
  if (ended() || delay == 0) return now;
  const auto first = turn_start_.empty() ? now : turn_start_.begin()->first;
  return now > first + delay ? now - delay : first;
}

const rules::Game& Room::spectator_state() const {
  if (ended() || settings_.spectator_delay_turns() == 0) return *game_;
  auto it = turn_start_.upper_bound(spectator_turn());
  if (it == turn_start_.begin()) return *game_;
  return *std::prev(it)->second;
}

void Room::fill_view(SeatState& seat, v1::GameView* out) {
  seat.shown.reset();
  if (ended()) {
    // At the end of the game everything is revealed.
    codec::to_proto(game_->view_for("umpire", view_settings_), out);
    out->set_seat(seat.seat.id);
    out->set_seed_hex(hex(seed_));
    out->set_result(end_text());
  } else if (is_spectator(seat)) {
    const std::string as =
        settings_.spectator_side().empty() ? std::string("umpire") : settings_.spectator_side() + "/army";
    rules::ViewSettings shared;
    shared.side_shared_vision = true;
    const auto& state = spectator_state();
    codec::to_proto(state.view_for(as, shared), out);
    out->set_seat(seat.seat.id);
    out->set_delayed_turns(game_->turn() - state.turn());
  } else {
    rules::View view = game_->view_for(seat.seat.id, view_settings_);
    codec::to_proto(view, out);
    seat.shown = std::move(view);
  }
  fill_view_header(out);
}

void Room::fill_step_view(SeatState& seat, v1::StepResolved* out) {
  if (!seat.shown || ended() || is_spectator(seat)) return fill_view(seat, out->mutable_view());
  // Most of a view is as it was a step ago: the seat is sent what changed
  // (docs/PERFORMANCE.md, "Views as changes"). Still built by the one path
  // to what a seat may see, into the view it was sent (refresh_view), which
  // then says what changed.
  rules::ViewUpdate update;
  game_->refresh_view(seat.seat.id, view_settings_, *seat.shown, update);
  if (!codec::to_proto_change(*seat.shown, update, out->mutable_view(), out->mutable_change())) {
    codec::to_proto(*seat.shown, out->mutable_view());
  }
  fill_view_header(out->mutable_view());
}

void Room::fill_view_header(v1::GameView* out) const {
  out->set_game_id(record_.id);
  out->set_seed_commitment(record_.seed_commitment);
  if (!record_.title.empty()) out->set_title(record_.title);
  out->set_sequence(history_.size());
  out->set_step(game_->step());
  out->set_deadline_unix(deadline_ms_ / 1000);
  out->set_paused(paused_);
  out->set_ended(ended());
}

void Room::fill_decisions(const std::string& seat, v1::DecisionsOwed* out) const {
  out->set_game_id(record_.id);
  out->set_step(game_->step());
  // The umpire sees every decision (to answer for empty seats), but not
  // what the other seats answered.
  const bool umpire = seat == "umpire";
  for (const auto& d : pending_) {
    if (d.seat != seat && !umpire) continue;
    codec::to_proto(d, out->add_decisions());
    if (d.seat != seat) continue;
    if (auto it = answers_.find(d.id); it != answers_.end()) codec::to_proto(it->second, out->add_answers());
  }
  out->set_locked(locked_.contains(seat));
}

void Room::do_submit(const v1::SubmitAnswer& request, const std::shared_ptr<Peer>& peer,
                     std::uint64_t correlation_id) {
  SeatState* seat = acting_seat(peer, request.step(), request.seat(), correlation_id);
  if (seat == nullptr) return;
  const auto& decision_id = request.answer().decision_id();
  const rules::Decision* decision = nullptr;
  for (const auto& d : pending_) {
    if (d.id == decision_id) decision = &d;
  }
  if (decision == nullptr) {
    error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT,
          "there is no decision '" + decision_id + "' at this step");
    return;
  }
  if (decision->seat != seat->seat.id) {
    error(peer, correlation_id, v1::ERROR_CODE_PERMISSION_DENIED,
          "decision '" + decision_id + "' is owed by seat " + decision->seat + ", not " + seat->seat.id);
    return;
  }
  auto answer = codec::from_proto(request.answer(), seat->seat.id);
  auto verdict = game_->check(answer);
  if (!verdict) {
    auto e = make_error(correlation_id, v1::ERROR_CODE_ILLEGAL_ANSWER, verdict.error().reason);
    auto& ctx = *e.mutable_error()->mutable_context();
    ctx["rule"] = verdict.error().code;
    ctx["decision_id"] = decision_id;
    ctx["game_id"] = record_.id;
    services_.metrics.errors++;
    spdlog::info("{} illegal answer to {}: {}", peer->describe(), decision_id, verdict.error().reason);
    peer->send(make_outgoing(std::move(e)));
    return;
  }
  v1::StoredAnswer stored;
  stored.set_step(game_->step());
  stored.mutable_answer()->set_seat(answer.seat);
  codec::to_proto(answer, stored.mutable_answer()->mutable_answer());
  answers_[decision_id] = std::move(answer);
  // Acknowledged only once it is on disk.
  append("answer", stored, 0, [peer, correlation_id, decision_id] {
    v1::Envelope reply;
    reply.set_correlation_id(correlation_id);
    reply.mutable_answer_accepted()->set_decision_id(decision_id);
    peer->send(make_outgoing(std::move(reply)));
  });
}

std::optional<rules::Answer> Room::fallback_answer(const SeatState& seat, const rules::Decision& decision) const {
  auto legal = [&](rules::Answer a) -> std::optional<rules::Answer> {
    a.decision_id = decision.id;
    a.seat = seat.seat.id;
    if (game_->check(a)) return a;
    return std::nullopt;
  };
  if (settings_.missed_deadline() == v1::MISSED_DEADLINE_STANDING_ORDERS) {
    if (auto it = seat.standing.find(decision.kind); it != seat.standing.end()) {
      if (auto a = legal(rules::Answer{{}, {}, it->second, {}})) return a;
    }
  }
  if (settings_.missed_deadline() == v1::MISSED_DEADLINE_REPEAT_LAST) {
    if (auto it = previous_.find(decision.id); it != previous_.end()) {
      if (auto a = legal(it->second)) return a;
    }
  }
  // Hold / halt / stand: the ruleset's default.
  if (auto a = legal(rules::Answer{{}, {}, decision.default_option, {}})) return a;
  return std::nullopt;
}

void Room::lock_with_defaults(SeatState& seat, const std::string& why) {
  v1::StoredLock stored;
  stored.set_step(game_->step());
  stored.set_seat(seat.seat.id);
  std::vector<std::string> defaulted;
  for (const auto& d : pending_) {
    if (d.seat != seat.seat.id || answers_.contains(d.id)) continue;
    auto a = fallback_answer(seat, d);
    if (!a) {
      spdlog::error("game {} step {}: decision {} has no legal default", record_.id, game_->step(), d.id);
      return;  // the seat stays unlocked; the umpire can answer for it
    }
    auto* sa = stored.add_defaulted();
    sa->set_seat(a->seat);
    sa->set_defaulted(true);
    codec::to_proto(*a, sa->mutable_answer());
    defaulted.push_back(d.id);
    answers_[d.id] = std::move(*a);
  }
  locked_.insert(seat.seat.id);
  const char* policy = settings_.missed_deadline() == v1::MISSED_DEADLINE_REPEAT_LAST ? "repeat last answer"
                       : settings_.missed_deadline() == v1::MISSED_DEADLINE_STANDING_ORDERS
                           ? "standing orders"
                           : "hold, halt or stand";
  const std::string text = "seat " + seat.seat.id + " " + why + ": " + std::to_string(defaulted.size()) +
                           " decision(s) took " + policy;
  append("lock", stored, 0, [self = shared_from_this(), text] {
    self->notice("defaulted", text, 0, Audience::kPlayers);
    self->send_seat_status();
  });
}

void Room::do_lock(const v1::LockAnswers& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id) {
  SeatState* seat = acting_seat(peer, request.step(), request.seat(), correlation_id);
  if (seat == nullptr) return;
  const auto owing = owing_seats();
  if (!owing.contains(seat->seat.id)) {
    error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT, "seat " + seat->seat.id + " owes nothing at this step");
    return;
  }
  // Unanswered decisions take their default; one without a default must be answered.
  v1::Envelope reply;
  reply.set_correlation_id(correlation_id);
  auto* locked = reply.mutable_answers_locked();
  locked->set_step(game_->step());
  std::vector<rules::Answer> defaults;
  for (const auto& d : pending_) {
    if (d.seat != seat->seat.id || answers_.contains(d.id)) continue;
    rules::Answer a{d.id, d.seat, d.default_option, {}};
    if (d.default_option.empty() || !game_->check(a)) {
      error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT,
            "decision '" + d.id + "' (" + d.prompt + ") has no default: answer it before locking");
      return;
    }
    defaults.push_back(std::move(a));
    locked->add_defaulted(d.id);
  }
  v1::StoredLock stored;
  stored.set_step(game_->step());
  stored.set_seat(seat->seat.id);
  for (auto& a : defaults) {
    auto* d = stored.add_defaulted();
    d->set_seat(a.seat);
    d->set_defaulted(true);
    codec::to_proto(a, d->mutable_answer());
    answers_[a.decision_id] = std::move(a);
  }
  locked_.insert(seat->seat.id);
  auto ack = make_outgoing(std::move(reply));
  append("lock", stored, 0, [self = shared_from_this(), peer, ack] {
    peer->send(ack);
    self->send_seat_status();
  });
  if (locked_.size() == owing.size()) resolve_step();
}

v1::Envelope Room::seat_status() const {
  v1::Envelope status;
  auto* st = status.mutable_seat_status();
  st->set_game_id(record_.id);
  st->set_step(game_->step());
  for (const auto& s : owing_seats()) {
    st->add_owing(s);
    if (locked_.contains(s)) st->add_locked(s);
  }
  *st->mutable_bots() = settings_.bot_seats();
  return status;
}

void Room::send_seat_status() { send_to_all(make_outgoing(seat_status()), Audience::kPlayers); }

void Room::resolve_step() {
  std::vector<rules::Answer> answers;
  v1::StoredStep stored;
  const std::uint64_t step = game_->step();
  stored.set_step(step);
  for (const auto& d : pending_) {
    auto it = answers_.find(d.id);
    if (it == answers_.end()) return;  // not every decision has an answer yet
    answers.push_back(it->second);
    auto* sa = stored.add_answers();
    sa->set_seat(it->second.seat);
    codec::to_proto(it->second, sa->mutable_answer());
  }

  rules::KeyedDice dice(seed_, step);
  auto resolved = game_->resolve(answers, dice);
  if (!resolved) {
    // Every answer passed check() alone; together they do not. Reopen the step.
    spdlog::warn("game {} step {}: the answers conflict: {}", record_.id, step, resolved.error().reason);
    locked_.clear();
    v1::Envelope e = make_error(0, v1::ERROR_CODE_ILLEGAL_ANSWER,
                                "the step could not be resolved: " + resolved.error().reason +
                                    "; revise your answers and lock again");
    (*e.mutable_error()->mutable_context())["rule"] = resolved.error().code;
    (*e.mutable_error()->mutable_context())["game_id"] = record_.id;
    send_to_all(make_outgoing(std::move(e)), Audience::kPlayers);
    send_seat_status();
    ++bot_attempt_;  // bot seats answer again, more cautiously (room_bots.cpp)
    play_bot_seats();
    return;
  }

  auto next = std::move(resolved.value().next);
  auto wire = wire_events(resolved.value().events);
  const auto hash = next->state_hash();
  auto masks = seat_masks(*next, resolved.value().events);
  for (const auto m : masks) stored.add_event_seat_masks(m);
  for (const auto& e : wire) *stored.add_events() = e;
  // Nothing is announced before the step is on disk.
  resolving_ = true;
  struct Pending {
    std::unique_ptr<rules::Game> next;
    std::vector<v1::Event> wire;
    std::vector<std::uint64_t> masks;
    std::vector<rules::Answer> answers;
  };
  auto holder = std::make_shared<Pending>(Pending{std::move(next), std::move(wire), std::move(masks), std::move(answers)});
  append("resolve", stored, hash, [self = shared_from_this(), holder, seq = log_seq_ + 1] {
    self->on_step_stored(std::move(holder->next), std::move(holder->wire), std::move(holder->masks),
                         holder->answers, seq);
  });
}

std::vector<std::uint64_t> Room::seat_masks(const rules::Game& next, const std::vector<rules::Event>& events) const {
  // The one visibility path decides, on the resolved state.
  std::vector<std::uint64_t> masks(events.size(), 0);
  for (std::size_t s = 0; s < seats_.size() && s < 64; ++s) {
    const auto& seat = seats_[s];
    std::string as = seat.seat.id;
    rules::ViewSettings settings = view_settings_;
    if (is_spectator(seat)) {
      as = settings_.spectator_side().empty() ? "umpire" : settings_.spectator_side() + "/army";
      settings.side_shared_vision = true;
    }
    for (const auto i : next.visible_events(events, as, settings)) {
      if (i < masks.size()) masks[i] |= std::uint64_t{1} << s;
    }
  }
  return masks;
}

std::vector<v1::Event> Room::wire_events(const std::vector<rules::Event>& events) const {
  std::vector<v1::Event> wire(events.size());
  for (std::size_t i = 0; i < events.size(); ++i) {
    codec::to_proto(events[i], &wire[i]);
    wire[i].set_sequence(history_.size() + 1 + i);
    wire[i].set_step(game_->step());
    wire[i].set_turn(game_->turn());
    wire[i].set_phase(game_->phase());
  }
  return wire;
}

void Room::add_history(std::vector<v1::Event> wire, const std::vector<std::uint64_t>& masks, bool superseded) {
  for (std::size_t i = 0; i < wire.size(); ++i) {
    HistoryEvent h;
    h.wire = std::move(wire[i]);
    // Numbered by position, whatever a damaged or older entry says.
    h.wire.set_sequence(history_.size() + 1);
    h.seat_mask = i < masks.size() ? masks[i] : 0;
    h.superseded = superseded;
    history_.push_back(std::move(h));
  }
}

void Room::apply_resolution(std::unique_ptr<rules::Game> next, std::vector<v1::Event> wire,
                            const std::vector<std::uint64_t>& masks, const std::vector<rules::Answer>& answers) {
  for (const auto& a : answers) previous_[a.decision_id] = a;
  add_history(std::move(wire), masks, false);

  const auto old_turn = game_->turn();
  game_ = std::move(next);
  if (game_->turn() != old_turn && !turn_start_.contains(game_->turn())) turn_start_[game_->turn()] = game_->clone();
  deadline_ms_ = 0;
  warned_deadline_ = false;
  refresh_pending();
}

void Room::on_step_stored(std::unique_ptr<rules::Game> next, std::vector<v1::Event> wire,
                          std::vector<std::uint64_t> masks, const std::vector<rules::Answer>& answers,
                          std::uint64_t seq) {
  resolving_ = false;
  const bool answered = !pending_.empty();
  const std::uint64_t step = game_->step();
  const auto old_turn = game_->turn();
  const std::size_t first_new = history_.size();
  const std::size_t event_count = wire.size();
  const auto spectator_before = spectator_turn();
  resolve_seq_[step] = seq;
  apply_resolution(std::move(next), std::move(wire), masks, answers);
  if (answered) idle_resolutions_ = 0;
  spdlog::info("game {} resolved step {} ({} events); turn {} {}", record_.id, step, event_count, game_->turn(),
               game_->phase());
  snapshot_after(seq, game_->turn() != old_turn);

  for (auto& seat : seats_) {
    if (seat.peers.empty()) {
      seat.shown.reset();
      continue;
    }
    const auto bit = std::uint64_t{1} << index_of(seat);
    auto out = std::make_shared<Outgoing>(Outgoing::OnArena{});
    auto* sr = out->build()->mutable_step_resolved();
    sr->set_game_id(record_.id);
    sr->set_step(step);
    if (is_spectator(seat)) {
      // Spectators learn of events only once the delay has passed them.
      for (std::size_t i = 0; i < history_.size(); ++i) {
        const auto turn = history_[i].wire.turn();
        if (turn > spectator_before && turn <= spectator_turn() && (history_[i].seat_mask & bit) != 0 &&
            !history_[i].superseded) {
          *sr->add_events() = history_[i].wire;
        }
      }
      if (settings_.spectator_delay_turns() == 0 || ended()) {
        sr->clear_events();
        for (std::size_t i = first_new; i < history_.size(); ++i) {
          if ((history_[i].seat_mask & bit) != 0 || ended()) *sr->add_events() = history_[i].wire;
        }
      }
    } else {
      for (std::size_t i = first_new; i < history_.size(); ++i) {
        if (is_umpire(seat) || (history_[i].seat_mask & bit) != 0) *sr->add_events() = history_[i].wire;
      }
      fill_decisions(seat.seat.id, sr->mutable_next());
    }
    fill_step_view(seat, sr);
    if (sr->has_change()) {
      send_view_change(seat, std::move(out));
    } else {
      send_to_seat(seat, std::move(out));
    }
  }
  send_seat_status();
  if (ended()) {
    announce_end();
    return;
  }
  notify("step_resolved", "", "step " + std::to_string(step) + " resolved; now turn " +
                                  std::to_string(game_->turn()) + ", " + game_->phase());
  for (const auto& seat : owing_seats()) {
    if (is_bot(seat)) continue;  // answered at once, below
    notify("decision_owed", seat, "seat " + seat + " owes decisions at step " + std::to_string(game_->step()));
  }
  open_deadline();
  play_bot_seats();
  advance_if_idle();
}

void Room::snapshot_after(std::uint64_t seq, bool turn_start) {
  if (!turn_start && ++resolves_since_snapshot_ < kSnapshotEvery) return;
  persistence::SnapshotRecord snap;
  snap.game_id = record_.id;
  snap.seq = seq;
  snap.turn = game_->turn();
  snap.state_hash = game_->state_hash();
  snap.turn_start = turn_start;
  snap.state = game_->snapshot();
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

void Room::advance_if_idle() {
  if (failed_ || resolving_ || ended() || !pending_.empty()) return;
  // The engine resolves on to the next decision; a state that asks for
  // nothing twice running is a bug there, not a reason to spin.
  if (++idle_resolutions_ > 2) {
    spdlog::error("game {}: the engine asks for no decision at step {} and has not ended", record_.id, game_->step());
    return;
  }
  resolve_step();
}

void Room::open_deadline() {
  if ((settings_.step_deadline_seconds() == 0 && !daily_deadline_) || pending_.empty() || ended()) return;
  constexpr std::int64_t kDailyLeadMs = 3600 * 1000;  // a step gets at least an hour
  const auto now = services_.clock.now_ms();
  deadline_ms_ = daily_deadline_ ? next_daily_deadline(now, *daily_deadline_, kDailyLeadMs)
                                 : now + static_cast<std::int64_t>(settings_.step_deadline_seconds()) * 1000;
  v1::StoredDeadline stored;
  stored.set_step(game_->step());
  stored.set_deadline_ms(deadline_ms_);
  append("deadline", stored, 0, [self = shared_from_this(), step = game_->step(), at = deadline_ms_] {
    self->notice("deadline", "step " + std::to_string(self->game_->step()) + " closes at the deadline", 0,
                 Audience::kPlayers);
    self->notify("deadline", "", "step " + std::to_string(step) + " closes at " + utc_text(at));
  });
}

std::string Room::end_text() const {
  std::string text = ended_by_umpire_ ? "the umpire ended the game" : "the game has ended";
  if (!umpire_result_.empty()) text += ": " + umpire_result_;
  return text;
}

void Room::announce_end() {
  const std::string text = end_text();
  // The seed is revealed only once the store says the game has ended, so an
  // export made from then on carries it too.
  record_.ended = true;
  services_.store.mark_ended(record_.id, [self = shared_from_this(), text](persistence::Status status) {
    net::post(self->strand_, [self, text, status] {
      if (self->failed_) return;
      if (!status.ok()) return self->fail(status.error->message);
      v1::Envelope env;
      auto* n = env.mutable_notice();
      n->set_game_id(self->record_.id);
      n->set_kind("ended");
      n->set_text(text);
      n->set_seed_hex(hex(self->seed_));  // the dice can now be verified by everyone
      self->send_to_all(make_outgoing(std::move(env)));
      self->notify("game_ended", "", text);
    });
  });
}

void Room::notify(const std::string& kind, const std::string& seat, const std::string& text) {
  const Notification n{kind, record_.id, seat, text};
  // A digest lists each step's deadline ("deadline"); a live hook hears "deadline_near" instead.
  auto deliver = [&](const std::string& key, const Webhook& hook) {
    if (hook.daily_digest) {
      if (kind != "deadline_near") queue_digest(key, n);
    } else if (kind != "deadline") {
      services_.notifier.send(hook, n);
    }
  };
  if (!seat.empty()) {
    if (auto* s = seat_named(seat); s != nullptr && s->webhook) deliver("seat:" + s->seat.id, *s->webhook);
  } else {
    for (auto& s : seats_) {
      if (s.webhook) deliver("seat:" + s.seat.id, *s.webhook);
    }
  }
  for (int i = 0; i < settings_.webhooks_size(); ++i) {
    const auto& hook = settings_.webhooks(i);
    deliver("game:" + std::to_string(i),
            Webhook{hook.url(), static_cast<WebhookFormat>(hook.format()), hook.daily_digest()});
  }
}

void Room::do_notifications(const v1::SetNotifications& request, const std::shared_ptr<Peer>& peer,
                            std::uint64_t correlation_id) {
  if (refuse_if_unavailable(peer, correlation_id)) return;
  SeatState* seat = seat_of(peer);
  if (seat == nullptr || is_spectator(*seat)) {
    return error(peer, correlation_id, v1::ERROR_CODE_PERMISSION_DENIED, "join a seat to set its notifications");
  }
  const auto& url = request.webhook().url();
  if (!url.empty() && !parse_webhook_url(url)) {
    return error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT,
                 "the webhook must be an http:// or https:// URL with a host");
  }
  v1::StoredNotifications stored;
  stored.set_seat(seat->seat.id);
  *stored.mutable_webhook() = request.webhook();
  seat->webhook.reset();
  digests_.erase("seat:" + seat->seat.id);  // what was queued was for the old hook
  if (!url.empty()) {
    seat->webhook = Webhook{url, static_cast<WebhookFormat>(request.webhook().format()), request.webhook().daily_digest()};
  }
  append("notify", stored, 0, [peer, correlation_id] {
    v1::Envelope reply;
    reply.set_correlation_id(correlation_id);
    reply.mutable_notifications_set();
    peer->send(make_outgoing(std::move(reply)));
  });
}

// ---- Pushes. ----

void Room::notice(const std::string& kind, const std::string& text, std::uint64_t step, Audience audience) {
  v1::Envelope env;
  auto* n = env.mutable_notice();
  n->set_game_id(record_.id);
  n->set_kind(kind);
  n->set_text(text);
  n->set_step(step);
  n->set_deadline_unix(deadline_ms_ / 1000);
  n->set_paused(paused_);
  send_to_all(make_outgoing(std::move(env)), audience);
}

// ---- Standing orders, umpire, chat. ----

void Room::do_standing(const v1::SetStandingOrders& request, const std::shared_ptr<Peer>& peer,
                       std::uint64_t correlation_id) {
  if (refuse_if_unavailable(peer, correlation_id)) return;
  SeatState* seat = seat_of(peer);
  if (seat == nullptr || is_spectator(*seat) || is_umpire(*seat)) {
    error(peer, correlation_id, v1::ERROR_CODE_PERMISSION_DENIED, "only a player's seat has standing orders");
    return;
  }
  v1::StoredStanding stored;
  stored.set_seat(seat->seat.id);
  *stored.mutable_by_kind() = request.by_kind();
  seat->standing = {request.by_kind().begin(), request.by_kind().end()};
  append("standing", stored, 0, [peer, correlation_id] {
    v1::Envelope reply;
    reply.set_correlation_id(correlation_id);
    reply.mutable_standing_orders_set();
    peer->send(make_outgoing(std::move(reply)));
  });
}

void Room::apply_umpire(const std::string& seat, const v1::UmpireAction& action, std::int64_t at_ms,
                        std::uint64_t step, bool undone) {
  switch (action.action_case()) {
    case v1::UmpireAction::kPause:
      paused_ = true;
      paused_by_ = seat;
      paused_at_ms_ = at_ms;
      pause_until_ms_ = 0;
      if (seat != "umpire" && settings_.max_pause_seconds() > 0) {
        pause_until_ms_ = at_ms + static_cast<std::int64_t>(settings_.max_pause_seconds()) * 1000;
      }
      if (auto* s = seat_named(seat); s != nullptr && !is_umpire(*s)) ++s->pauses_used;
      break;
    case v1::UmpireAction::kResume:
      // The open step keeps the time it had left when play stopped.
      if (deadline_ms_ != 0 && paused_) deadline_ms_ += at_ms - paused_at_ms_;
      paused_ = false;
      pause_until_ms_ = 0;
      break;
    case v1::UmpireAction::kSetDeadline:
      deadline_ms_ = action.set_deadline().deadline_unix() * 1000;
      break;
    case v1::UmpireAction::kEndGame:
      ended_by_umpire_ = true;
      umpire_result_ = action.end_game().result();
      refresh_pending();
      break;
    case v1::UmpireAction::kRewind:
      // The entries of the undone steps are superseded in the log and were
      // skipped on the way here, so the state is already the rewound one;
      // what the open step had gathered goes.
      answers_.clear();
      locked_.clear();
      deadline_ms_ = 0;
      warned_deadline_ = false;
      for (auto it = resolve_seq_.lower_bound(action.rewind().to_step()); it != resolve_seq_.end();) {
        it = resolve_seq_.erase(it);
      }
      break;
    case v1::UmpireAction::kSetBotSeat:
      apply_bot_seat(action.set_bot_seat());
      break;
    default:
      break;  // force, broadcast: their effects are other log entries; edits: apply_edit
  }
  v1::AuditEntry entry;
  entry.set_at_unix(at_ms / 1000);
  entry.set_seat(seat);
  entry.set_action(action_name(action));
  entry.set_reason(action.reason());
  entry.set_step(step);
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
  audit_.push_back(std::move(entry));
}

void Room::do_umpire(const v1::UmpireAction& request, const std::shared_ptr<Peer>& peer,
                     std::uint64_t correlation_id) {
  if (refuse_if_unavailable(peer, correlation_id)) return;
  SeatState* seat = seat_of(peer);
  if (seat == nullptr || is_spectator(*seat)) {
    return error(peer, correlation_id, v1::ERROR_CODE_PERMISSION_DENIED,
                 "this connection holds no seat in game " + record_.id);
  }
  const bool umpire = is_umpire(*seat);
  const auto kind = request.action_case();
  const bool player_may = kind == v1::UmpireAction::kPause || kind == v1::UmpireAction::kResume;
  if (!umpire && !player_may) {
    return error(peer, correlation_id, v1::ERROR_CODE_PERMISSION_DENIED,
                 "only the umpire may " + action_name(request) + "; you hold " + seat->seat.id);
  }
  if (request.reason().empty()) {
    return error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT,
                 "every umpire action needs a reason for the audit trail");
  }
  if (ended()) return error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT, "the game has ended");

  std::string notice_kind, notice_text;
  Audience audience = Audience::kEveryone;  // of the notice
  switch (kind) {
    case v1::UmpireAction::kPause:
      if (paused_) return error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT, "the game is already paused");
      if (!umpire && seat->pauses_used >= settings_.max_player_pauses()) {
        return error(peer, correlation_id, v1::ERROR_CODE_PERMISSION_DENIED,
                     "seat " + seat->seat.id + " has used its " + std::to_string(settings_.max_player_pauses()) +
                         " pause(s); ask the umpire");
      }
      notice_kind = "paused";
      notice_text = seat->seat.id + " paused the game: " + request.reason();
      break;
    case v1::UmpireAction::kResume: {
      if (!paused_) return error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT, "the game is not paused");
      if (!umpire && paused_by_ != seat->seat.id) {
        return error(peer, correlation_id, v1::ERROR_CODE_PERMISSION_DENIED,
                     "only the umpire or the seat that paused may resume");
      }
      notice_kind = "resumed";
      notice_text = seat->seat.id + " resumed the game: " + request.reason();
      break;
    }
    case v1::UmpireAction::kForceResolve:
      if (pending_.empty() || resolving_) {
        return error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT, "no step is open to force");
      }
      notice_kind = "forced";
      notice_text = "the umpire forced step " + std::to_string(game_->step()) + ": " + request.reason();
      audience = Audience::kPlayers;  // spectators see the step's result, not how it came
      break;
    case v1::UmpireAction::kSetDeadline:
      if (request.set_deadline().deadline_unix() < 0) {
        return error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT, "a deadline is a Unix time, or 0 for none");
      }
      notice_kind = "deadline";
      notice_text = "the umpire set the deadline: " + request.reason();
      audience = Audience::kPlayers;
      break;
    case v1::UmpireAction::kBroadcast:
      if (request.broadcast().text().empty() || request.broadcast().text().size() > kMaxChatLength) {
        return error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT, "a broadcast needs 1-2000 characters");
      }
      notice_kind = "broadcast";
      notice_text = request.broadcast().text();
      break;
    case v1::UmpireAction::kEndGame:
      notice_kind = "";  // announce_end says it, with the seed
      break;
    case v1::UmpireAction::kRewind:
      return do_rewind(request, *seat, peer, correlation_id);
    case v1::UmpireAction::kEditState:
      return do_edit(request, *seat, peer, correlation_id);
    case v1::UmpireAction::kSetBotSeat:
      if (auto refused = check_bot_seat(request.set_bot_seat())) {
        return error(peer, correlation_id, refused->first, refused->second);
      }
      notice_kind = "bot_seat";
      notice_text = "the umpire gave seat " + request.set_bot_seat().seat() +
                    (request.set_bot_seat().bot() ? " to the bot: " : " back to its player: ") + request.reason();
      break;
    default:
      return error(peer, correlation_id, v1::ERROR_CODE_UNKNOWN_MESSAGE, "UmpireAction carries no action");
  }

  const auto now = services_.clock.now_ms();
  v1::StoredUmpire stored;
  stored.set_seat(seat->seat.id);
  *stored.mutable_action() = request;
  stored.set_at_ms(now);
  stored.set_step(game_->step());
  apply_umpire(seat->seat.id, request, now, game_->step());
  const std::string name = action_name(request);
  append("umpire", stored, 0,
         [self = shared_from_this(), peer, correlation_id, name, notice_kind, notice_text, audience] {
    v1::Envelope reply;
    reply.set_correlation_id(correlation_id);
    reply.mutable_umpire_done()->set_action(name);
    peer->send(make_outgoing(std::move(reply)));
    if (!notice_kind.empty()) self->notice(notice_kind, notice_text, 0, audience);
    if (self->ended()) return self->announce_end();
    if (name == "set_bot_seat") self->send_seat_status();
    self->play_bot_seats();  // a resume, or a seat handed to the bot, may let bots play
  });
  spdlog::info("{} umpire action {}: {}", peer->describe(), name, request.reason());

  if (kind == v1::UmpireAction::kForceResolve) {
    for (const auto& s : owing_seats()) {
      if (locked_.contains(s)) continue;
      if (auto* owing = seat_named(s)) lock_with_defaults(*owing, "was forced by the umpire");
    }
    if (locked_.size() == owing_seats().size()) resolve_step();
  }
}

void Room::do_rewind(const v1::UmpireAction& request, SeatState& seat, const std::shared_ptr<Peer>& peer,
                     std::uint64_t correlation_id) {
  const auto to_step = request.rewind().to_step();
  if (to_step > game_->step()) {
    return error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT,
                 "step " + std::to_string(to_step) + " has not been played; the current step is " +
                     std::to_string(game_->step()));
  }
  if (resolving_) {
    return error(peer, correlation_id, v1::ERROR_CODE_UNAVAILABLE,
                 "step " + std::to_string(game_->step()) + " is being stored; send the rewind again in a moment");
  }
  // Step K opens again: what came after the resolution of step K-1 is undone.
  std::uint64_t after_seq = 0;
  if (to_step > 0) {
    auto it = resolve_seq_.find(to_step - 1);
    if (it == resolve_seq_.end()) {
      return error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT,
                   "step " + std::to_string(to_step) + " cannot be returned to: the log has no resolution of step " +
                       std::to_string(to_step - 1));
    }
    after_seq = it->second;
  }
  const auto now = services_.clock.now_ms();
  v1::StoredUmpire stored;
  stored.set_seat(seat.seat.id);
  *stored.mutable_action() = request;
  stored.set_at_ms(now);
  stored.set_step(game_->step());

  persistence::RewindRecord rewind;
  rewind.game_id = record_.id;
  rewind.after_seq = after_seq;
  rewind.kinds = rewound_kinds();
  rewind.entry.game_id = record_.id;
  rewind.entry.seq = ++log_seq_;
  rewind.entry.kind = "umpire";
  const std::string bytes = stored.SerializeAsString();
  rewind.entry.payload.assign(bytes.begin(), bytes.end());
  rewind.entry.created_unix = services_.clock.now_unix();
  // Nothing else is written until the room has reloaded from the rewound log.
  reloading_ = true;
  const std::string text = "the umpire rewound the game from step " + std::to_string(game_->step()) + " to step " +
                           std::to_string(to_step) + ": " + request.reason();
  spdlog::info("{} umpire action rewind to step {} (after log entry {}): {}", peer->describe(), to_step, after_seq,
               request.reason());
  services_.store.rewind(std::move(rewind), [self = shared_from_this(), peer, correlation_id,
                                             text](persistence::Status status) {
    net::post(self->strand_, [self, peer, correlation_id, text, status] {
      if (self->failed_) return;
      if (!status.ok()) {
        // Nothing of the rewind is on disk; the game is as it was.
        self->reloading_ = false;
        --self->log_seq_;
        return self->error(peer, correlation_id, v1::ERROR_CODE_STORAGE,
                           "the rewind could not be stored (" + status.error->message + "); nothing changed");
      }
      self->reload_after_rewind(peer, correlation_id, text);
    });
  });
}

void Room::apply_edit(std::unique_ptr<rules::Game> next) {
  game_ = std::move(next);
  // The edit reopens the open step (RULINGS.md "Umpire edits"): answers given
  // to the old state may not fit the new one, so every owing seat answers again.
  refresh_pending();
  idle_resolutions_ = 0;
}

void Room::do_edit(const v1::UmpireAction& request, SeatState& seat, const std::shared_ptr<Peer>& peer,
                   std::uint64_t correlation_id) {
  if (resolving_) {
    return error(peer, correlation_id, v1::ERROR_CODE_UNAVAILABLE,
                 "step " + std::to_string(game_->step()) + " is being stored; send the edit again in a moment");
  }
  const rules::StateEdit edit = codec::from_proto(request.edit_state());
  auto edited = game_->edit(edit);
  if (!edited) {
    auto e = make_error(correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT,
                        "the edit was refused: " + edited.error().reason + "; nothing changed");
    (*e.mutable_error()->mutable_context())["code"] = edited.error().code;
    (*e.mutable_error()->mutable_context())["game_id"] = record_.id;
    peer->send(make_outgoing(std::move(e)));
    return;
  }
  const auto now = services_.clock.now_ms();
  v1::StoredUmpire stored;
  stored.set_seat(seat.seat.id);
  *stored.mutable_action() = request;
  stored.set_at_ms(now);
  stored.set_step(game_->step());
  const rules::StateHash hash = edited.value()->state_hash();
  const std::string text = "the umpire edited the state (" + rules::describe(edit) + "): " + request.reason();
  const bool had_answers = !answers_.empty() || !locked_.empty();
  apply_umpire(seat.seat.id, request, now, game_->step());
  apply_edit(std::move(edited.value()));
  spdlog::info("{} umpire action edit_state {}: {}", peer->describe(), rules::describe(edit), request.reason());
  append("edit", stored, hash, [self = shared_from_this(), peer, correlation_id, text, had_answers] {
    v1::Envelope reply;
    reply.set_correlation_id(correlation_id);
    reply.mutable_umpire_done()->set_action("edit_state");
    peer->send(make_outgoing(std::move(reply)));
    self->send_fresh_state();
    self->notice("edited", had_answers ? text + " (the step is open again: answer anew)" : text,
                 self->game_->step());
    self->play_bot_seats();
    self->advance_if_idle();
  });
}

void Room::reload_after_rewind(const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id, std::string text) {
  // The same path as loading the game: snapshots, then the log.
  auto self = shared_from_this();
  services_.store.load_snapshots(
      record_.id, snapshot_turns_back(record_),
      [self, peer, correlation_id, text](std::vector<persistence::SnapshotRecord> snapshots,
                                         persistence::Status status) mutable {
        if (!status.ok()) {
          return net::post(self->strand_, [self, status] { self->fail(status.error->message); });
        }
        self->services_.store.load_steps(
            self->record_.id, 0,
            [self, peer, correlation_id, text, snapshots = std::move(snapshots)](
                std::vector<persistence::StepRecord> log, persistence::Status status) mutable {
              net::post(self->strand_, [self, peer, correlation_id, text, snapshots = std::move(snapshots),
                                        log = std::move(log), status] {
                if (self->failed_) return;
                if (!status.ok()) return self->fail(status.error->message);
                self->reset_log_state();
                if (auto problem = self->restore(log, snapshots)) return self->fail(*problem);
                self->reloading_ = false;
                v1::Envelope reply;
                reply.set_correlation_id(correlation_id);
                reply.mutable_umpire_done()->set_action("rewind");
                peer->send(make_outgoing(std::move(reply)));
                self->send_fresh_state();
                self->notice("rewound", text, self->game_->step());
                self->resume_play();
              });
            });
      });
}

void Room::send_fresh_state() {
  for (auto& seat : seats_) {
    if (seat.peers.empty()) {
      seat.shown.reset();
      continue;
    }
    v1::Envelope view;
    fill_view(seat, view.mutable_view());
    send_to_seat(seat, make_outgoing(std::move(view)));
    if (is_spectator(seat)) continue;
    v1::Envelope owed;
    fill_decisions(seat.seat.id, owed.mutable_decisions());
    send_to_seat(seat, make_outgoing(std::move(owed)));
  }
  send_seat_status();
}

bool Room::may_read(const SeatState& reader, const v1::ChatMessage& m) const {
  if (is_umpire(reader)) return true;
  switch (m.channel()) {
    case v1::CHAT_CHANNEL_ALL: return true;
    case v1::CHAT_CHANNEL_SIDE: return !is_spectator(reader) && reader.seat.side == m.side();
    case v1::CHAT_CHANNEL_WING: return reader.seat.id == m.from_seat();
    case v1::CHAT_CHANNEL_UMPIRE: return reader.seat.id == m.from_seat() || reader.seat.id == m.to_seat();
    default: return false;
  }
}

void Room::send_chat(const v1::ChatMessage& message) {
  v1::Envelope env;
  *env.mutable_chat() = message;
  auto out = make_outgoing(std::move(env));
  for (auto& seat : seats_) {
    if (may_read(seat, message)) send_to_seat(seat, out);
  }
}

void Room::do_chat(const v1::SendChat& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id) {
  if (refuse_if_unavailable(peer, correlation_id)) return;
  SeatState* seat = seat_of(peer);
  if (seat == nullptr || is_spectator(*seat)) {
    return error(peer, correlation_id, v1::ERROR_CODE_PERMISSION_DENIED,
                 "only players and the umpire of game " + record_.id + " may chat");
  }
  if (request.text().empty() || request.text().size() > kMaxChatLength) {
    return error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT, "a chat message has 1-2000 characters");
  }
  v1::ChatMessage m;
  m.set_game_id(record_.id);
  m.set_from_seat(seat->seat.id);
  m.set_channel(request.channel());
  m.set_side(seat->seat.side);
  m.set_text(request.text());
  m.set_sent_unix(services_.clock.now_unix());
  switch (request.channel()) {
    case v1::CHAT_CHANNEL_ALL:
    case v1::CHAT_CHANNEL_WING:
      break;
    case v1::CHAT_CHANNEL_SIDE:
      if (seat->seat.side.empty()) {
        return error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT,
                     "the umpire has no side: write to all, or privately to a seat");
      }
      break;
    case v1::CHAT_CHANNEL_UMPIRE:
      if (is_umpire(*seat)) {
        const auto* to = seat_named(request.to_seat());
        if (to == nullptr || is_spectator(*to) || is_umpire(*to)) {
          return error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT,
                       "a private umpire message names the seat it is for (to_seat)");
        }
        m.set_to_seat(request.to_seat());
      } else {
        m.set_to_seat("umpire");
      }
      break;
    default:
      return error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT, "unknown chat channel");
  }
  m.set_sequence(chat_.size() + 1);
  chat_.push_back(m);
  append("chat", m, 0, [self = shared_from_this(), peer, correlation_id, m] {
    v1::Envelope reply;
    reply.set_correlation_id(correlation_id);
    reply.mutable_chat_sent()->set_sequence(m.sequence());
    peer->send(make_outgoing(std::move(reply)));
    self->send_chat(m);
  });
}

void Room::do_audit(const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id) {
  SeatState* seat = seat_of(peer);
  if (seat == nullptr || !is_umpire(*seat)) {
    return error(peer, correlation_id, v1::ERROR_CODE_PERMISSION_DENIED, "the audit trail is the umpire's");
  }
  v1::Envelope reply;
  reply.set_correlation_id(correlation_id);
  auto* trail = reply.mutable_audit_trail();
  for (const auto& e : audit_) *trail->add_entries() = e;
  peer->send(make_outgoing(std::move(reply)));
}

// ---- Log. ----

void Room::append(std::string kind, const google::protobuf::MessageLite& payload, rules::StateHash hash,
                  std::function<void()> committed) {
  persistence::StepRecord record;
  record.game_id = record_.id;
  record.seq = ++log_seq_;
  record.kind = std::move(kind);
  const std::string bytes = payload.SerializeAsString();
  record.payload.assign(bytes.begin(), bytes.end());
  record.state_hash = hash;
  record.created_unix = services_.clock.now_unix();
  // The writer is first-in first-out, so entries commit in the order written.
  services_.store.append_step(std::move(record), [self = shared_from_this(), committed = std::move(committed)](
                                                     persistence::Status status) mutable {
    net::post(self->strand_, [self, committed = std::move(committed), status] {
      if (self->failed_) return;
      if (!status.ok()) return self->fail(status.error->message);
      committed();
    });
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
  send_to_all(make_outgoing(std::move(e)));
  if (on_failed_) on_failed_(record_.id);
}

// ---- Questions. ----

void Room::odds(v1::OddsRequest request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id) {
  post_request(&Room::do_odds, std::move(request), std::move(peer), correlation_id);
}

// Odds are a question, not an action: nothing is appended to the game's log,
// no step, lock or deadline is touched, and no other seat is told. So they may
// be asked at any time, paused or between steps, by the seat for its own
// units (the umpire for any seat's); what the answer may use is the rules'
// business (Game::odds sees only the asking seat's view).
void Room::do_odds(const v1::OddsRequest& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id) {
  if (refuse_if_unavailable(peer, correlation_id)) return;
  SeatState* seat = seat_of(peer);
  if (seat == nullptr) {
    return error(peer, correlation_id, v1::ERROR_CODE_PERMISSION_DENIED,
                 "this connection holds no seat in game " + record_.id + "; join with your invite link first");
  }
  if (is_spectator(*seat)) {
    return error(peer, correlation_id, v1::ERROR_CODE_PERMISSION_DENIED, "spectators watch; they do not ask odds");
  }
  std::string asking = seat->seat.id;
  if (!request.seat().empty() && request.seat() != asking) {
    if (!is_umpire(*seat)) {
      return error(peer, correlation_id, v1::ERROR_CODE_PERMISSION_DENIED,
                   "only the umpire may ask as another seat; you hold " + asking);
    }
    const SeatState* as = seat_named(request.seat());
    if (as == nullptr || is_spectator(*as) || is_umpire(*as)) {
      return error(peer, correlation_id, v1::ERROR_CODE_NOT_FOUND,
                   "game " + record_.id + " has no player seat " + request.seat());
    }
    asking = as->seat.id;
  }
  const auto question = codec::from_proto(request);
  if (!question) {
    return error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT,
                 "OddsRequest needs a proposal: a charge (charger, target, dice) or a shot (gun, target)");
  }
  auto answer = game_->odds(asking, *question, view_settings_);
  if (!answer) {
    const rules::Rejection& why = answer.error();
    const auto code = why.code == "not_yours" ? v1::ERROR_CODE_PERMISSION_DENIED : v1::ERROR_CODE_INVALID_ARGUMENT;
    spdlog::info("{} odds refused in game {} for {}: {}", peer->describe(), record_.id, asking, why.reason);
    auto e = make_error(correlation_id, code, why.reason);
    auto& context = *e.mutable_error()->mutable_context();
    context["game_id"] = record_.id;
    context["rule"] = why.code;
    services_.metrics.errors++;
    return peer->send(make_outgoing(std::move(e)));
  }
  v1::Envelope reply;
  reply.set_correlation_id(correlation_id);
  codec::to_proto(answer.value(), reply.mutable_odds_reply());
  peer->send(make_outgoing(std::move(reply)));
}

}  // namespace galloper::server
