// The SQLite store: durability across reopen, the log's rules, group commit,
// flush/close, concurrency, damaged files, backup. Every test uses real files
// in a fresh temporary directory: WAL and fsync behaviour are the point.
#include "persistence/sqlite_store.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <fstream>
#include <mutex>
#include <random>
#include <thread>

#include "persistence/sqlite.hpp"
#include "tests/persistence/test_util.hpp"

namespace galloper::persistence {
namespace {

using namespace galloper::persistence::testing;
using Kind = StoreError::Kind;
using namespace std::chrono_literals;

// Counts callbacks and lets a test wait for a number of them.
class Acks {
 public:
  std::function<void(Status)> callback() {
    return [this](Status s) {
      std::lock_guard lock(mu_);
      statuses_.push_back(std::move(s));
      cv_.notify_all();
    };
  }
  std::vector<Status> wait_for(std::size_t n, std::chrono::seconds limit = 30s) {
    std::unique_lock lock(mu_);
    EXPECT_TRUE(cv_.wait_for(lock, limit, [&] { return statuses_.size() >= n; }))
        << "only " << statuses_.size() << " of " << n << " callbacks ran";
    return statuses_;
  }
  std::size_t count() {
    std::lock_guard lock(mu_);
    return statuses_.size();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Status> statuses_;
};

class SqliteStoreTest : public ::testing::Test {
 protected:
  std::filesystem::path file() const { return dir / "data" / "galloper.db"; }
  TempDir dir;
};

TEST_F(SqliteStoreTest, CreatesParentDirectoriesAndSetsPragmas) {
  auto store = open_or_fail(file());
  ASSERT_TRUE(store);
  EXPECT_TRUE(std::filesystem::exists(file()));
  sqlite::Database db(file(), sqlite::OpenFlags::kReadOnly);
  EXPECT_EQ(db.pragma("journal_mode"), "wal");
}

TEST_F(SqliteStoreTest, CreatedGameSurvivesRestartWithEveryField) {
  const GameRecord game = sample_game("blenheim-1");
  GameRecord ended = sample_game("ramillies-1");
  ended.ended = true;
  ended.created_unix = 1'800'000'000;
  ended.turn = 0;
  ended.phase = "";
  {
    auto store = open_or_fail(file());
    ASSERT_TRUE(store);
    ASSERT_EQ(describe(create_game(*store, game, sample_seats(game.id))), "ok");
    ASSERT_EQ(describe(create_game(*store, ended, {})), "ok");
  }
  auto store = open_or_fail(file());
  ASSERT_TRUE(store);

  auto loaded = load_game(*store, game.id);
  ASSERT_EQ(describe(loaded.status), "ok");
  ASSERT_TRUE(loaded.value);
  expect_same_game(*loaded.value, game);
  ASSERT_EQ(loaded.value->seed.size(), 32u);
  EXPECT_EQ(loaded.value->seed, game.seed);

  for (const SeatRecord& seat : sample_seats(game.id)) {
    auto found = find_seat(*store, game.id, seat.token_hash);
    ASSERT_EQ(describe(found.status), "ok");
    ASSERT_TRUE(found.value);
    EXPECT_EQ(found.value->game_id, game.id);
    EXPECT_EQ(found.value->seat, seat.seat);
    EXPECT_EQ(found.value->description, seat.description);
    EXPECT_EQ(found.value->token_hash, seat.token_hash);
  }

  auto seats = load_seats(*store, game.id);
  ASSERT_EQ(describe(seats.status), "ok");
  ASSERT_EQ(seats.value.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {  // sample seats are already in name order
    EXPECT_EQ(seats.value[i].game_id, game.id);
    EXPECT_EQ(seats.value[i].seat, sample_seats(game.id)[i].seat);
    EXPECT_EQ(seats.value[i].description, sample_seats(game.id)[i].description);
    EXPECT_EQ(seats.value[i].token_hash, sample_seats(game.id)[i].token_hash);
  }
  EXPECT_TRUE(load_seats(*store, ended.id).value.empty());

  auto listed = list_games(*store);
  ASSERT_EQ(describe(listed.status), "ok");
  ASSERT_EQ(listed.value.size(), 2u);
  expect_same_game(listed.value[0], game);  // oldest first
  expect_same_game(listed.value[1], ended);
}

TEST_F(SqliteStoreTest, MissingGamesAndSeatsAnswerNulloptNotAnError) {
  auto store = open_or_fail(file());
  ASSERT_TRUE(store);
  ASSERT_TRUE(create_game(*store, sample_game("g"), sample_seats("g")).ok());

  // Absent is an answer, not a store failure: nullopt with an ok Status.
  auto game = load_game(*store, "nope");
  EXPECT_FALSE(game.value);
  EXPECT_EQ(describe(game.status), "ok");

  auto seat = find_seat(*store, "g", "wrong-token");
  EXPECT_FALSE(seat.value);
  EXPECT_EQ(describe(seat.status), "ok");
  // A real token for another game does not open this one.
  ASSERT_TRUE(create_game(*store, sample_game("h"), {{"h", "x", "X", "hh"}}).ok());
  EXPECT_FALSE(find_seat(*store, "g", "hh").value);

  auto steps = load_steps(*store, "nope");
  EXPECT_EQ(describe(steps.status), "ok");
  EXPECT_TRUE(steps.value.empty());
}

TEST_F(SqliteStoreTest, StepsComeBackInOrderAfterAGivenSeq) {
  const std::uint64_t n = 40;
  {
    auto store = open_or_fail(file());
    ASSERT_TRUE(store);
    ASSERT_TRUE(create_game(*store, sample_game("a")).ok());
    ASSERT_TRUE(create_game(*store, sample_game("b")).ok());
    Acks acks;
    // Interleaved across two games, queued without waiting.
    for (std::uint64_t seq = 1; seq <= n; ++seq) {
      store->append_step(sample_step("a", seq), acks.callback());
      store->append_step(sample_step("b", seq), acks.callback());
    }
    for (const Status& s : acks.wait_for(2 * n)) EXPECT_EQ(describe(s), "ok");
  }
  auto store = open_or_fail(file());
  ASSERT_TRUE(store);
  auto all = load_steps(*store, "a", 0);
  ASSERT_EQ(describe(all.status), "ok");
  ASSERT_EQ(all.value.size(), n);
  for (std::uint64_t i = 0; i < n; ++i) expect_same_step(all.value[i], sample_step("a", i + 1));

  auto tail = load_steps(*store, "b", 35);
  ASSERT_EQ(tail.value.size(), 5u);
  EXPECT_EQ(tail.value.front().seq, 36u);
  EXPECT_EQ(tail.value.back().seq, 40u);
  EXPECT_TRUE(load_steps(*store, "b", n).value.empty());
  EXPECT_TRUE(load_steps(*store, "b", ~std::uint64_t{0}).value.empty());
}

TEST_F(SqliteStoreTest, TheLogHasNoGapsNoRewritesAndNoOrphans) {
  auto store = open_or_fail(file());
  ASSERT_TRUE(store);
  ASSERT_TRUE(create_game(*store, sample_game("g")).ok());

  Status orphan = append_step(*store, sample_step("no-such-game", 1));
  ASSERT_FALSE(orphan.ok());
  EXPECT_EQ(orphan.error->kind, Kind::kNotFound) << orphan.error->message;

  Status gap = append_step(*store, sample_step("g", 2));
  ASSERT_FALSE(gap.ok());
  EXPECT_EQ(gap.error->kind, Kind::kConflict) << gap.error->message;

  Status zero = append_step(*store, sample_step("g", 0));
  ASSERT_FALSE(zero.ok());
  EXPECT_EQ(zero.error->kind, Kind::kConflict);

  StepRecord empty = sample_step("g", 1);
  empty.payload.clear();  // an empty payload is a value, not NULL
  EXPECT_EQ(describe(append_step(*store, empty)), "ok");

  Status rewrite = append_step(*store, sample_step("g", 1));
  ASSERT_FALSE(rewrite.ok());
  EXPECT_EQ(rewrite.error->kind, Kind::kConflict);

  EXPECT_EQ(describe(append_step(*store, sample_step("g", 2))), "ok");
  auto steps = load_steps(*store, "g");
  ASSERT_EQ(steps.value.size(), 2u);
  expect_same_step(steps.value[0], empty);
  EXPECT_EQ(store->stats().writes_failed, 4u);
}

// Four writes fill one batch (max_batch 4, a long delay): the duplicate id and
// the game with a repeated seat fail alone; the others in the same transaction
// commit.
TEST_F(SqliteStoreTest, AFailingWriteDoesNotFailItsBatch) {
  StoreOptions options;
  options.max_batch = 5;
  options.max_delay_us = 10'000'000;
  {
    auto store = open_or_fail(file(), options);
    ASSERT_TRUE(store);
    const auto before = store->stats();

    GameRecord dup = sample_game("a");
    dup.title = "the impostor";
    std::vector<SeatRecord> twice = {{"c", "s", "one", "t1"}, {"c", "s", "two", "t2"}};
    Acks acks;
    store->create_game(sample_game("a"), sample_seats("a"), acks.callback());
    store->create_game(dup, {{"a", "impostor-seat", "?", "zz"}}, acks.callback());
    store->create_game(sample_game("c"), twice, acks.callback());  // game row goes in, then the seat fails
    store->create_game(sample_game("b"), sample_seats("b"), acks.callback());
    store->append_step(sample_step("a", 1), acks.callback());
    auto statuses = acks.wait_for(5);
    ASSERT_EQ(statuses.size(), 5u);
    EXPECT_EQ(describe(statuses[0]), "ok");
    ASSERT_FALSE(statuses[1].ok());
    EXPECT_EQ(statuses[1].error->kind, Kind::kConflict) << statuses[1].error->message;
    EXPECT_NE(statuses[1].error->message.find("'a' already exists"), std::string::npos);
    ASSERT_FALSE(statuses[2].ok());
    EXPECT_EQ(statuses[2].error->kind, Kind::kConflict) << statuses[2].error->message;
    EXPECT_EQ(describe(statuses[3]), "ok");
    EXPECT_EQ(describe(statuses[4]), "ok");

    const auto after = store->stats();
    EXPECT_EQ(after.transactions_committed - before.transactions_committed, 1u) << "the five were not one batch";
    EXPECT_EQ(after.largest_batch, 5u);
    EXPECT_EQ(after.writes_committed - before.writes_committed, 3u);
    EXPECT_EQ(after.writes_failed - before.writes_failed, 2u);
  }
  auto store = open_or_fail(file());
  ASSERT_TRUE(store);
  auto a = load_game(*store, "a");
  ASSERT_TRUE(a.value);
  expect_same_game(*a.value, sample_game("a"));  // not the impostor
  EXPECT_FALSE(find_seat(*store, "a", "zz").value);
  EXPECT_FALSE(load_game(*store, "c").value);  // the whole write rolled back, not just the seat
  EXPECT_FALSE(find_seat(*store, "c", "t1").value);
  EXPECT_TRUE(load_game(*store, "b").value);
  EXPECT_EQ(load_steps(*store, "a").value.size(), 1u);
  EXPECT_EQ(list_games(*store).value.size(), 2u);
}

TEST_F(SqliteStoreTest, ManyConcurrentWritersAreAllAcknowledgedAndDurable) {
  constexpr int kThreads = 8;
  constexpr std::uint64_t kSteps = 250;
  {
    auto store = open_or_fail(file());
    ASSERT_TRUE(store);
    Acks acks;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&, t] {
        const std::string id = "game-" + std::to_string(t);
        // Each thread's game, then its steps, queued without waiting: one
        // writer keeps their order.
        store->create_game(sample_game(id), sample_seats(id), acks.callback());
        for (std::uint64_t seq = 1; seq <= kSteps; ++seq) store->append_step(sample_step(id, seq), acks.callback());
      });
    }
    for (auto& th : threads) th.join();
    auto statuses = acks.wait_for(kThreads * (kSteps + 1));
    ASSERT_EQ(statuses.size(), kThreads * (kSteps + 1));
    for (const Status& s : statuses) ASSERT_EQ(describe(s), "ok");
    EXPECT_EQ(store->stats().writes_committed, kThreads * (kSteps + 1));
  }
  auto store = open_or_fail(file());
  ASSERT_TRUE(store);
  EXPECT_EQ(list_games(*store).value.size(), static_cast<std::size_t>(kThreads));
  for (int t = 0; t < kThreads; ++t) {
    const std::string id = "game-" + std::to_string(t);
    auto steps = load_steps(*store, id);
    ASSERT_EQ(steps.value.size(), kSteps) << id;
    for (std::uint64_t i = 0; i < kSteps; ++i) ASSERT_EQ(steps.value[i].seq, i + 1);
    expect_same_step(steps.value.back(), sample_step(id, kSteps));
  }
}

TEST_F(SqliteStoreTest, GroupCommitBatchesQueuedWrites) {
  StoreOptions options;
  options.max_batch = 256;
  options.max_delay_us = 50'000;  // long enough for all 1000 to be queued
  auto store = open_or_fail(file(), options);
  ASSERT_TRUE(store);
  ASSERT_TRUE(create_game(*store, sample_game("g")).ok());
  const auto before = store->stats().transactions_committed;
  Acks acks;
  for (std::uint64_t seq = 1; seq <= 1000; ++seq) store->append_step(sample_step("g", seq), acks.callback());
  for (const Status& s : acks.wait_for(1000)) ASSERT_EQ(describe(s), "ok");
  const auto stats = store->stats();
  const auto commits = stats.transactions_committed - before;
  EXPECT_GE(commits, 4u);  // max_batch bounds a batch
  EXPECT_LE(commits, 20u) << "1000 writes took " << commits << " commits";
  EXPECT_EQ(stats.largest_batch, 256u);
  EXPECT_EQ(load_steps(*store, "g").value.size(), 1000u);
}

TEST_F(SqliteStoreTest, WithoutBatchingEachWriteIsItsOwnCommit) {
  // The counter above means something: max_batch 1 gives one commit per write.
  StoreOptions options;
  options.max_batch = 1;
  options.max_delay_us = 0;
  auto store = open_or_fail(file(), options);
  ASSERT_TRUE(store);
  ASSERT_TRUE(create_game(*store, sample_game("g")).ok());
  const auto before = store->stats().transactions_committed;
  Acks acks;
  for (std::uint64_t seq = 1; seq <= 30; ++seq) store->append_step(sample_step("g", seq), acks.callback());
  acks.wait_for(30);
  EXPECT_EQ(store->stats().transactions_committed - before, 30u);
}

TEST_F(SqliteStoreTest, FlushReturnsOnceQueuedWritesAreCommittedWithoutWaitingOutTheDelay) {
  StoreOptions options;
  options.max_delay_us = 30'000'000;  // 30 s: only a flush gets these written soon
  auto store = open_or_fail(file(), options);
  ASSERT_TRUE(store);
  const auto t0 = std::chrono::steady_clock::now();
  store->flush();  // nothing queued: returns at once
  Acks acks;
  store->create_game(sample_game("g"), {}, acks.callback());
  for (std::uint64_t seq = 1; seq <= 10; ++seq) store->append_step(sample_step("g", seq), acks.callback());
  EXPECT_LT(acks.count(), 11u);
  store->flush();
  EXPECT_EQ(acks.count(), 11u) << "flush returned before every queued write's callback ran";
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 10s);
  // On disk, as another connection sees it.
  sqlite::Database other(file(), sqlite::OpenFlags::kReadOnly);
  sqlite::Statement count(other, "SELECT count(*) FROM steps");
  ASSERT_TRUE(count.step());
  EXPECT_EQ(count.column_int64(0), 10);
}

