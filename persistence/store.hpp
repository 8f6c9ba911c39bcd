#pragma once
// The game store. The interface is narrow on purpose: a PostgreSQL backend
// could implement it later. Today: SQLite in WAL mode, one writer thread with
// group commit, reads on their own connection (sqlite_store.hpp); and an
// in-memory store for tests (memory_store.hpp). tests/persistence/
// store_conformance_test.cpp holds every implementation to the same contract.
//
// Threads: every call may be made from any thread. Completion callbacks run on
// a thread the implementation chooses (SQLite: its own threads; the memory
// store: the caller's, before the call returns); callers post them back to
// their own executor (a room's strand). Callbacks must not block.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace galloper::persistence {

// What went wrong with storage, for logs and for a typed error to the client.
struct StoreError {
  enum class Kind { kNotFound, kConflict, kCorrupt, kIo, kSchema } kind;
  std::string message;
};

struct Status {
  std::optional<StoreError> error;  // empty: committed
  bool ok() const { return !error; }
};

struct GameRecord {
  std::string id;
  std::string title;
  std::string ruleset;
  std::string scenario_name;
  std::string scenario_text;   // the full scenario, so a game never depends on a file
  std::vector<std::uint8_t> seed;   // 32 bytes; secret until the game ends
  std::string seed_commitment;      // hex
  std::int64_t created_unix = 0;
  std::string settings;             // serialized game settings (protobuf text)
  std::uint32_t turn = 0;           // cached for listings
  std::string phase;                // cached for listings
  bool ended = false;
  std::int64_t wake_ms = 0;         // Store::set_wake; create_game stores this value
};

// A game that needs the server at `wake_ms` (Store::due_games).
struct GameWake {
  std::string game_id;
  std::int64_t wake_ms = 0;
};

struct SeatRecord {
  std::string game_id;
  std::string seat;
  std::string description;
  std::string token_hash;      // hex SHA-256 of the invite token; tokens are never stored
};

// One entry of a game's ordered log (answers, umpire actions, resolutions).
struct StepRecord {
  std::string game_id;
  std::uint64_t seq = 0;       // 1, 2, 3 ... within a game
  std::string kind;            // "answer", "umpire", "resolve", ...
  std::vector<std::uint8_t> payload;   // serialized protobuf
  std::uint64_t state_hash = 0;
  std::int64_t created_unix = 0;
  bool superseded = false;     // read back only; set by a later umpire undo, never by append_step
};

// A game's state after one "resolve" log entry, encoded by the ruleset
// (rules::Game::snapshot). Derived data: it only makes loading fast, the log
// stays the record, and a snapshot that does not decode or whose hash differs
// from its entry's is ignored.
struct SnapshotRecord {
  std::string game_id;
  std::uint64_t seq = 0;          // the "resolve" entry whose resulting state this is
  std::uint32_t turn = 0;         // that state's turn
  std::uint64_t state_hash = 0;   // that state's hash (the entry's state_hash)
  bool turn_start = false;        // the entry began `turn` (its state is that turn's first)
  std::vector<std::uint8_t> state;
};

// An umpire's rewind, done in one transaction: every entry after `after_seq`
// whose kind is one of `kinds` is marked superseded (kept, never replayed),
// the snapshots after `after_seq` are dropped, and `entry` (the umpire's
// action, for the audit trail) is appended as the next entry.
struct RewindRecord {
  std::string game_id;
  std::uint64_t after_seq = 0;
  std::vector<std::string> kinds;
  StepRecord entry;
};

struct StoreOptions {
  // Group commit: the writer commits when this many writes are pending or this
  // long after the first one arrived, whichever comes first.
  std::size_t max_batch = 256;
  // 0: no added wait; writes that queue during one commit's fsync still go
  // together in the next transaction, so batching follows the load by itself.
  std::uint32_t max_delay_us = 0;
  bool run_integrity_check = true;   // PRAGMA integrity_check at open
  // For tools (`galloper replay`, `backup`, `export`): the file must exist and
  // be at this build's schema version; nothing is migrated and no writer runs,
  // so nothing is written to the database (SQLite may still create the -wal
  // and -shm side files a WAL reader needs). Writes answer kIo at once.
  bool read_only = false;
  // How long a connection waits for a lock held by another process (e.g. a
  // `galloper backup` or an sqlite3 shell) before the write fails with kIo.
  std::uint32_t busy_timeout_ms = 5000;
};

// Counters since the store was opened, for tests, metrics and benchmarks.
struct StoreStats {
  std::uint64_t writes_committed = 0;        // writes whose `done` got ok
  std::uint64_t writes_failed = 0;           // writes whose `done` got an error
  std::uint64_t transactions_committed = 0;  // group-commit batches (one fsync each)
  std::uint64_t largest_batch = 0;           // most writes in one transaction
};

class Store {
 public:
  virtual ~Store() = default;

