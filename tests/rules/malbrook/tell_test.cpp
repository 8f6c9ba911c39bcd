// What each seat is told (rules/core/tell.hpp) of real Malbrook steps: no
// text, subject or place a seat receives names or places a piece its views
// do not show, and a seen enemy is never told by its name (RULINGS R21).
// Refusals of answers and odds naming a hidden piece are the refusals of an
// id that does not exist; decisions offer only targets the seat sees.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "rules/core/tell.hpp"
#include "rules/malbrook/artillery.hpp"
#include "rules/malbrook/combat.hpp"
#include "rules/malbrook/command.hpp"
#include "rules/malbrook/engine.hpp"
#include "rules/malbrook/game.hpp"
#include "rules/malbrook/movement.hpp"
#include "rules/malbrook/odds.hpp"
#include "rules/malbrook/seats.hpp"
#include "rules/malbrook/view.hpp"
#include "tests/rules/malbrook/artillery_helpers.hpp"
#include "tests/rules/malbrook/bot.hpp"
#include "tests/rules/malbrook/combat_helpers.hpp"
#include "tests/rules/malbrook/golden_files.hpp"
#include "tests/rules/malbrook/movement_helpers.hpp"
#include "tests/rules/malbrook/test_state.hpp"

namespace galloper::rules::malbrook {
namespace {

using test::act;
using test::brigade;
using test::leader;
using test::option_answer;
using test::replaced;
using test::steps_answer;

ViewSettings vision(bool side_shared) {
  ViewSettings v;
  v.side_shared_vision = side_shared;
  return v;
}

// The state with the game's vision setting, as MalbrookGame::with_options sets it.
GameState with_vision(GameState s, bool side_shared) {
  s.wing_vision = !side_shared;
  s.sight_memo.set_grain(side_shared ? SightGrain::kSide : SightGrain::kSeat);
  return s;
}

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// `word` stands in `text` as a whole word (ids hold letters, digits and '_').
bool has_word(const std::string& text, const std::string& word) {
  if (word.empty()) return false;
  for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    const bool start = at == 0 || !word_char(text[at - 1]);
    const bool end = at + word.size() == text.size() || !word_char(text[at + word.size()]);
    if (start && end) return true;
  }
  return false;
}

bool has_marker(const std::string& text) {
  for (char c : text) {
    if (c >= '\x1A' && c <= '\x1F') return true;
  }
  return false;
}

// Every piece of a state: id, name, side and where it stands.
struct Piece {
  std::string id;
  std::string name;
  std::string side;
  Vec2 at;
};

std::vector<Piece> pieces(const GameState& s) {
  std::vector<Piece> out;
  for (const auto& b : s.brigades) {
    out.push_back({b.id, b.name, b.army, b.position});
    if (b.horse_holders) out.push_back({horse_holder_id(b), "", b.army, *b.horse_holders});
  }
  for (const auto& g : s.guns) out.push_back({g.id, g.name, g.army, g.position});
  for (const auto& l : s.leaders) out.push_back({l.id, l.name, l.army, l.position});
  for (const auto& m : s.messengers) out.push_back({m.id, "", m.army, m.position});
  return out;
}

// What a seat must not be told: each piece it does not see, and the names of
// the enemy it sees only as a player at the table does. A side knows its own
// order of battle: the names (and ids) of its own pieces, on the table or
// lost, may be read in its texts; never their places when it does not see them.
struct Secrets {
  std::vector<Piece> hidden;
  std::vector<std::string> names;  // names it may not read
  std::string side;                // the seat's
};

Secrets secrets(const SeatKnowledge& seat, const GameState& before, const GameState& after, const std::string& side) {
  Secrets out;
  out.side = side;
  std::set<std::string> told_names;  // names the seat does know (a name within one of them is no secret)
  std::map<std::string, Piece> all;
  for (const auto* s : {&before, &after}) {
    for (auto& p : pieces(*s)) all.emplace(p.id, p);
  }
  for (const auto& [id, p] : all) {
    const Known k = seat(id);
    if (k.level == Known::Level::kNamed) told_names.insert(p.name);
  }
  for (const auto& [id, p] : all) {
    const Known k = seat(id);
    if (k.level == Known::Level::kUnseen) out.hidden.push_back(p);
    const bool within_known =
        std::any_of(told_names.begin(), told_names.end(), [&](const std::string& n) { return n.find(p.name) != std::string::npos; });
    if (k.level != Known::Level::kNamed && p.name.size() >= 3 && !within_known && p.side != side) {
      out.names.push_back(p.name);
    }
  }
  return out;
}

// Holds one told event to what the seat may know.
void expect_told_keeps_secrets(const Event& told, const Secrets& secret, const SeatKnowledge& seat,
                               const std::string& where) {
  SCOPED_TRACE(where + ": " + told.kind + ": " + told.text);
  EXPECT_FALSE(has_marker(told.text));
  for (const auto& p : secret.hidden) {
    if (p.side != secret.side) {
      EXPECT_FALSE(has_word(told.text, p.id)) << p.id;
    }
    for (const auto& s : told.subjects) EXPECT_NE(s, p.id);
    for (const auto& w : told.where) {
      EXPECT_NE(w.of, p.id);
      // A place told is of a piece the seat sees, or of the event itself.
      EXPECT_TRUE(w.of.empty() || seat(w.of).level != Known::Level::kUnseen) << w.of;
    }
  }
  for (const auto& n : secret.names) EXPECT_EQ(told.text.find(n), std::string::npos) << n;
}

struct Stats {
  std::size_t events = 0;  // events told to a seat
  std::size_t withheld = 0;  // events a seat was not told
  std::size_t seen_labels = 0;  // told texts naming a seen enemy by what the table shows
  std::size_t unseen_labels = 0;
};

// Plays the demo with the bot for `steps` steps (or to its end) and holds
// every event told to every seat to what its views show.
Stats play_and_tell(std::uint32_t seed, bool side_shared, int steps) {
  Stats stats;
  GameState s = with_vision(test::scenario_state("demo", test::bot_seed(seed)), side_shared);
  test::Bot bot(seed);
  const ViewSettings settings = vision(side_shared);
  std::vector<std::string> seats;
  for (const auto& seat : seats_of(s)) seats.push_back(seat.id);
  for (int step = 0; step < steps && !finished(s); ++step) {
    std::map<std::string, View> before;
    for (const auto& seat : seats) before.emplace(seat, view_for(s, seat, settings));
    auto r = test::resolve_bot_step(s, bot.answers(s));
    if (!r.ok()) {
      ADD_FAILURE() << r.error().reason;
      return stats;
    }
    for (const auto& seat : seats) {
      const View after = view_for(r->next, seat, settings);
      const SeatKnowledge knows(after, &before.at(seat));
      const Secrets secret = secrets(knows, s, r->next, after.side);
      for (const auto& e : r->events) {
        const auto told = tell_event(e, knows);
        if (!told) {
          ++stats.withheld;
          continue;
        }
        ++stats.events;
        if (told->text.find("an enemy ") != std::string::npos || told->text.find("An enemy ") != std::string::npos) {
          ++stats.seen_labels;
        }
        if (told->text.find("unseen unit") != std::string::npos) ++stats.unseen_labels;
        if (seat == kUmpireSeat) {
          EXPECT_EQ(told->subjects, e.subjects);
          EXPECT_EQ(told->where, e.where);
          continue;
        }
        expect_told_keeps_secrets(*told, secret, knows,
                                  "seed " + std::to_string(seed) + " step " + std::to_string(s.step) + " " + seat);
      }
      // Its decisions, as it is told them.
      if (seat == kUmpireSeat) continue;
      const SeatKnowledge now(after);
      const Secrets secret_now = secrets(now, r->next, r->next, after.side);
      for (const auto& d : r->next_pending) {
        if (d.seat != seat) continue;
        const Decision told = tell_decision(d, now);
        Event as_text;
        as_text.kind = d.id;
        as_text.text = told.prompt;
        for (const auto& o : told.options) as_text.text += " | " + o.label;
        as_text.subjects = told.subjects;
        expect_told_keeps_secrets(as_text, secret_now, now, "decision " + d.id);
        // Options name only pieces the seat sees.
        for (const auto& o : d.options) {
          if (!o.piece.empty()) {
            EXPECT_NE(now(o.piece).level, Known::Level::kUnseen) << d.id << " " << o.id;
          }
        }
        for (const auto& o : told.options) {
          if (!o.piece.empty()) {
            EXPECT_NE(now(o.piece).level, Known::Level::kUnseen) << d.id << " " << o.id;
          }
        }
      }
    }
    s = std::move(r->next);
  }
  return stats;
}

TEST(Telling, EverySeatIsToldOnlyWhatItsViewsShowSideSharedVision) {
  Stats all;
  for (std::uint32_t seed : {1u, 2u}) {
    const Stats st = play_and_tell(seed, true, 400);
    all.events += st.events;
    all.withheld += st.withheld;
    all.seen_labels += st.seen_labels;
    all.unseen_labels += st.unseen_labels;
  }
  // The games told and withheld events, and told the enemy by what the table shows.
  EXPECT_GT(all.events, 0u);
  EXPECT_GT(all.withheld, 0u);
  EXPECT_GT(all.seen_labels, 0u);
}

TEST(Telling, EverySeatIsToldOnlyWhatItsViewsShowWingOnlyVision) {
  Stats all;
  for (std::uint32_t seed : {3u, 4u}) {
    const Stats st = play_and_tell(seed, false, 400);
    all.events += st.events;
    all.withheld += st.withheld;
  }
  EXPECT_GT(all.events, 0u);
  EXPECT_GT(all.withheld, 0u);
}

// The engine's own event filter and telling agree on which events reach a
// seat: telling adds only that an event of which it may read nothing is not told.
TEST(Telling, VisibleEventsAgreesWithTelling) {
  GameState s = test::scenario_state("demo", test::bot_seed(7));
  test::Bot bot(7);
  for (int step = 0; step < 120 && !finished(s); ++step) {
    auto r = test::resolve_bot_step(s, bot.answers(s));
    ASSERT_TRUE(r.ok()) << r.error().reason;
    MalbrookGame next(r->next);
    for (const auto& seat : seats_of(r->next)) {
      for (const bool shared : {true, false}) {
        const auto visible = next.visible_events(r->events, seat.id, vision(shared));
        const SeatKnowledge knows(next.view_for(seat.id, vision(shared)));
        std::vector<std::size_t> told;
        for (std::size_t i = 0; i < r->events.size(); ++i) {
          if (tell_event(r->events[i], knows)) told.push_back(i);
        }
        std::size_t j = 0;
        for (std::size_t i : visible) {
          if (j < told.size() && told[j] == i) {
            ++j;
          } else {
            // Not told: every word of it is for others.
            EXPECT_TRUE(tell_text(r->events[i].text, knows).empty()) << r->events[i].text;
          }
        }
        EXPECT_EQ(j, told.size()) << seat.id;
      }
    }
    s = std::move(r->next);
  }
}

// ---- Charges: targets the seat sees, and refusals ----

// Allied foot (al_b1) at the far side of the table, seen by the French right
// wing's brigade near it (fr_b5, itself beyond the left wing's sight) and by
// nobody of the French left wing, whose horse (fr_h1) faces it 39" off;
// al_b2 is 16" ahead of the horse.
GameState charge_table() {
  GameState s = test::combat_state({
      test::unit("fr_h1", "fr", TroopType::kHorse, {10, 2}, 0),
      test::unit("al_b2", "al", TroopType::kFoot, {14, 20}, 180),
      test::unit("al_b1", "al", TroopType::kFoot, {10, 41}, 180),
      test::unit("fr_b5", "fr", TroopType::kFoot, {30, 44}, 270),
  });
  brigade(s, "fr_b5").wing = "right";
  brigade(s, "fr_b5").command = "c5";
  return s;
}

const Decision* decision(const std::vector<Decision>& ds, std::string_view id) {
  for (const auto& d : ds) {
    if (d.id == id) return &d;
  }
  return nullptr;
}

bool offers(const Decision& d, std::string_view option) {
  for (const auto& o : d.options) {
    if (o.id == option) return true;
  }
  return false;
}

TEST(Telling, AChargeOffersOnlyTargetsTheSeatSees) {
  // The French left wing's own view does not show al_b1; the side's does.
  const GameState shared = with_vision(charge_table(), true);
  const GameState wing = with_vision(charge_table(), false);
  const SeatKnowledge left_alone(view_for(wing, "fr/left", vision(false)));
  const SeatKnowledge left_shared(view_for(shared, "fr/left", vision(true)));
  ASSERT_EQ(left_alone("al_b1").level, Known::Level::kUnseen);
  ASSERT_EQ(left_shared("al_b1").level, Known::Level::kSeen);
  ASSERT_EQ(left_alone("al_b2").level, Known::Level::kSeen);

  const auto shared_ds = combat_pending(shared);
  const Decision* d = decision(shared_ds, "charge/fr_h1");
  ASSERT_NE(d, nullptr);
  EXPECT_TRUE(offers(*d, "charge:al_b1"));  // the side sees it, and so does this seat
  EXPECT_TRUE(offers(*d, "charge:al_b2"));

  const auto wing_ds = combat_pending(wing);
  const Decision* w = decision(wing_ds, "charge/fr_h1");
  ASSERT_NE(w, nullptr);
  EXPECT_FALSE(offers(*w, "charge:al_b1"));  // the seat's own eyes do not see it
  EXPECT_TRUE(offers(*w, "charge:al_b2"));
  for (const auto& o : w->options) {
    EXPECT_EQ(o.id.find("al_b1"), std::string::npos);
    EXPECT_EQ(plain_text(o.label).find("al_b1"), std::string::npos);
    if (o.id.rfind("charge:", 0) == 0) {
      EXPECT_EQ(o.piece, "al_b2");
    }
  }
  for (const auto& [name, value] : w->limits) EXPECT_EQ(name.find("al_b1"), std::string::npos);
  // The options a seat is told name what its table shows.
  const Decision told = tell_decision(*w, left_alone);
  for (const auto& o : told.options) {
    if (o.id == "charge:al_b2") {
      EXPECT_EQ(o.label, "Charge an enemy brigade of foot");
    }
  }
  EXPECT_EQ(told.prompt, "Does fr_h1 charge? Name the target (the dice are chosen after the responses).");

  // Answering with the hidden target is answering with an id that does not exist.
  const auto hidden = check(wing, option_answer("charge/fr_h1", "fr/left", "charge:al_b1"));
  const auto made_up = check(wing, option_answer("charge/fr_h1", "fr/left", "charge:zz_b9"));
  ASSERT_FALSE(hidden.ok());
  ASSERT_FALSE(made_up.ok());
  EXPECT_EQ(hidden.error().code, made_up.error().code);
  EXPECT_EQ(tell_text(hidden.error().reason, left_alone),
            replaced(tell_text(made_up.error().reason, left_alone), "zz_b9", "al_b1"));
}

TEST(Telling, ChargeOddsOfAHiddenTargetAreThoseOfAnIdThatDoesNotExist) {
  const GameState wing = with_vision(charge_table(), false);
  const SeatKnowledge left_alone(view_for(wing, "fr/left", vision(false)));
  const auto hidden = charge_odds(wing, "fr/left", "fr_h1", "al_b1", 2, false, vision(false));
  const auto made_up = charge_odds(wing, "fr/left", "fr_h1", "zz_b9", 2, false, vision(false));
  ASSERT_FALSE(hidden.ok());
  ASSERT_FALSE(made_up.ok());
  EXPECT_EQ(hidden.error().code, made_up.error().code);
  EXPECT_EQ(tell_text(hidden.error().reason, left_alone),
            replaced(tell_text(made_up.error().reason, left_alone), "zz_b9", "al_b1"));
  // A friend the seat is not shown, likewise.
  const auto friend_hidden = charge_odds(wing, "fr/left", "fr_h1", "fr_b5", 2, false, vision(false));
  ASSERT_FALSE(friend_hidden.ok());
  EXPECT_EQ(friend_hidden.error().code, made_up.error().code);
  // Through the game: the umpire asks as the seat would.
  auto game = std::make_unique<MalbrookGame>(wing);
  OddsQuestion q;
  q.unit = "fr_h1";
  q.target = "al_b1";
  q.dice = 2;
  const auto via_game = game->odds("fr/left", q, vision(false));
  ASSERT_FALSE(via_game.ok());
  EXPECT_EQ(via_game.error().code, made_up.error().code);
}

// ---- Fire: the gun's own targets only ----

TEST(Telling, FireAtAHiddenTargetIsRefusedAsAnIdThatDoesNotExist) {
  GameState s = test::gun_state(6);
  test::brigade(s, "al_b2").position = {66, 40};  // far off: unseen by the French
  const SeatKnowledge french(view_for(s, "fr/left", ViewSettings{}));
  ASSERT_EQ(french("al_b2").level, Known::Level::kUnseen);
  const auto ds = artillery_pending(s);
  const Decision* d = decision(ds, "fire/fr_g1");
  ASSERT_NE(d, nullptr);
  for (const auto& o : d->options) {
    if (!o.piece.empty()) {
      EXPECT_NE(french(o.piece).level, Known::Level::kUnseen);
    }
  }
  const auto hidden = check(s, option_answer("fire/fr_g1", "fr/left", "al_b2"));
  const auto made_up = check(s, option_answer("fire/fr_g1", "fr/left", "zz_b9"));
  ASSERT_FALSE(hidden.ok());
  ASSERT_FALSE(made_up.ok());
  EXPECT_EQ(hidden.error().code, made_up.error().code);
  EXPECT_EQ(tell_text(hidden.error().reason, french), replaced(tell_text(made_up.error().reason, french), "zz_b9", "al_b2"));
  // Odds likewise.
  const auto odds_hidden = shot_odds(s, "fr/left", "fr_g1", "al_b2", ViewSettings{});
  const auto odds_made_up = shot_odds(s, "fr/left", "fr_g1", "zz_b9", ViewSettings{});
  ASSERT_FALSE(odds_hidden.ok());
  ASSERT_FALSE(odds_made_up.ok());
  EXPECT_EQ(odds_hidden.error().code, odds_made_up.error().code);
  EXPECT_EQ(tell_text(odds_hidden.error().reason, french),
            replaced(tell_text(odds_made_up.error().reason, french), "zz_b9", "al_b2"));
}

// ---- Command actions naming a unit ----

// The Allied brigade al_b1 and Lieutenant General al_lg moved to the far
// corner, where no French piece sees them.
void hide_allies(GameState& s) {
  brigade(s, "al_b1").position = {3, 47};
  leader(s, "al_lg").position = {8, 47.5};
  brigade(s, "al_b2").position = {68, 47};
}

// The reply to the French left wing's actions naming `hidden` and naming a
// made-up id are the same (the code, and the reason as the seat reads it).
void expect_same_reply(const GameState& s, const std::string& leader_id, const std::vector<OrderStep>& with_hidden,
                       const std::vector<OrderStep>& with_made_up, const std::string& hidden) {
  const SeatKnowledge french(view_for(s, "fr/left", ViewSettings{}));
  ASSERT_EQ(french(hidden).level, Known::Level::kUnseen) << hidden;
  const auto a = check(s, steps_answer("command/" + leader_id, "fr/left", with_hidden));
  const auto b = check(s, steps_answer("command/" + leader_id, "fr/left", with_made_up));
  ASSERT_FALSE(a.ok()) << hidden;
  ASSERT_FALSE(b.ok()) << hidden;
  EXPECT_EQ(a.error().code, b.error().code) << hidden;
  EXPECT_EQ(tell_text(a.error().reason, french), replaced(tell_text(b.error().reason, french), "zz_x9", hidden));
}

TEST(Telling, CommandActionsNamingHiddenPiecesAreRefusedAsIdsThatDoNotExist) {
  GameState s = test::tiny_state();
  hide_allies(s);
  leader(s, "fr_mg1").attached_to = "fr_b1";
  leader(s, "fr_lg").position = {20, 2};
  // Attach to an enemy brigade.
  expect_same_reply(s, "fr_lg", {act("attach", "al_b1")}, {act("attach", "zz_x9")}, "al_b1");
  // Steady or inspire an enemy brigade.
  expect_same_reply(s, "fr_mg1", {act("steady", "al_b1")}, {act("steady", "zz_x9")}, "al_b1");
  expect_same_reply(s, "fr_mg1", {act("inspire", "al_b1")}, {act("inspire", "zz_x9")}, "al_b1");
  // Orders and messengers to an enemy leader; listening for one.
  OrderStep orders = act("send_messenger", "al_lg");
  orders.order = "defend";
  OrderStep orders_none = orders;
  orders_none.target = "zz_x9";
  expect_same_reply(s, "fr_lg", {orders}, {orders_none}, "al_lg");
  OrderStep in_person = orders;
  in_person.action = "issue_orders";
  OrderStep in_person_none = in_person;
  in_person_none.target = "zz_x9";
  expect_same_reply(s, "fr_lg", {in_person}, {in_person_none}, "al_lg");
  OrderStep reassign = act("send_messenger", "fr_lg2");
  reassign.order = "reassign";
  reassign.unit = "al_b1";
  reassign.wing = "right";
  reassign.command = "c5";
  OrderStep reassign_none = reassign;
  reassign_none.unit = "zz_x9";
  GameState marshal = s;
  leader(marshal, "fr_m").position = {20, 2.5};
  const SeatKnowledge army(view_for(marshal, "fr/army", ViewSettings{}));
  const auto a = check(marshal, steps_answer("command/fr_m", "fr/army", {reassign}));
  const auto b = check(marshal, steps_answer("command/fr_m", "fr/army", {reassign_none}));
  ASSERT_FALSE(a.ok());
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(a.error().code, b.error().code);
  EXPECT_EQ(tell_text(a.error().reason, army), replaced(tell_text(b.error().reason, army), "zz_x9", "al_b1"));
}

// ---- Movement orders naming a unit ----

TEST(Telling, MovementOrdersNamingHiddenPiecesAreAnsweredAsIdsThatDoNotExist) {
  GameState s = test::movement_state();
  hide_allies(s);
  ASSERT_TRUE(test::declare(s, {{"fr_b1", "manoeuvre"}}, {}));
  const SeatKnowledge french(view_for(s, "fr/left", ViewSettings{}));
  ASSERT_EQ(french("al_b1").level, Known::Level::kUnseen);
  // Merging with an enemy brigade.
  const auto a = check(s, steps_answer("move/fr_b1", "fr/left", {act("merge", "al_b1")}));
  const auto b = check(s, steps_answer("move/fr_b1", "fr/left", {act("merge", "zz_x9")}));
  ASSERT_FALSE(a.ok());
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(a.error().code, b.error().code);
  EXPECT_EQ(tell_text(a.error().reason, french), replaced(tell_text(b.error().reason, french), "zz_x9", "al_b1"));
  // Splitting off a brigade named as an enemy one is: both are accepted, and
  // the part takes a free id.
  OrderStep split = act("split", "al_b1");
  split.distance = 2;
  OrderStep split_none = act("split", "zz_x9");
  split_none.distance = 2;
  EXPECT_TRUE(check(s, steps_answer("move/fr_b1", "fr/left", {split})).ok());
  EXPECT_TRUE(check(s, steps_answer("move/fr_b1", "fr/left", {split_none})).ok());
  GameState split_state = s;
  ASSERT_TRUE(test::execute(split_state, {{"fr_b1", {split}}}));
  EXPECT_EQ(brigade(split_state, "al_b1").army, "al");
  EXPECT_EQ(brigade(split_state, "al_b1_2").army, "fr");
  EXPECT_EQ(brigade(split_state, "al_b1_2").bases, 2u);
  // A decision of another seat is one that does not exist.
  const auto other = check(s, steps_answer("move/fr_b1", "al/right", {}));
  const auto none = check(s, steps_answer("move/zz_x9", "al/right", {}));
  ASSERT_FALSE(other.ok());
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(other.error().code, none.error().code);
  EXPECT_EQ(other.error().reason, replaced(none.error().reason, "zz_x9", "fr_b1"));
}

// ---- Collisions at resolution ----

TEST(Telling, OrdersThatCollideNameTheirDecisions) {
  // fr_b1 side-steps into fr_b2, which stands: each order alone is legal.
  GameState s = test::movement_state();
  ASSERT_TRUE(test::declare(s, {{"fr_b1", "manoeuvre"}, {"fr_b2", "manoeuvre"}}, {}));
  std::vector<Answer> moves;
  for (const auto& d : movement_pending(s)) moves.push_back(option_answer(d.id, d.seat, d.default_option));
  for (auto& a : moves) {
    if (a.decision_id == "move/fr_b1") a = steps_answer(a.decision_id, a.seat, {test::step_of("side_step", 1, "right")});
  }
  for (const auto& a : moves) {
    const auto v = check(s, a);
    EXPECT_TRUE(v.ok()) << a.decision_id << ": " << (v.ok() ? "" : v.error().reason);
  }
  FixedDice dice(std::vector<int>{});
  auto r = resolve(s, moves, dice);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, "overlap");
  const std::set<std::string> involved(r.error().decisions.begin(), r.error().decisions.end());
  EXPECT_EQ(involved, (std::set<std::string>{"move/fr_b1", "move/fr_b2"}));
  const std::string plain = plain_text(r.error().reason);
  EXPECT_TRUE(plain == "fr_b1 and fr_b2 would end on top of each other." ||
              plain == "fr_b2 and fr_b1 would end on top of each other.")
      << plain;
  // Told to the other side, the reason names neither.
  const std::string allies = tell_text(r.error().reason, SeatKnowledge(view_for(s, "al/right", ViewSettings{})));
  EXPECT_FALSE(has_word(allies, "fr_b1")) << allies;
  EXPECT_FALSE(has_word(allies, "fr_b2")) << allies;
}

