// Additions to the store for durable, replayable games: a read-only store for
// the offline tools, and mark_ended (which lets a game's seed be revealed).
#include <gtest/gtest.h>

#include "persistence/migrations.hpp"
#include "persistence/sqlite.hpp"
#include "persistence/sqlite_store.hpp"
#include "tests/persistence/test_util.hpp"

namespace galloper::persistence {
namespace {

using namespace galloper::persistence::testing;
using Kind = StoreError::Kind;

class StoreAdditionsTest : public ::testing::Test {
 protected:
  std::filesystem::path file() const { return dir / "data" / "galloper.db"; }
  // A store with one game and three log entries, closed again.
  void seed_store() {
    auto store = open_or_fail(file());
    ASSERT_TRUE(store);
    ASSERT_EQ(describe(create_game(*store, sample_game("g1"), sample_seats("g1"))), "ok");
    for (std::uint64_t seq = 1; seq <= 3; ++seq) ASSERT_EQ(describe(append_step(*store, sample_step("g1", seq))), "ok");
  }
  StoreOptions read_only() const {
    StoreOptions o;
    o.read_only = true;
    return o;
  }
  TempDir dir;
};

TEST_F(StoreAdditionsTest, ReadOnlyStoreReadsEverythingAndWritesNothing) {
  seed_store();
  const auto before = file_bytes(file());
  auto store = open_or_fail(file(), read_only());
  ASSERT_TRUE(store);
  auto game = load_game(*store, "g1");
  ASSERT_TRUE(game.status.ok());
  ASSERT_TRUE(game.value);
  expect_same_game(*game.value, sample_game("g1"));
  EXPECT_EQ(load_steps(*store, "g1").value.size(), 3u);
  EXPECT_EQ(list_games(*store).value.size(), 1u);

  const auto created = create_game(*store, sample_game("g2"));
  ASSERT_FALSE(created.ok());
  EXPECT_EQ(created.error->kind, Kind::kIo);
  EXPECT_NE(created.error->message.find("read-only"), std::string::npos);
  EXPECT_FALSE(append_step(*store, sample_step("g1", 4)).ok());
  std::promise<Status> ended;
  store->mark_ended("g1", [&](Status s) { ended.set_value(s); });
  EXPECT_FALSE(ended.get_future().get().ok());
  store->flush();  // nothing to wait for, and no writer to wait on
  store->close();
  EXPECT_EQ(file_bytes(file()), before);
}

TEST_F(StoreAdditionsTest, ReadOnlyNeverCreatesAStore) {
  auto r = open_sqlite_store(file(), read_only());
  ASSERT_FALSE(r.store);
  EXPECT_EQ(r.error->kind, Kind::kNotFound) << describe(r.error);
  EXPECT_FALSE(std::filesystem::exists(file().parent_path()));
}

TEST_F(StoreAdditionsTest, ReadOnlyRefusesAStoreThatWouldNeedAMigrationOrIsNewer) {
  {
    // An empty database is at version 0: reading it would need the migrations.
    std::filesystem::create_directories(file().parent_path());
    sqlite::Database db(file(), sqlite::OpenFlags::kReadWrite | sqlite::OpenFlags::kCreate);
    db.exec("PRAGMA user_version = 0");
  }
  auto empty = open_sqlite_store(file(), read_only());
  ASSERT_FALSE(empty.store);
  EXPECT_EQ(empty.error->kind, Kind::kSchema) << describe(empty.error);
  std::filesystem::remove(file());

  seed_store();
  {
    sqlite::Database db(file(), sqlite::OpenFlags::kReadWrite);
    db.exec("INSERT INTO schema_version (version, description, applied_unix) VALUES (99, 'from the future', 0)");
  }
  const auto before = file_bytes(file());
  auto newer = open_sqlite_store(file(), read_only());
  ASSERT_FALSE(newer.store);
  EXPECT_EQ(newer.error->kind, Kind::kSchema) << describe(newer.error);
  EXPECT_NE(newer.error->message.find("99"), std::string::npos) << newer.error->message;
  EXPECT_EQ(file_bytes(file()), before);
}

TEST_F(StoreAdditionsTest, ReadOnlyStoreReadsBesideALiveWriterAndBacksUp) {
  auto writer = open_or_fail(file());
  ASSERT_TRUE(writer);
  ASSERT_TRUE(create_game(*writer, sample_game("g1")).ok());
  ASSERT_TRUE(append_step(*writer, sample_step("g1", 1)).ok());
  auto reader = open_or_fail(file(), read_only());
  ASSERT_TRUE(reader);
  ASSERT_TRUE(append_step(*writer, sample_step("g1", 2)).ok());
  EXPECT_EQ(load_steps(*reader, "g1").value.size(), 2u) << "a committed write is visible to the tools";
  EXPECT_EQ(describe(backup_to(*reader, dir / "copy.db")), "ok");
  auto copy = open_or_fail(dir / "copy.db", read_only());
  ASSERT_TRUE(copy);
  EXPECT_EQ(load_steps(*copy, "g1").value.size(), 2u);
}

Status mark_ended(Store& store, const std::string& id) {
  std::promise<Status> p;
  store.mark_ended(id, [&p](Status s) { p.set_value(std::move(s)); });
  return p.get_future().get();
}

TEST_F(StoreAdditionsTest, MarkEndedIsDurableAndIdempotent) {
  seed_store();
  {
    auto store = open_or_fail(file());
    ASSERT_TRUE(store);
    ASSERT_TRUE(create_game(*store, sample_game("g2")).ok());
    EXPECT_FALSE(load_game(*store, "g1").value->ended);
    EXPECT_EQ(describe(mark_ended(*store, "g1")), "ok");
    EXPECT_EQ(describe(mark_ended(*store, "g1")), "ok") << "marking twice is harmless";
  }
  auto store = open_or_fail(file());
  ASSERT_TRUE(store);
  EXPECT_TRUE(load_game(*store, "g1").value->ended);
  EXPECT_FALSE(load_game(*store, "g2").value->ended) << "only the game named";
  auto g1 = load_game(*store, "g1").value;
  GameRecord expected = sample_game("g1");
  expected.ended = true;
  expect_same_game(*g1, expected);
  EXPECT_EQ(load_steps(*store, "g1").value.size(), 3u) << "the log is untouched";
}

TEST_F(StoreAdditionsTest, MarkEndedOfAnUnknownGameIsKNotFoundAndFailsAlone) {
  auto store = open_or_fail(file());
  ASSERT_TRUE(store);
  ASSERT_TRUE(create_game(*store, sample_game("g1")).ok());
  // In one batch with a good write: only the bad one fails.
  std::promise<Status> bad, good;
  store->mark_ended("nope", [&](Status s) { bad.set_value(s); });
  store->append_step(sample_step("g1", 1), [&](Status s) { good.set_value(s); });
  const Status b = bad.get_future().get();
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.error->kind, Kind::kNotFound) << describe(b);
  EXPECT_EQ(describe(good.get_future().get()), "ok");
}


// ---- Snapshots and rewind (durable games: loading fast, umpire rewind). ----

SnapshotRecord sample_snapshot(const std::string& game_id, std::uint64_t seq, std::uint32_t turn) {
  SnapshotRecord s;
  s.game_id = game_id;
  s.seq = seq;
  s.turn = turn;
  s.state_hash = 0x8000'0000'0000'0001ULL ^ seq;  // high bit set: must survive as unsigned
  s.turn_start = seq % 2 == 0;
  s.state = {0x00, 0xFF, static_cast<std::uint8_t>(seq), 0x00};
  return s;
}

Status append_snapshot(Store& store, SnapshotRecord snap) {
  std::promise<Status> p;
  auto f = p.get_future();
  store.append_snapshot(std::move(snap), [&p](Status s) { p.set_value(std::move(s)); });
  return f.get();
}

Answer<std::vector<SnapshotRecord>> load_snapshots(Store& store, const std::string& game_id, std::uint32_t back) {
  std::promise<Answer<std::vector<SnapshotRecord>>> p;
  auto f = p.get_future();
  store.load_snapshots(game_id, back, [&p](std::vector<SnapshotRecord> r, Status s) {
    p.set_value({std::move(r), std::move(s)});
  });
  return f.get();
}

Status rewind(Store& store, RewindRecord r) {
  std::promise<Status> p;
  auto f = p.get_future();
  store.rewind(std::move(r), [&p](Status s) { p.set_value(std::move(s)); });
  return f.get();
}

std::vector<std::uint64_t> seqs(const std::vector<SnapshotRecord>& v) {
  std::vector<std::uint64_t> out;
  for (const auto& s : v) out.push_back(s.seq);
  return out;
}

TEST_F(StoreAdditionsTest, SnapshotsRoundTripAndComeBackByTurn) {
  auto store = open_or_fail(file());
  ASSERT_TRUE(store);
  ASSERT_EQ(describe(create_game(*store, sample_game("g1"))), "ok");
  for (std::uint64_t seq = 1; seq <= 12; ++seq) ASSERT_EQ(describe(append_step(*store, sample_step("g1", seq))), "ok");
  // sample_step makes every third entry a "resolve".
  ASSERT_EQ(describe(append_snapshot(*store, sample_snapshot("g1", 3, 1))), "ok");
  ASSERT_EQ(describe(append_snapshot(*store, sample_snapshot("g1", 6, 2))), "ok");
  ASSERT_EQ(describe(append_snapshot(*store, sample_snapshot("g1", 9, 2))), "ok");
  ASSERT_EQ(describe(append_snapshot(*store, sample_snapshot("g1", 12, 3))), "ok");

  auto latest = load_snapshots(*store, "g1", 0);
  ASSERT_TRUE(latest.status.ok());
  EXPECT_EQ(seqs(latest.value), (std::vector<std::uint64_t>{12}));
  const auto& s = latest.value.front();
  EXPECT_EQ(s.game_id, "g1");
  EXPECT_EQ(s.turn, 3u);
  EXPECT_EQ(s.state_hash, sample_snapshot("g1", 12, 3).state_hash);
  EXPECT_EQ(s.state, sample_snapshot("g1", 12, 3).state);
  EXPECT_TRUE(s.turn_start);
  EXPECT_FALSE(load_snapshots(*store, "g1", 1).value.at(1).turn_start);  // seq 9
  EXPECT_EQ(seqs(load_snapshots(*store, "g1", 1).value), (std::vector<std::uint64_t>{6, 9, 12}));
  EXPECT_EQ(seqs(load_snapshots(*store, "g1", 100).value), (std::vector<std::uint64_t>{3, 6, 9, 12}));
  EXPECT_TRUE(load_snapshots(*store, "nope", 5).value.empty());

  // Writing the same entry's snapshot again replaces it (a restarted server
  // may snapshot a state it already had).
  auto again = sample_snapshot("g1", 12, 3);
  again.state = {1, 2, 3};
  ASSERT_EQ(describe(append_snapshot(*store, again)), "ok");
  EXPECT_EQ(load_snapshots(*store, "g1", 0).value.front().state, (std::vector<std::uint8_t>{1, 2, 3}));
}

TEST_F(StoreAdditionsTest, ASnapshotNeedsALiveResolutionAndFailsAlone) {
  seed_store();  // entries 1-3; 3 is a resolve
  auto store = open_or_fail(file());
  ASSERT_TRUE(store);
  std::promise<Status> bad_entry, not_resolve, good;
  store->append_snapshot(sample_snapshot("g1", 9, 1), [&](Status s) { bad_entry.set_value(s); });
  store->append_snapshot(sample_snapshot("g1", 2, 1), [&](Status s) { not_resolve.set_value(s); });
  store->append_snapshot(sample_snapshot("g1", 3, 1), [&](Status s) { good.set_value(s); });
  const auto a = bad_entry.get_future().get();
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.error->kind, Kind::kNotFound);
  EXPECT_NE(a.error->message.find("no log entry 9"), std::string::npos) << a.error->message;
  const auto b = not_resolve.get_future().get();
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.error->kind, Kind::kConflict);
  EXPECT_EQ(describe(good.get_future().get()), "ok");
  EXPECT_EQ(seqs(load_snapshots(*store, "g1", 9).value), (std::vector<std::uint64_t>{3}));
}

