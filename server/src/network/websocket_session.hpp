#pragma once
// One WebSocket connection (Beast chat-multi shape): its own strand, one read
// and at most one write in flight, a bounded outgoing queue. A client that
// stops reading until the queue is full is disconnected, so memory stays bounded.
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/websocket.hpp>
#include <atomic>
#include <deque>
#include <mutex>
#include <optional>
#include <memory>
#include <string>

#include "server/src/network/frame_codec.hpp"
#include "server/src/network/outgoing.hpp"
#include "server/src/network/shared_state.hpp"
#include "server/src/network/ws_stream.hpp"

namespace galloper::server {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;

class WebSocketSession : public Peer, public std::enable_shared_from_this<WebSocketSession> {
 public:
  // `game`: the game the connection was opened for ("/ws/games/{id}"), or
  // empty ("/ws"); a connection for one game may not act in another.
  // `peer`: how the log names the connection; `client`: the key the limits
  // per address count it under (limit_key).
  WebSocketSession(WsStream stream, std::shared_ptr<SharedState> state, IpSlot slot, std::string peer,
                   std::string client, std::string game = {});
  ~WebSocketSession() override;

  void run(http::request<http::string_body> request);
  // Accepts the handshake and closes at once with `reason` (try again later).
  void refuse(std::string reason, http::request<http::string_body> request);

  // Peer
  void send(OutgoingPtr message) override;
  std::string describe() const override;
  void set_seat(std::string game_id, std::string seat) override;
  bool takes_view_changes() const override { return protocol_minor_.load(std::memory_order_acquire) >= 1; }

  // Thread-safe: closes with the given code after what is queued.
  void close(websocket::close_code code, std::string reason);

 private:
  struct Queued {
    std::shared_ptr<const std::string> frame;
    bool binary;
  };

  void on_accept(beast::error_code ec);
  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  void on_send(OutgoingPtr message);
  void do_write();
  void on_write(beast::error_code ec, std::size_t bytes);
  void do_close(websocket::close_code code, std::string reason);
  void start_close();
  void fail(beast::error_code ec, const char* what);

  void handle(std::string_view payload, Encoding encoding);
  void handle_hello(const v1::Envelope& envelope);
  // The game a request acts in ("" for the lobby's requests).
  static std::string_view game_of(const v1::Envelope& envelope);
  void reply_error(std::uint64_t correlation_id, v1::ErrorCode code, std::string message);
  // The abuse limits a frame must pass before it is handled (false: it has
  // been answered or the connection is closing). Nothing of a refused
  // request is kept. admit_rate: this connection's message and chat rates;
  // admit: the address's ban, creation rate, organiser key, scenario size.
  bool admit_rate(std::uint64_t correlation_id, bool chat);
  bool admit(const v1::Envelope& envelope);
  void refuse_limited(std::uint64_t correlation_id, std::string message, double retry_after_seconds);
  // A token or organiser key that opened nothing, counted against the address.
  void note_failed_token();

  // The strand is the socket's (the listener's make_strand), kept typed so
  // a push is posted without type erasure.
  net::strand<net::io_context::executor_type> strand_;
  WsStream ws_;
  beast::flat_buffer buffer_;
  std::shared_ptr<SharedState> state_;
  IpSlot slot_;
  const std::string peer_;
  const std::string ip_;  // the client's limit key
  const std::string bound_game_;
  std::string refusal_;  // closes with this as soon as the handshake is done

  // Touched only on the strand.
  std::deque<Queued> queue_;
  std::size_t queued_bytes_ = 0;
  bool writing_ = false;
  bool closing_ = false;
  std::optional<websocket::close_reason> pending_close_;  // sent once the queue drains
  bool helloed_ = false;
  TokenBucket messages_;
  TokenBucket chat_;
  unsigned refused_in_a_row_ = 0;
  std::atomic<unsigned> protocol_minor_{0};  // from the Hello; read by room strands
  Encoding encoding_ = Encoding::kBinary;  // of the client's last frame; pushes use it
  std::string game_id_;
  std::string seat_;
  mutable std::mutex describe_mu_;  // describe() is called from room strands
};

}  // namespace galloper::server
