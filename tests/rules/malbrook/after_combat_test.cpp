// "Actions Resulting from Combat" (after_combat.hpp): who decides first,
// forced actions, retire, rout, pursue and the free hack, ride-through, take
// the position, blocked moves, and the later rout / retire moves.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "rules/core/dice.hpp"
#include "rules/malbrook/after_combat.hpp"
#include "rules/malbrook/basing.hpp"
#include "rules/malbrook/combat.hpp"
#include "rules/malbrook/engine.hpp"
#include "rules/malbrook/manoeuvre.hpp"
#include "tests/rules/malbrook/test_state.hpp"

namespace galloper::rules::malbrook {
namespace {

using test::brigade;
using test::option_answer;
using test::tiny_state;

constexpr std::uint32_t bit(Status s) { return static_cast<std::uint32_t>(s); }

// fr_b1 (front 14..18 at y = 10, facing north) and al_b1 facing it ½" away;
// fr_b2 moved 2" aside so that only fr_b1 is engaged.
GameState facing_off() {
  GameState s = tiny_state();
  s.phase = Phase::kCombat;
  brigade(s, "fr_b2").position = {22, 10};
  brigade(s, "al_b1").position = {16, 10.5};
  brigade(s, "fr_b1").status |= bit(Status::kInCombat);
  brigade(s, "al_b1").status |= bit(Status::kInCombat);
  return s;
}

CombatBrigade part(const Brigade& b, std::vector<AfterAction> options) {
  CombatBrigade p;
  p.brigade = b.id;
  p.type = b.type;
  p.grade = b.grade;
  p.options = std::move(options);
  return p;
}

// One combat between fr_b1 (side a) and al_b1 (side b), a.hits - b.hits = difference.
void add_combat(GameState& s, int difference, std::vector<AfterAction> fr, std::vector<AfterAction> al,
                const char* fr_id = "fr_b1", const char* al_id = "al_b1") {
  CombatResult r;
  r.id = "t" + std::to_string(s.turn) + "c" + std::to_string(s.combat.results.size() + 1);
  r.turn = s.turn;
  r.a.army = "fr";
  r.a.brigades = {fr_id};
  r.a.parts = {part(brigade(s, fr_id), std::move(fr))};
  r.b.army = "al";
  r.b.brigades = {al_id};
  r.b.parts = {part(brigade(s, al_id), std::move(al))};
  r.difference = difference;
  r.loser = difference > 0 ? "al" : difference < 0 ? "fr" : "";
  s.combat.results.push_back(r);
}

std::vector<std::string> ids(const std::vector<Decision>& ds) {
  std::vector<std::string> out;
  for (const auto& d : ds) out.push_back(d.id);
  return out;
}

bool has_event(const std::vector<Event>& ev, std::string_view kind) {
  for (const auto& e : ev) {
    if (e.kind == kind) return true;
  }
  return false;
}

TEST(AfterCombat, TheLowerResultDecidesAndActsFirst) {
  GameState s = facing_off();
  const std::vector<AfterAction> both{AfterAction::kRemain, AfterAction::kRetire};
  add_combat(s, -1, both, both);  // inconclusive, the French lower
  FixedDice none{};
  std::vector<Event> ev;
  after_combat_resolve(s, {}, none, ev);
  EXPECT_EQ(ids(after_combat_pending(s)), (std::vector<std::string>{"after/fr_b1"}));
  EXPECT_EQ(after_combat_pending(s)[0].seat, "fr/left");
  FixedDice dice{3, 4};  // retire: AvD 3 + D6 4 = 3.5", +1" initial
  after_combat_resolve(s, {option_answer("after/fr_b1", "fr/left", "retire")}, dice, ev);
  EXPECT_NEAR(brigade(s, "fr_b1").position.y, 10 - 4.5, 1e-9);
  // Now the Allies decide, knowing the French retired.
  EXPECT_EQ(ids(after_combat_pending(s)), (std::vector<std::string>{"after/al_b1"}));
  after_combat_resolve(s, {option_answer("after/al_b1", "al/right", "remain")}, none, ev);
  EXPECT_TRUE(after_combat_done(s));
  EXPECT_FALSE(brigade(s, "al_b1").has(Status::kInCombat));  // nobody left in front
}

TEST(AfterCombat, EqualResultsTheSideWithInitiativeDecidesSecond) {
  GameState s = facing_off();
  s.initiative = "fr";
  const std::vector<AfterAction> both{AfterAction::kRemain, AfterAction::kRetire};
  add_combat(s, 0, both, both);
  FixedDice none{};
  std::vector<Event> ev;
  after_combat_resolve(s, {}, none, ev);
  EXPECT_EQ(ids(after_combat_pending(s)), (std::vector<std::string>{"after/al_b1"}));
  after_combat_resolve(s, {option_answer("after/al_b1", "al/right", "remain")}, none, ev);
  EXPECT_EQ(ids(after_combat_pending(s)), (std::vector<std::string>{"after/fr_b1"}));
  after_combat_resolve(s, {option_answer("after/fr_b1", "fr/left", "remain")}, none, ev);
  EXPECT_TRUE(after_combat_done(s));
  // "If both sides remain in place then the combat continues the following turn."
  EXPECT_TRUE(brigade(s, "fr_b1").has(Status::kInCombat));
  EXPECT_TRUE(brigade(s, "al_b1").has(Status::kInCombat));
}

TEST(AfterCombat, ForcedRoutIsCarriedOutUnformedWithoutAsking) {
  GameState s = facing_off();
  add_combat(s, -8, {AfterAction::kRout}, {AfterAction::kRemain});
  FixedDice dice{5, 6};  // 5 + 6 pips = 5.5", +1" initial = 6.5"
  std::vector<Event> ev;
  after_combat_resolve(s, {}, dice, ev);
  EXPECT_TRUE(after_combat_done(s));
  const Brigade& b = brigade(s, "fr_b1");
  EXPECT_TRUE(b.has(Status::kRouting));
  EXPECT_TRUE(b.has(Status::kMoved));
  EXPECT_FALSE(b.has(Status::kInCombat));
  EXPECT_EQ(b.formation, Formation::kUnformed);
  // Routs stop 6" from the enemy: the first ¼" step at which the gap is 6".
  EXPECT_LE(10.5 - (b.position.y), 6.0 + 0.25 + 1e-9);
  EXPECT_GE(10.5 - (b.position.y), 6.0 - 1e-9);
  ASSERT_EQ(s.morale_causes.size(), 1u);
  EXPECT_EQ(s.morale_causes[0].kind, MoraleCauseKind::kRouted);
}

TEST(AfterCombat, RetireBlockedByEnemyBehindStaysAndLosesABase) {
  GameState s = facing_off();
  brigade(s, "al_b2").position = {16, 8.5};  // right behind fr_b1 (its rear at 9), facing south
  add_combat(s, -5, {AfterAction::kRetire}, {AfterAction::kRemain});
  FixedDice dice{3, 3};
  std::vector<Event> ev;
  after_combat_resolve(s, {}, dice, ev);
  EXPECT_EQ(brigade(s, "fr_b1").bases, 3u);
  EXPECT_NEAR(brigade(s, "fr_b1").position.y, 10, 1e-9);
  EXPECT_FALSE(brigade(s, "fr_b1").has(Status::kRetiring));
  EXPECT_TRUE(has_event(ev, "retire_blocked"));
}

TEST(AfterCombat, RoutersBlockedWithEnemyWithinTwoInchesSurrender) {
  GameState s = facing_off();
  brigade(s, "al_b2").position = {16, 8.5};
  add_combat(s, -8, {AfterAction::kRout}, {AfterAction::kRemain});
  FixedDice dice{3, 3};
  std::vector<Event> ev;
  after_combat_resolve(s, {}, dice, ev);
  EXPECT_TRUE(brigade(s, "fr_b1").has(Status::kSurrendered));
  EXPECT_EQ(brigade(s, "fr_b1").bases, 3u);
  EXPECT_TRUE(has_event(ev, "surrendered"));
}

TEST(AfterCombat, PursuersCatchingRetirersGetTheFreeHackAndTheyRout) {
  GameState s = facing_off();
  Brigade& al = brigade(s, "al_b1");
  al.type = TroopType::kHorse;
  al.bases = 4;
  // The French retire only 2" (blocked by a friend behind), the horse pursue 2 AvD + D6.
  brigade(s, "fr_b4").position = {16, 6.5};
  add_combat(s, -5, {AfterAction::kRetire}, {AfterAction::kPursue});
  // Retire: AvD 2, D6 1 -> 1.5"+1" = 2.5", stopped 2" down by fr_b4 (rear 6.5 .. front... ).
  // Pursue: 2 AvD 5,5 + D6 6 = 8"; catches: free hack 4 bases in contact: 4,4,1,6 -> 3 casualties.
  // Then the French rout: AvD 2 + D6 1 = 2.5" (blocked at once by fr_b4: they surrender? no: friends block, no enemy within... )
  FixedDice dice{2, 1, 5, 5, 6, 4, 4, 1, 6, 2, 1};
  std::vector<Event> ev;
  after_combat_resolve(s, {}, dice, ev);
  EXPECT_TRUE(has_event(ev, "free_hack"));
  const Brigade& fr = brigade(s, "fr_b1");
  EXPECT_EQ(fr.bases, 1u);
  EXPECT_TRUE(fr.has(Status::kRouting));
  EXPECT_TRUE(brigade(s, "al_b1").has(Status::kPursuing));
  EXPECT_EQ(brigade(s, "al_b1").pursuing, "fr_b1");
}

TEST(AfterCombat, PursueAndTakeThePositionNeedAnOpponentWhoLeft) {
  GameState s = facing_off();
  add_combat(s, 5, {AfterAction::kRemain, AfterAction::kPursue, AfterAction::kTakePosition}, {AfterAction::kRemain});
  AfterCombatEntry e;
  e.brigade = "fr_b1";
  e.options = s.combat.results[0].a.parts[0].options;
  e.enemies = {"al_b1"};
  EXPECT_EQ(available_actions(s, e), (std::vector<AfterAction>{AfterAction::kRemain}));
  brigade(s, "al_b1").status |= bit(Status::kRetiring);
  EXPECT_EQ(available_actions(s, e).size(), 3u);
  // Cavalry may not take the position.
  brigade(s, "fr_b1").type = TroopType::kHorse;
  EXPECT_EQ(available_actions(s, e), (std::vector<AfterAction>{AfterAction::kRemain, AfterAction::kPursue}));
}

TEST(AfterCombat, TakeThePositionAdvancesOntoTheAbandonedGroundAndRemovesADp) {
  GameState s = facing_off();
  brigade(s, "fr_b1").dps = 2;
  add_combat(s, 5, {AfterAction::kRemain, AfterAction::kPursue, AfterAction::kTakePosition}, {AfterAction::kRetire});
  FixedDice dice{3, 3};  // the Allies retire 4"
  std::vector<Event> ev;
  after_combat_resolve(s, {}, dice, ev);
  ASSERT_EQ(ids(after_combat_pending(s)), (std::vector<std::string>{"after/fr_b1"}));
  after_combat_resolve(s, {option_answer("after/fr_b1", "fr/left", "take_position")}, dice, ev);
  const Brigade& b = brigade(s, "fr_b1");
  EXPECT_NEAR(b.position.y, 10 + 0.5 + 1.0, 1e-6);  // to where the Allies' rear edge was
  EXPECT_EQ(b.dps, 1u);
  EXPECT_TRUE(b.has(Status::kMoved));
}

// "Brigades with a Halt reaction may adjust their facing or formation to face
// a threat. They may not otherwise move in the movement phase and may not
// initiate a charge. ... After combat movement is not affected."
TEST(AfterCombat, AHaltReactionDoesNotAffectAfterCombatMovement) {
  auto halt = [](Brigade& b) {
    b.control = ControlResult::kHalt;
    b.status |= bit(Status::kHalted);
  };
  // A halted winner still takes the position the enemy left.
  GameState s = facing_off();
  halt(brigade(s, "fr_b1"));
  add_combat(s, 5, {AfterAction::kRemain, AfterAction::kPursue, AfterAction::kTakePosition}, {AfterAction::kRetire});
  FixedDice dice{3, 3};  // the Allies retire 4"
  std::vector<Event> ev;
  after_combat_resolve(s, {}, dice, ev);
  auto ds = after_combat_pending(s);
  ASSERT_EQ(ids(ds), (std::vector<std::string>{"after/fr_b1"}));
  EXPECT_EQ(ds[0].options.size(), 3u);  // remain, pursue, take the position: as if not halted
  after_combat_resolve(s, {option_answer("after/fr_b1", "fr/left", "take_position")}, dice, ev);
  EXPECT_NEAR(brigade(s, "fr_b1").position.y, 10 + 0.5 + 1.0, 1e-6);
  EXPECT_TRUE(brigade(s, "fr_b1").has(Status::kMoved));

  // A halted loser still retires its full move.
  GameState l = facing_off();
  halt(brigade(l, "fr_b1"));
  const std::vector<AfterAction> both{AfterAction::kRemain, AfterAction::kRetire};
  add_combat(l, -1, both, both);
  FixedDice none{};
  after_combat_resolve(l, {}, none, ev);
  ASSERT_EQ(ids(after_combat_pending(l)), (std::vector<std::string>{"after/fr_b1"}));
  FixedDice retire{3, 4};  // AvD 3 + D6 4 = 3.5", +1" initial
  after_combat_resolve(l, {option_answer("after/fr_b1", "fr/left", "retire")}, retire, ev);
  EXPECT_NEAR(brigade(l, "fr_b1").position.y, 10 - 4.5, 1e-9);
}

TEST(AfterCombat, CavalryNotPursuingAfterABreakthroughTakeADp) {
  GameState s = facing_off();
  brigade(s, "fr_b1").type = TroopType::kHorse;
  brigade(s, "fr_b1").grade = Grade::kB;
  add_combat(s, 7, {AfterAction::kPursue, AfterAction::kRemainWithDp, AfterAction::kRetire}, {AfterAction::kRout});
  FixedDice dice{5, 6};  // the Allies rout
  std::vector<Event> ev;
  after_combat_resolve(s, {}, dice, ev);
  auto ds = after_combat_pending(s);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].options.size(), 3u);
  after_combat_resolve(s, {option_answer("after/fr_b1", "fr/left", "remain_dp")}, dice, ev);
  EXPECT_EQ(brigade(s, "fr_b1").dps, 1u);
  EXPECT_FALSE(brigade(s, "fr_b1").has(Status::kMoved));
}

