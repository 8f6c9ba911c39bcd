// Telling (rules/core/tell.hpp): each seat's copy of a text, an event and a
// decision, built from what that seat's views show.
#include "rules/core/tell.hpp"

#include <gtest/gtest.h>

#include <string>

namespace galloper::rules {
namespace {

UnitView unit(std::string id, UnitKind kind, std::string side, Knowledge k, std::string name = "",
              std::string troop_type = "") {
  UnitView u;
  u.id = std::move(id);
  u.kind = kind;
  u.side = std::move(side);
  u.knowledge = k;
  u.name = std::move(name);
  u.troop_type = std::move(troop_type);
  return u;
}

// The allied left wing's view: its own dragoons, a friend, two enemies it
// sees and a marker of where an enemy was.
View allied_view() {
  View v;
  v.seat = "allies/left";
  v.side = "allies";
  v.units.push_back(unit("ross", UnitKind::kBrigade, "allies", Knowledge::kOwn, "Ross's Dragoons", "dragoons"));
  v.units.push_back(unit("orkney", UnitKind::kBrigade, "allies", Knowledge::kFriendly, "Orkney's Foot", "foot"));
  v.units.push_back(unit("gendarmerie", UnitKind::kBrigade, "french", Knowledge::kSeen, "", "horse"));
  v.units.push_back(unit("french_guns", UnitKind::kGun, "french", Knowledge::kSeen, "", "heavy gun"));
  v.units.push_back(unit("tallard", UnitKind::kLeader, "french", Knowledge::kSeen));
  v.units.push_back(unit("navarre", UnitKind::kBrigade, "french", Knowledge::kLastSeen, "", "foot"));
  return v;
}

TEST(Tell, NamedSeenAndUnseenPieces) {
  const SeatKnowledge seat(allied_view());
  EXPECT_EQ(seat("ross").level, Known::Level::kNamed);
  EXPECT_EQ(seat("ross").label, "Ross's Dragoons");
  EXPECT_EQ(seat("ross").id, "ross");
  EXPECT_EQ(seat("orkney").level, Known::Level::kNamed);
  EXPECT_EQ(seat("gendarmerie").level, Known::Level::kSeen);
  EXPECT_EQ(seat("gendarmerie").label, "an enemy brigade of horse");
  EXPECT_EQ(seat("gendarmerie").id, "gendarmerie");
  EXPECT_EQ(seat("french_guns").label, "an enemy heavy gun");
  EXPECT_EQ(seat("tallard").label, "an enemy leader");
  // A marker of where it was is not knowing it is there; a piece absent from the view is unknown.
  EXPECT_EQ(seat("navarre").level, Known::Level::kUnseen);
  EXPECT_EQ(seat("navarre").id, "");
  EXPECT_EQ(seat("picardie").level, Known::Level::kUnseen);
  EXPECT_EQ(seat("picardie").label, "");
  EXPECT_FALSE(seat.umpire());
}

TEST(Tell, ASeenEnemyIsNeverToldByItsName) {
  View v = allied_view();
  v.units[2].name = "Gendarmerie de France";  // a view that (wrongly) carried it
  const SeatKnowledge seat(v);
  const std::string told = tell_text(ref("gendarmerie") + " charges " + ref("ross") + ".", seat);
  EXPECT_EQ(told, "An enemy brigade of horse charges Ross's Dragoons.");
  EXPECT_EQ(told.find("Gendarmerie"), std::string::npos);
}

TEST(Tell, RefsRenderedPerLevelAndLabelsCapitalisedOnlyToStartASentence) {
  const SeatKnowledge seat(allied_view());
  EXPECT_EQ(tell_text(ref("ross") + " charges " + ref("gendarmerie") + ".", seat),
            "Ross's Dragoons charges an enemy brigade of horse.");
  EXPECT_EQ(tell_text(ref("navarre") + " declares none. " + ref("picardie") + " moves.", seat),
            "An unseen unit declares none. An unseen unit moves.");
  EXPECT_EQ(tell_text("Combat t1c1: " + ref("tallard") + " is hit.", seat), "Combat t1c1: an enemy leader is hit.");
  // A name is told as written, whatever its case.
  View v = allied_view();
  v.units[0].name = "de la Motte";
  EXPECT_EQ(tell_text(ref("ross") + " halts.", SeatKnowledge(v)), "de la Motte halts.");
  // A piece with no name is told by its id.
  v.units[0].name.clear();
  EXPECT_EQ(tell_text(ref("ross") + " halts.", SeatKnowledge(v)), "ross halts.");
}

TEST(Tell, AboutIsSaidOnlyToSeatsThatSeeThePiece) {
  const SeatKnowledge seat(allied_view());
  EXPECT_EQ(tell_text(ref("gendarmerie") + " declares a charge" + about("gendarmerie", " (35.11\" away)") + ".", seat),
            "An enemy brigade of horse declares a charge (35.11\" away).");
  EXPECT_EQ(tell_text(ref("navarre") + " declares a charge" + about("navarre", " (35.11\" away)") + ".", seat),
            "An unseen unit declares a charge.");
  // Nested: said only to a seat that sees both.
  EXPECT_EQ(tell_text("Charged" + about("ross", about("navarre", " at 12\"")) + ".", seat), "Charged.");
  EXPECT_EQ(tell_text("Charged" + about("ross", about("gendarmerie", " at 12\"")) + ".", seat), "Charged at 12\".");
  // A span may hold references of its own.
  EXPECT_EQ(tell_text(about("ross", ref("ross") + " rides 5\".") + about("navarre", " " + ref("navarre") + " rides."), seat),
            "Ross's Dragoons rides 5\".");
  // Spaces left at the ends by spans not said go.
  EXPECT_EQ(tell_text(about("navarre", ref("navarre") + " declares 2.") + about("ross", " " + ref("ross") + " declares 2."),
                      seat),
            "Ross's Dragoons declares 2.");
}

TEST(Tell, KnownToIsSaidOnlyToSeatsThatKnowThePieceByName) {
  const SeatKnowledge seat(allied_view());
  EXPECT_EQ(tell_text(ref("ross") + " rides" + known_to("ross", " towards Cutts") + ".", seat),
            "Ross's Dragoons rides towards Cutts.");
  EXPECT_EQ(tell_text(ref("tallard") + " sends a messenger" + known_to("tallard", " to Marsin") + ".", seat),
            "An enemy leader sends a messenger.");
  View umpire;
  umpire.seat = "umpire";
  EXPECT_EQ(tell_text(known_to("tallard", "Tallard listens."), SeatKnowledge(umpire)), "Tallard listens.");
}

TEST(Tell, MalformedMarkupEndsTheTextAndLeaksNothing) {
  const SeatKnowledge seat(allied_view());
  const std::string secret = about("navarre", " navarre stands at (10, 20)");
  // A span never closed: nothing of it, nor after it, is told.
  std::string open = "Before." + secret;
  open.pop_back();
  EXPECT_EQ(tell_text(open + " After.", seat), "Before.");
  // A kept span never closed is taken back too.
  std::string kept = "Before." + about("ross", " ross at (1, 2)");
  kept.pop_back();
  EXPECT_EQ(tell_text(kept, seat), "Before.");
  // A reference never closed, a stray closer or separator: stop there.
  EXPECT_EQ(tell_text("A " + std::string("\x1E") + "navarre", seat), "A");
  EXPECT_EQ(tell_text("A \x1C B", seat), "A");
  EXPECT_EQ(tell_text("A \x1F B", seat), "A");
  EXPECT_EQ(tell_text("A \x1D" "navarre B \x1C C", seat), "A");  // an id running into the text
  EXPECT_EQ(tell_text("A " + ref("navarre\x1Cx") + " B", seat), "A");
  // Nothing at all, and a text with no markup.
  EXPECT_EQ(tell_text("", seat), "");
  EXPECT_EQ(tell_text("Turn 2 begins.", seat), "Turn 2 begins.");
  // Nested spans: an inner one not said drops only itself; an outer one not said drops all within.
  EXPECT_EQ(tell_text("x" + about("ross", "a" + about("navarre", "b") + "c") + "y", seat), "xacy");
  EXPECT_EQ(tell_text("x" + about("navarre", "a" + about("ross", "b") + "c") + "y", seat), "xy");
}

TEST(Tell, TheUmpireKnowsEveryPieceByName) {
  View v;
  v.seat = "umpire";
  v.units.push_back(unit("gendarmerie", UnitKind::kBrigade, "french", Knowledge::kUmpire, "Gendarmerie", "horse"));
  const SeatKnowledge umpire(v);
  EXPECT_TRUE(umpire.umpire());
  EXPECT_EQ(umpire("gendarmerie").label, "Gendarmerie");
  // Gone from the table before the step: known all the same, by id.
  EXPECT_EQ(umpire("navarre").level, Known::Level::kNamed);
  EXPECT_EQ(umpire("navarre").label, "navarre");
  EXPECT_EQ(tell_text(ref("navarre") + " charges " + ref("gendarmerie") + about("navarre", " from 3\"") + ".", umpire),
            "navarre charges Gendarmerie from 3\".");
}

TEST(Tell, PlainTextTellsEveryIdAndKeepsEverySpan) {
  EXPECT_EQ(plain_text(ref("navarre") + " charges " + ref("ross") + about("ross", " (3\" away)") +
                       known_to("navarre", " on orders") + "."),
            "navarre charges ross (3\" away) on orders.");
  std::string open = "A" + about("x", " secret");
  open.pop_back();
  EXPECT_EQ(plain_text(open), "A");
}

TEST(Tell, TheViewBeforeTheStepKeepsWhatTheSeatSawThen) {
  View before = allied_view();
  View after = allied_view();
  // Gendarmerie rode out of sight; Navarre came into it; Ross was destroyed.
  after.units.erase(after.units.begin() + 2);
  after.units.erase(after.units.begin());
  after.units.push_back(unit("navarre", UnitKind::kBrigade, "french", Knowledge::kSeen, "", "foot"));
  after.units.erase(after.units.begin() + 3);  // its marker
  const SeatKnowledge seat(after, &before);
  EXPECT_EQ(seat("gendarmerie").level, Known::Level::kSeen);
  EXPECT_EQ(seat("navarre").level, Known::Level::kSeen);
  EXPECT_EQ(seat("navarre").label, "an enemy brigade of foot");
  EXPECT_EQ(seat("ross").level, Known::Level::kNamed);
  // Without the view before, what left the table or the seat's sight is unknown.
  const SeatKnowledge now(after);
  EXPECT_EQ(now("gendarmerie").level, Known::Level::kUnseen);
  EXPECT_EQ(now("ross").level, Known::Level::kUnseen);
}

Event charge_event() {
  Event e;
  e.kind = "charge_declared";
  e.text = ref("gendarmerie") + " declares a charge on " + ref("navarre_ally") +
           about("gendarmerie", about("navarre_ally", " (35.11\" away)")) + ".";
  e.subjects = {"gendarmerie", "navarre_ally"};
  e.where = {{{10, 20}, "gendarmerie"}, {{30, 40}, "navarre_ally"}, {{5, 5}, ""}};
  e.dice = {DieRoll{DieKind::kD6, 4, 1, 6}};
  return e;
}

TEST(Tell, AnEventReachesASeatThatSeesOneOfItsSubjectsAndTellsOnlyWhatItSees) {
  const SeatKnowledge seat(allied_view());
  const auto told = tell_event(charge_event(), seat);
  ASSERT_TRUE(told.has_value());
  EXPECT_EQ(told->kind, "charge_declared");
  EXPECT_EQ(told->text, "An enemy brigade of horse declares a charge on an unseen unit.");
  EXPECT_EQ(told->subjects, std::vector<std::string>{"gendarmerie"});
  ASSERT_EQ(told->where.size(), 2u);
  EXPECT_EQ(told->where[0], (Place{{10, 20}, "gendarmerie"}));
  EXPECT_EQ(told->where[1], (Place{{5, 5}, ""}));  // a point of the event itself
  EXPECT_EQ(told->dice, charge_event().dice);
  EXPECT_FALSE(told->is_public);

  // A seat that sees no subject learns nothing of it.
  Event hidden = charge_event();
  hidden.subjects = {"navarre", "picardie"};
  EXPECT_FALSE(tell_event(hidden, seat).has_value());
  // ... unless it is public.
  hidden.is_public = true;
  const auto pub = tell_event(hidden, seat);
  ASSERT_TRUE(pub.has_value());
  EXPECT_TRUE(pub->subjects.empty());
  EXPECT_EQ(pub->where.size(), 2u);  // Gendarmerie's place and the event's own point
  // The umpire learns of all, whole.
  View umpire_view;
  umpire_view.seat = "umpire";
  const auto all = tell_event(charge_event(), SeatKnowledge(umpire_view));
  ASSERT_TRUE(all.has_value());
  EXPECT_EQ(all->text, "gendarmerie declares a charge on navarre_ally (35.11\" away).");
  EXPECT_EQ(all->subjects, charge_event().subjects);
  EXPECT_EQ(all->where, charge_event().where);
}

TEST(Tell, AnEventWhoseWholeTextIsForOthersIsNotTold) {
  Event e;
  e.kind = "orders_changed";
  e.text = known_to("tallard", ref("tallard") + " receives new orders.");
  e.subjects = {"tallard"};
  EXPECT_FALSE(tell_event(e, SeatKnowledge(allied_view())).has_value());
  View french;
  french.seat = "french/army";
  french.side = "french";
  french.units.push_back(unit("tallard", UnitKind::kLeader, "french", Knowledge::kOwn, "Tallard"));
  const auto told = tell_event(e, SeatKnowledge(french));
  ASSERT_TRUE(told.has_value());
  EXPECT_EQ(told->text, "Tallard receives new orders.");
}

TEST(Tell, ADecisionIsToldToItsSeat) {
  Decision d;
  d.id = "charge/ross";
  d.seat = "allies/left";
  d.kind = "charge_declaration";
  d.subjects = {"ross", "navarre"};
  d.prompt = "Does " + ref("ross") + " charge?";
  d.options = {{"none", "No charge"}, {"charge:gendarmerie", "Charge " + ref("gendarmerie"), "gendarmerie"}};
  d.default_option = "none";
  d.limits = {{"gap:gendarmerie", 12.5}};
  const Decision told = tell_decision(d, SeatKnowledge(allied_view()));
  EXPECT_EQ(told.id, d.id);
  EXPECT_EQ(told.prompt, "Does Ross's Dragoons charge?");
  EXPECT_EQ(told.subjects, std::vector<std::string>{"ross"});
  ASSERT_EQ(told.options.size(), 2u);
  EXPECT_EQ(told.options[1].id, "charge:gendarmerie");  // ids are answers: plain, unchanged
  EXPECT_EQ(told.options[1].label, "Charge an enemy brigade of horse");
  EXPECT_EQ(told.options[1].piece, "gendarmerie");
  EXPECT_EQ(told.default_option, "none");
  EXPECT_EQ(told.limits, d.limits);
}

}  // namespace
}  // namespace galloper::rules
