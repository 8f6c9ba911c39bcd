#pragma once
#include <chrono>
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace galloper::server {

// Everything `galloper serve` can be told. Defaults are the safe ones.
struct ServerConfig {
  std::string listen_address = "0.0.0.0";
  unsigned short listen_port = 8080;
  std::filesystem::path data_dir = "data";
  std::filesystem::path static_dir;      // empty: no static files, only the API
  std::filesystem::path ready_file;      // written with the bound port once listening
  std::string log_level = "info";
  std::vector<std::string> allowed_origins;  // besides the server's own origin
  std::vector<std::string> webhook_allow;    // CIDR ranges webhooks may reach besides public addresses
  std::vector<std::string> trust_proxy;      // CIDR ranges of proxies whose X-Forwarded-For names the client
  unsigned threads = 0;                  // 0: one per core
  // Tests only: the clock moves only through POST /debug/clock?advance_seconds=N.
  bool manual_clock = false;

  // Limits.
  std::size_t read_message_max = 64 * 1024;
  std::size_t http_body_max = 64 * 1024;
  std::chrono::seconds handshake_timeout{10};
  std::chrono::seconds idle_timeout{60};   // pings are sent at half this
  std::chrono::seconds http_timeout{30};
  std::size_t max_connections_per_ip = 64;
  std::size_t max_queued_messages = 1024;  // per connection; a client that stops reading is dropped
  std::size_t max_queued_bytes = 16 * 1024 * 1024;

  // TLS: both files or neither. Without them the port speaks plain HTTP
  // (local play, or behind a proxy that terminates TLS).
  std::filesystem::path tls_cert;
  std::filesystem::path tls_key;

  // Abuse limits (docs/SECURITY.md). Each refusal is a typed error or close
  // code and is counted in galloper_limited_total{limit=...}.
  double messages_per_second = 20;        // per connection, any frame; bursts of five seconds' worth
  double chat_per_minute = 20;            // per connection, on top of the above; bursts of 5
  std::size_t connections_per_ip_per_second = 30;  // new connections; bursts of twice that
  std::size_t max_failed_tokens = 10;     // per address within failed_token_ban, then banned for it
  std::chrono::seconds failed_token_ban{600};
  std::size_t games_per_ip_per_hour = 20;
  std::string create_key;                 // empty: anyone may create games
  std::size_t max_games = 10000;          // games in the store
  std::size_t max_log_entries = 200000;   // entries in one game's log
  std::size_t max_scenario_bytes = 48 * 1024;  // an uploaded scenario's text
  std::size_t max_scenario_parts = 2000;       // every message in it: units, leaders, terrain, points
};

}  // namespace galloper::server
