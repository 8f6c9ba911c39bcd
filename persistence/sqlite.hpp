#pragma once
// Thin RAII wrappers over the SQLite C API, in the manner of SQLiteCpp:
// statements are prepared once, reset and reused, finalised in the destructor;
// a transaction rolls back unless committed. Nothing here knows about games.
//
// Thread rules: a Database (and every Statement, Transaction and Savepoint made
// from it) is used by ONE thread at a time. The store gives each of its threads
// its own connection; connections are opened with SQLITE_OPEN_NOMUTEX, so
// sharing one between threads without external locking is a bug. Handing a
// connection to another thread (e.g. moving it into the thread that will own
// it) is fine as long as the hand-over is synchronised (thread start, a mutex).
//
// Errors: every failing call throws sqlite::Error carrying SQLite's message,
// primary result code and extended result code. Destructors never throw.
#include <cstdint>
#include <filesystem>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace galloper::persistence::sqlite {

class Error : public std::runtime_error {
 public:
  Error(std::string what, int code, int extended_code);
  int code() const { return code_; }                    // primary code: SQLITE_CONSTRAINT, ...
  int extended_code() const { return extended_code_; }  // SQLITE_CONSTRAINT_PRIMARYKEY, ...

 private:
  int code_;
  int extended_code_;
};

// Open flags, re-exported so callers need not include <sqlite3.h>.
struct OpenFlags {
  static const int kReadOnly;
  static const int kReadWrite;
  static const int kCreate;  // combine with kReadWrite
};

class Database {
 public:
  // Opens `path` with `flags` (OpenFlags; NOMUTEX and extended result codes are
  // always added) and sets a busy timeout for locks held by other connections.
  Database(const std::filesystem::path& path, int flags, int busy_timeout_ms = 5000);
  ~Database();
  Database(Database&& other) noexcept;
  Database& operator=(Database&& other) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  // Runs one or more statements that return no rows of interest.
  void exec(std::string_view sql);

  // `PRAGMA name = value`, returning the first column of the first row the
  // pragma answers (empty if none), e.g. pragma("journal_mode", "WAL") == "wal".
  std::string pragma(std::string_view name, std::string_view value);
  // `PRAGMA name`: the first column of the first row (empty if none).
  std::string pragma(std::string_view name);
  // Every row's first column, e.g. for integrity_check.
  std::vector<std::string> pragma_rows(std::string_view name);

  void set_busy_timeout(int ms);
  bool table_exists(std::string_view name);
  std::int64_t changes() const;
  bool in_transaction() const;  // false in autocommit mode
  const std::filesystem::path& path() const { return path_; }
  sqlite3* handle() const { return db_; }

  // Copies this whole database into `dest` with the online backup API, in one
  // step so the copy is one consistent snapshot (WAL: writers carry on).
  void backup_to(Database& dest);

 private:
  sqlite3* db_ = nullptr;
  std::filesystem::path path_;
};

// A prepared statement. Parameter indexes start at 1, column indexes at 0.
class Statement {
 public:
  Statement(Database& db, std::string_view sql);
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement& operator=(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  void bind_int64(int index, std::int64_t value);
  void bind_text(int index, std::string_view value);
  void bind_blob(int index, std::span<const std::uint8_t> value);  // empty → empty blob, not NULL
  void bind_null(int index);
  // By name, e.g. bind_text(":id", id). Throws if the statement has no such name.
  void bind_int64(std::string_view name, std::int64_t value);
  void bind_text(std::string_view name, std::string_view value);
  void bind_blob(std::string_view name, std::span<const std::uint8_t> value);
  void bind_null(std::string_view name);
  int parameter_index(std::string_view name) const;

  // Advances: true when a row is ready, false when the statement is done.
  bool step();
  // Steps to the end, ignoring any rows (INSERT/UPDATE/DDL).
  void run();

  int column_count() const;
  bool column_is_null(int col) const;
  std::int64_t column_int64(int col) const;
  std::string column_text(int col) const;
  std::vector<std::uint8_t> column_blob(int col) const;

  // For reuse. reset() also ends the statement's implicit read transaction,
  // so always reset a statement that may not have been stepped to its end.
  void reset() noexcept;
  void clear_bindings() noexcept;

  // Resets and clears bindings when it goes out of scope:
  //   auto use = stmt.use(); stmt.bind_...; while (stmt.step()) ...
  class Use {
   public:
    explicit Use(Statement& s) : s_(&s) {}
    ~Use() {
      s_->reset();
      s_->clear_bindings();
    }
    Use(const Use&) = delete;
    Use& operator=(const Use&) = delete;

   private:
    Statement* s_;
  };
  [[nodiscard]] Use use() { return Use(*this); }

  std::string_view sql() const;

 private:
  [[noreturn]] void fail(int rc, std::string_view what) const;
  sqlite3* db_ = nullptr;
  sqlite3_stmt* stmt_ = nullptr;
};

// BEGIN IMMEDIATE (takes the write lock now, so a busy database fails here and
// not halfway through); rolls back in the destructor unless commit() ran.
class Transaction {
 public:
  explicit Transaction(Database& db);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();
  void rollback();  // explicit rollback; the destructor then does nothing

 private:
  Database* db_;
  bool open_ = true;
};

// A nested unit inside a transaction: ROLLBACK TO + RELEASE in the destructor
// unless release() ran, leaving the enclosing transaction intact. Names are
// SQL identifiers chosen by the caller (not user input).
class Savepoint {
 public:
  Savepoint(Database& db, std::string name);
  ~Savepoint();
  Savepoint(const Savepoint&) = delete;
  Savepoint& operator=(const Savepoint&) = delete;
  void release();
  void rollback();

 private:
  Database* db_;
  std::string name_;
  bool open_ = true;
};

// The SQLite library's version, e.g. "3.40.1".
std::string_view library_version();

}  // namespace galloper::persistence::sqlite