TEST_F(SqliteStoreTest, CloseDrainsTheQueueThenEverythingAnswersKIo) {
  StoreOptions options;
  options.max_delay_us = 30'000'000;
  auto opened = open_sqlite_store(file(), options);
  ASSERT_TRUE(opened.store) << describe(opened.error);
  Store& store = *opened.store;
  Acks acks;
  store.create_game(sample_game("g"), {}, acks.callback());
  for (std::uint64_t seq = 1; seq <= 100; ++seq) store.append_step(sample_step("g", seq), acks.callback());
  store.close();
  auto statuses = acks.wait_for(101, 1s);
  ASSERT_EQ(statuses.size(), 101u);
  for (const Status& s : statuses) EXPECT_EQ(describe(s), "ok");

  Status late = create_game(store, sample_game("late"));
  ASSERT_FALSE(late.ok());
  EXPECT_EQ(late.error->kind, Kind::kIo);
  EXPECT_EQ(append_step(store, sample_step("g", 101)).error->kind, Kind::kIo);
  EXPECT_EQ(load_game(store, "g").status.error->kind, Kind::kIo);
  EXPECT_EQ(list_games(store).status.error->kind, Kind::kIo);
  EXPECT_EQ(find_seat(store, "g", "x").status.error->kind, Kind::kIo);
  EXPECT_EQ(load_steps(store, "g").status.error->kind, Kind::kIo);
  EXPECT_EQ(load_seats(store, "g").status.error->kind, Kind::kIo);
  EXPECT_EQ(backup_to(store, dir / "b.db").error->kind, Kind::kIo);
  store.flush();  // no-ops, no hang
  store.close();
  opened.store.reset();

  EXPECT_FALSE(std::filesystem::exists(dir / "data" / "galloper.db-wal")) << "the WAL was not checkpointed at close";
  auto again = open_or_fail(file());
  ASSERT_TRUE(again);
  EXPECT_EQ(load_steps(*again, "g").value.size(), 100u);
  EXPECT_FALSE(load_game(*again, "late").value);
}

