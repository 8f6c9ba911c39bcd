// Sequence of play and initiative ("Sequence of Play").
#include <gtest/gtest.h>

#include <algorithm>

#include "rules/core/dice.hpp"
#include "rules/malbrook/engine.hpp"
#include "rules/malbrook/sequence.hpp"
#include "tests/rules/malbrook/test_state.hpp"

namespace galloper::rules::malbrook {
namespace {

using test::leader;
using test::option_answer;
using test::tiny_state;

GameState at_initiative() {
  GameState s = tiny_state();
  s.phase = Phase::kInitiative;
  s.initiative.clear();
  return s;
}

bool has_event(const std::vector<Event>& ev, std::string_view kind) {
  return std::any_of(ev.begin(), ev.end(), [&](const Event& e) { return e.kind == kind; });
}

TEST(Initiative, AttackerMovesFirstOnTurnOne) {
  GameState s = at_initiative();
  s.attacker = "al";
  EXPECT_TRUE(pending(s).empty());  // nothing to decide: resolve with no answers
  FixedDice dice{};                 // no die is rolled
  auto r = resolve(s, {}, dice);
  ASSERT_TRUE(r.ok()) << r.error().reason;
  EXPECT_EQ(r->next.initiative, "al");
  EXPECT_EQ(r->next.phase, Phase::kCommand);  // bombardment passed through
  EXPECT_EQ(acting_armies(r->next), std::vector<std::string>{"al"});
  ASSERT_TRUE(has_event(r->events, "initiative"));
  for (const auto& e : r->events) {
    if (e.kind == "initiative" || e.kind == "phase") {
      EXPECT_TRUE(e.is_public);
    }
  }
  EXPECT_EQ(r->next.step, 1u);
}

TEST(Initiative, AttackerOnlyOnTurnOne) {
  GameState s = at_initiative();
  s.attacker = "al";
  s.turn = 2;
  FixedDice dice{6, 1};  // fr 6, al 1
  auto r = resolve(s, {}, dice);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->next.initiative_winner, "fr");
  EXPECT_EQ(dice.remaining(), 0u);
}

TEST(Initiative, HighScoreChoosesFirstOrSecond) {
  GameState s = at_initiative();
  FixedDice dice{2, 5};  // fr 2, al 5
  auto r = resolve(s, {}, dice);
  ASSERT_TRUE(r.ok());
  const GameState& t = r->next;
  EXPECT_EQ(t.initiative_winner, "al");
  EXPECT_EQ(t.phase, Phase::kInitiative);
  auto ds = pending(t);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].id, "initiative");
  EXPECT_EQ(ds[0].seat, "al/army");
  ASSERT_EQ(ds[0].options.size(), 2u);
  // The roll is public and carries both dice.
  auto roll = std::find_if(r->events.begin(), r->events.end(), [](const Event& e) { return e.kind == "initiative_roll"; });
  ASSERT_NE(roll, r->events.end());
  EXPECT_TRUE(roll->is_public);
  ASSERT_EQ(roll->dice.size(), 2u);
  EXPECT_EQ(roll->dice[0].face, 2);
  EXPECT_EQ(roll->dice[1].face, 5);

  FixedDice none{};
  auto second = resolve(t, {option_answer("initiative", "al/army", "second")}, none);
  ASSERT_TRUE(second.ok()) << second.error().reason;
  EXPECT_EQ(second->next.initiative, "fr");
  EXPECT_EQ(second->next.phase, Phase::kCommand);
  EXPECT_EQ(acting_armies(second->next), std::vector<std::string>{"fr"});

  auto first = resolve(t, {option_answer("initiative", "al/army", "first")}, none);
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(first->next.initiative, "al");
}

TEST(Initiative, ExceptionalMarshalOnTableAddsOne) {
  GameState s = at_initiative();
  leader(s, "fr_m").exceptional = true;
  EXPECT_EQ(initiative_modifier(s, "fr"), 1);
  EXPECT_EQ(initiative_modifier(s, "al"), 0);
  FixedDice dice{4, 4};  // 4+1 beats 4
  auto r = resolve(s, {}, dice);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->next.initiative_winner, "fr");

  // Not on table: killed or captured Marshals give nothing.
  leader(s, "fr_m").captured = true;
  EXPECT_EQ(initiative_modifier(s, "fr"), 0);
  leader(s, "fr_m").captured = false;
  leader(s, "fr_m").killed = true;
  EXPECT_EQ(initiative_modifier(s, "fr"), 0);
}

