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

  // Abuse limits hit (galloper_limited_total{limit=...}).
  std::atomic<std::int64_t> limited_messages{0};      // a request over --message-rate
  std::atomic<std::int64_t> limited_chat{0};          // a chat message over --chat-per-minute
  std::atomic<std::int64_t> limited_connections{0};   // a connection over --connection-rate
  std::atomic<std::int64_t> failed_tokens{0};         // a token or organiser key that opened nothing
  std::atomic<std::int64_t> limited_banned{0};        // a request refused during an address's ban
  std::atomic<std::int64_t> bans{0};                  // bans started
  std::atomic<std::int64_t> limited_creations{0};     // a creation over --games-per-ip-per-hour
  std::atomic<std::int64_t> limited_create_key{0};    // a creation without the right --create-key
  std::atomic<std::int64_t> limited_games{0};         // a creation with --max-games stored
  std::atomic<std::int64_t> limited_log{0};           // a request to a game whose log is full
  std::atomic<std::int64_t> limited_scenario{0};      // an uploaded scenario over --max-scenario-bytes
  // TLS.
  std::atomic<std::int64_t> tls_handshakes_failed{0};
  std::atomic<std::int64_t> tls_plain_refused{0};     // plain HTTP on the TLS port
  std::atomic<std::int64_t> tls_reloads{0};
  std::atomic<std::int64_t> tls_reloads_failed{0};

  std::string render() const;
};

}  // namespace galloper::server
