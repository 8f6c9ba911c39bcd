// Rooms over real WebSockets: deadlines (with the manual clock), umpire powers
// and the audit trail, chat channels, spectators, reconnects.
#include <map>

#include "tests/integration/harness.hpp"

namespace galloper::testing {
namespace {

template <class Pred>
std::optional<v1::Envelope> read_until(Client& c, Pred pred, int limit = 60) {
  for (int i = 0; i < limit; ++i) {
    auto m = c.receive();
    if (!m) return std::nullopt;
    if (pred(*m)) return m;
  }
  return std::nullopt;
}

class RoomTest : public ::testing::Test {
 protected:
  void start(std::vector<std::string> args = {"--manual-clock"}) {
    dir_ = make_temp_dir("room");
    server_.emplace(dir_, args);
    server_->start();
  }
  void TearDown() override {
    if (server_) server_->stop(SIGKILL);
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
  }

  // Creates a demo game with `settings`; the umpire client joins and waits for the first open step.
  void create(const v1::GameSettings& settings) {
    umpire_ = std::make_unique<Client>(server_->port());
    ASSERT_TRUE(umpire_->hello().has_welcome());
    v1::Envelope e;
    e.mutable_create_game()->set_scenario_name("demo");
    *e.mutable_create_game()->mutable_settings() = settings;
    auto created = umpire_->call(e);
    ASSERT_TRUE(created.has_game_created()) << created.DebugString();
    game_ = created.game_created().game_id();
    for (const auto& inv : created.game_created().invites()) tokens_[inv.seat()] = inv.token();
    tokens_["spectator"] = created.game_created().spectators().token();
    ASSERT_TRUE(join(*umpire_, "umpire").has_joined());
    auto status = read_until(*umpire_, [](const v1::Envelope& m) {
      return m.has_seat_status() && m.seat_status().owing_size() > 0;
    });
    ASSERT_TRUE(status);
    step_ = status->seat_status().step();
    owing_.assign(status->seat_status().owing().begin(), status->seat_status().owing().end());
  }

  v1::Envelope join(Client& c, const std::string& seat, std::uint64_t last_sequence = 0) {
    v1::Envelope e;
    e.mutable_join_game()->set_game_id(game_);
    e.mutable_join_game()->set_token(tokens_.at(seat));
    e.mutable_join_game()->set_last_sequence(last_sequence);
    return c.call(e);
  }

  v1::Envelope act(Client& c, const std::string& reason, const std::function<void(v1::UmpireAction*)>& fill) {
    v1::Envelope e;
    auto* a = e.mutable_umpire_action();
    a->set_game_id(game_);
    a->set_reason(reason);
    fill(a);
    return c.call(e);
  }

  v1::Envelope chat(Client& c, v1::ChatChannel channel, const std::string& text, const std::string& to = {}) {
    v1::Envelope e;
    auto* s = e.mutable_send_chat();
    s->set_game_id(game_);
    s->set_channel(channel);
    s->set_text(text);
    s->set_to_seat(to);
    return c.call(e);
  }

