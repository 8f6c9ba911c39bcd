#include "persistence/sqlite_store.hpp"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <limits>
#include <mutex>
#include <thread>
#include <utility>
#include <variant>

#include "persistence/migrations.hpp"

namespace galloper::persistence {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using Kind = StoreError::Kind;

StoreError to_store_error(const sqlite::Error& e) {
  switch (e.extended_code()) {
    case SQLITE_CONSTRAINT_PRIMARYKEY:
    case SQLITE_CONSTRAINT_UNIQUE:
      return {Kind::kConflict, e.what()};
    case SQLITE_CONSTRAINT_FOREIGNKEY:
      return {Kind::kNotFound, e.what()};
    default:
      break;
  }
  switch (e.code()) {
    case SQLITE_CONSTRAINT:
      return {Kind::kConflict, e.what()};
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return {Kind::kCorrupt, e.what()};
    default:
      return {Kind::kIo, e.what()};
  }
}

namespace {

Status failed(Kind kind, std::string message) { return Status{StoreError{kind, std::move(message)}}; }
Status failed(const sqlite::Error& e) { return Status{to_store_error(e)}; }

// seq and state_hash are unsigned on the API and stored bit for bit as INTEGER.
std::int64_t to_db(std::uint64_t v) { return std::bit_cast<std::int64_t>(v); }
std::uint64_t from_db(std::int64_t v) { return std::bit_cast<std::uint64_t>(v); }

// "Never" is stored one way only, so the partial index (wake_ms > 0) and
// due_games need not know about negative values.
std::int64_t wake_to_db(std::int64_t wake_ms) { return std::max<std::int64_t>(wake_ms, 0); }

Status closed_status() { return failed(Kind::kIo, "store is closed"); }

// Renames are durable only once the directory entry is on disk.
void fsync_directory(const fs::path& dir) {
  int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)::fsync(fd);
  ::close(fd);
}

constexpr std::string_view kGameColumns =
    "id, title, ruleset, scenario_name, scenario_text, seed, seed_commitment, created_unix, settings, turn, phase, "
    "ended, wake_ms";

GameRecord read_game(const sqlite::Statement& s) {
  GameRecord g;
  g.id = s.column_text(0);
  g.title = s.column_text(1);
  g.ruleset = s.column_text(2);
  g.scenario_name = s.column_text(3);
  g.scenario_text = s.column_text(4);
  g.seed = s.column_blob(5);
  g.seed_commitment = s.column_text(6);
  g.created_unix = s.column_int64(7);
  g.settings = s.column_text(8);
  g.turn = static_cast<std::uint32_t>(s.column_int64(9));
  g.phase = s.column_text(10);
  g.ended = s.column_int64(11) != 0;
  g.wake_ms = s.column_int64(12);
  return g;
}

// A savepoint on prepared statements: the writer opens one per write, and
// sqlite3_exec would parse the same three statements thousands of times.
class WriteSavepoint {
 public:
  WriteSavepoint(sqlite::Statement& begin, sqlite::Statement& release, sqlite::Statement& rollback)
      : release_(release), rollback_(rollback) {
    auto use = begin.use();
    begin.run();
  }
  ~WriteSavepoint() {
    if (!open_) return;
    try {
      {
        auto use = rollback_.use();
        rollback_.run();
      }
      auto use = release_.use();
      release_.run();
    } catch (const sqlite::Error&) {
      // The enclosing transaction is gone (SQLite rolled it back after an I/O
      // error); the writer notices and fails the whole batch.
    }
  }
  WriteSavepoint(const WriteSavepoint&) = delete;
  WriteSavepoint& operator=(const WriteSavepoint&) = delete;
  void release() {
    auto use = release_.use();
    release_.run();
    open_ = false;
  }

 private:
  sqlite::Statement& release_;
  sqlite::Statement& rollback_;
  bool open_ = true;
};

class SqliteStore final : public Store {
 public:
  // Without a writer connection the store is read-only: no writer thread, and
  // every write answers kIo.
  SqliteStore(std::optional<sqlite::Database> writer_db, sqlite::Database reader_db, const StoreOptions& options)
      : options_(options),
        write_db_(std::move(writer_db)),
        read_db_(std::move(reader_db)),
        r_(*read_db_) {
    if (options_.max_batch == 0) options_.max_batch = 1;
    if (write_db_) {
      w_ = WriterStatements(*write_db_);
      writer_ = std::thread([this] { writer_loop(); });
    }
    reader_ = std::thread([this] { reader_loop(); });
    writer_id_ = writer_.get_id();
    reader_id_ = reader_.get_id();
  }

