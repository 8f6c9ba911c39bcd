// Hidden information, byte by byte, as an adversarial player would look for
// it: games played through the real server over real WebSockets, every
// frame every connection receives recorded as bytes, then searched for the
// units its seat does not see.
//
// Ground truth comes from the wire: the umpire's whole views (protocol 1.0)
// say which units exist and where; each seat's own whole views (a second
// connection on protocol 1.0) say which it sees. A unit a seat does not see
// at a step (in neither its view before the step nor after it) must not
// appear in any frame it is sent then: not its id or name in any string,
// not its position in any point. Seen enemies never show their names (R21).
// Nothing here calls the server's own filters. A side knows its own order of
// battle by name (R21), so a friend's name or id may be told; where an
// unseen friend stands may not. The end of the game reveals everything.
//
// Every seat but one is the bot; the one is this test's player ("the
// prober"), who locks with defaults so the game goes on and, along the way,
// asks about hidden units the way a cheat would (orders, odds and decision
// ids naming them) and compares the answers with those for a made-up id.
// The umpire edits the state and rewinds; a spectator joins late; a seat's
// second connection drops and catches up. Malbrook's demo and Blenheim and
// CF&EO's Fraustadt, both vision settings, both play modes. GALLOPER_FRAME_STEPS caps the steps per game
// (default 40; 0: to the end of the game, as the release CI run plays them).
#include <google/protobuf/descriptor.h>
#include <google/protobuf/reflection.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <ostream>
#include <regex>
#include <set>

#include "codec/ruleset_codec.hpp"
#include "codec/rulesets.hpp"
#include "tests/integration/game_driver.hpp"
#include "tests/integration/harness.hpp"

namespace galloper::testing {
namespace {

namespace pb = google::protobuf;

struct Frame {
  std::string raw;
  v1::Envelope env;
};

// One connection and everything it was sent.
struct Watcher {
  std::string seat;
  bool whole_views = false;  // protocol 1.0: every view whole
  std::unique_ptr<Client> client;
  std::vector<Frame> frames;

