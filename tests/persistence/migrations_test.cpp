// Schema migrations: from empty, from every earlier version with data present,
// idempotent re-open, atomic failure, and refusal of a newer schema.
#include "persistence/migrations.hpp"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <functional>
#include <map>

#include "persistence/store.hpp"
#include "tests/persistence/test_util.hpp"

namespace galloper::persistence {
namespace {

using sqlite::Database;
using sqlite::OpenFlags;
using sqlite::Statement;
using testing::TempDir;

Database open_rw(const std::filesystem::path& p) { return Database(p, OpenFlags::kReadWrite | OpenFlags::kCreate); }

std::int64_t scalar(Database& db, const std::string& sql) {
  Statement s(db, sql);
  EXPECT_TRUE(s.step()) << sql;
  return s.column_int64(0);
}

std::vector<std::string> tables(Database& db) {
  Statement s(db, "SELECT name FROM sqlite_schema WHERE type IN ('table', 'index') ORDER BY name");
  std::vector<std::string> names;
  while (s.step()) names.push_back(s.column_text(0));
  return names;
}

// Rows a database at `version` can hold, written with plain SQL as a server of
// that version would have; and the check that they survived migrating to the
// latest version. One entry per released version; each uses its own ids so
// they can all be present at once.
struct Fixture {
  std::function<void(Database&)> insert;
  std::function<void(Database&)> verify_at_latest;
};
const std::map<int, Fixture>& fixtures() {
  static const std::map<int, Fixture> f = {
      {1,
       {[](Database& db) {
          // Columns named: the fixture is also written at later versions.
          db.exec(
              "INSERT INTO games (id, title, ruleset, scenario_name, scenario_text, seed, seed_commitment, "
              "created_unix, settings, turn, phase, ended) "
              "VALUES ('g1', 'T', 'malbrook', 's', 'text', x'00ff', 'c', 5, 'set', 2, 'command', 0);"
              "INSERT INTO seats VALUES ('g1', 'north', 'N', 'h1');"
              "INSERT INTO steps (game_id, seq, kind, payload, state_hash, created_unix) "
              "VALUES ('g1', 1, 'answer', x'0102', -1, 6);");
        },
        [](Database& db) {
          EXPECT_EQ(scalar(db, "SELECT count(*) FROM games WHERE id = 'g1' AND seed = x'00ff' AND turn = 2"), 1);
          EXPECT_EQ(scalar(db, "SELECT count(*) FROM seats WHERE token_hash = 'h1'"), 1);
          EXPECT_EQ(scalar(db, "SELECT state_hash FROM steps WHERE seq = 1"), -1);
          EXPECT_EQ(scalar(db, "SELECT superseded FROM steps WHERE seq = 1"), 0);
          EXPECT_EQ(scalar(db, "SELECT wake_ms FROM games WHERE id = 'g1'"), 0) << "an old game wakes never";
        }}},
      {2,
       {[](Database& db) {
          db.exec(
              "INSERT INTO games (id, title, ruleset, scenario_name, scenario_text, seed, seed_commitment, "
              "created_unix, settings, turn, phase, ended) "
              "VALUES ('g2', 'T', 'malbrook', 's', 'text', x'00ff', 'c', 5, 'set', 2, 'command', 0);"
              "INSERT INTO steps (game_id, seq, kind, payload, state_hash, created_unix) "
              "VALUES ('g2', 1, 'resolve', x'0102', -7, 6);"
              "INSERT INTO snapshots (game_id, seq, state, turn, state_hash, turn_start) "
              "VALUES ('g2', 1, x'abcd', 4, -7, 1);");
        },
        [](Database& db) {
          EXPECT_EQ(scalar(db, "SELECT turn FROM snapshots WHERE game_id = 'g2' AND seq = 1"), 4);
          EXPECT_EQ(scalar(db, "SELECT state_hash FROM snapshots WHERE game_id = 'g2' AND seq = 1"), -7);
          EXPECT_EQ(scalar(db, "SELECT turn_start FROM snapshots WHERE game_id = 'g2' AND seq = 1"), 1);
          EXPECT_EQ(scalar(db, "SELECT wake_ms FROM games WHERE id = 'g2'"), 0);
        }}},
      {3,
       {[](Database& db) {
          db.exec(
              "INSERT INTO games (id, title, ruleset, scenario_name, scenario_text, seed, seed_commitment, "
              "created_unix, settings, turn, phase, ended, wake_ms) VALUES "
              "('g3', 'T', 'malbrook', 's', 'text', x'00ff', 'c', 5, 'set', 2, 'command', 0, 1700000086400000),"
              "('g3-never', 'T', 'malbrook', 's', 'text', x'00ff', 'c', 5, 'set', 2, 'command', 1, 0);");
        },
        [](Database& db) {
          EXPECT_EQ(scalar(db, "SELECT wake_ms FROM games WHERE id = 'g3'"), 1'700'000'086'400'000);
          EXPECT_EQ(scalar(db, "SELECT wake_ms FROM games WHERE id = 'g3-never'"), 0);
        }}},
  };
  return f;
}

TEST(Migrations, ListIsNumberedWithoutGapsAndEveryVersionHasAFixture) {
  auto list = migrations();
  ASSERT_FALSE(list.empty());
  for (std::size_t i = 0; i < list.size(); ++i) {
    EXPECT_EQ(list[i].version, static_cast<int>(i) + 1);
    EXPECT_FALSE(list[i].description.empty());
    // A new migration needs a fixture above, so the next one is tested on data.
    EXPECT_TRUE(fixtures().contains(list[i].version)) << "add a fixture for version " << list[i].version;
  }
  EXPECT_EQ(latest_schema_version(), list.back().version);
}

TEST(Migrations, ApplyFromEmpty) {
  TempDir dir;
  Database db = open_rw(dir / "s.db");
  EXPECT_EQ(schema_version(db), 0);
  EXPECT_EQ(migrate(db), static_cast<int>(migrations().size()));
  EXPECT_EQ(schema_version(db), latest_schema_version());
  EXPECT_EQ(scalar(db, "SELECT count(*) FROM schema_version"), static_cast<std::int64_t>(migrations().size()));
  for (const char* t : {"games", "seats", "steps", "snapshots", "schema_version", "seats_by_token", "games_by_wake"}) {
    EXPECT_TRUE(scalar(db, std::string("SELECT count(*) FROM sqlite_schema WHERE name = '") + t + "'") == 1) << t;
  }
  // STRICT: a wrong type is refused, not stored.
  EXPECT_THROW(db.exec("INSERT INTO games (id, title, ruleset, scenario_name, scenario_text, seed, seed_commitment, "
                       "created_unix, settings, turn, phase, ended) "
                       "VALUES ('g', 'T', 'r', 's', 't', 'not a blob', 'c', 'soon', 's', 0, '', 0)"),
               sqlite::Error);
  EXPECT_EQ(db.pragma_rows("integrity_check"), std::vector<std::string>{"ok"});
}

TEST(Migrations, ApplyFromEachPreviousVersionWithDataPresent) {
  auto list = migrations();
  for (std::size_t from = 1; from <= list.size(); ++from) {
    SCOPED_TRACE("from version " + std::to_string(from));
    TempDir dir;
    Database db = open_rw(dir / "s.db");
    // Data accumulates as it would in a real store: each version's rows are
    // written while the database is at that version.
    for (std::size_t v = 1; v <= from; ++v) {
      ASSERT_EQ(migrate(db, list.first(v)), 1);
      fixtures().at(static_cast<int>(v)).insert(db);
    }
    EXPECT_EQ(migrate(db), static_cast<int>(list.size() - from));
    EXPECT_EQ(schema_version(db), latest_schema_version());
    for (std::size_t v = 1; v <= from; ++v) fixtures().at(static_cast<int>(v)).verify_at_latest(db);
    EXPECT_EQ(db.pragma_rows("integrity_check"), std::vector<std::string>{"ok"});
  }
}

// The wake-up index holds only the games with a wake-up, and the store's
// due_games query (sqlite_store.cpp) is answered from it alone, in its order:
// no scan of every game, no lookup or sort per due game.
TEST(Migrations, TheWakeIndexHoldsOnlyGamesWithAWakeUpAndServesTheDueQuery) {
  TempDir dir;
  Database db = open_rw(dir / "s.db");
  migrate(db);
  fixtures().at(3).insert(db);
  EXPECT_EQ(scalar(db, "SELECT count(*) FROM games INDEXED BY games_by_wake WHERE wake_ms > 0"), 1);
  Statement plan(db,
                 "EXPLAIN QUERY PLAN SELECT id, wake_ms FROM games WHERE wake_ms > 0 AND wake_ms <= ?1 "
                 "ORDER BY wake_ms, id LIMIT ?2");
  std::string details;
  while (plan.step()) details += plan.column_text(3) + "\n";
  EXPECT_NE(details.find("USING COVERING INDEX games_by_wake"), std::string::npos) << details;
  EXPECT_EQ(details.find("TEMP B-TREE"), std::string::npos) << details;
}

TEST(Migrations, ReopenIsIdempotent) {
  TempDir dir;
  {
    Database db = open_rw(dir / "s.db");
    migrate(db);
    fixtures().at(1).insert(db);
  }
  const auto schema_before = [&] {
    Database db = open_rw(dir / "s.db");
    return tables(db);
  }();
  for (int i = 0; i < 3; ++i) {
    Database db = open_rw(dir / "s.db");
    EXPECT_EQ(migrate(db), 0);
    EXPECT_EQ(schema_version(db), latest_schema_version());
    EXPECT_EQ(scalar(db, "SELECT count(*) FROM schema_version"), static_cast<std::int64_t>(migrations().size()));
    EXPECT_EQ(tables(db), schema_before);
    fixtures().at(1).verify_at_latest(db);
  }
}

// The machinery on a list longer than the real one: a later migration applies
// on top of data, and one that fails leaves the database at the version before.
TEST(Migrations, LaterMigrationAppliesOnDataAndAFailingOneRollsBackAlone) {
  TempDir dir;
  std::vector<Migration> list(migrations().begin(), migrations().end());
  const int next = latest_schema_version() + 1;
  list.push_back({next, "add games.umpire", "ALTER TABLE games ADD COLUMN umpire TEXT NOT NULL DEFAULT 'none'"});
  std::vector<Migration> broken = list;
  broken.push_back({next + 1, "broken", "CREATE TABLE half (x INTEGER); INSERT INTO no_such_table VALUES (1);"});

  Database db = open_rw(dir / "s.db");
  migrate(db);
  fixtures().at(1).insert(db);
  EXPECT_THROW(migrate(db, broken), sqlite::Error);
  // The good one stays applied; the broken one left nothing behind.
  EXPECT_EQ(schema_version(db), next);
  EXPECT_EQ(scalar(db, "SELECT count(*) FROM sqlite_schema WHERE name = 'half'"), 0);
  EXPECT_EQ(scalar(db, "SELECT count(*) FROM games WHERE umpire = 'none'"), 1);
  fixtures().at(1).verify_at_latest(db);
  EXPECT_EQ(migrate(db, list), 0);
}

TEST(Migrations, NewerDatabaseIsRefusedBeforeAnyChange) {
  TempDir dir;
  Database db = open_rw(dir / "s.db");
  migrate(db);
  db.exec("INSERT INTO schema_version VALUES (999, 'from the future', 0)");
  EXPECT_THROW(check_schema_version(db), SchemaError);
  try {
    migrate(db);
    FAIL() << "expected SchemaError";
  } catch (const SchemaError& e) {
    EXPECT_NE(std::string(e.what()).find("schema version 999"), std::string::npos) << e.what();
  }
  EXPECT_EQ(schema_version(db), 999);
}

TEST(Migrations, ForeignDatabaseIsRefused) {
  TempDir dir;
  Database db = open_rw(dir / "s.db");
  db.exec("CREATE TABLE customers (id INTEGER)");
  EXPECT_THROW(migrate(db), SchemaError);
  EXPECT_EQ(scalar(db, "SELECT count(*) FROM sqlite_schema"), 1);
}

// The store refuses a newer schema with kSchema and leaves the file's bytes
// exactly as they were.
TEST(Migrations, StoreOpenOfNewerSchemaIsKSchemaAndFileUnchanged) {
  TempDir dir;
  const auto file = dir / "g.db";
  {
    auto store = testing::open_or_fail(file);
    ASSERT_TRUE(store);
    ASSERT_TRUE(testing::create_game(*store, testing::sample_game("g1")).ok());
  }
  {
    Database db(file, OpenFlags::kReadWrite);
    db.exec("INSERT INTO schema_version VALUES (999, 'from the future', 0)");
    // Out of WAL mode, so even switching the journal mode at open would show
    // in the file's header bytes.
    EXPECT_EQ(db.pragma("journal_mode", "DELETE"), "delete");
  }
  ASSERT_FALSE(std::filesystem::exists(dir / "g.db-wal"));
  const auto before = testing::file_bytes(file);
  OpenResult r = open_sqlite_store(file);
  EXPECT_FALSE(r.store);
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, StoreError::Kind::kSchema) << r.error->message;
  EXPECT_NE(r.error->message.find("999"), std::string::npos) << r.error->message;
  EXPECT_EQ(testing::file_bytes(file), before);
}

}  // namespace
}  // namespace galloper::persistence
