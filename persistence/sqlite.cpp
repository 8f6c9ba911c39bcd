#include "persistence/sqlite.hpp"

#include <sqlite3.h>

#include <climits>
#include <utility>

namespace galloper::persistence::sqlite {

namespace {

std::string describe(sqlite3* db, int rc, std::string_view what) {
  std::string msg = "sqlite: ";
  msg += what;
  msg += ": ";
  // sqlite3_errmsg describes the connection's most recent error; fall back to
  // the generic text of the code when there is no connection (failed open).
  msg += db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
  msg += " (code ";
  msg += std::to_string(rc);
  msg += ")";
  return msg;
}

[[noreturn]] void throw_error(sqlite3* db, int rc, std::string_view what) {
  int extended = db != nullptr ? sqlite3_extended_errcode(db) : rc;
  // Some calls return the primary code while the connection holds the extended
  // one; if they disagree, the returned code is the truth.
  if ((extended & 0xff) != (rc & 0xff)) extended = rc;
  throw Error(describe(db, extended, what), rc & 0xff, extended);
}

void check(sqlite3* db, int rc, std::string_view what) {
  if (rc != SQLITE_OK) throw_error(db, rc, what);
}

}  // namespace

Error::Error(std::string what, int code, int extended_code)
    : std::runtime_error(std::move(what)), code_(code), extended_code_(extended_code) {}

const int OpenFlags::kReadOnly = SQLITE_OPEN_READONLY;
const int OpenFlags::kReadWrite = SQLITE_OPEN_READWRITE;
const int OpenFlags::kCreate = SQLITE_OPEN_CREATE;

// ---------------------------------------------------------------- Database

Database::Database(const std::filesystem::path& path, int flags, int busy_timeout_ms) : path_(path) {
  int rc = sqlite3_open_v2(path.c_str(), &db_, flags | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE, nullptr);
  if (rc != SQLITE_OK) {
    // A handle is returned even on failure (unless out of memory) and must be
    // closed; take its message first.
    std::string msg = describe(db_, rc, "open " + path.string());
    int extended = db_ != nullptr ? sqlite3_extended_errcode(db_) : rc;
    sqlite3_close_v2(db_);
    db_ = nullptr;
    throw Error(std::move(msg), rc & 0xff, extended);
  }
  sqlite3_extended_result_codes(db_, 1);
  set_busy_timeout(busy_timeout_ms);
}

Database::~Database() {
  // close_v2 defers the close until every statement is finalised, so the order
  // in which members are destroyed cannot leak the connection.
  if (db_ != nullptr) sqlite3_close_v2(db_);
}

Database::Database(Database&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), path_(std::move(other.path_)) {}

Database& Database::operator=(Database&& other) noexcept {
  if (this != &other) {
    if (db_ != nullptr) sqlite3_close_v2(db_);
    db_ = std::exchange(other.db_, nullptr);
    path_ = std::move(other.path_);
  }
  return *this;
}

void Database::exec(std::string_view sql) {
  std::string text(sql);  // sqlite3_exec wants a terminated string
  char* err = nullptr;
  int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &err);
  if (err != nullptr) sqlite3_free(err);  // the same text is in sqlite3_errmsg
  check(db_, rc, text.size() > 80 ? text.substr(0, 80) + "..." : text);
}

std::string Database::pragma(std::string_view name, std::string_view value) {
  std::string sql = "PRAGMA ";
  sql += name;
  sql += " = ";
  sql += value;
  Statement s(*this, sql);
  if (s.step() && s.column_count() > 0) return s.column_text(0);
  return {};
}

std::string Database::pragma(std::string_view name) {
  Statement s(*this, "PRAGMA " + std::string(name));
  if (s.step() && s.column_count() > 0) return s.column_text(0);
  return {};
}

std::vector<std::string> Database::pragma_rows(std::string_view name) {
  Statement s(*this, "PRAGMA " + std::string(name));
  std::vector<std::string> rows;
  while (s.step()) rows.push_back(s.column_count() > 0 ? s.column_text(0) : std::string());
  return rows;
}

void Database::set_busy_timeout(int ms) { check(db_, sqlite3_busy_timeout(db_, ms), "busy_timeout"); }

bool Database::table_exists(std::string_view name) {
  Statement s(*this, "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?1");
  s.bind_text(1, name);
  return s.step();
}

std::int64_t Database::changes() const { return sqlite3_changes64(db_); }

bool Database::in_transaction() const { return sqlite3_get_autocommit(db_) == 0; }

void Database::backup_to(Database& dest) {
  sqlite3_backup* b = sqlite3_backup_init(dest.db_, "main", db_, "main");
  if (b == nullptr) throw_error(dest.db_, sqlite3_errcode(dest.db_), "backup_init");
  int rc = sqlite3_backup_step(b, -1);  // -1: every page, in one read transaction
  int finish_rc = sqlite3_backup_finish(b);
  if (rc != SQLITE_DONE) throw_error(nullptr, rc, "backup_step");
  check(dest.db_, finish_rc, "backup_finish");
}

// ---------------------------------------------------------------- Statement

Statement::Statement(Database& db, std::string_view sql) : db_(db.handle()) {
  if (sql.size() > INT_MAX) throw Error("sqlite: statement too long", SQLITE_TOOBIG, SQLITE_TOOBIG);
  const char* tail = nullptr;
  int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &stmt_,
                              &tail);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(stmt_);
    stmt_ = nullptr;
    throw_error(db_, rc, "prepare " + std::string(sql.substr(0, 80)));
  }
  if (stmt_ == nullptr) throw Error("sqlite: prepare: empty statement", SQLITE_MISUSE, SQLITE_MISUSE);
}

