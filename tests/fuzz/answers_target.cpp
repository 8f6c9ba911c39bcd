// Malbrook's answer checks: answers made from the bytes against one of the
// demo game's states (the first byte picks which), each checked, and the
// step resolved with those the check passed (and the defaults of the other
// decisions). Answers mostly name the state's real decisions, seats, pieces
// and words, so they reach the checks behind the first "no such decision".
#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "rules/core/bot.hpp"
#include "rules/core/decision.hpp"
#include "rules/core/dice.hpp"
#include "tests/fuzz/bundled_games.hpp"
#include "tests/fuzz/fuzz_input.hpp"
#include "tests/fuzz/targets.hpp"

namespace galloper::fuzz {
namespace {

const std::vector<std::string> kActions{
    "forward", "wheel", "incline", "side_step", "step_back", "about_face", "formation", "reform",
    "unlimber", "pivot", "mount", "dismount", "move_to", "attach", "detach", "steady", "inspire",
    "issue_orders", "send_messenger", "limber", "halt"};
const std::vector<std::string> kFormations{"line", "two_rank_line", "march_column", "field_column",
                                           "unformed", "square", "column"};
const std::vector<std::string> kOrders{"defend", "advance_and_defend", "advance_and_attack", "reassign"};
const std::vector<std::string> kPivots{"left", "right"};

// Every name the state's decisions use: their subjects, the pieces their
// options name, their seats.
std::vector<std::string> names_in(const std::vector<rules::Decision>& pending) {
  std::vector<std::string> out;
  for (const auto& d : pending) {
    out.push_back(d.seat);
    out.insert(out.end(), d.subjects.begin(), d.subjects.end());
    for (const auto& o : d.options) {
      if (!o.piece.empty()) out.push_back(o.piece);
    }
  }
  return out;
}

rules::OrderStep make_step(FuzzInput& in, const std::vector<std::string>& names) {
  rules::OrderStep s;
  s.action = in.pick(kActions);
  s.distance = in.number();
  s.angle_deg = in.number();
  s.pivot = in.pick(kPivots);
  s.formation = in.pick(kFormations);
  s.to = {in.number(), in.number()};
  s.target = in.pick(names);
  if (in.flag()) {
    s.order = in.pick(kOrders);
    s.has_objective = in.flag();
    s.feature = in.text(8);
    s.unit = in.pick(names);
    s.wing = in.pick(names);
    s.command = in.pick(names);
  }
  return s;
}

bool sane_numbers(const rules::Answer& a) {
  for (const auto& s : a.steps) {
    for (const double x : {s.distance, s.angle_deg, s.to.x, s.to.y}) {
      if (!std::isfinite(x) || std::abs(x) > 1e6) return false;
    }
  }
  return true;
}

rules::Answer make_answer(FuzzInput& in, const std::vector<rules::Decision>& pending,
                          const std::vector<std::string>& names) {
  rules::Answer a;
  const rules::Decision* d = pending.empty() ? nullptr : &pending[in.u8() % pending.size()];
  a.decision_id = (d == nullptr || in.u8() % 16 == 0) ? in.text(16) : d->id;
  a.seat = (d == nullptr || in.u8() % 16 == 0) ? in.pick(names) : d->seat;
  if (d != nullptr && !d->options.empty() && in.u8() % 8 != 0) {
    a.option = d->options[in.u8() % d->options.size()].id;
  } else {
    a.option = in.text(8);
  }
  const std::size_t steps = in.u8() % 6;
  for (std::size_t i = 0; i < steps; ++i) a.steps.push_back(make_step(in, names));
  return a;
}

}  // namespace

void answers(Bytes data) {
  FuzzInput in(data);
  const auto& states = demo_states();
  const rules::Game& game = *states[in.u8() % states.size()];
  const auto pending = game.pending();
  const auto names = names_in(pending);

  std::vector<rules::Answer> passed;
  const std::size_t count = 1 + in.u8() % 8;
  for (std::size_t i = 0; i < count; ++i) {
    auto a = make_answer(in, pending, names);
    if (!game.check(a).ok()) continue;
    // NaN, an infinity or a huge number in an accepted order ends up in a piece's position.
    if (!sane_numbers(a)) std::abort();
    passed.push_back(std::move(a));
  }
  if (passed.empty()) return;
  std::vector<rules::Answer> all = passed;
  for (const auto& d : pending) {
    bool answered = false;
    for (const auto& a : passed) answered = answered || a.decision_id == d.id;
    if (!answered) all.push_back(rules::Bot::fallback(d));
  }
  rules::KeyedDice dice(fixed_seed(), game.step());
  auto r = game.resolve(all, dice);
  if (r.ok()) {
    (void)r.value().next->pending();
    (void)r.value().next->state_hash();
  }
}

}  // namespace galloper::fuzz
