#pragma once
// Webhook notifications: a JSON POST per event to a game's or a seat's URL,
// plain JSON or a Discord/Slack-compatible body. Deliveries run on the
// io_context with their own timeouts and retry with exponential backoff;
// failures are logged and never block a room. Only public addresses are
// posted to (destination.hpp), redirects are not followed, and an answer
// longer than a small cap fails the delivery.
#include <boost/asio/io_context.hpp>
#include <boost/asio/ssl/context.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "server/src/metrics.hpp"
#include "server/src/notify/destination.hpp"

namespace galloper::server {

enum class WebhookFormat { kJson, kDiscord, kSlack };

struct Webhook {
  std::string url;  // http:// or https://
  WebhookFormat format = WebhookFormat::kJson;
  bool daily_digest = false;  // the room queues its notifications for one digest a day
};

struct Notification {
  std::string kind;     // "decision_owed", "deadline_near", "step_resolved", "game_ended", "digest", "test"
  std::string game_id;
  std::string seat;     // empty: the whole game
  std::string text;     // for people
};

struct ParsedUrl {
  bool tls = false;
  std::string host;
  std::string port;
  std::string target;
};
// Empty when the URL is not http(s)://host[:port][/path].
std::optional<ParsedUrl> parse_webhook_url(const std::string& url);

// The request body for a notification in a format.
std::string webhook_body(const Notification& n, WebhookFormat format);

class Notifier {
 public:
  struct Options {
    int max_attempts = 5;
    std::chrono::milliseconds first_backoff{1000};  // doubles each retry
    std::chrono::seconds timeout{10};               // per attempt, connection to response
    std::size_t response_max = 16 * 1024;           // a longer answer is a failed delivery
    DestinationPolicy destinations;                 // public addresses only, unless allowed
    Metrics* metrics = nullptr;                     // also counted there, when given
  };

  Notifier(boost::asio::io_context& ioc, Options options);
  explicit Notifier(boost::asio::io_context& ioc) : Notifier(ioc, Options{}) {}

  // Thread-safe; returns at once.
  void send(const Webhook& hook, const Notification& n);

  // Why a URL will not be posted to, for the person who gave it: not an
  // http(s) URL, or its host an address the server does not post to. A host
  // name is checked each time it is resolved.
  std::optional<std::string> refuses(const std::string& url) const;

  std::uint64_t delivered() const { return delivered_; }
  std::uint64_t failed() const { return failed_; }
  std::uint64_t refused() const { return refused_; }  // destinations that resolved only to refused addresses

 private:
  friend class Delivery;
  boost::asio::io_context& ioc_;
  Options options_;
  boost::asio::ssl::context tls_;
  void count_delivered();
  void count_failed(bool refused);
  std::atomic<std::uint64_t> delivered_{0};
  std::atomic<std::uint64_t> failed_{0};
  std::atomic<std::uint64_t> refused_{0};
};

}  // namespace galloper::server
