// Bot seats over real WebSockets: seats the server plays itself answer and
// lock as soon as they owe decisions; the umpire hands seats to the bot and
// back with a logged action; bad requests are refused with typed errors and
// store nothing; a game the bot played replays from its log alone.
#include <set>

#include "tests/integration/game_driver.hpp"

namespace galloper::testing {
namespace {

v1::Envelope create(Client& c, const std::vector<std::string>& bots, const std::string& title = {}) {
  v1::Envelope e;
  e.mutable_create_game()->set_scenario_name("demo");
  if (!title.empty()) e.mutable_create_game()->set_title(title);
  for (const auto& b : bots) e.mutable_create_game()->mutable_settings()->add_bot_seats(b);
  return c.call(e);
}

// The demo's player seats (every seat but the umpire and spectators).
std::vector<std::string> player_seats(unsigned short port) {
  Client c(port);
  EXPECT_TRUE(c.hello().has_welcome());
  auto created = create(c, {}, "seat list");
  std::vector<std::string> out;
  for (const auto& inv : created.game_created().invites()) {
    if (inv.seat() != "umpire" && inv.seat() != "spectator") out.push_back(inv.seat());
  }
  return out;
}

std::map<std::string, std::string> tokens_of(const v1::Envelope& created) {
  std::map<std::string, std::string> out;
  for (const auto& inv : created.game_created().invites()) out[inv.seat()] = inv.token();
  return out;
}

v1::Envelope set_bot(Client& c, const std::string& game, const std::string& seat, bool bot, const std::string& reason) {
  v1::Envelope e;
  auto* u = e.mutable_umpire_action();
  u->set_game_id(game);
  u->set_reason(reason);
  u->mutable_set_bot_seat()->set_seat(seat);
  u->mutable_set_bot_seat()->set_bot(bot);
  return c.call(e);
}

std::size_t game_count(unsigned short port) {
  Client c(port);
  EXPECT_TRUE(c.hello().has_welcome());
  v1::Envelope e;
  e.mutable_list_games();
  return static_cast<std::size_t>(c.call(e).game_list().games_size());
}

class BotSeats : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = make_temp_dir("bots");
    data_ = dir_ / "data";
    server_.emplace(data_);
    server_->start();
  }
  void TearDown() override {
    if (server_) server_->stop(SIGKILL);
    std::filesystem::remove_all(dir_);
  }
  unsigned short port() const { return server_->port(); }

  std::filesystem::path dir_, data_;
  std::optional<ServerProcess> server_;
};

TEST_F(BotSeats, EverySeatButOneIsABotAndTheGameAdvancesWhenTheHumanLocks) {
  const auto seats = player_seats(port());
  ASSERT_GE(seats.size(), 2u);
  const std::string human = seats.front();
  std::vector<std::string> bots(seats.begin() + 1, seats.end());

  Client c(port());
  ASSERT_TRUE(c.hello().has_welcome());
  auto created = create(c, bots);
  ASSERT_TRUE(created.has_game_created()) << created.DebugString();
  const auto game = created.game_created().game_id();
  const auto tokens = tokens_of(created);

  int human_locks = 0;
  std::uint64_t last_resolved = 0;
  for (int round = 0; round < 40 && human_locks < 3; ++round) {
    Client p(port());
    ASSERT_TRUE(p.hello().has_welcome());
    auto joined = join_game(p, game, tokens.at(human));
    ASSERT_TRUE(joined.has_joined()) << joined.DebugString();
    // Joined shows the seats the bot plays, as the seat status does.
    const auto& shown = joined.joined().settings().bot_seats();
    EXPECT_EQ(std::set<std::string>(shown.begin(), shown.end()), std::set<std::string>(bots.begin(), bots.end()));
    auto owed = read_until(p, [](const v1::Envelope& m) { return m.has_decisions(); });
    ASSERT_TRUE(owed);
    auto status = read_until(p, [](const v1::Envelope& m) { return m.has_seat_status(); });
    ASSERT_TRUE(status);
    EXPECT_EQ(status->seat_status().bots_size(), static_cast<int>(bots.size()));
    if (owed->decisions().decisions().empty()) {
      // Only bots owe: the step resolves without anyone here.
      auto moved = read_until(p, [](const v1::Envelope& m) { return m.has_step_resolved(); });
      ASSERT_TRUE(moved) << "the bots did not play on\n" << server_->log();
      last_resolved = moved->step_resolved().step();
      continue;
    }
    const auto step = owed->decisions().step();
    // Every bot seat owing at this step has locked already, or will without us.
    for (const auto& d : owed->decisions().decisions()) {
      std::string option = d.default_option();
      if (option.empty() && d.options_size() > 0) option = d.options(0).id();
      v1::Envelope a;
      a.mutable_submit_answer()->set_game_id(game);
      a.mutable_submit_answer()->set_step(step);
      a.mutable_submit_answer()->mutable_answer()->set_decision_id(d.id());
      a.mutable_submit_answer()->mutable_answer()->set_option(option);
      ASSERT_TRUE(p.call(a).has_answer_accepted()) << d.id();
    }
    v1::Envelope l;
    l.mutable_lock_answers()->set_game_id(game);
    l.mutable_lock_answers()->set_step(step);
    ASSERT_TRUE(p.call(l).has_answers_locked());
    ++human_locks;
    auto done = read_until(p, [step](const v1::Envelope& m) {
      return m.has_step_resolved() && m.step_resolved().step() == step;
    }, 200);
    ASSERT_TRUE(done) << "step " << step << " did not resolve after the one human locked\n" << server_->log();
    last_resolved = step;
  }
  EXPECT_EQ(human_locks, 3) << server_->log();
  EXPECT_GT(last_resolved, 3u);
}

