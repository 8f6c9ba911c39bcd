#include "server/src/metrics.hpp"

#include <sstream>

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
  return out.str();
}

}  // namespace galloper::server
