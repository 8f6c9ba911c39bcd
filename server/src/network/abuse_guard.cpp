#include "server/src/network/abuse_guard.hpp"

#include <algorithm>
#include <iterator>

namespace galloper::server {

bool TokenBucket::take(double rate, double capacity, Clock::time_point now) {
  if (tokens < 0) {
    tokens = capacity;
  } else {
    const double elapsed = std::chrono::duration<double>(now - last).count();
    tokens = std::min(capacity, tokens + elapsed * rate);
  }
  last = now;
  if (tokens < 1) return false;
  tokens -= 1;
  return true;
}

AbuseGuard::Address& AbuseGuard::at(const std::string& ip, Clock::time_point now) {
  if (addresses_.size() > 1024 && now - last_sweep_ > std::chrono::seconds(10)) forget_idle(now);
  return addresses_[ip];
}

void AbuseGuard::forget_idle(Clock::time_point now) {
  last_sweep_ = now;
  // An entry is dropped once it is as if new: its connection bucket has
  // refilled (capacity / rate = 2 s), its creation bucket too (an hour), no
  // failure is in the window and no ban runs.
  for (auto it = addresses_.begin(); it != addresses_.end();) {
    Address& a = it->second;
    while (!a.failures.empty() && now - a.failures.front() > config_.failed_token_ban) a.failures.pop_front();
    const bool as_new = a.banned_until < now && a.failures.empty() &&
                        now - a.connections.last > std::chrono::seconds(2) &&
                        (a.creations.tokens < 0 || now - a.creations.last > std::chrono::hours(1));
    it = as_new ? addresses_.erase(it) : std::next(it);
  }
}

bool AbuseGuard::admit_connection(const std::string& ip) {
  const auto now = Clock::now();
  std::lock_guard lock(mu_);
  const double rate = static_cast<double>(config_.connections_per_ip_per_second);
  return at(ip, now).connections.take(rate, 2 * rate, now);
}

std::int64_t AbuseGuard::banned_for(const std::string& ip) {
  const auto now = Clock::now();
  std::lock_guard lock(mu_);
  auto it = addresses_.find(ip);
  if (it == addresses_.end() || it->second.banned_until <= now) return 0;
  return std::max<std::int64_t>(
      1, std::chrono::ceil<std::chrono::seconds>(it->second.banned_until - now).count());
}

bool AbuseGuard::failed_token(const std::string& ip) {
  const auto now = Clock::now();
  std::lock_guard lock(mu_);
  auto& a = at(ip, now);
  a.failures.push_back(now);
  while (!a.failures.empty() && now - a.failures.front() > config_.failed_token_ban) a.failures.pop_front();
  if (a.failures.size() < config_.max_failed_tokens) return false;
  a.failures.clear();
  a.banned_until = now + config_.failed_token_ban;
  return true;
}

bool AbuseGuard::admit_creation(const std::string& ip) {
  const auto now = Clock::now();
  std::lock_guard lock(mu_);
  const double per_hour = static_cast<double>(config_.games_per_ip_per_hour);
  return at(ip, now).creations.take(per_hour / 3600.0, per_hour, now);
}

}  // namespace galloper::server
