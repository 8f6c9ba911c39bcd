// Damaged stores: two games in one store, one of them damaged with the sqlite3
// shell while the server is stopped. The damaged game answers a STORAGE error
// that names the problem, the other keeps being played, and nothing of the
// damaged game on disk is overwritten. A store from a newer schema is refused
// whole, byte for byte untouched.
#include "tests/integration/game_driver.hpp"

namespace galloper::testing {
namespace {

std::vector<char> file_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string first_line(std::string s) { return s.substr(0, s.find('\n')); }

class DurabilityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = make_temp_dir("durability");
    data_ = dir_ / "data";
    server_.emplace(data_);
    server_->start();
    damaged_ = create_demo_game(server_->port());
    intact_ = create_demo_game(server_->port());
    ASSERT_EQ(play_steps(server_->port(), damaged_, 3), 3) << server_->log();
    ASSERT_EQ(play_steps(server_->port(), intact_, 2), 2) << server_->log();
    // An answer in the open step, so the log ends in an "answer" entry.
    Client c(server_->port());
    c.hello();
    ASSERT_TRUE(join_game(c, damaged_.id, damaged_.tokens.at("umpire")).has_joined());
    auto status = read_until(c, [](const v1::Envelope& m) {
      return m.has_seat_status() && m.seat_status().owing_size() > 0;
    });
    ASSERT_TRUE(status);
    Client p(server_->port());
    p.hello();
    ASSERT_TRUE(join_game(p, damaged_.id, damaged_.tokens.at(status->seat_status().owing(0))).has_joined());
    auto owed = read_until(p, [](const v1::Envelope& m) { return m.has_decisions(); });
    ASSERT_TRUE(owed && owed->decisions().decisions_size() > 0);
    const auto& d = owed->decisions().decisions(0);
    v1::Envelope a;
    a.mutable_submit_answer()->set_game_id(damaged_.id);
    a.mutable_submit_answer()->set_step(owed->decisions().step());
    a.mutable_submit_answer()->mutable_answer()->set_decision_id(d.id());
    a.mutable_submit_answer()->mutable_answer()->set_option(
        d.default_option().empty() ? d.options(0).id() : d.default_option());
    ASSERT_TRUE(p.call(a).has_answer_accepted());
    ASSERT_EQ(server_->stop(SIGTERM), 0) << server_->log();
    server_.reset();
  }
  void TearDown() override {
    if (server_) server_->stop(SIGKILL);
    std::filesystem::remove_all(dir_);
  }

  std::filesystem::path db() const { return data_ / "galloper.db"; }

  std::string query(const std::string& sql) {
    auto r = sqlite3(db(), sql);
    EXPECT_EQ(r.status, 0) << sql << "\n" << r.out;
    return r.out;
  }
  // Everything the store holds of a game, as text.
  std::string rows_of(const std::string& game) {
    return query("SELECT * FROM games WHERE id = '" + game + "'; SELECT * FROM seats WHERE game_id = '" + game +
                 "' ORDER BY seat; SELECT seq, kind, hex(payload), state_hash, created_unix, superseded FROM steps "
                 "WHERE game_id = '" +
                 game + "' ORDER BY seq;");
  }
  std::string seq_of(const std::string& where) {
    return first_line(query("SELECT seq FROM steps WHERE game_id = '" + damaged_.id + "' AND " + where +
                            " ORDER BY seq LIMIT 1;"));
  }