Statement::~Statement() {
  if (stmt_ != nullptr) sqlite3_finalize(stmt_);
}

Statement::Statement(Statement&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), stmt_(std::exchange(other.stmt_, nullptr)) {}

Statement& Statement::operator=(Statement&& other) noexcept {
  if (this != &other) {
    if (stmt_ != nullptr) sqlite3_finalize(stmt_);
    db_ = std::exchange(other.db_, nullptr);
    stmt_ = std::exchange(other.stmt_, nullptr);
  }
  return *this;
}

void Statement::fail(int rc, std::string_view what) const {
  std::string context(what);
  context += " [";
  context += sql().substr(0, 60);
  context += "]";
  throw_error(db_, rc, context);
}

void Statement::bind_int64(int index, std::int64_t value) {
  if (int rc = sqlite3_bind_int64(stmt_, index, value); rc != SQLITE_OK) fail(rc, "bind");
}

void Statement::bind_text(int index, std::string_view value) {
  int rc = sqlite3_bind_text64(stmt_, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
  if (rc != SQLITE_OK) fail(rc, "bind");
}

void Statement::bind_blob(int index, std::span<const std::uint8_t> value) {
  // A null pointer would bind SQL NULL; an empty payload is an empty blob.
  int rc = value.empty() ? sqlite3_bind_zeroblob(stmt_, index, 0)
                         : sqlite3_bind_blob64(stmt_, index, value.data(), value.size(), SQLITE_TRANSIENT);
  if (rc != SQLITE_OK) fail(rc, "bind");
}

void Statement::bind_null(int index) {
  if (int rc = sqlite3_bind_null(stmt_, index); rc != SQLITE_OK) fail(rc, "bind");
}

int Statement::parameter_index(std::string_view name) const {
  int index = sqlite3_bind_parameter_index(stmt_, std::string(name).c_str());
  if (index == 0) {
    throw Error("sqlite: no parameter named " + std::string(name) + " in [" + std::string(sql().substr(0, 60)) + "]",
                SQLITE_RANGE, SQLITE_RANGE);
  }
  return index;
}

void Statement::bind_int64(std::string_view name, std::int64_t value) { bind_int64(parameter_index(name), value); }
void Statement::bind_text(std::string_view name, std::string_view value) { bind_text(parameter_index(name), value); }
void Statement::bind_blob(std::string_view name, std::span<const std::uint8_t> value) {
  bind_blob(parameter_index(name), value);
}
void Statement::bind_null(std::string_view name) { bind_null(parameter_index(name)); }

bool Statement::step() {
  int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  fail(rc, "step");
}

void Statement::run() {
  while (step()) {
  }
}

int Statement::column_count() const { return sqlite3_column_count(stmt_); }

bool Statement::column_is_null(int col) const { return sqlite3_column_type(stmt_, col) == SQLITE_NULL; }

std::int64_t Statement::column_int64(int col) const { return sqlite3_column_int64(stmt_, col); }

std::string Statement::column_text(int col) const {
  const auto* text = sqlite3_column_text(stmt_, col);
  int size = sqlite3_column_bytes(stmt_, col);  // after column_text, per the docs
  if (text == nullptr) return {};
  return std::string(reinterpret_cast<const char*>(text), static_cast<std::size_t>(size));
}

std::vector<std::uint8_t> Statement::column_blob(int col) const {
  const auto* data = static_cast<const std::uint8_t*>(sqlite3_column_blob(stmt_, col));
  int size = sqlite3_column_bytes(stmt_, col);
  if (data == nullptr || size <= 0) return {};
  return std::vector<std::uint8_t>(data, data + size);
}

void Statement::reset() noexcept {
  // The return code repeats the last step's error, already reported by step().
  if (stmt_ != nullptr) sqlite3_reset(stmt_);
}

void Statement::clear_bindings() noexcept {
  if (stmt_ != nullptr) sqlite3_clear_bindings(stmt_);
}

std::string_view Statement::sql() const {
  const char* s = stmt_ != nullptr ? sqlite3_sql(stmt_) : nullptr;
  return s != nullptr ? std::string_view(s) : std::string_view();
}

// ---------------------------------------------------------------- Transaction

Transaction::Transaction(Database& db) : db_(&db) { db_->exec("BEGIN IMMEDIATE"); }

Transaction::~Transaction() {
  if (!open_) return;
  // Some errors (SQLITE_FULL, IOERR, ...) roll the transaction back by
  // themselves; only roll back what is still open.
  if (db_->in_transaction()) sqlite3_exec(db_->handle(), "ROLLBACK", nullptr, nullptr, nullptr);
}

void Transaction::commit() {
  db_->exec("COMMIT");
  open_ = false;
}

void Transaction::rollback() {
  open_ = false;
  if (db_->in_transaction()) db_->exec("ROLLBACK");
}

// ---------------------------------------------------------------- Savepoint

Savepoint::Savepoint(Database& db, std::string name) : db_(&db), name_(std::move(name)) {
  db_->exec("SAVEPOINT " + name_);
}

Savepoint::~Savepoint() {
  if (!open_ || !db_->in_transaction()) return;
  std::string sql = "ROLLBACK TO " + name_ + "; RELEASE " + name_;
  sqlite3_exec(db_->handle(), sql.c_str(), nullptr, nullptr, nullptr);
}

void Savepoint::release() {
  db_->exec("RELEASE " + name_);
  open_ = false;
}

void Savepoint::rollback() {
  open_ = false;
  if (db_->in_transaction()) db_->exec("ROLLBACK TO " + name_ + "; RELEASE " + name_);
}

std::string_view library_version() { return sqlite3_libversion(); }

}  // namespace galloper::persistence::sqlite
