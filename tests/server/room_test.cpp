// A room's requests and pushes, without sockets: the real Room over the
// in-memory store with fake peers (room_rig.hpp).
#include "tests/server/room_rig.hpp"

namespace galloper::testing {
namespace {

template <class Pred>
std::vector<v1::Envelope> matching(const std::vector<v1::Envelope>& all, Pred pred) {
  std::vector<v1::Envelope> out;
  for (const auto& e : all) {
    if (pred(e)) out.push_back(e);
  }
  return out;
}

v1::Envelope reply_to(FakePeer& peer, std::uint64_t correlation_id) {
  for (const auto& e : peer.seen()) {
    if (e.correlation_id() == correlation_id) return e;
  }
  ADD_FAILURE() << "no reply " << correlation_id;
  return {};
}

class RoomActor : public ::testing::Test {
 protected:
  void SetUp() override {
    v1::GameSettings settings;
    settings.set_step_deadline_seconds(600);
    auto* hook = settings.add_webhooks();
    hook->set_url("https://discord.example/api/webhooks/1/secret-token");
    rig_ = std::make_unique<RoomRig>("demo", settings);
    rig_->room->start();
    rig_->run();
  }

  v1::Envelope submit(FakePeer& peer, std::shared_ptr<FakePeer> holder, const std::string& decision,
                      std::uint64_t correlation_id) {
    v1::SubmitAnswer a;
    a.set_game_id(rig_->record.id);
    a.set_step(open_step(peer));
    a.mutable_answer()->set_decision_id(decision);
    a.mutable_answer()->set_option("none");
    rig_->room->submit(a, std::move(holder), correlation_id);
    rig_->run();
    return reply_to(peer, correlation_id);
  }

  static std::uint64_t open_step(FakePeer& peer) {
    std::uint64_t step = 0;
    for (const auto& e : peer.seen()) {
      if (e.has_decisions()) step = e.decisions().step();
      if (e.has_step_resolved()) step = e.step_resolved().next().step();
    }
    return step;
  }

