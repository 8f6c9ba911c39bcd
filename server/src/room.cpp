#include "server/src/room.hpp"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include <chrono>

#include "codec/play_codec.hpp"
#include "codec/view_codec.hpp"
#include "galloper/v1/store.pb.h"
#include "server/src/frame_codec.hpp"
#include "server/src/tokens.hpp"

namespace galloper::server {

namespace {

std::int64_t now_unix() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Room::Room(net::io_context& ioc, persistence::Store& store, persistence::GameRecord record,
           std::unique_ptr<rules::Game> game, std::vector<persistence::SeatRecord> seats, Metrics& metrics)
    : strand_(net::make_strand(ioc)),
      store_(store),
      record_(std::move(record)),
      game_(std::move(game)),
      metrics_(metrics) {
  if (record_.seed.size() == seed_.size()) std::copy(record_.seed.begin(), record_.seed.end(), seed_.begin());
  for (const auto& s : game_->seats()) {
    SeatState state{s, {}, {}, {}};
    for (const auto& stored : seats) {
      if (stored.seat == s.id) state.invite_hash = stored.token_hash;
    }
    seats_.push_back(std::move(state));
  }
  refresh_pending();
  metrics_.games_loaded++;
}

Room::~Room() { metrics_.games_loaded--; }

void Room::restore(std::uint64_t events_so_far, std::uint64_t last_seq,
                   const std::vector<persistence::StepRecord>& open_step) {
  event_seq_ = events_so_far;
  log_seq_ = last_seq;
  const auto step = game_->step();
  for (const auto& entry : open_step) {
    if (entry.kind == "answer") {
      v1::StoredAnswer a;
      if (a.ParseFromArray(entry.payload.data(), static_cast<int>(entry.payload.size())) && a.step() == step) {
        auto answer = codec::from_proto(a.answer().answer(), a.answer().seat());
        answers_[answer.decision_id] = std::move(answer);
      }
    } else if (entry.kind == "lock") {
      v1::StoredLock l;
      if (l.ParseFromArray(entry.payload.data(), static_cast<int>(entry.payload.size())) && l.step() == step) {
        for (const auto& d : l.defaulted()) {
          auto answer = codec::from_proto(d.answer(), d.seat());
          answers_[answer.decision_id] = std::move(answer);
        }
        locked_.insert(l.seat());
      }
    }
  }
}

void Room::start() {
  net::post(strand_, [self = shared_from_this()] { self->advance_if_idle(); });
}

void Room::advance_if_idle() {
  if (failed_ || resolving_ || game_->finished() || !pending_.empty()) return;
  // The engine resolves on to the next decision; a state that asks for
  // nothing twice running is a bug there, not a reason to spin.
  if (++idle_resolutions_ > 2) {
    spdlog::error("game {}: the engine asks for no decision at step {} and has not ended", record_.id,
                  game_->step());
    return;
  }
  resolve_step();
}

void Room::append(std::string kind, const google::protobuf::MessageLite& payload, rules::StateHash hash,
                  std::function<void()> committed) {
  persistence::StepRecord record;
  record.game_id = record_.id;
  record.seq = ++log_seq_;
  record.kind = std::move(kind);
  const std::string bytes = payload.SerializeAsString();
  record.payload.assign(bytes.begin(), bytes.end());
  record.state_hash = hash;
  record.created_unix = now_unix();
  // The writer is first-in first-out, so entries commit in the order written.
  store_.append_step(std::move(record), [self = shared_from_this(), committed = std::move(committed)](
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
  auto message = make_outgoing(std::move(e));
  for (auto& seat : seats_) send_to_seat(seat, message);
  if (on_failed_) on_failed_(record_.id);
}

// ---- Requests, posted onto the strand. ----

void Room::join(std::string token, std::shared_ptr<Peer> peer, std::uint64_t correlation_id) {
  net::post(strand_, [self = shared_from_this(), token = std::move(token), peer = std::move(peer),
                      correlation_id] { self->do_join(token, peer, correlation_id); });
}

void Room::submit(v1::SubmitAnswer request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id) {
  net::post(strand_, [self = shared_from_this(), request = std::move(request), peer = std::move(peer),
                      correlation_id] { self->do_submit(request, peer, correlation_id); });
}

void Room::lock(v1::LockAnswers request, std::shared_ptr<Peer> peer, std::uint64_t correlation_id) {
  net::post(strand_, [self = shared_from_this(), request = std::move(request), peer = std::move(peer),
                      correlation_id] { self->do_lock(request, peer, correlation_id); });
}

// ---- Seats. ----

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

void Room::error(const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id, v1::ErrorCode code,
                 std::string message) {
  spdlog::info("{} error {}: {}", peer->describe(), v1::ErrorCode_Name(code), message);
  auto e = make_error(correlation_id, code, std::move(message));
  (*e.mutable_error()->mutable_context())["game_id"] = record_.id;
  metrics_.errors++;
  peer->send(make_outgoing(std::move(e)));
}

void Room::send_to_seat(SeatState& seat, const OutgoingPtr& message) {
  std::erase_if(seat.peers, [](const std::weak_ptr<Peer>& p) { return p.expired(); });
  for (const auto& p : seat.peers) {
    if (auto peer = p.lock()) peer->send(message);
  }
}

void Room::do_join(const std::string& token, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id) {
  SeatState* seat = seat_for_token(token);
  if (seat == nullptr) {
    spdlog::warn("{} join refused: token matches no seat of game {}", peer->describe(), record_.id);
    error(peer, correlation_id, v1::ERROR_CODE_BAD_TOKEN,
          "that token does not open any seat of game " + record_.id + "; ask the umpire for a fresh invite link");
    return;
  }
  // One connection holds one seat of a game at a time: a second join moves it.
  if (SeatState* previous = seat_of(peer); previous != nullptr && previous != seat) {
    std::erase_if(previous->peers, [&](const std::weak_ptr<Peer>& p) { return p.lock() == peer; });
  }

  // A resume token lets this connection come back without the invite.
  const std::string resume = random_hex(32);
  seat->resume_hashes.push_back(token_hash(resume));
  constexpr std::size_t kMaxResumeTokens = 32;  // per seat; the oldest lapse first
  if (seat->resume_hashes.size() > kMaxResumeTokens) seat->resume_hashes.erase(seat->resume_hashes.begin());
  std::erase_if(seat->peers, [&](const std::weak_ptr<Peer>& p) { return p.expired() || p.lock() == peer; });
  seat->peers.push_back(peer);
  peer->set_seat(record_.id, seat->seat.id);
  spdlog::info("{} joined", peer->describe());

  v1::Envelope reply;
  reply.set_correlation_id(correlation_id);
  auto* joined = reply.mutable_joined();
  joined->set_game_id(record_.id);
  joined->set_seat(seat->seat.id);
  joined->set_resume_token(resume);
  fill_view(seat->seat.id, joined->mutable_view());
  peer->send(make_outgoing(std::move(reply)));

  v1::Envelope owed;
  fill_decisions(seat->seat.id, owed.mutable_decisions());
  peer->send(make_outgoing(std::move(owed)));

  v1::Envelope status;
  auto* st = status.mutable_seat_status();
  st->set_game_id(record_.id);
  st->set_step(game_->step());
  for (const auto& s : owing_seats()) {
    st->add_owing(s);
    if (locked_.contains(s)) st->add_locked(s);
  }
  peer->send(make_outgoing(std::move(status)));
}

// ---- The step. ----

void Room::refresh_pending() {
  pending_ = game_->finished() ? std::vector<rules::Decision>{} : game_->pending();
  answers_.clear();
  locked_.clear();
}

std::set<std::string> Room::owing_seats() const {
  std::set<std::string> out;
  for (const auto& d : pending_) out.insert(d.seat);
  return out;
}

void Room::fill_view(const std::string& seat, v1::GameView* out) const {
  codec::to_proto(game_->view_for(seat, view_settings_), out);
  out->set_game_id(record_.id);
  out->set_seed_commitment(record_.seed_commitment);
  if (!record_.title.empty()) out->set_title(record_.title);
  out->set_sequence(event_seq_);
}

void Room::fill_decisions(const std::string& seat, v1::DecisionsOwed* out) const {
  out->set_game_id(record_.id);
  out->set_step(game_->step());
  for (const auto& d : pending_) {
    if (d.seat != seat) continue;
    codec::to_proto(d, out->add_decisions());
    if (auto it = answers_.find(d.id); it != answers_.end()) codec::to_proto(it->second, out->add_answers());
  }
  out->set_locked(locked_.contains(seat));
}

Room::SeatState* Room::play_seat(const std::shared_ptr<Peer>& peer, std::uint64_t step, std::uint64_t correlation_id) {
  if (failed_) {
    error(peer, correlation_id, v1::ERROR_CODE_STORAGE, "this game is being reloaded; rejoin it");
    return nullptr;
  }
  SeatState* seat = seat_of(peer);
  if (seat == nullptr) {
    error(peer, correlation_id, v1::ERROR_CODE_PERMISSION_DENIED,
          "this connection holds no seat in game " + record_.id + "; join with your invite link first");
    return nullptr;
  }
  if (game_->finished()) {
    error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT, "the game has ended");
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

void Room::do_submit(const v1::SubmitAnswer& request, const std::shared_ptr<Peer>& peer,
                     std::uint64_t correlation_id) {
  SeatState* seat = play_seat(peer, request.step(), correlation_id);
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
    metrics_.errors++;
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

void Room::do_lock(const v1::LockAnswers& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id) {
  SeatState* seat = play_seat(peer, request.step(), correlation_id);
  if (seat == nullptr) return;
  const auto owing = owing_seats();
  if (!owing.contains(seat->seat.id)) {
    error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT,
          "seat " + seat->seat.id + " owes nothing at this step");
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
    if (d.default_option.empty()) {
      error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT,
            "decision '" + d.id + "' (" + d.prompt + ") has no default: answer it before locking");
      return;
    }
    defaults.push_back(rules::Answer{d.id, d.seat, d.default_option, {}});
    locked->add_defaulted(d.id);
  }
  v1::StoredLock stored;
  stored.set_step(game_->step());
  stored.set_seat(seat->seat.id);
  for (auto& a : defaults) {
    auto* d = stored.add_defaulted();
    d->set_seat(a.seat);
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

void Room::send_seat_status() {
  v1::Envelope status;
  auto* st = status.mutable_seat_status();
  st->set_game_id(record_.id);
  st->set_step(game_->step());
  for (const auto& s : owing_seats()) {
    st->add_owing(s);
    if (locked_.contains(s)) st->add_locked(s);
  }
  auto message = make_outgoing(std::move(status));
  for (auto& seat : seats_) send_to_seat(seat, message);
}

void Room::resolve_step() {
  std::vector<rules::Answer> answers;
  v1::StoredStep stored;
  const std::uint64_t step = game_->step();
  stored.set_step(step);
  for (const auto& d : pending_) {
    const auto& a = answers_.at(d.id);
    answers.push_back(a);
    auto* sa = stored.add_answers();
    sa->set_seat(a.seat);
    codec::to_proto(a, sa->mutable_answer());
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
    auto message = make_outgoing(std::move(e));
    for (auto& seat : seats_) send_to_seat(seat, message);
    send_seat_status();
    return;
  }

  auto next = std::move(resolved.value().next);
  auto events = std::move(resolved.value().events);
  const auto hash = next->state_hash();
  // Nothing is announced before the step is on disk.
  resolving_ = true;
  auto holder = std::make_shared<std::pair<std::unique_ptr<rules::Game>, std::vector<rules::Event>>>(
      std::move(next), std::move(events));
  append("resolve", stored, hash, [self = shared_from_this(), step, holder] {
    self->on_step_stored(step, std::move(holder->first), std::move(holder->second));
  });
}

void Room::on_step_stored(std::uint64_t step, std::unique_ptr<rules::Game> next, std::vector<rules::Event> events) {
  resolving_ = false;
  if (!pending_.empty()) idle_resolutions_ = 0;  // the step just resolved was answered
  game_ = std::move(next);
  const std::uint64_t first_seq = event_seq_ + 1;
  event_seq_ += events.size();
  refresh_pending();
  spdlog::info("game {} resolved step {} ({} events); turn {} {}", record_.id, step, events.size(), game_->turn(),
               game_->phase());

  // Sequence numbers are per game, in the order the engine reported.
  std::vector<v1::Event> wire(events.size());
  for (std::size_t i = 0; i < events.size(); ++i) {
    codec::to_proto(events[i], &wire[i]);
    wire[i].set_sequence(first_seq + i);
    wire[i].set_step(step);
    wire[i].set_turn(game_->turn());
  }

  for (auto& seat : seats_) {
    if (seat.peers.empty()) continue;
    v1::Envelope push;
    auto* sr = push.mutable_step_resolved();
    sr->set_game_id(record_.id);
    sr->set_step(step);
    // Which events the seat learns of comes from the one visibility path.
    for (const std::size_t i : game_->visible_events(events, seat.seat.id, view_settings_)) {
      if (i < wire.size()) *sr->add_events() = wire[i];
    }
    fill_view(seat.seat.id, sr->mutable_view());
    fill_decisions(seat.seat.id, sr->mutable_next());
    send_to_seat(seat, make_outgoing(std::move(push)));
  }
  send_seat_status();
  advance_if_idle();
}

}  // namespace galloper::server
