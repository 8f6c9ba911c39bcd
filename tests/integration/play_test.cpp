// Playing over real WebSockets: decisions per seat, answers checked by the
// engine, revisable until locked, stored before they are acknowledged, and the
// step resolving only when every owing seat has locked.
#include <map>

#include "tests/integration/harness.hpp"

namespace galloper::testing {
namespace {

v1::Envelope join(Client& c, const std::string& game, const std::string& token) {
  v1::Envelope e;
  e.mutable_join_game()->set_game_id(game);
  e.mutable_join_game()->set_token(token);
  return c.call(e);
}

// Reads pushes until `pred` holds for one; fails the test after `limit` messages.
template <class Pred>
std::optional<v1::Envelope> read_until(Client& c, Pred pred, int limit = 50) {
  for (int i = 0; i < limit; ++i) {
    auto m = c.receive();
    if (!m) return std::nullopt;
    if (pred(*m)) return m;
  }
  return std::nullopt;
}

v1::Envelope submit_answer(Client& c, const std::string& game, std::uint64_t step, const std::string& decision,
                    const std::string& option) {
  v1::Envelope e;
  auto* s = e.mutable_submit_answer();
  s->set_game_id(game);
  s->set_step(step);
  s->mutable_answer()->set_decision_id(decision);
  s->mutable_answer()->set_option(option);
  return c.call(e);
}

v1::Envelope lock_answers(Client& c, const std::string& game, std::uint64_t step) {
  v1::Envelope e;
  e.mutable_lock_answers()->set_game_id(game);
  e.mutable_lock_answers()->set_step(step);
  return c.call(e);
}

class PlayTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = make_temp_dir("play");
    server_.emplace(dir_);
    server_->start();
    Client umpire(server_->port());
    ASSERT_TRUE(umpire.hello().has_welcome());
    v1::Envelope e;
    e.mutable_create_game()->set_scenario_name("demo");
    auto created = umpire.call(e);
    ASSERT_TRUE(created.has_game_created()) << created.DebugString();
    game_ = created.game_created().game_id();
    for (const auto& inv : created.game_created().invites()) tokens_[inv.seat()] = inv.token();
    // The umpire learns who owes the first decisions.
    auto joined = join(umpire, game_, tokens_["umpire"]);
    ASSERT_TRUE(joined.has_joined());
    auto status = read_until(umpire, [](const v1::Envelope& m) {
      return m.has_seat_status() && m.seat_status().owing_size() > 0;
    });
    ASSERT_TRUE(status) << server_->log();
    step_ = status->seat_status().step();
    for (const auto& s : status->seat_status().owing()) owing_.push_back(s);
  }
  void TearDown() override {
    if (server_) server_->stop(SIGKILL);
    std::filesystem::remove_all(dir_);
  }

  // Joins `seat` and returns the decisions it owes now.
  v1::DecisionsOwed join_seat(Client& c, const std::string& seat) {
    EXPECT_TRUE(c.hello().has_welcome());
    auto joined = join(c, game_, tokens_.at(seat));
    EXPECT_TRUE(joined.has_joined()) << joined.DebugString();
    auto owed = read_until(c, [](const v1::Envelope& m) { return m.has_decisions(); });
    EXPECT_TRUE(owed);
    return owed ? owed->decisions() : v1::DecisionsOwed{};
  }

  std::filesystem::path dir_;
  std::optional<ServerProcess> server_;
  std::string game_;
  std::map<std::string, std::string> tokens_;
  std::vector<std::string> owing_;
  std::uint64_t step_ = 0;
};

