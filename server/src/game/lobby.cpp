#include "server/src/game/lobby.hpp"

#include "server/src/deadlines.hpp"
#include "server/src/game/restore.hpp"

#include <google/protobuf/text_format.h>
#include <spdlog/spdlog.h>

#include <chrono>

#include "codec/ruleset_codec.hpp"
#include "codec/rulesets.hpp"
#include "codec/scenario_codec.hpp"
#include "server/src/network/frame_codec.hpp"
#include "server/src/tools/log_check.hpp"
#include "server/src/game/replay.hpp"
#include "server/src/tokens.hpp"

namespace galloper::server {

namespace {

std::int64_t now_unix() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

v1::Error error_of(v1::ErrorCode code, std::string message) {
  v1::Error e;
  e.set_code(code);
  e.set_message(std::move(message));
  return e;
}

v1::Error storage_error(const persistence::StoreError& e) {
  return error_of(v1::ERROR_CODE_STORAGE, "the game store failed: " + e.message + "; nothing was changed");
}

}  // namespace

Lobby::Lobby(net::io_context& ioc, persistence::Store& store, Metrics& metrics, const Clock& clock,
             Notifier& notifier)
    : ioc_(ioc), store_(store), metrics_(metrics), clock_(clock), notifier_(notifier) {}

namespace {

constexpr std::uint64_t kWakeScanTicks = 5;          // seconds between looks for games due
constexpr std::uint64_t kPutAwayTicks = 60;          // seconds between looks for idle rooms
constexpr std::int64_t kIdleMs = 10 * 60 * 1000;     // a room due later than this is put away
constexpr std::size_t kWakeBatch = 200;              // games loaded per look, soonest first

}  // namespace

void Lobby::start_ticker() {
  ticker_ = std::make_unique<net::steady_timer>(ioc_);
  // The first look at what is due comes at once: a restart must not make a
  // deadline wait.
  if (ticks_ == 0) wake_due(clock_.now_ms());
  ticker_->expires_after(std::chrono::seconds(1));
  ticker_->async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
    if (ec) return;
    if (auto self = weak.lock()) {
      self->tick_all();
      self->start_ticker();
    }
  });
}

void Lobby::stop_ticker() {
  if (ticker_) ticker_->cancel();
}

void Lobby::tick_all() {
  ++ticks_;
  std::vector<std::shared_ptr<Room>> rooms;
  {
    std::lock_guard lock(mu_);
    for (auto& [id, room] : rooms_) rooms.push_back(room);
  }
  for (auto& r : rooms) r->tick();
  const auto now = clock_.now_ms();
  if (ticks_ % kWakeScanTicks == 0) wake_due(now + 1000);
  if (ticks_ % kPutAwayTicks == 0) put_away_idle(now + kIdleMs);
}

void Lobby::wake_due(std::int64_t until_ms) {
  std::weak_ptr<Lobby> weak = weak_from_this();
  store_.due_games(until_ms, kWakeBatch, [weak](std::vector<persistence::GameWake> due, persistence::Status status) {
    auto self = weak.lock();
    if (!self) return;
    if (!status.ok()) {
      spdlog::warn("the games due could not be listed: {}", status.error->message);
      return;
    }
    for (const auto& wake : due) {
      if (self->loaded_room(wake.game_id)) continue;  // its own tick wakes it
      spdlog::info("game {} is due: loading it", wake.game_id);
      self->with_room(wake.game_id, [id = wake.game_id](std::shared_ptr<Room> room, std::optional<v1::Error> error) {
        if (!room && error) spdlog::error("game {} is due but could not be loaded: {}", id, error->message());
      });
    }
  });
}

void Lobby::put_away_idle(std::int64_t until_ms) {
  std::vector<std::shared_ptr<Room>> rooms;
  {
    std::lock_guard lock(mu_);
    for (auto& [id, room] : rooms_) rooms.push_back(room);
  }
  std::weak_ptr<Lobby> weak = weak_from_this();
  for (auto& room : rooms) {
    room->put_away_if_idle(until_ms, [weak, room](bool idle) {
      auto self = weak.lock();
      if (!idle || !self) return;
      std::lock_guard lock(self->mu_);
      if (auto it = self->rooms_.find(room->id()); it != self->rooms_.end() && it->second == room) {
        self->rooms_.erase(it);
        spdlog::debug("game {} put away: nobody is connected and nothing is due", room->id());
      }
    });
  }
}