TEST(AfterCombat, CavalryRetiringAfterABreakthroughTakeTheDpToo) {
  // "Cavalry who elect not to pursue take 1 DP": retiring is not pursuing (RULINGS C21).
  GameState s = facing_off();
  brigade(s, "fr_b1").type = TroopType::kHorse;
  brigade(s, "fr_b1").grade = Grade::kB;
  add_combat(s, 7, {AfterAction::kPursue, AfterAction::kRemainWithDp, AfterAction::kRetire}, {AfterAction::kRout});
  FixedDice dice{5, 6};  // the Allies rout
  std::vector<Event> ev;
  after_combat_resolve(s, {}, dice, ev);
  ASSERT_EQ(after_combat_pending(s).size(), 1u);
  const double y0 = brigade(s, "fr_b1").position.y;
  FixedDice retire{3, 4, 3, 4, 3, 4};
  std::vector<Event> mine;
  after_combat_resolve(s, {option_answer("after/fr_b1", "fr/left", "retire")}, retire, mine);
  EXPECT_EQ(brigade(s, "fr_b1").dps, 1u);
  EXPECT_NE(brigade(s, "fr_b1").position.y, y0);  // and it did retire
  bool said = false;
  for (const auto& e : mine) said = said || e.text.find("does not pursue") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(AfterCombat, CavalryRetiringAfterAnInconclusiveCombatTakeNoDp) {
  GameState s = facing_off();
  brigade(s, "fr_b1").type = TroopType::kHorse;
  const std::vector<AfterAction> both{AfterAction::kRemain, AfterAction::kRetire};
  add_combat(s, 1, both, both);
  FixedDice none{};
  std::vector<Event> ev;
  after_combat_resolve(s, {}, none, ev);
  after_combat_resolve(s, {option_answer("after/al_b1", "al/right", "remain")}, none, ev);
  FixedDice retire{3, 4, 3, 4, 3, 4};
  after_combat_resolve(s, {option_answer("after/fr_b1", "fr/left", "retire")}, retire, ev);
  EXPECT_EQ(brigade(s, "fr_b1").dps, 0u);
}

// "+7 Breakthrough ... Others may take any permitted after combat action.
// Cavalry who elect not to pursue take 1 DP." With nobody left to pursue
// (the opponent destroyed, or only guns charged) there is no pursuit to
// elect against: A-B cavalry remain (the default) or retire, without the DP,
// as C-E cavalry whose "must pursue" finds nobody simply remain (RULINGS C21).
TEST(AfterCombat, BreakthroughCavalryWithNobodyToPursueRemainOrRetireWithoutTheDp) {
  auto destroyed_opponent = [] {
    GameState s = facing_off();
    brigade(s, "fr_b1").type = TroopType::kHorse;
    brigade(s, "fr_b1").grade = Grade::kA;
    add_combat(s, 7, {AfterAction::kPursue, AfterAction::kRemainWithDp, AfterAction::kRetire}, {AfterAction::kRout});
    Brigade& al = brigade(s, "al_b1");  // the break cost it its last bases
    al.bases = 0;
    al.status |= bit(Status::kDestroyed);
    return s;
  };
  GameState s = destroyed_opponent();
  FixedDice none{};
  FixedDice spare{3, 4, 3, 4};  // a retire, were it forced
  std::vector<Event> ev;
  after_combat_resolve(s, {}, spare, ev);
  auto ds = after_combat_pending(s);
  ASSERT_EQ(ids(ds), (std::vector<std::string>{"after/fr_b1"}));
  std::vector<std::string> options;
  for (const auto& o : ds[0].options) options.push_back(o.id);
  EXPECT_EQ(options, (std::vector<std::string>{"remain", "retire"}));
  EXPECT_EQ(ds[0].default_option, "remain");
  after_combat_resolve(s, {option_answer("after/fr_b1", "fr/left", "remain")}, none, ev);
  EXPECT_TRUE(after_combat_done(s));
  EXPECT_EQ(brigade(s, "fr_b1").dps, 0u);
  EXPECT_NEAR(brigade(s, "fr_b1").position.y, 10, 1e-9);

  GameState r = destroyed_opponent();
  FixedDice spare2{3, 4, 3, 4};
  after_combat_resolve(r, {}, spare2, ev);
  FixedDice retire{3, 4, 3, 4, 3, 4};
  std::vector<Event> mine;
  after_combat_resolve(r, {option_answer("after/fr_b1", "fr/left", "retire")}, retire, mine);
  EXPECT_EQ(brigade(r, "fr_b1").dps, 0u);
  EXPECT_TRUE(brigade(r, "fr_b1").has(Status::kRetiring));
  for (const auto& e : mine) EXPECT_EQ(e.text.find("does not pursue"), std::string::npos) << e.text;

  // Only guns charged: their crews gone, nobody to pursue either.
  GameState g = facing_off();
  brigade(g, "fr_b1").type = TroopType::kHorse;
  brigade(g, "fr_b1").grade = Grade::kB;
  brigade(g, "al_b1").position = {40, 30};
  CombatResult c;
  c.id = "t1c1";
  c.turn = g.turn;
  c.a.army = "fr";
  c.a.brigades = {"fr_b1"};
  c.a.parts = {part(brigade(g, "fr_b1"), {AfterAction::kPursue, AfterAction::kRemainWithDp, AfterAction::kRetire})};
  c.b.army = "al";
  c.b.guns = {"al_gun"};
  c.difference = 7;
  c.loser = "al";
  g.combat.results.push_back(c);
  FixedDice spare3{3, 4, 3, 4};
  after_combat_resolve(g, {}, spare3, ev);
  ds = after_combat_pending(g);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].options.size(), 2u);
  EXPECT_EQ(ds[0].default_option, "remain");
}

