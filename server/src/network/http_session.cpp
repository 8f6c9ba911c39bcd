#include "server/src/network/http_session.hpp"

#include <cctype>

#include <boost/asio/dispatch.hpp>
#include <boost/beast/websocket.hpp>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <filesystem>

#include "server/src/version.hpp"
#include "server/src/network/websocket_session.hpp"

namespace galloper::server {

namespace {

std::string_view mime_type(std::string_view path) {
  const auto dot = path.rfind('.');
  const auto ext = dot == std::string_view::npos ? std::string_view{} : path.substr(dot);
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".js" || ext == ".mjs") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".json" || ext == ".map") return "application/json";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".ico") return "image/x-icon";
  if (ext == ".woff2") return "font/woff2";
  if (ext == ".txt" || ext == ".textproto") return "text/plain; charset=utf-8";
  if (ext == ".wasm") return "application/wasm";
  return "application/octet-stream";
}

template <class Body>
void common_headers(http::response<Body>& res, const http::request<http::string_body>& req) {
  res.set(http::field::server, std::string("galloper/") + std::string(kServerVersion));
  res.set("X-Content-Type-Options", "nosniff");
  res.keep_alive(req.keep_alive());
}

http::message_generator text_response(const http::request<http::string_body>& req, http::status status,
                                      std::string_view content_type, std::string body) {
  http::response<http::string_body> res{status, req.version()};
  common_headers(res, req);
  res.set(http::field::content_type, content_type);
  res.set(http::field::cache_control, "no-store");
  res.body() = req.method() == http::verb::head ? std::string() : std::move(body);
  res.prepare_payload();
  if (req.method() == http::verb::head) res.content_length(body.size());
  return res;
}

http::message_generator error_json(const http::request<http::string_body>& req, http::status status,
                                   std::string_view code, std::string_view message) {
  std::string body = "{\"error\":{\"code\":\"" + std::string(code) + "\",\"message\":\"" + std::string(message) +
                     "\"}}\n";
  return text_response(req, status, "application/json", std::move(body));
}

// Maps a request target to a file under `root`, refusing anything that would
// leave it. Empty when the target is not a safe path.
std::optional<std::filesystem::path> static_path(const std::filesystem::path& root, std::string_view target) {
  if (const auto q = target.find_first_of("?#"); q != std::string_view::npos) target = target.substr(0, q);
  if (target.empty() || target.front() != '/') return std::nullopt;
  if (target.find("..") != std::string_view::npos || target.find('\\') != std::string_view::npos ||
      target.find('\0') != std::string_view::npos) {
    return std::nullopt;
  }
  std::string rel(target.substr(1));
  if (rel.empty() || rel.back() == '/') rel += "index.html";
  return root / rel;
}

// The game a WebSocket path is for: "" for "/ws", the id for
// "/ws/games/{id}" (ids are what the server makes: letters and digits);
// nullopt for any other path.
std::optional<std::string> websocket_game(std::string_view path) {
  if (path == "/ws") return std::string();
  constexpr std::string_view kPrefix = "/ws/games/";
  if (!path.starts_with(kPrefix)) return std::nullopt;
  const auto id = path.substr(kPrefix.size());
  if (id.empty() || id.size() > 64) return std::nullopt;
  for (const char c : id) {
    if (!std::isalnum(static_cast<unsigned char>(c))) return std::nullopt;
  }
  return std::string(id);
}

}  // namespace

HttpSession::HttpSession(boost::asio::ip::tcp::socket&& socket, std::shared_ptr<SharedState> state, std::string client,
                         IpSlot slot, std::string refusal)
    : stream_(std::in_place_type<PlainHttpStream>, std::move(socket)),
      state_(std::move(state)),
      client_(std::move(client)),
      slot_(std::move(slot)),
      refusal_(std::move(refusal)) {
  beast::error_code ec;
  const auto remote = tcp().socket().remote_endpoint(ec);
  peer_ = ec ? "unknown" : remote.address().to_string() + ":" + std::to_string(remote.port());
  described_ = peer_;
}

HttpSession::HttpSession(boost::asio::ip::tcp::socket&& socket, std::shared_ptr<SharedState> state, Admission)
    : HttpSession(std::move(socket), std::move(state), {}, IpSlot(), {}) {
  per_request_ = true;
}

