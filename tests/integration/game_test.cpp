// The thin path through every layer: an umpire creates a game from the bundled
// demo, a player joins a seat with its invite and receives that seat's view;
// the game is in SQLite and survives a restart.
#include <algorithm>

#include "codec/scenario_codec.hpp"
#include "tests/integration/harness.hpp"

namespace galloper::testing {
namespace {

v1::Envelope create_demo(Client& c) {
  v1::Envelope e;
  e.mutable_create_game()->set_scenario_name("demo");
  e.mutable_create_game()->set_title("Thin path");
  return c.call(e);
}

v1::Envelope join(Client& c, const std::string& game, const std::string& token) {
  v1::Envelope e;
  e.mutable_join_game()->set_game_id(game);
  e.mutable_join_game()->set_token(token);
  return c.call(e);
}

std::size_t count_games(Client& c) {
  v1::Envelope e;
  e.mutable_list_games();
  auto r = c.call(e);
  EXPECT_TRUE(r.has_game_list()) << r.DebugString();
  return static_cast<std::size_t>(r.game_list().games_size());
}

const v1::SeatInvite* find_wing_seat(const v1::GameCreated& created) {
  for (const auto& inv : created.invites()) {
    if (inv.seat() != "umpire" && inv.seat().find("/army") == std::string::npos) return &inv;
  }
  return nullptr;
}

class GameTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = make_temp_dir("game");
    server_.emplace(dir_);
    server_->start();
  }
  void TearDown() override {
    if (server_) server_->stop(SIGKILL);
    std::filesystem::remove_all(dir_);
  }
  std::filesystem::path dir_;
  std::optional<ServerProcess> server_;
};

TEST_F(GameTest, BundledScenariosAreListed) {
  Client c(server_->port());
  ASSERT_TRUE(c.hello().has_welcome());
  v1::Envelope e;
  e.mutable_list_scenarios();
  auto r = c.call(e);
  ASSERT_TRUE(r.has_scenario_list());
  bool demo = false;
  for (const auto& s : r.scenario_list().scenarios()) {
    if (s.name() == "malbrook/demo") {
      demo = true;
      EXPECT_EQ(s.ruleset(), "malbrook");
      EXPECT_FALSE(s.title().empty());
      // What the ruleset says of itself comes with it: the lobby's words.
      EXPECT_EQ(s.ruleset_info().name(), "malbrook");
      EXPECT_EQ(s.ruleset_info().unit_plural(), "inches");
    }
  }
  EXPECT_TRUE(demo);
}

// The lobby offers a scenario's seats (for the bot's checkboxes) before any
// game exists: they are the seats a game made from it has, as its invites
// name them, and the same for the scenario's text uploaded.
TEST_F(GameTest, ScenarioListCarriesTheSeatsOfTheDemo) {
  Client c(server_->port());
  ASSERT_TRUE(c.hello().has_welcome());
  v1::Envelope e;
  e.mutable_list_scenarios();
  auto r = c.call(e);
  ASSERT_TRUE(r.has_scenario_list()) << r.DebugString();
  const v1::ScenarioInfo* demo = nullptr;
  for (const auto& s : r.scenario_list().scenarios()) {
    if (s.name() == "malbrook/demo") demo = &s;
    EXPECT_GT(s.seats_size(), 2) << s.name() << ": the umpire and at least one seat a side";
  }
  ASSERT_NE(demo, nullptr);
  std::vector<std::pair<std::string, v1::SeatRole>> seats;
  for (const auto& seat : demo->seats()) seats.emplace_back(seat.id(), seat.role());
  const std::vector<std::pair<std::string, v1::SeatRole>> expected{
      {"umpire", v1::SEAT_ROLE_UMPIRE},     {"allies/army", v1::SEAT_ROLE_ARMY},
      {"allies/left", v1::SEAT_ROLE_WING},  {"allies/right", v1::SEAT_ROLE_WING},
      {"french/army", v1::SEAT_ROLE_ARMY},  {"french/droite", v1::SEAT_ROLE_WING},
      {"french/gauche", v1::SEAT_ROLE_WING}};
  EXPECT_EQ(seats, expected);
  for (const auto& seat : demo->seats()) {
    EXPECT_EQ(seat.side(), seat.role() == v1::SEAT_ROLE_UMPIRE ? "" : seat.id().substr(0, seat.id().find('/'))) << seat.id();
    EXPECT_FALSE(seat.description().empty()) << seat.id();
  }

  // The same seats, with the same labels, as the invites of a demo game (less the spectators' link).
  auto created = create_demo(c);
  ASSERT_TRUE(created.has_game_created()) << created.DebugString();
  std::vector<std::pair<std::string, std::string>> invited;
  for (const auto& inv : created.game_created().invites()) {
    if (inv.seat() != "spectator") invited.emplace_back(inv.seat(), inv.description());
  }
  std::vector<std::pair<std::string, std::string>> listed;
  for (const auto& seat : demo->seats()) listed.emplace_back(seat.id(), seat.description());
  EXPECT_EQ(listed, invited);

  // Uploaded: the demo's own text answers one scenario, unnamed, with the same seats.
  v1::Envelope upload;
  upload.mutable_list_scenarios()->set_scenario_text(std::string(codec::find_bundled_scenario("demo")->text));
  auto u = c.call(upload);
  ASSERT_TRUE(u.has_scenario_list()) << u.DebugString();
  ASSERT_EQ(u.scenario_list().scenarios_size(), 1);
  const auto& one = u.scenario_list().scenarios(0);
  EXPECT_EQ(one.name(), "");
  EXPECT_EQ(one.title(), demo->title());
  ASSERT_EQ(one.seats_size(), demo->seats_size());
  for (int i = 0; i < one.seats_size(); ++i) EXPECT_EQ(one.seats(i).SerializeAsString(), demo->seats(i).SerializeAsString());
}

