#pragma once
// The SQLite implementation of Store (store.hpp); created by open_sqlite_store.
//
// Layout: one file in WAL mode with synchronous=FULL and foreign keys on.
//
// Threads: two threads per store, each owning one connection.
//  * the writer owns the read-write connection. Writes are queued; the writer
//    takes what is pending — up to max_batch, waiting at most max_delay_us after
//    the oldest pending write arrived (no wait at all when a flush or close is
//    waiting) — and runs them in ONE transaction, each write inside its own
//    SAVEPOINT so a failing write (duplicate id, ...) is rolled back alone. One
//    COMMIT, hence one fsync of the WAL, per batch; then every write's `done`
//    runs, in queue order, with its own Status.
//  * the reader owns a read-only connection and answers reads in arrival
//    order. WAL lets it read while the writer writes; a write is visible to
//    reads queued after its `done` ran.
// Callbacks run on those threads and must neither block nor throw (a throwing
// callback terminates the process), nor call flush() or close().
// After close(), calls answer kIo at once, on the calling thread.
//
// Write rules (enforced, each failure rolls back that write only):
//  * create_game: a game id that exists → kConflict. Seats are stored under the
//    game's id; a seat naming another game (non-empty game_id) → kConflict.
//  * append_step: unknown game → kNotFound; seq must be the game's last seq + 1
//    (1 for the first step), otherwise kConflict: the log has no gaps and no
//    rewrites.
//  * set_wake, mark_ended: unknown game → kNotFound.
// Reads: a failed Status means the store failed. A game or seat that does not
// exist answers nullopt with an ok Status (the server's lobby turns that into
// its own "not found"); load_seats and load_steps of an unknown game answer an
// empty list, ok.
// Lists are ordered: games by (created_unix, id), seats by name, steps by seq,
// due games by (wake_ms, id). due_games reads only the partial index
// games_by_wake (wake_ms, id of the games with a wake-up), not the games.
// I/O errors → kIo; SQLite reporting a damaged file → kCorrupt.
#include "persistence/sqlite.hpp"
#include "persistence/store.hpp"

namespace galloper::persistence {

// How a failed SQLite call is reported to the store's callers.
StoreError to_store_error(const sqlite::Error& e);

}  // namespace galloper::persistence
