// The Store contract (store.hpp), held against every implementation: the
// SQLite store (with and without group-commit waits) and the in-memory store.
// A PostgreSQL store joins by adding a factory below. What only one store can
// have (files, durability across restarts, backup, integrity checks, the
// read-only mode, group-commit counters) stays in sqlite_store_test.cpp and
// store_additions_test.cpp.
//
// SQLite on ":memory:" is not a case: the store needs WAL and two connections
// to one database, and an in-memory database gives neither.
#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <thread>

#include "persistence/memory_store.hpp"
#include "persistence/sqlite_store.hpp"
#include "tests/persistence/test_util.hpp"

namespace galloper::persistence {
namespace {

using namespace galloper::persistence::testing;
using namespace std::chrono_literals;
using Kind = StoreError::Kind;

struct StoreFactory {
  std::string name;
  std::function<std::unique_ptr<Store>(const TempDir&)> open;
};

std::ostream& operator<<(std::ostream& out, const StoreFactory& f) { return out << f.name; }

const StoreFactory kSqliteFile{"SqliteFile", [](const TempDir& dir) { return open_or_fail(dir / "galloper.db"); }};
// Writes queued without waiting share transactions, so a failing write has
// neighbours in its batch and callbacks come in batches.
const StoreFactory kSqliteGroupCommit{"SqliteGroupCommit", [](const TempDir& dir) {
                                        StoreOptions options;
                                        options.max_batch = 64;
                                        options.max_delay_us = 2'000;
                                        return open_or_fail(dir / "galloper.db", options);
                                      }};
const StoreFactory kMemory{"Memory", [](const TempDir&) { return make_memory_store(); }};

class StoreConformance : public ::testing::TestWithParam<StoreFactory> {
 protected:
  void SetUp() override {
    store_ = GetParam().open(dir_);
    ASSERT_TRUE(store_) << GetParam().name;
  }
  Store& store() { return *store_; }

  // A game "g" with `n` log entries (every third a "resolve").
  void game_with_steps(const std::string& id, std::uint64_t n) {
    ASSERT_EQ(describe(create_game(store(), sample_game(id), sample_seats(id))), "ok");
    for (std::uint64_t seq = 1; seq <= n; ++seq) ASSERT_EQ(describe(append_step(store(), sample_step(id, seq))), "ok");
  }

  TempDir dir_;  // declared first: outlives the store
  std::unique_ptr<Store> store_;
};

// ---- Games and seats ----

TEST_P(StoreConformance, ACreatedGameReadsBackWithEveryFieldAndItsSeats) {
  const GameRecord game = sample_game("blenheim-1");
  GameRecord ended = sample_game("ramillies-1");
  ended.ended = true;
  ended.created_unix = 1'800'000'000;
  ended.turn = 0;
  ended.phase = "";
  ended.wake_ms = 0;
  ASSERT_EQ(describe(create_game(store(), game, sample_seats(game.id))), "ok");
  ASSERT_EQ(describe(create_game(store(), ended, {})), "ok");

  auto loaded = load_game(store(), game.id);
  ASSERT_EQ(describe(loaded.status), "ok");
  ASSERT_TRUE(loaded.value);
  expect_same_game(*loaded.value, game);
  ASSERT_EQ(loaded.value->seed.size(), 32u);  // NUL and 0xFF bytes survive

  for (const SeatRecord& seat : sample_seats(game.id)) {
    auto found = find_seat(store(), game.id, seat.token_hash);
    ASSERT_EQ(describe(found.status), "ok");
    ASSERT_TRUE(found.value);
    EXPECT_EQ(found.value->game_id, game.id);
    EXPECT_EQ(found.value->seat, seat.seat);
    EXPECT_EQ(found.value->description, seat.description);
    EXPECT_EQ(found.value->token_hash, seat.token_hash);
  }
  auto seats = load_seats(store(), game.id);
  ASSERT_EQ(describe(seats.status), "ok");
  ASSERT_EQ(seats.value.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {  // sample seats are already in name order
    EXPECT_EQ(seats.value[i].game_id, game.id);
    EXPECT_EQ(seats.value[i].seat, sample_seats(game.id)[i].seat);
    EXPECT_EQ(seats.value[i].description, sample_seats(game.id)[i].description);
    EXPECT_EQ(seats.value[i].token_hash, sample_seats(game.id)[i].token_hash);
  }
  EXPECT_TRUE(load_seats(store(), ended.id).value.empty());

  auto listed = list_games(store());
  ASSERT_EQ(describe(listed.status), "ok");
  ASSERT_EQ(listed.value.size(), 2u);
  expect_same_game(listed.value[0], game);
  expect_same_game(listed.value[1], ended);
}

TEST_P(StoreConformance, GamesListByCreationTimeThenIdAndSeatsByName) {
  const std::vector<std::pair<std::string, std::int64_t>> made = {{"m", 20}, {"b", 30}, {"z", 10}, {"a", 20}};
  for (const auto& [id, when] : made) {
    GameRecord g = sample_game(id);
    g.created_unix = when;
    // Seats given out of name order, one without a game id (it takes the game's).
    std::vector<SeatRecord> seats = {{id, "west", "W", "t-w-" + id}, {"", "east", "E", "t-e-" + id}};
    ASSERT_EQ(describe(create_game(store(), g, seats)), "ok");
  }
  auto listed = list_games(store());
  ASSERT_EQ(describe(listed.status), "ok");
  std::vector<std::string> ids;
  for (const auto& g : listed.value) ids.push_back(g.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"z", "a", "m", "b"}));

