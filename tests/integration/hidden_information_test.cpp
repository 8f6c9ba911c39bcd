// Hidden information, message by message, over games played by bots through
// the real server (game rooms issue: "every message sent to a seat mentions
// only units that seat may see at that moment; no seat ever receives another
// seat's unresolved answers").
//
// Every seat of a demo game is a bot on its own WebSocket, answering each
// decision with a random legal option (seeded), locking, and recording every
// message it receives. When the games are over the server is stopped, each
// game is rebuilt offline from the store with the rules library and every
// recorded message is checked against it:
//  * a view (Joined, StepResolved, pushed) shows exactly the units the rules'
//    one path (`Game::view_for`) shows that seat in the state of that step
//    (a view told as a change, once applied to the seat's last);
//  * the events of a step are exactly the rules' telling of them to that
//    seat (tell_event with the seat's views before and after the step);
//  * decisions owed are the seat's own, with only its own answers.
// Both vision settings, several games each. This checks the server against
// the rules' own functions: consistency, not the promise. The promise is
// proven from the wire by hidden_frames_test.cpp.
#include <future>
#include <random>

#include "codec/play_codec.hpp"
#include "codec/view_codec.hpp"
#include "rules/core/tell.hpp"
#include "galloper/v1/store.pb.h"
#include "persistence/store.hpp"
#include "server/src/tools/log_check.hpp"
#include "server/src/game/replay.hpp"
#include "tests/integration/game_driver.hpp"
#include "tests/integration/keep_view.hpp"