TEST_F(PlayTest, EachSeatGetsOnlyItsOwnDecisionsAndBadAnswersChangeNothing) {
  ASSERT_FALSE(owing_.empty());
  const std::string seat = owing_.front();
  Client player(server_->port());
  auto owed = join_seat(player, seat);
  ASSERT_GT(owed.decisions_size(), 0);
  EXPECT_EQ(owed.step(), step_);
  for (const auto& d : owed.decisions()) EXPECT_EQ(d.seat(), seat);
  const auto& decision = owed.decisions(0);
  ASSERT_GT(decision.options_size(), 0) << decision.DebugString();

  // A seat that does not owe it.
  std::string other_seat;
  for (const auto& [s, t] : tokens_) {
    if (s != seat && s != "umpire" && s != "spectator") other_seat = s;
  }
  Client other(server_->port());
  join_seat(other, other_seat);
  auto wrong_seat = submit_answer(other, game_, step_, decision.id(), decision.options(0).id());
  ASSERT_TRUE(wrong_seat.has_error());
  EXPECT_TRUE(wrong_seat.error().code() == v1::ERROR_CODE_PERMISSION_DENIED ||
              wrong_seat.error().code() == v1::ERROR_CODE_INVALID_ARGUMENT)
      << wrong_seat.DebugString();

  // A connection that holds no seat.
  Client stranger(server_->port());
  ASSERT_TRUE(stranger.hello().has_welcome());
  auto no_seat = submit_answer(stranger, game_, step_, decision.id(), decision.options(0).id());
  ASSERT_TRUE(no_seat.has_error());
  EXPECT_EQ(no_seat.error().code(), v1::ERROR_CODE_PERMISSION_DENIED);

  // A stale step, an unknown decision, an option the rules do not offer.
  auto stale = submit_answer(player, game_, step_ + 7, decision.id(), decision.options(0).id());
  ASSERT_TRUE(stale.has_error());
  EXPECT_EQ(stale.error().code(), v1::ERROR_CODE_INVALID_ARGUMENT);
  auto unknown = submit_answer(player, game_, step_, "no-such-decision", "x");
  ASSERT_TRUE(unknown.has_error());
  EXPECT_EQ(unknown.error().code(), v1::ERROR_CODE_INVALID_ARGUMENT);
  auto illegal = submit_answer(player, game_, step_, decision.id(), "not-an-option");
  ASSERT_TRUE(illegal.has_error());
  EXPECT_EQ(illegal.error().code(), v1::ERROR_CODE_ILLEGAL_ANSWER);
  EXPECT_FALSE(illegal.error().message().empty());
  EXPECT_EQ(illegal.error().context().at("decision_id"), decision.id());

  // None of that was recorded: a fresh join shows no answers yet.
  Client again(server_->port());
  auto owed_again = join_seat(again, seat);
  EXPECT_EQ(owed_again.answers_size(), 0);
}

TEST_F(PlayTest, AnswersSurviveACrashAndTheStepResolvesWhenAllHaveLocked) {
  // Every owing seat answers its first option for everything, then one seat
  // is killed with the server before locking.
  std::map<std::string, v1::DecisionsOwed> owed;
  std::map<std::string, std::unique_ptr<Client>> clients;
  for (const auto& seat : owing_) {
    clients[seat] = std::make_unique<Client>(server_->port());
    owed[seat] = join_seat(*clients[seat], seat);
    for (const auto& d : owed[seat].decisions()) {
      if (d.options_size() == 0) continue;
      auto r = submit_answer(*clients[seat], game_, step_, d.id(), d.options(0).id());
      ASSERT_TRUE(r.has_answer_accepted()) << r.DebugString();
    }
  }

  // Acknowledged means on disk: SIGKILL, restart, and the answers are there.
  clients.clear();
  ASSERT_NE(server_->stop(SIGKILL), 0);
  server_.emplace(dir_);
  server_->start();
  for (const auto& seat : owing_) {
    clients[seat] = std::make_unique<Client>(server_->port());
    auto restored = join_seat(*clients[seat], seat);
    EXPECT_EQ(restored.step(), step_);
    int with_options = 0;
    for (const auto& d : owed[seat].decisions()) with_options += d.options_size() > 0 ? 1 : 0;
    EXPECT_EQ(restored.answers_size(), with_options) << restored.DebugString();
    for (const auto& a : restored.answers()) {
      bool mine = false;
      for (const auto& d : restored.decisions()) mine = mine || d.id() == a.decision_id();
      EXPECT_TRUE(mine) << "a seat is shown only its own answers";
    }
  }

  // Lock every owing seat; the last lock resolves the step for everyone.
  for (std::size_t i = 0; i < owing_.size(); ++i) {
    auto& c = *clients[owing_[i]];
    auto locked = lock_answers(c, game_, step_);
    ASSERT_TRUE(locked.has_answers_locked()) << locked.DebugString();
    auto again = submit_answer(c, game_, step_, owed[owing_[i]].decisions(0).id(), "first");
    ASSERT_TRUE(again.has_error()) << "no answers after locking";
  }
  for (const auto& seat : owing_) {
    auto resolved = read_until(*clients[seat], [](const v1::Envelope& m) { return m.has_step_resolved(); });
    ASSERT_TRUE(resolved) << seat << "\n" << server_->log();
    EXPECT_EQ(resolved->step_resolved().step(), step_);
    // The seat holds a whole view (from joining): the new one comes as a change.
    EXPECT_TRUE(resolved->step_resolved().has_change()) << seat;
    EXPECT_EQ(resolved->step_resolved().view().seat(), seat);
    EXPECT_GT(resolved->step_resolved().next().step(), step_);
    for (const auto& ev : resolved->step_resolved().events()) EXPECT_GT(ev.sequence(), 0u);
  }
}

}  // namespace
}  // namespace galloper::testing
