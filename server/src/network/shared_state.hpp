#pragma once
// What every connection shares: configuration, metrics, the lobby, the set of
// open WebSocket sessions (to close them at shutdown) and per-IP counts.
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "server/src/clock.hpp"
#include "server/src/config.hpp"
#include "server/src/game/lobby.hpp"
#include "server/src/metrics.hpp"
#include "server/src/network/abuse_guard.hpp"
#include "server/src/network/client_address.hpp"
#include "server/src/network/tls.hpp"

namespace galloper::server {

class WebSocketSession;

class SharedState {
 public:
  SharedState(ServerConfig config, std::shared_ptr<Lobby> lobby, Metrics& metrics, ManualClock* manual_clock)
      : config_(std::move(config)), lobby_(std::move(lobby)), metrics_(metrics), manual_clock_(manual_clock),
        guard_(config_) {}

  const ServerConfig& config() const { return config_; }
  Lobby& lobby() { return *lobby_; }
  const std::shared_ptr<Lobby>& lobby_ptr() { return lobby_; }
  Metrics& metrics() { return metrics_; }
  // Non-null only with --manual-clock.
  ManualClock* manual_clock() { return manual_clock_; }
  // Null without --tls-cert: the port speaks plain HTTP.
  TlsContext* tls() { return tls_.get(); }
  void set_tls(std::shared_ptr<TlsContext> tls) { tls_ = std::move(tls); }
  AbuseGuard& guard() { return guard_; }
  // The proxies whose X-Forwarded-For names the client (--trust-proxy).
  const ProxyTrust& proxies() const { return proxies_; }
  void set_proxies(ProxyTrust proxies) { proxies_ = std::move(proxies); }

  // Counts a connection from `ip`; false (and nothing counted) over the limit.
  bool acquire_ip(const std::string& ip);
  void release_ip(const std::string& ip);

  void join(WebSocketSession* session);
  void leave(WebSocketSession* session);
  // Closes every session with "going away" (shutdown).
  void close_all();

 private:
  ServerConfig config_;
  std::shared_ptr<Lobby> lobby_;
  Metrics& metrics_;
  ManualClock* manual_clock_;
  std::shared_ptr<TlsContext> tls_;
  AbuseGuard guard_;
  ProxyTrust proxies_;

  std::mutex mu_;
  std::unordered_map<std::string, std::size_t> per_ip_;
  std::unordered_set<WebSocketSession*> sessions_;
};

// Holds one counted connection for its IP for as long as it lives; moves from
// the HTTP session to the WebSocket session on upgrade.
class IpSlot {
 public:
  IpSlot() = default;
  IpSlot(std::shared_ptr<SharedState> state, std::string ip) : state_(std::move(state)), ip_(std::move(ip)) {}
  IpSlot(IpSlot&& o) noexcept : state_(std::move(o.state_)), ip_(std::move(o.ip_)) { o.state_.reset(); }
  IpSlot& operator=(IpSlot&& o) noexcept {
    if (this != &o) {
      reset();
      state_ = std::move(o.state_);
      ip_ = std::move(o.ip_);
      o.state_.reset();
    }
    return *this;
  }
  IpSlot(const IpSlot&) = delete;
  IpSlot& operator=(const IpSlot&) = delete;
  ~IpSlot() { reset(); }

 private:
  void reset() {
    if (state_) state_->release_ip(ip_);
    state_.reset();
  }
  std::shared_ptr<SharedState> state_;
  std::string ip_;
};

// A new connection from the client keyed `key` (limit_key): empty and a
// held slot when it is served; otherwise why not, for the 429 or the 1013.
std::string admit(const std::shared_ptr<SharedState>& state, const std::string& key, IpSlot& slot);

}  // namespace galloper::server
