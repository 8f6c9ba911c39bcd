#include "server/src/room.hpp"

#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include "codec/view_codec.hpp"
#include "server/src/frame_codec.hpp"
#include "server/src/tokens.hpp"

namespace galloper::server {

Room::Room(net::io_context& ioc, persistence::GameRecord record, std::unique_ptr<rules::Game> game,
           std::vector<persistence::SeatRecord> seats, Metrics& metrics)
    : strand_(net::make_strand(ioc)), record_(std::move(record)), game_(std::move(game)), metrics_(metrics) {
  for (const auto& s : game_->seats()) {
    SeatState state{s, {}, {}, {}};
    for (const auto& stored : seats) {
      if (stored.seat == s.id) state.invite_hash = stored.token_hash;
    }
    seats_.push_back(std::move(state));
  }
  metrics_.games_loaded++;
}

Room::~Room() { metrics_.games_loaded--; }

void Room::join(std::string token, std::shared_ptr<Peer> peer, std::uint64_t correlation_id) {
  net::post(strand_, [self = shared_from_this(), token = std::move(token), peer = std::move(peer),
                      correlation_id] { self->do_join(token, peer, correlation_id); });
}

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

void Room::do_join(const std::string& token, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id) {
  SeatState* seat = seat_for_token(token);
  if (seat == nullptr) {
    spdlog::warn("{} join refused: token matches no seat of game {}", peer->describe(), record_.id);
    auto e = make_error(correlation_id, v1::ERROR_CODE_BAD_TOKEN,
                        "that token does not open any seat of game " + record_.id +
                            "; ask the umpire for a fresh invite link");
    (*e.mutable_error()->mutable_context())["game_id"] = record_.id;
    metrics_.errors++;
    peer->send(make_outgoing(std::move(e)));
    return;
  }

  // A resume token lets this connection come back without the invite.
  const std::string resume = random_hex(32);
  seat->resume_hashes.push_back(token_hash(resume));
  constexpr std::size_t kMaxResumeTokens = 32;  // per seat; the oldest lapse first
  if (seat->resume_hashes.size() > kMaxResumeTokens) seat->resume_hashes.erase(seat->resume_hashes.begin());
  std::erase_if(seat->peers, [](const std::weak_ptr<Peer>& p) { return p.expired(); });
  seat->peers.push_back(peer);
  peer->set_seat(record_.id, seat->seat.id);
  spdlog::info("{} joined", peer->describe());

  v1::Envelope reply;
  reply.set_correlation_id(correlation_id);
  auto* joined = reply.mutable_joined();
  joined->set_game_id(record_.id);
  joined->set_seat(seat->seat.id);
  joined->set_resume_token(resume);
  auto* view = joined->mutable_view();
  codec::to_proto(game_->view_for(seat->seat.id, view_settings_), view);
  view->set_game_id(record_.id);
  view->set_seed_commitment(record_.seed_commitment);
  if (!record_.title.empty()) view->set_title(record_.title);
  peer->send(make_outgoing(std::move(reply)));
}

}  // namespace galloper::server
