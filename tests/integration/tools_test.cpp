// The offline commands: `galloper replay`, `backup`, `export` and `verify`, on
// stores written by the real server, intact and damaged with the sqlite3 shell.
#include <atomic>
#include <regex>
#include <thread>

#include "galloper/v1/export.pb.h"
#include "tests/integration/game_driver.hpp"

namespace galloper::testing {
namespace {

std::vector<char> file_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

class ToolsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = make_temp_dir("tools");
    data_ = dir_ / "data";
    server_.emplace(data_);
    server_->start();
    game_ = create_demo_game(server_->port());
    ASSERT_GE(play_steps(server_->port(), game_, 3), 3) << server_->log();
  }
  void TearDown() override {
    if (server_) server_->stop(SIGKILL);
    std::filesystem::remove_all(dir_);
  }

  // SIGTERM: the store closes cleanly, so the WAL is folded into the file.
  void stop_server() {
    ASSERT_EQ(server_->stop(SIGTERM), 0) << server_->log();
    server_.reset();
  }
  std::filesystem::path db() const { return data_ / "galloper.db"; }
  std::string data_arg() const { return "--data " + shell_quote(data_.string()); }

  // The seq of the n-th (1-based) "resolve" entry that holds answers.
  std::string nth_answered_resolve(int n) {
    auto r = sqlite3(db(), "SELECT seq FROM steps WHERE game_id = '" + game_.id +
                               "' AND kind = 'resolve' AND length(payload) > 8 ORDER BY seq LIMIT 1 OFFSET " +
                               std::to_string(n - 1) + ";");
    EXPECT_EQ(r.status, 0) << r.out;
    while (!r.out.empty() && (r.out.back() == '\n' || r.out.back() == '\r')) r.out.pop_back();
    EXPECT_FALSE(r.out.empty()) << "no answered resolve entry number " << n;
    return r.out;
  }

  std::filesystem::path dir_;
  std::filesystem::path data_;
  std::optional<ServerProcess> server_;
  DemoGame game_;
};

TEST_F(ToolsTest, ReplayOfAnIntactGameIsOkAndWritesNothing) {
  stop_server();
  const auto before = file_bytes(db());
  auto r = galloper("replay " + data_arg() + " " + game_.id);
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("^ok: [0-9]+ steps, final hash [0-9a-f]{16} ")));
  auto all = galloper("replay --all " + data_arg());
  EXPECT_EQ(all.status, 0) << all.out;
  EXPECT_NE(all.out.find(game_.id + ": ok: "), std::string::npos) << all.out;
  EXPECT_NE(all.out.find("1 games: 1 ok, 0 failed"), std::string::npos) << all.out;
  EXPECT_EQ(file_bytes(db()), before) << "replay must not write to the store";
}

TEST_F(ToolsTest, ReplayNamesAChangedStateHash) {
  stop_server();
  const std::string seq = nth_answered_resolve(2);
  auto edit = sqlite3(db(), "UPDATE steps SET state_hash = state_hash + 1 WHERE game_id = '" + game_.id +
                                "' AND seq = " + seq + ";");
  ASSERT_EQ(edit.status, 0) << edit.out;
  auto r = galloper("replay " + data_arg() + " " + game_.id);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("FAILED: log entry " + seq + " "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("differs from the one recorded"), std::string::npos) << r.out;
  auto all = galloper("replay --all " + data_arg());
  EXPECT_EQ(all.status, 1) << all.out;
  EXPECT_NE(all.out.find("0 ok, 1 failed"), std::string::npos) << all.out;
}

TEST_F(ToolsTest, ReplayNamesATruncatedPayload) {
  stop_server();
  const std::string seq = nth_answered_resolve(1);
  auto edit = sqlite3(db(), "UPDATE steps SET payload = substr(payload, 1, length(payload) - 1) WHERE game_id = '" +
                                game_.id + "' AND seq = " + seq + ";");
  ASSERT_EQ(edit.status, 0) << edit.out;
  auto r = galloper("replay " + data_arg() + " " + game_.id);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("FAILED: log entry " + seq + " (resolve): its payload is damaged"), std::string::npos)
      << r.out;
}