TEST(Initiative, TiesAreRolledAgain) {
  GameState s = at_initiative();
  FixedDice dice{3, 3, 1, 6};
  auto r = resolve(s, {}, dice);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->next.initiative_winner, "al");
  int rolls = 0;
  for (const auto& e : r->events) {
    if (e.kind == "initiative_roll") {
      ++rolls;
      EXPECT_EQ(e.dice.size(), 2u);
    }
  }
  EXPECT_EQ(rolls, 2);
  EXPECT_EQ(dice.remaining(), 0u);
}

TEST(Initiative, ChoiceFromTheWrongSeatOrBadOptionIsRefused) {
  GameState s = at_initiative();
  s.initiative_winner = "al";
  auto wrong = check(s, option_answer("initiative", "fr/army", "first"));
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.error().code, "wrong_seat");
  auto bad = check(s, option_answer("initiative", "al/army", "third"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().code, "bad_option");
  FixedDice none{};
  auto r = resolve(s, {option_answer("initiative", "al/army", "third")}, none);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(s.initiative_winner, "al");  // unchanged
}

TEST(Initiative, SameOrderForEveryPhaseOfTheTurn) {
  GameState s = tiny_state();
  s.initiative = "al";
  s.phase = Phase::kCommand;
  EXPECT_EQ(armies_in_order(s), (std::vector<std::string>{"al", "fr"}));
  EXPECT_EQ(acting_armies(s), std::vector<std::string>{"al"});
  s.half = 1;
  EXPECT_EQ(acting_armies(s), std::vector<std::string>{"fr"});
  s.phase = Phase::kMovement;
  s.half = 0;
  EXPECT_EQ(acting_armies(s), std::vector<std::string>{"al"});
}

TEST(Sequence, CommandPhaseAlternatesSides) {
  GameState s = tiny_state();
  auto ds = pending(s);
  ASSERT_FALSE(ds.empty());
  for (const auto& d : ds) EXPECT_EQ(d.seat.substr(0, 3), "fr/") << d.seat;
  FixedDice none{};
  auto r = resolve(s, test::default_answers(ds), none);
  ASSERT_TRUE(r.ok()) << r.error().reason;
  EXPECT_EQ(r->next.phase, Phase::kCommand);
  EXPECT_EQ(r->next.command_stage, CommandStage::kActions);
  EXPECT_EQ(r->next.half, 1u);
  auto ds2 = pending(r->next);
  ASSERT_FALSE(ds2.empty());
  for (const auto& d : ds2) EXPECT_EQ(d.seat.substr(0, 3), "al/") << d.seat;
}

TEST(Sequence, SimultaneousBothSidesAnswerInOneStep) {
  GameState s = tiny_state();
  s.simultaneous = true;
  auto ds = pending(s);
  bool fr = false;
  bool al = false;
  for (const auto& d : ds) {
    fr = fr || d.seat.rfind("fr/", 0) == 0;
    al = al || d.seat.rfind("al/", 0) == 0;
  }
  EXPECT_TRUE(fr && al);
  // Nobody is uncontrolled-with-a-choice here: every brigade tests with no
  // modifiers to choose, so the control tests are rolled in the same step.
  FixedDice dice{4, 4, 4, 4, 4, 4, 4};
  auto r = resolve(s, test::default_answers(ds), dice);
  ASSERT_TRUE(r.ok()) << r.error().reason;
  EXPECT_EQ(r->next.phase, Phase::kMovement);
  EXPECT_EQ(r->next.half, 0u);
  EXPECT_EQ(acting_armies(r->next), (std::vector<std::string>{"fr", "al"}));
}

