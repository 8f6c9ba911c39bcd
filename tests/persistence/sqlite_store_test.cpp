// The SQLite store's own behaviour: durability across reopen and a killed
// process, group commit, flush and close against the commit delay, damaged
// and foreign files, backup. The Store contract every store keeps (the log's
// rules, error kinds, orders, wake-ups) is in store_conformance_test.cpp.
// Every test uses real files in a fresh temporary directory: WAL and fsync
// behaviour are the point.
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

// Everything a store answers is also what it answers after a restart: every
// kind of write, acknowledged, then the file closed and opened again. (What
// the answers are is the conformance suite's business.)
TEST_F(SqliteStoreTest, EveryAcknowledgedWriteSurvivesARestart) {
  const GameRecord game = sample_game("blenheim-1");
  GameRecord ended = sample_game("ramillies-1");
  ended.created_unix = 1'800'000'000;
  ended.wake_ms = 0;
  {
    auto store = open_or_fail(file());
    ASSERT_TRUE(store);
    ASSERT_EQ(describe(create_game(*store, game, sample_seats(game.id))), "ok");
    ASSERT_EQ(describe(create_game(*store, ended, {})), "ok");
    for (std::uint64_t seq = 1; seq <= 7; ++seq) store->append_step(sample_step(game.id, seq), [](Status) {});
    ASSERT_EQ(describe(append_snapshot(*store, sample_snapshot(game.id, 3, 1))), "ok");
    ASSERT_EQ(describe(append_snapshot(*store, sample_snapshot(game.id, 6, 2))), "ok");
    RewindRecord r;
    r.game_id = game.id;
    r.after_seq = 4;
    r.kinds = {"resolve"};
    r.entry = sample_step(game.id, 8);
    r.entry.kind = "umpire";
    ASSERT_EQ(describe(rewind(*store, r)), "ok");
    ASSERT_EQ(describe(mark_ended(*store, ended.id)), "ok");
    ASSERT_EQ(describe(set_wake(*store, ended.id, 1'234)), "ok");
  }
  auto store = open_or_fail(file());
  ASSERT_TRUE(store);

  auto loaded = load_game(*store, game.id);
  ASSERT_EQ(describe(loaded.status), "ok");
  ASSERT_TRUE(loaded.value);
  expect_same_game(*loaded.value, game);
  EXPECT_EQ(load_seats(*store, game.id).value.size(), 3u);
  EXPECT_EQ(find_seat(*store, game.id, "bb22").value.value_or(SeatRecord{}).seat, "allies-right");

  auto steps = load_steps(*store, game.id).value;
  ASSERT_EQ(steps.size(), 8u);
  for (std::uint64_t i = 0; i < 7; ++i) {
    StepRecord want = sample_step(game.id, i + 1);
    want.superseded = want.seq == 6;  // the only "resolve" after entry 4
    expect_same_step(steps[i], want);
  }
  EXPECT_EQ(steps.back().kind, "umpire");
  EXPECT_EQ(seqs(load_snapshots(*store, game.id, 100).value), (std::vector<std::uint64_t>{3}));

  GameRecord ended_now = ended;
  ended_now.ended = true;
  ended_now.wake_ms = 1'234;
  expect_same_game(*load_game(*store, ended.id).value, ended_now);
  auto listed = list_games(*store).value;
  ASSERT_EQ(listed.size(), 2u);
  expect_same_game(listed[1], ended_now);
  auto due = due_games(*store, 2'000, 10).value;
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].game_id, ended.id);
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

// Close waits out neither the group-commit delay nor leaves a WAL behind.
// (That calls after close answer kIo is the conformance suite's.)
TEST_F(SqliteStoreTest, CloseDrainsTheQueueAndCheckpoints) {
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
  EXPECT_EQ(backup_to(store, dir / "b.db").error->kind, Kind::kIo);
  opened.store.reset();

  EXPECT_FALSE(std::filesystem::exists(dir / "data" / "galloper.db-wal")) << "the WAL was not checkpointed at close";
  auto again = open_or_fail(file());
  ASSERT_TRUE(again);
  EXPECT_EQ(load_steps(*again, "g").value.size(), 100u);
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