  ~SqliteStore() override { close(); }

  void create_game(GameRecord game, std::vector<SeatRecord> seats, std::function<void(Status)> done) override {
    enqueue_write(CreateGame{std::move(game), std::move(seats)}, std::move(done));
  }

  void append_step(StepRecord step, std::function<void(Status)> done) override {
    enqueue_write(AppendStep{std::move(step)}, std::move(done));
  }

  void mark_ended(std::string game_id, std::function<void(Status)> done) override {
    enqueue_write(MarkEnded{std::move(game_id)}, std::move(done));
  }

  void append_snapshot(SnapshotRecord snapshot, std::function<void(Status)> done) override {
    enqueue_write(AppendSnapshot{std::move(snapshot)}, std::move(done));
  }

  void rewind(RewindRecord rewind, std::function<void(Status)> done) override {
    enqueue_write(Rewind{std::move(rewind)}, std::move(done));
  }

  void set_wake(std::string game_id, std::int64_t wake_ms, std::function<void(Status)> done) override {
    enqueue_write(SetWake{std::move(game_id), wake_ms}, std::move(done));
  }

  void due_games(std::int64_t until_ms, std::size_t limit,
                 std::function<void(std::vector<GameWake>, Status)> done) override {
    auto job = [this, until_ms, limit, done]() mutable {
      try {
        std::vector<GameWake> due;
        auto& s = *r_.due_games;
        auto use = s.use();
        s.bind_int64(1, until_ms);
        s.bind_int64(2, static_cast<std::int64_t>(
                            std::min<std::uint64_t>(limit, std::numeric_limits<std::int64_t>::max())));
        while (s.step()) due.push_back({s.column_text(0), s.column_int64(1)});
        done(std::move(due), Status{});
      } catch (const sqlite::Error& e) {
        done({}, failed(e));
      }
    };
    if (!enqueue_read(std::move(job))) done({}, closed_status());
  }

  void load_snapshots(std::string game_id, std::uint32_t turns_back,
                      std::function<void(std::vector<SnapshotRecord>, Status)> done) override {
    auto job = [this, game_id = std::move(game_id), turns_back, done]() mutable {
      try {
        std::vector<SnapshotRecord> snapshots;
        auto& s = *r_.load_snapshots;
        auto use = s.use();
        s.bind_text(1, game_id);
        s.bind_int64(2, turns_back);
        while (s.step()) {
          SnapshotRecord snap;
          snap.game_id = game_id;
          snap.seq = from_db(s.column_int64(0));
          snap.turn = static_cast<std::uint32_t>(s.column_int64(1));
          snap.state_hash = from_db(s.column_int64(2));
          snap.state = s.column_blob(3);
          snap.turn_start = s.column_int64(4) != 0;
          snapshots.push_back(std::move(snap));
        }
        done(std::move(snapshots), Status{});
      } catch (const sqlite::Error& e) {
        done({}, failed(e));
      }
    };
    if (!enqueue_read(std::move(job))) done({}, closed_status());
  }

  void load_game(std::string id, std::function<void(std::optional<GameRecord>, Status)> done) override {
    auto job = [this, id = std::move(id), done]() mutable {
      try {
        auto& s = *r_.load_game;
        auto use = s.use();
        s.bind_text(1, id);
        if (!s.step()) return done(std::nullopt, Status{});  // absent is an answer, not a failure
        GameRecord game = read_game(s);
        done(std::move(game), Status{});
      } catch (const sqlite::Error& e) {
        done(std::nullopt, failed(e));
      }
    };
    if (!enqueue_read(std::move(job))) done(std::nullopt, closed_status());
  }

  void list_games(std::function<void(std::vector<GameRecord>, Status)> done) override {
    auto job = [this, done]() mutable {
      try {
        std::vector<GameRecord> games;
        auto& s = *r_.list_games;
        auto use = s.use();
        while (s.step()) games.push_back(read_game(s));
        done(std::move(games), Status{});
      } catch (const sqlite::Error& e) {
        done({}, failed(e));
      }
    };
    if (!enqueue_read(std::move(job))) done({}, closed_status());
  }

  void load_seats(std::string game_id, std::function<void(std::vector<SeatRecord>, Status)> done) override {
    auto job = [this, game_id = std::move(game_id), done]() mutable {
      try {
        std::vector<SeatRecord> seats;
        auto& s = *r_.load_seats;
        auto use = s.use();
        s.bind_text(1, game_id);
        while (s.step()) seats.push_back({s.column_text(0), s.column_text(1), s.column_text(2), s.column_text(3)});
        done(std::move(seats), Status{});
      } catch (const sqlite::Error& e) {
        done({}, failed(e));
      }
    };
    if (!enqueue_read(std::move(job))) done({}, closed_status());
  }