TEST_F(ToolsTest, ReplayNamesADamagedAnswerEntry) {
  stop_server();
  auto q = sqlite3(db(), "SELECT min(seq) FROM steps WHERE game_id = '" + game_.id + "' AND kind = 'answer';");
  ASSERT_EQ(q.status, 0) << q.out;
  const std::string seq = q.out.substr(0, q.out.find('\n'));
  ASSERT_FALSE(seq.empty());
  ASSERT_EQ(sqlite3(db(), "UPDATE steps SET payload = x'ffff' WHERE game_id = '" + game_.id + "' AND seq = " + seq +
                              ";")
                .status,
            0);
  auto r = galloper("replay " + data_arg() + " " + game_.id);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("log entry " + seq + " (answer): its payload is damaged"), std::string::npos) << r.out;
}

TEST_F(ToolsTest, ReplayOfAnUnknownGameOrAMissingStoreIsExitTwo) {
  stop_server();
  auto r = galloper("replay " + data_arg() + " gnosuchgame");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("there is no game gnosuchgame"), std::string::npos) << r.out;
  auto none = galloper("replay --all --data " + shell_quote((dir_ / "empty").string()));
  EXPECT_EQ(none.status, 2) << none.out;
  EXPECT_NE(none.out.find("there is no game store"), std::string::npos) << none.out;
  EXPECT_FALSE(std::filesystem::exists(dir_ / "empty")) << "a read-only tool creates nothing";
  auto neither = galloper("replay " + data_arg());
  EXPECT_EQ(neither.status, 2) << neither.out;
}

TEST_F(ToolsTest, BackupWhileTheServerPlaysIsConsistentAndReplays) {
  // A second game keeps being played while the backups are taken.
  const DemoGame other = create_demo_game(server_->port());
  std::atomic<bool> stop{false};
  std::atomic<int> played{0};
  std::thread player([&] {
    for (int i = 0; i < 40 && !stop; ++i) played += play_steps(server_->port(), other, 1);
  });
  std::vector<std::filesystem::path> copies;
  for (int i = 0; i < 3; ++i) {
    const auto out = dir_ / ("backup" + std::to_string(i)) / "galloper.db";
    auto r = galloper("backup " + data_arg() + " " + shell_quote(out.string()));
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("integrity_check ok"), std::string::npos) << r.out;
    copies.push_back(out);
  }
  stop = true;
  player.join();
  EXPECT_GT(played.load(), 0) << server_->log();

  for (const auto& copy : copies) {
    auto replayed = galloper("replay --all --data " + shell_quote(copy.parent_path().string()));
    EXPECT_EQ(replayed.status, 0) << replayed.out;
    EXPECT_NE(replayed.out.find("2 games: 2 ok"), std::string::npos) << replayed.out;
  }
  // A backup never overwrites.
  auto again = galloper("backup " + data_arg() + " " + shell_quote(copies.front().string()));
  EXPECT_EQ(again.status, 1) << again.out;
  EXPECT_NE(again.out.find("already exists"), std::string::npos) << again.out;
}

class ExportTest : public ToolsTest {
 protected:
  // What the room will record when the engine says the game is over.
  void end_game() {
    ASSERT_EQ(sqlite3(db(), "UPDATE games SET ended = 1 WHERE id = '" + game_.id + "';").status, 0);
  }
  v1::GameExport read_export(const std::filesystem::path& file) {
    v1::GameExport e;
    std::ifstream in(file, std::ios::binary);
    EXPECT_TRUE(e.ParseFromIstream(&in));
    return e;
  }
  void write_export(const std::filesystem::path& file, const v1::GameExport& e) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    ASSERT_TRUE(e.SerializeToOstream(&out));
  }
  std::filesystem::path file(const std::string& name) const { return dir_ / name; }
};

TEST_F(ExportTest, AnEndedGameVerifiesWithoutTheStore) {
  stop_server();
  end_game();
  auto replayed = galloper("replay " + data_arg() + " " + game_.id);
  ASSERT_EQ(replayed.status, 0) << replayed.out;
  const std::string final_hash = replayed.out.substr(replayed.out.find("final hash "), 27);

  auto ex = galloper("export " + data_arg() + " " + game_.id + " " + shell_quote(file("game.pb").string()));
  ASSERT_EQ(ex.status, 0) << ex.out;
  const auto e = read_export(file("game.pb"));
  EXPECT_EQ(e.game_id(), game_.id);
  EXPECT_EQ(e.seed_commitment(), game_.seed_commitment);
  EXPECT_EQ(e.seed().size(), 32u);
  EXPECT_TRUE(e.ended());
  EXPECT_GT(e.log_size(), 3);
  for (int i = 0; i < e.log_size(); ++i) EXPECT_EQ(e.log(i).seq(), static_cast<std::uint64_t>(i + 1));

  // Verification needs neither the server nor the database.
  std::filesystem::remove_all(data_);
  auto v = galloper("verify " + shell_quote(file("game.pb").string()));
  EXPECT_EQ(v.status, 0) << v.out;
  EXPECT_NE(v.out.find("ok: "), std::string::npos) << v.out;
  EXPECT_NE(v.out.find(final_hash), std::string::npos) << v.out << " vs " << final_hash;
  EXPECT_NE(v.out.find("the seed matches its commitment"), std::string::npos) << v.out;

}

