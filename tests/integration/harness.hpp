#pragma once
// Integration harness: starts the real `galloper serve` on a loopback port
// with its own temporary data directory, and talks to it over real sockets.
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <set>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <google/protobuf/util/json_util.h>

#include "galloper/v1/protocol.pb.h"

#include "tests/spawn.hpp"

namespace galloper::testing {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;

inline std::filesystem::path make_temp_dir(const std::string& tag) {
  std::random_device rd;
  auto dir = std::filesystem::temp_directory_path() /
             ("galloper-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(rd()));
  std::filesystem::create_directories(dir);
  return dir;
}

// One `galloper serve` child process.
class ServerProcess {
 public:
  explicit ServerProcess(std::filesystem::path data_dir, std::vector<std::string> extra_args = {})
      : data_dir_(std::move(data_dir)), extra_args_(std::move(extra_args)) {}
  ~ServerProcess() { stop(SIGKILL); }

  void start() {
    ready_file_ = data_dir_ / "ready";
    std::filesystem::remove(ready_file_);
    log_file_ = data_dir_ / "server.log";
    std::vector<std::string> args = {GALLOPER_BINARY, "serve", "--listen", "127.0.0.1:0", "--data",
                                     data_dir_.string(), "--ready-file", ready_file_.string(),
                                     "--log-level", "debug", "--threads", "2"};
    args.insert(args.end(), extra_args_.begin(), extra_args_.end());
    // Tests of other things open connections and send requests faster than
    // any person: the abuse limits are opened wide unless a test sets one
    // (limits_test.cpp sets each it checks).
    for (const auto& [flag, value] : {std::pair<const char*, const char*>{"--message-rate", "100000"},
                                      {"--chat-per-minute", "100000"},
                                      {"--connection-rate", "100000"},
                                      {"--games-per-ip-per-hour", "1000000"},
                                      {"--max-failed-tokens", "100000"}}) {
      if (std::find(extra_args_.begin(), extra_args_.end(), flag) == extra_args_.end()) {
        args.insert(args.end(), {flag, value});
      }
    }
    pid_ = spawn_logged(args, log_file_);
    ASSERT_GE(pid_, 0);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
      if (std::filesystem::exists(ready_file_)) {
        std::ifstream in(ready_file_);
        in >> port_;
        if (port_ != 0) return;
      }
      int status = 0;
      if (::waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        FAIL() << "galloper serve exited early; log:\n" << log();
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    FAIL() << "galloper serve did not become ready; log:\n" << log();
  }

  // Sends `sig` and waits; returns the exit status (or -1).
  int stop(int sig = SIGTERM) {
    if (pid_ <= 0) return -1;
    ::kill(pid_, sig);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return status;
  }

  unsigned short port() const { return port_; }
  pid_t pid() const { return pid_; }
  std::string log() const {
    std::ifstream in(log_file_);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

 private:
  std::filesystem::path data_dir_;
  std::vector<std::string> extra_args_;
  std::filesystem::path ready_file_;
  std::filesystem::path log_file_;
  pid_t pid_ = -1;
  unsigned short port_ = 0;
};

inline void set_receive_timeout(tcp::socket& s, int seconds) {
  timeval tv{seconds, 0};
  ::setsockopt(s.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
}

struct HttpResult {
  unsigned status = 0;
  std::string body;
  std::string content_type;
};

// `source`: the loopback address to connect from (e.g. "127.0.0.2", to be
// another client address); empty for the system's choice. `forwarded_for`:
// an X-Forwarded-For header, as a proxy would add.
inline HttpResult http_get(unsigned short port, const std::string& target, const std::string& source = {},
                           const std::string& forwarded_for = {}) {
  net::io_context ioc;
  tcp::socket socket(ioc);
  if (!source.empty()) {
    socket.open(tcp::v4());
    socket.bind(tcp::endpoint(net::ip::make_address(source), 0));
  }
  socket.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  set_receive_timeout(socket, 10);
  http::request<http::empty_body> req{http::verb::get, target, 11};
  req.set(http::field::host, "127.0.0.1:" + std::to_string(port));
  if (!forwarded_for.empty()) req.set("X-Forwarded-For", forwarded_for);
  http::write(socket, req);
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  http::read(socket, buffer, res);
  return {res.result_int(), res.body(), std::string(res[http::field::content_type])};
}

// A POST with no body (e.g. /debug/clock?advance_seconds=N under --manual-clock).
inline HttpResult http_post(unsigned short port, const std::string& target) {
  net::io_context ioc;
  tcp::socket socket(ioc);
  socket.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  set_receive_timeout(socket, 10);
  http::request<http::empty_body> req{http::verb::post, target, 11};
  req.set(http::field::host, "127.0.0.1");
  http::write(socket, req);
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  http::read(socket, buffer, res);
  return {res.result_int(), res.body(), std::string(res[http::field::content_type])};
}

// A WebSocket client speaking protocol v1 in binary or JSON.
class Client {
 public:
  enum class Mode { kBinary, kJson };

  // `source`: the loopback address to connect from (e.g. "127.0.0.2", to
  // be another client address); empty for the system's choice.
  // `forwarded_for`: an X-Forwarded-For header, as a proxy would add.
  explicit Client(unsigned short port, Mode mode = Mode::kBinary, std::string origin = {},
                  const std::string& target = "/ws", const std::string& source = {},
                  std::string forwarded_for = {})
      : ws_(ioc_), mode_(mode) {
    auto& sock = ws_.next_layer();
    if (!source.empty()) {
      sock.open(tcp::v4());
      sock.bind(tcp::endpoint(net::ip::make_address(source), 0));
    }
    sock.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    set_receive_timeout(sock, 10);
    ws_.set_option(websocket::stream_base::decorator([origin, forwarded_for](websocket::request_type& req) {
      if (!origin.empty()) req.set(http::field::origin, origin);
      if (!forwarded_for.empty()) req.set("X-Forwarded-For", forwarded_for);
    }));
    ws_.handshake(handshake_response_, "127.0.0.1:" + std::to_string(port), target, ec_);
    ws_.binary(mode_ == Mode::kBinary);
  }

  bool connected() const { return !ec_; }
  const beast::error_code& handshake_error() const { return ec_; }
  const websocket::response_type& handshake_response() const { return handshake_response_; }

  void send(const v1::Envelope& env) {
    std::string out;
    if (mode_ == Mode::kBinary) {
      env.SerializeToString(&out);
    } else {
      auto st = google::protobuf::util::MessageToJsonString(env, &out);
      ASSERT_TRUE(st.ok());
    }
    send_raw(out, mode_ == Mode::kBinary);
  }

  void send_raw(const std::string& payload, bool binary) {
    ws_.binary(binary);
    ws_.write(net::buffer(payload));
    ws_.binary(mode_ == Mode::kBinary);
  }

  // Next message; empty if the connection closed or nothing came in time.
  // (An async read with run_for: SO_RCVTIMEO does not bound Asio's
  // synchronous reads, which poll again on EAGAIN.)
  std::optional<v1::Envelope> receive(std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    if (!backlog_.empty()) {  // pushes that arrived while call() waited for its reply
      auto env = std::move(backlog_.front());
      backlog_.pop_front();
      return env;
    }
    return read_frame(timeout);
  }

  // Next message if one comes within `timeout`; unlike receive(), a quiet
  // connection stays usable (the read stays posted for the next call).
  std::optional<v1::Envelope> poll(std::chrono::milliseconds timeout) {
    if (!backlog_.empty()) {
      auto env = std::move(backlog_.front());
      backlog_.pop_front();
      return env;
    }
    return read_frame(timeout, false);
  }

  // The next frame from the socket (not the backlog). On timeout the read is
  // cancelled and the connection given up, unless `give_up` is false.
  std::optional<v1::Envelope> read_frame(std::chrono::milliseconds timeout = std::chrono::seconds(10),
                                         bool give_up = true) {
    if (!reading_) {
      read_buffer_.clear();
      read_done_ = false;
      reading_ = true;
      ws_.async_read(read_buffer_, [this](beast::error_code e, std::size_t) {
        read_error_ = e;
        read_done_ = true;
      });
    }
    ioc_.restart();
    ioc_.run_for(timeout);
    if (!read_done_) {
      if (!give_up) return std::nullopt;
      // Give up on this connection: cancel the read and let it finish.
      beast::error_code ignored;
      ws_.next_layer().cancel(ignored);
      ioc_.restart();
      ioc_.run();
      reading_ = false;
      last_read_error_ = net::error::timed_out;
      return std::nullopt;
    }
    reading_ = false;
    if (read_error_) {
      last_read_error_ = read_error_;
      return std::nullopt;
    }
    v1::Envelope env;
    const std::string data = beast::buffers_to_string(read_buffer_.data());
    last_raw_ = data;
    if (on_frame) {
      v1::Envelope decoded;
      if (ws_.got_binary() ? decoded.ParseFromString(data)
                           : google::protobuf::util::JsonStringToMessage(data, &decoded).ok()) {
        on_frame(data, decoded);
      }
    }
    if (ws_.got_binary()) {
      if (!env.ParseFromString(data)) return std::nullopt;
    } else {
      last_text_ = data;
      if (!google::protobuf::util::JsonStringToMessage(data, &env).ok()) return std::nullopt;
    }
    last_was_binary_ = ws_.got_binary();
    return env;
  }

  // Sends a request and returns the reply with the same correlation id.
  v1::Envelope call(v1::Envelope request) {
    request.set_correlation_id(++next_id_);
    send(request);
    std::deque<v1::Envelope> others;
    for (int i = 0; i < 100; ++i) {
      auto reply = read_frame();
      if (!reply) {
        ADD_FAILURE() << "no reply: " << last_read_error_.message();
        break;
      }
      if (reply->correlation_id() == request.correlation_id()) {
        for (auto& o : others) backlog_.push_back(std::move(o));
        return *reply;
      }
      others.push_back(std::move(*reply));  // kept for receive(), in order
    }
    for (auto& o : others) backlog_.push_back(std::move(o));
    ADD_FAILURE() << "no reply with correlation id " << request.correlation_id();
    return {};
  }

  v1::Envelope hello(unsigned major = 1, unsigned minor = 1) {
    v1::Envelope e;
    e.mutable_hello()->mutable_protocol()->set_major(major);
    e.mutable_hello()->mutable_protocol()->set_minor(minor);
    e.mutable_hello()->set_client_name("integration-test");
    return call(e);
  }

  websocket::close_reason close_reason() const { return ws_.reason(); }
  beast::error_code last_read_error() const { return last_read_error_; }
  bool last_was_binary() const { return last_was_binary_; }
  const std::string& last_text() const { return last_text_; }
  // Called with every frame read from the socket, as its bytes and decoded,
  // whichever call reads it (a call()'s reply and the pushes it passed over
  // included): for tests that must see every byte a connection was sent.
  std::function<void(const std::string& raw, const v1::Envelope& decoded)> on_frame;

  // The bytes of the last frame read, exactly as they came.
  const std::string& last_raw() const { return last_raw_; }

 private:
  net::io_context ioc_;
  websocket::stream<tcp::socket> ws_;
  websocket::response_type handshake_response_;
  Mode mode_;
  beast::error_code ec_;
  beast::error_code last_read_error_;
  bool last_was_binary_ = false;
  std::string last_text_;
  std::string last_raw_;
  std::uint64_t next_id_ = 0;
  std::deque<v1::Envelope> backlog_;
  // The read in flight (poll() leaves one posted across calls).
  beast::flat_buffer read_buffer_;
  beast::error_code read_error_;
  bool reading_ = false;
  bool read_done_ = false;
};

}  // namespace galloper::testing