  auto seats = load_seats(store(), "m").value;
  ASSERT_EQ(seats.size(), 2u);
  EXPECT_EQ(seats[0].seat, "east");
  EXPECT_EQ(seats[0].game_id, "m");
  EXPECT_EQ(seats[1].seat, "west");
}

TEST_P(StoreConformance, MissingGamesAndSeatsAnswerNulloptNotAnError) {
  ASSERT_TRUE(create_game(store(), sample_game("g"), sample_seats("g")).ok());

  // Absent is an answer, not a store failure: nullopt or empty, ok Status.
  auto game = load_game(store(), "nope");
  EXPECT_FALSE(game.value);
  EXPECT_EQ(describe(game.status), "ok");
  auto seat = find_seat(store(), "g", "wrong-token");
  EXPECT_FALSE(seat.value);
  EXPECT_EQ(describe(seat.status), "ok");
  auto no_game_seat = find_seat(store(), "nope", "aa11");
  EXPECT_FALSE(no_game_seat.value);
  EXPECT_EQ(describe(no_game_seat.status), "ok");
  // A real token of another game does not open this one.
  ASSERT_TRUE(create_game(store(), sample_game("h"), {{"h", "x", "X", "hh"}}).ok());
  EXPECT_FALSE(find_seat(store(), "g", "hh").value);

  for (const auto& answer : {load_steps(store(), "nope"), load_steps(store(), "g")}) {
    EXPECT_EQ(describe(answer.status), "ok");
    EXPECT_TRUE(answer.value.empty());
  }
  auto seats = load_seats(store(), "nope");
  EXPECT_EQ(describe(seats.status), "ok");
  EXPECT_TRUE(seats.value.empty());
  auto snaps = load_snapshots(store(), "nope", 5);
  EXPECT_EQ(describe(snaps.status), "ok");
  EXPECT_TRUE(snaps.value.empty());
}

TEST_P(StoreConformance, ADuplicateGameIdIsKConflictAndKeepsTheFirst) {
  ASSERT_EQ(describe(create_game(store(), sample_game("a"), sample_seats("a"))), "ok");
  GameRecord impostor = sample_game("a");
  impostor.title = "the impostor";
  const Status dup = create_game(store(), impostor, {{"a", "impostor-seat", "?", "zz"}});
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.error->kind, Kind::kConflict) << describe(dup);
  EXPECT_NE(dup.error->message.find("'a' already exists"), std::string::npos) << dup.error->message;
  expect_same_game(*load_game(store(), "a").value, sample_game("a"));
  EXPECT_FALSE(find_seat(store(), "a", "zz").value);
  EXPECT_EQ(load_seats(store(), "a").value.size(), 3u);
}

TEST_P(StoreConformance, ACreateGameWithBadSeatsIsKConflictAndLeavesNothing) {
  const Status twice = create_game(store(), sample_game("c"), {{"c", "s", "one", "t1"}, {"c", "s", "two", "t2"}});
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error->kind, Kind::kConflict) << describe(twice);
  const Status other = create_game(store(), sample_game("d"), {{"d", "s", "one", "t1"}, {"elsewhere", "t", "?", "t3"}});
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.error->kind, Kind::kConflict) << describe(other);

  // The whole write is gone, not only the bad seat: the ids are free again.
  EXPECT_FALSE(load_game(store(), "c").value);
  EXPECT_FALSE(find_seat(store(), "c", "t1").value);
  EXPECT_FALSE(load_game(store(), "d").value);
  EXPECT_TRUE(list_games(store()).value.empty());
  EXPECT_TRUE(due_games(store(), sample_game("c").wake_ms, 10).value.empty());
  EXPECT_EQ(describe(create_game(store(), sample_game("c"), sample_seats("c"))), "ok");
}