  void open(unsigned short port, const std::string& game, const std::string& token, std::uint64_t last_sequence = 0) {
    client = std::make_unique<Client>(port);
    client->on_frame = [this](const std::string& raw, const v1::Envelope& env) { frames.push_back({raw, env}); };
    ASSERT_TRUE(client->hello(1, whole_views ? 0 : 1).has_welcome());
    v1::Envelope join;
    join.mutable_join_game()->set_game_id(game);
    join.mutable_join_game()->set_token(token);
    join.mutable_join_game()->set_last_sequence(last_sequence);
    join.mutable_join_game()->set_full_history(last_sequence == 0);
    ASSERT_TRUE(client->call(join).has_joined()) << seat;
  }
  void pump() {
    if (!client) return;
    for (int i = 0; i < 200 && client->poll(std::chrono::milliseconds(i == 0 ? 2 : 1)); ++i) {
    }
  }
};

struct UnitFact {
  std::string id, name, side;
  double x = 0, y = 0;
  std::string attached_to;  // a leader with a brigade stands where it does
};

// ---- Looking through a frame, field by field (protobuf reflection). ----

// Every string field of a message, all the way down; a view's units'
// names apart (they are names whole, checked as such).
void strings_in(const pb::Message& m, std::vector<std::string>& out, std::set<std::string>& unit_names) {
  const auto* r = m.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  r->ListFields(m, &fields);
  const bool unit = m.GetDescriptor() == v1::UnitView::descriptor();
  // A ruleset's words (its troop types, actions, ...) are the same in every
  // game of it, and may coincide with a name a scenario gives ("Dismounted
  // dragoons"): each Joined carries the registry's, below (ruleset_words).
  if (m.GetDescriptor() == v1::RulesetInfo::descriptor()) return;
  for (const auto* f : fields) {
    if (f->type() == pb::FieldDescriptor::TYPE_STRING) {
      if (f->is_repeated()) {
        for (int i = 0; i < r->FieldSize(m, f); ++i) out.push_back(r->GetRepeatedString(m, f, i));
      } else if (unit && f->name() == "name") {
        unit_names.insert(r->GetString(m, f));
      } else {
        out.push_back(r->GetString(m, f));
      }
    } else if (f->type() == pb::FieldDescriptor::TYPE_MESSAGE) {
      if (f->is_repeated()) {
        for (int i = 0; i < r->FieldSize(m, f); ++i) strings_in(r->GetRepeatedMessage(m, f, i), out, unit_names);
      } else {
        strings_in(r->GetMessage(m, f), out, unit_names);
      }
    }
  }
}

// What every game of Malbrook sends of its ruleset, whatever the game.
// A ruleset's words as the registry holds them ("malbrook", "cfeo").
v1::RulesetInfo ruleset_words(std::string_view ruleset) {
  v1::RulesetInfo out;
  codec::to_proto(codec::find_ruleset(ruleset)->info(), &out);
  return out;
}

void points_in(const pb::Message& m, std::vector<std::pair<double, double>>& out) {
  if (m.GetDescriptor() == v1::Point::descriptor()) {
    const auto& p = static_cast<const v1::Point&>(m);
    out.emplace_back(p.x(), p.y());
    return;
  }
  const auto* r = m.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  r->ListFields(m, &fields);
  for (const auto* f : fields) {
    if (f->type() != pb::FieldDescriptor::TYPE_MESSAGE) continue;
    if (f->is_repeated()) {
      for (int i = 0; i < r->FieldSize(m, f); ++i) points_in(r->GetRepeatedMessage(m, f, i), out);
    } else {
      points_in(r->GetMessage(m, f), out);
    }
  }
}

// A point as a key: positions are compared to a millionth of an inch.
std::pair<long long, long long> place_key(double x, double y) {
  return {std::llround(x * 1e6), std::llround(y * 1e6)};
}

struct Epoch {
  bool fresh = true;
  std::uint64_t step = 0;
  std::set<std::string> allowed;
  std::vector<std::string> seen_names, seen_enemy_names;
  std::vector<const UnitFact*> hidden;
  std::map<std::pair<long long, long long>, std::string> hidden_places;
};

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::set<std::string> ids_of(const v1::GameView& view) {
  std::set<std::string> out;
  for (const auto& u : view.units()) out.insert(u.id());
  return out;
}

// ---- One game. ----

struct Setup {
  std::string scenario;
  v1::Vision vision;
  v1::PlayMode mode;
  // The steps over which the umpire's moves are spread; 0: the steps played
  // (or 24). A CF&EO turn is a few steps (phases with nothing owed pass).
  int span = 0;
};

// So a failing case names its setup rather than printing its bytes.
[[maybe_unused]] void PrintTo(const Setup& s, std::ostream* os) {
  *os << s.scenario << (s.vision == v1::VISION_WING_ONLY ? ", wing-only vision" : ", side-shared vision")
      << (s.mode == v1::PLAY_MODE_SIMULTANEOUS ? ", simultaneous" : ", alternate");
}

class HiddenFrames : public ::testing::TestWithParam<Setup> {
 protected:
  void SetUp() override {
    dir_ = make_temp_dir("frames");
    server_.emplace(dir_, std::vector<std::string>{"--max-queued-messages", "100000"});
    server_->start();
    if (const char* cap = std::getenv("GALLOPER_FRAME_STEPS")) steps_ = std::atoi(cap);
  }
  void TearDown() override {
    if (server_) server_->stop(SIGTERM);
    std::filesystem::remove_all(dir_);
  }

