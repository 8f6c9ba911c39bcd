// Malbrook "Combat Resolution", "Supported", "Bases in Combat", "Multiple
// brigade combats" and the Combat Results table, with FixedDice.
//
// The usual duel: fr_b1 (4 traditional foot bases, 1"x1", front edge y=10,
// x 14..18, facing north) and al_b1 opposite, front edge at y=10.5 facing
// south: both have the other within 1" to their front. "fr" has initiative,
// so with no charge it is side a and rolls first.
#include <gtest/gtest.h>

#include "rules/core/dice.hpp"
#include "rules/malbrook/combat.hpp"
#include "rules/malbrook/damage.hpp"
#include "rules/malbrook/engine.hpp"
#include "tests/rules/malbrook/combat_helpers.hpp"

namespace galloper::rules::malbrook {
namespace {

using test::brigade;
using test::combat_state;
using test::modifier;
using test::unit;

GameState foot_duel() {
  return combat_state({unit("fr_b1", "fr", TroopType::kFoot, {16, 10}, 0), unit("al_b1", "al", TroopType::kFoot, {16, 10.5}, 180)});
}

CombatResult assessed(const GameState& s, std::string_view id = "fr_b1") {
  auto r = assess_combat_of(s, id);
  EXPECT_TRUE(r.has_value());
  return r.value_or(CombatResult{});
}

TEST(CombatTable, BandsOfTheFullText) {
  // "+7 Breakthrough, +4/6 Victory, +2/3 Success, +1/-1, -2/-4 Driven Back,
  // -5/-6 Defeat, -7 Break" (the full text; the sheet's -5/-7 and -8 lose).
  EXPECT_EQ(combat_band(9), CombatBand::kBreakthrough);
  EXPECT_EQ(combat_band(7), CombatBand::kBreakthrough);
  EXPECT_EQ(combat_band(6), CombatBand::kVictory);
  EXPECT_EQ(combat_band(4), CombatBand::kVictory);
  EXPECT_EQ(combat_band(3), CombatBand::kSuccess);
  EXPECT_EQ(combat_band(2), CombatBand::kSuccess);
  EXPECT_EQ(combat_band(1), CombatBand::kInconclusive);
  EXPECT_EQ(combat_band(0), CombatBand::kInconclusive);
  EXPECT_EQ(combat_band(-1), CombatBand::kInconclusive);
  EXPECT_EQ(combat_band(-2), CombatBand::kDrivenBack);
  EXPECT_EQ(combat_band(-4), CombatBand::kDrivenBack);
  EXPECT_EQ(combat_band(-5), CombatBand::kDefeat);
  EXPECT_EQ(combat_band(-6), CombatBand::kDefeat);
  EXPECT_EQ(combat_band(-7), CombatBand::kBreak);
  EXPECT_EQ(combat_band(-12), CombatBand::kBreak);
}

TEST(CombatTable, DpsAndCasualtiesOfEachRow) {
  auto is = [](BandCost c, int dps, int cas) { return c.dps == dps && c.casualties == cas; };
  EXPECT_TRUE(is(band_cost(CombatBand::kBreakthrough, false), 0, 0));
  EXPECT_TRUE(is(band_cost(CombatBand::kVictory, false), 1, 0));
  EXPECT_TRUE(is(band_cost(CombatBand::kSuccess, false), 1, 0));
  EXPECT_TRUE(is(band_cost(CombatBand::kInconclusive, false), 1, 1));
  EXPECT_TRUE(is(band_cost(CombatBand::kInconclusive, true), 2, 1));  // "Take 2 DPs if charged a l'outrance"
  EXPECT_TRUE(is(band_cost(CombatBand::kDrivenBack, false), 2, 1));
  EXPECT_TRUE(is(band_cost(CombatBand::kDefeat, false), 2, 2));
  EXPECT_TRUE(is(band_cost(CombatBand::kBreak, false), 0, 3));
}

TEST(CombatResolve, FootWithinOneInchFightAndTakeTheTableResults) {
  GameState s = foot_duel();
  FixedDice dice{6, 6, 5, 5, 1, 1, 1, 6};  // fr 4 hits, al 1 hit
  std::vector<Event> ev;
  ASSERT_TRUE(combat_resolve(s, {}, dice, ev).ok());
  ASSERT_TRUE(combat_resolved(s));
  ASSERT_EQ(s.combat.results.size(), 1u);
  const CombatResult& r = s.combat.results[0];
  EXPECT_EQ(r.a.army, "fr");
  EXPECT_EQ(r.a.dice, 4);
  EXPECT_EQ(r.b.dice, 4);
  EXPECT_EQ(r.a.hits, 4);
  EXPECT_EQ(r.b.hits, 1);
  EXPECT_EQ(r.difference, 3);
  EXPECT_EQ(r.band_a, CombatBand::kSuccess);
  EXPECT_EQ(r.band_b, CombatBand::kDrivenBack);
  EXPECT_EQ(r.loser, "al");
  EXPECT_EQ(brigade(s, "fr_b1").dps, 1u);   // Success: 1 DP
  EXPECT_EQ(brigade(s, "al_b1").dps, 2u);   // Driven back: 2 DPs and 1 casualty
  EXPECT_EQ(brigade(s, "al_b1").bases, 3u);
  EXPECT_TRUE(brigade(s, "fr_b1").has(Status::kInCombat));
  EXPECT_EQ(brigade(s, "al_b1").combat_turn, 1u);
  // Foot against foot: any permitted action for the winner, retire for the loser.
  EXPECT_EQ(r.a.parts[0].options,
            (std::vector<AfterAction>{AfterAction::kRemain, AfterAction::kPursue, AfterAction::kTakePosition}));
  EXPECT_EQ(r.b.parts[0].options, (std::vector<AfterAction>{AfterAction::kRetire}));
  EXPECT_EQ(dice.remaining(), 0u);
}

TEST(CombatResolve, DefeatTakesTwoCasualtiesAndRetires) {
  GameState s = foot_duel();
  brigade(s, "fr_b1").grade = Grade::kA;  // +2: 6 dice
  brigade(s, "al_b1").bases = 6;
  brigade(s, "al_b1").position = {17, 10.5};  // 6" wide, x 14..20
  std::vector<Event> ev;
  const CombatResult r0 = assessed(s);
  ASSERT_EQ(r0.a.dice, 6);
  std::vector<int> faces(6, 6);
  for (int i = 0; i < r0.b.dice; ++i) faces.push_back(1);
  FixedDice d(faces);
  ASSERT_TRUE(combat_resolve(s, {}, d, ev).ok());
  const CombatResult& r = s.combat.results.at(0);
  EXPECT_EQ(r.difference, 6);
  EXPECT_EQ(r.band_b, CombatBand::kDefeat);
  EXPECT_EQ(brigade(s, "al_b1").bases, 4u);  // Defeat: 2 casualties
  EXPECT_EQ(r.b.parts[0].options, (std::vector<AfterAction>{AfterAction::kRetire}));
}

TEST(CombatModifiers, GradeInspirationDpsAndMarchColumn) {
  GameState s = foot_duel();
  brigade(s, "fr_b1").grade = Grade::kA;
  brigade(s, "fr_b1").inspire_actions = 2;
  brigade(s, "fr_b1").dps = 1;
  brigade(s, "al_b1").grade = Grade::kE;
  const CombatResult r = assessed(s);
  EXPECT_EQ(modifier(r.a, "grade"), 2);
  EXPECT_EQ(modifier(r.a, "inspired"), 2);
  EXPECT_EQ(modifier(r.a, "DPs"), -1);
  EXPECT_EQ(r.a.dice, 4 + 2 + 2 - 1);
  EXPECT_EQ(modifier(r.b, "grade"), -2);
  EXPECT_EQ(r.b.dice, 2);
  EXPECT_EQ(r.a.hit_on, 5);

  GameState t = foot_duel();
  brigade(t, "al_b1").formation = Formation::kMarchColumn;  // one base to the front
  const CombatResult c = assessed(t);
  EXPECT_EQ(c.b.bases, 1);
  EXPECT_EQ(c.b.hit_on, 6);  // "for every 6 rolled if ... in march column"
  EXPECT_EQ(modifier(c.b, "supported"), 1);  // 2+ ranks facing the enemy
}

TEST(CombatModifiers, DiceNeverBelowZero) {
  GameState s = foot_duel();
  brigade(s, "al_b1").grade = Grade::kE;
  brigade(s, "al_b1").dps = 4;
  const CombatResult r = assessed(s);
  EXPECT_EQ(r.b.dice, 0);
}

TEST(CombatModifiers, SupportedTwoRankLineButNotPlatoonFire) {
  GameState s = foot_duel();
  brigade(s, "fr_b1").formation = Formation::kTwoRankLine;
  brigade(s, "fr_b1").bases = 8;  // 4 + 4
  CombatResult r = assessed(s);
  EXPECT_EQ(r.a.bases, 4);  // "Only front rank bases are counted"
  EXPECT_EQ(modifier(r.a, "supported"), 1);
  EXPECT_EQ(modifier(r.b, "supported"), 0);

  // New style foot in a single line against infantry: +1 per 3 bases, never supported.
  GameState p = combat_state({unit("fr_b1", "fr", TroopType::kFoot, {16, 10}, 0, 6),
                              unit("al_b1", "al", TroopType::kFoot, {16, 10.5}, 180, 6)});
  brigade(p, "fr_b1").style = FightingStyle::kNew;  // 1" x 3/4" bases: 6" wide
  const CombatResult q = assessed(p);
  EXPECT_EQ(q.a.bases, 6);
  EXPECT_EQ(modifier(q.a, "platoon fire"), 2);
  EXPECT_EQ(modifier(q.b, "platoon fire"), 0);
}

// "Cavalry charging à l'outrance and foot giving fire by platoon never count
// as supported regardless of the number of ranks": new style foot fire by
// platoon in any formation (RULINGS C9), with or without the platoon bonus
// (which needs a single line against infantry).
TEST(CombatModifiers, PlatoonFiringFootAreNeverSupported) {
  GameState s = combat_state({unit("fr_b1", "fr", TroopType::kFoot, {16, 10}, 0, 8),
                              unit("al_b1", "al", TroopType::kFoot, {16, 10.5}, 180)});
  brigade(s, "fr_b1").style = FightingStyle::kNew;
  brigade(s, "fr_b1").formation = Formation::kTwoRankLine;  // 4 + 4 bases, 1" x 3/4"
  CombatResult r = assessed(s);
  EXPECT_EQ(r.a.bases, 4);
  EXPECT_EQ(modifier(r.a, "platoon fire"), 0);  // not a single line
  EXPECT_EQ(modifier(r.a, "supported"), 0);
  // In field column, against cavalry: still firing by platoon.
  GameState c = combat_state({unit("fr_b1", "fr", TroopType::kFoot, {16, 10}, 0, 6),
                              unit("al_h", "al", TroopType::kHorse, {16, 10.5}, 180)});
  brigade(c, "fr_b1").style = FightingStyle::kNew;
  brigade(c, "fr_b1").formation = Formation::kFieldColumn;
  r = assessed(c);
  EXPECT_EQ(modifier(r.a, "supported"), 0);
  // Traditional foot in the same field column are supported.
  brigade(c, "fr_b1").style = FightingStyle::kTraditional;
  r = assessed(c);
  EXPECT_EQ(modifier(r.a, "supported"), 1);
}

TEST(CombatModifiers, MultipleBrigadesMajorityGradeAndAverageDps) {
  GameState s = combat_state({unit("fr_b1", "fr", TroopType::kFoot, {16, 10}, 0),
                              unit("fr_b2", "fr", TroopType::kFoot, {20.5, 10}, 0),
                              unit("al_b1", "al", TroopType::kFoot, {18, 10.5}, 180, 8)});
  brigade(s, "fr_b1").grade = Grade::kB;
  brigade(s, "fr_b2").grade = Grade::kC;
  brigade(s, "fr_b1").dps = 1;
  brigade(s, "fr_b2").dps = 2;
  const CombatResult r = assessed(s);
  ASSERT_EQ(r.a.brigades.size(), 2u);
  // Equal numbers of B and C: the average (+0.5) rounded up: +1.
  EXPECT_EQ(modifier(r.a, "grade"), 1);
  // (1 + 2) / 2 rounded up: 2 DPs.
  EXPECT_EQ(modifier(r.a, "DPs"), -2);
  EXPECT_EQ(r.a.bases, 8);
}

TEST(CombatModifiers, AdvantageOfGroundUphillAndTheUmpiresRuling) {
  GameState s = foot_duel();
  Feature hill;
  hill.id = "h";
  hill.kind = TerrainKind::kHill;
  hill.points = {{13, 10.4}, {19, 10.4}, {19, 14}, {13, 14}};
  hill.closed = true;
  hill.elevation = 1;
  s.features = {hill};
  s.terrain = make_terrain_map(s.features);
  CombatResult r = assessed(s);
  EXPECT_EQ(modifier(r.b, "advantage of ground"), 1);  // al_b1 stands on the hill
  EXPECT_EQ(modifier(r.a, "advantage of ground"), 0);
  s.advantage_of_ground["al_b1"] = false;
  s.advantage_of_ground["fr_b1"] = true;
  r = assessed(s);
  EXPECT_EQ(modifier(r.b, "advantage of ground"), 0);
  EXPECT_EQ(modifier(r.a, "advantage of ground"), 1);
}

TEST(CombatResolve, CiviliansAreEliminated) {
  GameState s = combat_state({unit("fr_b1", "fr", TroopType::kFoot, {16, 10}, 0),
                              unit("al_c", "al", TroopType::kCivilians, {16, 10.5}, 180, 3)});
  FixedDice dice{};
  std::vector<Event> ev;
  ASSERT_TRUE(combat_resolve(s, {}, dice, ev).ok());
  EXPECT_TRUE(brigade(s, "al_c").has(Status::kDestroyed));
  EXPECT_EQ(brigade(s, "al_c").bases, 0u);
  EXPECT_TRUE(s.combat.results.empty());
}

TEST(CombatResolve, BrigadesApartAreNotInCombat) {
  GameState s = combat_state({unit("fr_b1", "fr", TroopType::kFoot, {16, 10}, 0),
                              unit("al_b1", "al", TroopType::kFoot, {16, 11.2}, 180)});
  EXPECT_FALSE(assess_combat_of(s, "fr_b1").has_value());
  // Out to 45° from the flanks: enemy off to the side but inside the arc count.
  GameState t = combat_state({unit("fr_b1", "fr", TroopType::kFoot, {16, 10}, 0),
                              unit("al_b1", "al", TroopType::kFoot, {20.6, 10.8}, 180)});
  const auto r = assess_combat_of(t, "fr_b1");
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->a.bases, 1);  // only fr_b1's right-hand base has al_b1 within 45°
}

TEST(AfterCombatOptions, CavalryAgainstFootAndTheGrades) {
  CombatBrigade cav;
  cav.type = TroopType::kHorse;
  cav.grade = Grade::kC;
  cav.charged = true;
  CombatSide foot;
  foot.foot = true;
  CombatBrigade f;
  f.type = TroopType::kFoot;
  foot.parts = {f};
  // Victory +4: the foot only driven back: "failed to defeat foot" -> retire.
  EXPECT_EQ(after_combat_options(cav, CombatBand::kVictory, foot, CombatBand::kDrivenBack),
            (std::vector<AfterAction>{AfterAction::kRetire}));
  // +5: defeated -> C-E pursue.
  EXPECT_EQ(after_combat_options(cav, CombatBand::kVictory, foot, CombatBand::kDefeat),
            (std::vector<AfterAction>{AfterAction::kPursue}));
  EXPECT_EQ(after_combat_options(cav, CombatBand::kSuccess, foot, CombatBand::kDrivenBack),
            (std::vector<AfterAction>{AfterAction::kRetire}));
  EXPECT_EQ(after_combat_options(cav, CombatBand::kInconclusive, foot, CombatBand::kInconclusive),
            (std::vector<AfterAction>{AfterAction::kRetire}));
  cav.grade = Grade::kA;
  EXPECT_EQ(after_combat_options(cav, CombatBand::kBreakthrough, foot, CombatBand::kBreak),
            (std::vector<AfterAction>{AfterAction::kPursue, AfterAction::kRemainWithDp, AfterAction::kRetire}));
  // Foot charged by cavalry only, driven back: remain in place.
  CombatSide horse;
  horse.cavalry = true;
  CombatBrigade h;
  h.type = TroopType::kHorse;
  h.charged = true;
  horse.parts = {h};
  f.grade = Grade::kC;
  EXPECT_EQ(after_combat_options(f, CombatBand::kDrivenBack, horse, CombatBand::kSuccess),
            (std::vector<AfterAction>{AfterAction::kRemain}));
  EXPECT_EQ(after_combat_options(f, CombatBand::kSuccess, horse, CombatBand::kDrivenBack),
            (std::vector<AfterAction>{AfterAction::kRemain}));
  EXPECT_EQ(after_combat_options(f, CombatBand::kBreak, horse, CombatBand::kBreakthrough),
            (std::vector<AfterAction>{AfterAction::kRout}));
  // À l'outrance against a single rank of cavalry, inconclusive: ride through.
  CombatBrigade hu;
  hu.type = TroopType::kHussars;
  hu.charged = true;
  hu.a_outrance = true;
  CombatSide line;
  line.cavalry = true;
  CombatBrigade l;
  l.type = TroopType::kHorse;
  l.single_rank = true;
  line.parts = {l};
  EXPECT_EQ(after_combat_options(hu, CombatBand::kInconclusive, line, CombatBand::kInconclusive),
            (std::vector<AfterAction>{AfterAction::kRideThrough2, AfterAction::kRideThrough3}));
  // Charged only guns, success: ride through.
  CombatSide guns;
  guns.guns = {"g1"};
  EXPECT_EQ(after_combat_options(h, CombatBand::kSuccess, guns, CombatBand::kDrivenBack),
            (std::vector<AfterAction>{AfterAction::kRideThrough2, AfterAction::kRideThrough3}));
}

// "Foot. Troops that fight on foot. This includes dismounted dragoons as well
// as infantry." Inconclusive: "Cavalry who charged foot retire. Cavalry who
// charged à l'outrance against dismounted dragoons or a single rank of enemy
// cavalry, ride-through": the second sentence names the dismounted dragoons
// the first would otherwise send back.
TEST(AfterCombatOptions, DismountedDragoonsAreFootYetHorseALOutranceRidesThroughThem) {
  EXPECT_TRUE(is_foot(TroopType::kDismountedDragoons));
  EXPECT_FALSE(is_cavalry(TroopType::kDismountedDragoons));
  EXPECT_TRUE(is_foot(TroopType::kFoot));
  CombatSide dragoons;
  dragoons.foot = true;
  CombatBrigade dd;
  dd.type = TroopType::kDismountedDragoons;
  dd.single_rank = true;
  dragoons.parts = {dd};
  CombatBrigade hu;
  hu.type = TroopType::kHussars;
  hu.grade = Grade::kD;
  hu.charged = true;
  hu.a_outrance = true;
  const std::vector<AfterAction> ride{AfterAction::kRideThrough2, AfterAction::kRideThrough3};
  EXPECT_EQ(after_combat_options(hu, CombatBand::kInconclusive, dragoons, CombatBand::kInconclusive), ride);
  // Charging at the trot they are cavalry who charged foot: retire.
  CombatBrigade trot = hu;
  trot.a_outrance = false;
  EXPECT_EQ(after_combat_options(trot, CombatBand::kInconclusive, dragoons, CombatBand::kInconclusive),
            (std::vector<AfterAction>{AfterAction::kRetire}));
  // So are those who charged à l'outrance and won a success: "Cavalry who charged foot retire".
  EXPECT_EQ(after_combat_options(hu, CombatBand::kSuccess, dragoons, CombatBand::kDrivenBack),
            (std::vector<AfterAction>{AfterAction::kRetire}));
  // Infantry beside the dragoons: not "against dismounted dragoons" only.
  CombatSide mixed = dragoons;
  CombatBrigade inf;
  inf.type = TroopType::kFoot;
  mixed.parts.push_back(inf);
  EXPECT_EQ(after_combat_options(hu, CombatBand::kInconclusive, mixed, CombatBand::kInconclusive),
            (std::vector<AfterAction>{AfterAction::kRetire}));
  // The dismounted dragoons charged by cavalry are foot: a success leaves them in place.
  CombatSide hussars;
  hussars.cavalry = true;
  hussars.parts = {hu};
  EXPECT_EQ(after_combat_options(dd, CombatBand::kSuccess, hussars, CombatBand::kDrivenBack),
            (std::vector<AfterAction>{AfterAction::kRemain}));
}

TEST(CombatPhase, PassesToMoraleWithNoCavalryAndCombatsResolved) {
  GameState s = foot_duel();
  EXPECT_TRUE(pending(s).empty());
  KeyedDice dice(s.seed, s.step);
  auto r = resolve(s, {}, dice);
  ASSERT_TRUE(r.ok()) << r.error().reason;
  // Resolved in the same step; after-combat choices (after_combat.hpp) may follow.
  EXPECT_TRUE(r->next.phase != Phase::kCombat || combat_resolved(r->next));
  bool combat = false;
  for (const auto& e : r->events) combat = combat || e.kind == "combat";
  EXPECT_TRUE(combat);
  if (r->next.phase == Phase::kCombat) {
    EXPECT_EQ(r->next.combat.results.size(), 1u);
  }
}


// fr_b1, formed horse, halted 0.4" in front of al_b1's (foot facing west)
// front, beside three of its bases, after flanking musketry was recorded.
TEST(FlankingMusketry, OneDiePerFiringBaseWithinAnInchFourToSixADpOnce) {
  GameState s = combat_state({unit("fr_b1", "fr", TroopType::kHorse, {19.6, 16}, 0),  // x 17.6..21.6, y 14.75..16
                              unit("al_b1", "al", TroopType::kFoot, {22, 14}, 270)});   // x 22..23, y 12..16
  record_flanking_fire(s, "fr_b1", "al_b1");
  std::vector<Event> ev;
  // al_b1's bases at y 13..16 have it within 1" in their 45° front arcs; the
  // one at 12..13 does not (its arc reaches y 14 at 1" ahead).
  FixedDice dice{4, 3, 6};
  roll_flanking_musketry(s, dice, ev);
  EXPECT_EQ(brigade(s, "fr_b1").dps, 2u);  // "1 DP for every 4-6 rolled"
  bool fired = false;
  for (const auto& e : ev) fired = fired || (e.kind == "flanking_musketry" && e.dice.size() == 3);
  EXPECT_TRUE(fired);
  // Once: nothing more is rolled.
  FixedDice none(std::vector<int>{});
  roll_flanking_musketry(s, none, ev);
  EXPECT_EQ(brigade(s, "fr_b1").dps, 2u);
  FixedDice low{3, 1, 2};
  GameState t = s;
  t.combat.flanking.front().rolled = false;
  roll_flanking_musketry(t, low, ev);
  EXPECT_EQ(brigade(t, "fr_b1").dps, 2u);  // 1-3: nothing
  // "without responding": they are not in close combat this turn.
  resolve_all_combats(s, none, ev);
  EXPECT_TRUE(s.combat.results.empty());

  // "The following turn the brigade may move freely without again taking
  // flanking fire from the same enemy": no new record; and standing within 1"
  // of the foot's front, it is now in close combat with it.
  s.turn += 1;
  record_flanking_fire(s, "fr_b1", "al_b1");
  EXPECT_TRUE(flanking_fire_given(s, "fr_b1", "al_b1"));
  EXPECT_EQ(s.combat.flanking.size(), 1u);
  const CombatResult r = assessed(s);
  EXPECT_EQ(r.a.parts.size() + r.b.parts.size(), 2u);
  // Two turns on, the same foot may fire on it again.
  s.turn += 1;
  EXPECT_FALSE(flanking_fire_given(s, "fr_b1", "al_b1"));
}

// "+1 if charging or pursuing", "+2 ... if cavalry pursuing" (+3 in all),
// "-1 opponent defending fieldworks", hits on 6 "if unformed ... or attacking
// fortifications".
TEST(CombatModifiers, FieldworksPursuitAndHitsOnSix) {
  GameState s = combat_state({unit("fr_h", "fr", TroopType::kHorse, {16, 10}, 0),
                              unit("al_b1", "al", TroopType::kFoot, {16, 10.05}, 180)});
  brigade(s, "fr_h").status |= static_cast<std::uint32_t>(Status::kPursuing);
  brigade(s, "fr_h").formation = Formation::kTwoRankLine;  // 2 ranks: supported, but not when pursuing
  brigade(s, "fr_h").bases = 8;
  CombatResult r = assessed(s, "fr_h");
  EXPECT_EQ(modifier(r.a, "pursuing"), 1);
  EXPECT_EQ(modifier(r.a, "cavalry pursuing"), 2);
  EXPECT_EQ(modifier(r.a, "supported"), 0);
  EXPECT_EQ(r.a.dice, 4 + 3);

  // Fieldworks in front of the foot: the horse lose a die; a fortification
  // instead makes them hit on 6 only.
  Linear works;
  works.id = "works";
  works.kind = LinearKind::kFieldworks;
  works.path = Polyline{{{12, 10.8}, {20, 10.8}}};  // on al_b1's side of the gap
  GameState f = combat_state({unit("fr_b1", "fr", TroopType::kFoot, {16, 10}, 0),
                              unit("al_b1", "al", TroopType::kFoot, {16, 11}, 180)});
  f.terrain = TerrainMap({}, {}, {works}, {});
  r = assessed(f);
  EXPECT_EQ(modifier(r.a, "opponent defending fieldworks"), -1);
  EXPECT_EQ(r.a.hit_on, 5);
  works.kind = LinearKind::kFortification;
  f.terrain = TerrainMap({}, {}, {works}, {});
  r = assessed(f);
  EXPECT_EQ(r.a.hit_on, 6);
  EXPECT_EQ(r.b.hit_on, 5);

  // Unformed foot hit on 6.
  GameState u = combat_state({unit("fr_b1", "fr", TroopType::kFoot, {16, 10}, 0),
                              unit("al_b1", "al", TroopType::kFoot, {16, 10.5}, 180)});
  brigade(u, "al_b1").formation = Formation::kUnformed;
  r = assessed(u);
  EXPECT_EQ(r.b.hit_on, 6);
  EXPECT_EQ(r.a.hit_on, 5);
}
}  // namespace
}  // namespace galloper::rules::malbrook
