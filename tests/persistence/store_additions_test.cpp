// The SQLite store's read-only mode, for the offline tools (`galloper replay`,
// `backup`, `export`). What mark_ended, snapshots, rewind and wake-ups do is
// the Store contract, held in store_conformance_test.cpp.
#include <gtest/gtest.h>

#include "persistence/migrations.hpp"
#include "persistence/sqlite.hpp"
#include "persistence/sqlite_store.hpp"
#include "tests/persistence/test_util.hpp"

namespace galloper::persistence {
namespace {

using namespace galloper::persistence::testing;
using Kind = StoreError::Kind;

class StoreAdditionsTest : public ::testing::Test {
 protected:
  std::filesystem::path file() const { return dir / "data" / "galloper.db"; }
  // A store with one game and three log entries, closed again.
  void seed_store() {
    auto store = open_or_fail(file());
    ASSERT_TRUE(store);
    ASSERT_EQ(describe(create_game(*store, sample_game("g1"), sample_seats("g1"))), "ok");
    for (std::uint64_t seq = 1; seq <= 3; ++seq) ASSERT_EQ(describe(append_step(*store, sample_step("g1", seq))), "ok");
  }
  StoreOptions read_only() const {
    StoreOptions o;
    o.read_only = true;
    return o;
  }
  TempDir dir;
};

TEST_F(StoreAdditionsTest, ReadOnlyStoreReadsEverythingAndWritesNothing) {
  seed_store();
  const auto before = file_bytes(file());
  auto store = open_or_fail(file(), read_only());
  ASSERT_TRUE(store);
  auto game = load_game(*store, "g1");
  ASSERT_TRUE(game.status.ok());
  ASSERT_TRUE(game.value);
  expect_same_game(*game.value, sample_game("g1"));
  EXPECT_EQ(load_steps(*store, "g1").value.size(), 3u);
  EXPECT_EQ(list_games(*store).value.size(), 1u);

  const auto created = create_game(*store, sample_game("g2"));
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(created.error->kind, Kind::kIo);
  EXPECT_NE(created.error->message.find("read-only"), std::string::npos);
  EXPECT_FALSE(append_step(*store, sample_step("g1", 4)).ok());
  EXPECT_EQ(kind_of(mark_ended(*store, "g1")), "kIo");
  EXPECT_EQ(kind_of(set_wake(*store, "g1", 5)), "kIo");
  EXPECT_EQ(kind_of(append_snapshot(*store, sample_snapshot("g1", 3, 1))), "kIo");
  auto due = due_games(*store, sample_game("g1").wake_ms, 10);  // the server's reads work
  EXPECT_EQ(describe(due.status), "ok");
  ASSERT_EQ(due.value.size(), 1u);
  EXPECT_EQ(due.value[0].game_id, "g1");
  store->flush();  // nothing to wait for, and no writer to wait on
  store->close();
  EXPECT_EQ(file_bytes(file()), before);
}

TEST_F(StoreAdditionsTest, ReadOnlyNeverCreatesAStore) {
  auto r = open_sqlite_store(file(), read_only());
  ASSERT_FALSE(r.store);
  EXPECT_EQ(r.error->kind, Kind::kNotFound) << describe(r.error);
  EXPECT_FALSE(std::filesystem::exists(file().parent_path()));
}

TEST_F(StoreAdditionsTest, ReadOnlyRefusesAStoreThatWouldNeedAMigrationOrIsNewer) {
  {
    // An empty database is at version 0: reading it would need the migrations.
    std::filesystem::create_directories(file().parent_path());
    sqlite::Database db(file(), sqlite::OpenFlags::kReadWrite | sqlite::OpenFlags::kCreate);
    db.exec("PRAGMA user_version = 0");
  }
  auto empty = open_sqlite_store(file(), read_only());
  ASSERT_FALSE(empty.store);
  EXPECT_EQ(empty.error->kind, Kind::kSchema) << describe(empty.error);
  std::filesystem::remove(file());

  seed_store();
  {
    sqlite::Database db(file(), sqlite::OpenFlags::kReadWrite);
    db.exec("INSERT INTO schema_version (version, description, applied_unix) VALUES (99, 'from the future', 0)");
  }
  const auto before = file_bytes(file());
  auto newer = open_sqlite_store(file(), read_only());
  ASSERT_FALSE(newer.store);
  EXPECT_EQ(newer.error->kind, Kind::kSchema) << describe(newer.error);
  EXPECT_NE(newer.error->message.find("99"), std::string::npos) << newer.error->message;
  EXPECT_EQ(file_bytes(file()), before);
}

TEST_F(StoreAdditionsTest, ReadOnlyStoreReadsBesideALiveWriterAndBacksUp) {
  auto writer = open_or_fail(file());
  ASSERT_TRUE(writer);
  ASSERT_TRUE(create_game(*writer, sample_game("g1")).ok());
  ASSERT_TRUE(append_step(*writer, sample_step("g1", 1)).ok());
  auto reader = open_or_fail(file(), read_only());
  ASSERT_TRUE(reader);
  ASSERT_TRUE(append_step(*writer, sample_step("g1", 2)).ok());
  EXPECT_EQ(load_steps(*reader, "g1").value.size(), 2u) << "a committed write is visible to the tools";
  EXPECT_EQ(describe(backup_to(*reader, dir / "copy.db")), "ok");
  auto copy = open_or_fail(dir / "copy.db", read_only());
  ASSERT_TRUE(copy);
  EXPECT_EQ(load_steps(*copy, "g1").value.size(), 2u);
}

}  // namespace
}  // namespace galloper::persistence
