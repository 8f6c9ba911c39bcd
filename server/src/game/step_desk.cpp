#include "server/src/game/step_desk.hpp"

#include <spdlog/spdlog.h>

#include "codec/play_codec.hpp"
#include "rules/core/bot.hpp"
#include "rules/core/tell.hpp"
#include "server/src/game/telling.hpp"
#include "server/src/tokens.hpp"

namespace galloper::server {

namespace {

// After this many reopenings of one step by colliding answers the bot stops
// relocking (the umpire can force the step or answer for the seat). From the
// first retry on the bot takes every decision's default (hold, halt, stand),
// which keeps its troops where they are, so only players' orders can still
// collide; the cap only stops a game of bots from retrying for ever.
constexpr std::uint32_t kMaxBotAttempts = 8;

// The bot's randomness is its own, not the dice's: seeded with
// SHA-256("galloper-bot-v1" | game seed | step | seat | attempt), so a game's
// bot play is fixed by its seed and a player cannot learn a die from it.
std::uint32_t bot_rng_seed(const rules::Seed& seed, std::uint64_t step, std::string_view seat,
                           std::uint32_t attempt) {
  std::string bytes = "galloper-bot-v1";
  bytes.append(reinterpret_cast<const char*>(seed.data()), seed.size());
  for (int i = 0; i < 8; ++i) bytes += static_cast<char>((step >> (8 * i)) & 0xff);
  bytes += seat;
  bytes += '\0';
  for (int i = 0; i < 4; ++i) bytes += static_cast<char>((attempt >> (8 * i)) & 0xff);
  return static_cast<std::uint32_t>(std::stoul(sha256_hex(bytes).substr(0, 8), nullptr, 16));
}

v1::LogEntry answer_entry(std::uint64_t step, const rules::Answer& a) {
  v1::LogEntry entry;
  auto* stored = entry.mutable_answer();
  stored->set_step(step);
  stored->mutable_answer()->set_seat(a.seat);
  codec::to_proto(a, stored->mutable_answer()->mutable_answer());
  return entry;
}

}  // namespace

std::variant<std::size_t, Refusal> StepDesk::acting_seat(std::size_t holder, std::uint64_t step,
                                                         const std::string& for_seat) const {
  const auto& held = state_.seats[holder].seat;
  if (RoomState::is_spectator(held)) {
    return Refusal{v1::ERROR_CODE_PERMISSION_DENIED, "spectators watch; they do not play", {}};
  }
  std::size_t seat = holder;
  if (!for_seat.empty() && for_seat != held.id) {
    if (!RoomState::is_umpire(held)) {
      return Refusal{v1::ERROR_CODE_PERMISSION_DENIED,
                     "only the umpire may act for another seat; you hold " + held.id, {}};
    }
    seat = state_.index_of(for_seat);
    if (seat >= state_.seats.size() || RoomState::is_spectator(state_.seats[seat].seat)) {
      return Refusal{v1::ERROR_CODE_NOT_FOUND, "game " + state_.game_id + " has no seat " + for_seat, {}};
    }
  }
  if (state_.ended()) return Refusal{v1::ERROR_CODE_INVALID_ARGUMENT, "the game has ended", {}};
  if (state_.paused) {
    return Refusal{v1::ERROR_CODE_UNAVAILABLE, "the game is paused; answer again once it resumes", {}};
  }
  if (step != state_.game->step()) {
    return Refusal{v1::ERROR_CODE_INVALID_ARGUMENT,
                   "step " + std::to_string(step) + " is not open for answers; the current step is " +
                       std::to_string(state_.game->step()),
                   {}};
  }
  if (state_.locked.contains(state_.seats[seat].seat.id)) {
    return Refusal{v1::ERROR_CODE_INVALID_ARGUMENT,
                   "seat " + state_.seats[seat].seat.id + " has locked its answers for this step", {}};
  }
  return seat;
}

std::variant<v1::LogEntry, Refusal> StepDesk::answer(std::size_t seat, const v1::Answer& wire) const {
  const auto& id = state_.seats[seat].seat.id;
  const auto& decision_id = wire.decision_id();
  const rules::Decision* decision = nullptr;
  for (const auto& d : state_.pending) {
    if (d.id == decision_id && d.seat == id) decision = &d;
  }
  if (decision == nullptr) {
    return Refusal{v1::ERROR_CODE_INVALID_ARGUMENT,
                   "seat " + id + " owes no decision '" + decision_id + "' at this step", {}};
  }
  auto answer = codec::from_proto(wire, id);
  auto verdict = state_.game->check(answer);
  if (!verdict) {
    return Refusal{v1::ERROR_CODE_ILLEGAL_ANSWER,
                   verdict.error().reason,
                   {{"rule", verdict.error().code}, {"decision_id", decision_id}}};
  }
  return answer_entry(state_.game->step(), answer);
}

std::variant<StepDesk::Lock, Refusal> StepDesk::lock(std::size_t seat) const {
  const auto& id = state_.seats[seat].seat.id;
  if (!state_.owing_seats().contains(id)) {
    return Refusal{v1::ERROR_CODE_INVALID_ARGUMENT, "seat " + id + " owes nothing at this step", {}};
  }
  // Unanswered decisions take their default; one without a default must be answered.
  Lock out;
  out.reply.set_step(state_.game->step());
  auto* stored = out.entry.mutable_lock();
  stored->set_step(state_.game->step());
  stored->set_seat(id);
  for (const auto& d : state_.pending) {
    if (d.seat != id || state_.answers.contains(d.id)) continue;
    rules::Answer a{d.id, d.seat, d.default_option, {}};
    if (d.default_option.empty() || !state_.game->check(a)) {
      return Refusal{v1::ERROR_CODE_INVALID_ARGUMENT,
                     "decision '" + d.id + "' (" + d.prompt + ") has no default: answer it before locking", {}};
    }
    auto* sa = stored->add_defaulted();
    sa->set_seat(a.seat);
    sa->set_defaulted(true);
    codec::to_proto(a, sa->mutable_answer());
    out.reply.add_defaulted(d.id);
  }
  return out;
}

std::optional<rules::Answer> StepDesk::fallback(const SeatLog& seat, const rules::Decision& decision) const {
  auto legal = [&](rules::Answer a) -> std::optional<rules::Answer> {
    a.decision_id = decision.id;
    a.seat = seat.seat.id;
    if (state_.game->check(a)) return a;
    return std::nullopt;
  };
  const auto policy = state_.settings.missed_deadline();
  if (policy == v1::MISSED_DEADLINE_STANDING_ORDERS) {
    if (auto it = seat.standing.find(decision.kind); it != seat.standing.end()) {
      if (auto a = legal(rules::Answer{{}, {}, it->second, {}})) return a;
    }
  }
  if (policy == v1::MISSED_DEADLINE_REPEAT_LAST) {
    if (auto it = state_.previous.find(decision.id); it != state_.previous.end()) {
      if (auto a = legal(it->second)) return a;
    }
  }
  // Hold / halt / stand: the ruleset's default.
  return legal(rules::Answer{{}, {}, decision.default_option, {}});
}

std::optional<v1::LogEntry> StepDesk::default_lock(const std::string& seat_id, const std::string& why) const {
  const auto* seat = state_.seat_named(seat_id);
  if (seat == nullptr) return std::nullopt;
  v1::LogEntry entry;
  auto* stored = entry.mutable_lock();
  stored->set_step(state_.game->step());
  stored->set_seat(seat_id);
  stored->set_why(why);
  for (const auto& d : state_.pending) {
    if (d.seat != seat_id || state_.answers.contains(d.id)) continue;
    auto a = fallback(*seat, d);
    if (!a) {
      spdlog::error("game {} step {}: decision {} has no legal default", state_.game_id, state_.game->step(), d.id);
      return std::nullopt;  // the seat stays unlocked; the umpire can answer for it
    }
    auto* sa = stored->add_defaulted();
    sa->set_seat(a->seat);
    sa->set_defaulted(true);
    codec::to_proto(*a, sa->mutable_answer());
  }
  return entry;
}

std::vector<v1::LogEntry> StepDesk::bot_turns() const {
  std::vector<v1::LogEntry> out;
  if (state_.paused || state_.ended() || state_.pending.empty() || state_.settings.bot_seats().empty()) return out;
  if (state_.reopened >= kMaxBotAttempts) {
    spdlog::warn("game {} step {}: the bot's answers collided {} times; its seats wait for the umpire",
                 state_.game_id, state_.game->step(), state_.reopened);
    return out;
  }
  const auto step = state_.game->step();
  const rules::AnswerCheck legal = [this](const rules::Answer& a) { return state_.game->check(a); };
  for (const auto& id : state_.owing_seats()) {
    if (!state_.is_bot(id) || state_.locked.contains(id)) continue;
    // What the bot knows: the seat's decisions, its own view (the one path
    // to what a seat may see) and check()'s verdicts, as a player has.
    const rules::View view = state_.game->view_for(id, state_.view_settings);
    const rules::Game& game = *state_.game;
    rules::Bot bot(bot_rng_seed(state_.seed, step, id, state_.reopened),
                   [&game](const rules::View& v, const rules::Decision& d, rules::BotRng& rng) {
                     return game.propose(v, d, rng);
                   });
    for (const auto& d : state_.pending) {
      if (d.seat != id) continue;
      // A retry after colliding answers takes the default where it is legal.
      rules::Answer a = rules::Bot::fallback(d);
      if (state_.reopened == 0 || d.default_option.empty() || !state_.game->check(a)) a = bot.answer(view, d, legal);
      out.push_back(answer_entry(step, a));
    }
    v1::LogEntry lock;
    lock.mutable_lock()->set_step(step);
    lock.mutable_lock()->set_seat(id);
    lock.mutable_lock()->set_by_bot(true);
    out.push_back(std::move(lock));
    spdlog::info("game {} step {}: the bot answered and locked for seat {}", state_.game_id, step, id);
  }
  return out;
}

std::optional<StepDesk::Resolution> StepDesk::resolve() const {
  Resolution out;
  std::vector<rules::Answer> answers;
  const std::uint64_t step = state_.game->step();
  auto* stored = out.entry.mutable_resolve();
  stored->set_step(step);
  for (const auto& d : state_.pending) {
    auto it = state_.answers.find(d.id);
    if (it == state_.answers.end()) return std::nullopt;  // not every decision has an answer yet
    answers.push_back(it->second);
    auto* sa = stored->add_answers();
    sa->set_seat(it->second.seat);
    codec::to_proto(it->second, sa->mutable_answer());
  }
  rules::KeyedDice dice(state_.seed, step);
  auto resolved = state_.game->resolve(answers, dice);
  if (!resolved) {
    // Every answer passed check() alone; together they do not. The step reopens.
    spdlog::warn("game {} step {}: the answers collide: {}", state_.game_id, step,
                 rules::plain_text(resolved.error().reason));
    v1::LogEntry reopen;
    auto* r = reopen.mutable_reopen();
    r->set_step(step);
    r->set_reason(resolved.error().reason);
    r->set_rule(resolved.error().code);
    for (const auto& d : resolved.error().decisions) r->add_decisions(d);
    out.entry = std::move(reopen);
    return out;
  }
  std::shared_ptr<const rules::Game> next = std::move(resolved.value().next);
  out.prepared.told = tell_step(state_, *state_.game, *next, resolved.value().events);
  store_told(out.prepared.told, stored);
  out.hash = next->state_hash();
  out.prepared.next = std::move(next);
  return out;
}

}  // namespace galloper::server
