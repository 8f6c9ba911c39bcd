// galloper: the command line. `galloper --help` lists the commands.
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#if GALLOPER_TCMALLOC
#include <gperftools/malloc_extension_c.h>
#include <gperftools/tcmalloc.h>
#endif

#include "codec/scenario_codec.hpp"
#include "server/src/server.hpp"
#include "server/src/tools/tools.hpp"
#include "server/src/version.hpp"

namespace {

using galloper::server::ServerConfig;

// The malloc this binary runs on (CMake's GALLOPER_TCMALLOC), as `version`
// and the server's first log line name it. tcmalloc counts the bytes it has
// handed out; by now the command line alone holds kilobytes, so none means
// the library was linked but glibc's malloc answers, and that is said too.
std::string allocator_in_use() {
#if GALLOPER_TCMALLOC
  std::size_t bytes = 0;
  const bool serving = MallocExtension_GetNumericProperty("generic.current_allocated_bytes", &bytes) != 0 && bytes > 0;
  int major = 0;
  int minor = 0;
  const char* patch = "";
  tc_version(&major, &minor, &patch);
  return "tcmalloc " + std::to_string(major) + "." + std::to_string(minor) + patch +
         (serving ? "" : " (linked, but glibc's malloc answers)");
#else
  return "glibc malloc";
#endif
}

// "host:port", "[v6]:port" or ":port".
bool parse_listen(const std::string& text, ServerConfig& cfg, std::string& why) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos) {
    why = "expected HOST:PORT, e.g. 127.0.0.1:8080";
    return false;
  }
  std::string host = text.substr(0, colon);
  const std::string port = text.substr(colon + 1);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (host.empty()) host = "0.0.0.0";
  if (host == "localhost") host = "127.0.0.1";
  int p = 0;
  try {
    std::size_t used = 0;
    p = std::stoi(port, &used);
    if (used != port.size()) throw std::invalid_argument("trailing");
  } catch (const std::exception&) {
    why = "the port '" + port + "' is not a number";
    return false;
  }
  if (p < 0 || p > 65535) {
    why = "the port must be 0-65535 (0 picks a free one)";
    return false;
  }
  cfg.listen_address = host;
  cfg.listen_port = static_cast<unsigned short>(p);
  return true;
}

