#include "server/src/network/websocket_session.hpp"

#include <boost/asio/dispatch.hpp>
#include <algorithm>
#include <cmath>
#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include "server/src/game/scenario_limits.hpp"
#include "server/src/tokens.hpp"
#include "server/src/version.hpp"

namespace galloper::server {

namespace {

// A client that keeps sending while refused is closed after this many refusals in a row.
constexpr unsigned kRefusalsBeforeClose = 100;

// The strand the listener gave the socket (each connection has its own).
net::strand<net::io_context::executor_type> strand_of(const net::any_io_executor& executor) {
  if (const auto* strand = executor.target<net::strand<net::io_context::executor_type>>()) return *strand;
  // Not from the listener (no strand): one of its own, on the same io_context.
  return net::make_strand(static_cast<net::io_context&>(net::query(executor, net::execution::context)));
}

}  // namespace

WebSocketSession::WebSocketSession(WsStream stream, std::shared_ptr<SharedState> state, IpSlot slot, std::string peer,
                                   std::string client, std::string game)
    : strand_(strand_of(stream.socket_executor())),
      ws_(std::move(stream)),
      state_(std::move(state)),
      slot_(std::move(slot)),
      peer_(std::move(peer)),
      ip_(std::move(client)),
      bound_game_(std::move(game)) {}

WebSocketSession::~WebSocketSession() {
  state_->leave(this);
  state_->metrics().connections--;
  spdlog::debug("{} disconnected", describe());
}

std::string WebSocketSession::describe() const {
  std::lock_guard lock(describe_mu_);
  std::string s = "peer " + peer_;
  if (!game_id_.empty()) s += " game " + game_id_;
  if (!seat_.empty()) s += " seat " + seat_;
  return s;
}

void WebSocketSession::set_seat(std::string game_id, std::string seat) {
  std::lock_guard lock(describe_mu_);
  game_id_ = std::move(game_id);
  seat_ = std::move(seat);
}

void WebSocketSession::run(http::request<http::string_body> request) {
  const auto& cfg = state_->config();
  websocket::stream_base::timeout timeouts{};
  timeouts.handshake_timeout = cfg.handshake_timeout;
  timeouts.idle_timeout = cfg.idle_timeout;  // a ping goes out at half of it
  timeouts.keep_alive_pings = true;
  ws_.visit([&](auto& ws) {
    ws.set_option(timeouts);
    ws.read_message_max(cfg.read_message_max);
    websocket::permessage_deflate pmd;
    pmd.client_enable = false;
    pmd.server_enable = false;  // compression off: no CRIME-style leaks, less CPU
    ws.set_option(pmd);
    // One frame per message. Beast's default (auto_fragment on, 4 KiB write
    // buffer) sends a message over 4 KiB as 4 KiB frames, one socket write
    // each: a spectator's StepResolved (the whole table's view) took several
    // sendmsg calls per connection. Messages are bounded by what the server
    // builds; control frames wait for a message at most (a read or a ping
    // does not need them sooner).
    ws.auto_fragment(false);
    ws.set_option(websocket::stream_base::decorator([](websocket::response_type& res) {
      res.set(http::field::server, std::string("galloper/") + std::string(kServerVersion));
    }));
  });

  state_->join(this);
  state_->metrics().connections++;
  ws_.visit([&](auto& ws) {
    ws.async_accept(request, beast::bind_front_handler(&WebSocketSession::on_accept, shared_from_this()));
  });
}

void WebSocketSession::fail(beast::error_code ec, const char* what) {
  if (ec == boost::asio::error::operation_aborted || ec == websocket::error::closed) return;
  if (ec == websocket::error::message_too_big) {
    // Beast has already sent close 1009; the rest of the server carries on.
    spdlog::warn("{} closed: frame larger than {} bytes", describe(), state_->config().read_message_max);
    state_->metrics().errors++;
    return;
  }
  spdlog::debug("{} {}: {}", describe(), what, ec.message());
}

void WebSocketSession::refuse(std::string reason, http::request<http::string_body> request) {
  refusal_ = std::move(reason);
  run(std::move(request));
}

void WebSocketSession::on_accept(beast::error_code ec) {
  if (ec) return fail(ec, "accept");
  if (!refusal_.empty()) return do_close(websocket::close_code::try_again_later, refusal_);
  spdlog::info("{} connected", describe());
  do_read();
}

void WebSocketSession::do_read() {
  ws_.visit([&](auto& ws) {
    ws.async_read(buffer_, beast::bind_front_handler(&WebSocketSession::on_read, shared_from_this()));
  });
}

void WebSocketSession::on_read(beast::error_code ec, std::size_t) {
  if (ec) return fail(ec, "read");
  state_->metrics().messages_in++;
  const auto data = buffer_.cdata();
  std::string_view payload(static_cast<const char*>(data.data()), data.size());
  const bool binary = ws_.visit([](auto& ws) { return ws.got_binary(); });
  handle(payload, binary ? Encoding::kBinary : Encoding::kJson);
  buffer_.consume(buffer_.size());
  if (!closing_) do_read();
}

void WebSocketSession::reply_error(std::uint64_t correlation_id, v1::ErrorCode code, std::string message) {
  spdlog::info("{} error {}: {}", describe(), v1::ErrorCode_Name(code), message);
  state_->metrics().errors++;
  on_send(make_outgoing(make_error(correlation_id, code, std::move(message))));
}

void WebSocketSession::handle(std::string_view payload, Encoding encoding) {
  encoding_ = encoding;
  auto decoded = decode_frame(payload, encoding);
  // Every frame counts against the rate, malformed ones and Hello included.
  const bool chat = decoded.envelope && decoded.envelope->body_case() == v1::Envelope::kSendChat;
  if (!admit_rate(decoded.correlation_id, chat)) return;
  if (!decoded.envelope) {
    reply_error(decoded.correlation_id, decoded.failure->code, decoded.failure->message);
    return;
  }
  const auto& env = *decoded.envelope;
  const auto id = env.correlation_id();

  if (env.body_case() == v1::Envelope::kHello) return handle_hello(env);
  if (!helloed_) {
    return reply_error(id, v1::ERROR_CODE_HANDSHAKE_REQUIRED,
                       "send Hello with the protocol version before any other message");
  }

  if (!admit(env)) return;

  if (const auto game = game_of(env); !bound_game_.empty() && !game.empty() && game != bound_game_) {
    return reply_error(id, v1::ERROR_CODE_INVALID_ARGUMENT,
                       "this connection was opened for game " + bound_game_ + " (/ws/games/" + bound_game_ +
                           "); open /ws/games/" + std::string(game) + " for game " + std::string(game));
  }
  auto self = std::static_pointer_cast<Peer>(shared_from_this());
  auto& lobby = state_->lobby();
  switch (env.body_case()) {
    case v1::Envelope::kListScenarios:
      return lobby.list_scenarios(env.list_scenarios(), self, id);
    case v1::Envelope::kCreateGame:
      return lobby.create_game(env.create_game(), self, id);
    case v1::Envelope::kJoinGame:
      return lobby.join_game(env.join_game(), self, id);
    case v1::Envelope::kListGames:
      return lobby.list_games(self, id);
    case v1::Envelope::kSubmitAnswer:
      return lobby.submit_answer(env.submit_answer(), self, id);
    case v1::Envelope::kLockAnswers:
      return lobby.lock_answers(env.lock_answers(), self, id);
    case v1::Envelope::kSetStandingOrders:
      return lobby.standing_orders(env.set_standing_orders(), self, id);
    case v1::Envelope::kUmpireAction:
      return lobby.umpire_action(env.umpire_action(), self, id);
    case v1::Envelope::kSendChat:
      return lobby.send_chat(env.send_chat(), self, id);
    case v1::Envelope::kSetNotifications:
      return lobby.set_notifications(env.set_notifications(), self, id);
    case v1::Envelope::kListAudit:
      return lobby.list_audit(env.list_audit(), self, id);
    case v1::Envelope::kOddsRequest:
      return lobby.odds(env.odds_request(), self, id);
    default:
      return reply_error(id, v1::ERROR_CODE_UNKNOWN_MESSAGE,
                         "a client may not send " +
                             std::string(v1::Envelope::descriptor()->FindFieldByNumber(env.body_case())->name()));
  }
}

void WebSocketSession::refuse_limited(std::uint64_t correlation_id, std::string message, double retry_after_seconds) {
  state_->metrics().errors++;
  spdlog::info("{} error RATE_LIMITED: {}", describe(), message);
  auto e = make_error(correlation_id, v1::ERROR_CODE_RATE_LIMITED, std::move(message));
  (*e.mutable_error()->mutable_context())["retry_after_seconds"] =
      std::to_string(static_cast<long long>(std::ceil(std::max(retry_after_seconds, 0.0))));
  on_send(make_outgoing(std::move(e)));
}

void WebSocketSession::note_failed_token() {
  state_->metrics().failed_tokens++;
  if (state_->guard().failed_token(ip_)) {
    state_->metrics().bans++;
    spdlog::warn("{} address banned for {} s: {} tokens or keys that opened nothing", describe(),
                 state_->config().failed_token_ban.count(), state_->config().max_failed_tokens);
  }
}

bool WebSocketSession::admit_rate(std::uint64_t id, bool chat) {
  const auto& cfg = state_->config();
  auto& metrics = state_->metrics();
  const auto now = TokenBucket::Clock::now();
  const double chat_rate = cfg.chat_per_minute / 60.0;
  const bool over_messages = !messages_.take(cfg.messages_per_second, std::max(1.0, 5 * cfg.messages_per_second), now);
  const bool over_chat = !over_messages && chat && !chat_.take(chat_rate, 5, now);
  if (over_messages || over_chat) {
    (over_messages ? metrics.limited_messages : metrics.limited_chat)++;
    if (++refused_in_a_row_ >= kRefusalsBeforeClose) {
      spdlog::warn("{} closed: {} requests refused in a row for sending too fast", describe(), refused_in_a_row_);
      do_close(websocket::close_code::policy_error, "too many messages; reconnect and slow down");
      return false;
    }
    if (over_messages) {
      refuse_limited(id,
                     "too many messages on this connection (at most " + fmt::format("{:g}", cfg.messages_per_second) +
                         " a second); slow down",
                     messages_.wait_seconds(cfg.messages_per_second));
    } else {
      refuse_limited(id,
                     "too many chat messages (at most " + fmt::format("{:g}", cfg.chat_per_minute) +
                         " a minute); wait before sending more",
                     chat_.wait_seconds(chat_rate));
    }
    return false;
  }
  refused_in_a_row_ = 0;
  return true;
}

bool WebSocketSession::admit(const v1::Envelope& env) {
  const auto& cfg = state_->config();
  auto& metrics = state_->metrics();
  const auto id = env.correlation_id();
  const bool join = env.body_case() == v1::Envelope::kJoinGame;
  const bool create = env.body_case() == v1::Envelope::kCreateGame;
  if (join || create) {
    if (const auto seconds = state_->guard().banned_for(ip_); seconds > 0) {
      metrics.limited_banned++;
      refuse_limited(id,
                     "too many wrong tokens or keys from your address; try again in " + std::to_string(seconds) + " s",
                     static_cast<double>(seconds));
      return false;
    }
  }
  const std::string* scenario = nullptr;
  if (create && env.create_game().source_case() == v1::CreateGame::kScenarioText) {
    scenario = &env.create_game().scenario_text();
  }
  if (env.body_case() == v1::Envelope::kListScenarios && !env.list_scenarios().scenario_text().empty()) {
    scenario = &env.list_scenarios().scenario_text();
  }
  if (scenario != nullptr) {
    if (auto why = scenario_too_big(*scenario, cfg.max_scenario_bytes, cfg.max_scenario_parts)) {
      metrics.limited_scenario++;
      reply_error(id, v1::ERROR_CODE_INVALID_ARGUMENT, std::move(*why));
      return false;
    }
  }
  if (!create) return true;
  if (!cfg.create_key.empty()) {
    // Hashes compared, so the time taken says nothing of the key's length either.
    if (!constant_time_equal(sha256_hex(env.create_game().create_key()), sha256_hex(cfg.create_key))) {
      metrics.limited_create_key++;
      note_failed_token();
      reply_error(id, v1::ERROR_CODE_PERMISSION_DENIED,
                  env.create_game().create_key().empty()
                      ? "this server creates games only with the organiser's key (CreateGame.create_key)"
                      : "that organiser key is not this server's; ask the server's operator for it");
      return false;
    }
  }
  if (!state_->guard().admit_creation(ip_)) {
    metrics.limited_creations++;
    refuse_limited(id,
                   "too many games created from your address (at most " + std::to_string(cfg.games_per_ip_per_hour) +
                       " an hour); try again later",
                   3600.0 / static_cast<double>(cfg.games_per_ip_per_hour));
    return false;
  }
  return true;
}

std::string_view WebSocketSession::game_of(const v1::Envelope& env) {
  switch (env.body_case()) {
    case v1::Envelope::kJoinGame: return env.join_game().game_id();
    case v1::Envelope::kSubmitAnswer: return env.submit_answer().game_id();
    case v1::Envelope::kLockAnswers: return env.lock_answers().game_id();
    case v1::Envelope::kSetStandingOrders: return env.set_standing_orders().game_id();
    case v1::Envelope::kUmpireAction: return env.umpire_action().game_id();
    case v1::Envelope::kSendChat: return env.send_chat().game_id();
    case v1::Envelope::kSetNotifications: return env.set_notifications().game_id();
    case v1::Envelope::kListAudit: return env.list_audit().game_id();
    case v1::Envelope::kOddsRequest: return env.odds_request().game_id();
    default: return {};
  }
}

void WebSocketSession::handle_hello(const v1::Envelope& envelope) {
  const auto id = envelope.correlation_id();
  if (helloed_) return reply_error(id, v1::ERROR_CODE_HANDSHAKE_REQUIRED, "Hello was already received");
  const auto& hello = envelope.hello();
  if (hello.protocol().major() != kProtocolMajor) {
    auto e = make_error(id, v1::ERROR_CODE_VERSION_MISMATCH,
                        "this server speaks protocol " + std::to_string(kProtocolMajor) + ".x, the client " +
                            std::to_string(hello.protocol().major()) + "." +
                            std::to_string(hello.protocol().minor()) + "; update the client");
    auto& ctx = *e.mutable_error()->mutable_context();
    ctx["server_major"] = std::to_string(kProtocolMajor);
    ctx["client_major"] = std::to_string(hello.protocol().major());
    spdlog::info("{} refused: protocol {} (client '{}')", describe(), hello.protocol().major(),
                 hello.client_name());
    state_->metrics().errors++;
    on_send(make_outgoing(std::move(e)));
    do_close(websocket::close_code::protocol_error, "protocol version mismatch");
    return;
  }
  helloed_ = true;
  protocol_minor_.store(hello.protocol().minor(), std::memory_order_release);
  spdlog::info("{} hello from '{}' protocol {}.{}", describe(), hello.client_name(), hello.protocol().major(),
               hello.protocol().minor());
  v1::Envelope reply;
  reply.set_correlation_id(id);
  auto* welcome = reply.mutable_welcome();
  welcome->set_server_version(std::string(kServerVersion));
  welcome->mutable_protocol()->set_major(kProtocolMajor);
  welcome->mutable_protocol()->set_minor(kProtocolMinor);
  on_send(make_outgoing(std::move(reply)));
}

void WebSocketSession::send(OutgoingPtr message) {
  boost::asio::post(strand_, [self = shared_from_this(), message = std::move(message)]() mutable {
    self->on_send(std::move(message));
  });
}

void WebSocketSession::on_send(OutgoingPtr message) {
  if (closing_) return;
  if (const auto& env = message->envelope(); env.has_error() && env.error().code() == v1::ERROR_CODE_BAD_TOKEN) {
    note_failed_token();
  }
  const auto& cfg = state_->config();
  auto frame = message->frame(encoding_);
  if (queue_.size() >= cfg.max_queued_messages || queued_bytes_ + frame->size() > cfg.max_queued_bytes) {
    spdlog::warn("{} dropped: it stopped reading ({} messages, {} bytes queued)", describe(), queue_.size(),
                 queued_bytes_);
    state_->metrics().slow_clients_dropped++;
    // A client this far behind will not read a close frame either: cut it off.
    closing_ = true;
    ws_.cut();
    return;
  }
  queued_bytes_ += frame->size();
  queue_.push_back({std::move(frame), encoding_ == Encoding::kBinary});
  if (!writing_) do_write();
}

void WebSocketSession::do_write() {
  writing_ = true;
  ws_.visit([&](auto& ws) {
    ws.binary(queue_.front().binary);
    ws.async_write(boost::asio::buffer(*queue_.front().frame),
                   beast::bind_front_handler(&WebSocketSession::on_write, shared_from_this()));
  });
}

void WebSocketSession::on_write(beast::error_code ec, std::size_t) {
  writing_ = false;
  if (ec) return fail(ec, "write");
  state_->metrics().messages_out++;
  queued_bytes_ -= queue_.front().frame->size();
  queue_.pop_front();
  if (!queue_.empty()) return do_write();
  if (closing_) start_close();
}

void WebSocketSession::close(websocket::close_code code, std::string reason) {
  boost::asio::post(strand_, [self = shared_from_this(), code, reason = std::move(reason)]() mutable {
    self->do_close(code, std::move(reason));
  });
}

void WebSocketSession::do_close(websocket::close_code code, std::string reason) {
  closing_ = true;
  pending_close_ = websocket::close_reason(code, reason);
  if (writing_) return;  // on_write closes once the queue has drained
  if (!queue_.empty()) return do_write();
  start_close();
}

void WebSocketSession::start_close() {
  if (!pending_close_ || !ws_.visit([](auto& ws) { return ws.is_open(); })) return;
  auto reason = *pending_close_;
  pending_close_.reset();
  ws_.visit([&](auto& ws) { ws.async_close(reason, [self = shared_from_this()](beast::error_code) {}); });
}

}  // namespace galloper::server
