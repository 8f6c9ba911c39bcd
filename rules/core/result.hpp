#pragma once
// Rule rejections are values, never exceptions (STYLE.md: three error channels).
#include <cassert>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace galloper::rules {

// Why an answer, a scenario or a request was refused, in words a player can act on.
struct Rejection {
  std::string code;    // stable, machine-readable: "wrong_seat", "too_far", ...
  // For people: "b3 rolled 4\" and cannot move 5\"." A template naming pieces
  // by reference (rules/core/tell.hpp): told to a seat with tell_text.
  std::string reason;
  // A step refused because answers collide (two moves ending on top of each
  // other): the decisions whose answers are involved, so that each seat is
  // told only that its own order must change.
  std::vector<std::string> decisions = {};
};

// A minimal expected<T, Rejection> (std::expected is C++23).
template <class T>
class Result {
 public:
  Result(T value) : v_(std::move(value)) {}                  // NOLINT: implicit by design
  Result(Rejection rejection) : v_(std::move(rejection)) {}  // NOLINT

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { assert(ok()); return std::get<0>(v_); }
  const T& value() const& { assert(ok()); return std::get<0>(v_); }
  T&& value() && { assert(ok()); return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Rejection& error() const { assert(!ok()); return std::get<1>(v_); }

 private:
  std::variant<T, Rejection> v_;
};

// Result for operations with no value.
struct Ok {};
using Verdict = Result<Ok>;

inline Rejection reject(std::string code, std::string reason) {
  return Rejection{std::move(code), std::move(reason), {}};
}

}  // namespace galloper::rules