TEST_F(ExportTest, TextExportVerifies) {
  stop_server();
  end_game();
  auto ex = galloper("export --text " + data_arg() + " " + game_.id + " " + shell_quote(file("game.txtpb").string()));
  ASSERT_EQ(ex.status, 0) << ex.out;
  std::ifstream in(file("game.txtpb"));
  std::string first_line;
  std::getline(in, first_line);
  EXPECT_EQ(first_line.rfind("# galloper game export", 0), 0u) << first_line;
  auto v = galloper("verify " + shell_quote(file("game.txtpb").string()));
  EXPECT_EQ(v.status, 0) << v.out;
  EXPECT_NE(v.out.find("ok: "), std::string::npos) << v.out;
}

TEST_F(ExportTest, AFlippedSeedByteFailsTheCommitment) {
  stop_server();
  end_game();
  ASSERT_EQ(galloper("export " + data_arg() + " " + game_.id + " " + shell_quote(file("game.pb").string())).status, 0);
  auto e = read_export(file("game.pb"));
  std::string seed = e.seed();
  seed[7] = static_cast<char>(seed[7] ^ 0x01);
  e.set_seed(seed);
  write_export(file("game.pb"), e);
  auto v = galloper("verify " + shell_quote(file("game.pb").string()));
  EXPECT_EQ(v.status, 1) << v.out;
  EXPECT_NE(v.out.find("the seed does not match its commitment"), std::string::npos) << v.out;
}

TEST_F(ExportTest, AChangedHashNamesTheStep) {
  stop_server();
  end_game();
  ASSERT_EQ(galloper("export " + data_arg() + " " + game_.id + " " + shell_quote(file("game.pb").string())).status, 0);
  auto e = read_export(file("game.pb"));
  int changed = -1;
  for (int i = e.log_size() - 1; i >= 0; --i) {
    if (e.log(i).kind() == "resolve") changed = i;  // the first resolve entry
  }
  ASSERT_GE(changed, 0);
  e.mutable_log(changed)->set_state_hash(e.log(changed).state_hash() ^ 0x10);
  write_export(file("game.pb"), e);
  auto v = galloper("verify " + shell_quote(file("game.pb").string()));
  EXPECT_EQ(v.status, 1) << v.out;
  EXPECT_NE(v.out.find("log entry " + std::to_string(e.log(changed).seq()) + " "), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("differs from the one recorded"), std::string::npos) << v.out;
}

TEST_F(ExportTest, AGameStillRunningExportsTheCommitmentOnly) {
  // Exported while the server runs: read-only, beside the live writer.
  auto ex = galloper("export " + data_arg() + " " + game_.id + " " + shell_quote(file("game.pb").string()));
  ASSERT_EQ(ex.status, 0) << ex.out;
  EXPECT_NE(ex.out.find("has not ended"), std::string::npos) << ex.out;
  const auto e = read_export(file("game.pb"));
  EXPECT_TRUE(e.seed().empty()) << "the seed stays secret until the game ends";
  EXPECT_FALSE(e.ended());
  auto v = galloper("verify " + shell_quote(file("game.pb").string()));
  EXPECT_EQ(v.status, 3) << v.out;
  EXPECT_NE(v.out.find("seed not revealed yet: commitment only"), std::string::npos) << v.out;
}

TEST_F(ExportTest, NotAnExportIsExitTwo) {
  std::ofstream(file("junk")) << "this is not a game";
  auto v = galloper("verify " + shell_quote(file("junk").string()));
  EXPECT_EQ(v.status, 2) << v.out;
  EXPECT_NE(v.out.find("not a galloper game export"), std::string::npos) << v.out;
  auto missing = galloper("verify " + shell_quote(file("absent").string()));
  EXPECT_EQ(missing.status, 2) << missing.out;
}

}  // namespace
}  // namespace galloper::testing