// ---- The log ----

TEST_P(StoreConformance, StepsComeBackInSeqOrderAfterAGivenSeq) {
  const std::uint64_t n = 40;
  ASSERT_TRUE(create_game(store(), sample_game("a")).ok());
  ASSERT_TRUE(create_game(store(), sample_game("b")).ok());
  Acks acks;
  // Interleaved across two games, queued without waiting.
  for (std::uint64_t seq = 1; seq <= n; ++seq) {
    store().append_step(sample_step("a", seq), acks.callback());
    store().append_step(sample_step("b", seq), acks.callback());
  }
  for (const Status& s : acks.wait_for(2 * n)) EXPECT_EQ(describe(s), "ok");

  auto all = load_steps(store(), "a", 0);
  ASSERT_EQ(describe(all.status), "ok");
  ASSERT_EQ(all.value.size(), n);
  for (std::uint64_t i = 0; i < n; ++i) expect_same_step(all.value[i], sample_step("a", i + 1));
  auto tail = load_steps(store(), "b", 35);
  ASSERT_EQ(tail.value.size(), 5u);
  EXPECT_EQ(tail.value.front().seq, 36u);
  EXPECT_EQ(tail.value.back().seq, 40u);
  EXPECT_TRUE(load_steps(store(), "b", n).value.empty());
  EXPECT_TRUE(load_steps(store(), "b", ~std::uint64_t{0}).value.empty());
}

TEST_P(StoreConformance, TheLogHasNoGapsNoRewritesAndNoOrphans) {
  ASSERT_TRUE(create_game(store(), sample_game("g")).ok());
  const auto before = store().stats();

  const Status orphan = append_step(store(), sample_step("no-such-game", 1));
  ASSERT_FALSE(orphan.ok());
  EXPECT_EQ(orphan.error->kind, Kind::kNotFound) << describe(orphan);
  const Status gap = append_step(store(), sample_step("g", 2));
  ASSERT_FALSE(gap.ok());
  EXPECT_EQ(gap.error->kind, Kind::kConflict) << describe(gap);
  const Status zero = append_step(store(), sample_step("g", 0));
  ASSERT_FALSE(zero.ok());
  EXPECT_EQ(zero.error->kind, Kind::kConflict) << describe(zero);

  StepRecord empty = sample_step("g", 1);
  empty.payload.clear();     // an empty payload is a value, not NULL
  empty.superseded = true;   // only a rewind supersedes: ignored on append
  EXPECT_EQ(describe(append_step(store(), empty)), "ok");
  const Status rewrite = append_step(store(), sample_step("g", 1));
  ASSERT_FALSE(rewrite.ok());
  EXPECT_EQ(rewrite.error->kind, Kind::kConflict) << describe(rewrite);
  EXPECT_EQ(describe(append_step(store(), sample_step("g", 2))), "ok");

  auto steps = load_steps(store(), "g");
  ASSERT_EQ(steps.value.size(), 2u);
  empty.superseded = false;
  expect_same_step(steps.value[0], empty);
  expect_same_step(steps.value[1], sample_step("g", 2));
  const auto after = store().stats();
  EXPECT_EQ(after.writes_failed - before.writes_failed, 4u);
  EXPECT_EQ(after.writes_committed - before.writes_committed, 2u);
}

// Writes from one thread are acknowledged in the order they were made, each
// with its own Status; a failing one changes nothing and fails alone.
TEST_P(StoreConformance, QueuedWritesAreAcknowledgedInOrderAndFailAlone) {
  GameRecord dup = sample_game("a");
  dup.title = "the impostor";
  std::vector<Status> got(7);
  std::vector<int> order;
  std::mutex mu;
  auto cb = [&](int i) {
    return [&, i](Status s) {
      std::lock_guard lock(mu);
      got[static_cast<std::size_t>(i)] = std::move(s);
      order.push_back(i);
    };
  };
  store().create_game(sample_game("a"), sample_seats("a"), cb(0));
  store().create_game(dup, {}, cb(1));                            // kConflict
  store().append_step(sample_step("a", 1), cb(2));
  store().mark_ended("nope", cb(3));                              // kNotFound
  store().append_step(sample_step("a", 3), cb(4));                // kConflict: 2 is next
  store().set_wake("a", 5'000, cb(5));
  store().append_step(sample_step("a", 2), cb(6));
  store().flush();
  std::lock_guard lock(mu);
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4, 5, 6}));
  std::vector<std::string> kinds;
  for (const Status& s : got) kinds.push_back(kind_of(s));
  EXPECT_EQ(kinds, (std::vector<std::string>{"ok", "kConflict", "ok", "kNotFound", "kConflict", "ok", "ok"}));
  EXPECT_EQ(load_game(store(), "a").value->title, sample_game("a").title);
  EXPECT_EQ(load_steps(store(), "a").value.size(), 2u);
  EXPECT_EQ(load_game(store(), "a").value->wake_ms, 5'000);
}