  void find_seat(std::string game_id, std::string token_hash,
                 std::function<void(std::optional<SeatRecord>, Status)> done) override {
    auto job = [this, game_id = std::move(game_id), token_hash = std::move(token_hash), done]() mutable {
      try {
        auto& s = *r_.find_seat;
        auto use = s.use();
        s.bind_text(1, game_id);
        s.bind_text(2, token_hash);
        if (!s.step()) return done(std::nullopt, Status{});
        SeatRecord seat{s.column_text(0), s.column_text(1), s.column_text(2), s.column_text(3)};
        done(std::move(seat), Status{});
      } catch (const sqlite::Error& e) {
        done(std::nullopt, failed(e));
      }
    };
    if (!enqueue_read(std::move(job))) done(std::nullopt, closed_status());
  }

  void load_steps(std::string game_id, std::uint64_t after_seq,
                  std::function<void(std::vector<StepRecord>, Status)> done) override {
    auto job = [this, game_id = std::move(game_id), after_seq, done]() mutable {
      try {
        std::vector<StepRecord> steps;
        auto& s = *r_.load_steps;
        auto use = s.use();
        s.bind_text(1, game_id);
        // seq is positive as an int64; anything larger means "after everything".
        s.bind_int64(2, static_cast<std::int64_t>(
                            std::min<std::uint64_t>(after_seq, std::numeric_limits<std::int64_t>::max())));
        while (s.step()) {
          StepRecord step;
          step.game_id = game_id;
          step.seq = from_db(s.column_int64(0));
          step.kind = s.column_text(1);
          step.payload = s.column_blob(2);
          step.state_hash = from_db(s.column_int64(3));
          step.created_unix = s.column_int64(4);
          step.superseded = s.column_int64(5) != 0;
          steps.push_back(std::move(step));
        }
        done(std::move(steps), Status{});
      } catch (const sqlite::Error& e) {
        done({}, failed(e));
      }
    };
    if (!enqueue_read(std::move(job))) done({}, closed_status());
  }

  void backup_to(fs::path dest, std::function<void(Status)> done) override {
    auto job = [this, dest = std::move(dest), done]() mutable {
      try {
        std::error_code ec;
        if (fs::exists(dest, ec)) return done(failed(Kind::kConflict, "backup: " + dest.string() + " already exists"));
        if (dest.has_parent_path()) fs::create_directories(dest.parent_path(), ec);
        if (ec) return done(failed(Kind::kIo, "backup: " + dest.parent_path().string() + ": " + ec.message()));
        // Copy into a side file and rename it into place, so `dest` is either
        // absent or complete.
        fs::path partial = dest;
        partial += ".partial";
        fs::remove(partial, ec);
        {
          sqlite::Database out(partial, sqlite::OpenFlags::kReadWrite | sqlite::OpenFlags::kCreate,
                               static_cast<int>(options_.busy_timeout_ms));
          out.pragma("synchronous", "FULL");
          read_db_->backup_to(out);
        }
        fs::rename(partial, dest, ec);
        if (ec) return done(failed(Kind::kIo, "backup: rename to " + dest.string() + ": " + ec.message()));
        fsync_directory(dest.parent_path());
        done(Status{});
      } catch (const sqlite::Error& e) {
        done(failed(e));
      } catch (const fs::filesystem_error& e) {
        done(failed(Kind::kIo, std::string("backup: ") + e.what()));
      }
    };
    if (!enqueue_read(std::move(job))) done(closed_status());
  }

  StoreStats stats() const override {
    std::lock_guard lock(mu_);
    return stats_;
  }

  void flush() override {
    if (std::this_thread::get_id() == writer_id_) return;  // a callback cannot wait for its own thread
    std::unique_lock lock(mu_);
    const std::uint64_t target = writes_enqueued_;
    if (writes_done_ >= target) return;
    ++flush_waiters_;
    write_cv_.notify_one();  // cut the group-commit delay short
    flushed_cv_.wait(lock, [&] { return writes_done_ >= target; });
    --flush_waiters_;
  }