// ---- Views: a seen enemy's attachment ----

TEST(Telling, ASeenEnemyLeadersAttachmentShowsOnlyWhenItsBrigadeIsShown) {
  GameState s = test::tiny_state();
  hide_allies(s);
  // An Allied Major General 6" in front of the French, attached to al_b1 far behind him.
  leader(s, "al_mg3").position = {20, 16};
  leader(s, "al_mg3").attached_to = "al_b1";
  const View french = view_for(s, "fr/left", ViewSettings{});
  const UnitView* mg = nullptr;
  bool b1_shown = false;
  for (const auto& u : french.units) {
    if (u.id == "al_mg3") mg = &u;
    if (u.id == "al_b1") b1_shown = true;
  }
  ASSERT_NE(mg, nullptr);
  ASSERT_FALSE(b1_shown);
  EXPECT_EQ(mg->knowledge, Knowledge::kSeen);
  EXPECT_EQ(mg->attached_to, "");
  EXPECT_EQ(mg->command, "");
  EXPECT_EQ(mg->wing, "");
  EXPECT_EQ(mg->name, "");
  // Brought into sight, the brigade shows, and so does the attachment.
  brigade(s, "al_b1").position = {20, 20};
  const View closer = view_for(s, "fr/left", ViewSettings{});
  for (const auto& u : closer.units) {
    if (u.id == "al_mg3") {
      EXPECT_EQ(u.attached_to, "al_b1");
    }
  }
  // A view refreshed from the first state to the second is the second's.
  GameState far = s;
  brigade(far, "al_b1").position = {3, 47};
  MalbrookGame a(far);
  View held = a.view_for("fr/left", ViewSettings{});
  MalbrookGame b(s);
  ViewUpdate update;
  b.refresh_view("fr/left", ViewSettings{}, held, update);
  EXPECT_EQ(held, b.view_for("fr/left", ViewSettings{}));
}

