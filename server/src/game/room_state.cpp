#include "server/src/game/room_state.hpp"

#include <google/protobuf/text_format.h>
#include <spdlog/spdlog.h>

#include <algorithm>

namespace galloper::server {

RoomState::RoomState(const persistence::GameRecord& record, std::unique_ptr<rules::Game> start)
    : game_id(record.id), initial(std::move(start)) {
  if (record.seed.size() == seed.size()) std::copy(record.seed.begin(), record.seed.end(), seed.begin());
  if (!record.settings.empty()) {
    google::protobuf::TextFormat::ParseFromString(record.settings, &settings);  // written by us
  }
  view_settings.side_shared_vision = settings.vision() == v1::VISION_SIDE_SHARED;
  if (!settings.daily_deadline().empty()) {
    // Checked when the game was created; a store edited since then loses only the deadline.
    auto daily = parse_daily_time(settings.daily_deadline(), settings.time_zone());
    if (auto* d = std::get_if<DailyTime>(&daily)) {
      daily_deadline = *d;
    } else {
      spdlog::warn("game {}: {}; its steps have no deadline", game_id, std::get<std::string>(daily));
    }
  }
  // Daily digests: digest_time, else the daily deadline, else midnight.
  const auto& at = !settings.digest_time().empty()      ? settings.digest_time()
                   : !settings.daily_deadline().empty() ? settings.daily_deadline()
                                                        : std::string("00:00");
  auto parsed = parse_daily_time(at, settings.time_zone().empty() ? "UTC" : settings.time_zone());
  if (auto* d = std::get_if<DailyTime>(&parsed)) digest_time = *d;

  created_bot_seats_ = settings.bot_seats();
  for (auto& s : initial->seats()) seats.push_back(SeatLog{std::move(s), {}, 0, {}});
  seats.push_back(SeatLog{rules::Seat{std::string(kSpectatorSeat), rules::SeatRole::kSpectator, {}, {},
                                      "Spectators (delayed view)"},
                          {}, 0, {}});
  reset();
}

void RoomState::reset() {
  game = initial;
  answers.clear();
  previous.clear();
  locked.clear();
  deadline_ms = 0;
  warned_deadline = false;
  reopened = 0;
  paused = false;
  paused_by.clear();
  paused_at_ms = 0;
  pause_until_ms = 0;
  ended_by_umpire = false;
  umpire_result.clear();
  history.clear();
  chat.clear();
  audit.clear();
  turn_start.clear();
  turn_start[game->turn()] = initial;
  resolve_seq.clear();
  digests.clear();
  log_seq = 0;
  for (auto& seat : seats) {
    seat.standing.clear();
    seat.pauses_used = 0;
    seat.webhook.reset();
  }
  // The bot seats the game was created with; umpire entries change them again.
  bot_seats_as_created();
  open_step();
}

void RoomState::bot_seats_as_created() {
  *settings.mutable_bot_seats() = created_bot_seats_;
}

void RoomState::open_step() {
  pending = ended() ? std::vector<rules::Decision>{} : game->pending();
  answers.clear();
  locked.clear();
  deadline_ms = 0;
  warned_deadline = false;
  reopened = 0;
}

std::set<std::string> RoomState::owing_seats() const {
  std::set<std::string> out;
  for (const auto& d : pending) out.insert(d.seat);
  return out;
}

bool RoomState::all_locked() const {
  if (pending.empty()) return false;
  const auto owing = owing_seats();
  return std::all_of(owing.begin(), owing.end(), [&](const std::string& s) { return locked.contains(s); });
}

bool RoomState::is_bot(std::string_view seat) const {
  return std::any_of(settings.bot_seats().begin(), settings.bot_seats().end(),
                     [&](const std::string& s) { return s == seat; });
}

SeatLog* RoomState::seat_named(std::string_view id) {
  for (auto& s : seats) {
    if (s.seat.id == id) return &s;
  }
  return nullptr;
}

const SeatLog* RoomState::seat_named(std::string_view id) const {
  return const_cast<RoomState*>(this)->seat_named(id);
}

std::size_t RoomState::index_of(std::string_view id) const {
  for (std::size_t i = 0; i < seats.size(); ++i) {
    if (seats[i].seat.id == id) return i;
  }
  return seats.size();
}

std::uint32_t RoomState::spectator_turn() const {
  const auto now = game->turn();
  const auto delay = settings.spectator_delay_turns();
  if (ended() || delay == 0) return now;
  const auto first = turn_start.empty() ? now : turn_start.begin()->first;
  return now > first + delay ? now - delay : first;
}

const rules::Game& RoomState::spectator_state() const {
  if (ended() || settings.spectator_delay_turns() == 0) return *game;
  auto it = turn_start.upper_bound(spectator_turn());
  if (it == turn_start.begin()) return *game;
  return *std::prev(it)->second;
}

std::string RoomState::spectator_eyes() const {
  if (settings.spectator_side().empty()) return std::string(kUmpireSeat);
  // The side's widest seat (its commander-in-chief's, where the ruleset has one), else its first.
  std::string first;
  for (const auto& seat : game->seats()) {
    if (seat.side != settings.spectator_side()) continue;
    if (seat.role == rules::SeatRole::kPlayer && seat.scope.empty()) return seat.id;
    if (first.empty()) first = seat.id;
  }
  return first.empty() ? std::string(kUmpireSeat) : first;
}

std::set<std::string> StepStatus::owing() const {
  std::set<std::string> out;
  for (const auto& d : pending) out.insert(d.seat);
  return out;
}

std::shared_ptr<const StepStatus> RoomState::status() const {
  auto s = std::make_shared<StepStatus>();
  s->game = game;
  s->pending = pending;
  s->answers = answers;
  s->locked = locked;
  s->bots = {settings.bot_seats().begin(), settings.bot_seats().end()};
  s->deadline_ms = deadline_ms;
  s->paused = paused;
  s->ended = ended();
  s->end_text = end_text();
  s->spectator_turn = spectator_turn();
  s->spectator_game = game;
  if (!s->ended && settings.spectator_delay_turns() > 0) {
    if (auto it = turn_start.upper_bound(s->spectator_turn); it != turn_start.begin()) {
      s->spectator_game = std::prev(it)->second;
    }
  }
  s->history_size = history.size();
  return s;
}

std::string RoomState::end_text() const {
  std::string text = ended_by_umpire ? "the umpire ended the game" : "the game has ended";
  if (!umpire_result.empty()) text += ": " + umpire_result;
  return text;
}

}  // namespace galloper::server
