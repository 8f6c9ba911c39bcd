// Snapshots and umpire rewind through the real server and a real SQLite file:
// loading starts from the newest snapshot and gives the game exactly as it
// was; a damaged snapshot is skipped (the log is the record) and nothing on
// disk is overwritten; a rewind opens an earlier step for everyone, survives a
// restart, and the rewound log still replays and verifies.
#include "tests/integration/game_driver.hpp"

namespace galloper::testing {
namespace {

class SnapshotRewindTest : public StoredGameTest {
 protected:
  // What the umpire sees of the game (everything), without what a clock or
  // a history of undone events changes. Taken once the game waits on the
  // players: steps that ask nobody anything resolve on their own, after the
  // step a test drove.
  v1::GameView umpire_view(bool keep_sequence = true) {
    for (int attempt = 0; attempt < 100; ++attempt) {
      Client c(port());
      c.hello();
      auto joined = join_game(c, game_.id, game_.tokens.at("umpire"));
      EXPECT_TRUE(joined.has_joined()) << joined.DebugString();
      auto status = read_until(c, [](const v1::Envelope& m) { return m.has_seat_status(); });
      if (!status || status->seat_status().owing_size() == 0 ||
          status->seat_status().step() != joined.joined().view().step()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        continue;
      }
      v1::GameView view = joined.joined().view();
      view.clear_deadline_unix();
      if (!keep_sequence) view.clear_sequence();
      return view;
    }
    ADD_FAILURE() << "the game never settled on a step that owes decisions";
    return {};
  }
  // The umpire's events after `after` (all with `full`), as a joining client gets them.
  std::string events_after(std::uint64_t after, bool full = false) {
    Client c(port());
    c.hello();
    v1::Envelope e;
    e.mutable_join_game()->set_game_id(game_.id);
    e.mutable_join_game()->set_token(game_.tokens.at("umpire"));
    e.mutable_join_game()->set_last_sequence(after);
    e.mutable_join_game()->set_full_history(full);
    auto joined = c.call(e);
    EXPECT_TRUE(joined.has_joined());
    EXPECT_TRUE(joined.joined().has_settings()) << "every seat is told the settings in force";
    auto since = read_until(c, [](const v1::Envelope& m) { return m.has_events_since(); });
    EXPECT_TRUE(since);
    std::string out;
    for (const auto& ev : since->events_since().events()) out += ev.DebugString();
    return out;
  }
  v1::Envelope umpire_action(Client& c, std::uint64_t to_step, const std::string& reason) {
    v1::Envelope e;
    auto* a = e.mutable_umpire_action();
    a->set_game_id(game_.id);
    a->set_reason(reason);
    a->mutable_rewind()->set_to_step(to_step);
    return c.call(e);
  }
  std::int64_t metric(const std::string& name) {
    auto r = http_get(port(), "/metrics");
    const auto at = r.body.find("\n" + name + " ");
    if (at == std::string::npos) return -1;
    return std::stoll(r.body.substr(at + name.size() + 2));
  }

};

TEST_F(SnapshotRewindTest, LoadingStartsFromTheNewestSnapshotAndGivesTheSameGame) {
  ASSERT_EQ(play_steps(port(), game_, 20), 20) << server_->log();
  const auto before = umpire_view();
  const auto history = events_after(1);
  EXPECT_GE(metric("galloper_snapshots_written_total"), 2);
  stop();
  // Every turn's first state, and at least one every kSnapshotEvery steps.
  const auto rows = std::stoi(first_line(query("SELECT count(*) FROM snapshots WHERE game_id = '" + game_.id + "';")));
  EXPECT_GE(rows, 2);
  EXPECT_EQ(first_line(query("SELECT count(*) FROM snapshots s JOIN steps t ON t.game_id = s.game_id AND "
                             "t.seq = s.seq WHERE t.kind = 'resolve' AND t.state_hash = s.state_hash;")),
            std::to_string(rows));

  start();
  EXPECT_EQ(umpire_view().DebugString(), before.DebugString());
  EXPECT_EQ(events_after(1), history) << "the history comes back whole, numbered as before";
  const auto all = events_after(0, true);
  EXPECT_NE(all.find("sequence: 1\n"), std::string::npos) << "a first join may ask for the whole history";
  EXPECT_EQ(all.size() > history.size(), true);
  EXPECT_EQ(metric("galloper_snapshots_rejected_total"), 0);
  EXPECT_EQ(play_steps(port(), game_, 3), 3) << server_->log();
  ASSERT_EQ(server_->stop(SIGTERM), 0);
  EXPECT_NE(server_->log().find("snapshots offered"), std::string::npos);
  server_.reset();
  auto replay = galloper("replay " + data_arg() + " " + game_.id);
  EXPECT_EQ(replay.status, 0) << replay.out;
}

TEST_F(SnapshotRewindTest, ADamagedSnapshotIsSkippedAndNothingIsOverwritten) {
  ASSERT_EQ(play_steps(port(), game_, 20), 20) << server_->log();
  const auto before = umpire_view();
  stop();
  // Damage the newest snapshot's bytes and give another a hash the log never recorded.
  const std::string newest = first_line(
      query("SELECT max(seq) FROM snapshots WHERE game_id = '" + game_.id + "';"));
  query("UPDATE snapshots SET state = CAST(substr(state, 1, 40) || x'5a5a5a5a' || substr(state, 45) AS BLOB) "
        "WHERE game_id = '" +
        game_.id + "' AND seq = " + newest + ";");
  query("UPDATE snapshots SET state_hash = state_hash + 1 WHERE game_id = '" + game_.id + "' AND seq = (SELECT "
        "min(seq) FROM snapshots WHERE game_id = '" + game_.id + "');");
  const auto damaged_rows = query("SELECT seq, hex(state), state_hash FROM snapshots ORDER BY seq;");

  start();
  EXPECT_EQ(umpire_view().DebugString(), before.DebugString()) << "the log is the record";
  EXPECT_GE(metric("galloper_snapshots_rejected_total"), 1);
  ASSERT_EQ(server_->stop(SIGTERM), 0);  // the log is complete once the server has stopped
  EXPECT_NE(server_->log().find("after log entry " + newest + " is not used"), std::string::npos) << server_->log();
  server_.reset();
  EXPECT_EQ(query("SELECT seq, hex(state), state_hash FROM snapshots ORDER BY seq;"), damaged_rows);
}

TEST_F(SnapshotRewindTest, UmpireRewindOpensAnEarlierStepForEveryoneAndSurvivesARestart) {
  ASSERT_EQ(play_steps(port(), game_, 4), 4) << server_->log();
  const auto at_step_4 = umpire_view(false);
  const std::uint64_t step = at_step_4.step();  // steps nobody answers resolve by themselves
  ASSERT_GE(step, 4u);
  ASSERT_EQ(play_steps(port(), game_, 9), 9) << server_->log();
  const std::string rows_before = query("SELECT count(*) FROM steps;");

  Client umpire(port());
  umpire.hello();
  ASSERT_TRUE(join_game(umpire, game_.id, game_.tokens.at("umpire")).has_joined());
  Client player(port());
  player.hello();
  std::string seat;
  for (const auto& [id, token] : game_.tokens) {
    if (id != "umpire" && id != "spectator") seat = id;
  }
  ASSERT_FALSE(seat.empty());
  ASSERT_TRUE(join_game(player, game_.id, game_.tokens.at(seat)).has_joined());

  // Refused, and nothing written: a player; a step not yet played; no reason.
  auto refused = [&](Client& c, std::uint64_t to, const std::string& reason, v1::ErrorCode code) {
    auto r = umpire_action(c, to, reason);
    EXPECT_TRUE(r.has_error()) << r.DebugString();
    EXPECT_EQ(r.error().code(), code) << r.DebugString();
  };
  refused(player, 2, "I want a do-over", v1::ERROR_CODE_PERMISSION_DENIED);
  refused(umpire, 99, "the future", v1::ERROR_CODE_INVALID_ARGUMENT);
  refused(umpire, step, "", v1::ERROR_CODE_INVALID_ARGUMENT);

  auto done = umpire_action(umpire, step, "a misclick on the blue left");
  ASSERT_TRUE(done.has_umpire_done()) << done.DebugString() << server_->log();
  EXPECT_EQ(done.umpire_done().action(), "rewind");
  auto notice = read_until(player, [](const v1::Envelope& m) { return m.has_notice() && m.notice().kind() == "rewound"; });
  ASSERT_TRUE(notice);
  EXPECT_NE(notice->notice().text().find("a misclick on the blue left"), std::string::npos);
  EXPECT_EQ(notice->notice().step(), step) << "clients drop the events of this step and later ones";
  auto view = read_until(player, [](const v1::Envelope& m) { return m.has_view(); }, 200);
  (void)view;
  v1::GameView rewound = umpire_view(false);
  EXPECT_EQ(rewound.DebugString(), at_step_4.DebugString());

  // Play goes on from that step with the same dice the step had (keyed by step).
  ASSERT_EQ(play_steps(port(), game_, 2), 2) << server_->log();
  const auto after = umpire_view();
  EXPECT_GE(after.step(), step + 2);
  stop();
  EXPECT_EQ(first_line(query("SELECT count(*) FROM steps WHERE game_id = '" + game_.id +
                             "' AND kind = 'umpire' AND superseded = 0;")),
            "1");
  EXPECT_GT(std::stoi(first_line(query("SELECT count(*) FROM steps WHERE superseded = 1;"))), 9);
  EXPECT_NE(query("SELECT count(*) FROM steps;"), rows_before);

  start();
  EXPECT_EQ(umpire_view().DebugString(), after.DebugString()) << "the rewound game loads as it was played";
  {
    // End it, so the export carries the seed and every die can be checked.
    Client c(port());
    c.hello();
    ASSERT_TRUE(join_game(c, game_.id, game_.tokens.at("umpire")).has_joined());
    end_game(c);
    if (HasFatalFailure()) return;
    ASSERT_TRUE(read_until(c, [](const v1::Envelope& m) { return m.has_notice() && m.notice().kind() == "ended"; }));
    auto late = umpire_action(c, 2, "after the end");
    EXPECT_TRUE(late.has_error()) << "the seed is out: no rewinding an ended game";
  }
  stop();
  const auto verified = expect_replays_and_verifies();
  EXPECT_NE(verified.out.find("the seed matches its commitment"), std::string::npos) << verified.out;
}

}  // namespace
}  // namespace galloper::testing