// With wing-only vision a friend of another wing is shown in full when the
// seat's own pieces see him, but the brigade he is with is named only when
// the seat is shown it too: its id would tell of a piece the seat does not see.
TEST(Telling, AFriendlyLeaderOfAnotherWingNamesHisBrigadeOnlyWhenItIsShown) {
  GameState s = test::tiny_state();
  ViewSettings wing_only;
  wing_only.side_shared_vision = false;
  // The French left wing's Major General stands beside the right wing's
  // brigade, attached to fr_b1 far away on the left.
  leader(s, "fr_mg1").position = {60, 13};
  leader(s, "fr_mg1").attached_to = "fr_b1";
  brigade(s, "fr_b1").position = {3, 10};
  const View right = view_for(s, "fr/right", wing_only);
  const UnitView* mg = nullptr;
  bool b1_shown = false;
  for (const auto& u : right.units) {
    if (u.id == "fr_mg1") mg = &u;
    if (u.id == "fr_b1") b1_shown = true;
  }
  ASSERT_NE(mg, nullptr);
  ASSERT_FALSE(b1_shown) << "the test needs fr_b1 out of the right wing's sight";
  EXPECT_EQ(mg->knowledge, Knowledge::kFriendly);
  EXPECT_EQ(mg->name, leader(s, "fr_mg1").name) << "a friend is shown in full";
  EXPECT_EQ(mg->attached_to, "");
  // With side-shared vision the whole side is shown, the attachment too.
  const View shared = view_for(s, "fr/right", ViewSettings{});
  for (const auto& u : shared.units) {
    if (u.id == "fr_mg1") {
      EXPECT_EQ(u.attached_to, "fr_b1");
    }
  }
  // A view refreshed into this state is the one built afresh.
  GameState before = s;
  brigade(before, "fr_b1").position = {56, 10};
  MalbrookGame a(before);
  View held = a.view_for("fr/right", wing_only);
  MalbrookGame b(s);
  ViewUpdate update;
  b.refresh_view("fr/right", wing_only, held, update);
  EXPECT_EQ(held, b.view_for("fr/right", wing_only));
}

}  // namespace
}  // namespace galloper::rules::malbrook
