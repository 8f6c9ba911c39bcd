#include "persistence/memory_store.hpp"

#include <algorithm>
#include <condition_variable>
#include <map>
#include <mutex>
#include <set>
#include <utility>

namespace galloper::persistence {

namespace {

using Kind = StoreError::Kind;

Status failed(Kind kind, std::string message) { return Status{StoreError{kind, std::move(message)}}; }
Status closed_status() { return failed(Kind::kIo, "store is closed"); }

// How deep the current thread is in this module's callbacks: flush() and
// close() from inside one must not wait for the write whose callback it is.
thread_local int t_callback_depth = 0;

class MemoryStore final : public Store {
 public:
  ~MemoryStore() override { close(); }

  void create_game(GameRecord game, std::vector<SeatRecord> seats, std::function<void(Status)> done) override {
    write(std::move(done), [&]() -> Status {
      if (games_.contains(game.id)) return failed(Kind::kConflict, "a game with id '" + game.id + "' already exists");
      // Checked in full before anything changes: a failed write leaves nothing.
      Game g;
      for (SeatRecord& seat : seats) {
        if (!seat.game_id.empty() && seat.game_id != game.id) {
          return failed(Kind::kConflict, "seat '" + seat.seat + "' names game '" + seat.game_id +
                                             "' but is created with game '" + game.id + "'");
        }
        seat.game_id = game.id;
        const std::string name = seat.seat;
        if (!g.seats.emplace(name, std::move(seat)).second) {
          return failed(Kind::kConflict, "game '" + game.id + "' lists seat '" + name + "' twice");
        }
      }
      game.wake_ms = std::max<std::int64_t>(game.wake_ms, 0);
      g.record = std::move(game);
      if (g.record.wake_ms > 0) wakes_.emplace(g.record.wake_ms, g.record.id);
      const std::string id = g.record.id;
      games_.emplace(id, std::move(g));
      return {};
    });
  }

  void append_step(StepRecord step, std::function<void(Status)> done) override {
    write(std::move(done), [&]() -> Status {
      Game* g = find(step.game_id);
      if (Status s = check_next(g, step, "append_step"); !s.ok()) return s;
      step.superseded = false;  // only a rewind supersedes
      g->steps.push_back(std::move(step));
      return {};
    });
  }

  void append_snapshot(SnapshotRecord snapshot, std::function<void(Status)> done) override {
    write(std::move(done), [&]() -> Status {
      Game* g = find(snapshot.game_id);
      const StepRecord* entry = nullptr;
      if (g != nullptr && snapshot.seq >= 1 && snapshot.seq <= g->steps.size()) entry = &g->steps[snapshot.seq - 1];
      if (entry == nullptr) {
        return failed(Kind::kNotFound, "append_snapshot: game '" + snapshot.game_id + "' has no log entry " +
                                           std::to_string(snapshot.seq));
      }
      if (entry->kind != "resolve" || entry->superseded) {
        return failed(Kind::kConflict, "append_snapshot: log entry " + std::to_string(snapshot.seq) + " of game '" +
                                           snapshot.game_id + "' is not a live resolution");
      }
      const std::uint64_t seq = snapshot.seq;
      g->snapshots.insert_or_assign(seq, std::move(snapshot));
      return {};
    });
  }

  void rewind(RewindRecord rewind, std::function<void(Status)> done) override {
    write(std::move(done), [&]() -> Status {
      const RewindRecord& r = rewind;
      if (r.entry.game_id != r.game_id) {
        return failed(Kind::kConflict,
                      "rewind: the entry names game '" + r.entry.game_id + "', not '" + r.game_id + "'");
      }
      if (r.after_seq >= r.entry.seq) {
        return failed(Kind::kConflict, "rewind: entry " + std::to_string(r.entry.seq) +
                                           " cannot record a rewind to after entry " + std::to_string(r.after_seq));
      }
      Game* g = find(r.game_id);
      // Superseding never changes the last seq, so the entry can be checked
      // first and the rewind then applied whole.
      if (Status s = check_next(g, r.entry, "rewind"); !s.ok()) return s;
      for (StepRecord& step : g->steps) {
        if (step.seq > r.after_seq && std::find(r.kinds.begin(), r.kinds.end(), step.kind) != r.kinds.end()) {
          step.superseded = true;
        }
      }
      g->snapshots.erase(g->snapshots.upper_bound(r.after_seq), g->snapshots.end());
      StepRecord entry = std::move(rewind.entry);
      entry.superseded = false;
      g->steps.push_back(std::move(entry));
      return {};
    });
  }

