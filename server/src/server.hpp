#pragma once
#include "server/src/config.hpp"

namespace galloper::server {

// Runs `galloper serve` until SIGINT/SIGTERM: then stops accepting, closes
// connections, flushes the store and returns 0. Non-zero when it cannot start.
int run_server(const ServerConfig& config);

}  // namespace galloper::server