  // Writes: queued to the single writer, committed with synchronous=FULL, then
  // `done` runs. Nothing is acknowledged before it is on disk.
  virtual void create_game(GameRecord game, std::vector<SeatRecord> seats,
                           std::function<void(Status)> done) = 0;
  virtual void append_step(StepRecord step, std::function<void(Status)> done) = 0;

  // Reads: answered from a read connection on the store's reader thread.
  virtual void load_game(std::string id,
                         std::function<void(std::optional<GameRecord>, Status)> done) = 0;
  virtual void list_games(std::function<void(std::vector<GameRecord>, Status)> done) = 0;
  // All seats of a game (rooms keep the token hashes and compare in constant time).
  virtual void load_seats(std::string game_id,
                          std::function<void(std::vector<SeatRecord>, Status)> done) = 0;
  virtual void find_seat(std::string game_id, std::string token_hash,
                         std::function<void(std::optional<SeatRecord>, Status)> done) = 0;
  virtual void load_steps(std::string game_id, std::uint64_t after_seq,
                          std::function<void(std::vector<StepRecord>, Status)> done) = 0;

  // Blocks until every write queued so far is committed (shutdown, tests).
  virtual void flush() = 0;
  // Flushes, then stops the threads. Further calls fail with kIo.
  virtual void close() = 0;

  // Additions after the first cut. They have default bodies so other
  // implementations (test fakes) keep compiling.

  // Writes a consistent copy of the whole store to `dest` (which must not
  // exist; kConflict if it does) while writes carry on; for `galloper backup`.
  // The copy is complete and renamed into place before `done` gets ok.
  virtual void backup_to(std::filesystem::path dest, std::function<void(Status)> done) {
    (void)dest;
    done(Status{StoreError{StoreError::Kind::kIo, "backup is not supported by this store"}});
  }
  virtual StoreStats stats() const { return {}; }

  // Snapshots (SnapshotRecord). Writing one for an entry that is not in the
  // log answers kNotFound; writing the same seq twice replaces it.
  virtual void append_snapshot(SnapshotRecord snapshot, std::function<void(Status)> done) {
    (void)snapshot;
    done(Status{StoreError{StoreError::Kind::kIo, "snapshots are not supported by this store"}});
  }
  // The game's snapshots from turn (newest turn - turns_back) on, in seq
  // order: the newest is where loading starts, the first of each turn is
  // that turn's start (delayed spectator views). Empty when there are none.
  virtual void load_snapshots(std::string game_id, std::uint32_t turns_back,
                              std::function<void(std::vector<SnapshotRecord>, Status)> done) {
    (void)game_id;
    (void)turns_back;
    done({}, Status{});
  }
  // RewindRecord. `entry.seq` must be the next seq (kConflict otherwise);
  // nothing changes unless all of it commits.
  virtual void rewind(RewindRecord rewind, std::function<void(Status)> done) {
    (void)rewind;
    done(Status{StoreError{StoreError::Kind::kIo, "rewind is not supported by this store"}});
  }

  // Records that a game has ended (GameRecord.ended), which is what lets its
  // seed be revealed. Unknown game → kNotFound; marking twice is ok.
  virtual void mark_ended(std::string game_id, std::function<void(Status)> done) {
    (void)game_id;
    done(Status{StoreError{StoreError::Kind::kIo, "mark_ended is not supported by this store"}});
  }

  // Wake-ups, so games wake by time across restarts without the server
  // loading every game at start.
  //
  // When the game next needs the server whether or not anyone is connected (a deadline, a pause's end,
  // a digest, a bot seat owing), Unix ms; 0: never (an ended game, or nothing timed). Queued to the writer
  // like every write, in order with the game's log entries.
  // Unknown game → kNotFound. A negative value is stored as 0, so "never" has
  // one spelling. mark_ended leaves the wake-up alone (the server clears it).
  virtual void set_wake(std::string game_id, std::int64_t wake_ms, std::function<void(Status)> done) {
    (void)game_id;
    (void)wake_ms;
    done(Status{StoreError{StoreError::Kind::kIo, "wake-ups are not supported by this store"}});
  }
  // Games whose wake-up is at or before `until_ms` (and not 0), soonest first, at most `limit`.
  // Ties in wake_ms come in game id order, so a limit cuts the same list every time.
  virtual void due_games(std::int64_t until_ms, std::size_t limit,
                         std::function<void(std::vector<GameWake>, Status)> done) {
    (void)until_ms;
    (void)limit;
    done({}, Status{StoreError{StoreError::Kind::kIo, "wake-ups are not supported by this store"}});
  }
};

// Opens (creating if needed) the SQLite store at `file`: WAL mode, schema
// migrations applied, integrity checked. An error names what is wrong and
// changes nothing on disk. With options.read_only: opens an existing store
// without creating, migrating or writing anything (kNotFound if it is absent,
// kSchema if it is not at this build's version).
struct OpenResult {
  std::unique_ptr<Store> store;
  std::optional<StoreError> error;
};
OpenResult open_sqlite_store(const std::filesystem::path& file, const StoreOptions& options = {});

}  // namespace galloper::persistence
