#include "rules/core/answers.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

namespace galloper::rules {

namespace {

constexpr double kLargestNumber = 1e6;  // table units or degrees; tables are a few hundred units (or yards)

bool sane_number(double x) { return std::isfinite(x) && std::abs(x) <= kLargestNumber; }

Rejection about_decision(Rejection r, const std::string& id) {
  r.decisions = {id};
  return r;
}

}  // namespace

const Decision* find_decision(const std::vector<Decision>& pending, std::string_view id) {
  for (const auto& d : pending) {
    if (d.id == id) return &d;
  }
  return nullptr;
}

bool sane_numbers(const Answer& a) {
  return std::all_of(a.steps.begin(), a.steps.end(), [](const OrderStep& st) {
    return sane_number(st.distance) && sane_number(st.angle_deg) && sane_number(st.to.x) && sane_number(st.to.y);
  });
}

Result<const Decision*> addressed(const std::vector<Decision>& pending, const Answer& a, std::uint32_t turn,
                                  std::string_view phase, std::string_view umpire_seat) {
  const Decision* d = find_decision(pending, a.decision_id);
  // Another seat's decision about its pieces: to any seat but the umpire it
  // is answered as one that does not exist.
  if (d == nullptr || (d->seat != a.seat && !d->subjects.empty() && a.seat != umpire_seat)) {
    return reject("unknown_decision", "Nothing called \"" + a.decision_id + "\" is pending now (turn " +
                                          std::to_string(turn) + ", " + std::string(phase) + " phase).");
  }
  if (d->seat != a.seat) {
    return reject("wrong_seat", "\"" + d->id + "\" is for seat " + d->seat + ", not " + a.seat + ".");
  }
  if (!sane_numbers(a)) {
    return reject("bad_number", "A distance, angle or point of the order for \"" + d->id +
                                    "\" is not a number, or beyond any table.");
  }
  return d;
}

Verdict listed_option(const Decision& d, const Answer& a) {
  for (const auto& o : d.options) {
    if (o.id == a.option) return Ok{};
  }
  std::string listed;
  for (const auto& o : d.options) listed += (listed.empty() ? "\"" : ", \"") + o.id + "\"";
  return reject("bad_option", "\"" + a.option + "\" is not an option for " + d.id + "; choose one of " + listed + ".");
}

Verdict check_step(const std::vector<Decision>& owed, const std::vector<Answer>& answers,
                   const std::function<Verdict(const Answer&)>& check) {
  std::set<std::string, std::less<>> answered;
  for (const auto& a : answers) {
    if (!answered.insert(a.decision_id).second) {
      return about_decision(reject("duplicate_answer", "\"" + a.decision_id + "\" is answered twice."), a.decision_id);
    }
    if (auto ok = check(a); !ok) return about_decision(ok.error(), a.decision_id);
  }
  for (const auto& d : owed) {
    if (!answered.contains(d.id)) {
      return about_decision(reject("missing_answer", "\"" + d.id + "\" (seat " + d.seat + ") has no answer."), d.id);
    }
  }
  return Ok{};
}

}  // namespace galloper::rules