  std::filesystem::path dir_;
  std::optional<ServerProcess> server_;
  int steps_ = 40;
};

TEST_P(HiddenFrames, NoFrameToASeatCarriesAUnitItDoesNotSee) {
  const auto setup = GetParam();
  const auto port = server_->port();
  const auto started = std::chrono::steady_clock::now();

  // The game: every player seat the bot's but the prober's.
  Client organiser(port);
  ASSERT_TRUE(organiser.hello().has_welcome());
  v1::Envelope scenarios;
  scenarios.mutable_list_scenarios();
  auto list = organiser.call(scenarios);
  std::vector<std::string> players;
  for (const auto& info : list.scenario_list().scenarios()) {
    if (info.name() != setup.scenario) continue;
    for (const auto& seat : info.seats()) {
      if (seat.role() == v1::SEAT_ROLE_ARMY || seat.role() == v1::SEAT_ROLE_WING) players.push_back(seat.id());
    }
  }
  ASSERT_GE(players.size(), 4u);
  const std::string prober = players[1];
  v1::Envelope create;
  create.mutable_create_game()->set_scenario_name(setup.scenario);
  auto* settings = create.mutable_create_game()->mutable_settings();
  settings->set_vision(setup.vision);
  settings->set_mode(setup.mode);
  settings->set_spectator_delay_turns(1);
  auto* hook = settings->add_webhooks();
  hook->set_url("https://hooks.example/hook-secret-3141");
  auto created = organiser.call(create);
  ASSERT_TRUE(created.has_game_created()) << created.DebugString();
  const auto game = created.game_created().game_id();
  std::map<std::string, std::string> tokens;
  for (const auto& inv : created.game_created().invites()) tokens[inv.seat()] = inv.token();
  tokens["spectator"] = created.game_created().spectators().token();

  // Two connections per seat (whole views, and views as changes), the umpire's
  // whole, a spectator from the start.
  std::vector<std::unique_ptr<Watcher>> watchers;
  auto watch = [&](const std::string& seat, bool whole, std::uint64_t last = 0) -> Watcher& {
    auto& w = *watchers.emplace_back(std::make_unique<Watcher>());
    w.seat = seat;
    w.whole_views = whole;
    w.open(port, game, tokens.at(seat), last);
    return w;
  };
  Watcher& umpire = watch("umpire", true);
  for (const auto& seat : players) {
    watch(seat, true);
    watch(seat, false);
  }
  watch("spectator", true);
  Watcher* prober_conn = nullptr;
  for (auto& w : watchers) {
    if (w->seat == prober && !w->whole_views) prober_conn = w.get();
  }
  ASSERT_NE(prober_conn, nullptr);

  // Hand every other player seat to the bot: the game plays itself but for the prober.
  for (const auto& seat : players) {
    if (seat == prober) continue;
    v1::Envelope bot;
    auto* a = bot.mutable_umpire_action();
    a->set_game_id(game);
    a->set_reason("the frame test's bots");
    a->mutable_set_bot_seat()->set_seat(seat);
    a->mutable_set_bot_seat()->set_bot(true);
    ASSERT_TRUE(umpire.client->call(bot).has_umpire_done()) << seat;
  }

  // Probes: what the server answers about a hidden unit must be what it
  // answers about a made-up one (the id itself aside).
  int probes = 0;
  auto same_refusal = [&](v1::Envelope real, v1::Envelope fake, const std::string& real_id, const std::string& what) {
    ASSERT_TRUE(real.has_error()) << what << ": " << real.ShortDebugString();
    ASSERT_TRUE(fake.has_error()) << what << ": " << fake.ShortDebugString();
    // The bots may end the game between the two requests: nothing to compare.
    if (real.error().message() == "the game has ended" || fake.error().message() == "the game has ended") return;
    auto scrub = [](std::string text, const std::string& id) {
      for (auto at = text.find(id); at != std::string::npos; at = text.find(id)) text.replace(at, id.size(), "<ID>");
      // The bots play on between the two requests: the step the game has
      // reached is public and may differ; what the refusal says of the id may not.
      static const std::regex current_step("the current step is [0-9]+");
      return std::regex_replace(text, current_step, "the current step is <N>");
    };
    EXPECT_EQ(real.error().code(), fake.error().code()) << what;
    EXPECT_EQ(scrub(real.error().message(), real_id), scrub(fake.error().message(), "zz_made_up")) << what;
    auto rc = real.error().context();
    auto fc = fake.error().context();
    rc.erase("decision_id");
    fc.erase("decision_id");
    EXPECT_EQ(rc.size(), fc.size()) << what;
    for (const auto& [k, v] : rc) EXPECT_EQ(scrub(v, real_id), scrub(fc[k], "zz_made_up")) << what << " " << k;
    ++probes;
  };

  std::uint64_t last_step = 0;
  int resolved = 0;
  // When the umpire edits, a spectator arrives late, a connection drops and
  // the umpire rewinds: a quarter, two fifths, half and two thirds of the way.
  const int span = setup.span > 0 ? setup.span : steps_ > 0 ? steps_ : 24;
  const int edit_at = span / 4, late_at = span * 2 / 5, drop_at = span / 2, rewind_at = span * 2 / 3;
  bool edited = false, rewound = false, late_spectator = false, reconnected = false;
  std::uint64_t edit_step = 0;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(20);
  bool ended = false;
  while (std::chrono::steady_clock::now() < deadline) {
    for (auto& w : watchers) w->pump();
    // The newest step the umpire saw resolve, and whether the game is over.
    for (const auto& f : umpire.frames) {
      if (f.env.has_step_resolved()) last_step = std::max(last_step, f.env.step_resolved().step());
      if (f.env.has_notice() && f.env.notice().kind() == "ended") ended = true;
    }
    resolved = 0;
    for (const auto& f : umpire.frames) resolved += f.env.has_step_resolved() ? 1 : 0;
    if (ended || (steps_ > 0 && resolved >= steps_)) break;

    // What the prober owes now.
    std::optional<v1::DecisionsOwed> owed;
    for (const auto& f : prober_conn->frames) {
      if (f.env.has_decisions()) owed = f.env.decisions();
      if (f.env.has_step_resolved()) owed = f.env.step_resolved().next();
    }
    if (!owed || owed->locked() || owed->decisions_size() == 0) continue;

    // The umpire's moves, once each, when the prober holds up a step.
    if (!edited && resolved >= edit_at) {
      // Move one of the prober's own brigades a little: every seat is told the table changed.
      std::string unit;
      for (const auto& f : umpire.frames) {
        if (!f.env.has_step_resolved()) continue;
        for (const auto& u : f.env.step_resolved().view().units()) {
          if (u.kind() == v1::UNIT_KIND_BRIGADE && u.wing().empty() == false && prober.find(u.side()) == 0) unit = u.id();
        }
      }
      if (!unit.empty()) {
        v1::Envelope e;
        auto* a = e.mutable_umpire_action();
        a->set_game_id(game);
        a->set_reason("the frame test's edit of " + unit);
        a->mutable_edit_state()->set_kind("set_dps");
        a->mutable_edit_state()->set_subject(unit);
        a->mutable_edit_state()->set_value(1);
        auto done = umpire.client->call(e);
        EXPECT_TRUE(done.has_umpire_done() || done.has_error()) << done.ShortDebugString();
      }
      edited = true;
      edit_step = owed->step();
      continue;
    }
    if (!late_spectator && resolved >= late_at) {
      watch("spectator", true);
      late_spectator = true;
    }
    if (!reconnected && resolved >= drop_at) {
      // A seat's connection drops and comes back asking for what it missed.
      std::uint64_t last_sequence = 0;
      for (const auto& f : prober_conn->frames) {
        if (f.env.has_step_resolved()) {
          for (const auto& ev : f.env.step_resolved().events()) last_sequence = std::max(last_sequence, ev.sequence());
        }
      }
      prober_conn->client.reset();
      auto& again = watch(prober, false, last_sequence);
      prober_conn = &again;
      reconnected = true;
      continue;
    }
    if (!rewound && edited && resolved >= rewind_at && edit_step > 0) {
      v1::Envelope e;
      auto* a = e.mutable_umpire_action();
      a->set_game_id(game);
      a->set_reason("the frame test's rewind");
      a->mutable_rewind()->set_to_step(edit_step + 2);
      auto done = umpire.client->call(e);
      EXPECT_TRUE(done.has_umpire_done() || done.has_error()) << done.ShortDebugString();
      rewound = true;
      continue;
    }

    // Probe with hidden units' names where the prober owes something: a
    // decision another seat owes, an order at a hidden target, its odds.
    // What the prober sees now: its whole-view connection's last view.
    std::set<std::string> seen;
    for (const auto& w : watchers) {
      if (w->seat != prober || !w->whole_views) continue;
      for (const auto& f : w->frames) {
        if (f.env.has_step_resolved()) seen = ids_of(f.env.step_resolved().view());
        if (f.env.has_view()) seen = ids_of(f.env.view());
        if (f.env.has_joined()) seen = ids_of(f.env.joined().view());
      }
    }
    std::string hidden_unit, hidden_decision;
    // The umpire's newest whole view: its last step's, or its join's before any.
    for (auto it = umpire.frames.rbegin(); it != umpire.frames.rend() && hidden_unit.empty(); ++it) {
      const v1::GameView* view = it->env.has_step_resolved() ? &it->env.step_resolved().view()
                                 : it->env.has_joined()      ? &it->env.joined().view()
                                                             : nullptr;
      if (view == nullptr) continue;
      for (const auto& u : view->units()) {
        if (u.kind() == v1::UNIT_KIND_BRIGADE && !seen.contains(u.id())) hidden_unit = u.id();
      }
    }
    for (auto it = umpire.frames.rbegin(); it != umpire.frames.rend() && hidden_decision.empty(); ++it) {
      const v1::DecisionsOwed* d = it->env.has_decisions() ? &it->env.decisions()
                                   : it->env.has_step_resolved() ? &it->env.step_resolved().next()
                                                                 : nullptr;
      if (d == nullptr) continue;
      for (const auto& dec : d->decisions()) {
        bool about_hidden = false;
        for (const auto& s : dec.subjects()) about_hidden = about_hidden || (!seen.contains(s) && !s.empty());
        if (dec.seat() != prober && about_hidden) hidden_decision = dec.id();
      }
    }
    auto answer = [&](const std::string& decision, const std::string& option, const std::string& target) {
      v1::Envelope e;
      auto* s = e.mutable_submit_answer();
      s->set_game_id(game);
      s->set_step(owed->step());
      s->mutable_answer()->set_decision_id(decision);
      s->mutable_answer()->set_option(option);
      if (!target.empty()) s->mutable_answer()->add_steps()->set_target(target);
      return prober_conn->client->call(e);
    };
    if (!hidden_decision.empty()) {
      const auto slash = hidden_decision.find('/');
      const std::string fake = hidden_decision.substr(0, slash + 1) + "zz_made_up";
      same_refusal(answer(hidden_decision, "none", ""), answer(fake, "none", ""),
                   hidden_decision.substr(slash + 1), "a hidden unit's decision");
    }
    if (!hidden_unit.empty()) {
      // A decision whose options name pieces (a target): one naming the
      // hidden unit instead, as a cheat would send it.
      std::set<std::string> known_ids;
      for (const auto& f : umpire.frames) {
        if (f.env.has_joined()) {
          for (const auto& u : f.env.joined().view().units()) known_ids.insert(u.id());
        }
      }
      for (const auto& d : owed->decisions()) {
        // The seat's whole view may be a step behind its decisions: a unit
        // its own decision offers is one it sees now.
        const bool offered = std::any_of(d.options().begin(), d.options().end(), [&](const auto& o) {
          return o.id() == hidden_unit || o.id().ends_with(":" + hidden_unit);
        });
        if (offered) continue;
        for (const auto& option : d.options()) {
          const auto colon = option.id().find(':');
          const auto piece = colon == std::string::npos ? option.id() : option.id().substr(colon + 1);
          if (!known_ids.contains(piece)) continue;
          const auto prefix = colon == std::string::npos ? std::string() : option.id().substr(0, colon + 1);
          same_refusal(answer(d.id(), prefix + hidden_unit, ""), answer(d.id(), prefix + "zz_made_up", ""),
                       hidden_unit, "an option naming a hidden unit");
          // The odds of that answer: refused alike too.
          const auto weigh = [&](const std::string& option) {
            v1::Envelope e;
            e.mutable_odds_request()->set_game_id(game);
            e.mutable_odds_request()->mutable_answer()->mutable_answer()->set_decision_id(d.id());
            e.mutable_odds_request()->mutable_answer()->mutable_answer()->set_option(option);
            return prober_conn->client->call(e);
          };
          same_refusal(weigh(prefix + hidden_unit), weigh(prefix + "zz_made_up"), hidden_unit,
                       "the odds of an option naming a hidden unit");
          break;
        }
      }
      // Odds of a charge or a shot at a hidden unit, from one of the prober's own.
      for (const auto& f : prober_conn->frames) {
        if (!f.env.has_step_resolved()) continue;
        for (const auto& u : f.env.step_resolved().view().units()) {
          if (u.knowledge() != v1::KNOWLEDGE_OWN) continue;
          v1::Envelope odds, fake;
          odds.mutable_odds_request()->set_game_id(game);
          if (u.kind() == v1::UNIT_KIND_GUN) {
            odds.mutable_odds_request()->mutable_shot()->set_gun(u.id());
            odds.mutable_odds_request()->mutable_shot()->set_target(hidden_unit);
          } else {
            odds.mutable_odds_request()->mutable_charge()->set_charger(u.id());
            odds.mutable_odds_request()->mutable_charge()->set_target(hidden_unit);
            odds.mutable_odds_request()->mutable_charge()->set_dice(1);
          }
          fake = odds;
          if (fake.odds_request().has_shot()) fake.mutable_odds_request()->mutable_shot()->set_target("zz_made_up");
          if (fake.odds_request().has_charge()) fake.mutable_odds_request()->mutable_charge()->set_target("zz_made_up");
          same_refusal(prober_conn->client->call(odds), prober_conn->client->call(fake), hidden_unit, "odds at a hidden unit");
          break;
        }
        break;
      }
    }
    // Then lock: the prober holds, halts or stands.
    v1::Envelope lock;
    lock.mutable_lock_answers()->set_game_id(game);
    lock.mutable_lock_answers()->set_step(owed->step());
    prober_conn->client->call(lock);
  }
  for (int i = 0; i < 20; ++i) {
    for (auto& w : watchers) w->pump();
  }
  // A game may end before the steps asked for (a side broken early).
  ASSERT_GE(resolved, steps_ > 0 && !ended ? steps_ : 10) << server_->log().substr(0, 20000);
  // Each as soon as the game had gone that far.
  EXPECT_TRUE(edited || resolved < edit_at);
  EXPECT_TRUE(late_spectator || resolved < late_at);
  EXPECT_TRUE(reconnected || resolved < drop_at);
  EXPECT_TRUE(rewound || resolved < rewind_at);
  if (resolved >= span) {
    EXPECT_GT(probes, 0) << "no probe found a hidden unit to ask about";
  }

  const auto played = std::chrono::steady_clock::now();

  // ---- The ground truth: every unit there was, where it stood at each step. ----
  std::map<std::string, UnitFact> units;  // by id, the last known
  std::map<std::uint64_t, std::map<std::string, UnitFact>> at_step;
  auto learn = [&](const v1::GameView& view, std::uint64_t step) {
    for (const auto& u : view.units()) {
      if (u.kind() == v1::UNIT_KIND_MESSENGER || u.kind() == v1::UNIT_KIND_MARKER) continue;
      UnitFact f{u.id(), u.name(), u.side(), u.position().x(), u.position().y(), u.attached_to()};
      units[u.id()] = f;
      at_step[step][u.id()] = f;
    }
  };
  for (const auto& f : umpire.frames) {
    if (f.env.has_joined()) learn(f.env.joined().view(), f.env.joined().view().step());
    if (f.env.has_view()) learn(f.env.view(), f.env.view().step());
    if (f.env.has_step_resolved()) learn(f.env.step_resolved().view(), f.env.step_resolved().view().step());
  }
  ASSERT_GT(units.size(), 10u);

  // ---- Each seat's frames against what that seat saw. ----
  int checked = 0;
  for (const auto& w : watchers) {
    if (w->seat == "umpire") continue;
    const bool spectator = w->seat == "spectator";
    const std::string side = spectator ? "" : w->seat.substr(0, w->seat.find('/'));
    // What this seat saw, step by step, from its whole-view connection.
    std::map<std::uint64_t, std::set<std::string>> saw;
    for (const auto& other : watchers) {
      if (other->seat != w->seat || !other->whole_views) continue;
      for (const auto& f : other->frames) {
        const v1::GameView* v = f.env.has_joined()          ? &f.env.joined().view()
                                : f.env.has_view()          ? &f.env.view()
                                : f.env.has_step_resolved() ? &f.env.step_resolved().view()
                                                            : nullptr;
        if (v != nullptr) {
          auto ids = ids_of(*v);
          saw[v->step()].insert(ids.begin(), ids.end());
        }
      }
    }
    std::set<std::string> before, now;
    std::uint64_t step = 0;
    const v1::GameView* shown = nullptr;  // the last table this connection was shown
    Epoch epoch;
    for (const auto& received : w->frames) {
      const v1::GameView* v = received.env.has_joined()          ? &received.env.joined().view()
                              : received.env.has_view()          ? &received.env.view()
                              : received.env.has_step_resolved() ? &received.env.step_resolved().view()
                                                                 : nullptr;
      // The end of the game reveals the whole table to everyone, names and
      // all (its view is the umpire's), so nothing from the end on is hidden.
      if (v != nullptr && v->ended()) break;
      const Frame& f = received;
      if (v != nullptr) {
        step = v->step();
        before = now;
        now = saw.count(step) ? saw[step] : ids_of(*v);
        if (w->whole_views) now = ids_of(*v);
      }
      if (spectator) {
        // A spectator watches the past: no event of the turn it is shown or later, no step's deadline.
        if (f.env.has_step_resolved() && f.env.step_resolved().view().delayed_turns() > 0) {
          for (const auto& e : f.env.step_resolved().events()) {
            EXPECT_LT(e.turn(), f.env.step_resolved().view().turn()) << "spectator told an event of a turn it is not shown";
          }
          EXPECT_EQ(f.env.step_resolved().view().deadline_unix(), 0);
        }
        if (f.env.has_notice()) {
          EXPECT_EQ(f.env.notice().deadline_unix(), 0) << f.env.ShortDebugString();
        }
        if (v != nullptr) shown = v;
        if (f.env.has_events_since()) {
          ASSERT_NE(shown, nullptr) << "a spectator caught up before it was shown the table";
          for (const auto& e : f.env.events_since().events()) {
            if (shown->delayed_turns() > 0) {
              EXPECT_LT(e.turn(), shown->turn()) << "a late spectator caught up on a turn it is not shown";
            } else {
              EXPECT_LE(e.turn(), shown->turn()) << "a spectator caught up on a turn past the one it is shown";
            }
          }
        }
        if (f.env.has_seat_status() || f.env.has_decisions()) {
          ADD_FAILURE() << "spectator sent " << f.env.ShortDebugString();
        }
        if (f.env.has_joined()) {
          for (const auto& h : f.env.joined().settings().webhooks()) EXPECT_TRUE(h.url().empty());
        }
        EXPECT_EQ(f.raw.find("hook-secret-3141"), std::string::npos);
        continue;
      }
      // What the seat may be told of now, worked out once per view it gets:
      // the units it sees (before the step and after it), the names of those
      // longest first ("Fugger's Imperial cuirassiers" before "Fugger"), and
      // the units it does not see with where they stand.
      if (v != nullptr || epoch.step != step || epoch.fresh) {
        epoch = Epoch{};
        epoch.fresh = false;
        epoch.step = step;
        epoch.allowed = before;
        epoch.allowed.insert(now.begin(), now.end());
        for (const auto& seen_id : epoch.allowed) {
          if (const auto u = units.find(seen_id); u != units.end() && !u->second.name.empty()) {
            epoch.seen_names.push_back(u->second.name);
          }
        }
        std::sort(epoch.seen_names.begin(), epoch.seen_names.end(),
                  [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
        const auto stand = [](const UnitFact& u) { return u.attached_to.empty() ? u.id : u.attached_to; };
        std::set<std::pair<long long, long long>> seen_places;
        std::set<std::string> seen_stands;
        for (const auto& known : {at_step[step], at_step[step > 0 ? step - 1 : 0]}) {
          for (const auto& [id, u] : known) {
            if (!epoch.allowed.contains(id)) continue;
            seen_places.insert(place_key(u.x, u.y));
            seen_stands.insert(stand(u));
          }
        }
        for (const auto& [id, unit] : units) {
          if (epoch.allowed.contains(id)) {
            if (unit.side != side && !side.empty() && !unit.name.empty()) epoch.seen_enemy_names.push_back(unit.name);
            continue;
          }
          epoch.hidden.push_back(&unit);
          for (const auto& known : {at_step[step], at_step[step > 0 ? step - 1 : 0]}) {
            const auto it = known.find(id);
            // A leader with a brigade stands where it does, and a point where
            // the seat sees a unit stand says nothing of another there too.
            if (it == known.end() || seen_stands.contains(stand(it->second)) ||
                seen_places.contains(place_key(it->second.x, it->second.y))) {
              continue;
            }
            epoch.hidden_places[place_key(it->second.x, it->second.y)] = id;
          }
        }
      }
      // The frame's strings: every word (ids are words), the texts people
      // read (with spaces) with the names of units it sees blanked out, and
      // the names of the units in its view.
      std::vector<std::string> strings;
      std::set<std::string> unit_names;
      strings_in(f.env, strings, unit_names);
      if (f.env.has_joined()) {
        const std::string ruleset = setup.scenario.substr(0, setup.scenario.find('/'));
        EXPECT_EQ(f.env.joined().ruleset().SerializeAsString(), ruleset_words(ruleset).SerializeAsString())
            << w->seat << ": the ruleset's words on joining are the registry's, the same for every game";
      }
      // A refusal of the seat's own request may quote the id it sent (a
      // probe's): the probes check those say no more than a made-up id.
      const bool echo = f.env.has_error() && f.env.correlation_id() != 0;
      std::map<std::string, std::string> words;  // each word, and a string it came from
      std::vector<std::string> texts;
      for (auto& said : strings) {
        const bool text = said.find(' ') != std::string::npos;
        if (text) {
          for (const auto& name : epoch.seen_names) {
            for (auto at = said.find(name); at != std::string::npos; at = said.find(name)) {
              said.replace(at, name.size(), "<seen>");
            }
          }
        }
        if (!echo) {
          std::string word;
          for (const char c : said + " ") {
            if (word_char(c)) {
              word += c;
            } else if (!word.empty()) {
              words.emplace(std::move(word), said.substr(0, 300));
              word.clear();
            }
          }
        }
        if (text) texts.push_back(std::move(said));
      }
      for (const auto* unit : epoch.hidden) {
        // A side knows its own order of battle by name (RULINGS R21: its
        // losses are named in the why of its morale DPs, friends' orders
        // told to the side); where a friend it does not see stands, it is
        // not told (the positions below).
        if (!side.empty() && unit->side == side) continue;
        EXPECT_FALSE(words.contains(unit->id)) << w->seat << " at step " << step << " was told of unseen " << unit->id
                                               << " in \"" << words[unit->id] << "\" of "
                                               << f.env.ShortDebugString();
        if (unit->name.empty()) continue;
        EXPECT_FALSE(unit_names.contains(unit->name)) << w->seat << " was shown unseen " << unit->id << " by name";
        EXPECT_TRUE(unit->name.find(' ') != std::string::npos || !words.contains(unit->name))
            << w->seat << " at step " << step << " was told the name of unseen " << unit->id;
        for (const auto& text : texts) {
          EXPECT_EQ(text.find(unit->name), std::string::npos)
              << w->seat << " at step " << step << " was told the name of unseen " << unit->id << " in \"" << text
              << "\"";
        }
      }
      // Seen: an enemy shows no name (R21).
      for (const auto& name : epoch.seen_enemy_names) {
        EXPECT_EQ(f.raw.find(name), std::string::npos) << w->seat << " was told the name of a seen enemy, " << name;
      }
      std::vector<std::pair<double, double>> points;
      points_in(f.env, points);
      for (const auto& [x, y] : points) {
        const auto it = epoch.hidden_places.find(place_key(x, y));
        EXPECT_TRUE(it == epoch.hidden_places.end())
            << w->seat << " at step " << step << " was sent the position of unseen " << it->second << ": "
            << f.env.ShortDebugString().substr(0, 1500);
      }
      // Settings carry no webhook URL; no frame carries one.
      if (f.env.has_joined()) {
        for (const auto& h : f.env.joined().settings().webhooks()) EXPECT_TRUE(h.url().empty());
      }
      EXPECT_EQ(f.raw.find("hook-secret-3141"), std::string::npos) << w->seat;
      // Its own count of events, with no gap.
      ++checked;
    }
    if (::testing::Test::HasFailure()) return;
  }
  EXPECT_GT(checked, 100);
  const auto done = std::chrono::steady_clock::now();
  std::printf("%s: %d steps played in %.1f s, %d frames checked in %.1f s\n", setup.scenario.c_str(), resolved,
              std::chrono::duration<double>(played - started).count(), checked,
              std::chrono::duration<double>(done - played).count());

  // Each seat numbers what it was told with no gaps (the catch-up and the
  // live frames of one connection together, from the first it asked for).
  for (const auto& w : watchers) {
    std::set<std::uint64_t> numbers;
    for (const auto& f : w->frames) {
      const auto& events = f.env.has_step_resolved()  ? f.env.step_resolved().events()
                           : f.env.has_events_since() ? f.env.events_since().events()
                                                      : google::protobuf::RepeatedPtrField<v1::Event>();
      for (const auto& e : events) numbers.insert(e.sequence());
    }
    if (numbers.empty()) continue;
    std::uint64_t expect = *numbers.begin() - 1;
    for (const auto n : numbers) {
      EXPECT_EQ(n, ++expect) << w->seat << (w->whole_views ? " (whole)" : " (changes)") << ": a gap in its events";
      if (n != expect) break;
    }
  }
}

std::vector<Setup> setups() {
  std::vector<Setup> out;
  for (const char* scenario : {"malbrook/demo", "malbrook/blenheim", "cfeo/fraustadt"}) {
    for (auto vision : {v1::VISION_SIDE_SHARED, v1::VISION_WING_ONLY}) {
      for (auto mode : {v1::PLAY_MODE_ALTERNATE, v1::PLAY_MODE_SIMULTANEOUS}) {
        out.push_back({scenario, vision, mode, std::string_view(scenario).starts_with("cfeo/") ? 12 : 0});
      }
    }
  }
  return out;
}

INSTANTIATE_TEST_SUITE_P(Games, HiddenFrames, ::testing::ValuesIn(setups()), [](const auto& info) {
  std::string name = info.param.scenario;
  std::replace(name.begin(), name.end(), '/', '_');
  return name + std::string(info.param.vision == v1::VISION_WING_ONLY ? "_wing" : "_shared") +
         (info.param.mode == v1::PLAY_MODE_SIMULTANEOUS ? "_simultaneous" : "_alternate");
});

}  // namespace
}  // namespace galloper::testing