TEST_F(StoreAdditionsTest, RewindSupersedesTheNamedKindsDropsLaterSnapshotsAndAppendsItsEntry) {
  auto store = open_or_fail(file());
  ASSERT_TRUE(store);
  ASSERT_EQ(describe(create_game(*store, sample_game("g1"))), "ok");
  for (std::uint64_t seq = 1; seq <= 9; ++seq) ASSERT_EQ(describe(append_step(*store, sample_step("g1", seq))), "ok");
  auto chat = sample_step("g1", 10);
  chat.kind = "chat";
  ASSERT_EQ(describe(append_step(*store, chat)), "ok");
  ASSERT_EQ(describe(append_snapshot(*store, sample_snapshot("g1", 3, 1))), "ok");
  ASSERT_EQ(describe(append_snapshot(*store, sample_snapshot("g1", 6, 2))), "ok");
  ASSERT_EQ(describe(append_snapshot(*store, sample_snapshot("g1", 9, 2))), "ok");

  RewindRecord r;
  r.game_id = "g1";
  r.after_seq = 3;
  r.kinds = {"resolve", "answer"};
  r.entry = sample_step("g1", 11);
  r.entry.kind = "umpire";
  ASSERT_EQ(describe(rewind(*store, r)), "ok");

  auto log = load_steps(*store, "g1");
  ASSERT_TRUE(log.status.ok());
  ASSERT_EQ(log.value.size(), 11u);
  for (const auto& e : log.value) {
    const bool expected = e.seq > 3 && (e.kind == "resolve" || e.kind == "answer");
    EXPECT_EQ(e.superseded, expected) << "entry " << e.seq << " " << e.kind;
  }
  EXPECT_EQ(log.value.back().kind, "umpire");
  EXPECT_FALSE(log.value.back().superseded);
  EXPECT_FALSE(log.value[9].superseded);  // the chat stays
  EXPECT_EQ(seqs(load_snapshots(*store, "g1", 100).value), (std::vector<std::uint64_t>{3}));
  // A snapshot for a superseded resolution is refused.
  EXPECT_FALSE(append_snapshot(*store, sample_snapshot("g1", 6, 2)).ok());
  // The log goes on after the rewind's entry.
  EXPECT_EQ(describe(append_step(*store, sample_step("g1", 12))), "ok");
}

