#pragma once
// Schema migrations for the SQLite store.
//
// The database records its schema in a `schema_version` table: one row per
// migration applied (version, description, when). Migrations are applied in
// order, each in its own IMMEDIATE transaction together with its row in
// schema_version, so a failure leaves the database at the previous version.
// A migration, once released, is never edited: later changes are new entries.
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "persistence/sqlite.hpp"

namespace galloper::persistence {

struct Migration {
  int version;                   // 1, 2, 3 ... without gaps
  std::string_view description;  // one line, stored in schema_version
  std::string_view sql;          // run with exec(); may hold several statements
};

// The migrations this build knows, in order.
std::span<const Migration> migrations();
// The version a database is at after migrate(db): migrations().back().version.
int latest_schema_version();

// The database is at a version this build does not know, or is not a Galloper
// store at all. Nothing was changed.
class SchemaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The database's schema version: 0 for an empty database (no tables at all).
// Throws SchemaError if the database has tables but no schema_version table
// (another program's database), sqlite::Error if it cannot be read.
int schema_version(sqlite::Database& db);

// Throws SchemaError if the database is newer than `known` (the last entry of
// the list) — before changing anything.
void check_schema_version(sqlite::Database& db, std::span<const Migration> known = migrations());

// Brings the database up to the last version in `list` (tests pass a prefix or
// an extended list). Returns how many migrations were applied (0 when already
// current). Throws SchemaError (newer database, nothing changed) or
// sqlite::Error (a migration failed; its transaction rolled back and the
// migrations before it stay applied).
int migrate(sqlite::Database& db, std::span<const Migration> list = migrations());

}  // namespace galloper::persistence