TEST_F(SqliteStoreTest, DestructorClosesAndKeepsQueuedWrites) {
  StoreOptions options;
  options.max_delay_us = 30'000'000;
  Acks acks;
  {
    auto store = open_or_fail(file(), options);
    ASSERT_TRUE(store);
    store->create_game(sample_game("g"), {}, acks.callback());
    store->append_step(sample_step("g", 1), acks.callback());
  }
  EXPECT_EQ(acks.count(), 2u);
  auto store = open_or_fail(file());
  EXPECT_EQ(load_steps(*store, "g").value.size(), 1u);
}

TEST_F(SqliteStoreTest, CallbacksMayIssueFurtherCalls) {
  // A room chains work from callbacks: the next write or read from inside one.
  auto store = open_or_fail(file());
  ASSERT_TRUE(store);
  std::promise<std::optional<GameRecord>> loaded;
  store->create_game(sample_game("g"), {}, [&](Status s) {
    EXPECT_TRUE(s.ok());
    store->append_step(sample_step("g", 1), [&](Status s2) {
      EXPECT_TRUE(s2.ok());
      store->flush();  // from the writer's own thread: must not deadlock
      store->load_game("g", [&](std::optional<GameRecord> g, Status) { loaded.set_value(std::move(g)); });
    });
  });
  auto f = loaded.get_future();
  ASSERT_EQ(f.wait_for(10s), std::future_status::ready);
  EXPECT_TRUE(f.get());
}

