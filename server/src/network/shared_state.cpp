#include "server/src/network/shared_state.hpp"

#include <string>
#include <vector>

#include "server/src/network/websocket_session.hpp"

namespace galloper::server {

bool SharedState::acquire_ip(const std::string& ip) {
  std::lock_guard lock(mu_);
  auto& n = per_ip_[ip];
  if (n >= config_.max_connections_per_ip) return false;
  ++n;
  return true;
}

void SharedState::release_ip(const std::string& ip) {
  std::lock_guard lock(mu_);
  auto it = per_ip_.find(ip);
  if (it == per_ip_.end()) return;
  if (--it->second == 0) per_ip_.erase(it);
}

std::string admit(const std::shared_ptr<SharedState>& state, const std::string& key, IpSlot& slot) {
  const auto& cfg = state->config();
  if (!state->guard().admit_connection(key)) {
    state->metrics().limited_connections++;
    return "too many new connections from your address (at most " +
           std::to_string(cfg.connections_per_ip_per_second) + " a second); wait a moment and retry";
  }
  if (!state->acquire_ip(key)) {
    return "too many connections from your address (at most " + std::to_string(cfg.max_connections_per_ip) +
           "); close some and retry";
  }
  slot = IpSlot(state, key);
  return {};
}

void SharedState::join(WebSocketSession* session) {
  std::lock_guard lock(mu_);
  sessions_.insert(session);
}

void SharedState::leave(WebSocketSession* session) {
  std::lock_guard lock(mu_);
  sessions_.erase(session);
}

void SharedState::close_all() {
  // Take strong references under the lock, close outside it: a session's
  // destructor calls leave(), which takes the lock.
  std::vector<std::shared_ptr<WebSocketSession>> live;
  {
    std::lock_guard lock(mu_);
    for (auto* s : sessions_) {
      if (auto sp = s->weak_from_this().lock()) live.push_back(std::move(sp));
    }
  }
  for (auto& s : live) s->close(boost::beast::websocket::close_code::going_away, "server shutting down");
}

}  // namespace galloper::server