  void close() override {
    // Joining its own thread would deadlock: a callback may not close.
    auto self = std::this_thread::get_id();
    if (self == writer_id_ || self == reader_id_) std::terminate();
    std::lock_guard close_lock(close_mu_);
    if (closed_) return;
    {
      std::lock_guard lock(mu_);
      closing_ = true;
    }
    write_cv_.notify_all();
    read_cv_.notify_all();
    if (writer_.joinable()) writer_.join();  // drains every queued write first
    reader_.join();  // answers every queued read first
    // Statements before their connection; the read-only connection before the
    // writer, so the writer's close is the last one and checkpoints the WAL
    // back into the main file.
    r_ = {};
    w_ = {};
    read_db_.reset();
    write_db_.reset();
    closed_ = true;
  }

 private:
  struct CreateGame {
    GameRecord game;
    std::vector<SeatRecord> seats;
  };
  struct AppendStep {
    StepRecord step;
  };
  struct MarkEnded {
    std::string game_id;
  };
  struct AppendSnapshot {
    SnapshotRecord snapshot;
  };
  struct Rewind {
    RewindRecord rewind;
  };
  struct SetWake {
    std::string game_id;
    std::int64_t wake_ms;
  };
  using WriteOp = std::variant<CreateGame, AppendStep, MarkEnded, AppendSnapshot, Rewind, SetWake>;
  struct Write {
    WriteOp op;
    std::function<void(Status)> done;
    Clock::time_point enqueued;
  };

  // Prepared once per connection, used only by the thread that owns it.
  struct WriterStatements {
    WriterStatements() = default;
    explicit WriterStatements(sqlite::Database& db)
        : begin(std::make_unique<sqlite::Statement>(db, "BEGIN IMMEDIATE")),
          commit(std::make_unique<sqlite::Statement>(db, "COMMIT")),
          rollback(std::make_unique<sqlite::Statement>(db, "ROLLBACK")),
          sp_begin(std::make_unique<sqlite::Statement>(db, "SAVEPOINT write")),
          sp_release(std::make_unique<sqlite::Statement>(db, "RELEASE write")),
          sp_rollback(std::make_unique<sqlite::Statement>(db, "ROLLBACK TO write")),
          insert_game(std::make_unique<sqlite::Statement>(
              db, "INSERT INTO games (" + std::string(kGameColumns) +
                      ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)")),
          insert_seat(std::make_unique<sqlite::Statement>(
              db, "INSERT INTO seats (game_id, seat, description, token_hash) VALUES (?1, ?2, ?3, ?4)")),
          game_exists(std::make_unique<sqlite::Statement>(db, "SELECT 1 FROM games WHERE id = ?1")),
          last_seq(std::make_unique<sqlite::Statement>(db, "SELECT max(seq) FROM steps WHERE game_id = ?1")),
          insert_step(std::make_unique<sqlite::Statement>(
              db,
              "INSERT INTO steps (game_id, seq, kind, payload, state_hash, created_unix) "
              "VALUES (?1, ?2, ?3, ?4, ?5, ?6)")),
          mark_ended(std::make_unique<sqlite::Statement>(db, "UPDATE games SET ended = 1 WHERE id = ?1")),
          step_kind(std::make_unique<sqlite::Statement>(
              db, "SELECT kind, superseded FROM steps WHERE game_id = ?1 AND seq = ?2")),
          upsert_snapshot(std::make_unique<sqlite::Statement>(
              db,
              "INSERT INTO snapshots (game_id, seq, state, turn, state_hash, turn_start) VALUES (?1, ?2, ?3, ?4, ?5, ?6) "
              "ON CONFLICT (game_id, seq) DO UPDATE SET state = excluded.state, turn = excluded.turn, "
              "state_hash = excluded.state_hash, turn_start = excluded.turn_start")),
          supersede(std::make_unique<sqlite::Statement>(
              db,
              "UPDATE steps SET superseded = 1 WHERE game_id = ?1 AND seq > ?2 AND superseded = 0 "
              "AND kind = ?3")),
          drop_snapshots(std::make_unique<sqlite::Statement>(
              db, "DELETE FROM snapshots WHERE game_id = ?1 AND seq > ?2")),
          set_wake(std::make_unique<sqlite::Statement>(db, "UPDATE games SET wake_ms = ?2 WHERE id = ?1")) {}
    std::unique_ptr<sqlite::Statement> begin, commit, rollback, sp_begin, sp_release, sp_rollback, insert_game,
        insert_seat, game_exists, last_seq, insert_step, mark_ended, step_kind, upsert_snapshot, supersede,
        drop_snapshots, set_wake;
  };
  struct ReaderStatements {
    ReaderStatements() = default;
    explicit ReaderStatements(sqlite::Database& db)
        : load_game(std::make_unique<sqlite::Statement>(
              db, "SELECT " + std::string(kGameColumns) + " FROM games WHERE id = ?1")),
          list_games(std::make_unique<sqlite::Statement>(
              db, "SELECT " + std::string(kGameColumns) + " FROM games ORDER BY created_unix, id")),
          load_seats(std::make_unique<sqlite::Statement>(
              db, "SELECT game_id, seat, description, token_hash FROM seats WHERE game_id = ?1 ORDER BY seat")),
          find_seat(std::make_unique<sqlite::Statement>(
              db,
              "SELECT game_id, seat, description, token_hash FROM seats "
              "WHERE game_id = ?1 AND token_hash = ?2 ORDER BY seat LIMIT 1")),
          load_steps(std::make_unique<sqlite::Statement>(
              db,
              "SELECT seq, kind, payload, state_hash, created_unix, superseded FROM steps "
              "WHERE game_id = ?1 AND seq > ?2 ORDER BY seq")),
          load_snapshots(std::make_unique<sqlite::Statement>(
              db,
              "SELECT seq, turn, state_hash, state, turn_start FROM snapshots WHERE game_id = ?1 AND turn + ?2 >= "
              "(SELECT coalesce(max(turn), 0) FROM snapshots WHERE game_id = ?1) ORDER BY seq")),
          // `wake_ms > 0` spelled as in the partial index games_by_wake, so
          // the planner uses it; the index is (wake_ms, id), this query's
          // order, so it is answered from the index alone.
          due_games(std::make_unique<sqlite::Statement>(
              db,
              "SELECT id, wake_ms FROM games WHERE wake_ms > 0 AND wake_ms <= ?1 "
              "ORDER BY wake_ms, id LIMIT ?2")) {}
    std::unique_ptr<sqlite::Statement> load_game, list_games, load_seats, find_seat, load_steps, load_snapshots,
        due_games;
  };