TEST_F(GameTest, CreateJoinViewAndSurviveRestart) {
  std::string game_id, token, seat;
  {
    Client umpire(server_->port());
    ASSERT_TRUE(umpire.hello().has_welcome());
    auto created = create_demo(umpire);
    ASSERT_TRUE(created.has_game_created()) << created.DebugString();
    const auto& gc = created.game_created();
    game_id = gc.game_id();
    EXPECT_EQ(gc.seed_commitment().size(), 64u);
    ASSERT_GE(gc.invites_size(), 5);  // umpire, two army seats, at least two wings
    EXPECT_EQ(gc.invites(0).seat(), "umpire");
    for (const auto& inv : gc.invites()) EXPECT_EQ(inv.token().size(), 64u) << "256-bit tokens";
    const auto* wing = find_wing_seat(gc);
    ASSERT_NE(wing, nullptr);
    token = wing->token();
    seat = wing->seat();

    Client player(server_->port(), Client::Mode::kJson);
    ASSERT_TRUE(player.hello().has_welcome());
    auto joined = join(player, game_id, token);
    ASSERT_TRUE(joined.has_joined()) << joined.DebugString();
    EXPECT_EQ(joined.joined().seat(), seat);
    EXPECT_FALSE(joined.joined().resume_token().empty());
    const auto& view = joined.joined().view();
    EXPECT_EQ(view.game_id(), game_id);
    EXPECT_EQ(view.ruleset(), "malbrook");
    EXPECT_EQ(view.seed_commitment(), gc.seed_commitment());
    EXPECT_GT(view.table_width(), 0);
    int own = 0;
    for (const auto& u : view.units()) {
      if (u.knowledge() == v1::KNOWLEDGE_OWN) {
        ++own;
        EXPECT_EQ(u.wing(), seat.substr(seat.find('/') + 1)) << u.DebugString();
      }
      EXPECT_NE(u.knowledge(), v1::KNOWLEDGE_UMPIRE);
    }
    EXPECT_GT(own, 0);
    EXPECT_EQ(count_games(umpire), 1u);
  }

  // SIGTERM: flush and exit 0; the game is on disk.
  EXPECT_EQ(server_->stop(SIGTERM), 0) << server_->log();
  EXPECT_TRUE(std::filesystem::exists(dir_ / "galloper.db"));
  server_.emplace(dir_);
  server_->start();

  Client again(server_->port());
  ASSERT_TRUE(again.hello().has_welcome());
  EXPECT_EQ(count_games(again), 1u);
  auto joined = join(again, game_id, token);
  ASSERT_TRUE(joined.has_joined()) << joined.DebugString() << server_->log();
  EXPECT_EQ(joined.joined().seat(), seat);
  EXPECT_FALSE(joined.joined().view().units().empty());
}

// A page learns the game's ruleset from what it is sent on joining: its
// unit, which actions answer which decision, what each step reads, the
// umpire's edit kinds. Created by its key and by the old name alike.
TEST_F(GameTest, JoiningTellsTheSeatTheRulesetsWords) {
  Client c(server_->port());
  ASSERT_TRUE(c.hello().has_welcome());
  v1::Envelope by_key;
  by_key.mutable_create_game()->set_scenario_name("malbrook/demo");
  auto created = c.call(by_key);
  ASSERT_TRUE(created.has_game_created()) << created.DebugString();
  const auto* wing = find_wing_seat(created.game_created());
  ASSERT_NE(wing, nullptr);
  auto joined = join(c, created.game_created().game_id(), wing->token());
  ASSERT_TRUE(joined.has_joined()) << joined.DebugString();
  const auto& r = joined.joined().ruleset();
  EXPECT_EQ(r.name(), "malbrook");
  EXPECT_EQ(r.unit_name(), "inch");
  EXPECT_EQ(r.unit_plural(), "inches");
  EXPECT_EQ(r.modes_size(), 2);
  const v1::OrderKind* move = nullptr;
  for (const auto& o : r.orders()) {
    if (o.decision_kind() == "move") move = &o;
  }
  ASSERT_NE(move, nullptr);
  EXPECT_EQ(move->actions(0), "forward");
  bool wheel_reads_pivot = false;
  for (const auto& a : r.step_actions()) {
    if (a.key() == "wheel") wheel_reads_pivot = std::find(a.fields().begin(), a.fields().end(), "pivot") != a.fields().end();
  }
  EXPECT_TRUE(wheel_reads_pivot);
  std::vector<std::string> edits;
  for (const auto& k : r.edit_kinds()) edits.push_back(k.kind());
  EXPECT_EQ(edits, (std::vector<std::string>{"move", "remove", "set_dps", "leader_status", "attach", "advantage_of_ground"}));
}