namespace galloper::testing {
namespace {

constexpr int kGamesPerVision = 3;
constexpr int kStepsPerGame = 24;

struct Bot {
  std::string seat;
  std::unique_ptr<Client> client;
  std::vector<v1::Envelope> received;  // everything, in order
  // Reads what has arrived (replies to calls are recorded by the caller).
  void pump(std::chrono::milliseconds wait) {
    while (auto m = client->poll(wait)) {
      received.push_back(*m);
      wait = std::chrono::milliseconds(1);
    }
  }
  v1::Envelope call(v1::Envelope e) {
    auto reply = client->call(std::move(e));
    received.push_back(reply);
    return reply;
  }
  // What this seat owes at `step`, from the newest message that says.
  std::optional<v1::DecisionsOwed> owed(std::uint64_t step) const {
    for (auto it = received.rbegin(); it != received.rend(); ++it) {
      if (it->has_decisions() && it->decisions().step() == step) return it->decisions();
      if (it->has_step_resolved() && it->step_resolved().next().step() == step) return it->step_resolved().next();
    }
    return std::nullopt;
  }
};

struct PlayedGame {
  std::string id;
  bool side_shared = false;
  std::vector<Bot> bots;  // the umpire first
};

std::string create_game(unsigned short port, bool side_shared, std::map<std::string, std::string>& tokens) {
  Client c(port);
  c.hello();
  v1::Envelope e;
  e.mutable_create_game()->set_scenario_name("demo");
  e.mutable_create_game()->mutable_settings()->set_vision(side_shared ? v1::VISION_SIDE_SHARED : v1::VISION_WING_ONLY);
  auto created = c.call(e);
  EXPECT_TRUE(created.has_game_created()) << created.DebugString();
  for (const auto& inv : created.game_created().invites()) tokens[inv.seat()] = inv.token();
  return created.game_created().game_id();
}

// The umpire's newest open step that owes decisions, waiting through steps
// that resolve by themselves.
std::optional<v1::DecisionsOwed> open_step(Bot& umpire) {
  // Up to 10 s: on a loaded machine a step's resolution can take seconds.
  for (int i = 0; i < 200; ++i) {
    umpire.pump(std::chrono::milliseconds(50));
    std::optional<v1::DecisionsOwed> newest;
    std::uint64_t resolved_up_to = 0;
    bool ended = false;
    for (const auto& m : umpire.received) {
      if (m.has_decisions()) newest = m.decisions();
      if (m.has_step_resolved()) {
        newest = m.step_resolved().next();
        resolved_up_to = std::max(resolved_up_to, m.step_resolved().step() + 1);
        ended = ended || m.step_resolved().view().ended();
      }
    }
    if (ended) return std::nullopt;
    if (newest && newest->decisions_size() > 0 && newest->step() >= resolved_up_to) return newest;
  }
  return std::nullopt;
}

void play(unsigned short port, PlayedGame& game, std::mt19937& rng) {
  std::map<std::string, std::string> tokens;
  game.id = create_game(port, game.side_shared, tokens);
  // The umpire first, then every player seat (spectators are another test's).
  std::vector<std::string> seats = {"umpire"};
  for (const auto& [seat, token] : tokens) {
    if (seat != "umpire" && seat != "spectator") seats.push_back(seat);
  }
  for (const auto& seat : seats) {
    Bot bot{seat, std::make_unique<Client>(port), {}};
    bot.client->hello();
    v1::Envelope join;
    join.mutable_join_game()->set_game_id(game.id);
    join.mutable_join_game()->set_token(tokens.at(seat));
    ASSERT_TRUE(bot.call(join).has_joined()) << seat;
    game.bots.push_back(std::move(bot));
  }
  Bot& umpire = game.bots.front();
  for (int n = 0; n < kStepsPerGame; ++n) {
    auto open = open_step(umpire);
    if (!open) return;  // the game ended
    const std::uint64_t step = open->step();
    std::set<std::string> owing;
    for (const auto& d : open->decisions()) owing.insert(d.seat());
    for (auto& bot : game.bots) {
      if (!owing.contains(bot.seat)) continue;
      // Its StepResolved (with what it owes next) may still be on its way.
      auto owed = bot.owed(step);
      for (int wait = 0; !owed && wait < 200; ++wait) {
        bot.pump(std::chrono::milliseconds(50));
        owed = bot.owed(step);
      }
      ASSERT_TRUE(owed) << bot.seat << " was not told what it owes at step " << step;
      for (const auto& d : owed->decisions()) {
        // A random option; an illegal one (e.g. a move that needs an order)
        // is refused with a reason, then the default is given.
        std::string option = d.default_option();
        if (d.options_size() > 0) option = d.options(static_cast<int>(rng() % static_cast<unsigned>(d.options_size()))).id();
        v1::Envelope a;
        a.mutable_submit_answer()->set_game_id(game.id);
        a.mutable_submit_answer()->set_step(step);
        a.mutable_submit_answer()->mutable_answer()->set_decision_id(d.id());
        a.mutable_submit_answer()->mutable_answer()->set_option(option);
        if (bot.call(a).has_error() && !d.default_option().empty()) {
          a.mutable_submit_answer()->mutable_answer()->set_option(d.default_option());
          bot.call(a);
        }
      }
      v1::Envelope lock;
      lock.mutable_lock_answers()->set_game_id(game.id);
      lock.mutable_lock_answers()->set_step(step);
      bot.call(lock);
    }
  }
}

// ---- Offline: the games as the rules make them. ----

struct Rebuilt {
  std::map<std::uint64_t, std::unique_ptr<rules::Game>> at_step;      // the state while `step` is open
  std::map<std::uint64_t, std::vector<rules::Event>> events_of_step;  // what resolving `step` produced
};

Rebuilt rebuild(persistence::Store& store, const std::string& game_id) {
  Rebuilt out;
  std::promise<std::optional<persistence::GameRecord>> g;
  store.load_game(game_id, [&](std::optional<persistence::GameRecord> r, persistence::Status) { g.set_value(r); });
  std::promise<std::vector<persistence::StepRecord>> l;
  store.load_steps(game_id, 0, [&](std::vector<persistence::StepRecord> r, persistence::Status) { l.set_value(r); });
  auto record = g.get_future().get();
  auto log = l.get_future().get();
  EXPECT_TRUE(record);
  if (!record) return out;
  const auto seed = *server::seed_of(record->seed);
  auto initial = server::initial_game(record->scenario_text, record->settings, seed);
  auto game = std::move(std::get<std::unique_ptr<rules::Game>>(initial));
  for (const auto& entry : log) {
    if (entry.kind != "resolve" || entry.superseded) continue;
    const auto step = game->step();
    auto applied = server::apply_resolve_entry(*game, seed, entry);
    EXPECT_FALSE(applied.error) << *applied.error;
    if (applied.error) break;
    out.at_step[step] = game->clone();
    out.events_of_step[step] = std::move(applied.events);
    game = std::move(applied.next);
  }
  out.at_step[game->step()] = std::move(game);
  return out;
}

std::vector<std::string> unit_lines(const google::protobuf::RepeatedPtrField<v1::UnitView>& units) {
  std::vector<std::string> out;
  for (const auto& u : units) out.push_back(u.ShortDebugString());
  return out;
}

// The checks, for one seat of one game.
void check_messages(const PlayedGame& game, const Bot& bot, const Rebuilt& rebuilt, int& views, int& events,
                    int& hidden, int& changes) {
  rules::ViewSettings settings;
  settings.side_shared_vision = game.side_shared;
  const bool umpire = bot.seat == "umpire";
  auto expect_view = [&](const v1::GameView& got, const std::string& where) {
    auto it = rebuilt.at_step.find(got.step());
    ASSERT_NE(it, rebuilt.at_step.end()) << where << ": a view of step " << got.step() << " the log never reached";
    if (got.ended()) return;  // at the end everything is revealed
    v1::GameView expected;
    codec::to_proto(it->second->view_for(bot.seat, settings), &expected);
    EXPECT_EQ(unit_lines(got.units()), unit_lines(expected.units()))
        << game.id << " seat " << bot.seat << " " << where << " step " << got.step()
        << (game.side_shared ? " (side-shared)" : " (wing-only)");
    ++views;
    if (got.units_size() < static_cast<int>(it->second->view_for("umpire", settings).units.size())) ++hidden;
  };
  // The seat's whole view as a client keeps it: each view told as a change
  // is applied to the last (codec::apply_change, as the web client does), and
  // what comes of it is checked like a whole view.
  v1::GameView held;
  bool holding = false;
  for (const auto& m : bot.received) {
    if (m.has_joined()) {
      held = m.joined().view();
      holding = true;
      expect_view(held, "Joined");
    }
    if (m.has_view()) {
      held = m.view();
      holding = true;
      expect_view(held, "view push");
    }
    if (m.has_step_resolved()) {
      const auto& sr = m.step_resolved();
      if (sr.has_change()) {
        ASSERT_TRUE(holding) << bot.seat << " was sent a change before any whole view";
        ++changes;
      }
      const auto wrong = keep_step_view(held, sr);
      ASSERT_FALSE(wrong) << bot.seat << " step " << sr.step() << ": " << *wrong;
      holding = true;
      expect_view(held, "StepResolved");
      auto evs = rebuilt.events_of_step.find(sr.step());
      ASSERT_NE(evs, rebuilt.events_of_step.end());
      auto after = rebuilt.at_step.find(sr.step() + 1);
      ASSERT_NE(after, rebuilt.at_step.end());
      // Each event as the rules tell it to a seat with the views it had
      // before and after the step (rules/core/tell.hpp).
      const auto before = rebuilt.at_step.find(sr.step());
      ASSERT_NE(before, rebuilt.at_step.end());
      const rules::View was = before->second->view_for(bot.seat, settings);
      const rules::SeatKnowledge knows(after->second->view_for(bot.seat, settings), &was);
      std::vector<std::string> expected;
      for (const auto& raw : evs->second) {
        const auto told = rules::tell_event(raw, knows);
        if (!told) continue;
        v1::Event e;
        codec::to_proto(*told, &e);
        if (!umpire) {
          for (int d = 0; d < e.dice_size(); ++d) e.mutable_dice(d)->set_draw(static_cast<std::uint32_t>(d + 1));
        }
        expected.push_back(e.ShortDebugString());
      }
      std::vector<std::string> got;
      for (auto e : sr.events()) {
        e.clear_sequence();
        e.clear_step();
        e.clear_turn();
        e.clear_phase();
        got.push_back(e.ShortDebugString());
      }
      EXPECT_EQ(got, expected) << game.id << " seat " << bot.seat << " events of step " << sr.step();
      events += static_cast<int>(got.size());
    }
    const v1::DecisionsOwed* owed = m.has_decisions()                                   ? &m.decisions()
                                    : m.has_step_resolved() && m.step_resolved().has_next() ? &m.step_resolved().next()
                                                                                          : nullptr;
    if (owed != nullptr) {
      std::set<std::string> mine;
      for (const auto& d : owed->decisions()) {
        if (!umpire) {
          EXPECT_EQ(d.seat(), bot.seat) << "another seat's decision sent to " << bot.seat;
        }
        if (d.seat() == bot.seat) mine.insert(d.id());
      }
      for (const auto& a : owed->answers()) {
        EXPECT_TRUE(mine.contains(a.decision_id())) << bot.seat << " was sent an answer to " << a.decision_id();
      }
    }
    EXPECT_FALSE(m.has_answer_accepted() && m.correlation_id() == 0) << "an acknowledgement pushed to " << bot.seat;
  }
}

TEST(HiddenInformation, EveryMessageToASeatShowsOnlyWhatItMaySee) {
  const auto dir = make_temp_dir("hidden");
  std::vector<PlayedGame> games;
  {
    ServerProcess server(dir / "data");
    server.start();
    std::mt19937 rng(20261121);
    for (bool side_shared : {false, true}) {
      for (int g = 0; g < kGamesPerVision; ++g) {
        games.push_back(PlayedGame{{}, side_shared, {}});
        play(server.port(), games.back(), rng);
        ASSERT_FALSE(::testing::Test::HasFatalFailure()) << server.log();
      }
    }
    for (auto& game : games) {
      for (auto& bot : game.bots) bot.pump(std::chrono::milliseconds(20));
    }
    ASSERT_EQ(server.stop(SIGTERM), 0) << server.log();
  }
  persistence::StoreOptions read_only;
  read_only.read_only = true;
  auto opened = persistence::open_sqlite_store(dir / "data" / "galloper.db", read_only);
  ASSERT_TRUE(opened.store) << opened.error->message;
  int views = 0;
  int events = 0;
  int hidden = 0;   // views that left some unit out
  int changes = 0;  // views told as a change to the last
  for (const auto& game : games) {
    const auto rebuilt = rebuild(*opened.store, game.id);
    EXPECT_GE(rebuilt.events_of_step.size(), static_cast<std::size_t>(kStepsPerGame / 2)) << game.id;
    for (const auto& bot : game.bots) check_messages(game, bot, rebuilt, views, events, hidden, changes);
  }
  // The test checked something real: many views and events, hidden units
  // among them, and most views after a join told as changes.
  EXPECT_GT(views, 100);
  EXPECT_GT(changes, views / 2);
  EXPECT_GT(events, 100);
  EXPECT_GT(hidden, views / 4) << "the games must hide something for the test to mean anything";
  opened.store->close();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace galloper::testing