TEST(AfterCombat, RideThroughASingleRankAndFaceTheNearestThreat) {
  GameState s = facing_off();
  Brigade& fr = brigade(s, "fr_b1");
  fr.type = TroopType::kHorse;
  fr.dps = 1;
  add_combat(s, 1, {AfterAction::kRideThrough2, AfterAction::kRideThrough3}, {AfterAction::kRemain, AfterAction::kRetire});
  FixedDice dice{};
  std::vector<Event> ev;
  after_combat_resolve(s, {}, dice, ev);
  // The Allies (lower) first: they remain.
  after_combat_resolve(s, {option_answer("after/al_b1", "al/right", "remain")}, dice, ev);
  ASSERT_EQ(ids(after_combat_pending(s)), (std::vector<std::string>{"after/fr_b1"}));
  FixedDice faces{5, 5};  // 2 AvD = 5"
  after_combat_resolve(s, {option_answer("after/fr_b1", "fr/left", "ride_through_2")}, faces, ev);
  const Brigade& b = brigade(s, "fr_b1");
  EXPECT_TRUE(has_event(ev, "ride_through"));
  EXPECT_EQ(b.dps, 0u);
  EXPECT_TRUE(b.has(Status::kMoved));
  // It went through: its rear is beyond al_b1's rear (y 11.5).
  EXPECT_GT(pose_envelope(pose_of(b)).center.y, 11.5);
  // ... and now faces the nearest enemy (al_b1, behind it: south).
  EXPECT_NEAR(std::abs(angle_diff_deg(b.facing_deg, 180)), 0, 30);
}

TEST(AfterCombat, NoRoomToRideThroughADeepEnemyRemainOrRetire) {
  GameState s = facing_off();
  brigade(s, "fr_b1").type = TroopType::kHorse;
  brigade(s, "al_b1").formation = Formation::kTwoRankLine;
  AfterCombatEntry e;
  e.brigade = "fr_b1";
  e.options = {AfterAction::kRideThrough2, AfterAction::kRideThrough3};
  e.enemies = {"al_b1"};
  EXPECT_EQ(available_actions(s, e), (std::vector<AfterAction>{AfterAction::kRemain, AfterAction::kRetire}));
}

TEST(AfterCombat, OptionIdsRoundTrip) {
  for (auto a : {AfterAction::kRemain, AfterAction::kRetire, AfterAction::kRout, AfterAction::kPursue,
                 AfterAction::kRideThrough2, AfterAction::kRideThrough3, AfterAction::kTakePosition,
                 AfterAction::kRemainWithDp}) {
    AfterAction back = AfterAction::kRemain;
    ASSERT_TRUE(parse_after_action(option_id(a), back));
    EXPECT_EQ(back, a);
  }
}

// ---- Later moves ----

TEST(AfterCombatMovement, RetiringBrigadesMayContinueInTheirNextMovePhase) {
  GameState s = tiny_state();
  s.phase = Phase::kMovement;
  Brigade& b = brigade(s, "fr_b1");
  b.status |= bit(Status::kRetiring);
  make_unformed(b);  // its bases where they stand
  FixedDice none{};
  std::vector<Event> ev;
  begin_movement_half(s, none, ev);
  const auto ds = retire_pending(s);
  ASSERT_EQ(ds.size(), 1u);
  EXPECT_EQ(ds[0].default_option, "remain");
  FixedDice dice{4, 2};  // 3" (not initial: no ½" a die)
  resolve_retire_choices(s, {option_answer("retire/fr_b1", "fr/left", "continue")}, dice, ev);
  // Directly away from the nearest enemy (al_b1, north-east): south-west-ish, 3".
  EXPECT_NEAR(distance(brigade(s, "fr_b1").position, {16, 10}), 3.0, 1e-6) << brigade(s, "fr_b1").position.x << ","
                                                                           << brigade(s, "fr_b1").position.y;
  EXPECT_TRUE(brigade(s, "fr_b1").has(Status::kMoved));
  EXPECT_TRUE(retire_pending(s).empty());
}