TEST_F(GameTest, UmpireSeesEverything) {
  Client c(server_->port());
  ASSERT_TRUE(c.hello().has_welcome());
  auto created = create_demo(c);
  ASSERT_TRUE(created.has_game_created());
  auto joined = join(c, created.game_created().game_id(), created.game_created().invites(0).token());
  ASSERT_TRUE(joined.has_joined());
  EXPECT_EQ(joined.joined().seat(), "umpire");
  std::set<std::string> sides;
  for (const auto& u : joined.joined().view().units()) {
    EXPECT_EQ(u.knowledge(), v1::KNOWLEDGE_UMPIRE);
    sides.insert(u.side());
  }
  EXPECT_EQ(sides.size(), 2u);
}

TEST_F(GameTest, BadTokenAndUnknownGameAreTypedErrorsAndChangeNothing) {
  Client c(server_->port());
  ASSERT_TRUE(c.hello().has_welcome());
  auto created = create_demo(c);
  ASSERT_TRUE(created.has_game_created());
  const auto id = created.game_created().game_id();

  auto bad = join(c, id, std::string(64, '0'));
  ASSERT_TRUE(bad.has_error());
  EXPECT_EQ(bad.error().code(), v1::ERROR_CODE_BAD_TOKEN);
  EXPECT_EQ(bad.error().context().at("game_id"), id);

  auto missing = join(c, "g-nope", created.game_created().invites(1).token());
  ASSERT_TRUE(missing.has_error());
  EXPECT_EQ(missing.error().code(), v1::ERROR_CODE_NOT_FOUND);

  // Another game's token does not open this one.
  auto other = create_demo(c);
  ASSERT_TRUE(other.has_game_created());
  auto cross = join(c, id, other.game_created().invites(1).token());
  ASSERT_TRUE(cross.has_error());
  EXPECT_EQ(cross.error().code(), v1::ERROR_CODE_BAD_TOKEN);

  EXPECT_EQ(count_games(c), 2u);
  auto good = join(c, id, created.game_created().invites(1).token());
  EXPECT_TRUE(good.has_joined());
}

TEST_F(GameTest, ResumeTokenRejoinsTheSameSeat) {
  Client c(server_->port());
  ASSERT_TRUE(c.hello().has_welcome());
  auto created = create_demo(c);
  ASSERT_TRUE(created.has_game_created());
  const auto id = created.game_created().game_id();
  auto first = join(c, id, created.game_created().invites(1).token());
  ASSERT_TRUE(first.has_joined());

  Client later(server_->port());
  ASSERT_TRUE(later.hello().has_welcome());
  auto again = join(later, id, first.joined().resume_token());
  ASSERT_TRUE(again.has_joined()) << again.DebugString();
  EXPECT_EQ(again.joined().seat(), first.joined().seat());
}

TEST_F(GameTest, BadScenariosAreRefusedWithTheirProblemsAndStoreNothing) {
  Client c(server_->port());
  ASSERT_TRUE(c.hello().has_welcome());

  v1::Envelope unknown;
  unknown.mutable_create_game()->set_scenario_name("waterloo");
  auto r1 = c.call(unknown);
  ASSERT_TRUE(r1.has_error());
  EXPECT_EQ(r1.error().code(), v1::ERROR_CODE_NOT_FOUND);

  v1::Envelope broken;
  broken.mutable_create_game()->set_scenario_text("name: \"x\"\ntable_width: {{{\n");
  auto r2 = c.call(broken);
  ASSERT_TRUE(r2.has_error());
  EXPECT_EQ(r2.error().code(), v1::ERROR_CODE_BAD_SCENARIO);
  EXPECT_NE(r2.error().context().at("problems").find("uploaded:2:"), std::string::npos)
      << r2.error().context().at("problems");

  // Asked before creating (ListScenarios with the text): the same problems, nothing stored.
  v1::Envelope check;
  check.mutable_list_scenarios()->set_scenario_text("name: \"x\"\ntable_width: {{{\n");
  auto r4 = c.call(check);
  ASSERT_TRUE(r4.has_error()) << r4.DebugString();
  EXPECT_EQ(r4.error().code(), v1::ERROR_CODE_BAD_SCENARIO);
  EXPECT_EQ(r4.error().context().at("problems"), r2.error().context().at("problems"));

  v1::Envelope empty;
  empty.mutable_create_game();
  auto r3 = c.call(empty);
  ASSERT_TRUE(r3.has_error());
  EXPECT_EQ(r3.error().code(), v1::ERROR_CODE_INVALID_ARGUMENT);

  EXPECT_EQ(count_games(c), 0u);
}

}  // namespace
}  // namespace galloper::testing
