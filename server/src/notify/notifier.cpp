#include "server/src/notify/notifier.hpp"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <google/protobuf/util/json_util.h>
#include <google/protobuf/struct.pb.h>
#include <spdlog/spdlog.h>

#include <optional>
#include <vector>

#include "server/src/version.hpp"

namespace galloper::server {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

std::optional<ParsedUrl> parse_webhook_url(const std::string& url) {
  ParsedUrl out;
  std::string rest;
  if (url.rfind("http://", 0) == 0) {
    rest = url.substr(7);
    out.port = "80";
  } else if (url.rfind("https://", 0) == 0) {
    rest = url.substr(8);
    out.port = "443";
    out.tls = true;
  } else {
    return std::nullopt;
  }
  const auto slash = rest.find('/');
  std::string authority = rest.substr(0, slash);
  out.target = slash == std::string::npos ? "/" : rest.substr(slash);
  if (authority.empty() || authority.find('@') != std::string::npos) return std::nullopt;
  if (authority.front() == '[') {  // [v6]:port
    const auto close = authority.find(']');
    if (close == std::string::npos) return std::nullopt;
    out.host = authority.substr(1, close - 1);
    if (close + 1 < authority.size()) {
      if (authority[close + 1] != ':') return std::nullopt;
      out.port = authority.substr(close + 2);
    }
  } else if (const auto colon = authority.rfind(':'); colon != std::string::npos) {
    out.host = authority.substr(0, colon);
    out.port = authority.substr(colon + 1);
  } else {
    out.host = authority;
  }
  if (out.host.empty() || out.port.empty() || out.port.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return out;
}

namespace {

std::string json_string(const std::string& s) {
  // protobuf's JSON printer escapes strings exactly as JSON wants.
  google::protobuf::Value v;
  v.set_string_value(s);
  std::string out;
  (void)google::protobuf::util::MessageToJsonString(v, &out);
  return out;
}

}  // namespace

std::string webhook_body(const Notification& n, WebhookFormat format) {
  const std::string line = "[" + n.game_id + (n.seat.empty() ? "" : " " + n.seat) + "] " + n.text;
  switch (format) {
    case WebhookFormat::kDiscord:
      return "{\"content\":" + json_string(line) + "}";
    case WebhookFormat::kSlack:
      return "{\"text\":" + json_string(line) + "}";
    case WebhookFormat::kJson:
      break;
  }
  return "{\"kind\":" + json_string(n.kind) + ",\"game_id\":" + json_string(n.game_id) +
         ",\"seat\":" + json_string(n.seat) + ",\"text\":" + json_string(n.text) + "}";
}

// One delivery with its retries; keeps itself alive through its handlers.
class Delivery : public std::enable_shared_from_this<Delivery> {
 public:
  Delivery(Notifier& owner, ParsedUrl url, std::string body, std::string what)
      : owner_(owner),
        url_(std::move(url)),
        body_(std::move(body)),
        what_(std::move(what)),
        strand_(net::make_strand(owner.ioc_)),
        resolver_(strand_),
        timer_(strand_) {}

  void start() { attempt(); }

 private:
  void attempt() {
    ++attempts_;
    resolver_.async_resolve(url_.host, url_.port,
                            beast::bind_front_handler(&Delivery::on_resolve, shared_from_this()));
  }

  http::request<http::string_body> request() const {
    http::request<http::string_body> req{http::verb::post, url_.target, 11};
    req.set(http::field::host, url_.host);
    req.set(http::field::user_agent, std::string("galloper/") + std::string(kServerVersion));
    req.set(http::field::content_type, "application/json");
    req.body() = body_;
    req.prepare_payload();
    return req;
  }

  void on_resolve(beast::error_code ec, tcp::resolver::results_type resolved) {
    if (ec) return retry("resolve: " + ec.message());
    // Only the addresses the policy allows, and the connection made to
    // exactly those: the name is not resolved again between check and use.
    std::vector<tcp::endpoint> results;
    std::string refusal;
    for (const auto& r : resolved) {
      if (auto why = owner_.options_.destinations.refuses(r.endpoint().address())) {
        refusal = r.endpoint().address().to_string() + " is " + *why;
      } else {
        results.push_back(r.endpoint());
      }
    }
    if (results.empty()) {
      return refuse(url_.host + " resolves only to addresses the server does not post to (" + refusal + ")");
    }
    if (url_.tls) {
      tls_stream_ = std::make_unique<beast::ssl_stream<beast::tcp_stream>>(strand_, owner_.tls_);
      if (!SSL_set_tlsext_host_name(tls_stream_->native_handle(), url_.host.c_str())) {
        return retry("TLS server name");
      }
      tls_stream_->set_verify_callback(net::ssl::host_name_verification(url_.host));
      beast::get_lowest_layer(*tls_stream_).expires_after(owner_.options_.timeout);
      beast::get_lowest_layer(*tls_stream_)
          .async_connect(results, [self = shared_from_this()](beast::error_code e, const tcp::endpoint&) {
            if (e) return self->retry("connect: " + e.message());
            self->tls_stream_->async_handshake(net::ssl::stream_base::client, [self](beast::error_code h) {
              if (h) return self->retry("TLS handshake: " + h.message());
              self->req_ = self->request();
              http::async_write(*self->tls_stream_, self->req_,
                                beast::bind_front_handler(&Delivery::on_write_tls, self));
            });
          });
      return;
    }
    stream_ = std::make_unique<beast::tcp_stream>(strand_);
    stream_->expires_after(owner_.options_.timeout);
    stream_->async_connect(results, [self = shared_from_this()](beast::error_code e, const tcp::endpoint&) {
      if (e) return self->retry("connect: " + e.message());
      self->req_ = self->request();
      http::async_write(*self->stream_, self->req_, beast::bind_front_handler(&Delivery::on_write, self));
    });
  }

  void on_write(beast::error_code ec, std::size_t) {
    if (ec) return retry("write: " + ec.message());
    http::async_read(*stream_, buffer_, fresh_parser(),
                     beast::bind_front_handler(&Delivery::on_read, shared_from_this()));
  }

  void on_write_tls(beast::error_code ec, std::size_t) {
    if (ec) return retry("write: " + ec.message());
    http::async_read(*tls_stream_, buffer_, fresh_parser(),
                     beast::bind_front_handler(&Delivery::on_read, shared_from_this()));
  }

  http::response_parser<http::string_body>& fresh_parser() {
    parser_.emplace();
    parser_->header_limit(8 * 1024);
    parser_->body_limit(owner_.options_.response_max);
    return *parser_;
  }

  void on_read(beast::error_code ec, std::size_t) {
    if (ec) return retry("read: " + ec.message());
    const auto status = parser_->get().result_int();
    if (status >= 200 && status < 300) {
      owner_.count_delivered();
      spdlog::debug("webhook {} delivered ({})", what_, status);
      return;
    }
    // A redirect is not followed: it could lead anywhere the check above would refuse.
    if (status >= 300 && status < 400) return fail("HTTP " + std::to_string(status) + ": redirects are not followed");
    retry("HTTP " + std::to_string(status));
  }

  void refuse(const std::string& why) {
    owner_.count_failed(true);
    spdlog::warn("webhook {} not delivered: {}", what_, why);
  }

  void fail(const std::string& why) {
    owner_.count_failed(false);
    spdlog::warn("webhook {} not delivered: {}", what_, why);
  }

  void retry(const std::string& why) {
    stream_.reset();
    tls_stream_.reset();
    buffer_.clear();
    parser_.reset();
    if (attempts_ >= owner_.options_.max_attempts) {
      return fail("failed after " + std::to_string(attempts_) + " attempts: " + why);
    }
    const auto backoff = owner_.options_.first_backoff * (1 << (attempts_ - 1));
    spdlog::info("webhook {} attempt {} failed ({}); retrying in {} ms", what_, attempts_, why, backoff.count());
    timer_.expires_after(backoff);
    timer_.async_wait([self = shared_from_this()](beast::error_code e) {
      if (!e) self->attempt();
    });
  }

  Notifier& owner_;
  ParsedUrl url_;
  std::string body_;
  std::string what_;
  net::strand<net::io_context::executor_type> strand_;
  tcp::resolver resolver_;
  net::steady_timer timer_;
  std::unique_ptr<beast::tcp_stream> stream_;
  std::unique_ptr<beast::ssl_stream<beast::tcp_stream>> tls_stream_;
  http::request<http::string_body> req_;
  beast::flat_buffer buffer_;
  std::optional<http::response_parser<http::string_body>> parser_;
  int attempts_ = 0;
};

Notifier::Notifier(net::io_context& ioc, Options options)
    : ioc_(ioc), options_(options), tls_(net::ssl::context::tls_client) {
  tls_.set_default_verify_paths();
  tls_.set_verify_mode(net::ssl::verify_peer);
}

void Notifier::count_delivered() {
  delivered_++;
  if (options_.metrics != nullptr) options_.metrics->webhooks_delivered++;
}

void Notifier::count_failed(bool refused) {
  failed_++;
  if (refused) refused_++;
  if (options_.metrics != nullptr) {
    options_.metrics->webhooks_failed++;
    if (refused) options_.metrics->webhooks_refused++;
  }
}

std::optional<std::string> Notifier::refuses(const std::string& url) const {
  const auto parsed = parse_webhook_url(url);
  if (!parsed) return "\"" + url + "\" is not an http:// or https:// URL with a host";
  if (auto why = options_.destinations.refuses_host(parsed->host)) {
    return "the webhook's host " + parsed->host + " is " + *why +
           ": this server posts only to public addresses (its operator may allow a range with --webhook-allow)";
  }
  return std::nullopt;
}

void Notifier::send(const Webhook& hook, const Notification& n) {
  auto url = parse_webhook_url(hook.url);
  if (!url) {
    count_failed(false);
    spdlog::warn("webhook for game {}: not an http(s) URL", n.game_id);
    return;
  }
  // Checked again here, not only when given: the operator's ranges may have changed since.
  if (auto why = options_.destinations.refuses_host(url->host)) {
    count_failed(true);
    spdlog::warn("webhook for game {} not delivered: {} is {}", n.game_id, url->host, *why);
    return;
  }
  auto what = n.kind + " for game " + n.game_id + (n.seat.empty() ? "" : " seat " + n.seat) + " to " + url->host;
  std::make_shared<Delivery>(*this, std::move(*url), webhook_body(n, hook.format), std::move(what))->start();
}

}  // namespace galloper::server