  std::unique_ptr<RoomRig> rig_;
};

// Naming another seat's decision is answered exactly as naming one that does
// not exist: which seat owes what is not the asker's to learn.
TEST_F(RoomActor, AnotherSeatsDecisionIsRefusedAsAMadeUpOne) {
  auto umpire = rig_->join("umpire");
  std::string theirs, owner;
  for (const auto& e : umpire->seen()) {
    if (!e.has_decisions()) continue;
    for (const auto& d : e.decisions().decisions()) {
      if (d.seat() != "allies/left") {
        theirs = d.id();
        owner = d.seat();
      }
    }
  }
  ASSERT_FALSE(theirs.empty()) << "another seat owes something at the first step";
  auto allies = rig_->join("allies/left");
  const auto real = submit(*allies, allies, theirs, 11);
  const auto fake = submit(*allies, allies, "charge/no_such_unit", 12);
  ASSERT_TRUE(real.has_error());
  ASSERT_TRUE(fake.has_error());
  EXPECT_EQ(real.error().code(), fake.error().code());
  auto without = [](std::string text, const std::string& id) {
    if (auto at = text.find(id); at != std::string::npos) text.replace(at, id.size(), "ID");
    return text;
  };
  EXPECT_EQ(without(real.error().message(), theirs), without(fake.error().message(), "charge/no_such_unit"));
  EXPECT_EQ(real.error().message().find(owner), std::string::npos) << real.error().message();
}

TEST_F(RoomActor, PlayWhilePausedIsRetryLater) {
  auto umpire = rig_->join("umpire");
  v1::UmpireAction pause;
  pause.set_game_id(rig_->record.id);
  pause.set_reason("tea");
  pause.mutable_pause();
  rig_->room->umpire(pause, umpire, 5);
  rig_->run();
  ASSERT_TRUE(reply_to(*umpire, 5).has_umpire_done());
  auto allies = rig_->join("allies/left");
  const auto refused = submit(*allies, allies, "anything", 6);
  ASSERT_TRUE(refused.has_error());
  EXPECT_EQ(refused.error().code(), v1::ERROR_CODE_UNAVAILABLE) << refused.error().message();
}

TEST_F(RoomActor, APrivateMessageToAnUnknownSeatNamesIt) {
  auto umpire = rig_->join("umpire");
  v1::SendChat chat;
  chat.set_game_id(rig_->record.id);
  chat.set_channel(v1::CHAT_CHANNEL_UMPIRE);
  chat.set_text("hello");
  chat.set_to_seat("nobody/here");
  rig_->room->chat(chat, umpire, 7);
  rig_->run();
  const auto refused = reply_to(*umpire, 7);
  ASSERT_TRUE(refused.has_error());
  EXPECT_EQ(refused.error().code(), v1::ERROR_CODE_NOT_FOUND);
  EXPECT_NE(refused.error().message().find("nobody/here"), std::string::npos) << refused.error().message();
  chat.clear_to_seat();
  rig_->room->chat(chat, umpire, 8);
  rig_->run();
  EXPECT_NE(reply_to(*umpire, 8).error().message().find("names the seat it is for"), std::string::npos);
}

// A webhook URL is a bearer secret: the umpire's settings carry it, a
// player's and a spectator's do not.
TEST_F(RoomActor, SettingsCarryWebhookUrlsOnlyToTheUmpire) {
  auto joined_settings = [](FakePeer& p) {
    for (const auto& e : p.seen()) {
      if (e.has_joined()) return e.joined().settings();
    }
    return v1::GameSettings{};
  };
  const auto umpire = joined_settings(*rig_->join("umpire"));
  ASSERT_EQ(umpire.webhooks_size(), 1);
  EXPECT_NE(umpire.webhooks(0).url().find("secret-token"), std::string::npos);
  for (const auto* seat : {"allies/left", "french/army", "spectator"}) {
    auto peer = rig_->join(seat);
    const auto s = joined_settings(*peer);
    ASSERT_EQ(s.webhooks_size(), 1) << seat;
    EXPECT_TRUE(s.webhooks(0).url().empty()) << seat;
    for (const auto& e : peer->seen()) {
      EXPECT_EQ(e.SerializeAsString().find("secret-token"), std::string::npos) << seat;
    }
  }
}

// Each seat numbers the chat it may read from 1 with no gaps, and a join
// with the last one it has gets every later one, in pages, however many.
TEST_F(RoomActor, ChatIsNumberedPerReaderAndCaughtUpInPages) {
  auto allies = rig_->join("allies/left");
  auto french = rig_->join("french/droite");
  auto say = [&](const std::shared_ptr<FakePeer>& who, v1::ChatChannel channel, int i) {
    v1::SendChat c;
    c.set_game_id(rig_->record.id);
    c.set_channel(channel);
    c.set_text("message " + std::to_string(i));
    who->take();
    rig_->room->chat(c, who, 100 + i);
  };
  for (int i = 0; i < 1200; ++i) {
    say(i % 3 == 0 ? french : allies, i % 3 == 0 ? v1::CHAT_CHANNEL_SIDE : v1::CHAT_CHANNEL_ALL, i);
    rig_->run();
  }
  // The allies read 800 messages (the French side's 400 are not theirs), numbered 1..800.
  auto again = std::make_shared<FakePeer>("allies again");
  v1::JoinGame join;
  join.set_game_id(rig_->record.id);
  join.set_token(rig_->tokens.at("allies/left"));
  join.set_last_chat_sequence(150);
  rig_->room->join(join, again, 1);
  rig_->run();
  std::vector<std::uint64_t> numbers;
  int pages = 0;
  bool last_page_says_so = false;
  for (const auto& e : again->seen()) {
    if (!e.has_events_since()) continue;
    ++pages;
    last_page_says_so = !e.events_since().more();
    for (const auto& m : e.events_since().chat()) {
      numbers.push_back(m.sequence());
      EXPECT_NE(m.channel(), v1::CHAT_CHANNEL_SIDE) << "the French side's chat";
    }
  }
  ASSERT_EQ(numbers.size(), 650u);
  EXPECT_EQ(numbers.front(), 151u);
  EXPECT_EQ(numbers.back(), 800u);
  for (std::size_t i = 1; i < numbers.size(); ++i) EXPECT_EQ(numbers[i], numbers[i - 1] + 1);
  EXPECT_EQ(pages, 2);
  EXPECT_TRUE(last_page_says_so);
}

// The room tells the store when it next needs the server: with a step
// deadline, the deadline's warning; the store then lists the game as due.
TEST_F(RoomActor, TheNextWakeUpIsStoredAndTheRoomIsPutAwayWhenIdle) {
  std::vector<persistence::GameWake> due;
  rig_->store->due_games(rig_->clock.now_ms() + 3600 * 1000, 10,
                         [&](std::vector<persistence::GameWake> d, persistence::Status) { due = std::move(d); });
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].game_id, rig_->record.id);
  EXPECT_GT(due[0].wake_ms, rig_->clock.now_ms());

  // Nobody connected and nothing due within a minute: it may be put away,
  // and a join that reaches it afterwards goes back to whoever loads rooms.
  bool idle = false;
  rig_->room->put_away_if_idle(rig_->clock.now_ms() + 60 * 1000, [&](bool i) { idle = i; });
  rig_->run();
  EXPECT_TRUE(idle);
  bool redirected = false;
  rig_->room->on_put_away([&](const v1::JoinGame&, const std::shared_ptr<server::Peer>&, std::uint64_t) {
    redirected = true;
  });
  rig_->join("allies/left");
  EXPECT_TRUE(redirected);
}