  void enqueue_write(WriteOp op, std::function<void(Status)> done) {
    if (!write_db_) return done(failed(Kind::kIo, "the store is open read-only"));
    {
      std::lock_guard lock(mu_);
      if (!closing_) {
        writes_.push_back(Write{std::move(op), std::move(done), Clock::now()});
        ++writes_enqueued_;
        // The writer waits either for a first write or for a full batch; other
        // arrivals need not wake it.
        if (writes_.size() == 1 || writes_.size() >= options_.max_batch) write_cv_.notify_one();
        return;
      }
    }
    done(closed_status());
  }

  bool enqueue_read(std::function<void()> job) {
    {
      std::lock_guard lock(mu_);
      if (closing_) return false;
      reads_.push_back(std::move(job));
    }
    read_cv_.notify_one();
    return true;
  }

  void reader_loop() {
    std::unique_lock lock(mu_);
    for (;;) {
      read_cv_.wait(lock, [&] { return !reads_.empty() || closing_; });
      if (reads_.empty()) return;
      auto job = std::move(reads_.front());
      reads_.pop_front();
      lock.unlock();
      job();
      lock.lock();
    }
  }

  void writer_loop() {
    const auto max_delay = std::chrono::microseconds(options_.max_delay_us);
    std::vector<Write> batch;
    batch.reserve(std::min<std::size_t>(options_.max_batch, 1024));
    std::unique_lock lock(mu_);
    for (;;) {
      write_cv_.wait(lock, [&] { return !writes_.empty() || closing_; });
      if (writes_.empty()) return;  // closing, and everything is written
      // Group commit: give other writers until max_delay after the oldest
      // pending write, unless the batch is full or someone waits for it.
      const auto deadline = writes_.front().enqueued + max_delay;
      write_cv_.wait_until(lock, deadline, [&] {
        return writes_.size() >= options_.max_batch || closing_ || flush_waiters_ > 0;
      });
      const std::size_t n = std::min(writes_.size(), options_.max_batch);
      for (std::size_t i = 0; i < n; ++i) {
        batch.push_back(std::move(writes_.front()));
        writes_.pop_front();
      }
      lock.unlock();

      std::vector<Status> results = run_batch(batch);
      const auto ok = static_cast<std::uint64_t>(std::count_if(results.begin(), results.end(),
                                                               [](const Status& s) { return s.ok(); }));
      {
        // Counted before the callbacks run, so a callback sees its own batch.
        std::lock_guard stats_lock(mu_);
        stats_.writes_committed += ok;
        stats_.writes_failed += n - ok;
        if (committed_last_) ++stats_.transactions_committed;
        stats_.largest_batch = std::max<std::uint64_t>(stats_.largest_batch, n);
      }
      for (std::size_t i = 0; i < batch.size(); ++i) notify(batch[i].done, std::move(results[i]));
      batch.clear();

      lock.lock();
      writes_done_ += n;  // after the callbacks: flush() promises they ran
      flushed_cv_.notify_all();
    }
  }

