#include "persistence/migrations.hpp"

#include <chrono>
#include <string>

namespace galloper::persistence {

namespace {

// Version 1: the walking skeleton's schema. STRICT tables (SQLite >= 3.37) so a
// wrong type is an error rather than silently stored. Unsigned 64-bit values
// (seq, state_hash) are stored bit for bit as INTEGER. WITHOUT ROWID where rows
// are small and the primary key is the only lookup: one b-tree write per row.
constexpr std::string_view kV1 = R"sql(
CREATE TABLE games (
  id              TEXT    NOT NULL PRIMARY KEY,
  title           TEXT    NOT NULL,
  ruleset         TEXT    NOT NULL,
  scenario_name   TEXT    NOT NULL,
  scenario_text   TEXT    NOT NULL,
  seed            BLOB    NOT NULL,
  seed_commitment TEXT    NOT NULL,
  created_unix    INTEGER NOT NULL,
  settings        TEXT    NOT NULL,
  turn            INTEGER NOT NULL DEFAULT 0 CHECK (turn >= 0),
  phase           TEXT    NOT NULL DEFAULT '',
  ended           INTEGER NOT NULL DEFAULT 0 CHECK (ended IN (0, 1))
) STRICT;

CREATE TABLE seats (
  game_id     TEXT NOT NULL REFERENCES games (id),
  seat        TEXT NOT NULL,
  description TEXT NOT NULL,
  token_hash  TEXT NOT NULL,
  PRIMARY KEY (game_id, seat)
) STRICT, WITHOUT ROWID;
CREATE INDEX seats_by_token ON seats (game_id, token_hash);

CREATE TABLE steps (
  game_id      TEXT    NOT NULL REFERENCES games (id),
  seq          INTEGER NOT NULL CHECK (seq >= 1),
  kind         TEXT    NOT NULL,
  payload      BLOB    NOT NULL,
  state_hash   INTEGER NOT NULL,
  created_unix INTEGER NOT NULL,
  superseded   INTEGER NOT NULL DEFAULT 0 CHECK (superseded IN (0, 1)),
  PRIMARY KEY (game_id, seq)
) STRICT, WITHOUT ROWID;

-- Not written yet: a later issue stores a state every N steps so loading a
-- game replays only the tail of its log. Rows are large: keep the rowid.
CREATE TABLE snapshots (
  game_id TEXT    NOT NULL REFERENCES games (id),
  seq     INTEGER NOT NULL,
  state   BLOB    NOT NULL,
  PRIMARY KEY (game_id, seq)
) STRICT;
)sql";

// Version 2: snapshots are written. Each row says which turn its state is in
// and that state's hash, so a loader can pick a turn's start and check what
// it decoded without reading the log first, and whether the state is the
// first of its turn (what a delayed spectator view shows).
constexpr std::string_view kV2 = R"sql(
ALTER TABLE snapshots ADD COLUMN turn INTEGER NOT NULL DEFAULT 0 CHECK (turn >= 0);
ALTER TABLE snapshots ADD COLUMN state_hash INTEGER NOT NULL DEFAULT 0;
ALTER TABLE snapshots ADD COLUMN turn_start INTEGER NOT NULL DEFAULT 0 CHECK (turn_start IN (0, 1));
CREATE INDEX snapshots_by_turn ON snapshots (game_id, turn);
)sql";

// Version 3: games wake by time whether or not anyone is connected, across
// restarts. A server starting on many games asks only for the few that are
// due, so the index holds just the games with a wake-up (0 is "never"). It
// carries the id too: the due query (soonest first, ties by id) is then read
// from the index alone, in order, without a lookup per game, which counts
// when an outage has left thousands due at once.
constexpr std::string_view kV3 = R"sql(
ALTER TABLE games ADD COLUMN wake_ms INTEGER NOT NULL DEFAULT 0;
CREATE INDEX games_by_wake ON games (wake_ms, id) WHERE wake_ms > 0;
)sql";

constexpr Migration kMigrations[] = {
    {1, "games, seats, steps, snapshots", kV1},
    {2, "snapshots record their turn and state hash", kV2},
    {3, "games record their next wake-up", kV3},
};

constexpr std::string_view kVersionTable = R"sql(
CREATE TABLE IF NOT EXISTS schema_version (
  version      INTEGER NOT NULL PRIMARY KEY,
  description  TEXT    NOT NULL,
  applied_unix INTEGER NOT NULL
) STRICT;
)sql";

std::int64_t now_unix() {
  return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void check_list(std::span<const Migration> list) {
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (list[i].version != static_cast<int>(i) + 1) {
      throw std::logic_error("migrations must be numbered 1, 2, 3 ... without gaps; entry " + std::to_string(i) +
                             " is version " + std::to_string(list[i].version));
    }
  }
}

int last_version(std::span<const Migration> list) { return list.empty() ? 0 : list.back().version; }

}  // namespace

std::span<const Migration> migrations() { return kMigrations; }

int latest_schema_version() { return last_version(migrations()); }

int schema_version(sqlite::Database& db) {
  if (!db.table_exists("schema_version")) {
    sqlite::Statement any(db, "SELECT count(*) FROM sqlite_schema");
    any.step();
    if (any.column_int64(0) != 0) {
      throw SchemaError("schema: " + db.path().string() +
                        " has tables but no schema_version table: not a Galloper store");
    }
    return 0;
  }
  sqlite::Statement s(db, "SELECT coalesce(max(version), 0) FROM schema_version");
  s.step();
  return static_cast<int>(s.column_int64(0));
}

void check_schema_version(sqlite::Database& db, std::span<const Migration> known) {
  int found = schema_version(db);
  int latest = last_version(known);
  if (found > latest) {
    throw SchemaError("schema: " + db.path().string() + " is at schema version " + std::to_string(found) +
                      ", but this build of Galloper knows versions up to " + std::to_string(latest) +
                      "; run a newer Galloper (nothing was changed)");
  }
}

int migrate(sqlite::Database& db, std::span<const Migration> list) {
  check_list(list);
  check_schema_version(db, list);  // before any write
  int applied = 0;
  for (const Migration& m : list) {
    sqlite::Transaction tx(db);
    // Re-read under the write lock: another process may have migrated meanwhile.
    int current = schema_version(db);
    if (current > last_version(list)) check_schema_version(db, list);  // throws; tx rolls back
    if (current >= m.version) continue;                               // tx rolls back: nothing written
    db.exec(kVersionTable);
    db.exec(m.sql);
    sqlite::Statement record(db, "INSERT INTO schema_version (version, description, applied_unix) VALUES (?1, ?2, ?3)");
    record.bind_int64(1, m.version);
    record.bind_text(2, m.description);
    record.bind_int64(3, now_unix());
    record.run();
    tx.commit();
    ++applied;
  }
  return applied;
}

}  // namespace galloper::persistence