void HttpSession::admit_forwarded(const http::request<http::string_body>& req) {
  beast::error_code ec;
  const auto remote = tcp().socket().remote_endpoint(ec);
  if (ec) return;
  // Several X-Forwarded-For lines are one list, in order (RFC 9110, 5.3).
  std::string forwarded;
  for (auto [it, end] = req.equal_range("X-Forwarded-For"); it != end; ++it) {
    if (!forwarded.empty()) forwarded += ',';
    forwarded += it->value();
  }
  const auto client = state_->proxies().client_of(remote.address(), forwarded);
  client_ = limit_key(client);
  described_ = client.to_string() + " via " + peer_;
  slot_ = IpSlot();  // a proxy's connection may carry several clients' requests in turn
  refusal_ = admit(state_, client_, slot_);
}

beast::tcp_stream& HttpSession::tcp() {
  return std::visit([](auto& s) -> beast::tcp_stream& { return beast::get_lowest_layer(s); }, stream_);
}

void HttpSession::run() {
  boost::asio::dispatch(tcp().get_executor(), beast::bind_front_handler(&HttpSession::start, shared_from_this()));
}

void HttpSession::start() {
  if (state_->tls() == nullptr) return do_read();
  tcp().expires_after(state_->config().handshake_timeout);
  beast::async_detect_ssl(std::get<PlainHttpStream>(stream_), buffer_,
                          beast::bind_front_handler(&HttpSession::on_detect, shared_from_this()));
}

void HttpSession::on_detect(beast::error_code ec, bool tls) {
  if (ec) return;  // closed or timed out before a byte came
  if (!tls) {
    plain_on_tls_port_ = true;  // read its request to answer it properly
    return do_read();
  }
  tls_context_ = state_->tls()->current();
  auto plain = std::move(std::get<PlainHttpStream>(stream_));
  stream_.emplace<TlsHttpStream>(std::move(plain), *tls_context_);
  std::get<TlsHttpStream>(stream_).async_handshake(
      boost::asio::ssl::stream_base::server, buffer_.data(),
      beast::bind_front_handler(&HttpSession::on_handshake, shared_from_this()));
}

void HttpSession::on_handshake(beast::error_code ec, std::size_t used) {
  if (ec) {
    state_->metrics().tls_handshakes_failed++;
    spdlog::debug("peer {} TLS handshake: {}", peer_, ec.message());
    return;
  }
  buffer_.consume(used);
  do_read();
}