  static void notify(std::function<void(Status)>& done, Status status) noexcept {
    if (done) done(std::move(status));
  }

  // Runs a batch in one transaction; returns each write's Status. If the
  // transaction itself fails (BEGIN, COMMIT, or SQLite rolled it back after an
  // I/O error), nothing of the batch is on disk and every write fails.
  std::vector<Status> run_batch(std::vector<Write>& batch) {
    std::vector<Status> results(batch.size());
    committed_last_ = false;
    try {
      {
        auto use = w_.begin->use();
        w_.begin->run();
      }
      try {
        for (std::size_t i = 0; i < batch.size(); ++i) {
          results[i] = apply(batch[i]);
          if (!write_db_->in_transaction()) {
            throw sqlite::Error("sqlite: the batch's transaction was rolled back by SQLite after: " +
                                    (results[i].ok() ? std::string("an error") : results[i].error->message),
                                SQLITE_IOERR, SQLITE_IOERR);
          }
        }
        auto use = w_.commit->use();
        w_.commit->run();
        committed_last_ = true;
      } catch (...) {
        if (write_db_->in_transaction()) {
          auto use = w_.rollback->use();
          try {
            w_.rollback->run();
          } catch (const sqlite::Error&) {
          }
        }
        throw;
      }
    } catch (const sqlite::Error& e) {
      Status whole = failed(e);
      whole.error->kind = whole.error->kind == Kind::kCorrupt ? Kind::kCorrupt : Kind::kIo;
      for (auto& r : results) {
        if (r.ok()) r = whole;  // a write that failed on its own keeps its own reason
      }
    }
    return results;
  }

  Status apply(Write& write) {
    try {
      WriteSavepoint sp(*w_.sp_begin, *w_.sp_release, *w_.sp_rollback);
      Status s = std::visit([this](auto& op) { return apply_op(op); }, write.op);
      if (s.ok()) sp.release();  // else the destructor rolls the write back
      return s;
    } catch (const sqlite::Error& e) {
      return failed(e);
    }
  }

  Status apply_op(CreateGame& op) {
    const GameRecord& g = op.game;
    {
      auto& s = *w_.insert_game;
      auto use = s.use();
      s.bind_text(1, g.id);
      s.bind_text(2, g.title);
      s.bind_text(3, g.ruleset);
      s.bind_text(4, g.scenario_name);
      s.bind_text(5, g.scenario_text);
      s.bind_blob(6, g.seed);
      s.bind_text(7, g.seed_commitment);
      s.bind_int64(8, g.created_unix);
      s.bind_text(9, g.settings);
      s.bind_int64(10, g.turn);
      s.bind_text(11, g.phase);
      s.bind_int64(12, g.ended ? 1 : 0);
      s.bind_int64(13, wake_to_db(g.wake_ms));
      try {
        s.run();
      } catch (const sqlite::Error& e) {
        if (e.extended_code() == SQLITE_CONSTRAINT_PRIMARYKEY) {
          return failed(Kind::kConflict, "a game with id '" + g.id + "' already exists");
        }
        throw;
      }
    }
    for (const SeatRecord& seat : op.seats) {
      if (!seat.game_id.empty() && seat.game_id != g.id) {
        return failed(Kind::kConflict, "seat '" + seat.seat + "' names game '" + seat.game_id +
                                           "' but is created with game '" + g.id + "'");
      }
      auto& s = *w_.insert_seat;
      auto use = s.use();
      s.bind_text(1, g.id);
      s.bind_text(2, seat.seat);
      s.bind_text(3, seat.description);
      s.bind_text(4, seat.token_hash);
      try {
        s.run();
      } catch (const sqlite::Error& e) {
        if (e.extended_code() == SQLITE_CONSTRAINT_PRIMARYKEY) {
          return failed(Kind::kConflict, "game '" + g.id + "' lists seat '" + seat.seat + "' twice");
        }
        throw;
      }
    }
    return {};
  }