TEST(AfterCombatMovement, PursuedRoutersRoutAgainLosingABaseThenThePursuersFollow) {
  GameState s = tiny_state();
  s.phase = Phase::kMovement;
  s.initiative = "al";  // the Allies (the pursuers) act in half 0
  Brigade& fr = brigade(s, "fr_b1");
  fr.status |= bit(Status::kRouting);
  make_unformed(fr);
  Brigade& al = brigade(s, "al_b1");
  al.position = {16, 13};  // 3" off the routers, facing them
  al.status |= bit(Status::kPursuing);
  al.pursuing = "fr_b1";
  make_unformed(al);
  al.control = ControlResult::kContinue;
  // Rout: AvD 2 + D6 1 = 1.5" (not initial); 1 casualty; pursuit 1 AvD 5 + D6 6 = 5.5": catch; hack 4x D6.
  FixedDice dice{2, 1, 5, 6, 6, 6, 1, 1};
  std::vector<Event> ev;
  begin_movement_half(s, dice, ev);
  EXPECT_TRUE(has_event(ev, "rout_casualty"));
  EXPECT_TRUE(has_event(ev, "free_hack"));
  EXPECT_EQ(brigade(s, "fr_b1").bases, 1u);  // 4 - 1 (rout move) - 2 (hack)
}

TEST(AfterCombatMovement, PursuersWhoPassTheirTestCease) {
  GameState s = tiny_state();
  s.phase = Phase::kMovement;
  Brigade& fr = brigade(s, "fr_b1");
  fr.status |= bit(Status::kPursuing);
  fr.pursuing = "al_b1";
  fr.control = ControlResult::kAsWished;
  FixedDice none{};
  std::vector<Event> ev;
  begin_movement_half(s, none, ev);
  EXPECT_FALSE(brigade(s, "fr_b1").has(Status::kPursuing));
  EXPECT_TRUE(has_event(ev, "pursuit_ends"));
}

// ---- The free hack's odds: a D6 per base, a casualty on 4+: Binomial(n, 1/2). ----

TEST(FreeHack, DistributionMatchesTheBinomial) {
  GameState s = facing_off();
  Brigade& al = brigade(s, "al_b1");
  al.position = {16, 10.0 + 0.0};  // touching fr_b1's front: 4 bases in contact
  constexpr int kTrials = 100000;
  std::array<int, 5> counts{};
  Seed seed{};
  seed[0] = 42;
  const Brigade pursuer = brigade(s, "fr_b1");
  brigade(s, "al_b1").bases = 12;
  const Brigade original = brigade(s, "al_b1");
  for (int i = 0; i < kTrials; ++i) {
    Brigade& target = brigade(s, "al_b1");
    target = original;
    KeyedDice dice(seed, static_cast<std::uint64_t>(i));
    std::vector<Event> ev;
    const int hits = free_hack(s, pursuer, target, dice, ev);
    ASSERT_GE(hits, 0);
    ASSERT_LE(hits, 4);
    ++counts[static_cast<std::size_t>(hits)];
  }
  const std::array<double, 5> p{1 / 16.0, 4 / 16.0, 6 / 16.0, 4 / 16.0, 1 / 16.0};
  double chi2 = 0;
  for (std::size_t k = 0; k < 5; ++k) {
    const double expected = kTrials * p[k];
    chi2 += (counts[k] - expected) * (counts[k] - expected) / expected;
  }
  EXPECT_LT(chi2, 18.47) << "chi-squared, 4 degrees of freedom, p = 0.001: " << counts[0] << " " << counts[1] << " "
                         << counts[2] << " " << counts[3] << " " << counts[4];
}


// ---- Only the bases in combat are bound; splitting (RULINGS AC5) ----

// fr_b1 as a line of 6 (13..19) against a single Allied base ½" off its
// middle: the two bases facing it (and no others) are in combat.
GameState six_against_one() {
  GameState s = facing_off();
  brigade(s, "fr_b2").position = {26, 10};
  Brigade& fr = brigade(s, "fr_b1");
  fr.bases = 6;
  fr.dps = 2;
  brigade(s, "al_b1").bases = 1;
  return s;
}

TEST(AfterCombat, OnlyTheBasesInCombatRetireTheFlanksSplitOffAndRemainInPlace) {
  GameState s = six_against_one();
  add_combat(s, -5, {AfterAction::kRetire}, {AfterAction::kRemain});
  ASSERT_EQ(s.combat.results.size(), 1u);
  FixedDice dice{3, 3};  // 1 AvD 3 + D6 3 = 3", +½" a die initial: 4"
  std::vector<Event> ev;
  after_combat_resolve(s, {}, dice, ev);
  ASSERT_TRUE(after_combat_done(s));
  const AfterCombatEntry& e = s.after_combat.entries[0];
  // In combat (C8): the bases whose 45° front arcs reach the Allied base
  // within 1" -- all but the two ends.
  EXPECT_EQ(e.unbound, (std::vector<std::uint32_t>{0, 5}));
  // The bound part keeps the id and retires, unformed, straight back 4".
  const Brigade& fr = brigade(s, "fr_b1");
  EXPECT_EQ(fr.bases, 4u);
  EXPECT_TRUE(fr.has(Status::kRetiring));
  EXPECT_EQ(fr.formation, Formation::kUnformed);
  EXPECT_NEAR(fr.position.x, 16, 1e-6);
  EXPECT_NEAR(std::abs(fr.position.y - 10), 4.0, 1e-6);
  // The flanks were not in combat: two new brigades, in line where they
  // stood, with the parent's DPs, not retiring.
  const Brigade& left = brigade(s, "fr_b1_1");
  const Brigade& right = brigade(s, "fr_b1_2");
  for (const Brigade* p : {&left, &right}) {
    EXPECT_EQ(p->bases, 1u);
    EXPECT_EQ(p->formation, Formation::kLine);
    EXPECT_TRUE(p->base_poses.empty());
    EXPECT_EQ(p->dps, 2u);
    EXPECT_FALSE(p->has(Status::kRetiring));
    EXPECT_FALSE(p->has(Status::kMoved));
    EXPECT_NEAR(p->position.y, 10, 1e-9);
  }
  EXPECT_NEAR(left.position.x, 13.5, 1e-9);
  EXPECT_NEAR(right.position.x, 18.5, 1e-9);
  EXPECT_TRUE(has_event(ev, "split"));
}

TEST(AfterCombat, RemainingInPlaceSplitsNothing) {
  GameState s = six_against_one();
  add_combat(s, 1, {AfterAction::kRemain}, {AfterAction::kRemain});
  FixedDice none{};
  std::vector<Event> ev;
  after_combat_resolve(s, {}, none, ev);
  EXPECT_EQ(brigade(s, "fr_b1").bases, 6u);
  EXPECT_EQ(s.find_brigade("fr_b1_1"), nullptr);
  EXPECT_FALSE(has_event(ev, "split"));
}

TEST(AfterCombat, AWholeFrontInCombatIsBoundWhole) {
  GameState s = facing_off();  // 4 bases against 4
  add_combat(s, -5, {AfterAction::kRetire}, {AfterAction::kRemain});
  FixedDice dice{3, 3};
  std::vector<Event> ev;
  after_combat_resolve(s, {}, dice, ev);
  EXPECT_TRUE(s.after_combat.entries[0].unbound.empty());
  EXPECT_EQ(brigade(s, "fr_b1").bases, 4u);
  EXPECT_FALSE(has_event(ev, "split"));
}

