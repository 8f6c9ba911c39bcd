#include "server/src/metrics.hpp"

#include <sstream>
#include <utility>

namespace galloper::server {

namespace {
void metric(std::ostringstream& out, const char* name, const char* type, const char* help,
            std::int64_t value) {
  out << "# HELP " << name << ' ' << help << "\n# TYPE " << name << ' ' << type << '\n'
      << name << ' ' << value << '\n';
}
}  // namespace

std::string Metrics::render() const {
  std::ostringstream out;
  metric(out, "galloper_connections", "gauge", "Open WebSocket connections.", connections.load());
  metric(out, "galloper_http_requests_total", "counter", "HTTP requests served.", http_requests.load());
  metric(out, "galloper_messages_in_total", "counter", "WebSocket messages received.", messages_in.load());
  metric(out, "galloper_messages_out_total", "counter", "WebSocket messages sent.", messages_out.load());
  metric(out, "galloper_errors_total", "counter", "Typed errors sent to clients.", errors.load());
  metric(out, "galloper_slow_clients_dropped_total", "counter",
         "Connections closed because their outgoing queue was full.", slow_clients_dropped.load());
  metric(out, "galloper_games", "gauge", "Games loaded in memory.", games_loaded.load());
  metric(out, "galloper_games_created_total", "counter", "Games created.", games_created.load());
  metric(out, "galloper_snapshots_written_total", "counter", "Game state snapshots stored.",
         snapshots_written.load());
  metric(out, "galloper_snapshots_rejected_total", "counter",
         "Stored snapshots found unusable on load (the log was replayed instead).", snapshots_rejected.load());
  metric(out, "galloper_webhooks_delivered_total", "counter", "Webhook notifications delivered.",
         webhooks_delivered.load());
  metric(out, "galloper_webhooks_failed_total", "counter", "Webhook notifications given up, refused ones included.",
         webhooks_failed.load());
  metric(out, "galloper_webhooks_refused_total", "counter",
         "Webhook notifications not sent: the destination is not a public address (--webhook-allow).",
         webhooks_refused.load());
  out << "# HELP galloper_limited_total Requests and connections refused by an abuse limit, by limit.\n"
         "# TYPE galloper_limited_total counter\n";
  const std::pair<const char*, const std::atomic<std::int64_t>*> limits[] = {
      {"messages", &limited_messages},   {"chat", &limited_chat},
      {"connections", &limited_connections}, {"banned", &limited_banned},
      {"creations", &limited_creations}, {"create_key", &limited_create_key},
      {"games", &limited_games},         {"log", &limited_log},
      {"scenario_size", &limited_scenario}};
  for (const auto& [name, value] : limits) out << "galloper_limited_total{limit=\"" << name << "\"} " << value->load() << '\n';
  metric(out, "galloper_failed_tokens_total", "counter", "Tokens and organiser keys given that opened nothing.",
         failed_tokens.load());
  metric(out, "galloper_bans_total", "counter", "Addresses banned for a while after too many failed tokens.",
         bans.load());
  metric(out, "galloper_tls_handshakes_failed_total", "counter", "TLS handshakes that failed (old versions included).",
         tls_handshakes_failed.load());
  metric(out, "galloper_tls_plain_refused_total", "counter", "Plain HTTP requests answered 400 on the TLS port.",
         tls_plain_refused.load());
  metric(out, "galloper_tls_reloads_total", "counter", "Certificate reloads on SIGHUP that took effect.",
         tls_reloads.load());
  metric(out, "galloper_tls_reloads_failed_total", "counter", "Certificate reloads on SIGHUP that kept the old one.",
         tls_reloads_failed.load());
  return out.str();
}

}  // namespace galloper::server