void HttpSession::do_read() {
  parser_.emplace();
  parser_->body_limit(state_->config().http_body_max);
  parser_->header_limit(16 * 1024);
  tcp().expires_after(state_->config().http_timeout);
  std::visit(
      [&](auto& stream) {
        http::async_read(stream, buffer_, *parser_,
                         beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
      },
      stream_);
}

void HttpSession::on_read(beast::error_code ec, std::size_t) {
  if (ec == http::error::end_of_stream) return do_close();
  if (ec) {
    if (ec != beast::error::timeout && ec != boost::asio::error::operation_aborted) {
      spdlog::debug("peer {} http read: {}", peer_, ec.message());
    }
    return;
  }
  state_->metrics().http_requests++;
  auto req = parser_->release();
  if (per_request_) admit_forwarded(req);

  if (plain_on_tls_port_) {
    // A plain client on the TLS port: a clear answer, then the connection ends.
    state_->metrics().tls_plain_refused++;
    spdlog::info("peer {} refused: plain HTTP on the TLS port", peer_);
    req.keep_alive(false);
    return send(error_json(req, http::status::bad_request, "TLS_REQUIRED",
                           "this server speaks TLS only: use https:// (wss:// for the WebSocket)"));
  }
  if (!refusal_.empty() && !beast::websocket::is_upgrade(req)) {
    spdlog::warn("peer {} refused: {}", described_, refusal_);
    req.keep_alive(false);
    return send(error_json(req, http::status::too_many_requests, "RATE_LIMITED", refusal_));
  }

  const std::string target(req.target());
  const std::string_view path = std::string_view(target).substr(0, target.find('?'));

  if (beast::websocket::is_upgrade(req)) {
    // "/ws", or "/ws/games/{id}": a connection for one game, so a proxy can
    // send every connection of a game to the node that holds it.
    const auto game = websocket_game(path);
    if (!game) {
      return send(error_json(req, http::status::not_found, "NOT_FOUND",
                             "WebSocket is at /ws, or /ws/games/{game id} for one game"));
    }
    // Origin: browsers always send it. Allow our own origin and the
    // configured list; tools that send none are not browsers and cannot be
    // used for cross-site requests.
    const auto origin = req[http::field::origin];
    if (!origin.empty()) {
      const auto host = req[http::field::host];
      bool allowed = origin == "http://" + std::string(host) || origin == "https://" + std::string(host);
      for (const auto& o : state_->config().allowed_origins) allowed = allowed || origin == o;
      if (!allowed) {
        spdlog::warn("peer {} refused: Origin '{}' is not allowed", described_, std::string(origin));
        return send(error_json(req, http::status::forbidden, "ORIGIN_NOT_ALLOWED",
                               "this Origin may not open a WebSocket here; see --allowed-origin"));
      }
    }
    tcp().expires_never();
    std::shared_ptr<WebSocketSession> session;
    if (auto* plain = std::get_if<PlainHttpStream>(&stream_)) {
      session = std::make_shared<WebSocketSession>(WsStream(plain->release_socket()), state_, std::move(slot_), described_,
                                                   client_, *game);
    } else {
      session = std::make_shared<WebSocketSession>(WsStream(std::move(std::get<TlsHttpStream>(stream_)), tls_context_),
                                                   state_, std::move(slot_), described_, client_, *game);
    }
    if (!refusal_.empty()) {
      // A browser cannot read an HTTP refusal of a WebSocket handshake: the
      // connection is accepted and closed at once with the reason.
      spdlog::warn("peer {} refused: {}", described_, refusal_);
      return session->refuse(refusal_, std::move(req));
    }
    session->run(std::move(req));
    return;
  }

  if (path == "/debug/clock" && state_->manual_clock() != nullptr && req.method() == http::verb::post) {
    // Tests move time forward to pass deadlines; exists only with --manual-clock.
    const auto q = target.find("advance_seconds=");
    long seconds = 0;
    if (q != std::string::npos) seconds = std::strtol(target.c_str() + q + 16, nullptr, 10);
    if (seconds <= 0) {
      return send(error_json(req, http::status::bad_request, "INVALID_ARGUMENT", "advance_seconds=N, N > 0"));
    }
    state_->manual_clock()->advance_ms(seconds * 1000);
    state_->lobby().tick_all();
    state_->lobby().wake_due(state_->manual_clock()->now_ms() + 1000);
    return send(text_response(req, http::status::ok, "text/plain; charset=utf-8", "ok\n"));
  }
  if (req.method() != http::verb::get && req.method() != http::verb::head) {
    return send(error_json(req, http::status::method_not_allowed, "METHOD_NOT_ALLOWED", "only GET and HEAD"));
  }
  if (path == "/healthz") return send(text_response(req, http::status::ok, "text/plain; charset=utf-8", "ok\n"));
  if (path == "/metrics") {
    return send(text_response(req, http::status::ok, "text/plain; version=0.0.4; charset=utf-8",
                              state_->metrics().render()));
  }

  const auto& root = state_->config().static_dir;
  auto file = root.empty() ? std::nullopt : static_path(root, path);
  if (!file) return send(error_json(req, http::status::not_found, "NOT_FOUND", "no such page"));
  http::file_body::value_type body;
  beast::error_code fec;
  body.open(file->c_str(), beast::file_mode::scan, fec);
  if (fec) return send(error_json(req, http::status::not_found, "NOT_FOUND", "no such page"));
  const auto size = body.size();
  if (req.method() == http::verb::head) {
    http::response<http::empty_body> res{http::status::ok, req.version()};
    common_headers(res, req);
    res.set(http::field::content_type, mime_type(file->string()));
    res.content_length(size);
    return send(std::move(res));
  }
  http::response<http::file_body> res{std::piecewise_construct, std::make_tuple(std::move(body)),
                                      std::make_tuple(http::status::ok, req.version())};
  common_headers(res, req);
  res.set(http::field::content_type, mime_type(file->string()));
  res.content_length(size);
  send(std::move(res));
}

void HttpSession::send(http::message_generator&& msg) {
  const bool keep_alive = msg.keep_alive();
  std::visit(
      [&](auto& stream) {
        beast::async_write(stream, std::move(msg),
                           beast::bind_front_handler(&HttpSession::on_write, shared_from_this(), keep_alive));
      },
      stream_);
}

void HttpSession::on_write(bool keep_alive, beast::error_code ec, std::size_t) {
  if (ec) return;
  if (!keep_alive) return do_close();
  do_read();
}

void HttpSession::do_close() {
  if (auto* tls = std::get_if<TlsHttpStream>(&stream_)) {
    tcp().expires_after(std::chrono::seconds(5));
    tls->async_shutdown([self = shared_from_this()](beast::error_code) {});
    return;
  }
  beast::error_code ec;
  tcp().socket().shutdown(boost::asio::ip::tcp::socket::shutdown_send, ec);
}

}  // namespace galloper::server
