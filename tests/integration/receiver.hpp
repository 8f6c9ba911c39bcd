#pragma once
// A webhook receiver for integration tests: a tiny HTTP server on loopback.
#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tests/integration/harness.hpp"

namespace galloper::testing {

// What a Receiver answers once past its failures: 200 with "{}" unless told
// otherwise (a redirect, or a body longer than the server reads).
struct ReceiverAnswer {
  http::status status = http::status::ok;
  std::string location;      // sent as Location when not empty
  std::size_t body_bytes = 0;  // 0: "{}"
};

// A tiny HTTP server on 127.0.0.1 that records POST bodies. It answers the
// first `failures` requests with 500, then as `answer` says.
class Receiver {
 public:
  explicit Receiver(int failures = 0, ReceiverAnswer answer = {})
      : acceptor_(ioc_, tcp::endpoint(net::ip::make_address("127.0.0.1"), 0)),
        failures_(failures),
        answer_(std::move(answer)) {
    thread_ = std::thread([this] { run(); });
  }
  ~Receiver() {
    stop_ = true;
    beast::error_code ignored;
    // Wake the blocking accept with one last connection.
    tcp::socket s(ioc_);
    s.connect(acceptor_.local_endpoint(), ignored);
    thread_.join();
  }
  unsigned short port() const { return acceptor_.local_endpoint().port(); }
  std::vector<std::string> bodies() {
    std::lock_guard lock(mu_);
    return bodies_;
  }
  int requests() const { return requests_; }

  // Waits up to `seconds` for a body containing `needle`.
  bool wait_for(const std::string& needle, int seconds = 15) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    while (std::chrono::steady_clock::now() < deadline) {
      for (const auto& b : bodies()) {
        if (b.find(needle) != std::string::npos) return true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return false;
  }

 private:
  void run() {
    for (int i = 0; i < 1000 && !stop_; ++i) {  // bounded
      tcp::socket socket(ioc_);
      beast::error_code ec;
      acceptor_.accept(socket, ec);
      if (ec || stop_) return;
      beast::flat_buffer buffer;
      http::request<http::string_body> req;
      http::read(socket, buffer, req, ec);
      if (ec) continue;
      const int n = ++requests_;
      http::response<http::string_body> res{n <= failures_ ? http::status::internal_server_error : answer_.status, 11};
      if (!answer_.location.empty()) res.set(http::field::location, answer_.location);
      res.body() = answer_.body_bytes == 0 ? std::string("{}") : std::string(answer_.body_bytes, 'x');
      res.prepare_payload();
      if (n > failures_) {
        std::lock_guard lock(mu_);
        bodies_.push_back(req.body());
      }
      http::write(socket, res, ec);
    }
  }

  net::io_context ioc_;
  tcp::acceptor acceptor_;
  int failures_;
  ReceiverAnswer answer_;
  std::atomic<int> requests_{0};
  std::atomic<bool> stop_{false};
  std::mutex mu_;
  std::vector<std::string> bodies_;
  std::thread thread_;
};

}  // namespace galloper::testing