TEST_F(BotSeats, AGameOfBotsPlaysItselfAndReplaysFromItsLog) {
  const auto seats = player_seats(port());
  Client c(port());
  ASSERT_TRUE(c.hello().has_welcome());
  auto created = create(c, seats);
  ASSERT_TRUE(created.has_game_created()) << created.DebugString();
  const auto game = created.game_created().game_id();
  const auto tokens = tokens_of(created);

  // The umpire watches: steps resolve one after another with nobody playing.
  // The bots start when the game is made, so on a fast machine they may have
  // played it to its end before the umpire joins: then the store shows it.
  Client umpire(port());
  ASSERT_TRUE(umpire.hello().has_welcome());
  ASSERT_TRUE(join_game(umpire, game, tokens.at("umpire")).has_joined());
  std::set<std::uint64_t> resolved;
  bool ended = false;
  for (int i = 0; i < 2000 && resolved.size() < 12 && !ended; ++i) {
    auto m = umpire.receive();
    ASSERT_TRUE(m) << "the bots stopped after " << resolved.size() << " steps\n" << server_->log();
    if (m->has_step_resolved()) resolved.insert(m->step_resolved().step());
    ended = m->has_notice() && m->notice().kind() == "ended";
  }
  if (!ended) {
    EXPECT_GE(resolved.size(), 12u);
  }

  // The bots' answers are in the log: the store replays with every state hash
  // checked, without the bot.
  ASSERT_EQ(server_->stop(SIGTERM), 0) << server_->log();
  server_.reset();
  auto replay = galloper("replay --data " + shell_quote(data_.string()) + " " + game);
  EXPECT_EQ(replay.status, 0) << replay.out;
  auto locks = sqlite3(data_ / "galloper.db", "SELECT count(*) FROM steps WHERE kind = 'lock' AND game_id = '" + game + "'");
  EXPECT_EQ(locks.status, 0) << locks.out;
  EXPECT_GE(std::stoi(locks.out.empty() ? "0" : locks.out), 12) << locks.out;
}

