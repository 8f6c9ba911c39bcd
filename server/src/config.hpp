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
};

}  // namespace galloper::server