// A process that dies after its writes were acknowledged loses none of them:
// the WAL left behind is recovered at the next open.
TEST_F(SqliteStoreTest, AcknowledgedWritesSurviveAKilledProcess) {
  constexpr std::uint64_t kSteps = 200;
  pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto r = open_sqlite_store(file());
    if (!r.store) ::_exit(2);
    std::promise<void> all;
    std::atomic<std::uint64_t> ok{0};
    r.store->create_game(sample_game("g"), sample_seats("g"), [](Status) {});
    for (std::uint64_t seq = 1; seq <= kSteps; ++seq) {
      r.store->append_step(sample_step("g", seq), [&, seq](Status s) {
        if (s.ok()) ++ok;
        if (seq == kSteps) all.set_value();
      });
    }
    all.get_future().wait();
    ::raise(SIGKILL);  // no close, no destructors, no checkpoint
    ::_exit(3);
  }
  int wstatus = 0;
  ASSERT_EQ(::waitpid(child, &wstatus, 0), child);
  ASSERT_TRUE(WIFSIGNALED(wstatus)) << "child exited with " << WEXITSTATUS(wstatus);
  EXPECT_TRUE(std::filesystem::exists(dir / "data" / "galloper.db-wal"));
  auto store = open_or_fail(file());  // integrity check on, WAL recovery first
  ASSERT_TRUE(store);
  auto steps = load_steps(*store, "g");
  ASSERT_EQ(steps.value.size(), kSteps);
  expect_same_step(steps.value.back(), sample_step("g", kSteps));
  EXPECT_TRUE(find_seat(*store, "g", "cc33").value);
}