TEST_P(StoreConformance, ConcurrentWritersAreAllAcknowledgedAndKeepTheirOrder) {
  constexpr int kThreads = 8;
  constexpr std::uint64_t kSteps = 100;
  const auto before = store().stats();
  Acks acks;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      const std::string id = "game-" + std::to_string(t);
      // Each thread's game, then its steps, without waiting: the store keeps
      // one caller's order.
      store().create_game(sample_game(id), sample_seats(id), acks.callback());
      for (std::uint64_t seq = 1; seq <= kSteps; ++seq) store().append_step(sample_step(id, seq), acks.callback());
      store().set_wake(id, 1'000 + t, acks.callback());
    });
  }
  for (auto& th : threads) th.join();
  const std::size_t total = kThreads * (kSteps + 2);
  auto statuses = acks.wait_for(total);
  ASSERT_EQ(statuses.size(), total);
  for (const Status& s : statuses) ASSERT_EQ(describe(s), "ok");
  EXPECT_EQ(store().stats().writes_committed - before.writes_committed, total);

  EXPECT_EQ(list_games(store()).value.size(), static_cast<std::size_t>(kThreads));
  for (int t = 0; t < kThreads; ++t) {
    const std::string id = "game-" + std::to_string(t);
    auto steps = load_steps(store(), id);
    ASSERT_EQ(steps.value.size(), kSteps) << id;
    for (std::uint64_t i = 0; i < kSteps; ++i) ASSERT_EQ(steps.value[i].seq, i + 1);
    expect_same_step(steps.value.back(), sample_step(id, kSteps));
  }
  EXPECT_EQ(due_games(store(), 2'000, 100).value.size(), static_cast<std::size_t>(kThreads));
}

// ---- Callbacks, flush, close ----

TEST_P(StoreConformance, CallbacksMayIssueFurtherCallsAndFlush) {
  // A room chains work from callbacks: the next write or read from inside one.
  std::promise<std::optional<GameRecord>> loaded;
  store().create_game(sample_game("g"), {}, [&](Status s) {
    EXPECT_TRUE(s.ok());
    store().append_step(sample_step("g", 1), [&](Status s2) {
      EXPECT_TRUE(s2.ok());
      store().flush();  // from inside a callback: must not wait for itself
      store().load_game("g", [&](std::optional<GameRecord> g, Status) { loaded.set_value(std::move(g)); });
    });
  });
  auto f = loaded.get_future();
  ASSERT_EQ(f.wait_for(10s), std::future_status::ready);
  EXPECT_TRUE(f.get());
}

TEST_P(StoreConformance, FlushReturnsOnceEveryQueuedWriteIsAcknowledged) {
  store().flush();  // nothing queued: returns at once
  Acks acks;
  store().create_game(sample_game("g"), {}, acks.callback());
  for (std::uint64_t seq = 1; seq <= 10; ++seq) store().append_step(sample_step("g", seq), acks.callback());
  store().set_wake("g", 7, acks.callback());
  store().mark_ended("g", acks.callback());
  store().flush();
  EXPECT_EQ(acks.count(), 13u) << "flush returned before every queued write's callback ran";
  for (const Status& s : acks.wait_for(13)) EXPECT_EQ(describe(s), "ok");
  EXPECT_EQ(load_steps(store(), "g").value.size(), 10u);
}

TEST_P(StoreConformance, CloseAcknowledgesQueuedWritesThenEverythingAnswersKIo) {
  Acks acks;
  store().create_game(sample_game("g"), sample_seats("g"), acks.callback());
  for (std::uint64_t seq = 1; seq <= 20; ++seq) store().append_step(sample_step("g", seq), acks.callback());
  store().close();
  auto statuses = acks.wait_for(21, 1s);
  ASSERT_EQ(statuses.size(), 21u);
  for (const Status& s : statuses) EXPECT_EQ(describe(s), "ok");

  auto is_kio = [](const Status& s) { return s.error && s.error->kind == Kind::kIo; };
  EXPECT_TRUE(is_kio(create_game(store(), sample_game("late"))));
  EXPECT_TRUE(is_kio(append_step(store(), sample_step("g", 21))));
  EXPECT_TRUE(is_kio(mark_ended(store(), "g")));
  EXPECT_TRUE(is_kio(set_wake(store(), "g", 5)));
  EXPECT_TRUE(is_kio(append_snapshot(store(), sample_snapshot("g", 3, 1))));
  RewindRecord r;
  r.game_id = "g";
  r.after_seq = 1;
  r.entry = sample_step("g", 21);
  EXPECT_TRUE(is_kio(rewind(store(), r)));
  EXPECT_TRUE(is_kio(load_game(store(), "g").status));
  EXPECT_TRUE(is_kio(list_games(store()).status));
  EXPECT_TRUE(is_kio(find_seat(store(), "g", "aa11").status));
  EXPECT_TRUE(is_kio(load_seats(store(), "g").status));
  EXPECT_TRUE(is_kio(load_steps(store(), "g").status));
  EXPECT_TRUE(is_kio(load_snapshots(store(), "g", 1).status));
  EXPECT_TRUE(is_kio(due_games(store(), 1LL << 62, 10).status));
  EXPECT_FALSE(load_game(store(), "g").value);
  store().flush();  // no-ops, no hang
  store().close();
}

// ---- mark_ended ----

TEST_P(StoreConformance, MarkEndedIsIdempotentAndTouchesOnlyThatGamesFlag) {
  game_with_steps("g1", 3);
  ASSERT_TRUE(create_game(store(), sample_game("g2")).ok());
  EXPECT_FALSE(load_game(store(), "g1").value->ended);
  EXPECT_EQ(describe(mark_ended(store(), "g1")), "ok");
  EXPECT_EQ(describe(mark_ended(store(), "g1")), "ok") << "marking twice is harmless";

  GameRecord expected = sample_game("g1");
  expected.ended = true;  // and nothing else: the wake-up is the server's to clear
  expect_same_game(*load_game(store(), "g1").value, expected);
  EXPECT_FALSE(load_game(store(), "g2").value->ended) << "only the game named";
  EXPECT_EQ(load_steps(store(), "g1").value.size(), 3u) << "the log is untouched";
}

TEST_P(StoreConformance, MarkEndedOfAnUnknownGameIsKNotFoundAndFailsAlone) {
  ASSERT_TRUE(create_game(store(), sample_game("g1")).ok());
  Acks acks;
  store().mark_ended("nope", acks.callback());
  store().append_step(sample_step("g1", 1), acks.callback());
  const auto statuses = acks.wait_for(2);
  ASSERT_FALSE(statuses[0].ok());
  EXPECT_EQ(statuses[0].error->kind, Kind::kNotFound) << describe(statuses[0]);
  EXPECT_EQ(describe(statuses[1]), "ok");
  EXPECT_FALSE(load_game(store(), "nope").value);
}

// ---- Snapshots and rewind ----

TEST_P(StoreConformance, SnapshotsRoundTripComeBackByTurnAndReplaceTheSameSeq) {
  game_with_steps("g1", 12);  // resolves at 3, 6, 9, 12
  ASSERT_EQ(describe(append_snapshot(store(), sample_snapshot("g1", 3, 1))), "ok");
  ASSERT_EQ(describe(append_snapshot(store(), sample_snapshot("g1", 6, 2))), "ok");
  ASSERT_EQ(describe(append_snapshot(store(), sample_snapshot("g1", 9, 2))), "ok");
  ASSERT_EQ(describe(append_snapshot(store(), sample_snapshot("g1", 12, 3))), "ok");

  auto latest = load_snapshots(store(), "g1", 0);
  ASSERT_EQ(describe(latest.status), "ok");
  EXPECT_EQ(seqs(latest.value), (std::vector<std::uint64_t>{12}));
  const SnapshotRecord& s = latest.value.front();
  const SnapshotRecord want = sample_snapshot("g1", 12, 3);
  EXPECT_EQ(s.game_id, "g1");
  EXPECT_EQ(s.turn, 3u);
  EXPECT_EQ(s.state_hash, want.state_hash);
  EXPECT_EQ(s.state, want.state);
  EXPECT_TRUE(s.turn_start);
  EXPECT_FALSE(load_snapshots(store(), "g1", 1).value.at(1).turn_start);  // seq 9
  EXPECT_EQ(seqs(load_snapshots(store(), "g1", 1).value), (std::vector<std::uint64_t>{6, 9, 12}));
  EXPECT_EQ(seqs(load_snapshots(store(), "g1", 2).value), (std::vector<std::uint64_t>{3, 6, 9, 12}));
  EXPECT_EQ(seqs(load_snapshots(store(), "g1", ~std::uint32_t{0}).value), (std::vector<std::uint64_t>{3, 6, 9, 12}));

  // The same entry's snapshot again replaces it (a restarted server may
  // snapshot a state it already had).
  SnapshotRecord again = sample_snapshot("g1", 12, 3);
  again.state = {1, 2, 3};
  again.turn_start = false;
  ASSERT_EQ(describe(append_snapshot(store(), again)), "ok");
  auto replaced = load_snapshots(store(), "g1", 0).value;
  ASSERT_EQ(replaced.size(), 1u);
  EXPECT_EQ(replaced.front().state, (std::vector<std::uint8_t>{1, 2, 3}));
  EXPECT_FALSE(replaced.front().turn_start);
  EXPECT_EQ(load_snapshots(store(), "g1", 100).value.size(), 4u);
}

TEST_P(StoreConformance, ASnapshotNeedsALiveResolutionInTheLogAndFailsAlone) {
  game_with_steps("g1", 3);  // 3 is a resolve
  Acks acks;
  store().append_snapshot(sample_snapshot("g1", 9, 1), acks.callback());    // no entry 9
  store().append_snapshot(sample_snapshot("nope", 3, 1), acks.callback());  // no game
  store().append_snapshot(sample_snapshot("g1", 2, 1), acks.callback());    // an answer
  store().append_snapshot(sample_snapshot("g1", 3, 1), acks.callback());
  const auto st = acks.wait_for(4);
  ASSERT_FALSE(st[0].ok());
  EXPECT_EQ(st[0].error->kind, Kind::kNotFound) << describe(st[0]);
  EXPECT_NE(st[0].error->message.find("no log entry 9"), std::string::npos) << st[0].error->message;
  ASSERT_FALSE(st[1].ok());
  EXPECT_EQ(st[1].error->kind, Kind::kNotFound) << describe(st[1]);
  ASSERT_FALSE(st[2].ok());
  EXPECT_EQ(st[2].error->kind, Kind::kConflict) << describe(st[2]);
  EXPECT_EQ(describe(st[3]), "ok");
  EXPECT_EQ(seqs(load_snapshots(store(), "g1", 9).value), (std::vector<std::uint64_t>{3}));
}

TEST_P(StoreConformance, RewindSupersedesOnlyTheNamedKindsAfterItsSeqAndDropsLaterSnapshots) {
  game_with_steps("g1", 9);
  StepRecord chat = sample_step("g1", 10);
  chat.kind = "chat";
  ASSERT_EQ(describe(append_step(store(), chat)), "ok");
  ASSERT_EQ(describe(append_snapshot(store(), sample_snapshot("g1", 3, 1))), "ok");
  ASSERT_EQ(describe(append_snapshot(store(), sample_snapshot("g1", 6, 2))), "ok");
  ASSERT_EQ(describe(append_snapshot(store(), sample_snapshot("g1", 9, 2))), "ok");

  RewindRecord r;
  r.game_id = "g1";
  r.after_seq = 3;
  r.kinds = {"resolve", "answer"};
  r.entry = sample_step("g1", 11);
  r.entry.kind = "umpire";
  ASSERT_EQ(describe(rewind(store(), r)), "ok");

  auto log = load_steps(store(), "g1");
  ASSERT_EQ(describe(log.status), "ok");
  ASSERT_EQ(log.value.size(), 11u);
  for (const auto& e : log.value) {
    const bool expected = e.seq > 3 && (e.kind == "resolve" || e.kind == "answer");
    EXPECT_EQ(e.superseded, expected) << "entry " << e.seq << " " << e.kind;
  }
  EXPECT_FALSE(log.value[9].superseded);  // the chat stays
  expect_same_step(log.value.back(), r.entry);
  EXPECT_EQ(seqs(load_snapshots(store(), "g1", 100).value), (std::vector<std::uint64_t>{3}));
  // A superseded resolution takes no snapshot.
  const Status superseded = append_snapshot(store(), sample_snapshot("g1", 6, 2));
  ASSERT_FALSE(superseded.ok());
  EXPECT_EQ(superseded.error->kind, Kind::kConflict) << describe(superseded);

  // A second rewind to the same point: entries already superseded stay so,
  // the first rewind's own entry is kept unless its kind is named.
  RewindRecord again = r;
  again.after_seq = 3;
  again.kinds = {"resolve"};
  again.entry = sample_step("g1", 12);
  again.entry.kind = "umpire";
  ASSERT_EQ(describe(rewind(store(), again)), "ok");
  log = load_steps(store(), "g1");
  ASSERT_EQ(log.value.size(), 12u);
  EXPECT_FALSE(log.value[10].superseded);
  EXPECT_TRUE(log.value[3].superseded);
  // The log goes on after the rewind's entry.
  EXPECT_EQ(describe(append_step(store(), sample_step("g1", 13))), "ok");
}

TEST_P(StoreConformance, ARewindThatCannotCompleteChangesNothing) {
  game_with_steps("g1", 3);
  ASSERT_EQ(describe(append_snapshot(store(), sample_snapshot("g1", 3, 1))), "ok");
  RewindRecord r;
  r.game_id = "g1";
  r.after_seq = 1;
  r.kinds = {"resolve", "answer"};
  r.entry = sample_step("g1", 7);  // not the next seq (4)
  r.entry.kind = "umpire";
  auto rewind_kind = [&](RewindRecord rec) { return kind_of(rewind(store(), std::move(rec))); };
  const Status gap = rewind(store(), r);
  ASSERT_FALSE(gap.ok());
  EXPECT_EQ(gap.error->kind, Kind::kConflict) << describe(gap);

  RewindRecord forward = r;
  forward.entry = sample_step("g1", 4);
  forward.after_seq = 4;  // a rewind must go back
  EXPECT_EQ(rewind_kind(forward), "kConflict");
  RewindRecord other_game = forward;
  other_game.after_seq = 1;
  other_game.entry.game_id = "g2";  // the entry must be the rewound game's
  EXPECT_EQ(rewind_kind(other_game), "kConflict");
  RewindRecord unknown = forward;
  unknown.game_id = "nope";
  unknown.entry.game_id = "nope";
  unknown.after_seq = 0;
  unknown.entry.seq = 1;
  EXPECT_EQ(rewind_kind(unknown), "kNotFound");

  auto log = load_steps(store(), "g1").value;
  ASSERT_EQ(log.size(), 3u);
  for (const auto& e : log) EXPECT_FALSE(e.superseded) << e.seq;
  EXPECT_EQ(seqs(load_snapshots(store(), "g1", 9).value), (std::vector<std::uint64_t>{3}));
  EXPECT_FALSE(load_game(store(), "nope").value);
}

// ---- Wake-ups ----

TEST_P(StoreConformance, AWakeUpIsSetOverwrittenAndClearedAndReadsBack) {
  GameRecord g = sample_game("g");
  g.wake_ms = 1'000;
  ASSERT_EQ(describe(create_game(store(), g)), "ok");
  GameRecord never = sample_game("never");
  never.wake_ms = 0;
  ASSERT_EQ(describe(create_game(store(), never)), "ok");
  EXPECT_EQ(load_game(store(), "g").value->wake_ms, 1'000);
  EXPECT_EQ(load_game(store(), "never").value->wake_ms, 0);

  EXPECT_EQ(describe(set_wake(store(), "g", 5'000)), "ok");
  EXPECT_EQ(load_game(store(), "g").value->wake_ms, 5'000);
  EXPECT_EQ(describe(set_wake(store(), "g", 2'000)), "ok");  // earlier is fine: a deadline moved up
  EXPECT_EQ(load_game(store(), "g").value->wake_ms, 2'000);
  EXPECT_EQ(describe(set_wake(store(), "g", 2'000)), "ok");  // the same value again
  for (const GameRecord& listed : list_games(store()).value) {
    EXPECT_EQ(listed.wake_ms, listed.id == "g" ? 2'000 : 0) << listed.id;
  }
  EXPECT_EQ(describe(set_wake(store(), "g", 0)), "ok");
  EXPECT_EQ(load_game(store(), "g").value->wake_ms, 0);
  EXPECT_TRUE(due_games(store(), std::numeric_limits<std::int64_t>::max(), 10).value.empty());

  // "Never" has one spelling: a negative wake-up is stored as 0.
  EXPECT_EQ(describe(set_wake(store(), "g", -5)), "ok");
  EXPECT_EQ(load_game(store(), "g").value->wake_ms, 0);
  GameRecord negative = sample_game("negative");
  negative.wake_ms = -1;
  ASSERT_EQ(describe(create_game(store(), negative)), "ok");
  EXPECT_EQ(load_game(store(), "negative").value->wake_ms, 0);
  EXPECT_TRUE(due_games(store(), std::numeric_limits<std::int64_t>::max(), 10).value.empty());

  // Only the wake-up changes.
  GameRecord expected = sample_game("g");
  expected.wake_ms = 0;
  expect_same_game(*load_game(store(), "g").value, expected);
}

TEST_P(StoreConformance, ASetWakeOfAnUnknownGameIsKNotFoundAndFailsAlone) {
  ASSERT_TRUE(create_game(store(), sample_game("g")).ok());
  Acks acks;
  store().set_wake("nope", 100, acks.callback());
  store().set_wake("g", 100, acks.callback());
  const auto st = acks.wait_for(2);
  ASSERT_FALSE(st[0].ok());
  EXPECT_EQ(st[0].error->kind, Kind::kNotFound) << describe(st[0]);
  EXPECT_EQ(describe(st[1]), "ok");
  const auto due = due_games(store(), 1'000, 10).value;
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].game_id, "g");
  EXPECT_FALSE(load_game(store(), "nope").value);
}

TEST_P(StoreConformance, DueGamesAreTheDueOnesSoonestFirstUpToTheLimit) {
  // id → wake_ms; "c" and "a" tie and come in id order.
  const std::vector<std::pair<std::string, std::int64_t>> wakes = {
      {"e", 500}, {"c", 200}, {"never", 0}, {"a", 200}, {"d", 300}, {"b", 100}, {"later", 10'000}};
  for (const auto& [id, wake] : wakes) {
    ASSERT_EQ(describe(create_game(store(), sample_game(id))), "ok");
    ASSERT_EQ(describe(set_wake(store(), id, wake)), "ok");
  }
  auto ids = [](const std::vector<GameWake>& v) {
    std::vector<std::string> out;
    for (const auto& w : v) out.push_back(w.game_id + "@" + std::to_string(w.wake_ms));
    return out;
  };
  auto due = due_games(store(), 500, 100);
  ASSERT_EQ(describe(due.status), "ok");
  EXPECT_EQ(ids(due.value), (std::vector<std::string>{"b@100", "a@200", "c@200", "d@300", "e@500"}))
      << "at or before until_ms, soonest first, ties by id";
  EXPECT_EQ(ids(due_games(store(), 499, 100).value), (std::vector<std::string>{"b@100", "a@200", "c@200", "d@300"}));
  EXPECT_EQ(ids(due_games(store(), 500, 2).value), (std::vector<std::string>{"b@100", "a@200"}));
  EXPECT_EQ(ids(due_games(store(), 500, 3).value), (std::vector<std::string>{"b@100", "a@200", "c@200"}));
  EXPECT_TRUE(due_games(store(), 500, 0).value.empty());
  EXPECT_TRUE(due_games(store(), 99, 100).value.empty());
  EXPECT_TRUE(due_games(store(), 0, 100).value.empty()) << "0 is never, not the distant past";
  EXPECT_TRUE(due_games(store(), -1, 100).value.empty());
  EXPECT_EQ(due_games(store(), std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::size_t>::max())
                .value.size(),
            6u);

  // A game that has woken and is set again moves; one cleared drops out.
  ASSERT_EQ(describe(set_wake(store(), "b", 400)), "ok");
  ASSERT_EQ(describe(set_wake(store(), "a", 0)), "ok");
  EXPECT_EQ(ids(due_games(store(), 500, 100).value), (std::vector<std::string>{"c@200", "d@300", "b@400", "e@500"}));
  // Ended games stay due until the server clears their wake-up.
  ASSERT_EQ(describe(mark_ended(store(), "c")), "ok");
  EXPECT_EQ(due_games(store(), 200, 100).value.size(), 1u);
}

// set_wake goes through the same queue as the log: queued right after the
// game's creation and between its entries, it lands in order.
TEST_P(StoreConformance, SetWakeIsOrderedWithTheGamesWrites) {
  Acks acks;
  store().create_game(sample_game("g"), {}, acks.callback());
  store().set_wake("g", 300, acks.callback());
  store().append_step(sample_step("g", 1), acks.callback());
  store().set_wake("g", 100, acks.callback());
  store().append_step(sample_step("g", 2), acks.callback());
  for (const Status& s : acks.wait_for(5)) EXPECT_EQ(describe(s), "ok");
  EXPECT_EQ(load_game(store(), "g").value->wake_ms, 100);
  EXPECT_EQ(load_steps(store(), "g").value.size(), 2u);
  const auto due = due_games(store(), 100, 10).value;
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].game_id, "g");
  EXPECT_EQ(due[0].wake_ms, 100);
}

INSTANTIATE_TEST_SUITE_P(Stores, StoreConformance, ::testing::Values(kSqliteFile, kSqliteGroupCommit, kMemory),
                         [](const ::testing::TestParamInfo<StoreFactory>& info) { return info.param.name; });

}  // namespace
}  // namespace galloper::persistence