  void mark_ended(std::string game_id, std::function<void(Status)> done) override {
    write(std::move(done), [&]() -> Status {
      Game* g = find(game_id);
      if (g == nullptr) return failed(Kind::kNotFound, "mark_ended: no game '" + game_id + "'");
      g->record.ended = true;
      return {};
    });
  }

  void set_wake(std::string game_id, std::int64_t wake_ms, std::function<void(Status)> done) override {
    write(std::move(done), [&]() -> Status {
      Game* g = find(game_id);
      if (g == nullptr) return failed(Kind::kNotFound, "set_wake: no game '" + game_id + "'");
      wakes_.erase({g->record.wake_ms, game_id});
      g->record.wake_ms = std::max<std::int64_t>(wake_ms, 0);
      if (g->record.wake_ms > 0) wakes_.emplace(g->record.wake_ms, game_id);
      return {};
    });
  }

  void load_game(std::string id, std::function<void(std::optional<GameRecord>, Status)> done) override {
    read(std::move(done), [&]() -> std::optional<GameRecord> {
      const Game* g = find(id);
      if (g == nullptr) return std::nullopt;
      return g->record;
    });
  }

  void list_games(std::function<void(std::vector<GameRecord>, Status)> done) override {
    read(std::move(done), [&] {
      std::vector<GameRecord> games;
      games.reserve(games_.size());
      for (const auto& [id, g] : games_) games.push_back(g.record);
      // Ids are unique and games_ is in id order, so a stable sort by
      // creation gives (created_unix, id) as the SQLite store does.
      std::stable_sort(games.begin(), games.end(),
                       [](const GameRecord& a, const GameRecord& b) { return a.created_unix < b.created_unix; });
      return games;
    });
  }

  void load_seats(std::string game_id, std::function<void(std::vector<SeatRecord>, Status)> done) override {
    read(std::move(done), [&] {
      std::vector<SeatRecord> seats;
      if (const Game* g = find(game_id)) {
        for (const auto& [name, seat] : g->seats) seats.push_back(seat);
      }
      return seats;
    });
  }

  void find_seat(std::string game_id, std::string token_hash,
                 std::function<void(std::optional<SeatRecord>, Status)> done) override {
    read(std::move(done), [&]() -> std::optional<SeatRecord> {
      const Game* g = find(game_id);
      if (g == nullptr) return std::nullopt;
      for (const auto& [name, seat] : g->seats) {
        if (seat.token_hash == token_hash) return seat;  // the first by name, as SQLite's ORDER BY seat
      }
      return std::nullopt;
    });
  }

  void load_steps(std::string game_id, std::uint64_t after_seq,
                  std::function<void(std::vector<StepRecord>, Status)> done) override {
    read(std::move(done), [&] {
      std::vector<StepRecord> steps;
      if (const Game* g = find(game_id)) {
        if (after_seq < g->steps.size()) steps.assign(g->steps.begin() + static_cast<std::ptrdiff_t>(after_seq),
                                                      g->steps.end());
      }
      return steps;
    });
  }

  void load_snapshots(std::string game_id, std::uint32_t turns_back,
                      std::function<void(std::vector<SnapshotRecord>, Status)> done) override {
    read(std::move(done), [&] {
      std::vector<SnapshotRecord> snapshots;
      const Game* g = find(game_id);
      if (g == nullptr) return snapshots;
      std::uint64_t newest = 0;
      for (const auto& [seq, snap] : g->snapshots) newest = std::max<std::uint64_t>(newest, snap.turn);
      for (const auto& [seq, snap] : g->snapshots) {
        if (std::uint64_t{snap.turn} + turns_back >= newest) snapshots.push_back(snap);
      }
      return snapshots;
    });
  }