  Status apply_op(AppendStep& op) {
    const StepRecord& st = op.step;
    std::uint64_t last = 0;
    {
      auto& s = *w_.last_seq;
      auto use = s.use();
      s.bind_text(1, st.game_id);
      if (s.step() && !s.column_is_null(0)) last = from_db(s.column_int64(0));
    }
    if (last == 0) {
      auto& s = *w_.game_exists;
      auto use = s.use();
      s.bind_text(1, st.game_id);
      if (!s.step()) return failed(Kind::kNotFound, "append_step: no game '" + st.game_id + "'");
    }
    if (st.seq != last + 1) {
      return failed(Kind::kConflict, "append_step: game '" + st.game_id + "' expects seq " + std::to_string(last + 1) +
                                         ", got " + std::to_string(st.seq));
    }
    auto& s = *w_.insert_step;
    auto use = s.use();
    s.bind_text(1, st.game_id);
    s.bind_int64(2, to_db(st.seq));
    s.bind_text(3, st.kind);
    s.bind_blob(4, st.payload);
    s.bind_int64(5, to_db(st.state_hash));
    s.bind_int64(6, st.created_unix);
    s.run();
    return {};
  }

  Status apply_op(AppendSnapshot& op) {
    const SnapshotRecord& snap = op.snapshot;
    {
      auto& s = *w_.step_kind;
      auto use = s.use();
      s.bind_text(1, snap.game_id);
      s.bind_int64(2, to_db(snap.seq));
      if (!s.step()) {
        return failed(Kind::kNotFound, "append_snapshot: game '" + snap.game_id + "' has no log entry " +
                                           std::to_string(snap.seq));
      }
      if (s.column_text(0) != "resolve" || s.column_int64(1) != 0) {
        return failed(Kind::kConflict, "append_snapshot: log entry " + std::to_string(snap.seq) + " of game '" +
                                           snap.game_id + "' is not a live resolution");
      }
    }
    auto& s = *w_.upsert_snapshot;
    auto use = s.use();
    s.bind_text(1, snap.game_id);
    s.bind_int64(2, to_db(snap.seq));
    s.bind_blob(3, snap.state);
    s.bind_int64(4, snap.turn);
    s.bind_int64(5, to_db(snap.state_hash));
    s.bind_int64(6, snap.turn_start ? 1 : 0);
    s.run();
    return {};
  }

  Status apply_op(Rewind& op) {
    const RewindRecord& r = op.rewind;
    if (r.entry.game_id != r.game_id) {
      return failed(Kind::kConflict, "rewind: the entry names game '" + r.entry.game_id + "', not '" + r.game_id + "'");
    }
    if (r.after_seq >= r.entry.seq) {
      return failed(Kind::kConflict, "rewind: entry " + std::to_string(r.entry.seq) + " cannot record a rewind to after entry " +
                                         std::to_string(r.after_seq));
    }
    for (const std::string& kind : r.kinds) {
      auto& s = *w_.supersede;
      auto use = s.use();
      s.bind_text(1, r.game_id);
      s.bind_int64(2, to_db(r.after_seq));
      s.bind_text(3, kind);
      s.run();
    }
    {
      auto& s = *w_.drop_snapshots;
      auto use = s.use();
      s.bind_text(1, r.game_id);
      s.bind_int64(2, to_db(r.after_seq));
      s.run();
    }
    AppendStep append{r.entry};
    return apply_op(append);  // checks the game and the seq; a failure rolls the savepoint back
  }

  Status apply_op(MarkEnded& op) {
    auto& s = *w_.mark_ended;
    auto use = s.use();
    s.bind_text(1, op.game_id);
    s.run();
    if (write_db_->changes() == 0) return failed(Kind::kNotFound, "mark_ended: no game '" + op.game_id + "'");
    return {};
  }

  Status apply_op(SetWake& op) {
    auto& s = *w_.set_wake;
    auto use = s.use();
    s.bind_text(1, op.game_id);
    s.bind_int64(2, wake_to_db(op.wake_ms));
    s.run();
    if (write_db_->changes() == 0) return failed(Kind::kNotFound, "set_wake: no game '" + op.game_id + "'");
    return {};
  }

  StoreOptions options_;
  std::optional<sqlite::Database> write_db_;
  std::optional<sqlite::Database> read_db_;
  WriterStatements w_;  // writer thread only
  ReaderStatements r_;  // reader thread only
  bool committed_last_ = false;  // writer thread only