// An enemy base right behind fr_b1's rightmost base: that base cannot get
// ½" away; it splits off, stays and loses its base; the rest retire.
TEST(AfterCombat, APartlyBlockedRetireSplitsTheBlockedPartStaysAndTheRestRetire) {
  GameState s = facing_off();
  const auto rects = footprint(brigade(s, "fr_b1"));
  const Vec2 back = facing_unit(brigade(s, "fr_b1").facing_deg + 180);
  Brigade& al2 = brigade(s, "al_b2");
  al2.bases = 1;
  al2.facing_deg = brigade(s, "fr_b1").facing_deg + 180;  // facing fr_b1's rear
  al2.position = rects[3].center + back * (rects[3].depth / 2 + 0.05);
  add_combat(s, -5, {AfterAction::kRetire}, {AfterAction::kRemain});
  FixedDice dice{3, 3};
  std::vector<Event> ev;
  after_combat_resolve(s, {}, dice, ev);
  const Brigade& fr = brigade(s, "fr_b1");
  EXPECT_EQ(fr.bases, 3u);
  EXPECT_TRUE(fr.has(Status::kRetiring));
  EXPECT_TRUE(has_event(ev, "retire_blocked"));
  // The blocked part (one base) took its casualty: destroyed where it stood.
  const Brigade* part = s.find_brigade("fr_b1_1");
  ASSERT_NE(part, nullptr);
  EXPECT_EQ(part->bases, 0u);
  EXPECT_FALSE(part->has(Status::kRetiring));
}

TEST(AfterCombat, APartlyBlockedRoutSurrendersTheBlockedPartToEnemyWithinTwoInches) {
  GameState s = facing_off();
  Brigade& fr = brigade(s, "fr_b1");
  fr.bases = 6;
  brigade(s, "fr_b2").position = {26, 10};
  const auto rects = footprint(fr);
  const Vec2 back = facing_unit(fr.facing_deg + 180);
  Brigade& al2 = brigade(s, "al_b2");
  al2.bases = 2;
  al2.facing_deg = fr.facing_deg + 180;
  al2.position = (rects[4].center + rects[5].center) * 0.5 + back * (rects[5].depth / 2 + 0.05);
  add_combat(s, -8, {AfterAction::kRout}, {AfterAction::kRemain});
  FixedDice dice{3, 3};
  std::vector<Event> ev;
  after_combat_resolve(s, {}, dice, ev);
  EXPECT_EQ(brigade(s, "fr_b1").bases, 4u);
  EXPECT_TRUE(brigade(s, "fr_b1").has(Status::kRouting));
  const Brigade& part = brigade(s, "fr_b1_1");
  EXPECT_EQ(part.bases, 1u);  // 2, less the casualty
  EXPECT_TRUE(part.has(Status::kSurrendered));
  EXPECT_TRUE(has_event(ev, "surrendered"));
}

// ---- Retire: halting short once behind an obstacle (RULINGS AC4) ----

// A hedge 1" behind fr_b1's rear edge, across its whole retreat.
GameState hedge_behind() {
  GameState s = facing_off();
  const Brigade& fr = brigade(s, "fr_b1");
  const Vec2 back = facing_unit(fr.facing_deg + 180);
  const Vec2 rear = fr.position + back * footprint(fr)[0].depth;
  Feature f;
  f.id = "hedge";
  f.kind = TerrainKind::kHedge;
  f.points = {rear + back * 1.0 + Vec2{-6, 0}, rear + back * 1.0 + Vec2{6, 0}};
  s.features = {f};
  s.terrain = make_terrain_map(s.features);
  return s;
}

TEST(AfterCombat, AForcedRetireMayHaltOnceBehindAnObstacle) {
  GameState s = hedge_behind();
  add_combat(s, -5, {AfterAction::kRetire}, {AfterAction::kRemain});
  FixedDice dice{3, 3};  // 4"
  std::vector<Event> ev;
  after_combat_resolve(s, {}, dice, ev);
  const auto ds = after_combat_pending(s);
  ASSERT_EQ(ids(ds), (std::vector<std::string>{"after/fr_b1"}));
  ASSERT_EQ(ds[0].options.size(), 2u);
  EXPECT_EQ(ds[0].options[0].id, "retire");
  EXPECT_EQ(ds[0].options[1].id, "retire_halt");
  EXPECT_EQ(ds[0].default_option, "retire");
  after_combat_resolve(s, {option_answer("after/fr_b1", "fr/left", "retire_halt")}, dice, ev);
  // Past the hedge: 1" to it, the brigade's 1" depth, and a little more.
  const double moved = std::abs(brigade(s, "fr_b1").position.y - 10);
  EXPECT_GT(moved, 2.0);
  EXPECT_LT(moved, 2.2);
  EXPECT_TRUE(brigade(s, "fr_b1").has(Status::kRetiring));
  EXPECT_TRUE(s.terrain.obstacles_crossed(footprint(brigade(s, "fr_b1"))[0].polygon()).empty());
}

TEST(AfterCombat, AFullRetireGoesOnPastTheObstacle) {
  GameState s = hedge_behind();
  add_combat(s, -5, {AfterAction::kRetire}, {AfterAction::kRemain});
  FixedDice dice{3, 3};
  std::vector<Event> ev;
  after_combat_resolve(s, {}, dice, ev);
  after_combat_resolve(s, {option_answer("after/fr_b1", "fr/left", "retire")}, dice, ev);
  EXPECT_NEAR(std::abs(brigade(s, "fr_b1").position.y - 10), 4.0, 1e-6);
}

TEST(AfterCombat, NoObstacleToGetBehindNothingToAsk) {
  GameState s = facing_off();
  add_combat(s, -5, {AfterAction::kRetire}, {AfterAction::kRemain});
  FixedDice dice{3, 3};
  std::vector<Event> ev;
  after_combat_resolve(s, {}, dice, ev);
  EXPECT_TRUE(after_combat_pending(s).empty());
  EXPECT_TRUE(brigade(s, "fr_b1").has(Status::kRetiring));
}

TEST(AfterCombat, HaltingShortIsCheckedLikeAnyOption) {
  GameState s = facing_off();
  s.combat.turn = s.turn;
  s.combat.stage = CombatStage::kResolved;  // the engine is in the after-combat sub-step
  add_combat(s, -5, {AfterAction::kRetire, AfterAction::kRemain}, {AfterAction::kRemain});
  FixedDice none{};
  std::vector<Event> ev;
  after_combat_resolve(s, {}, none, ev);
  // No obstacle behind: "retire_halt" is not an option, and the engine says so.
  const Answer a = option_answer("after/fr_b1", "fr/left", "retire_halt");
  auto v = check(s, a);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.error().code, "bad_option");
  auto r = resolve(s, {a}, none);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, "bad_option");
}

TEST(AfterCombatMovement, AContinuedRetireMayHaltOnceBehindAnObstacle) {
  GameState s = hedge_behind();
  s.phase = Phase::kMovement;
  brigade(s, "al_b1").position = {16, 12};
  Brigade& b = brigade(s, "fr_b1");
  b.status = bit(Status::kRetiring);
  make_unformed(b);
  FixedDice none{};
  std::vector<Event> ev;
  begin_movement_half(s, none, ev);
  const auto ds = retire_pending(s);
  ASSERT_EQ(ds.size(), 1u);
  ASSERT_EQ(ds[0].options.size(), 3u);
  EXPECT_EQ(ds[0].options[1].id, "continue_halt");
  FixedDice dice{4, 4};  // 4" (not initial)
  resolve_retire_choices(s, {option_answer("retire/fr_b1", "fr/left", "continue_halt")}, dice, ev);
  const double moved = distance(brigade(s, "fr_b1").position, {16, 10});
  EXPECT_GT(moved, 2.0);
  EXPECT_LT(moved, 2.6);
}

// ---- Rout: "until behind formed friendly foot or cavalry, or terrain
// obstacle, or 6 inches from enemy" (RULINGS AC4) ----