TEST_F(StoreAdditionsTest, ARewindThatCannotAppendChangesNothing) {
  seed_store();
  auto store = open_or_fail(file());
  ASSERT_TRUE(store);
  ASSERT_EQ(describe(append_snapshot(*store, sample_snapshot("g1", 3, 1))), "ok");
  RewindRecord r;
  r.game_id = "g1";
  r.after_seq = 1;
  r.kinds = {"resolve", "answer"};
  r.entry = sample_step("g1", 7);  // not the next seq (4)
  r.entry.kind = "umpire";
  const auto s = rewind(*store, r);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error->kind, Kind::kConflict);
  for (const auto& e : load_steps(*store, "g1").value) EXPECT_FALSE(e.superseded) << e.seq;
  EXPECT_EQ(seqs(load_snapshots(*store, "g1", 9).value), (std::vector<std::uint64_t>{3}));

  r.entry = sample_step("g1", 4);
  r.after_seq = 4;  // a rewind must go back
  EXPECT_EQ(rewind(*store, r).error->kind, Kind::kConflict);
  r.game_id = "nope";
  r.after_seq = 1;
  EXPECT_FALSE(rewind(*store, r).ok());
  EXPECT_EQ(load_steps(*store, "g1").value.size(), 3u);
}

}  // namespace
}  // namespace galloper::persistence