TEST_F(SqliteStoreTest, GarbageFileIsACleanErrorAndStaysUntouched) {
  std::filesystem::create_directories(file().parent_path());
  {
    std::ofstream out(file(), std::ios::binary);
    std::mt19937 rng(7);
    for (int i = 0; i < 8192; ++i) out.put(static_cast<char>(rng() & 0xFF));
  }
  const auto before = file_bytes(file());
  OpenResult r = open_sqlite_store(file());
  EXPECT_FALSE(r.store);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, Kind::kCorrupt) << r.error->message;
  EXPECT_NE(r.error->message.find(file().string()), std::string::npos) << r.error->message;
  EXPECT_EQ(file_bytes(file()), before);
}

TEST_F(SqliteStoreTest, DamagedPageFailsTheIntegrityCheckAndStaysUntouched) {
  {
    auto store = open_or_fail(file());
    ASSERT_TRUE(store);
    ASSERT_TRUE(create_game(*store, sample_game("g"), sample_seats("g")).ok());
    for (std::uint64_t seq = 1; seq <= 300; ++seq) store->append_step(sample_step("g", seq), [](Status) {});
  }
  ASSERT_FALSE(std::filesystem::exists(dir / "data" / "galloper.db-wal"));
  // Scribble over the middle of the last page (a page of steps, far from the
  // header and the schema), leaving the file's size and header intact.
  auto bytes = file_bytes(file());
  const std::size_t page = 4096;
  ASSERT_GE(bytes.size(), 4 * page);
  const std::size_t last = bytes.size() - page;
  for (std::size_t i = 0; i < 64; ++i) bytes[last + i] = static_cast<char>(0xA5);
  {
    std::ofstream out(file(), std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  OpenResult r = open_sqlite_store(file());
  EXPECT_FALSE(r.store);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, Kind::kCorrupt) << r.error->message;
  EXPECT_EQ(file_bytes(file()), bytes);
}

TEST_F(SqliteStoreTest, BackupIsAConsistentCopyThatOpensWithTheSameData) {
  auto store = open_or_fail(file());
  ASSERT_TRUE(store);
  ASSERT_TRUE(create_game(*store, sample_game("g"), sample_seats("g")).ok());
  for (std::uint64_t seq = 1; seq <= 50; ++seq) store->append_step(sample_step("g", seq), [](Status) {});
  store->flush();
  // Writes carry on while the backup runs.
  Acks more;
  for (std::uint64_t seq = 51; seq <= 150; ++seq) store->append_step(sample_step("g", seq), more.callback());
  const auto dest = dir / "backups" / "copy.db";
  ASSERT_EQ(describe(backup_to(*store, dest)), "ok");
  EXPECT_FALSE(std::filesystem::exists(dir / "backups" / "copy.db.partial"));
  more.wait_for(100);

  Status again = backup_to(*store, dest);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error->kind, Kind::kConflict);

  auto copy = open_or_fail(dest);  // integrity-checked
  ASSERT_TRUE(copy);
  auto game = load_game(*copy, "g");
  ASSERT_TRUE(game.value);
  expect_same_game(*game.value, sample_game("g"));
  EXPECT_TRUE(find_seat(*copy, "g", "bb22").value);
  auto steps = load_steps(*copy, "g");
  ASSERT_GE(steps.value.size(), 50u);  // everything acknowledged before it ...
  ASSERT_LE(steps.value.size(), 150u);
  for (std::size_t i = 0; i < steps.value.size(); ++i) ASSERT_EQ(steps.value[i].seq, i + 1);  // ... and no holes
  expect_same_step(steps.value[49], sample_step("g", 50));
  // The copy is a working store.
  EXPECT_EQ(describe(append_step(*copy, sample_step("g", steps.value.size() + 1))), "ok");
}

