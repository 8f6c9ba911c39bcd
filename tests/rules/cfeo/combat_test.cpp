// CF&EO's combat phase with fixed dice: who may charge whom, the responses,
// each combat's counted dice and modifiers, the Combat Results rows and the
// moves after combat, and the morale DPs they bring (RULINGS C1-C12).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "rules/cfeo/combat.hpp"
#include "rules/cfeo/engine.hpp"
#include "rules/cfeo/setup.hpp"
#include "rules/core/dice.hpp"
#include "rules/core/tell.hpp"
#include "tests/rules/cfeo/specs.hpp"

namespace galloper::rules::cfeo {
namespace {

using specs::unit;

// Blue (the attacker) faces north, red faces south (specs::two_sides).
// Unit positions are the middles of their front edges.
ScenarioSpec spec(std::vector<UnitSpec> blue, std::vector<UnitSpec> red) { return specs::two_sides(blue, red); }

Answer answer(const Decision& d, std::string option) { return {d.id, d.seat, std::move(option), {}}; }

const Decision* owed(const GameState& s, const std::string& id) {
  static std::vector<Decision> last;
  last = pending(s);
  const auto it = std::find_if(last.begin(), last.end(), [&](const Decision& d) { return d.id == id; });
  return it == last.end() ? nullptr : &*it;
}

std::vector<std::string> options(const Decision& d) {
  std::vector<std::string> out;
  for (const auto& o : d.options) out.push_back(o.id);
  return out;
}

// Every decision answered with its default (halt, hold, no charge) until the
// phase given, or the first stop after it in turn 1 when it owes nothing; no
// dice are rolled on the way.
GameState until(GameState s, Phase phase) {
  FixedDice none({});
  for (int guard = 0; guard < 50; ++guard) {
    if (s.started && (s.phase >= phase || s.turn > 1)) return s;
    std::vector<Answer> as;
    for (const auto& d : pending(s)) as.push_back(answer(d, d.default_option));
    auto r = resolve(s, as, none);
    EXPECT_TRUE(r.ok()) << r.error().reason;
    s = std::move(r->next);
  }
  ADD_FAILURE() << "never reached the phase";
  return s;
}

const Unit& named(const GameState& s, const std::string& id) {
  return *std::find_if(s.units.begin(), s.units.end(), [&](const Unit& u) { return u.id == id; });
}

const Event* event_of_kind(const std::vector<Event>& ev, const std::string& kind, std::size_t nth = 0) {
  for (const Event& e : ev) {
    if (e.kind == kind && nth-- == 0) return &e;
  }
  return nullptr;
}

// Two battalions of four bases 100 yds apart, face to face.
GameState face_to_face(UnitSpec blue, UnitSpec red) { return until(initial_state(spec({blue}, {red})), Phase::kCombat); }

UnitSpec blue_foot() { return unit("blue_foot", Arm::kFoot, 4, {1000, 500}, 0); }
UnitSpec red_foot() { return unit("red_foot", Arm::kFoot, 4, {1000, 600}, 180); }

TEST(CfeoCharge, ABattalionWithinReachIsOfferedTheEnemyItSeesInFront) {
  const GameState s = face_to_face(blue_foot(), red_foot());
  const Decision* d = owed(s, "charge/blue_foot");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->seat, "blue/w");
  EXPECT_EQ(options(*d), (std::vector<std::string>{"red_foot", "none"}));
  EXPECT_EQ(d->default_option, "none");
  EXPECT_DOUBLE_EQ(charge_reach(named(s, "blue_foot")), 110);
  // Red does not act in blue's half.
  EXPECT_EQ(owed(s, "charge/red_foot"), nullptr);
}

TEST(CfeoCharge, AnEnemyBeyondReachOrBehindIsNotOffered) {
  // 120 yds apart: beyond a battalion's 110.
  UnitSpec far = red_foot();
  far.position = {1000, 620};
  EXPECT_EQ(owed(face_to_face(blue_foot(), far), "charge/blue_foot"), nullptr);
  // Behind blue: out of its front arc.
  UnitSpec behind = red_foot();
  behind.position = {1000, 380};
  behind.facing = 0;
  EXPECT_EQ(owed(face_to_face(blue_foot(), behind), "charge/blue_foot"), nullptr);
  // Horse reach 160 yds.
  UnitSpec horse = unit("blue_horse", Arm::kHorse, 4, {1000, 460}, 0);
  const GameState s = face_to_face(horse, far);
  EXPECT_DOUBLE_EQ(charge_reach(named(s, "blue_horse")), 160);
  EXPECT_NE(owed(s, "charge/blue_horse"), nullptr);
}

TEST(CfeoCharge, AnUnknownOrUnseenTargetIsRefusedInTheSameWords) {
  const GameState s = face_to_face(blue_foot(), red_foot());
  const Decision* d = owed(s, "charge/blue_foot");
  ASSERT_NE(d, nullptr);
  const auto made_up = check(s, answer(*d, "nobody"));
  ASSERT_FALSE(made_up.ok());
  EXPECT_EQ(made_up.error().code, "bad_option");
}

// Blue charges: AvD 5 + D6 6 = 110 yds, contact at 100. Blue
// rolls 4 bases +1 charging +1 line not firing by platoons = 6 dice; red 4
// +1 line = 5. Blue scores 4 hits, red none: +4 Victory for blue (1 DP, a C
// Grade pursues), -4 Defeat for red (4 DPs, retires).
TEST(CfeoCombat, AVictoriousChargeDefeatsTheEnemyWhichRetiresAndIsPursuedAndBroken) {
  const GameState s = face_to_face(blue_foot(), red_foot());
  const Decision* d = owed(s, "charge/blue_foot");
  ASSERT_NE(d, nullptr);
  FixedDice dice({5, 6,                 // the charge: 110 yds
                  6, 6, 6, 6, 1, 1,     // blue's 6 dice: 4 hits
                  1, 1, 1, 1, 1,        // red's 5 dice: none
                  3, 3,                 // red retires: (3 + 3 + 2 x 1) x 10 = 80 yds
                  5, 6,                 // blue pursues: 110 yds, catches it
                  4, 4, 1, 1,           // free hack, 4 stands: 2 casualties
                  3, 3});               // red, broken, routs: 80 yds
  auto r = resolve(s, {answer(*d, "red_foot")}, dice);
  ASSERT_TRUE(r.ok()) << r.error().reason;
  const Unit& blue = named(r->next, "blue_foot");
  const Unit& red = named(r->next, "red_foot");
  EXPECT_EQ(blue.dps, 1u);
  EXPECT_EQ(red.dps, 4u);
  EXPECT_EQ(red.bases, 2u);
  EXPECT_TRUE(red.routing);
  EXPECT_FALSE(red.retiring);
  EXPECT_EQ(red.formation, Formation::kUnformed);
  EXPECT_EQ(blue.formation, Formation::kUnformed);
  const Event* combat = event_of_kind(r->events, "combat");
  ASSERT_NE(combat, nullptr);
  EXPECT_EQ(plain_text(combat->text),
            "Combat: blue_foot against red_foot. blue_foot 6 dice +1 (charging, counter-charging or pursuing) +1 (foot "
            "in line that did not fire by platoons), 4 hits; red_foot 5 dice +1 (foot in line that did not fire by "
            "platoons), 0 hits.");
  EXPECT_EQ(combat->dice.size(), 11u);
  ASSERT_NE(event_of_kind(r->events, "retire"), nullptr);
  EXPECT_EQ(plain_text(event_of_kind(r->events, "retire")->text), "red_foot retires 80 yds (80 yds rolled).");
  const Event* pursuit = event_of_kind(r->events, "pursue");
  ASSERT_NE(pursuit, nullptr);
  EXPECT_EQ(plain_text(pursuit->text),
            "blue_foot pursues red_foot (110 yds rolled): it catches it; free hack, 2 casualties; red_foot breaks.");
  ASSERT_NE(event_of_kind(r->events, "rout"), nullptr);
  EXPECT_EQ(dice.remaining(), 0u);
}

TEST(CfeoCombat, AChargeThatFallsShortStopsWhereItsDiceTakeIt) {
  const GameState s = face_to_face(blue_foot(), red_foot());
  const Decision* d = owed(s, "charge/blue_foot");
  ASSERT_NE(d, nullptr);
  FixedDice dice({2, 2});  // AvD 2 + 2 = 40 yds of the 100
  auto r = resolve(s, {answer(*d, "red_foot")}, dice);
  ASSERT_TRUE(r.ok()) << r.error().reason;
  EXPECT_NEAR(named(r->next, "blue_foot").position.y, 540, 1e-6);
  EXPECT_EQ(event_of_kind(r->events, "combat"), nullptr);
  EXPECT_EQ(plain_text(event_of_kind(r->events, "charge")->text),
            "blue_foot charges red_foot (40 yds rolled): it falls short by 60 yds.");
}

// Horse charging foot in line: the foot stands (it has no choice to make).
// Equal hits: Inconclusive, 2 DPs each; the cavalry that charged foot
// retires, the foot remains in place.
TEST(CfeoCombat, HorseThatChargesFootAndDrawsRetires) {
  UnitSpec horse = unit("blue_horse", Arm::kHorse, 4, {1000, 500}, 0);
  const GameState s = face_to_face(horse, red_foot());
  const Decision* d = owed(s, "charge/blue_horse");
  ASSERT_NE(d, nullptr);
  FixedDice dice({5, 5, 6,              // 2 AvD + D6: 160 yds
                  5, 1, 1, 1, 1,        // horse: 4 bases +1 charging = 5 dice, 1 hit
                  5, 1, 1, 1, 1,        // foot: 4 +1 line = 5 dice, 1 hit
                  2, 2, 1});            // the horse retires: (2+2+1 + 3 x 1) x 10 = 80 yds
  auto r = resolve(s, {answer(*d, "red_foot")}, dice);
  ASSERT_TRUE(r.ok()) << r.error().reason;
  EXPECT_EQ(named(r->next, "blue_horse").dps, 2u);
  EXPECT_EQ(named(r->next, "red_foot").dps, 2u);
  EXPECT_TRUE(named(r->next, "blue_horse").retiring);
  EXPECT_FALSE(named(r->next, "red_foot").retiring);
  EXPECT_EQ(dice.remaining(), 0u);
}

// Horse charged by horse may counter-charge or evade; counter-charging, it
// counts as charging too.
TEST(CfeoCombat, ChargedHorseMayCounterChargeOrEvade) {
  UnitSpec blue = unit("blue_horse", Arm::kHorse, 4, {1000, 500}, 0);
  UnitSpec red = unit("red_horse", Arm::kHorse, 4, {1000, 620}, 180);
  const GameState s = face_to_face(blue, red);
  const Decision* d = owed(s, "charge/blue_horse");
  ASSERT_NE(d, nullptr);
  FixedDice none({});
  auto declared = resolve(s, {answer(*d, "red_horse")}, none);
  ASSERT_TRUE(declared.ok()) << declared.error().reason;
  const Decision* response = owed(declared->next, "response/red_horse");
  ASSERT_NE(response, nullptr);
  EXPECT_EQ(response->seat, "red/w");
  EXPECT_EQ(options(*response), (std::vector<std::string>{"stand", "counter_charge", "evade"}));

  FixedDice dice({2, 2, 1,    // blue: 2+2+1 = 50 yds
                  2, 2, 1});  // red: 50 yds; together 100 of the 120
  auto met = resolve(declared->next, {answer(*response, "counter_charge")}, dice);
  ASSERT_TRUE(met.ok()) << met.error().reason;
  // Neither reached the other: no combat.
  EXPECT_EQ(event_of_kind(met->events, "combat"), nullptr);
  ASSERT_NE(event_of_kind(met->events, "counter_charge"), nullptr);
  // Red's share of the 120 yds is 60, more than its 50: it goes all it rolled.
  EXPECT_NEAR(named(met->next, "red_horse").position.y, 620 - 50, 1e-6);
}

// A charge into the rear: the target's front does not face the charger: it
// counts no bases, and takes -2.
TEST(CfeoCombat, AChargeIntoTheRearTakesTwoFromTheDefender) {
  UnitSpec blue = blue_foot();
  UnitSpec red = unit("red_foot", Arm::kFoot, 4, {1000, 620}, 0);  // its back to blue, 100 yds off
  const GameState s = face_to_face(blue, red);
  const Decision* d = owed(s, "charge/blue_foot");
  ASSERT_NE(d, nullptr);
  // Blue closes on red's rear: its four bases are in contact: 4 +1 charging
  // +1 line = 6 dice. Red counts no bases: 0 +1 (line)
  // -2 = no dice. No hits either way: Inconclusive, both remain.
  FixedDice dice({5, 6,                // 110 yds
                  1, 1, 1, 1, 1, 1});  // blue's 6 dice
  auto r = resolve(s, {answer(*d, "red_foot")}, dice);
  ASSERT_TRUE(r.ok()) << r.error().reason;
  const Event* combat = event_of_kind(r->events, "combat");
  ASSERT_NE(combat, nullptr);
  EXPECT_NE(plain_text(combat->text).find("red_foot 0 dice +1 (foot in line that did not fire by platoons) -2 (hit in "
                                          "flank/rear), 0 hits"),
            std::string::npos)
      << plain_text(combat->text);
  EXPECT_EQ(named(r->next, "red_foot").dps, 2u);
  EXPECT_EQ(dice.remaining(), 0u);
}

// A B Grade winner is free to choose: remain or pursue the retiring enemy,
// or take its position (foot).
TEST(CfeoAfterCombat, AnAGradeOrBGradeVictorChoosesItsMove) {
  UnitSpec blue = blue_foot();
  blue.grade = Grade::kB;
  const GameState s = face_to_face(blue, red_foot());
  const Decision* d = owed(s, "charge/blue_foot");
  ASSERT_NE(d, nullptr);
  FixedDice dice({5, 6,                   // 110 yds
                  6, 6, 6, 6, 1, 1, 1,    // blue: 4 +1 B +1 charging +1 line = 7 dice, 4 hits
                  1, 1, 1, 1, 1,          // red: 5 dice, none
                  3, 3});                 // red retires 80 yds
  auto r = resolve(s, {answer(*d, "red_foot")}, dice);
  ASSERT_TRUE(r.ok()) << r.error().reason;
  const Decision* after = owed(r->next, "after_combat/blue_foot");
  ASSERT_NE(after, nullptr);
  EXPECT_EQ(options(*after), (std::vector<std::string>{"remain", "pursue", "take_position"}));
  const double y = named(r->next, "blue_foot").position.y;
  FixedDice none({});
  auto took = resolve(r->next, {answer(*after, "take_position")}, none);
  ASSERT_TRUE(took.ok()) << took.error().reason;
  // Forward by the depth red stood in: one rank of foot, 20 yds.
  EXPECT_NEAR(named(took->next, "blue_foot").position.y, y + 20, 1e-6);
  // Its Victory DP is shed in the morale phase for taking the position.
  const Event* morale = event_of_kind(took->events, "morale");
  ASSERT_NE(morale, nullptr);
  EXPECT_EQ(plain_text(morale->text), "blue_foot removes 1 DP for morale: ride through or take the position after combat.");
  EXPECT_EQ(named(took->next, "blue_foot").dps, 0u);
}

// The morale phase: a friend of equal grade routing within 120 yds gives 2
// DPs; taking the position sheds one.
// The morale phase: a friend of equal grade routing within 120 yds gives 2
// DPs; a routing unit 240 yds or more from every enemy tests to stop.
TEST(CfeoMorale, AFriendRoutingNearbyCostsTwoDPsAndTheRouterTests) {
  UnitSpec friend_unit = unit("blue_second", Arm::kFoot, 2, {1200, 450}, 0);
  UnitSpec far_red = red_foot();
  far_red.position = {1000, 760};  // 260 yds from blue_foot
  // Blue's combat half owes nothing: nobody is within reach.
  GameState s = until(initial_state(spec({blue_foot(), friend_unit}, {far_red})), Phase::kMovement);
  s.units[0].routing = true;
  FixedDice dice({1});  // the rout test: 1, it routs on
  std::vector<Event> events;
  while (s.turn == 1) {
    std::vector<Answer> halt;
    for (const auto& d : pending(s)) halt.push_back(answer(d, d.default_option));
    auto r = resolve(s, halt, dice);
    ASSERT_TRUE(r.ok()) << r.error().reason;
    s = std::move(r->next);
    events.insert(events.end(), r->events.begin(), r->events.end());
  }
  const Event* morale = event_of_kind(events, "morale");
  ASSERT_NE(morale, nullptr);
  EXPECT_EQ(plain_text(morale->text),
            "blue_second takes 2 DPs for morale: equal or higher grade routing or destroyed in 120 yds (blue_foot).");
  const Event* test = event_of_kind(events, "rout_test");
  ASSERT_NE(test, nullptr);
  EXPECT_EQ(plain_text(test->text), "blue_foot tests to stop its rout: 1, it routs on.");
  EXPECT_TRUE(named(s, "blue_foot").routing);
  EXPECT_EQ(dice.remaining(), 0u);
}

// RULINGS C14. Blue's battalion faces red's 80 yds off.
TEST(CfeoCombat, HigherGroundAnObstacleInFrontOrAWoodsEdgeGivesTheAdvantageOfGround) {
  auto sp = spec({unit("blue_foot", Arm::kFoot, 2, {1000, 900}, 0)}, {unit("red_foot", Arm::kFoot, 2, {1000, 980}, 180)});
  const Target blue{Target::Kind::kUnit, 0};
  const Target red{Target::Kind::kUnit, 1};
  EXPECT_FALSE(advantage_of_ground(initial_state(sp), blue, {red}));
  EXPECT_FALSE(advantage_of_ground(initial_state(sp), red, {blue}));
  // Red on a hill: it is higher.
  TerrainSpec hill = specs::terrain("hill", TerrainShape::kHill, TerrainKind::kHill,
                                    {{900, 960}, {1100, 960}, {1100, 1100}, {900, 1100}});
  hill.elevation = 10;
  auto on_hill = sp;
  on_hill.terrain.push_back(hill);
  EXPECT_TRUE(advantage_of_ground(initial_state(on_hill), red, {blue}));
  EXPECT_FALSE(advantage_of_ground(initial_state(on_hill), blue, {red}));
  // A hedge 30 yds in front of red: red is behind it, blue is not.
  auto behind_hedge = sp;
  behind_hedge.terrain.push_back(specs::terrain("hedge", TerrainShape::kLinear, TerrainKind::kHedge, {{800, 955}, {1200, 955}}));
  EXPECT_TRUE(advantage_of_ground(initial_state(behind_hedge), red, {blue}));
  EXPECT_FALSE(advantage_of_ground(initial_state(behind_hedge), blue, {red}));
  // Blue at the edge of a wood, red outside it.
  auto in_wood = sp;
  in_wood.terrain.push_back(specs::terrain("wood", TerrainShape::kArea, TerrainKind::kWood,
                                           {{900, 700}, {1100, 700}, {1100, 905}, {900, 905}}));
  EXPECT_TRUE(advantage_of_ground(initial_state(in_wood), blue, {red}));
  EXPECT_FALSE(advantage_of_ground(initial_state(in_wood), red, {blue}));
  // The umpire's ruling wins either way.
  GameState ruled = initial_state(on_hill);
  ruled.units[1].ground_ruling = false;
  ruled.units[0].ground_ruling = true;
  EXPECT_FALSE(advantage_of_ground(ruled, red, {blue}));
  EXPECT_TRUE(advantage_of_ground(ruled, blue, {red}));
}

}  // namespace
}  // namespace galloper::rules::cfeo
