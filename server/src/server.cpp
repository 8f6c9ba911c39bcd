#include "server/src/server.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <spdlog/spdlog.h>

#include <fstream>
#include <thread>
#include <variant>
#include <vector>

#include "persistence/store.hpp"
#include "server/src/network/listener.hpp"
#include "server/src/game/lobby.hpp"
#include "server/src/network/shared_state.hpp"
#include "server/src/version.hpp"

namespace galloper::server {

int run_server(const ServerConfig& config) {
  auto destinations = DestinationPolicy::allowing(config.webhook_allow);
  if (auto* why = std::get_if<std::string>(&destinations)) {
    spdlog::critical("--webhook-allow: {}", *why);
    return 1;
  }
  std::error_code fs_ec;
  std::filesystem::create_directories(config.data_dir, fs_ec);
  if (fs_ec) {
    spdlog::critical("cannot create the data directory {}: {}", config.data_dir.string(), fs_ec.message());
    return 1;
  }
  const auto db_path = config.data_dir / "galloper.db";
  auto opened = persistence::open_sqlite_store(db_path);
  if (!opened.store) {
    spdlog::critical("cannot open the game store {}: {}", db_path.string(),
                     opened.error ? opened.error->message : "unknown error");
    return 1;
  }
  auto& store = *opened.store;
  spdlog::info("game store {} open", db_path.string());

  const unsigned threads = config.threads != 0 ? config.threads : std::max(1u, std::thread::hardware_concurrency());
  Metrics metrics;  // before the io_context: handlers it destroys still count
  SystemClock system_clock;
  ManualClock manual_clock;
  const Clock& clock = config.manual_clock ? static_cast<const Clock&>(manual_clock) : system_clock;
  if (config.manual_clock) spdlog::warn("--manual-clock: deadlines follow POST /debug/clock, not the real time");
  net::io_context ioc(static_cast<int>(threads));
  Notifier notifier(ioc, Notifier::Options{.destinations = std::get<DestinationPolicy>(destinations), .metrics = &metrics});
  auto lobby = std::make_shared<Lobby>(ioc, store, metrics, clock, notifier);
  auto state = std::make_shared<SharedState>(config, lobby, metrics, config.manual_clock ? &manual_clock : nullptr);
  lobby->start_ticker();

  boost::beast::error_code ec;
  const auto address = net::ip::make_address(config.listen_address, ec);
  if (ec) {
    spdlog::critical("--listen: '{}' is not an IP address", config.listen_address);
    return 1;
  }
  auto listener = std::make_shared<Listener>(ioc, tcp::endpoint{address, config.listen_port}, state, ec);
  if (ec) {
    spdlog::critical("cannot listen on {}:{}: {}", config.listen_address, config.listen_port, ec.message());
    return 1;
  }
  listener->run();
  const auto bound = listener->local_endpoint();
  spdlog::info("galloper {} listening on http://{}:{} (WebSocket at /ws, static files from {})", kServerVersion,
               bound.address().to_string(), bound.port(),
               config.static_dir.empty() ? std::string("nowhere") : config.static_dir.string());
  if (!config.ready_file.empty()) {
    // Written after bind, so a test that waits for it can connect at once.
    const auto tmp = config.ready_file.string() + ".tmp";
    std::ofstream(tmp) << bound.port() << '\n';
    std::filesystem::rename(tmp, config.ready_file, fs_ec);
  }

  net::signal_set signals(ioc, SIGINT, SIGTERM);
  net::steady_timer shutdown_timer(ioc);
  signals.async_wait([&](const boost::beast::error_code& sec, int signo) {
    if (sec) return;
    spdlog::info("signal {}: stopping", signo);
    listener->stop();
    lobby->stop_ticker();
    state->close_all();
    // Give close frames a moment to go out, then stop the loop.
    shutdown_timer.expires_after(std::chrono::milliseconds(300));
    shutdown_timer.async_wait([&](const boost::beast::error_code&) { ioc.stop(); });
  });

  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  for (unsigned i = 1; i < threads; ++i) pool.emplace_back([&ioc] { ioc.run(); });
  ioc.run();
  for (auto& t : pool) t.join();

  store.flush();
  store.close();
  spdlog::info("stopped; the game store is flushed");
  return 0;
}

}  // namespace galloper::server