// When the batch's transaction cannot be had (another process holds the write
// lock past the busy timeout) every write in it fails with kIo and nothing is
// half-written; the store carries on once the lock is gone.
TEST_F(SqliteStoreTest, ABatchThatCannotCommitFailsWholeAndTheStoreRecovers) {
  StoreOptions options;
  options.busy_timeout_ms = 50;
  options.max_batch = 3;  // the three writes below fill one batch at once
  options.max_delay_us = 100'000;
  auto store = open_or_fail(file(), options);
  ASSERT_TRUE(store);
  ASSERT_TRUE(create_game(*store, sample_game("g")).ok());
  {
    sqlite::Database other(file(), sqlite::OpenFlags::kReadWrite, 0);
    sqlite::Transaction holds_the_lock(other);
    Acks acks;
    store->create_game(sample_game("h"), {}, acks.callback());
    store->append_step(sample_step("g", 1), acks.callback());
    store->append_step(sample_step("g", 2), acks.callback());
    for (const Status& s : acks.wait_for(3)) {
      ASSERT_FALSE(s.ok());
      EXPECT_EQ(s.error->kind, Kind::kIo) << s.error->message;
    }
  }
  EXPECT_FALSE(load_game(*store, "h").value);
  EXPECT_TRUE(load_steps(*store, "g").value.empty());
  EXPECT_EQ(describe(append_step(*store, sample_step("g", 1))), "ok");
  const auto stats = store->stats();
  EXPECT_EQ(stats.writes_failed, 3u);
  EXPECT_EQ(stats.largest_batch, 3u);
}

TEST_F(SqliteStoreTest, AForeignDatabaseIsRefused) {
  std::filesystem::create_directories(file().parent_path());
  {
    sqlite::Database db(file(), sqlite::OpenFlags::kReadWrite | sqlite::OpenFlags::kCreate);
    db.exec("CREATE TABLE invoices (id INTEGER)");
  }
  const auto before = file_bytes(file());
  OpenResult r = open_sqlite_store(file());
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, Kind::kSchema) << r.error->message;
  EXPECT_EQ(file_bytes(file()), before);
}

TEST_F(SqliteStoreTest, ADirectoryInPlaceOfTheFileIsKIo) {
  std::filesystem::create_directories(file());
  OpenResult r = open_sqlite_store(file());
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, Kind::kIo) << r.error->message;
}

}  // namespace
}  // namespace galloper::persistence
