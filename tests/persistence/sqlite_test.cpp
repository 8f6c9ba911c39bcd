// The RAII wrappers over the SQLite C API.
#include "persistence/sqlite.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include "tests/persistence/test_util.hpp"

namespace galloper::persistence::sqlite {
namespace {

using galloper::persistence::testing::TempDir;

class SqliteTest : public ::testing::Test {
 protected:
  SqliteTest() : db(dir / "t.db", OpenFlags::kReadWrite | OpenFlags::kCreate) {
    db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, data BLOB) STRICT");
  }
  std::int64_t count() {
    Statement s(db, "SELECT count(*) FROM t");
    s.step();
    return s.column_int64(0);
  }
  TempDir dir;
  Database db;
};

TEST_F(SqliteTest, StatementIsReusedAfterResetAndBindsEveryType) {
  Statement insert(db, "INSERT INTO t (id, name, data) VALUES (:id, :name, :data)");
  const std::vector<std::uint8_t> blob = {0x00, 0xFF, 0x10};
  for (int i = 1; i <= 3; ++i) {
    auto use = insert.use();
    insert.bind_int64(":id", i);
    if (i == 2) {
      insert.bind_null(":name");
      insert.bind_blob(":data", std::span<const std::uint8_t>());
    } else {
      insert.bind_text(":name", "row" + std::to_string(i));
      insert.bind_blob(":data", blob);
    }
    insert.run();
  }
  Statement select(db, "SELECT id, name, data, typeof(data) FROM t WHERE id >= ?1 ORDER BY id");
  for (int round = 0; round < 2; ++round) {  // reused after reset
    auto use = select.use();
    select.bind_int64(1, 1);
    ASSERT_TRUE(select.step());
    EXPECT_EQ(select.column_int64(0), 1);
    EXPECT_EQ(select.column_text(1), "row1");
    EXPECT_EQ(select.column_blob(2), blob);
    ASSERT_TRUE(select.step());
    EXPECT_TRUE(select.column_is_null(1));
    EXPECT_TRUE(select.column_blob(2).empty());
    EXPECT_EQ(select.column_text(3), "blob");  // an empty blob, not NULL
    ASSERT_TRUE(select.step());
    EXPECT_FALSE(select.step());
  }
}

TEST_F(SqliteTest, TextWithEmbeddedNulRoundTrips) {
  Statement insert(db, "INSERT INTO t (id, name) VALUES (1, ?1)");
  const std::string text("a\0b", 3);
  insert.bind_text(1, text);
  insert.run();
  Statement select(db, "SELECT name FROM t");
  ASSERT_TRUE(select.step());
  EXPECT_EQ(select.column_text(0), text);
}

TEST_F(SqliteTest, ErrorsCarryCodeAndMessage) {
  db.exec("INSERT INTO t (id) VALUES (1)");
  try {
    db.exec("INSERT INTO t (id) VALUES (1)");
    FAIL() << "expected a constraint error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), SQLITE_CONSTRAINT);
    EXPECT_EQ(e.extended_code(), SQLITE_CONSTRAINT_PRIMARYKEY);
    EXPECT_NE(std::string(e.what()).find("UNIQUE constraint failed: t.id"), std::string::npos) << e.what();
  }
  try {
    Statement bad(db, "SELEKT 1");
    FAIL() << "expected a syntax error";
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), SQLITE_ERROR);
    EXPECT_NE(std::string(e.what()).find("syntax error"), std::string::npos) << e.what();
  }
  Statement s(db, "SELECT 1 WHERE 1 = :x");
  EXPECT_THROW(s.bind_int64(":nope", 1), Error);
  EXPECT_THROW(Database(dir / "missing" / "x.db", OpenFlags::kReadOnly), Error);
}

TEST_F(SqliteTest, TransactionRollsBackUnlessCommitted) {
  {
    Transaction tx(db);
    db.exec("INSERT INTO t (id) VALUES (1)");
    EXPECT_TRUE(db.in_transaction());
  }
  EXPECT_FALSE(db.in_transaction());
  EXPECT_EQ(count(), 0);
  {
    Transaction tx(db);
    db.exec("INSERT INTO t (id) VALUES (2)");
    tx.commit();
  }
  EXPECT_EQ(count(), 1);
  try {
    Transaction tx(db);
    db.exec("INSERT INTO t (id) VALUES (3)");
    throw std::runtime_error("boom");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(count(), 1);
}

TEST_F(SqliteTest, SavepointUndoesOnlyItsOwnWork) {
  Transaction tx(db);
  db.exec("INSERT INTO t (id) VALUES (1)");
  {
    Savepoint sp(db, "inner");
    db.exec("INSERT INTO t (id) VALUES (2)");
  }  // rolled back
  {
    Savepoint sp(db, "inner");
    db.exec("INSERT INTO t (id) VALUES (3)");
    sp.release();
  }
  tx.commit();
  Statement s(db, "SELECT group_concat(id) FROM (SELECT id FROM t ORDER BY id)");
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.column_text(0), "1,3");
}

TEST_F(SqliteTest, PragmaHelpers) {
  EXPECT_EQ(db.pragma("journal_mode", "WAL"), "wal");
  db.pragma("foreign_keys", "ON");
  EXPECT_EQ(db.pragma("foreign_keys"), "1");
  EXPECT_EQ(db.pragma_rows("integrity_check"), std::vector<std::string>{"ok"});
  EXPECT_TRUE(db.table_exists("t"));
  EXPECT_FALSE(db.table_exists("u"));
}

TEST_F(SqliteTest, ResetEndsTheReadSnapshot) {
  // A statement left mid-result holds a read transaction in WAL mode: a reader
  // that is not reset would keep seeing old data.
  db.pragma("journal_mode", "WAL");
  db.exec("INSERT INTO t (id) VALUES (1)");
  Database reader(dir / "t.db", OpenFlags::kReadOnly);
  Statement s(reader, "SELECT count(*) FROM t");
  {
    auto use = s.use();
    ASSERT_TRUE(s.step());
    EXPECT_EQ(s.column_int64(0), 1);
  }
  db.exec("INSERT INTO t (id) VALUES (2)");
  auto use = s.use();
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.column_int64(0), 2);
}

TEST_F(SqliteTest, BackupCopiesEverything) {
  db.exec("INSERT INTO t (id, name) VALUES (1, 'x'), (2, 'y')");
  {
    Database out(dir / "copy.db", OpenFlags::kReadWrite | OpenFlags::kCreate);
    db.backup_to(out);
  }
  Database copy(dir / "copy.db", OpenFlags::kReadOnly);
  Statement s(copy, "SELECT count(*) FROM t");
  ASSERT_TRUE(s.step());
  EXPECT_EQ(s.column_int64(0), 2);
}

TEST_F(SqliteTest, MovedFromObjectsAreInert) {
  Database moved = std::move(db);
  Statement a(moved, "SELECT 1");
  Statement b = std::move(a);
  ASSERT_TRUE(b.step());
  EXPECT_EQ(b.column_int64(0), 1);
  db = std::move(moved);  // back, so the fixture's db stays usable
  EXPECT_TRUE(db.table_exists("t"));
}

}  // namespace
}  // namespace galloper::persistence::sqlite
