// Bot seats: seats the server plays itself with the rules library's random
// bot (rules/core/bot.hpp). See GameSettings.bot_seats and SetBotSeat.
//
// What the bot knows: the decisions the engine lists for that seat, the
// seat's own view (view_for with the game's vision settings, the one path to
// what a seat may see) and the engine's check() of a candidate order, which
// answers only "legal" or why not, as it does for a player who submits one.
// It never reads the full state.
//
// Its randomness is its own, not the dice's: the bot's generator is seeded
// with SHA-256("galloper-bot-v1" | game seed | step | seat | attempt), so a
// game's bot play is fixed by its seed and a player cannot learn a die from
// it. The answers are logged as the umpire's answers for an empty seat are
// ("answer" entries, then a "lock" with by_bot), so loading, `galloper
// replay` and `galloper verify` read them from the log and never run the bot.
#include <spdlog/spdlog.h>

#include "codec/play_codec.hpp"
#include "rules/core/bot.hpp"
#include "server/src/room.hpp"
#include "server/src/tokens.hpp"

namespace galloper::server {

namespace {

// After this many reopenings of one step by conflicting answers the bot stops
// relocking (the umpire can force the step or answer for the seat). From the
// first retry on the bot takes every decision's default (hold, halt, stand),
// which keeps its troops where they are, so only players' orders can still
// collide; the cap only stops a game of bots from retrying for ever.
constexpr std::uint32_t kMaxBotAttempts = 8;

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

}  // namespace

bool Room::is_bot(std::string_view seat) const {
  for (const auto& s : settings_.bot_seats()) {
    if (s == seat) return true;
  }
  return false;
}

std::optional<std::pair<v1::ErrorCode, std::string>> Room::check_bot_seat(const v1::SetBotSeat& request) const {
  const SeatState* seat = nullptr;
  for (const auto& s : seats_) {
    if (s.seat.id == request.seat()) seat = &s;
  }
  if (seat == nullptr) {
    return std::pair{v1::ERROR_CODE_NOT_FOUND, "game " + record_.id + " has no seat '" + request.seat() + "'"};
  }
  if (is_umpire(*seat) || is_spectator(*seat)) {
    return std::pair{v1::ERROR_CODE_INVALID_ARGUMENT,
                     "the bot plays player seats only, not " + request.seat()};
  }
  if (is_bot(request.seat()) == request.bot()) {
    return std::pair{v1::ERROR_CODE_INVALID_ARGUMENT,
                     "seat " + request.seat() + (request.bot() ? " is already" : " is not") + " played by the bot"};
  }
  return std::nullopt;
}

void Room::apply_bot_seat(const v1::SetBotSeat& action) {
  auto* seats = settings_.mutable_bot_seats();
  if (action.bot()) {
    if (!is_bot(action.seat())) seats->Add(std::string(action.seat()));
    return;
  }
  for (int i = 0; i < seats->size(); ++i) {
    if (seats->Get(i) == action.seat()) {
      seats->erase(seats->begin() + i);
      return;
    }
  }
}

void Room::play_bot_seats() {
  if (failed_ || reloading_ || resolving_ || paused_ || ended() || pending_.empty()) return;
  if (settings_.bot_seats().empty()) return;
  if (bot_attempt_ >= kMaxBotAttempts) {
    spdlog::warn("game {} step {}: the bot's answers conflicted {} times; its seats wait for the umpire", record_.id,
                 game_->step(), bot_attempt_);
    return;
  }
  const auto owing = owing_seats();
  bool played = false;
  const rules::AnswerCheck legal = [this](const rules::Answer& a) { return game_->check(a); };
  for (const auto& id : owing) {
    if (!is_bot(id) || locked_.contains(id)) continue;
    const rules::View view = game_->view_for(id, view_settings_);
    rules::Bot bot(bot_rng_seed(seed_, game_->step(), id, bot_attempt_));
    for (const auto& d : pending_) {
      if (d.seat != id) continue;
      // A retry after conflicting answers takes the default where it is legal.
      rules::Answer a = rules::Bot::fallback(d);
      if (bot_attempt_ == 0 || d.default_option.empty() || !game_->check(a)) a = bot.answer(view, d, legal);
      v1::StoredAnswer stored;
      stored.set_step(game_->step());
      stored.mutable_answer()->set_seat(a.seat);
      codec::to_proto(a, stored.mutable_answer()->mutable_answer());
      answers_[d.id] = std::move(a);
      append("answer", stored, 0, [] {});
    }
    v1::StoredLock lock;
    lock.set_step(game_->step());
    lock.set_seat(id);
    lock.set_by_bot(true);
    locked_.insert(id);
    played = true;
    spdlog::info("game {} step {}: the bot answered and locked for seat {}", record_.id, game_->step(), id);
    append("lock", lock, 0, [self = shared_from_this()] { self->send_seat_status(); });
  }
  if (played && locked_.size() == owing.size()) resolve_step();
}

}  // namespace galloper::server
