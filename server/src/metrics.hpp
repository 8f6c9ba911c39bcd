#pragma once
#include <atomic>
#include <cstdint>
#include <string>

namespace galloper::server {

// Process-wide counters, rendered in Prometheus text format at GET /metrics.
struct Metrics {
  std::atomic<std::int64_t> connections{0};        // open WebSocket connections
  std::atomic<std::int64_t> http_requests{0};
  std::atomic<std::int64_t> messages_in{0};
  std::atomic<std::int64_t> messages_out{0};
  std::atomic<std::int64_t> errors{0};             // typed errors sent
  std::atomic<std::int64_t> slow_clients_dropped{0};
  std::atomic<std::int64_t> games_loaded{0};       // rooms in memory
  std::atomic<std::int64_t> games_created{0};
  std::atomic<std::int64_t> snapshots_written{0};
  std::atomic<std::int64_t> snapshots_rejected{0};  // found unusable on load (the log was replayed instead)
  std::atomic<std::int64_t> webhooks_delivered{0};
  std::atomic<std::int64_t> webhooks_failed{0};     // given up, refused included
  std::atomic<std::int64_t> webhooks_refused{0};    // destinations the server does not post to

  std::string render() const;
};

}  // namespace galloper::server