TEST(AfterCombat, RoutMovesItsFullFastMoveWithTheInitialHalfInchADie) {
  GameState s = facing_off();
  add_combat(s, -8, {AfterAction::kRout}, {AfterAction::kRemain});
  FixedDice dice{2, 1};  // AvD 2 + D6 1 = 1.5", +½" a die initial = 2.5": still short of 6" off
  std::vector<Event> ev;
  after_combat_resolve(s, {}, dice, ev);
  const Brigade& b = brigade(s, "fr_b1");
  EXPECT_NEAR(b.position.y, 10 - 2.5, 1e-9);
  EXPECT_NEAR(b.position.x, 16, 1e-9);
  EXPECT_EQ(b.formation, Formation::kUnformed);
  EXPECT_TRUE(b.has(Status::kRouting));
}

TEST(AfterCombat, RoutStopsAgainstFriendsBehindWithoutLoss) {
  GameState s = facing_off();
  brigade(s, "fr_b4").position = {16, 6.5};  // formed friends 2.5" behind fr_b1's rear (y 9)
  add_combat(s, -8, {AfterAction::kRout}, {AfterAction::kRemain});
  FixedDice dice{5, 6};  // 6.5": would reach the 6" point (y 4.5) unstopped
  std::vector<Event> ev;
  after_combat_resolve(s, {}, dice, ev);
  const Brigade& b = brigade(s, "fr_b1");
  EXPECT_NEAR(b.position.y, 10 - 2.5, 0.02);  // halted against them
  EXPECT_EQ(b.bases, 4u);
  EXPECT_TRUE(b.has(Status::kRouting));
  EXPECT_FALSE(b.has(Status::kSurrendered));
  EXPECT_FALSE(has_event(ev, "rout_blocked"));
}

TEST(AfterCombat, RoutStopsOnceBehindATerrainObstacleBetweenItAndTheEnemy) {
  GameState s = hedge_behind();  // a hedge 1" behind fr_b1's rear, across its path
  add_combat(s, -8, {AfterAction::kRout}, {AfterAction::kRemain});
  FixedDice dice{5, 6};  // 6.5": unstopped it would go on to 6" from al_b1 (y 4.5)
  std::vector<Event> ev;
  after_combat_resolve(s, {}, dice, ev);
  EXPECT_TRUE(after_combat_done(s));  // a router is not asked: it must halt there
  const Brigade& b = brigade(s, "fr_b1");
  const double moved = 10 - b.position.y;
  EXPECT_GT(moved, 2.0);  // 1" to the hedge and its own 1" depth: wholly past it
  EXPECT_LT(moved, 2.2);
  EXPECT_TRUE(b.has(Status::kRouting));
  for (const auto& r : footprint(b)) EXPECT_TRUE(s.terrain.obstacles_crossed(r.polygon()).empty());
  bool said = false;
  for (const auto& e : ev) said = said || (e.kind == "rout" && e.text.find("behind hedge") != std::string::npos);
  EXPECT_TRUE(said);
}

TEST(AfterCombat, AnObstacleAlongsideTheRoutIsNotBetweenItAndTheEnemy) {
  GameState s = facing_off();
  // A hedge running the same way as the rout, under its left-hand base's path
  // (x 14..15) but not between the routers and al_b1 (straight north of them).
  Feature f;
  f.id = "hedge";
  f.kind = TerrainKind::kHedge;
  f.points = {{14.3, 8.5}, {14.3, 6.0}};
  s.features = {f};
  s.terrain = make_terrain_map(s.features);
  add_combat(s, -8, {AfterAction::kRout}, {AfterAction::kRemain});
  FixedDice dice{5, 6};
  std::vector<Event> ev;
  after_combat_resolve(s, {}, dice, ev);
  const double gap = 10.5 - brigade(s, "fr_b1").position.y;  // to al_b1's front
  EXPECT_GE(gap, 6.0 - 1e-9);
  EXPECT_LE(gap, 6.0 + 0.25 + 1e-9);
}

TEST(AfterCombatMovement, ASubsequentRoutMoveAlsoStopsBehindAnObstacle) {
  GameState s = hedge_behind();
  s.phase = Phase::kMovement;
  s.initiative = "al";
  Brigade& fr = brigade(s, "fr_b1");
  fr.status |= bit(Status::kRouting);
  make_unformed(fr);
  Brigade& al = brigade(s, "al_b1");
  al.position = {16, 13};
  al.status |= bit(Status::kPursuing);
  al.pursuing = "fr_b1";
  make_unformed(al);
  al.control = ControlResult::kContinue;
  // Rout 5 + 6 = 5.5" (not initial): halts past the hedge (~2.05"); 1
  // casualty; pursuit 2 + 1 = 1.5": does not catch.
  FixedDice dice{5, 6, 2, 1};
  std::vector<Event> ev;
  begin_movement_half(s, dice, ev);
  const double moved = 10 - brigade(s, "fr_b1").position.y;
  EXPECT_GT(moved, 2.0);
  EXPECT_LT(moved, 2.2);
  EXPECT_EQ(brigade(s, "fr_b1").bases, 3u);
}

TEST(AfterCombat, RetireBlockedByImpassableTerrainStaysAndLosesABase) {
  GameState s = facing_off();
  Feature f;
  f.id = "river";
  f.kind = TerrainKind::kRiver;
  f.impassable = true;
  f.points = {{8, 8.8}, {24, 8.8}};  // 0.2" behind fr_b1's rear
  s.features = {f};
  s.terrain = make_terrain_map(s.features);
  add_combat(s, -5, {AfterAction::kRetire}, {AfterAction::kRemain});
  FixedDice dice{3, 3};
  std::vector<Event> ev;
  after_combat_resolve(s, {}, dice, ev);
  EXPECT_EQ(brigade(s, "fr_b1").bases, 3u);
  EXPECT_NEAR(brigade(s, "fr_b1").position.y, 10, 1e-9);
  EXPECT_FALSE(brigade(s, "fr_b1").has(Status::kRetiring));
  EXPECT_TRUE(has_event(ev, "retire_blocked"));
}

// ---- Splitting: the bound bases, every moving action, pursuers (RULINGS AC5) ----

TEST(AfterCombat, SupportingRearRanksAreBoundTheirFlanksAreNot) {
  GameState s = six_against_one();
  Brigade& fr = brigade(s, "fr_b1");
  fr.bases = 12;  // a two-rank line, 6 files
  fr.formation = Formation::kTwoRankLine;
  add_combat(s, -5, {AfterAction::kRetire}, {AfterAction::kRemain});
  FixedDice dice{3, 3};
  std::vector<Event> ev;
  after_combat_resolve(s, {}, dice, ev);
  // The four middle files are in combat; their rear-rank bases support them.
  EXPECT_EQ(s.after_combat.entries[0].unbound.size(), 4u);
  EXPECT_EQ(brigade(s, "fr_b1").bases, 8u);
  EXPECT_TRUE(brigade(s, "fr_b1").has(Status::kRetiring));
  for (const char* id : {"fr_b1_1", "fr_b1_2"}) {
    EXPECT_EQ(brigade(s, id).bases, 2u) << id;
    EXPECT_FALSE(brigade(s, id).has(Status::kRetiring)) << id;
    EXPECT_FALSE(brigade(s, id).has(Status::kMoved)) << id;
  }
}

TEST(AfterCombat, RoutingAndPursuingSplitOffTheUnboundBasesToo) {
  {
    GameState s = six_against_one();
    add_combat(s, -8, {AfterAction::kRout}, {AfterAction::kRemain});
    FixedDice dice{3, 3};
    std::vector<Event> ev;
    after_combat_resolve(s, {}, dice, ev);
    EXPECT_EQ(brigade(s, "fr_b1").bases, 4u);
    EXPECT_TRUE(brigade(s, "fr_b1").has(Status::kRouting));
    for (const char* id : {"fr_b1_1", "fr_b1_2"}) {
      EXPECT_FALSE(brigade(s, id).has(Status::kRouting)) << id;
      EXPECT_NEAR(brigade(s, id).position.y, 10, 1e-9) << id;
    }
  }
  {
    GameState s = six_against_one();
    add_combat(s, 5, {AfterAction::kPursue}, {AfterAction::kRetire});
    // al_b1 retires 4"; fr_b1 pursues 5.5" and catches it: the free hack's
    // 6s destroy its single base.
    FixedDice dice{3, 3, 5, 6, 6, 6, 6, 6};
    std::vector<Event> ev;
    after_combat_resolve(s, {}, dice, ev);
    EXPECT_EQ(brigade(s, "fr_b1").bases, 4u);
    EXPECT_TRUE(brigade(s, "fr_b1").has(Status::kPursuing));
    for (const char* id : {"fr_b1_1", "fr_b1_2"}) {
      EXPECT_FALSE(brigade(s, id).has(Status::kPursuing)) << id;
      EXPECT_NEAR(brigade(s, id).position.y, 10, 1e-9) << id;
    }
  }
}

