#include "server/src/network/websocket_session.hpp"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <spdlog/spdlog.h>

#include "server/src/version.hpp"

namespace galloper::server {

namespace {

// The strand the listener gave the socket (each connection has its own).
net::strand<net::io_context::executor_type> strand_of(net::ip::tcp::socket& socket) {
  const auto executor = socket.get_executor();
  if (const auto* strand = executor.target<net::strand<net::io_context::executor_type>>()) return *strand;
  // Not from the listener (no strand): one of its own, on the same io_context.
  return net::make_strand(static_cast<net::io_context&>(net::query(executor, net::execution::context)));
}

}  // namespace

WebSocketSession::WebSocketSession(boost::asio::ip::tcp::socket&& socket, std::shared_ptr<SharedState> state,
                                   IpSlot slot, std::string peer, std::string game)
    : strand_(strand_of(socket)),
      ws_(std::move(socket)),
      state_(std::move(state)),
      slot_(std::move(slot)),
      peer_(std::move(peer)),
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
  ws_.set_option(timeouts);
  ws_.read_message_max(cfg.read_message_max);
  websocket::permessage_deflate pmd;
  pmd.client_enable = false;
  pmd.server_enable = false;  // compression off: no CRIME-style leaks, less CPU
  ws_.set_option(pmd);
  // One frame per message. Beast's default (auto_fragment on, 4 KiB write
  // buffer) sends a message over 4 KiB as 4 KiB frames, one socket write
  // each: a spectator's StepResolved (the whole table's view) took several
  // sendmsg calls per connection. Messages are bounded by what the server
  // builds; control frames wait for a message at most (a read or a ping
  // does not need them sooner).
  ws_.auto_fragment(false);
  ws_.set_option(websocket::stream_base::decorator([](websocket::response_type& res) {
    res.set(http::field::server, std::string("galloper/") + std::string(kServerVersion));
  }));

  state_->join(this);
  state_->metrics().connections++;
  ws_.async_accept(request, beast::bind_front_handler(&WebSocketSession::on_accept, shared_from_this()));
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
  ws_.async_read(buffer_, beast::bind_front_handler(&WebSocketSession::on_read, shared_from_this()));
}

void WebSocketSession::on_read(beast::error_code ec, std::size_t) {
  if (ec) return fail(ec, "read");
  state_->metrics().messages_in++;
  const auto data = buffer_.cdata();
  std::string_view payload(static_cast<const char*>(data.data()), data.size());
  handle(payload, ws_.got_binary() ? Encoding::kBinary : Encoding::kJson);
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
  const auto& cfg = state_->config();
  auto frame = message->frame(encoding_);
  if (queue_.size() >= cfg.max_queued_messages || queued_bytes_ + frame->size() > cfg.max_queued_bytes) {
    spdlog::warn("{} dropped: it stopped reading ({} messages, {} bytes queued)", describe(), queue_.size(),
                 queued_bytes_);
    state_->metrics().slow_clients_dropped++;
    // A client this far behind will not read a close frame either: cut it off.
    closing_ = true;
    beast::error_code ignored;
    ws_.next_layer().close(ignored);
    return;
  }
  queued_bytes_ += frame->size();
  queue_.push_back({std::move(frame), encoding_ == Encoding::kBinary});
  if (!writing_) do_write();
}

void WebSocketSession::do_write() {
  writing_ = true;
  ws_.binary(queue_.front().binary);
  ws_.async_write(boost::asio::buffer(*queue_.front().frame),
                  beast::bind_front_handler(&WebSocketSession::on_write, shared_from_this()));
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
  if (!pending_close_ || !ws_.is_open()) return;
  auto reason = *pending_close_;
  pending_close_.reset();
  ws_.async_close(reason, [self = shared_from_this()](beast::error_code) {});
}

}  // namespace galloper::server