std::size_t Lobby::rooms_loaded() const {
  std::lock_guard lock(mu_);
  return rooms_.size();
}

void Lobby::send_error(const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id, v1::ErrorCode code,
                       std::string message, std::vector<std::pair<std::string, std::string>> context) {
  auto e = make_error(correlation_id, code, std::move(message));
  for (auto& [k, v] : context) (*e.mutable_error()->mutable_context())[k] = v;
  metrics_.errors++;
  peer->send(make_outgoing(std::move(e)));
}

void Lobby::send_problems(const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id, const std::string& label,
                          const std::vector<codec::ScenarioProblem>& problems) {
  send_error(peer, correlation_id, v1::ERROR_CODE_BAD_SCENARIO,
             "the scenario has " + std::to_string(problems.size()) + " problem(s)",
             {{"problems", codec::format_problems(label, problems)}});
}

namespace {

v1::SeatRole seat_role(const rules::Seat& seat) {
  switch (seat.role) {
    case rules::SeatRole::kUmpire: return v1::SEAT_ROLE_UMPIRE;
    case rules::SeatRole::kPlayer: return seat.scope.empty() ? v1::SEAT_ROLE_ARMY : v1::SEAT_ROLE_WING;
    case rules::SeatRole::kSpectator: break;
  }
  return v1::SEAT_ROLE_UNSPECIFIED;
}

// What the lobby shows of a scenario, the seats as a game made from it has them.
v1::ScenarioInfo scenario_info(const codec::NewGame& game, std::string_view name) {
  v1::ScenarioInfo info;
  info.set_name(std::string(name));
  info.set_title(game.title);
  info.set_ruleset(game.ruleset);
  info.set_description(game.description);
  if (const auto* ruleset = codec::find_ruleset(game.ruleset)) codec::to_proto(ruleset->info(), info.mutable_ruleset_info());
  for (const auto& seat : game.game->seats()) {
    if (seat.role == rules::SeatRole::kSpectator) continue;
    auto* s = info.add_seats();
    s->set_id(seat.id);
    s->set_role(seat_role(seat));
    s->set_side(seat.side);
    s->set_description(seat.description);
  }
  return info;
}

// The bundled scenarios never change while the server runs: loaded once.
// Seats do not depend on the seed.
const std::vector<v1::ScenarioInfo>& bundled_infos() {
  static const std::vector<v1::ScenarioInfo> infos = [] {
    std::vector<v1::ScenarioInfo> out;
    for (const auto& bundled : codec::bundled_scenarios()) {
      auto loaded = codec::load_scenario(bundled.text, rules::Seed{});
      if (auto* game = std::get_if<codec::NewGame>(&loaded)) {
        out.push_back(scenario_info(*game, bundled.name));
      } else {
        spdlog::error("bundled scenario {} does not load; left out of the list", bundled.name);  // tests check them
      }
    }
    return out;
  }();
  return infos;
}

}  // namespace

void Lobby::list_scenarios(const v1::ListScenarios& request, const std::shared_ptr<Peer>& peer,
                           std::uint64_t correlation_id) {
  v1::Envelope reply;
  reply.set_correlation_id(correlation_id);
  auto* list = reply.mutable_scenario_list();
  if (request.scenario_text().empty()) {
    for (const auto& info : bundled_infos()) *list->add_scenarios() = info;
  } else {
    // The same check CreateGame makes of an upload, so the lobby learns the
    // problems (or the seats) before anything is created; nothing is stored.
    auto loaded = codec::load_scenario(request.scenario_text(), rules::Seed{});
    if (auto* problems = std::get_if<std::vector<codec::ScenarioProblem>>(&loaded)) {
      send_problems(peer, correlation_id, "uploaded", *problems);
      return;
    }
    *list->add_scenarios() = scenario_info(std::get<codec::NewGame>(loaded), "");
  }
  peer->send(make_outgoing(std::move(reply)));
}