int check_scenario_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << path << ": cannot read the file\n";
    return 2;
  }
  std::ostringstream text;
  text << in.rdbuf();
  const auto problems = galloper::codec::check_scenario(text.str());
  if (problems.empty()) {
    std::cout << "ok\n";
    return 0;
  }
  std::cout << galloper::codec::format_problems(path, problems);
  std::cerr << problems.size() << " problem(s) in " << path << "\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"galloper: an authoritative game server for horse-and-musket wargames"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string(galloper::server::kServerVersion));

  ServerConfig cfg;
  std::string listen = "0.0.0.0:8080";
  unsigned idle_timeout_s = static_cast<unsigned>(cfg.idle_timeout.count());
  unsigned handshake_timeout_s = static_cast<unsigned>(cfg.handshake_timeout.count());
  auto* serve = app.add_subcommand("serve", "Run the server: web client, HTTP API and WebSocket on one port");
  serve->add_option("--listen", listen, "Address and port to listen on (port 0 picks a free one)")
      ->capture_default_str();
  serve->add_option("--data", cfg.data_dir, "Directory for the SQLite game store (galloper.db)")
      ->capture_default_str();
  serve->add_option("--static-dir", cfg.static_dir, "Directory of the built web client, served at /");
  serve->add_option("--log-level", cfg.log_level, "trace, debug, info, warn, error or critical")
      ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "critical", "off"}))
      ->capture_default_str();
  serve->add_option("--allowed-origin", cfg.allowed_origins,
                    "Extra browser Origin allowed to open the WebSocket (repeatable); the server's own is always allowed");
  serve->add_option("--webhook-allow", cfg.webhook_allow,
                    "CIDR range webhooks may post to besides public addresses (repeatable), e.g. 10.0.0.0/8; "
                    "loopback, private, link-local and metadata addresses are refused otherwise");
  serve->add_option("--trust-proxy", cfg.trust_proxy,
                    "CIDR range of reverse proxies whose X-Forwarded-For names the client (repeatable), e.g. "
                    "127.0.0.1; the limits per address then count the client, not the proxy");
  serve->add_option("--threads", cfg.threads, "I/O threads (0: one per core)")->capture_default_str();
  serve->add_option("--read-message-max", cfg.read_message_max, "Largest WebSocket message accepted, in bytes")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1024}, std::size_t{16} * 1024 * 1024));
  serve->add_option("--idle-timeout", idle_timeout_s, "Seconds of silence before a connection is dropped (pings at half)")
      ->capture_default_str()
      ->check(CLI::Range(2u, 3600u));
  serve->add_option("--handshake-timeout", handshake_timeout_s, "Seconds allowed for the WebSocket handshake")
      ->capture_default_str()
      ->check(CLI::Range(1u, 300u));
  serve->add_option("--max-connections-per-ip", cfg.max_connections_per_ip, "Connections allowed from one address")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000}));
  serve->add_option("--max-queued-messages", cfg.max_queued_messages,
                    "Messages queued to one connection before a client that stopped reading is dropped")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000000}));
  auto* tls_cert = serve->add_option("--tls-cert", cfg.tls_cert,
                                     "PEM certificate chain: serve https:// and wss:// (TLS 1.2+) on the port; "
                                     "SIGHUP reloads it. Needs --tls-key. Without both: plain HTTP");
  auto* tls_key = serve->add_option("--tls-key", cfg.tls_key, "PEM private key of --tls-cert (no passphrase)");
  tls_cert->needs(tls_key);
  tls_key->needs(tls_cert);
  serve->add_option("--message-rate", cfg.messages_per_second,
                    "Messages one connection may send a second (bursts of five seconds' worth); more are refused RATE_LIMITED")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 100000.0));
  serve->add_option("--chat-per-minute", cfg.chat_per_minute,
                    "Chat messages one connection may send a minute (bursts of 5)")
      ->capture_default_str()
      ->check(CLI::Range(0.1, 100000.0));
  serve->add_option("--connection-rate", cfg.connections_per_ip_per_second,
                    "New connections one address may open a second (bursts of twice that); more get 429 or close 1013")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000}));
  unsigned token_ban_s = static_cast<unsigned>(cfg.failed_token_ban.count());
  serve->add_option("--max-failed-tokens", cfg.max_failed_tokens,
                    "Wrong tokens or organiser keys from one address, within --token-ban, before it is banned")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000}));
  serve->add_option("--token-ban", token_ban_s,
                    "Seconds an address may not join or create games after --max-failed-tokens")
      ->capture_default_str()
      ->check(CLI::Range(1u, 7u * 24 * 3600));
  serve->add_option("--games-per-ip-per-hour", cfg.games_per_ip_per_hour,
                    "Game creations one address may make an hour")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000000}));
  serve->add_option("--create-key", cfg.create_key,
                    "Organiser key a client must give (CreateGame.create_key) to create a game; "
                    "also from $GALLOPER_CREATE_KEY. Default: none, anyone may create (local play)")
      ->envname("GALLOPER_CREATE_KEY");
  serve->add_option("--max-games", cfg.max_games, "Games the store may hold; creating more is refused UNAVAILABLE")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000000}));
  serve->add_option("--max-log-entries", cfg.max_log_entries,
                    "Entries one game's log may hold; then the game takes no more orders, chat or settings")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{100}, std::size_t{1000000000}));
  serve->add_option("--max-scenario-bytes", cfg.max_scenario_bytes, "Largest uploaded scenario text, in bytes")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1024}, std::size_t{16} * 1024 * 1024));
  serve->add_option("--max-scenario-parts", cfg.max_scenario_parts,
                    "Most parts an uploaded scenario may have: units, leaders, terrain features, each of their points")
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{10}, std::size_t{10000000}));
  serve->add_flag("--manual-clock", cfg.manual_clock,
                  "Tests only: deadlines follow POST /debug/clock?advance_seconds=N instead of the real time");
  serve->add_option("--ready-file", cfg.ready_file, "Write the bound port to this file once listening (for scripts)");

  auto* version = app.add_subcommand("version", "Print the server and protocol versions and the allocator");

  auto* scenario = app.add_subcommand("scenario", "Work with scenario files");
  scenario->require_subcommand(1);
  std::string scenario_file;
  auto* check = scenario->add_subcommand("check", "Check a scenario file: prints ok, or every problem as file:line:column");
  check->add_option("FILE", scenario_file, "Scenario in protobuf text format")->required();

  // Offline tools: they open the store read-only and may run beside a server.
  std::string tool_data = "data";
  std::string tool_game;
  std::string tool_out;
  bool replay_all = false;
  bool export_text = false;
  auto* replay = app.add_subcommand(
      "replay", "Rebuild games from their logs, checking every stored state hash; exit 0 ok, 1 a game fails");
  replay->add_option("--data", tool_data, "Directory of the game store (galloper.db)")->capture_default_str();
  auto* replay_game = replay->add_option("GAME_ID", tool_game, "The game to check");
  replay->add_flag("--all", replay_all, "Check every game in the store")->excludes(replay_game);
  auto* backup = app.add_subcommand("backup", "Copy the game store consistently, also while a server is running");
  backup->add_option("--data", tool_data, "Directory of the game store (galloper.db)")->capture_default_str();
  backup->add_option("OUT", tool_out, "The copy to write (must not exist)")->required();
  auto* export_cmd = app.add_subcommand(
      "export", "Write one game (scenario, seed commitment, the seed once ended, the whole log) to a file for `verify`");
  export_cmd->add_option("--data", tool_data, "Directory of the game store (galloper.db)")->capture_default_str();
  export_cmd->add_option("GAME_ID", tool_game, "The game to export")->required();
  export_cmd->add_option("OUT", tool_out, "The file to write")->required();
  export_cmd->add_flag("--text", export_text, "Protobuf text format instead of binary");
  std::string verify_file;
  auto* verify = app.add_subcommand(
      "verify",
      "Check an exported game without server or database: the seed against its commitment, every roll and state; "
      "exit 0 ok, 1 mismatch, 2 unreadable, 3 seed not revealed yet");
  verify->add_option("FILE", verify_file, "A file written by `galloper export`")->required();

  // `galloper odds`: the exact odds the rules engine computes, no server needed.
  auto* odds = app.add_subcommand("odds", "Print the exact odds the rules engine computes for a close combat or a shot");
  odds->require_subcommand(1);
  galloper::server::tools::CombatOddsArgs combat_args;
  auto* odds_combat = odds->add_subcommand(
      "combat", "A close combat given by its numbers: each result band's probability for both sides, expected hits");
  odds_combat->add_option("--dice-a", combat_args.dice_a, "Side A's dice (bases plus modifiers)")->required();
  odds_combat->add_option("--dice-b", combat_args.dice_b, "Side B's dice (bases plus modifiers)")->required();
  odds_combat->add_option("--hit-on-a", combat_args.hit_on_a, "The lowest face that hits for side A, 2-6")
      ->capture_default_str();
  odds_combat->add_option("--hit-on-b", combat_args.hit_on_b, "The lowest face that hits for side B, 2-6")
      ->capture_default_str();
  galloper::server::tools::FireOddsArgs fire_args;
  auto* odds_fire = odds->add_subcommand(
      "fire", "One artillery shot: each Results-table row's probability (howitzers and mortars: where it lands)");
  odds_fire->add_option("--weight", fire_args.weight, "light, medium, heavy, howitzer or mortar")->capture_default_str();
  odds_fire->add_option("--range", fire_args.range, "close, effective or beyond (direct fire)");
  odds_fire->add_option("--gun-dps", fire_args.gun_dps, "DPs on the firing gun (-1 each)")->capture_default_str();
  odds_fire->add_option("--target", fire_args.target,
                        "new (-1), same target and range (+1), or same-target at another range (0)")
      ->capture_default_str();
  odds_fire->add_flag("--exposed", fire_args.exposed, "Target in column, limbered, or fired on in enfilade (+1)");
  odds_fire->add_option("--cover", fire_args.cover, "none, fieldworks (-1) or fortifications (-2)")
      ->capture_default_str();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    // Bad input to `odds` is exit 2, as for the other tools that cannot run.
    if (code != 0 && argc > 1 && std::string(argv[1]) == "odds") return 2;
    return code;
  }

  if (*odds_combat) return galloper::server::tools::odds_combat(combat_args, std::cout, std::cerr);
  if (*odds_fire) return galloper::server::tools::odds_fire(fire_args, std::cout, std::cerr);

  if (*replay) {
    if (!replay_all && tool_game.empty()) {
      std::cerr << "replay: name a GAME_ID or pass --all\n";
      return 2;
    }
    return galloper::server::tools::replay(tool_data, tool_game, replay_all, std::cout, std::cerr);
  }
  if (*backup) return galloper::server::tools::backup(tool_data, tool_out, std::cout, std::cerr);
  if (*export_cmd) {
    return galloper::server::tools::export_game(tool_data, tool_game, tool_out, export_text, std::cout, std::cerr);
  }
  if (*verify) return galloper::server::tools::verify(verify_file, std::cout, std::cerr);

  if (*version) {
    std::cout << "galloper " << galloper::server::kServerVersion << " (protocol " << galloper::server::kProtocolMajor
              << "." << galloper::server::kProtocolMinor << ")\n"
              << "allocator: " << allocator_in_use() << "\n";
    return 0;
  }
  if (*check) return check_scenario_file(scenario_file);
  if (*serve) {
    std::string why;
    if (!parse_listen(listen, cfg, why)) {
      std::cerr << "--listen " << listen << ": " << why << "\n";
      return 2;
    }
    cfg.idle_timeout = std::chrono::seconds(idle_timeout_s);
    cfg.handshake_timeout = std::chrono::seconds(handshake_timeout_s);
    cfg.failed_token_ban = std::chrono::seconds(token_ban_s);
    spdlog::set_level(spdlog::level::from_str(cfg.log_level));
    spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");
    spdlog::info("allocator: {}", allocator_in_use());
    return galloper::server::run_server(cfg);
  }
  return 0;
}