// al_b1 pursues; an impassable wall 0.2" in front of its base at x 17..18
// only: that base halts as a new brigade, the other three pursue.
TEST(AfterCombat, PursuersPartlyBlockedByTerrainSplitTheBlockedPartHalts) {
  GameState s = facing_off();
  Feature f;
  f.id = "wall";
  f.kind = TerrainKind::kWall;
  f.impassable = true;
  f.points = {{17.2, 10.3}, {17.8, 10.3}};
  s.features = {f};
  s.terrain = make_terrain_map(s.features);
  add_combat(s, -5, {AfterAction::kRetire}, {AfterAction::kPursue});
  // fr_b1 retires 4"; al_b1's three bases pursue 5.5" and catch it (gap
  // 4.5"): free hack 1, 1, 1 (no loss); caught retiring, fr_b1 routs (2, 1).
  FixedDice dice{3, 3, 5, 6, 1, 1, 1, 2, 1};
  std::vector<Event> ev;
  after_combat_resolve(s, {}, dice, ev);
  const Brigade& al = brigade(s, "al_b1");
  EXPECT_EQ(al.bases, 3u);
  EXPECT_TRUE(al.has(Status::kPursuing));
  EXPECT_NEAR(al.position.y, 10.5 - 4.5, 0.02);
  const Brigade& part = brigade(s, "al_b1_1");
  EXPECT_EQ(part.bases, 1u);  // no casualty: halting is not being unable to retire
  EXPECT_FALSE(part.has(Status::kPursuing));
  EXPECT_TRUE(part.pursuing.empty());
  EXPECT_NEAR(pose_envelope(pose_of(part)).center.x, 17.5, 1e-6);
  EXPECT_NEAR(pose_envelope(pose_of(part)).center.y, 11.0, 1e-6);
  EXPECT_TRUE(has_event(ev, "pursuit_blocked"));
  EXPECT_TRUE(has_event(ev, "free_hack"));
  EXPECT_TRUE(brigade(s, "fr_b1").has(Status::kRouting));
}

// The same in a later movement phase, blocked by new enemy (fr_b2) in front
// of one base: that base halts; the rest pursue past fr_b2 without charging it.
TEST(AfterCombatMovement, PursuersPartlyBlockedByEnemySplitTheBlockedPartHalts) {
  GameState s = tiny_state();
  s.phase = Phase::kMovement;
  s.initiative = "al";
  Brigade& fr = brigade(s, "fr_b1");
  fr.status |= bit(Status::kRouting);
  make_unformed(fr);
  Brigade& fr2 = brigade(s, "fr_b2");
  fr2.bases = 1;
  fr2.position = {17.6, 12.8};  // x 17.1..18.1, y 11.8..12.8
  Brigade& al = brigade(s, "al_b1");
  al.position = {16, 13};
  al.status |= bit(Status::kPursuing);
  al.pursuing = "fr_b1";
  make_unformed(al);
  al.control = ControlResult::kContinue;
  // Rout 2 + 1 = 1.5", 1 casualty; pursuit 5 + 6 = 5.5": three bases catch
  // fr_b1 (gap 4.5"); free hack 6, 6, 1: 2 casualties.
  FixedDice dice{2, 1, 5, 6, 6, 6, 1};
  std::vector<Event> ev;
  begin_movement_half(s, dice, ev);
  EXPECT_EQ(dice.remaining(), 0u);
  EXPECT_TRUE(has_event(ev, "pursuit_blocked"));
  EXPECT_FALSE(has_event(ev, "pursuit_charge"));
  EXPECT_EQ(brigade(s, "al_b1").bases, 3u);
  EXPECT_TRUE(brigade(s, "al_b1").has(Status::kPursuing));
  const Brigade& part = brigade(s, "al_b1_1");
  EXPECT_EQ(part.bases, 1u);
  EXPECT_FALSE(part.has(Status::kPursuing));
  EXPECT_NEAR(pose_envelope(pose_of(part)).center.y, 13.5, 1e-6);
  EXPECT_EQ(brigade(s, "fr_b1").bases, 1u);  // 4 - 1 (rout move) - 2 (hack)
}

// ---- Pursuers meeting new enemy (RULINGS AC8) ----

GameState pursuit_into(TroopType met) {
  GameState s = tiny_state();
  s.phase = Phase::kMovement;
  s.initiative = "al";
  Brigade& fr = brigade(s, "fr_b1");
  fr.status |= bit(Status::kRouting);
  make_unformed(fr);
  Brigade& fr2 = brigade(s, "fr_b2");
  fr2.type = met;
  fr2.position = {16, 12};  // across the whole path, 1" in front of the pursuers
  Brigade& al = brigade(s, "al_b1");
  al.position = {16, 13};
  al.status |= bit(Status::kPursuing);
  al.pursuing = "fr_b1";
  make_unformed(al);
  al.control = ControlResult::kContinue;
  return s;
}

TEST(AfterCombatMovement, PursuersMeetingNewEnemyChargeThem) {
  GameState s = pursuit_into(TroopType::kFoot);
  FixedDice dice(std::vector<int>(200, 3));
  std::vector<Event> ev;
  begin_movement_half(s, dice, ev);
  EXPECT_TRUE(has_event(ev, "pursuit_charge"));
  bool fought = false;
  for (const auto& r : s.combat.results) {
    const bool both = std::find(r.a.brigades.begin(), r.a.brigades.end(), "fr_b2") != r.a.brigades.end() ||
                      std::find(r.b.brigades.begin(), r.b.brigades.end(), "fr_b2") != r.b.brigades.end();
    fought = fought || (r.pursuit && both);
  }
  EXPECT_TRUE(fought);
  EXPECT_TRUE(s.combat.charges.empty());  // foot do not counter-charge
}

// "Pursuers encountering new enemy immediately charge into them, the
// opponent may countercharge if cavalry": the cavalry's seat says whether
// it does, counter-charging by default (RULINGS AC8).
TEST(AfterCombatMovement, CavalryMetByPursuersMayCounterChargeOrStand) {
  for (const std::string answer : {"counter_charge", "stand", ""}) {
    GameState s = pursuit_into(TroopType::kHorse);
    FixedDice dice(std::vector<int>(200, 3));
    std::vector<Event> ev;
    begin_movement_half(s, dice, ev);
    EXPECT_TRUE(has_event(ev, "pursuit_meets"));
    EXPECT_FALSE(has_event(ev, "pursuit_charge"));  // not before the cavalry answer
    const auto ds = pending(s);
    ASSERT_EQ(ids(ds), (std::vector<std::string>{"counter/fr_b2"}));
    EXPECT_EQ(ds[0].seat, "fr/left");
    EXPECT_EQ(ds[0].kind, "pursuit_counter_charge");
    EXPECT_EQ(ds[0].default_option, "counter_charge");
    ASSERT_EQ(ds[0].options.size(), 2u);
    EXPECT_EQ(ds[0].options[1].id, "stand");
    EXPECT_FALSE(check(s, option_answer("counter/fr_b2", "fr/left", "evade")).ok());
    EXPECT_FALSE(check(s, option_answer("counter/fr_b2", "al/right", "stand")).ok());
    const Answer a = option_answer("counter/fr_b2", "fr/left", answer.empty() ? ds[0].default_option : answer);
    ASSERT_TRUE(check(s, a).ok());
    KeyedDice keyed(s.seed, s.step);
    auto r = resolve(s, {a}, keyed);
    ASSERT_TRUE(r.ok()) << r.error().reason;
    EXPECT_TRUE(has_event(r->events, "pursuit_charge")) << answer;
    const auto& charges = r->next.combat.charges;
    const bool countered = !charges.empty() && charges.back().charger == "fr_b2" && charges.back().counter;
    EXPECT_EQ(countered, answer != "stand") << answer;
    for (const auto& d : r->next_pending) EXPECT_NE(d.id, "counter/fr_b2");
  }
}

