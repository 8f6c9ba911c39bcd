#pragma once
// Limits per client address that no single connection can see: how fast an
// address opens connections, how many tokens it has got wrong (and its ban),
// how many games it has created lately. Thread-safe; every call is a short
// critical section. Addresses nothing is remembered about are forgotten, so
// the table stays bounded by the addresses active in the last window.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <unordered_map>

#include "server/src/config.hpp"

namespace galloper::server {

// A token bucket: `rate` tokens a second up to `capacity`; one per event.
struct TokenBucket {
  using Clock = std::chrono::steady_clock;
  double tokens = -1;  // negative: not started, full on first use
  Clock::time_point last{};
  // Takes a token if there is one.
  bool take(double rate, double capacity, Clock::time_point now);
  // Seconds until a token is there again (0 if one is).
  double wait_seconds(double rate) const { return tokens >= 1 ? 0.0 : (1.0 - tokens) / rate; }
};

class AbuseGuard {
 public:
  using Clock = std::chrono::steady_clock;
  explicit AbuseGuard(const ServerConfig& config) : config_(config) {}

  // A new connection from `ip`: false when it opens them faster than
  // --connection-rate a second.
  bool admit_connection(const std::string& ip);
  // Seconds left of the address's ban for failed tokens; 0 when not banned.
  std::int64_t banned_for(const std::string& ip);
  // A token (or the organiser key) that opened nothing. True when this
  // failure starts a ban.
  bool failed_token(const std::string& ip);
  // A game creation from `ip`: false over --games-per-ip-per-hour.
  bool admit_creation(const std::string& ip);

 private:
  struct Address {
    TokenBucket connections;
    TokenBucket creations;
    std::deque<Clock::time_point> failures;  // within the last ban window
    Clock::time_point banned_until{};
  };
  Address& at(const std::string& ip, Clock::time_point now);
  void forget_idle(Clock::time_point now);

  const ServerConfig& config_;
  std::mutex mu_;
  std::unordered_map<std::string, Address> addresses_;
  Clock::time_point last_sweep_{};
};

}  // namespace galloper::server