  // Restarts the server, then checks the damaged game is refused with a
  // STORAGE error containing `expected`, and the intact one plays on.
  void expect_damaged_game_refused_and_other_served(const std::string& expected) {
    const std::string before = rows_of(damaged_.id);
    server_.emplace(data_);
    server_->start();
    for (int attempt = 0; attempt < 2; ++attempt) {  // and again: the failure is not cached as a half-loaded room
      Client c(server_->port());
      c.hello();
      auto joined = join_game(c, damaged_.id, damaged_.tokens.at("umpire"));
      ASSERT_TRUE(joined.has_error()) << joined.DebugString();
      EXPECT_EQ(joined.error().code(), v1::ERROR_CODE_STORAGE) << joined.DebugString();
      EXPECT_NE(joined.error().message().find(damaged_.id), std::string::npos) << joined.error().message();
      EXPECT_NE(joined.error().message().find(expected), std::string::npos) << joined.error().message();
    }
    EXPECT_EQ(play_steps(server_->port(), intact_, 2), 2) << "the other game keeps serving\n" << server_->log();
    Client lister(server_->port());
    lister.hello();
    v1::Envelope list;
    list.mutable_list_games();
    EXPECT_EQ(lister.call(list).game_list().games_size(), 2);
    ASSERT_EQ(server_->stop(SIGTERM), 0);
    server_.reset();
    EXPECT_EQ(rows_of(damaged_.id), before) << "nothing of the damaged game was overwritten";
    auto replay = galloper("replay --all --data " + shell_quote(data_.string()));
    EXPECT_EQ(replay.status, 1) << replay.out;
    EXPECT_NE(replay.out.find(intact_.id + ": ok: "), std::string::npos) << replay.out;
    EXPECT_NE(replay.out.find(damaged_.id + ": FAILED"), std::string::npos) << replay.out;
  }

  std::filesystem::path dir_;
  std::filesystem::path data_;
  std::optional<ServerProcess> server_;
  DemoGame damaged_;
  DemoGame intact_;
};

TEST_F(DurabilityTest, TruncatedResolvePayload) {
  const std::string seq = seq_of("kind = 'resolve' AND length(payload) > 8");
  ASSERT_FALSE(seq.empty());
  query("UPDATE steps SET payload = substr(payload, 1, length(payload) - 1) WHERE game_id = '" + damaged_.id +
        "' AND seq = " + seq + ";");
  expect_damaged_game_refused_and_other_served("log entry " + seq + " ");
}

TEST_F(DurabilityTest, DamagedAnswerInTheOpenStep) {
  const std::string seq = first_line(query("SELECT max(seq) FROM steps WHERE game_id = '" + damaged_.id + "';"));
  ASSERT_EQ(first_line(query("SELECT kind FROM steps WHERE game_id = '" + damaged_.id + "' AND seq = " + seq + ";")),
            "answer");
  query("UPDATE steps SET payload = x'12ff01' WHERE game_id = '" + damaged_.id + "' AND seq = " + seq + ";");
  expect_damaged_game_refused_and_other_served("log entry " + seq + " ");
}

TEST_F(DurabilityTest, StoredHashThatDoesNotMatch) {
  const std::string seq = seq_of("kind = 'resolve' AND length(payload) > 8");
  ASSERT_FALSE(seq.empty());
  query("UPDATE steps SET state_hash = (state_hash | 4096) - (state_hash & 4096) WHERE game_id = '" + damaged_.id + "' AND seq = " + seq +
        ";");
  expect_damaged_game_refused_and_other_served("log entry " + seq + " ");
}

TEST_F(DurabilityTest, UnknownSchemaVersionIsRefusedWholeAndUntouched) {
  query("INSERT INTO schema_version (version, description, applied_unix) VALUES (99, 'from a newer galloper', 0);");
  const auto before = file_bytes(db());
  auto serve = galloper("serve --listen 127.0.0.1:0 --data " + shell_quote(data_.string()), 30);
  EXPECT_EQ(serve.status, 1) << serve.out;
  EXPECT_NE(serve.out.find("schema version 99"), std::string::npos) << serve.out;
  EXPECT_NE(serve.out.find("nothing was changed"), std::string::npos) << serve.out;
  auto replay = galloper("replay --all --data " + shell_quote(data_.string()));
  EXPECT_EQ(replay.status, 2) << replay.out;
  EXPECT_NE(replay.out.find("schema version 99"), std::string::npos) << replay.out;
  EXPECT_EQ(file_bytes(db()), before) << "a store from a newer version is left exactly as it was";
  // A reader may leave SQLite's side files behind, but never a page in them.
  const std::filesystem::path wal = db().string() + "-wal";
  if (std::filesystem::exists(wal)) {
    EXPECT_EQ(std::filesystem::file_size(wal), 0u);
  }
}

}  // namespace
}  // namespace galloper::testing