// The same in the after-combat sub-step: the pursuer waits where it met the
// cavalry, the rest of the round after the answer.
TEST(AfterCombat, PursuersMeetingCavalryWaitForItsAnswer) {
  GameState s = facing_off();
  Brigade& fr = brigade(s, "fr_b1");
  fr.bases = 2;  // x 15..17
  brigade(s, "al_b1").type = TroopType::kHorse;  // x 14..18, y 10.5..11.75
  Brigade& cav = brigade(s, "fr_b2");
  cav.type = TroopType::kHorse;
  cav.bases = 1;
  cav.position = {18, 8};  // x 17.5..18.5, y 6.75..8: beside the retirers' way, across the pursuers'
  add_combat(s, -5, {AfterAction::kRetire}, {AfterAction::kPursue});
  // Retire: AvD 3 + D6 3 + 1" = 4"; pursue: 2 AvD 5, 5 + D6 6 = 8", stopped by fr_b2 2.5" on.
  std::vector<int> faces{3, 3, 5, 5, 6};
  for (int i = 0; i < 200; ++i) faces.push_back(3);
  FixedDice dice(faces);
  std::vector<Event> ev;
  after_combat_resolve(s, {}, dice, ev);
  EXPECT_TRUE(has_event(ev, "pursuit_meets"));
  EXPECT_FALSE(has_event(ev, "pursuit_charge"));
  ASSERT_EQ(ids(after_combat_pending(s)), (std::vector<std::string>{"counter/fr_b2"}));
  EXPECT_FALSE(after_combat_done(s));
  EXPECT_NEAR(brigade(s, "al_b1").position.y, 10.5 - 2.5, 1e-6);  // waiting against fr_b2
  after_combat_resolve(s, {option_answer("counter/fr_b2", "fr/left", "stand")}, dice, ev);
  EXPECT_TRUE(has_event(ev, "pursuit_charge"));
  for (const auto& d : after_combat_pending(s)) EXPECT_NE(d.id, "counter/fr_b2");
  bool fought = false;
  for (const auto& r : s.combat.results) {
    if (!r.pursuit) continue;
    fought = true;
    const CombatSide& french = r.a.army == "fr" ? r.a : r.b;
    EXPECT_FALSE(french.charged);  // it stood
  }
  EXPECT_TRUE(fought);
  EXPECT_TRUE(s.combat.charges.empty());
}

// ---- Ride-through (RULINGS AC6) ----

TEST(AfterCombat, NoRoomToRideThroughASupportingLineTooClose) {
  GameState s = facing_off();
  brigade(s, "fr_b1").type = TroopType::kHorse;
  brigade(s, "al_b2").position = {16, 12.0};  // 0.5" behind al_b1's rear (y 11.5)
  AfterCombatEntry e;
  e.brigade = "fr_b1";
  e.options = {AfterAction::kRideThrough2, AfterAction::kRideThrough3};
  e.enemies = {"al_b1"};
  EXPECT_EQ(available_actions(s, e), (std::vector<AfterAction>{AfterAction::kRemain, AfterAction::kRetire}));
  brigade(s, "al_b2").position = {16, 16.0};  // far enough back: room
  EXPECT_EQ(available_actions(s, e), e.options);
}

TEST(AfterCombat, RideThroughThreeDiceHaltsTwoInchesShortOfNewEnemy) {
  GameState s = facing_off();
  Brigade& fr = brigade(s, "fr_b1");
  fr.type = TroopType::kHorse;  // 1¼" deep: y 8.75..10
  brigade(s, "al_b2").position = {16, 16.0};  // new enemy 6" ahead of the riders' front
  add_combat(s, 1, {AfterAction::kRideThrough2, AfterAction::kRideThrough3}, {AfterAction::kRemain});
  FixedDice none{};
  std::vector<Event> ev;
  after_combat_resolve(s, {}, none, ev);
  ASSERT_EQ(ids(after_combat_pending(s)), (std::vector<std::string>{"after/fr_b1"}));
  const double y0 = pose_envelope(pose_of(brigade(s, "fr_b1"))).center.y;
  FixedDice faces{5, 5, 6};  // 2 AvD + D6 = 8": stopped by al_b2 at 6", halts 2" short
  after_combat_resolve(s, {option_answer("after/fr_b1", "fr/left", "ride_through_3")}, faces, ev);
  EXPECT_EQ(faces.remaining(), 0u);
  EXPECT_NEAR(pose_envelope(pose_of(brigade(s, "fr_b1"))).center.y - y0, 4.0, 1e-6);
  EXPECT_TRUE(brigade(s, "fr_b1").has(Status::kMoved));
}

// "+2/3 Success ... Cavalry who charged only guns ride-through": the gun
// whose crew took refuge with its friends stays where it stood, abandoned;
// the riders go through its position as through any enemy they charged, and
// room is judged beyond it (RULINGS AC6).
TEST(AfterCombat, CavalryThatChargedOnlyGunsRideThroughTheAbandonedGun) {
  auto charged_the_gun = [](Vec2 friends_at) {
    GameState s = facing_off();
    Brigade& fr = brigade(s, "fr_b1");
    fr.type = TroopType::kHorse;  // 1¼" deep: y 8.75..10, x 14..18
    fr.dps = 1;
    brigade(s, "al_b1").position = friends_at;
    Gun g;
    g.id = "al_g";
    g.name = "al_g";
    g.army = "al";
    g.wing = "right";
    g.command = "c3";
    g.position = {16, 10.05};  // facing the riders: its base y 10.05..11.55
    g.facing_deg = 180;
    g.status = bit(Status::kAbandoned) | bit(Status::kInCombat);
    g.crew_with = "al_b1";
    s.guns = {g};
    CombatResult r;
    r.id = "t1c1";
    r.turn = s.turn;
    r.a.army = "fr";
    r.a.brigades = {"fr_b1"};
    r.a.parts = {part(fr, {AfterAction::kRideThrough2, AfterAction::kRideThrough3})};
    r.b.army = "al";
    r.b.guns = {"al_g"};
    r.difference = 2;
    r.loser = "al";
    s.combat.results.push_back(r);
    return s;
  };
  GameState s = charged_the_gun({30, 30});  // the crew's friends well away
  FixedDice none{};
  std::vector<Event> ev;
  after_combat_resolve(s, {}, none, ev);
  auto ds = after_combat_pending(s);
  ASSERT_EQ(ids(ds), (std::vector<std::string>{"after/fr_b1"}));
  FixedDice faces{5, 5};  // 2 AvD = 5"
  after_combat_resolve(s, {option_answer("after/fr_b1", "fr/left", "ride_through_2")}, faces, ev);
  const Brigade& b = brigade(s, "fr_b1");
  EXPECT_NEAR(pose_envelope(pose_of(b)).center.y, 8.75 + 0.625 + 5, 1e-6);
  EXPECT_EQ(b.dps, 0u);  // "remove 1 DP"
  EXPECT_TRUE(b.has(Status::kMoved));

  // The crew's friends right behind the gun: a supporting line too close.
  GameState t = charged_the_gun({16, 12});  // facing south: y 12..13
  after_combat_resolve(t, {}, none, ev);
  ds = after_combat_pending(t);
  ASSERT_EQ(ds.size(), 1u);
  std::vector<std::string> options;
  for (const auto& o : ds[0].options) options.push_back(o.id);
  EXPECT_EQ(options, (std::vector<std::string>{"remain", "retire"}));
}

}  // namespace
}  // namespace galloper::rules::malbrook
