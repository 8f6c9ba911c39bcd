#include "server/src/game/seat_links.hpp"

#include <algorithm>

#include "server/src/tokens.hpp"

namespace galloper::server {

namespace {

constexpr std::size_t kMaxResumeTokens = 32;  // per seat; the oldest lapse first

void drop_closed(std::vector<std::weak_ptr<Peer>>& peers) {
  std::erase_if(peers, [](const std::weak_ptr<Peer>& p) { return p.expired(); });
}

}  // namespace

void SeatLinks::init(const RoomState& state, const std::vector<persistence::SeatRecord>& stored) {
  links_.assign(state.seats.size(), Link{});
  for (std::size_t i = 0; i < state.seats.size(); ++i) {
    for (const auto& s : stored) {
      if (s.seat == state.seats[i].seat.id) links_[i].invite_hash = s.token_hash;
    }
  }
}

std::optional<std::size_t> SeatLinks::seat_for_token(const std::string& token) const {
  const std::string hash = token_hash(token);
  std::optional<std::size_t> found;
  for (std::size_t i = 0; i < links_.size(); ++i) {
    const auto& l = links_[i];
    bool match = !l.invite_hash.empty() && constant_time_equal(hash, l.invite_hash);
    for (const auto& r : l.resume_hashes) match = constant_time_equal(hash, r) || match;
    if (match && !found) found = i;
  }
  return found;
}

std::optional<std::size_t> SeatLinks::seat_of(const std::shared_ptr<Peer>& peer) const {
  for (std::size_t i = 0; i < links_.size(); ++i) {
    for (const auto& p : links_[i].peers) {
      if (p.lock() == peer) return i;
    }
  }
  return std::nullopt;
}

std::string SeatLinks::attach(std::size_t seat, const std::shared_ptr<Peer>& peer) {
  // One connection holds one seat of a game at a time: a second join moves it.
  for (auto& l : links_) {
    std::erase_if(l.peers, [&](const std::weak_ptr<Peer>& p) { return p.expired() || p.lock() == peer; });
  }
  auto& link = links_[seat];
  const std::string resume = random_hex(32);
  link.resume_hashes.push_back(token_hash(resume));
  if (link.resume_hashes.size() > kMaxResumeTokens) link.resume_hashes.erase(link.resume_hashes.begin());
  link.peers.push_back(peer);
  return resume;
}

bool SeatLinks::connected(std::size_t seat) {
  drop_closed(links_[seat].peers);
  return !links_[seat].peers.empty();
}

bool SeatLinks::anyone_connected() {
  for (std::size_t i = 0; i < links_.size(); ++i) {
    if (connected(i)) return true;
  }
  return false;
}

void SeatLinks::send(std::size_t seat, const OutgoingPtr& message) {
  auto& peers = links_[seat].peers;
  drop_closed(peers);
  for (const auto& p : peers) {
    if (auto peer = p.lock()) peer->send(message);
  }
}

}  // namespace galloper::server