void Lobby::create_game(const v1::CreateGame& request, const std::shared_ptr<Peer>& peer,
                        std::uint64_t correlation_id) {
  std::string scenario_text;
  std::string scenario_label;
  switch (request.source_case()) {
    case v1::CreateGame::kScenarioName: {
      const auto* bundled = codec::find_bundled_scenario(request.scenario_name());
      if (bundled == nullptr) {
        send_error(peer, correlation_id, v1::ERROR_CODE_NOT_FOUND,
                   "there is no bundled scenario named '" + request.scenario_name() +
                       "'; ListScenarios gives the names",
                   {{"scenario_name", request.scenario_name()}});
        return;
      }
      scenario_text = std::string(bundled->text);
      scenario_label = std::string(bundled->name);
      break;
    }
    case v1::CreateGame::kScenarioText:
      scenario_text = request.scenario_text();
      scenario_label = "uploaded";
      break;
    default:
      send_error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT,
                 "CreateGame needs a scenario_name or a scenario_text");
      return;
  }

  const auto& settings = request.settings();
  if (settings.step_deadline_seconds() > 0 && settings.step_deadline_seconds() < 10) {
    send_error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT,
               "a step deadline is at least 10 seconds (or 0 for none)");
    return;
  }
  if (settings.step_deadline_seconds() > 30u * 24 * 3600 || settings.grace_seconds() > 7u * 24 * 3600 ||
      settings.max_pause_seconds() > 30u * 24 * 3600 || settings.spectator_delay_turns() > 100) {
    send_error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT,
               "game settings out of range: deadlines up to 30 days, grace up to 7 days, "
               "spectator delay up to 100 turns");
    return;
  }

  // A time zone alone is the digest time's (below); otherwise it belongs to a daily deadline.
  if (!settings.daily_deadline().empty() || (!settings.time_zone().empty() && settings.digest_time().empty())) {
    if (settings.step_deadline_seconds() > 0) {
      send_error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT,
                 "choose a step deadline in seconds or a daily deadline, not both");
      return;
    }
    auto daily = parse_daily_time(settings.daily_deadline(), settings.time_zone());
    if (auto* why = std::get_if<std::string>(&daily)) {
      send_error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT, *why);
      return;
    }
  }

  if (!settings.digest_time().empty()) {
    auto digest = parse_daily_time(settings.digest_time(), settings.time_zone().empty() ? "UTC" : settings.time_zone());
    if (auto* why = std::get_if<std::string>(&digest)) {
      send_error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT, "digest_time: " + *why);
      return;
    }
  }

  for (const auto& hook : settings.webhooks()) {
    if (auto why = notifier_.refuses(hook.url())) {
      send_error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT, "webhook: " + *why);
      return;
    }
  }

  const auto seed = random_seed();
  auto loaded = codec::load_scenario(scenario_text, seed);
  if (auto* problems = std::get_if<std::vector<codec::ScenarioProblem>>(&loaded)) {
    send_problems(peer, correlation_id, scenario_label, *problems);
    return;
  }
  auto new_game = std::move(std::get<codec::NewGame>(loaded));
  if (!settings.spectator_side().empty()) {
    bool known = false;
    for (const auto& seat : new_game.game->seats()) known = known || seat.side == settings.spectator_side();
    if (!known) {
      send_error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT,
                 "spectator_side '" + settings.spectator_side() + "' is not an army of this scenario");
      return;
    }
  }
  // Bot seats: player seats of this scenario, each once.
  for (int i = 0; i < settings.bot_seats_size(); ++i) {
    const auto& id = settings.bot_seats(i);
    bool player_seat = false;
    for (const auto& seat : new_game.game->seats()) {
      player_seat = player_seat || (seat.id == id && seat.role == rules::SeatRole::kPlayer);
    }
    if (!player_seat) {
      send_error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT,
                 "bot_seats: '" + id + "' is not a player seat of this scenario (the umpire and spectators are never bots)",
                 {{"seat", id}});
      return;
    }
    for (int j = 0; j < i; ++j) {
      if (settings.bot_seats(j) == id) {
        send_error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT, "bot_seats names '" + id + "' twice",
                   {{"seat", id}});
        return;
      }
    }
  }
  new_game.game = new_game.game->with_options(game_options(settings));

  persistence::GameRecord record;
  record.id = "g" + random_hex(12);
  record.title = request.title().empty() ? new_game.title : request.title();
  record.ruleset = new_game.ruleset;
  record.scenario_name = new_game.name;
  record.scenario_text = std::move(scenario_text);
  record.seed.assign(seed.begin(), seed.end());
  record.seed_commitment = seed_commitment(seed, record.id);
  record.created_unix = now_unix();
  google::protobuf::TextFormat::PrintToString(settings, &record.settings);
  record.turn = new_game.game->turn();
  record.phase = new_game.game->phase();

  v1::Envelope reply;
  reply.set_correlation_id(correlation_id);
  auto* created = reply.mutable_game_created();
  created->set_game_id(record.id);
  created->set_seed_commitment(record.seed_commitment);
  std::vector<persistence::SeatRecord> seat_records;
  for (const auto& seat : new_game.game->seats()) {  // the umpire's first
    const std::string token = random_hex(32);  // 256 bits
    auto* invite = created->add_invites();
    invite->set_seat(seat.id);
    invite->set_description(seat.description);
    invite->set_token(token);
    seat_records.push_back({record.id, seat.id, seat.description, token_hash(token)});
  }
  {
    const std::string token = random_hex(32);
    auto* invite = created->mutable_spectators();
    invite->set_seat(std::string(kSpectatorSeat));
    invite->set_description("Spectators (delayed view)");
    invite->set_token(token);
    seat_records.push_back({record.id, std::string(kSpectatorSeat), invite->description(), token_hash(token)});
  }

  // Counted before it is written, so creations at the same moment cannot pass the cap together.
  if (stored_games_.fetch_add(1) >= max_games_) {
    stored_games_--;
    metrics_.limited_games++;
    send_error(peer, correlation_id, v1::ERROR_CODE_UNAVAILABLE,
               "this server holds as many games as its operator allows (" + std::to_string(max_games_) +
                   "); no new game can be created here now");
    return;
  }
  // std::function needs a copyable callable: the game rides in a shared holder.
  auto game_holder = std::make_shared<std::unique_ptr<rules::Game>>(std::move(new_game.game));
  auto reply_ptr = std::make_shared<v1::Envelope>(std::move(reply));
  auto self = shared_from_this();
  auto record_copy = record;
  auto seats_copy = seat_records;
  store_.create_game(
      std::move(record), std::move(seat_records),
      [self, peer, correlation_id, game_holder, reply_ptr, record_copy = std::move(record_copy),
       seats_copy = std::move(seats_copy)](persistence::Status status) mutable {
        if (!status.ok()) {
          spdlog::error("{} create game failed: {}", peer->describe(), status.error->message);
          self->stored_games_--;
          self->metrics_.errors++;
          v1::Envelope e;
          e.set_correlation_id(correlation_id);
          *e.mutable_error() = storage_error(*status.error);
          peer->send(make_outgoing(std::move(e)));
          return;
        }
        auto room = std::make_shared<Room>(self->services(), record_copy, std::move(*game_holder),
                                           std::move(seats_copy));
        self->watch(room);
        {
          std::lock_guard lock(self->mu_);
          self->rooms_.emplace(record_copy.id, room);
        }
        self->metrics_.games_created++;
        spdlog::info("{} created game {} from scenario '{}'", peer->describe(), record_copy.id,
                     record_copy.scenario_name);
        peer->send(make_outgoing(std::move(*reply_ptr)));
      });
}