  void due_games(std::int64_t until_ms, std::size_t limit,
                 std::function<void(std::vector<GameWake>, Status)> done) override {
    read(std::move(done), [&] {
      std::vector<GameWake> due;
      for (auto it = wakes_.begin(); it != wakes_.end() && it->first <= until_ms && due.size() < limit; ++it) {
        due.push_back({it->second, it->first});
      }
      return due;
    });
  }

  StoreStats stats() const override {
    std::lock_guard lock(mu_);
    return stats_;
  }

  void flush() override {
    if (t_callback_depth > 0) return;  // its own write is still "in flight" until the callback returns
    std::unique_lock lock(mu_);
    const std::uint64_t target = writes_started_;
    done_cv_.wait(lock, [&] { return writes_done_ >= target; });
  }

  void close() override {
    flush();
    std::lock_guard lock(mu_);
    closed_ = true;
  }

 private:
  struct Game {
    GameRecord record;
    std::map<std::string, SeatRecord> seats;          // by name: load_seats' order
    std::vector<StepRecord> steps;                    // steps[i].seq == i + 1
    std::map<std::uint64_t, SnapshotRecord> snapshots;  // by seq
  };

  Game* find(const std::string& id) {
    auto it = games_.find(id);
    return it == games_.end() ? nullptr : &it->second;
  }

  // The rules append_step and a rewind's entry share.
  static Status check_next(const Game* g, const StepRecord& step, const char* what) {
    if (g == nullptr) return failed(Kind::kNotFound, std::string(what) + ": no game '" + step.game_id + "'");
    const std::uint64_t next = g->steps.size() + 1;
    if (step.seq != next) {
      return failed(Kind::kConflict, std::string(what) + ": game '" + step.game_id + "' expects seq " +
                                         std::to_string(next) + ", got " + std::to_string(step.seq));
    }
    return {};
  }

  // Applies a write under the mutex, then runs its callback without it.
  // `apply` changes nothing when it fails.
  template <typename Apply>
  void write(std::function<void(Status)> done, Apply&& apply) {
    Status status;
    bool counted = false;
    {
      std::lock_guard lock(mu_);
      if (closed_) {
        status = closed_status();
      } else {
        status = apply();
        counted = true;
        ++writes_started_;
        ++stats_.transactions_committed;
        stats_.largest_batch = 1;
        if (status.ok()) {
          ++stats_.writes_committed;
        } else {
          ++stats_.writes_failed;
        }
      }
    }
    notify(done, std::move(status));
    if (counted) {
      std::lock_guard lock(mu_);
      ++writes_done_;  // after the callback: flush() promises it ran
      done_cv_.notify_all();
    }
  }

  template <typename T, typename Compute>
  void read(std::function<void(T, Status)> done, Compute&& compute) {
    T value{};
    Status status;
    {
      std::lock_guard lock(mu_);
      if (closed_) {
        status = closed_status();
      } else {
        value = compute();
      }
    }
    notify(done, std::move(value), std::move(status));
  }

  // noexcept: a throwing callback terminates, as with the SQLite store,
  // rather than leave flush() waiting for a write that never finishes.
  template <typename... Args>
  static void notify(std::function<void(Args...)>& done, Args... args) noexcept {
    if (!done) return;
    ++t_callback_depth;
    done(std::move(args)...);
    --t_callback_depth;
  }

  mutable std::mutex mu_;
  std::condition_variable done_cv_;  // a write's callback returned
  std::map<std::string, Game> games_;
  std::set<std::pair<std::int64_t, std::string>> wakes_;  // (wake_ms, id) of games with wake_ms > 0
  std::uint64_t writes_started_ = 0;
  std::uint64_t writes_done_ = 0;  // callbacks returned
  bool closed_ = false;
  StoreStats stats_;
};

}  // namespace

std::unique_ptr<Store> make_memory_store() { return std::make_unique<MemoryStore>(); }

}  // namespace galloper::persistence