TEST_F(BotSeats, BadRequestsAreRefusedWithTypedErrorsAndStoreNothing) {
  const auto seats = player_seats(port());
  const auto games_before = game_count(port());
  Client c(port());
  ASSERT_TRUE(c.hello().has_welcome());

  // At creation: an unknown seat, the umpire, a seat named twice.
  for (const auto& bots : std::vector<std::vector<std::string>>{{"nobody/left"}, {"umpire"}, {seats[0], seats[0]}}) {
    auto refused = create(c, bots);
    ASSERT_TRUE(refused.has_error()) << refused.DebugString();
    EXPECT_EQ(refused.error().code(), v1::ERROR_CODE_INVALID_ARGUMENT);
    EXPECT_NE(refused.error().message().find("bot_seats"), std::string::npos) << refused.error().message();
  }
  EXPECT_EQ(game_count(port()), games_before);

  auto created = create(c, {});
  ASSERT_TRUE(created.has_game_created());
  const auto game = created.game_created().game_id();
  const auto tokens = tokens_of(created);
  Client umpire(port());
  ASSERT_TRUE(umpire.hello().has_welcome());
  ASSERT_TRUE(join_game(umpire, game, tokens.at("umpire")).has_joined());
  Client player(port());
  ASSERT_TRUE(player.hello().has_welcome());
  ASSERT_TRUE(join_game(player, game, tokens.at(seats[0])).has_joined());

  auto expect_refused = [](const v1::Envelope& reply, v1::ErrorCode code) {
    ASSERT_TRUE(reply.has_error()) << reply.DebugString();
    EXPECT_EQ(reply.error().code(), code) << reply.error().message();
  };
  expect_refused(set_bot(umpire, game, "nobody/left", true, "test"), v1::ERROR_CODE_NOT_FOUND);
  expect_refused(set_bot(umpire, game, "umpire", true, "test"), v1::ERROR_CODE_INVALID_ARGUMENT);
  expect_refused(set_bot(umpire, game, "spectator", true, "test"), v1::ERROR_CODE_INVALID_ARGUMENT);
  expect_refused(set_bot(umpire, game, seats[1], false, "test"), v1::ERROR_CODE_INVALID_ARGUMENT);  // not a bot
  expect_refused(set_bot(umpire, game, seats[1], true, ""), v1::ERROR_CODE_INVALID_ARGUMENT);      // no reason
  expect_refused(set_bot(player, game, seats[1], true, "let the bot do it"), v1::ERROR_CODE_PERMISSION_DENIED);

  v1::Envelope audit;
  audit.mutable_list_audit()->set_game_id(game);
  auto trail = umpire.call(audit);
  ASSERT_TRUE(trail.has_audit_trail()) << trail.DebugString();
  for (const auto& e : trail.audit_trail().entries()) EXPECT_NE(e.action(), "set_bot_seat");
  auto stored = sqlite3(data_ / "galloper.db",
                        "SELECT count(*) FROM steps WHERE kind = 'umpire' AND game_id = '" + game + "'");
  EXPECT_EQ(stored.out, "0\n");

  // A good one: logged with its reason, shown in the seat status, kept across a restart.
  auto done = set_bot(umpire, game, seats[1], true, "the player left");
  ASSERT_TRUE(done.has_umpire_done()) << done.DebugString();
  auto status = read_until(umpire, [&](const v1::Envelope& m) {
    return m.has_seat_status() && m.seat_status().bots_size() == 1;
  });
  ASSERT_TRUE(status);
  EXPECT_EQ(status->seat_status().bots(0), seats[1]);
  trail = umpire.call(audit);
  ASSERT_GE(trail.audit_trail().entries_size(), 1);
  const auto& last = *trail.audit_trail().entries().rbegin();
  EXPECT_EQ(last.action(), "set_bot_seat");
  EXPECT_EQ(last.reason(), "the player left");
  EXPECT_EQ(last.detail(), seats[1] + " to the bot");
  expect_refused(set_bot(umpire, game, seats[1], true, "again"), v1::ERROR_CODE_INVALID_ARGUMENT);

  ASSERT_EQ(server_->stop(SIGTERM), 0) << server_->log();
  server_.emplace(data_);
  server_->start();
  Client again(server_->port());
  ASSERT_TRUE(again.hello().has_welcome());
  auto rejoined = join_game(again, game, tokens.at("umpire"));
  ASSERT_TRUE(rejoined.has_joined());
  ASSERT_EQ(rejoined.joined().settings().bot_seats_size(), 1);
  EXPECT_EQ(rejoined.joined().settings().bot_seats(0), seats[1]);
}

}  // namespace
}  // namespace galloper::testing
