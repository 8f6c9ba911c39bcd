#pragma once
// A Store (store.hpp) held in memory: for unit tests of rooms and the lobby
// without sockets or files, and the reference that
// tests/persistence/store_conformance_test.cpp holds every store to. It keeps
// the SQLite store's rules (sqlite_store.hpp): the same error kinds, the same
// list orders, a failed write changes nothing. Nothing survives the object.
//
// Threads: every call may be made from any thread; one mutex guards the data.
// Completion callbacks run INLINE on the calling thread, before the call
// returns, and never while the mutex is held: a callback may call the store
// again (including flush() and close()). Two threads' calls are applied in the
// order they take the mutex; their callbacks may then run in either order.
//
// Durability has no meaning here: a write is "committed" when it is applied.
// flush() waits only for writes other threads are in the middle of (their
// callbacks included), and returns at once when called from a callback.
// stats() counts each write as its own transaction. After close() every call
// answers kIo at once. backup_to is not supported (kIo).
#include <memory>

#include "persistence/store.hpp"

namespace galloper::persistence {

std::unique_ptr<Store> make_memory_store();

}  // namespace galloper::persistence
