#pragma once
// Helpers for the persistence tests: a fresh temporary directory per test,
// blocking wrappers over the store's callback API, and sample records.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <iterator>
#include <mutex>
#include <string>
#include <vector>

#include "persistence/store.hpp"
#include "tests/temp_dir.hpp"

namespace galloper::persistence::testing {

using galloper::testing::TempDir;

inline std::vector<char> file_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline std::unique_ptr<Store> open_or_fail(const std::filesystem::path& file, const StoreOptions& options = {}) {
  OpenResult r = open_sqlite_store(file, options);
  if (r.error) ADD_FAILURE() << "open_sqlite_store(" << file << "): " << r.error->message;
  return std::move(r.store);
}

inline Status create_game(Store& store, GameRecord game, std::vector<SeatRecord> seats = {}) {
  std::promise<Status> p;
  auto f = p.get_future();
  store.create_game(std::move(game), std::move(seats), [&p](Status s) { p.set_value(std::move(s)); });
  return f.get();
}

inline Status append_step(Store& store, StepRecord step) {
  std::promise<Status> p;
  auto f = p.get_future();
  store.append_step(std::move(step), [&p](Status s) { p.set_value(std::move(s)); });
  return f.get();
}

template <typename T>
struct Answer {
  T value;
  Status status;
};

inline Answer<std::optional<GameRecord>> load_game(Store& store, std::string id) {
  std::promise<Answer<std::optional<GameRecord>>> p;
  auto f = p.get_future();
  store.load_game(std::move(id), [&p](std::optional<GameRecord> g, Status s) {
    p.set_value({std::move(g), std::move(s)});
  });
  return f.get();
}

inline Answer<std::vector<GameRecord>> list_games(Store& store) {
  std::promise<Answer<std::vector<GameRecord>>> p;
  auto f = p.get_future();
  store.list_games([&p](std::vector<GameRecord> g, Status s) { p.set_value({std::move(g), std::move(s)}); });
  return f.get();
}

inline Answer<std::optional<SeatRecord>> find_seat(Store& store, std::string game_id, std::string token_hash) {
  std::promise<Answer<std::optional<SeatRecord>>> p;
  auto f = p.get_future();
  store.find_seat(std::move(game_id), std::move(token_hash), [&p](std::optional<SeatRecord> r, Status s) {
    p.set_value({std::move(r), std::move(s)});
  });
  return f.get();
}

inline Answer<std::vector<SeatRecord>> load_seats(Store& store, std::string game_id) {
  std::promise<Answer<std::vector<SeatRecord>>> p;
  auto f = p.get_future();
  store.load_seats(std::move(game_id), [&p](std::vector<SeatRecord> r, Status s) {
    p.set_value({std::move(r), std::move(s)});
  });
  return f.get();
}

inline Answer<std::vector<StepRecord>> load_steps(Store& store, std::string game_id, std::uint64_t after_seq = 0) {
  std::promise<Answer<std::vector<StepRecord>>> p;
  auto f = p.get_future();
  store.load_steps(std::move(game_id), after_seq, [&p](std::vector<StepRecord> r, Status s) {
    p.set_value({std::move(r), std::move(s)});
  });
  return f.get();
}

inline Status backup_to(Store& store, std::filesystem::path dest) {
  std::promise<Status> p;
  auto f = p.get_future();
  store.backup_to(std::move(dest), [&p](Status s) { p.set_value(std::move(s)); });
  return f.get();
}

inline Status mark_ended(Store& store, std::string id) {
  std::promise<Status> p;
  auto f = p.get_future();
  store.mark_ended(std::move(id), [&p](Status s) { p.set_value(std::move(s)); });
  return f.get();
}

inline Status append_snapshot(Store& store, SnapshotRecord snap) {
  std::promise<Status> p;
  auto f = p.get_future();
  store.append_snapshot(std::move(snap), [&p](Status s) { p.set_value(std::move(s)); });
  return f.get();
}

inline Answer<std::vector<SnapshotRecord>> load_snapshots(Store& store, std::string game_id, std::uint32_t back) {
  std::promise<Answer<std::vector<SnapshotRecord>>> p;
  auto f = p.get_future();
  store.load_snapshots(std::move(game_id), back, [&p](std::vector<SnapshotRecord> r, Status s) {
    p.set_value({std::move(r), std::move(s)});
  });
  return f.get();
}

inline Status rewind(Store& store, RewindRecord r) {
  std::promise<Status> p;
  auto f = p.get_future();
  store.rewind(std::move(r), [&p](Status s) { p.set_value(std::move(s)); });
  return f.get();
}

inline Status set_wake(Store& store, std::string game_id, std::int64_t wake_ms) {
  std::promise<Status> p;
  auto f = p.get_future();
  store.set_wake(std::move(game_id), wake_ms, [&p](Status s) { p.set_value(std::move(s)); });
  return f.get();
}

inline Answer<std::vector<GameWake>> due_games(Store& store, std::int64_t until_ms, std::size_t limit) {
  std::promise<Answer<std::vector<GameWake>>> p;
  auto f = p.get_future();
  store.due_games(until_ms, limit, [&p](std::vector<GameWake> r, Status s) {
    p.set_value({std::move(r), std::move(s)});
  });
  return f.get();
}

// Collects the Status of writes queued without waiting, in the order their
// callbacks ran, and lets a test wait for a number of them.
class Acks {
 public:
  std::function<void(Status)> callback() {
    return [this](Status s) {
      std::lock_guard lock(mu_);
      statuses_.push_back(std::move(s));
      cv_.notify_all();
    };
  }
  std::vector<Status> wait_for(std::size_t n, std::chrono::seconds limit = std::chrono::seconds(30)) {
    std::unique_lock lock(mu_);
    EXPECT_TRUE(cv_.wait_for(lock, limit, [&] { return statuses_.size() >= n; }))
        << "only " << statuses_.size() << " of " << n << " callbacks ran";
    return statuses_;
  }
  std::size_t count() {
    std::lock_guard lock(mu_);
    return statuses_.size();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Status> statuses_;
};

// A game with every field set to something distinctive; the seed holds the
// bytes text handling would damage (NUL, 0xFF, high bit).
inline GameRecord sample_game(const std::string& id) {
  GameRecord g;
  g.id = id;
  g.title = "Blenheim, 13 August 1704 — " + id;
  g.ruleset = "malbrook";
  g.scenario_name = "blenheim";
  g.scenario_text = "name: \"Blenheim\"\nsides { name: \"Allies\" }\nsides { name: \"Franco-Bavarians\" }\n";
  for (int i = 0; i < 32; ++i) g.seed.push_back(static_cast<std::uint8_t>((i * 37 + 0xF0) & 0xFF));
  g.seed[0] = 0x00;
  g.seed[1] = 0xFF;
  g.seed[31] = 0x00;
  g.seed_commitment = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
  g.created_unix = 1'700'000'000;
  g.settings = "vision: SIDE_SHARED\ndeadline_s: 86400\n";
  g.turn = 3;
  g.phase = "movement";
  g.ended = false;
  g.wake_ms = 1'700'000'086'400'000;  // a day's deadline after creation, in ms
  return g;
}

inline std::vector<SeatRecord> sample_seats(const std::string& game_id) {
  return {
      {game_id, "allies-left", "Marlborough's left wing", "aa11"},
      {game_id, "allies-right", "Eugene's right wing", "bb22"},
      {game_id, "french", "Tallard", "cc33"},
  };
}

inline StepRecord sample_step(const std::string& game_id, std::uint64_t seq) {
  StepRecord s;
  s.game_id = game_id;
  s.seq = seq;
  s.kind = seq % 3 == 0 ? "resolve" : "answer";
  s.payload = {0x08, static_cast<std::uint8_t>(seq & 0x7F), 0x00, 0xFF, static_cast<std::uint8_t>(seq >> 7)};
  s.state_hash = 0xFEDC'BA98'7654'3210ULL ^ seq;  // high bit set: must survive as unsigned
  s.created_unix = 1'700'000'000 + static_cast<std::int64_t>(seq);
  return s;
}

inline void expect_same_game(const GameRecord& a, const GameRecord& b) {
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.title, b.title);
  EXPECT_EQ(a.ruleset, b.ruleset);
  EXPECT_EQ(a.scenario_name, b.scenario_name);
  EXPECT_EQ(a.scenario_text, b.scenario_text);
  EXPECT_EQ(a.seed, b.seed);
  EXPECT_EQ(a.seed_commitment, b.seed_commitment);
  EXPECT_EQ(a.created_unix, b.created_unix);
  EXPECT_EQ(a.settings, b.settings);
  EXPECT_EQ(a.turn, b.turn);
  EXPECT_EQ(a.phase, b.phase);
  EXPECT_EQ(a.ended, b.ended);
  EXPECT_EQ(a.wake_ms, b.wake_ms);
}

// A snapshot of entry `seq` (which must be a "resolve": sample_step makes
// every third entry one).
inline SnapshotRecord sample_snapshot(const std::string& game_id, std::uint64_t seq, std::uint32_t turn) {
  SnapshotRecord s;
  s.game_id = game_id;
  s.seq = seq;
  s.turn = turn;
  s.state_hash = 0x8000'0000'0000'0001ULL ^ seq;  // high bit set: must survive as unsigned
  s.turn_start = seq % 2 == 0;
  s.state = {0x00, 0xFF, static_cast<std::uint8_t>(seq), 0x00};
  return s;
}

inline std::vector<std::uint64_t> seqs(const std::vector<SnapshotRecord>& v) {
  std::vector<std::uint64_t> out;
  for (const auto& s : v) out.push_back(s.seq);
  return out;
}

inline void expect_same_step(const StepRecord& a, const StepRecord& b) {
  EXPECT_EQ(a.game_id, b.game_id);
  EXPECT_EQ(a.seq, b.seq);
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.payload, b.payload);
  EXPECT_EQ(a.state_hash, b.state_hash);
  EXPECT_EQ(a.created_unix, b.created_unix);
  EXPECT_EQ(a.superseded, b.superseded);
}

inline const char* kind_name(StoreError::Kind k) {
  switch (k) {
    case StoreError::Kind::kNotFound: return "kNotFound";
    case StoreError::Kind::kConflict: return "kConflict";
    case StoreError::Kind::kCorrupt: return "kCorrupt";
    case StoreError::Kind::kIo: return "kIo";
    case StoreError::Kind::kSchema: return "kSchema";
  }
  return "?";
}

// "ok" or the error's kind ("kConflict", ...).
inline std::string kind_of(const Status& s) { return s.ok() ? "ok" : kind_name(s.error->kind); }

// "ok" or "<kind>: <message>", for readable assertions.
inline std::string describe(const Status& s) {
  return s.ok() ? "ok" : std::string(kind_name(s.error->kind)) + ": " + s.error->message;
}
inline std::string describe(const std::optional<StoreError>& e) {
  return e ? std::string(kind_name(e->kind)) + ": " + e->message : "ok";
}

}  // namespace galloper::persistence::testing