TEST_F(RoomActor, ARoomWithAConnectionOrSoonDueIsNotPutAway) {
  bool idle = true;
  rig_->room->put_away_if_idle(rig_->clock.now_ms() + 3600 * 1000, [&](bool i) { idle = i; });
  rig_->run();
  EXPECT_FALSE(idle) << "its deadline falls within the hour";
  auto someone = rig_->join("allies/left");
  idle = true;
  rig_->room->put_away_if_idle(rig_->clock.now_ms() + 60 * 1000, [&](bool i) { idle = i; });
  rig_->run();
  EXPECT_FALSE(idle) << "someone is connected";
}

}  // namespace
}  // namespace galloper::testing

namespace galloper::testing {
namespace {

// The in-memory store, except that while `holding`, a write's completion
// waits for release(): a write in flight, as on a slow disk.
class HeldStore final : public persistence::Store {
 public:
  explicit HeldStore(std::unique_ptr<persistence::Store> inner) : inner_(std::move(inner)) {}
  bool holding = false;
  void release() {
    holding = false;
    auto held = std::move(held_);
    held_.clear();
    for (auto& done : held) done();
  }
  std::size_t held() const { return held_.size(); }

  void create_game(persistence::GameRecord game, std::vector<persistence::SeatRecord> seats,
                   std::function<void(persistence::Status)> done) override {
    inner_->create_game(std::move(game), std::move(seats), std::move(done));
  }
  void append_step(persistence::StepRecord step, std::function<void(persistence::Status)> done) override {
    inner_->append_step(std::move(step), [this, done = std::move(done)](persistence::Status s) {
      if (holding) {
        held_.push_back([done, s] { done(s); });
      } else {
        done(s);
      }
    });
  }
  void load_game(std::string id, std::function<void(std::optional<persistence::GameRecord>, persistence::Status)> done) override {
    inner_->load_game(std::move(id), std::move(done));
  }
  void list_games(std::function<void(std::vector<persistence::GameRecord>, persistence::Status)> done) override {
    inner_->list_games(std::move(done));
  }
  void load_seats(std::string game_id,
                  std::function<void(std::vector<persistence::SeatRecord>, persistence::Status)> done) override {
    inner_->load_seats(std::move(game_id), std::move(done));
  }
  void find_seat(std::string game_id, std::string token_hash,
                 std::function<void(std::optional<persistence::SeatRecord>, persistence::Status)> done) override {
    inner_->find_seat(std::move(game_id), std::move(token_hash), std::move(done));
  }
  void load_steps(std::string game_id, std::uint64_t after_seq,
                  std::function<void(std::vector<persistence::StepRecord>, persistence::Status)> done) override {
    inner_->load_steps(std::move(game_id), after_seq, std::move(done));
  }
  void set_wake(std::string game_id, std::int64_t wake_ms, std::function<void(persistence::Status)> done) override {
    inner_->set_wake(std::move(game_id), wake_ms, std::move(done));
  }
  void flush() override { inner_->flush(); }
  void close() override { inner_->close(); }

 private:
  std::unique_ptr<persistence::Store> inner_;
  std::vector<std::function<void()>> held_;
};

// A seat is shown the game only as the store holds it: a join that comes
// while a write is in flight is answered once the write is on disk, with
// what was written.
TEST(RoomDurability, AJoinWhileAWriteIsInFlightIsAnsweredOnceItIsOnDisk) {
  RoomRig rig("demo", v1::GameSettings{});
  auto* held = new HeldStore(std::move(rig.store));
  rig.store.reset(held);
  rig.room = rig.make_room();
  rig.room->start();
  rig.run();
  auto umpire = rig.join("umpire");
  ASSERT_FALSE(matching(umpire->seen(), [](const v1::Envelope& e) { return e.has_joined(); }).empty());

  held->holding = true;
  v1::SendChat chat;
  chat.set_game_id(rig.record.id);
  chat.set_text("the French are coming");
  rig.room->chat(chat, umpire, 7);
  rig.run();
  ASSERT_EQ(held->held(), 1u) << "the chat's write is in flight";

  auto late = rig.join("allies/left");
  EXPECT_TRUE(matching(late->seen(), [](const v1::Envelope& e) { return e.has_joined(); }).empty())
      << "nothing is shown of a state the store does not hold yet";

  held->release();
  rig.run();
  const auto joined = matching(late->seen(), [](const v1::Envelope& e) { return e.has_joined(); });
  ASSERT_EQ(joined.size(), 1u) << "answered once the write is on disk";
  bool told = false;
  for (const auto& e : late->seen()) {
    for (const auto& m : e.events_since().chat()) told = told || m.text() == "the French are coming";
  }
  EXPECT_TRUE(told) << "the joined seat is told the chat that was written";
}

}  // namespace
}  // namespace galloper::testing