void Lobby::join_game(const v1::JoinGame& request, const std::shared_ptr<Peer>& peer,
                      std::uint64_t correlation_id) {
  if (request.game_id().empty() || request.token().empty()) {
    send_error(peer, correlation_id, v1::ERROR_CODE_INVALID_ARGUMENT, "JoinGame needs a game_id and a token");
    return;
  }
  auto self = shared_from_this();
  with_room(request.game_id(), [self, peer, correlation_id, request](
                                   std::shared_ptr<Room> room, std::optional<v1::Error> error) {
    if (!room) {
      self->metrics_.errors++;
      v1::Envelope e;
      e.set_correlation_id(correlation_id);
      *e.mutable_error() = std::move(*error);
      peer->send(make_outgoing(std::move(e)));
      return;
    }
    room->join(request, peer, correlation_id);
  });
}

void Lobby::with_room(const std::string& game_id, RoomCallback done) {
  {
    std::lock_guard lock(mu_);
    if (auto it = rooms_.find(game_id); it != rooms_.end()) {
      auto room = it->second;
      done(std::move(room), std::nullopt);
      return;
    }
    auto [it, first] = loading_.try_emplace(game_id);
    it->second.push_back(std::move(done));
    if (!first) return;  // a load is already on its way
  }

  auto self = shared_from_this();
  store_.load_game(game_id, [self, game_id](std::optional<persistence::GameRecord> record,
                                            persistence::Status status) {
    if (!status.ok()) {
      self->finish_load(game_id, nullptr, storage_error(*status.error));
      return;
    }
    if (!record) {
      self->finish_load(game_id, nullptr,
                        error_of(v1::ERROR_CODE_NOT_FOUND, "there is no game " + game_id));
      return;
    }
    self->store_.load_seats(game_id, [self, game_id, record = std::move(*record)](
                                         std::vector<persistence::SeatRecord> seats,
                                         persistence::Status status) mutable {
      if (!status.ok()) {
        self->finish_load(game_id, nullptr, storage_error(*status.error));
        return;
      }
      const auto seed = seed_of(record.seed);
      if (!seed) {
        self->finish_load(game_id, nullptr,
                          error_of(v1::ERROR_CODE_STORAGE, "game " + game_id + " has a damaged seed"));
        return;
      }
      auto initial = initial_game(record.scenario_text, record.settings, *seed);
      if (auto* why = std::get_if<std::string>(&initial)) {
        spdlog::error("game {}: {}", game_id, *why);
        self->finish_load(game_id, nullptr,
                          error_of(v1::ERROR_CODE_STORAGE,
                                   "game " + game_id + " cannot be loaded: its stored scenario fails the "
                                   "checks of this server version"));
        return;
      }
      auto game = std::shared_ptr<rules::Game>(std::move(std::get<std::unique_ptr<rules::Game>>(initial)));
      const auto turns_back = snapshot_turns_back(record);
      self->store_.load_snapshots(game_id, turns_back, [self, game_id, record = std::move(record),
                                                        seats = std::move(seats), game](
                                                           std::vector<persistence::SnapshotRecord> snapshots,
                                                           persistence::Status status) mutable {
        if (!status.ok()) {
          self->finish_load(game_id, nullptr, storage_error(*status.error));
          return;
        }
        self->store_.load_steps(game_id, 0, [self, game_id, record = std::move(record), seats = std::move(seats),
                                             game, snapshots = std::move(snapshots)](
                                                std::vector<persistence::StepRecord> steps,
                                                persistence::Status status) mutable {
          if (!status.ok()) {
            self->finish_load(game_id, nullptr, storage_error(*status.error));
            return;
          }
          // Rebuilding the game is engine work: it runs on the io_context,
          // not on the store's reader thread, so other reads go on meanwhile.
          net::post(self->services().ioc, [self, game_id, record = std::move(record), seats = std::move(seats),
                                           game, snapshots = std::move(snapshots),
                                           steps = std::move(steps)]() mutable {
            // The log is the game: rebuilt from the newest usable snapshot,
            // every later step replayed with its recorded hash checked.
            auto room = std::make_shared<Room>(self->services(), std::move(record), game->clone(), std::move(seats));
            if (auto problem = room->restore(steps, snapshots)) {
              spdlog::error("game {} cannot be loaded: {}", game_id, *problem);
              self->finish_load(game_id, nullptr,
                                error_of(v1::ERROR_CODE_STORAGE, "game " + game_id + " cannot be loaded: " +
                                                                     *problem + "; other games are unaffected"));
              return;
            }
            self->watch(room);
            spdlog::info("game {} loaded from the store ({} log entries, {} snapshots offered)", game_id,
                         steps.size(), snapshots.size());
            self->finish_load(game_id, std::move(room), std::nullopt);
          });
        });
      });
    });
  });
}