  std::filesystem::path dir_;
  std::optional<ServerProcess> server_;
  std::unique_ptr<Client> umpire_;
  std::string game_;
  std::map<std::string, std::string> tokens_;
  std::vector<std::string> owing_;
  std::uint64_t step_ = 0;
};

TEST_F(RoomTest, MissedDeadlineAppliesDefaultsAndResolvesAndSaysSo) {
  start();
  v1::GameSettings settings;
  settings.set_step_deadline_seconds(3600);
  settings.set_grace_seconds(60);
  create(settings);
  ASSERT_FALSE(owing_.empty());
  Client player(server_->port());
  ASSERT_TRUE(player.hello().has_welcome());
  auto joined = join(player, owing_.front());
  ASSERT_TRUE(joined.has_joined());
  EXPECT_GT(joined.joined().view().deadline_unix(), 0);

  // Before deadline + grace nothing happens; after it the step resolves.
  ASSERT_EQ(http_post(server_->port(), "/debug/clock?advance_seconds=3630").status, 200u);
  ASSERT_EQ(http_post(server_->port(), "/debug/clock?advance_seconds=60").status, 200u);
  auto notice = read_until(player, [](const v1::Envelope& m) { return m.has_notice() && m.notice().kind() == "defaulted"; });
  ASSERT_TRUE(notice) << server_->log();
  EXPECT_NE(notice->notice().text().find(owing_.front()), std::string::npos);
  EXPECT_NE(notice->notice().text().find("hold"), std::string::npos) << notice->notice().text();
  auto resolved = read_until(player, [](const v1::Envelope& m) { return m.has_step_resolved(); });
  ASSERT_TRUE(resolved);
  EXPECT_EQ(resolved->step_resolved().step(), step_);
}

TEST_F(RoomTest, ADailyDeadlineInATimeZoneClosesTheStepAtThatTime) {
  start();
  v1::GameSettings settings;
  settings.set_daily_deadline("00:00");
  settings.set_time_zone("UTC");
  create(settings);
  ASSERT_FALSE(owing_.empty());
  Client player(server_->port());
  ASSERT_TRUE(player.hello().has_welcome());
  auto joined = join(player, owing_.front());
  ASSERT_TRUE(joined.has_joined());
  // The next UTC midnight at least an hour away (the manual clock starts at the real time).
  const std::int64_t now = std::chrono::duration_cast<std::chrono::seconds>(
                               std::chrono::system_clock::now().time_since_epoch()).count();
  std::int64_t midnight = (now + 3600) / 86400 * 86400;
  if (midnight < now + 3600) midnight += 86400;
  const auto deadline = joined.joined().view().deadline_unix();
  EXPECT_NEAR(static_cast<double>(deadline), static_cast<double>(midnight), 120.0)
      << "the deadline is the next 00:00 UTC at least an hour away";
  EXPECT_EQ(deadline % 86400, 0);
  EXPECT_EQ(joined.joined().settings().time_zone(), "UTC");
  // Past it, the step resolves with defaults.
  ASSERT_EQ(http_post(server_->port(), "/debug/clock?advance_seconds=" + std::to_string(deadline - now + 5)).status,
            200u);
  auto resolved = read_until(player, [](const v1::Envelope& m) { return m.has_step_resolved(); });
  ASSERT_TRUE(resolved) << server_->log();
  EXPECT_EQ(resolved->step_resolved().step(), step_);
  // The next step closes at the next midnight, a day later (the "deadline" notice says so).
  auto next = read_until(player, [](const v1::Envelope& m) {
    return m.has_notice() && m.notice().kind() == "deadline" && m.notice().deadline_unix() > 0;
  });
  ASSERT_TRUE(next) << server_->log();
  EXPECT_EQ(next->notice().deadline_unix(), deadline + 86400);
}

TEST_F(RoomTest, DeadlineSurvivesARestart) {
  start();
  v1::GameSettings settings;
  settings.set_step_deadline_seconds(7200);
  create(settings);
  Client a(server_->port());
  ASSERT_TRUE(a.hello().has_welcome());
  const auto before = join(a, owing_.front()).joined().view().deadline_unix();
  ASSERT_GT(before, 0);
  umpire_.reset();
  server_->stop(SIGTERM);
  server_.emplace(dir_, std::vector<std::string>{"--manual-clock"});
  server_->start();
  Client b(server_->port());
  ASSERT_TRUE(b.hello().has_welcome());
  EXPECT_EQ(join(b, owing_.front()).joined().view().deadline_unix(), before);
}

TEST_F(RoomTest, UmpirePausesResumesForcesBroadcastsEndsAndAuditsEverything) {
  start();
  create({});
  Client player(server_->port());
  ASSERT_TRUE(player.hello().has_welcome());
  ASSERT_TRUE(join(player, owing_.front()).has_joined());

  // Players may not use umpire powers; every action needs a reason.
  auto refused = act(player, "I want to", [](v1::UmpireAction* a) { a->mutable_force_resolve(); });
  ASSERT_TRUE(refused.has_error());
  EXPECT_EQ(refused.error().code(), v1::ERROR_CODE_PERMISSION_DENIED);
  auto no_reason = act(*umpire_, "", [](v1::UmpireAction* a) { a->mutable_pause(); });
  ASSERT_TRUE(no_reason.has_error());
  EXPECT_EQ(no_reason.error().code(), v1::ERROR_CODE_INVALID_ARGUMENT);

  ASSERT_TRUE(act(*umpire_, "tea", [](v1::UmpireAction* a) { a->mutable_pause(); }).has_umpire_done());
  auto paused = read_until(player, [](const v1::Envelope& m) { return m.has_notice() && m.notice().kind() == "paused"; });
  ASSERT_TRUE(paused);
  EXPECT_TRUE(paused->notice().paused());
  // While paused nobody answers.
  v1::Envelope lock;
  lock.mutable_lock_answers()->set_game_id(game_);
  lock.mutable_lock_answers()->set_step(step_);
  auto while_paused = player.call(lock);
  ASSERT_TRUE(while_paused.has_error());
  EXPECT_NE(while_paused.error().message().find("paused"), std::string::npos);

  ASSERT_TRUE(act(*umpire_, "back", [](v1::UmpireAction* a) { a->mutable_resume(); }).has_umpire_done());
  ASSERT_TRUE(act(*umpire_, "announcement", [](v1::UmpireAction* a) {
                a->mutable_broadcast()->set_text("Reinforcements arrive at turn 5");
              }).has_umpire_done());
  auto broadcast = read_until(player, [](const v1::Envelope& m) { return m.has_notice() && m.notice().kind() == "broadcast"; });
  ASSERT_TRUE(broadcast);
  EXPECT_EQ(broadcast->notice().text(), "Reinforcements arrive at turn 5");

  ASSERT_TRUE(act(*umpire_, "player away", [](v1::UmpireAction* a) { a->mutable_force_resolve(); }).has_umpire_done());
  auto resolved = read_until(player, [](const v1::Envelope& m) { return m.has_step_resolved(); });
  ASSERT_TRUE(resolved) << server_->log();
  EXPECT_EQ(resolved->step_resolved().step(), step_);

  ASSERT_TRUE(act(*umpire_, "time is up", [](v1::UmpireAction* a) { a->mutable_end_game()->set_result("a draw"); })
                  .has_umpire_done());
  auto ended = read_until(player, [](const v1::Envelope& m) { return m.has_notice() && m.notice().kind() == "ended"; });
  ASSERT_TRUE(ended);
  EXPECT_EQ(ended->notice().seed_hex().size(), 64u) << "the seed is revealed at the end";

  v1::Envelope audit;
  audit.mutable_list_audit()->set_game_id(game_);
  auto trail = umpire_->call(audit);
  ASSERT_TRUE(trail.has_audit_trail()) << trail.DebugString();
  std::vector<std::string> actions;
  for (const auto& e : trail.audit_trail().entries()) actions.push_back(e.action() + ":" + e.reason());
  EXPECT_EQ(actions, (std::vector<std::string>{"pause:tea", "resume:back", "broadcast:announcement",
                                               "force_resolve:player away", "end_game:time is up"}));
  auto not_yours = player.call(audit);
  ASSERT_TRUE(not_yours.has_error());
  EXPECT_EQ(not_yours.error().code(), v1::ERROR_CODE_PERMISSION_DENIED);

  // The audit trail and the end survive a restart.
  umpire_.reset();
  server_->stop(SIGTERM);
  server_.emplace(dir_, std::vector<std::string>{"--manual-clock"});
  server_->start();
  Client again(server_->port());
  ASSERT_TRUE(again.hello().has_welcome());
  auto rejoined = join(again, "umpire");
  ASSERT_TRUE(rejoined.has_joined());
  EXPECT_TRUE(rejoined.joined().view().ended());
  EXPECT_EQ(again.call(audit).audit_trail().entries_size(), 5);
}

TEST_F(RoomTest, ChatChannelsReachOnlyTheirReaders) {
  start();
  create({});
  // One seat of each side, plus a second seat of the first side.
  std::map<std::string, std::string> side_of;
  std::vector<std::string> seats;
  for (const auto& [seat, token] : tokens_) {
    if (seat == "umpire" || seat == "spectator") continue;
    seats.push_back(seat);
    side_of[seat] = seat.substr(0, seat.find('/'));
  }
  std::string a1, a2, b1;
  for (const auto& s : seats) {
    if (a1.empty()) a1 = s;
    else if (side_of[s] == side_of[a1] && a2.empty()) a2 = s;
    else if (side_of[s] != side_of[a1] && b1.empty()) b1 = s;
  }
  ASSERT_FALSE(a2.empty());
  ASSERT_FALSE(b1.empty());
  std::map<std::string, std::unique_ptr<Client>> c;
  for (const auto& s : {a1, a2, b1}) {
    c[s] = std::make_unique<Client>(server_->port());
    ASSERT_TRUE(c[s]->hello().has_welcome());
    ASSERT_TRUE(join(*c[s], s).has_joined());
  }

  ASSERT_TRUE(chat(*c[a1], v1::CHAT_CHANNEL_SIDE, "flank them").has_chat_sent());
  ASSERT_TRUE(chat(*c[a1], v1::CHAT_CHANNEL_ALL, "good luck").has_chat_sent());
  ASSERT_TRUE(chat(*c[a1], v1::CHAT_CHANNEL_UMPIRE, "a rules question").has_chat_sent());
  ASSERT_TRUE(chat(*umpire_, v1::CHAT_CHANNEL_UMPIRE, "an answer", a1).has_chat_sent());
  auto bad = chat(*c[a1], v1::CHAT_CHANNEL_ALL, std::string(2001, 'x'));
  ASSERT_TRUE(bad.has_error());
  EXPECT_EQ(bad.error().code(), v1::ERROR_CODE_INVALID_ARGUMENT);

  // A fresh join shows each seat the chat it may read.
  auto history = [&](const std::string& seat) {
    Client fresh(server_->port());
    EXPECT_TRUE(fresh.hello().has_welcome());
    EXPECT_TRUE(join(fresh, seat).has_joined());
    auto since = read_until(fresh, [](const v1::Envelope& m) { return m.has_events_since(); });
    std::vector<std::string> texts;
    if (since) {
      for (const auto& m : since->events_since().chat()) texts.push_back(m.text());
    }
    return texts;
  };
  EXPECT_EQ(history(a1), (std::vector<std::string>{"flank them", "good luck", "a rules question", "an answer"}));
  EXPECT_EQ(history(a2), (std::vector<std::string>{"flank them", "good luck"}));
  EXPECT_EQ(history(b1), (std::vector<std::string>{"good luck"}));
  EXPECT_EQ(history("umpire"),
            (std::vector<std::string>{"flank them", "good luck", "a rules question", "an answer"}));
}

TEST_F(RoomTest, SpectatorsWatchButCannotPlayOrChat) {
  start();
  v1::GameSettings settings;
  settings.set_spectator_delay_turns(2);
  create(settings);
  Client spectator(server_->port());
  ASSERT_TRUE(spectator.hello().has_welcome());
  auto joined = join(spectator, "spectator");
  ASSERT_TRUE(joined.has_joined()) << joined.DebugString();
  EXPECT_EQ(joined.joined().seat(), "spectator");
  EXPECT_GT(joined.joined().view().units_size(), 0);
  auto says = chat(spectator, v1::CHAT_CHANNEL_ALL, "hello");
  ASSERT_TRUE(says.has_error());
  EXPECT_EQ(says.error().code(), v1::ERROR_CODE_PERMISSION_DENIED);
  v1::Envelope lock;
  lock.mutable_lock_answers()->set_game_id(game_);
  lock.mutable_lock_answers()->set_step(step_);
  auto plays = spectator.call(lock);
  ASSERT_TRUE(plays.has_error());
  EXPECT_EQ(plays.error().code(), v1::ERROR_CODE_PERMISSION_DENIED);
}

// What a spectator is sent (see SeatStatus in protocol.proto): per step only
// the StepResolved; no SeatStatus (not on joining, not after a lock, not with
// the next step), no "defaulted" or "forced" notice. The seats that play and
// the umpire still get all of it; a notice about the whole game reaches
// spectators too.
TEST_F(RoomTest, SpectatorsGetEachStepsResultNotTheOpenStepsTraffic) {
  start();
  create(v1::GameSettings{});
  ASSERT_GE(owing_.size(), 1u);
  Client spectator(server_->port());
  ASSERT_TRUE(spectator.hello().has_welcome());
  ASSERT_TRUE(join(spectator, "spectator").has_joined());
  Client player(server_->port());
  ASSERT_TRUE(player.hello().has_welcome());
  ASSERT_TRUE(join(player, owing_.front()).has_joined());

  // Everything a connection is sent until it has been quiet for a while.
  auto drain = [](Client& c) {
    std::vector<v1::Envelope> got;
    while (auto m = c.poll(std::chrono::milliseconds(500))) got.push_back(std::move(*m));
    return got;
  };
  auto count = [](const std::vector<v1::Envelope>& got, const std::function<bool(const v1::Envelope&)>& pred) {
    return std::count_if(got.begin(), got.end(), pred);
  };
  const auto is_status = [](const v1::Envelope& m) { return m.has_seat_status(); };
  const auto is_step_notice = [](const v1::Envelope& m) {
    return m.has_notice() && (m.notice().kind() == "defaulted" || m.notice().kind() == "forced");
  };
  auto joined_spectator = drain(spectator);
  EXPECT_EQ(count(joined_spectator, is_status), 0);
  EXPECT_GT(count(drain(player), is_status), 0);  // a player's join still brings it

  // The umpire locks one owing seat, then forces the step.
  v1::Envelope lock;
  lock.mutable_lock_answers()->set_game_id(game_);
  lock.mutable_lock_answers()->set_step(step_);
  lock.mutable_lock_answers()->set_seat(owing_.front());
  ASSERT_TRUE(umpire_->call(lock).has_answers_locked());
  if (owing_.size() > 1) {
    ASSERT_TRUE(act(*umpire_, "move on", [](v1::UmpireAction* a) { a->mutable_force_resolve(); }).has_umpire_done());
  }
  auto watched = drain(spectator);
  auto played = drain(player);
  ASSERT_EQ(watched.size(), 1u) << (watched.empty() ? std::string("nothing") : watched.back().DebugString());
  ASSERT_TRUE(watched.front().has_step_resolved());
  EXPECT_EQ(watched.front().step_resolved().step(), step_);
  EXPECT_EQ(watched.front().step_resolved().view().seat(), "spectator");
  EXPECT_EQ(watched.front().step_resolved().view().step(), step_ + 1);  // the step now open
  EXPECT_EQ(count(played, [](const v1::Envelope& m) { return m.has_step_resolved(); }), 1);
  EXPECT_GE(count(played, is_status), 2);  // after the lock and with the next step
  if (owing_.size() > 1) {
    EXPECT_GE(count(played, is_step_notice), 2);  // "forced", and "defaulted" per seat
  }

  // A notice about the whole game reaches spectators.
  ASSERT_TRUE(act(*umpire_, "news", [](v1::UmpireAction* a) { a->mutable_broadcast()->set_text("rain at noon"); })
                  .has_umpire_done());
  auto news = drain(spectator);
  ASSERT_EQ(news.size(), 1u);
  EXPECT_EQ(news.front().notice().kind(), "broadcast");
}

TEST_F(RoomTest, BadSettingsAreRefused) {
  start();
  Client c(server_->port());
  ASSERT_TRUE(c.hello().has_welcome());
  v1::Envelope e;
  e.mutable_create_game()->set_scenario_name("demo");
  e.mutable_create_game()->mutable_settings()->set_step_deadline_seconds(3);
  auto r = c.call(e);
  ASSERT_TRUE(r.has_error());
  EXPECT_EQ(r.error().code(), v1::ERROR_CODE_INVALID_ARGUMENT);
  e.mutable_create_game()->mutable_settings()->set_step_deadline_seconds(0);
  e.mutable_create_game()->mutable_settings()->set_spectator_side("martians");
  r = c.call(e);
  ASSERT_TRUE(r.has_error());
  EXPECT_NE(r.error().message().find("martians"), std::string::npos);
  // A daily deadline needs a time of day and a real zone, and excludes the other kind.
  e.mutable_create_game()->mutable_settings()->set_spectator_side("");
  e.mutable_create_game()->mutable_settings()->set_daily_deadline("20:00");
  e.mutable_create_game()->mutable_settings()->set_time_zone("Europe/Lndon");
  r = c.call(e);
  ASSERT_TRUE(r.has_error());
  EXPECT_EQ(r.error().code(), v1::ERROR_CODE_INVALID_ARGUMENT);
  EXPECT_NE(r.error().message().find("Europe/Lndon"), std::string::npos) << r.error().message();
  e.mutable_create_game()->mutable_settings()->set_time_zone("Europe/London");
  e.mutable_create_game()->mutable_settings()->set_daily_deadline("8pm");
  r = c.call(e);
  ASSERT_TRUE(r.has_error());
  EXPECT_NE(r.error().message().find("HH:MM"), std::string::npos) << r.error().message();
  e.mutable_create_game()->mutable_settings()->set_daily_deadline("20:00");
  e.mutable_create_game()->mutable_settings()->set_step_deadline_seconds(3600);
  r = c.call(e);
  ASSERT_TRUE(r.has_error());
  EXPECT_NE(r.error().message().find("not both"), std::string::npos) << r.error().message();
}

TEST_F(RoomTest, UmpireMayAnswerForAnEmptySeat) {
  start();
  v1::GameSettings settings;
  create(settings);
  // The umpire is shown every decision of the step, and answers and locks
  // for the seats nobody holds.
  Client u(server_->port());
  ASSERT_TRUE(u.hello().has_welcome());
  ASSERT_TRUE(join(u, "umpire").has_joined());
  auto owed = read_until(u, [](const v1::Envelope& m) { return m.has_decisions(); });
  ASSERT_TRUE(owed);
  ASSERT_GT(owed->decisions().decisions_size(), 0);
  EXPECT_EQ(owed->decisions().answers_size(), 0);
  for (const auto& d : owed->decisions().decisions()) {
    ASSERT_GT(d.options_size(), 0);
    v1::Envelope e;
    auto* s = e.mutable_submit_answer();
    s->set_game_id(game_);
    s->set_step(step_);
    s->set_seat(d.seat());
    s->mutable_answer()->set_decision_id(d.id());
    s->mutable_answer()->set_option(d.options(0).id());
    ASSERT_TRUE(u.call(e).has_answer_accepted());
  }
  for (const auto& seat : owing_) {
    v1::Envelope lock;
    lock.mutable_lock_answers()->set_game_id(game_);
    lock.mutable_lock_answers()->set_step(step_);
    lock.mutable_lock_answers()->set_seat(seat);
    auto r = u.call(lock);
    ASSERT_TRUE(r.has_answers_locked()) << r.DebugString();
  }
  auto resolved = read_until(u, [](const v1::Envelope& m) { return m.has_step_resolved(); });
  ASSERT_TRUE(resolved);
  EXPECT_EQ(resolved->step_resolved().step(), step_);

  // A player may not act for another seat.
  Client player(server_->port());
  ASSERT_TRUE(player.hello().has_welcome());
  std::string other;
  for (const auto& [s, t] : tokens_) {
    if (s != "umpire" && s != "spectator") other = s;
  }
  ASSERT_TRUE(join(player, other).has_joined());
  v1::Envelope lock;
  lock.mutable_lock_answers()->set_game_id(game_);
  lock.mutable_lock_answers()->set_step(resolved->step_resolved().next().step());
  lock.mutable_lock_answers()->set_seat(owing_.front() == other ? "umpire" : owing_.front());
  auto r = player.call(lock);
  ASSERT_TRUE(r.has_error());
  EXPECT_EQ(r.error().code(), v1::ERROR_CODE_PERMISSION_DENIED);
}

TEST_F(RoomTest, ReconnectWithLastSequenceGetsWhatWasMissedOnce) {
  start();
  create({});
  Client player(server_->port());
  ASSERT_TRUE(player.hello().has_welcome());
  auto first = join(player, owing_.front());
  ASSERT_TRUE(first.has_joined());
  const auto seen = first.joined().view().sequence();
  // The step resolves while the player is away.
  ASSERT_TRUE(act(*umpire_, "move on", [](v1::UmpireAction* a) { a->mutable_force_resolve(); }).has_umpire_done());
  ASSERT_TRUE(read_until(*umpire_, [](const v1::Envelope& m) { return m.has_step_resolved(); }));

  Client back(server_->port());
  ASSERT_TRUE(back.hello().has_welcome());
  v1::Envelope e;
  e.mutable_join_game()->set_game_id(game_);
  e.mutable_join_game()->set_token(first.joined().resume_token());
  e.mutable_join_game()->set_last_sequence(seen);
  auto rejoined = back.call(e);
  ASSERT_TRUE(rejoined.has_joined());
  auto since = read_until(back, [](const v1::Envelope& m) { return m.has_events_since(); });
  ASSERT_TRUE(since);
  std::uint64_t prev = seen;
  for (const auto& ev : since->events_since().events()) {
    EXPECT_GT(ev.sequence(), prev) << "in order, nothing twice";
    prev = ev.sequence();
  }
  EXPECT_LE(prev, rejoined.joined().view().sequence());
}

}  // namespace
}  // namespace galloper::testing
