#include "server/src/server.hpp"

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <spdlog/spdlog.h>

#include <fstream>
#include <functional>
#include <future>
#include <thread>
#include <variant>
#include <vector>

#include "persistence/store.hpp"
#include "server/src/network/listener.hpp"
#include "server/src/game/lobby.hpp"
#include "server/src/network/shared_state.hpp"
#include "server/src/network/tls.hpp"
#include "server/src/version.hpp"

namespace galloper::server {

int run_server(const ServerConfig& config) {
  auto destinations = DestinationPolicy::allowing(config.webhook_allow);
  if (auto* why = std::get_if<std::string>(&destinations)) {
    spdlog::critical("--webhook-allow: {}", *why);
    return 1;
  }
  auto proxies = ProxyTrust::of(config.trust_proxy);
  if (auto* why = std::get_if<std::string>(&proxies)) {
    spdlog::critical("--trust-proxy: {}", *why);
    return 1;
  }
  // TLS first: a certificate that cannot serve stops the server before the store opens.
  std::shared_ptr<TlsContext> tls;
  if (!config.tls_cert.empty() || !config.tls_key.empty()) {
    if (config.tls_cert.empty() || config.tls_key.empty()) {
      spdlog::critical("--tls-cert and --tls-key go together: give both, or neither for plain HTTP");
      return 1;
    }
    auto opened_tls = TlsContext::open(config.tls_cert, config.tls_key);
    if (auto* why = std::get_if<std::string>(&opened_tls)) {
      spdlog::critical("{}", *why);
      return 1;
    }
    tls = std::get<std::shared_ptr<TlsContext>>(std::move(opened_tls));
    spdlog::info("TLS certificate: {}", tls->describe());
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
  state->set_tls(tls);
  state->set_proxies(std::get<ProxyTrust>(std::move(proxies)));
  if (!config.create_key.empty()) spdlog::info("creating a game needs the organiser key (--create-key)");
  {
    // The games already stored count against --max-games.
    std::promise<std::size_t> counted;
    store.list_games([&counted](std::vector<persistence::GameRecord> games, persistence::Status status) {
      counted.set_value(status.ok() ? games.size() : 0);
    });
    const auto stored = counted.get_future().get();
    lobby->limit(config.max_games, stored, config.max_log_entries);
    spdlog::info("{} games stored (at most {})", stored, config.max_games);
  }
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
  spdlog::info("galloper {} listening on {}://{}:{} (WebSocket at /ws, static files from {})", kServerVersion,
               tls ? "https" : "http", bound.address().to_string(), bound.port(),
               config.static_dir.empty() ? std::string("nowhere") : config.static_dir.string());

  net::signal_set signals(ioc, SIGINT, SIGTERM);
  net::signal_set hangup(ioc, SIGHUP);
  net::steady_timer shutdown_timer(ioc);
  signals.async_wait([&](const boost::beast::error_code& sec, int signo) {
    if (sec) return;
    spdlog::info("signal {}: stopping", signo);
    listener->stop();
    hangup.cancel();
    lobby->stop_ticker();
    state->close_all();
    // Give close frames a moment to go out, then stop the loop.
    shutdown_timer.expires_after(std::chrono::milliseconds(300));
    shutdown_timer.async_wait([&](const boost::beast::error_code&) { ioc.stop(); });
  });

  // SIGHUP: read the certificate and key again; new connections use them.
  std::function<void()> wait_hangup = [&] {
    hangup.async_wait([&](const boost::beast::error_code& sec, int) {
      if (sec) return;
      if (tls) {
        if (auto why = tls->reload()) {
          metrics.tls_reloads_failed++;
          spdlog::error("SIGHUP: kept the certificate in use: {}", *why);
        } else {
          metrics.tls_reloads++;
          spdlog::info("SIGHUP: TLS certificate reloaded: {}", tls->describe());
        }
      } else {
        spdlog::info("SIGHUP: nothing to reload (no --tls-cert)");
      }
      wait_hangup();
    });
  };
  wait_hangup();
  if (!config.ready_file.empty()) {
    // Written after bind and once signals are handled, so a test that waits
    // for it can connect, and send SIGHUP, at once.
    const auto tmp = config.ready_file.string() + ".tmp";
    std::ofstream(tmp) << bound.port() << '\n';
    std::filesystem::rename(tmp, config.ready_file, fs_ec);
  }

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