void Lobby::watch(const std::shared_ptr<Room>& room) {
  room->limit_log(max_log_entries_);
  room->start();
  std::weak_ptr<Lobby> weak = weak_from_this();
  room->on_put_away([weak](const v1::JoinGame& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id) {
    if (auto self = weak.lock()) self->join_game(request, peer, correlation_id);
  });
  room->on_failed([weak](const std::string& game_id) {
    if (auto self = weak.lock()) {
      std::lock_guard lock(self->mu_);
      self->rooms_.erase(game_id);
    }
  });
}

std::shared_ptr<Room> Lobby::loaded_room(const std::string& game_id) const {
  std::lock_guard lock(mu_);
  auto it = rooms_.find(game_id);
  return it == rooms_.end() ? nullptr : it->second;
}

std::shared_ptr<Room> Lobby::joined_room(const std::string& game_id, const std::shared_ptr<Peer>& peer,
                                        std::uint64_t correlation_id) {
  auto room = loaded_room(game_id);
  if (!room) {
    send_error(peer, correlation_id, v1::ERROR_CODE_PERMISSION_DENIED,
               "this connection holds no seat in game " + game_id + "; join it first");
  }
  return room;
}

void Lobby::standing_orders(const v1::SetStandingOrders& request, const std::shared_ptr<Peer>& peer,
                            std::uint64_t correlation_id) {
  if (auto room = joined_room(request.game_id(), peer, correlation_id)) room->standing_orders(request, peer, correlation_id);
}