  mutable std::mutex mu_;
  std::condition_variable write_cv_;    // a write arrived, a batch filled, flush or close
  std::condition_variable flushed_cv_;  // a batch finished
  std::condition_variable read_cv_;     // a read arrived, or close
  std::deque<Write> writes_;
  std::deque<std::function<void()>> reads_;
  std::uint64_t writes_enqueued_ = 0;
  std::uint64_t writes_done_ = 0;  // committed or failed, callbacks run
  std::size_t flush_waiters_ = 0;
  bool closing_ = false;
  StoreStats stats_;

  std::mutex close_mu_;
  bool closed_ = false;  // under close_mu_
  std::thread::id writer_id_;
  std::thread::id reader_id_;
  std::thread writer_;
  std::thread reader_;
};

// Everything that can be checked without writing: the header, the schema
// version, and (optionally) the whole file's integrity. Read-only, so a file
// that fails is left exactly as it was.
void preflight(const fs::path& file, const StoreOptions& options) {
  sqlite::Database db(file, sqlite::OpenFlags::kReadOnly, static_cast<int>(options.busy_timeout_ms));
  check_schema_version(db);  // reads the header and sqlite_schema first: NOTADB shows here
  if (options.run_integrity_check) {
    std::vector<std::string> problems = db.pragma_rows("integrity_check(20)");
    if (problems.size() != 1 || problems.front() != "ok") {
      std::string msg = "integrity_check failed for " + file.string() + ":";
      for (const auto& p : problems) msg += "\n  " + p;
      throw sqlite::Error(std::move(msg), SQLITE_CORRUPT, SQLITE_CORRUPT);
    }
  }
}

}  // namespace

OpenResult open_sqlite_store(const fs::path& file, const StoreOptions& options) {
  auto fail = [](Kind kind, std::string message) { return OpenResult{nullptr, StoreError{kind, std::move(message)}}; };
  if (sqlite3_libversion_number() < 3037000) {  // STRICT tables
    return fail(Kind::kIo, "SQLite " + std::string(sqlite3_libversion()) + " is too old: the store needs 3.37 or newer");
  }
  try {
    std::error_code ec;
    if (options.read_only && !fs::exists(file, ec)) {
      return fail(Kind::kNotFound, "there is no game store at " + file.string());
    }
    if (file.has_parent_path() && !options.read_only) {
      fs::create_directories(file.parent_path(), ec);
      if (ec) return fail(Kind::kIo, "cannot create " + file.parent_path().string() + ": " + ec.message());
    }
    const auto status = fs::status(file, ec);
    if (fs::exists(status)) {
      if (!fs::is_regular_file(status)) return fail(Kind::kIo, file.string() + " is not a regular file");
      preflight(file, options);
    }
    const int busy = static_cast<int>(options.busy_timeout_ms);
    if (options.read_only) {
      sqlite::Database reader(file, sqlite::OpenFlags::kReadOnly, busy);
      // An older store would need a migration, which is a write: refuse.
      if (const int found = schema_version(reader); found != latest_schema_version()) {
        return fail(Kind::kSchema, file.string() + " is at schema version " + std::to_string(found) +
                                       " and this build reads version " + std::to_string(latest_schema_version()) +
                                       "; start `galloper serve` on it once to migrate it (nothing was changed)");
      }
      return OpenResult{std::make_unique<SqliteStore>(std::nullopt, std::move(reader), options), std::nullopt};
    }
    sqlite::Database writer(file, sqlite::OpenFlags::kReadWrite | sqlite::OpenFlags::kCreate, busy);
    if (std::string mode = writer.pragma("journal_mode", "WAL"); mode != "wal") {
      return fail(Kind::kIo, file.string() + ": cannot use WAL mode (journal_mode is '" + mode + "')");
    }
    writer.pragma("synchronous", "FULL");
    writer.pragma("foreign_keys", "ON");
    if (writer.pragma("foreign_keys") != "1") return fail(Kind::kIo, "this SQLite build cannot enforce foreign keys");
    migrate(writer);
    sqlite::Database reader(file, sqlite::OpenFlags::kReadOnly, busy);
    return OpenResult{std::make_unique<SqliteStore>(std::optional<sqlite::Database>(std::move(writer)),
                                                    std::move(reader), options),
                      std::nullopt};
  } catch (const SchemaError& e) {
    return fail(Kind::kSchema, e.what());
  } catch (const sqlite::Error& e) {
    StoreError err = to_store_error(e);
    if (err.kind != Kind::kCorrupt) err.kind = Kind::kIo;
    err.message = "open " + file.string() + ": " + err.message;
    return OpenResult{nullptr, std::move(err)};
  } catch (const fs::filesystem_error& e) {
    return fail(Kind::kIo, e.what());
  }
}

}  // namespace galloper::persistence