TEST(Sequence, FirePhasesPassThroughWithAPublicEvent) {
  GameState s = tiny_state();
  s.phase = Phase::kBombardment;
  EXPECT_TRUE(pending(s).empty());
  FixedDice none{};
  auto r = resolve(s, {}, none);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->next.phase, Phase::kCommand);
  ASSERT_TRUE(has_event(r->events, "phase"));

  s.phase = Phase::kCloseFire;
  FixedDice dice{5, 2};  // morale passes, turn 2's initiative: fr 5, al 2
  auto t = resolve(s, {}, dice);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->next.turn, 2u);
  EXPECT_EQ(t->next.phase, Phase::kInitiative);
  EXPECT_EQ(t->next.initiative_winner, "fr");
  int phases = 0;
  for (const auto& e : t->events) {
    if (e.kind == "phase") {
      ++phases;
      EXPECT_TRUE(e.is_public);
      // Combat (combat.hpp) and morale (morale.hpp) are played now.
      EXPECT_EQ(e.text.find("not yet"), std::string::npos) << e.text;
    }
  }
  EXPECT_EQ(phases, 2);  // combat, morale
  EXPECT_TRUE(has_event(t->events, "turn"));
}

TEST(Sequence, TurnLimitEndsTheGame) {
  GameState s = tiny_state();
  s.turn = 10;
  s.turn_limit = 10;
  s.phase = Phase::kMorale;
  FixedDice none{};
  auto r = resolve(s, {}, none);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(finished(r->next));
  EXPECT_EQ(r->next.phase, Phase::kEnded);
  EXPECT_TRUE(pending(r->next).empty());
  EXPECT_TRUE(has_event(r->events, "game_over"));
  auto after = resolve(r->next, {}, none);
  ASSERT_FALSE(after.ok());
  EXPECT_EQ(after.error().code, "game_over");
}

TEST(Sequence, NewTurnClearsPerTurnMarkers) {
  GameState s = tiny_state();
  auto& b = test::brigade(s, "fr_b1");
  b.status = static_cast<std::uint32_t>(Status::kHalted) | static_cast<std::uint32_t>(Status::kInspired) |
             static_cast<std::uint32_t>(Status::kMoved) | static_cast<std::uint32_t>(Status::kRouting) |
             static_cast<std::uint32_t>(Status::kFailedCharge);
  b.inspire_actions = 2;
  b.control = ControlResult::kHalt;
  b.controlled_by = "fr_mg1";
  begin_turn(s);
  const auto& c = test::brigade(s, "fr_b1");
  EXPECT_FALSE(c.has(Status::kHalted));
  EXPECT_FALSE(c.has(Status::kInspired));
  EXPECT_FALSE(c.has(Status::kMoved));
  EXPECT_TRUE(c.has(Status::kRouting));       // lasts until rallied
  EXPECT_TRUE(c.has(Status::kFailedCharge));  // tested next command phase
  EXPECT_EQ(c.inspire_actions, 0u);
  EXPECT_EQ(c.control, ControlResult::kUnknown);
  EXPECT_TRUE(c.controlled_by.empty());
}

TEST(Sequence, RightToLeftAsSeenFromEachSidesEdge) {
  GameState s = tiny_state();
  EXPECT_DOUBLE_EQ(army_facing_deg(s, "fr"), 0.0);
  EXPECT_DOUBLE_EQ(army_facing_deg(s, "al"), 180.0);
  // The French face north: their right is east (larger x) -- fr_b3 and fr_b4
  // share x = 30, so ties go by id.
  std::vector<std::string> fr;
  for (auto i : brigades_right_to_left(s, "fr")) fr.push_back(s.brigades[i].id);
  EXPECT_EQ(fr, (std::vector<std::string>{"fr_b5", "fr_b3", "fr_b4", "fr_b2", "fr_b1"}));
  // The Allies face south: their right is west (smaller x).
  std::vector<std::string> al;
  for (auto i : brigades_right_to_left(s, "al")) al.push_back(s.brigades[i].id);
  EXPECT_EQ(al, (std::vector<std::string>{"al_b1", "al_b2"}));
}

}  // namespace
}  // namespace galloper::rules::malbrook