void Lobby::umpire_action(const v1::UmpireAction& request, const std::shared_ptr<Peer>& peer,
                          std::uint64_t correlation_id) {
  if (auto room = joined_room(request.game_id(), peer, correlation_id)) room->umpire(request, peer, correlation_id);
}

void Lobby::send_chat(const v1::SendChat& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id) {
  if (auto room = joined_room(request.game_id(), peer, correlation_id)) room->chat(request, peer, correlation_id);
}

void Lobby::set_notifications(const v1::SetNotifications& request, const std::shared_ptr<Peer>& peer,
                              std::uint64_t correlation_id) {
  if (auto room = joined_room(request.game_id(), peer, correlation_id)) room->notifications(request, peer, correlation_id);
}

void Lobby::list_audit(const v1::ListAudit& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id) {
  if (auto room = joined_room(request.game_id(), peer, correlation_id)) room->audit(request, peer, correlation_id);
}

void Lobby::odds(const v1::OddsRequest& request, const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id) {
  if (auto room = joined_room(request.game_id(), peer, correlation_id)) room->odds(request, peer, correlation_id);
}

void Lobby::submit_answer(const v1::SubmitAnswer& request, const std::shared_ptr<Peer>& peer,
                          std::uint64_t correlation_id) {
  if (auto room = joined_room(request.game_id(), peer, correlation_id)) room->submit(request, peer, correlation_id);
}

void Lobby::lock_answers(const v1::LockAnswers& request, const std::shared_ptr<Peer>& peer,
                         std::uint64_t correlation_id) {
  if (auto room = joined_room(request.game_id(), peer, correlation_id)) room->lock(request, peer, correlation_id);
}

void Lobby::finish_load(const std::string& game_id, std::shared_ptr<Room> room, std::optional<v1::Error> error) {
  std::vector<RoomCallback> waiters;
  {
    std::lock_guard lock(mu_);
    if (room) rooms_.emplace(game_id, room);
    auto it = loading_.find(game_id);
    if (it != loading_.end()) {
      waiters = std::move(it->second);
      loading_.erase(it);
    }
  }
  for (auto& w : waiters) w(room, error);
}

void Lobby::list_games(const std::shared_ptr<Peer>& peer, std::uint64_t correlation_id) {
  auto self = shared_from_this();
  store_.list_games([self, peer, correlation_id](std::vector<persistence::GameRecord> games,
                                                 persistence::Status status) {
    if (!status.ok()) {
      v1::Envelope e;
      e.set_correlation_id(correlation_id);
      *e.mutable_error() = storage_error(*status.error);
      self->metrics_.errors++;
      peer->send(make_outgoing(std::move(e)));
      return;
    }
    v1::Envelope reply;
    reply.set_correlation_id(correlation_id);
    auto* list = reply.mutable_game_list();
    for (const auto& g : games) {
      auto* s = list->add_games();
      s->set_game_id(g.id);
      s->set_title(g.title);
      s->set_scenario(g.scenario_name);
      s->set_ruleset(g.ruleset);
      s->set_created_unix(g.created_unix);
      // The list is public: a game watched late keeps its live turn to itself.
      if (g.ended || snapshot_turns_back(g) == 0) {
        s->set_turn(g.turn);
        s->set_phase(g.phase);
      }
    }
    peer->send(make_outgoing(std::move(reply)));
  });
}

}  // namespace galloper::server
