#pragma once
// Wall-clock time for deadlines, behind an interface so tests can move it.
#include <atomic>
#include <chrono>
#include <cstdint>

namespace galloper::server {

class Clock {
 public:
  virtual ~Clock() = default;
  virtual std::int64_t now_ms() const = 0;  // Unix time in milliseconds
  std::int64_t now_unix() const { return now_ms() / 1000; }
};

class SystemClock final : public Clock {
 public:
  std::int64_t now_ms() const override {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
};

// Starts at the real time and moves only when told to (serve --manual-clock,
// for deadline tests).
class ManualClock final : public Clock {
 public:
  ManualClock() : ms_(SystemClock().now_ms()) {}
  std::int64_t now_ms() const override { return ms_.load(); }
  void advance_ms(std::int64_t ms) { ms_ += ms; }

 private:
  std::atomic<std::int64_t> ms_;
};

}  // namespace galloper::server
