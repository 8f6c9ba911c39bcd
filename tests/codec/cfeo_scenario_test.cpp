// Close Fire & European Order's scenarios: the `cfeo` forces read, every
// check of meaning (each at its field), the game made of them, its seats and
// what each seat is shown.
#include <gtest/gtest.h>

#include <google/protobuf/text_format.h>

#include <algorithm>
#include <string>

#include "galloper/v1/scenario.pb.h"
#include "rules/cfeo/codec/cfeo_ruleset.hpp"
#include "rules/cfeo/game.hpp"
#include "rules/cfeo/scenario.hpp"

namespace galloper::codec {
namespace {

// A small action that passes every check. Swedes at the south edge facing
// north, Danes 600 yards away facing south; a wood between them on the west.
const std::string kSmall = R"pb(name: "small"
title: "Small action"
ruleset: "cfeo"
table_width: 2000
table_depth: 1400
turn_limit: 8
attacker: "swedes"
terrain {
  id: "wood"
  area {
    kind: AREA_KIND_WOOD
    outline { x: 100 y: 600 }
    outline { x: 500 y: 600 }
    outline { x: 500 y: 800 }
    outline { x: 100 y: 800 }
  }
}
cfeo {
  sides {
    id: "swedes"
    name: "Swedish army"
    style: CAVALRY_STYLE_NEW
    marshal { id: "stenbock" name: "Stenbock" position { x: 1000 y: 100 } }
    wings {
      id: "centre"
      name: "Centre"
      general { id: "posse" name: "Posse" position { x: 1000 y: 200 } }
      brigades {
        id: "guards"
        name: "Guards brigade"
        brigadier { id: "guards_bde" position { x: 1000 y: 330 } attached_to: "life_guards" }
        units {
          id: "life_guards" name: "Life Guards" arm: ARM_FOOT grade: GRADE_A bases: 4
          formation: FORMATION_LINE position { x: 1000 y: 400 } pike_bases: 1
        }
        units {
          id: "uppland" name: "Uppland regiment" arm: ARM_FOOT grade: GRADE_B bases: 4
          formation: FORMATION_ASSAULT_COLUMN position { x: 1300 y: 400 }
        }
        guns { id: "regt_gun" type: GUN_TYPE_BATTALION position { x: 1100 y: 420 } with_unit: "life_guards" }
      }
    }
  }
  sides {
    id: "danes"
    name: "Danish army"
    style: CAVALRY_STYLE_TRADITIONAL
    marshal { id: "reventlow" name: "Reventlow" position { x: 1900 y: 1380 } facing: 180 }
    wings {
      id: "left"
      name: "Left wing"
      general { id: "rantzau" name: "Rantzau" position { x: 1000 y: 1200 } facing: 180 }
      brigades {
        id: "horse"
        name: "Horse brigade"
        brigadier { id: "horse_bde" position { x: 1000 y: 1100 } facing: 180 }
        units {
          id: "jutland" name: "Jutland horse" arm: ARM_HORSE grade: GRADE_C bases: 4 ranks: 2
          formation: FORMATION_LINE position { x: 1000 y: 1000 } facing: 180
        }
        units {
          id: "hidden_foot" name: "Hidden foot" arm: ARM_FOOT grade: GRADE_D bases: 3
          formation: FORMATION_LINE position { x: 300 y: 700 } facing: 180
        }
      }
    }
  }
}
victory { objectives { id: "village" at { x: 1000 y: 700 } radius: 100 points: 1 } }
)pb";

v1::scenario::Scenario parse(const std::string& text) {
  v1::scenario::Scenario s;
  EXPECT_TRUE(google::protobuf::TextFormat::ParseFromString(text, &s));
  return s;
}

std::string path_of(const rules::FieldPath& path) {
  std::string out;
  for (const auto& step : path) {
    if (!out.empty()) out += ".";
    out += step.field;
    if (step.index >= 0) out += "[" + std::to_string(step.index) + "]";
  }
  return out;
}

// "path: message" for each problem.
std::vector<std::string> problems(const std::string& text) {
  std::vector<std::string> out;
  for (const auto& p : cfeo_ruleset().check(parse(text))) out.push_back(path_of(p.where) + ": " + p.message);
  return out;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

TEST(CfeoScenario, TheSmallActionPassesEveryCheck) { EXPECT_EQ(problems(kSmall), std::vector<std::string>{}); }

TEST(CfeoScenario, TheFormsAreReadAsWritten) {
  const auto spec = cfeo_spec(parse(kSmall));
  ASSERT_EQ(spec.sides.size(), 2u);
  const auto& guards = spec.sides[0].wings[0].brigades[0];
  EXPECT_EQ(guards.units[0].grade, rules::cfeo::Grade::kA);
  EXPECT_EQ(guards.units[0].pike_bases, 1u);
  EXPECT_EQ(guards.units[1].formation, rules::cfeo::Formation::kAssaultColumn);
  EXPECT_EQ(guards.guns[0].type, rules::cfeo::GunType::kBattalion);
  EXPECT_EQ(guards.guns[0].with_unit, "life_guards");
  EXPECT_EQ(spec.sides[1].wings[0].brigades[0].units[0].ranks, 2u);
  EXPECT_EQ(spec.sides[1].style, rules::cfeo::CavalryStyle::kTraditional);
  ASSERT_EQ(spec.terrain.size(), 1u);
  EXPECT_EQ(spec.terrain[0].kind, rules::TerrainKind::kWood);
}

TEST(CfeoScenario, EachMistakeIsNamedAtItsField) {
  struct Case {
    std::string from, to, expected;
  };
  const std::vector<Case> cases = {
      {"table_width: 2000", "table_width: 0", "table_width: table_width must be greater than 0 yards, not 0"},
      {"turn_limit: 8", "", "turn_limit: turn_limit is missing or 0: a game needs at least one turn"},
      {"attacker: \"swedes\"", "attacker: \"wood\"", "attacker: attacker \"wood\" is not a side of this scenario"},
      {"style: CAVALRY_STYLE_NEW", "",
       "cfeo.sides[0].style: side \"swedes\": style is missing (CAVALRY_STYLE_TRADITIONAL or _NEW)"},
      {"grade: GRADE_B", "",
       "cfeo.sides[0].wings[0].brigades[0].units[1].grade: unit \"uppland\": grade is missing (GRADE_A to GRADE_E)"},
      {"bases: 3", "bases: 13",
       "cfeo.sides[1].wings[0].brigades[0].units[1].bases: unit \"hidden_foot\": a unit has 1-12 bases, not 13"},
      {"pike_bases: 1", "pike_bases: 5",
       "cfeo.sides[0].wings[0].brigades[0].units[0].pike_bases: unit \"life_guards\": 5 pike bases of 4 bases"},
      {"ranks: 2", "ranks: 2 skirmishers: true",
       "cfeo.sides[1].wings[0].brigades[0].units[0].skirmishers: unit \"jutland\": only foot skirmish"},
      {"with_unit: \"life_guards\"", "with_unit: \"jutland\"",
       "cfeo.sides[0].wings[0].brigades[0].guns[0].with_unit: gun \"regt_gun\": with_unit \"jutland\" is not a foot "
       "unit of the gun's own brigade"},
      {"attached_to: \"life_guards\"", "attached_to: \"jutland\"",
       "cfeo.sides[0].wings[0].brigades[0].brigadier.attached_to: leader \"guards_bde\": attached_to \"jutland\" is "
       "not a unit of side \"swedes\""},
      {"position { x: 1300 y: 400 }", "position { x: 2300 y: 400 }",
       "cfeo.sides[0].wings[0].brigades[0].units[1].position: unit \"uppland\": position (2300, 400) is off the 2000 "
       "x 1400 yard table"},
      {"id: \"uppland\"", "id: \"jutland\"",
       "cfeo.sides[1].wings[0].brigades[0].units[0].id: id \"jutland\" is already used by a unit; ids must be unique "
       "across the scenario"},
      {"general { id: \"rantzau\" name: \"Rantzau\" position { x: 1000 y: 1200 } facing: 180 }", "",
       "cfeo.sides[1].wings[0]: wing \"left\" has no general: each wing must have a leader on the table"},
      {"radius: 100", "radius: 0", "victory.objectives[0].radius: objective \"village\": radius must be greater than 0 yards"},
      {"kind: AREA_KIND_WOOD", "", "terrain[0].area.kind: terrain feature \"wood\": kind is missing (AREA_KIND_WOOD, _TOWN, _MARSH or _ROUGH)"},
  };
  for (const Case& c : cases) {
    const auto found = problems(replaced(kSmall, c.from, c.to));
    EXPECT_NE(std::find(found.begin(), found.end(), c.expected), found.end())
        << "changing " << c.from << "\nexpected: " << c.expected << "\nfound:\n"
        << [&] {
             std::string all;
             for (const auto& f : found) all += "  " + f + "\n";
             return all;
           }();
  }
}

TEST(CfeoScenario, AThirdSideIsRefused) {
  const std::string third = replaced(kSmall, "  sides {\n    id: \"danes\"", "  sides { id: \"saxons\" }\n  sides {\n    id: \"danes\"");
  const auto found = problems(third);
  EXPECT_NE(std::find(found.begin(), found.end(), "cfeo.sides[2]: a scenario has exactly two sides; this one has 3"),
            found.end());
}

class CfeoGameTest : public ::testing::Test {
 protected:
  std::unique_ptr<rules::Game> game = cfeo_ruleset().make_game(parse(kSmall), rules::Seed{});

  const rules::UnitView* unit(const rules::View& v, const std::string& id) {
    for (const auto& u : v.units) {
      if (u.id == id) return &u;
    }
    return nullptr;
  }
};

TEST_F(CfeoGameTest, SeatsAreTheUmpireEachMarshalAndEachWing) {
  std::vector<std::string> ids;
  for (const auto& s : game->seats()) ids.push_back(s.id + " | " + s.side + " | " + s.scope + " | " + s.description);
  EXPECT_EQ(ids, (std::vector<std::string>{
                     "umpire |  |  | Umpire",
                     "swedes/army | swedes |  | Swedish army (Marshal Stenbock)",
                     "swedes/centre | swedes | centre | Swedish army: Centre (General Posse)",
                     "danes/army | danes |  | Danish army (Marshal Reventlow)",
                     "danes/left | danes | left | Danish army: Left wing (General Rantzau)",
                 }));
  EXPECT_EQ(game->ruleset(), "cfeo");
  EXPECT_EQ(game->phase(), "bombardment");
  EXPECT_EQ(game->turn(), 1u);
}

TEST_F(CfeoGameTest, TheUmpireSeesEveryPiece) {
  const auto v = game->view_for("umpire", {});
  EXPECT_EQ(v.unit_name, "yard");
  // 4 units, 1 gun, 6 leaders.
  EXPECT_EQ(v.units.size(), 11u);
  for (const auto& u : v.units) EXPECT_EQ(u.knowledge, rules::Knowledge::kUmpire) << u.id;
  ASSERT_NE(unit(v, "hidden_foot"), nullptr);
  EXPECT_EQ(unit(v, "hidden_foot")->name, "Hidden foot");
}

TEST_F(CfeoGameTest, AWingSeesItsOwnInFullAndOnlyTheEnemiesItsTroopsSee) {
  const auto v = game->view_for("swedes/centre", {});
  const auto* guards = unit(v, "life_guards");
  ASSERT_NE(guards, nullptr);
  EXPECT_EQ(guards->knowledge, rules::Knowledge::kOwn);
  EXPECT_EQ(guards->name, "Life Guards");
  EXPECT_EQ(guards->grade, "A");
  EXPECT_EQ(guards->base_count, 4u);
  EXPECT_EQ(guards->formation, "line");
  // The Jutland horse stand 600 yards off in the open: seen, as it stands,
  // without name, grade or chain of command.
  const auto* horse = unit(v, "jutland");
  ASSERT_NE(horse, nullptr);
  EXPECT_EQ(horse->knowledge, rules::Knowledge::kSeen);
  EXPECT_EQ(horse->troop_type, "horse");
  EXPECT_EQ(horse->name, "");
  EXPECT_EQ(horse->grade, "");
  EXPECT_EQ(horse->command, "");
  EXPECT_EQ(horse->attributes, std::vector<rules::UnitAttribute>{});
  // Foot inside the wood, 300 yards and more from every Swede: not there.
  EXPECT_EQ(unit(v, "hidden_foot"), nullptr);
  // The Danish marshal, 1,100 yards and more from every Swede: beyond sight.
  EXPECT_EQ(unit(v, "reventlow"), nullptr);
}

TEST_F(CfeoGameTest, WithWingOnlyVisionAFriendIsShownOnlyWhenSeen) {
  const auto shared = game->view_for("swedes/army", {});
  ASSERT_NE(unit(shared, "life_guards"), nullptr);
  EXPECT_EQ(unit(shared, "life_guards")->knowledge, rules::Knowledge::kFriendly);
  EXPECT_EQ(unit(shared, "stenbock")->knowledge, rules::Knowledge::kOwn);
  rules::ViewSettings wing_only;
  wing_only.side_shared_vision = false;
  // The marshal stands 300 yards behind the guards and sees them.
  const auto own_eyes = game->view_for("swedes/army", wing_only);
  ASSERT_NE(unit(own_eyes, "life_guards"), nullptr);
  EXPECT_EQ(unit(own_eyes, "life_guards")->knowledge, rules::Knowledge::kFriendly);
}

TEST_F(CfeoGameTest, AnUnknownSeatSeesOnlyTheTable) {
  const auto v = game->view_for("nobody", {});
  EXPECT_TRUE(v.units.empty());
  EXPECT_EQ(v.terrain.size(), 1u);
  EXPECT_EQ(v.table_width, 2000);
}

TEST_F(CfeoGameTest, AttributesAndAttachmentsAreShownToTheirOwnSeat) {
  const auto v = game->view_for("swedes/centre", {});
  const auto* guards = unit(v, "life_guards");
  ASSERT_NE(guards, nullptr);
  EXPECT_EQ(guards->attributes, (std::vector<rules::UnitAttribute>{{"pikes", "1 base"}}));
  ASSERT_NE(unit(v, "regt_gun"), nullptr);
  EXPECT_EQ(unit(v, "regt_gun")->attached_to, "life_guards");
  EXPECT_EQ(unit(v, "guards_bde")->attached_to, "life_guards");
  EXPECT_EQ(unit(v, "guards_bde")->rank, "brigadier");
}

TEST_F(CfeoGameTest, TheHashIsTheStatesAndOptionsChangeIt) {
  const auto again = cfeo_ruleset().make_game(parse(kSmall), rules::Seed{});
  EXPECT_EQ(game->state_hash(), again->state_hash());
  rules::GameOptions simultaneous;
  simultaneous.simultaneous = true;
  EXPECT_NE(game->with_options(simultaneous)->state_hash(), game->state_hash());
  EXPECT_EQ(game->clone()->state_hash(), game->state_hash());
  const auto moved = cfeo_ruleset().make_game(parse(replaced(kSmall, "x: 1300 y: 400", "x: 1310 y: 400")), rules::Seed{});
  EXPECT_NE(moved->state_hash(), game->state_hash());
}

}  // namespace
}  // namespace galloper::codec
