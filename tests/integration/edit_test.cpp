// Umpire edits of the state through the real server and a real SQLite file:
// every seat is sent its new view, the audit trail lists the edit with its
// reason, players and illegal edits are refused with nothing stored, the edit
// survives a restart and the log with edits replays and verifies; a rewind to
// before an edit undoes it.
#include <functional>

#include "tests/integration/game_driver.hpp"

namespace galloper::testing {
namespace {

const v1::UnitView* unit_in(const v1::GameView& view, const std::string& id) {
  for (const auto& u : view.units()) {
    if (u.id() == id) return &u;
  }
  return nullptr;
}

class EditTest : public StoredGameTest {
 protected:
  v1::Envelope edit(Client& c, const std::string& reason, const std::function<void(v1::EditState*)>& fill) {
    v1::Envelope e;
    e.mutable_umpire_action()->set_game_id(game_.id);
    e.mutable_umpire_action()->set_reason(reason);
    fill(e.mutable_umpire_action()->mutable_edit_state());
    return c.call(e);
  }
  static void move_scots(v1::EditState* s) {
    s->set_kind("move");
    s->set_subject("royal_scots");
    s->mutable_position()->set_x(24);
    s->mutable_position()->set_y(20);
    s->set_facing_deg(0);
  }
  std::vector<std::string> audit(Client& umpire) {
    v1::Envelope a;
    a.mutable_list_audit()->set_game_id(game_.id);
    auto trail = umpire.call(a);
    EXPECT_TRUE(trail.has_audit_trail()) << trail.DebugString();
    std::vector<std::string> out;
    for (const auto& e : trail.audit_trail().entries()) out.push_back(e.action() + ":" + e.reason() + ":" + e.detail());
    return out;
  }
  void end_replay_and_verify() {
    {
      auto c = joined("umpire");
      end_game(*c);
      if (HasFatalFailure()) return;
      auto late = edit(*c, "after the end", [](v1::EditState* s) {
        s->set_kind("set_dps");
        s->set_subject("ingoldsby");
        s->set_value(1);
      });
      EXPECT_TRUE(late.has_error()) << "an ended game's state is final";
    }
    stop();
    expect_replays_and_verifies();
  }
};

TEST_F(EditTest, UmpireEditsReachEverySeatAreAuditedAndSurviveARestart) {
  auto umpire = joined("umpire");
  auto allies = joined("allies/left");
  auto french = joined("french/droite");

  auto done = edit(*umpire, "Royal Scots were set up 10\" short", move_scots);
  ASSERT_TRUE(done.has_umpire_done()) << done.DebugString() << server_->log();
  EXPECT_EQ(done.umpire_done().action(), "edit_state");
  // The owning seat sees where its brigade now stands; every seat is told.
  auto view = read_until(*allies, [](const v1::Envelope& m) { return m.has_view(); });
  ASSERT_TRUE(view);
  const auto* scots = unit_in(view->view(), "royal_scots");
  ASSERT_NE(scots, nullptr);
  EXPECT_DOUBLE_EQ(scots->position().x(), 24);
  EXPECT_DOUBLE_EQ(scots->position().y(), 20);
  // Players are told the table changed, not what or why: the edit names a
  // unit and where it went. The umpire's notice says both.
  auto notice = read_until(*allies, [](const v1::Envelope& m) { return m.has_notice() && m.notice().kind() == "edited"; });
  ASSERT_TRUE(notice);
  EXPECT_EQ(notice->notice().text().find("Royal Scots"), std::string::npos) << notice->notice().text();
  EXPECT_EQ(notice->notice().text().find("royal_scots"), std::string::npos) << notice->notice().text();
  auto told_umpire =
      read_until(*umpire, [](const v1::Envelope& m) { return m.has_notice() && m.notice().kind() == "edited"; });
  ASSERT_TRUE(told_umpire);
  EXPECT_NE(told_umpire->notice().text().find("Royal Scots were set up 10\" short"), std::string::npos);
  EXPECT_NE(told_umpire->notice().text().find("royal_scots"), std::string::npos);
  EXPECT_TRUE(read_until(*french, [](const v1::Envelope& m) { return m.has_view(); })) << "every seat gets a new view";
  auto french_notice =
      read_until(*french, [](const v1::Envelope& m) { return m.has_notice() && m.notice().kind() == "edited"; });
  ASSERT_TRUE(french_notice);
  EXPECT_EQ(french_notice->notice().text().find("royal_scots"), std::string::npos) << french_notice->notice().text();

  auto dps = edit(*umpire, "fatigue from the march", [](v1::EditState* s) {
    s->set_kind("set_dps");
    s->set_subject("royal_scots");
    s->set_value(2);
  });
  ASSERT_TRUE(dps.has_umpire_done()) << dps.DebugString();
  EXPECT_EQ(unit_in(view_of("umpire"), "royal_scots")->dps(), 2u);

  // Refused, and nothing stored: a player; an edit the rules refuse; no reason.
  const std::string rows = steps_rows();
  auto by_player = edit(*allies, "I'd like to be closer", move_scots);
  ASSERT_TRUE(by_player.has_error());
  EXPECT_EQ(by_player.error().code(), v1::ERROR_CODE_PERMISSION_DENIED);
  auto overlapping = edit(*umpire, "stack them", [](v1::EditState* s) {
    s->set_kind("move");
    s->set_subject("ingoldsby");
    s->mutable_position()->set_x(25);
    s->mutable_position()->set_y(20);
  });
  ASSERT_TRUE(overlapping.has_error()) << overlapping.DebugString();
  EXPECT_EQ(overlapping.error().code(), v1::ERROR_CODE_INVALID_ARGUMENT);
  EXPECT_NE(overlapping.error().message().find("overlap brigade royal_scots"), std::string::npos)
      << overlapping.error().message();
  EXPECT_EQ(overlapping.error().context().at("code"), "overlap");
  auto too_many = edit(*umpire, "heavy losses", [](v1::EditState* s) {
    s->set_kind("set_dps");
    s->set_subject("royal_scots");
    s->set_value(9);
  });
  ASSERT_TRUE(too_many.has_error());
  EXPECT_EQ(too_many.error().code(), v1::ERROR_CODE_INVALID_ARGUMENT);
  auto unknown = edit(*umpire, "teleport", [](v1::EditState* s) {
    s->set_kind("teleport");
    s->set_subject("royal_scots");
  });
  ASSERT_TRUE(unknown.has_error());
  auto no_reason = edit(*umpire, "", move_scots);
  ASSERT_TRUE(no_reason.has_error());
  EXPECT_EQ(no_reason.error().code(), v1::ERROR_CODE_INVALID_ARGUMENT);
  EXPECT_EQ(steps_rows(), rows) << "a refused edit stores nothing";

  const auto trail = audit(*umpire);
  ASSERT_EQ(trail.size(), 2u);
  EXPECT_EQ(trail[0], "edit_state:Royal Scots were set up 10\" short:move royal_scots to (24, 20) facing 0");
  EXPECT_EQ(trail[1], "edit_state:fatigue from the march:set_dps royal_scots value 2");

  umpire.reset();
  allies.reset();
  french.reset();
  const auto before = view_of("umpire");
  stop();
  EXPECT_EQ(first_line(query("SELECT count(*) FROM steps WHERE game_id = '" + game_.id + "' AND kind = 'edit' AND state_hash != 0;")),
            "2");
  start();
  const auto after = view_of("umpire");
  EXPECT_EQ(unit_in(after, "royal_scots")->position().y(), 20);
  EXPECT_EQ(unit_in(after, "royal_scots")->dps(), 2u);
  EXPECT_EQ(audit(*joined("umpire")), trail) << "the audit trail survives a restart";

  // Play on from the edited state: snapshots and later loads start from it.
  ASSERT_EQ(play_steps(port(), game_, 12), 12) << server_->log();
  const auto played = view_of("umpire");
  stop();
  start();
  auto again = view_of("umpire");
  again.clear_deadline_unix();
  auto expected = played;
  expected.clear_deadline_unix();
  EXPECT_EQ(again.DebugString(), expected.DebugString());
  end_replay_and_verify();
}

TEST_F(EditTest, ARewindToBeforeAnEditUndoesIt) {
  ASSERT_EQ(play_steps(port(), game_, 2), 2) << server_->log();
  auto umpire = joined("umpire");
  const auto original = view_of("umpire");
  const auto step = original.step();
  const auto* scots = unit_in(original, "royal_scots");
  ASSERT_NE(scots, nullptr);
  const double y = scots->position().y();
  // Somewhere free, well behind the allied lines.
  auto done = edit(*umpire, "moved by mistake", [](v1::EditState* s) {
    s->set_kind("move");
    s->set_subject("royal_scots");
    s->mutable_position()->set_x(12);
    s->mutable_position()->set_y(24);
  });
  ASSERT_TRUE(done.has_umpire_done()) << done.DebugString();
  ASSERT_EQ(unit_in(view_of("umpire"), "royal_scots")->position().y(), 24);

  v1::Envelope rewind;
  rewind.mutable_umpire_action()->set_game_id(game_.id);
  rewind.mutable_umpire_action()->set_reason("undo the edit");
  rewind.mutable_umpire_action()->mutable_rewind()->set_to_step(step);
  ASSERT_TRUE(umpire->call(rewind).has_umpire_done()) << server_->log();
  EXPECT_EQ(unit_in(view_of("umpire"), "royal_scots")->position().y(), y) << "the rewind undid the edit";
  const auto trail = audit(*umpire);
  ASSERT_EQ(trail.size(), 2u);
  EXPECT_NE(trail[0].find("(undone by a rewind)"), std::string::npos) << trail[0];
  EXPECT_EQ(trail[1].substr(0, 7), "rewind:");

  umpire.reset();
  stop();
  EXPECT_EQ(first_line(query("SELECT count(*) FROM steps WHERE game_id = '" + game_.id + "' AND kind = 'edit' AND superseded = 1;")),
            "1");
  start();
  EXPECT_EQ(unit_in(view_of("umpire"), "royal_scots")->position().y(), y) << "still undone after a restart";
  end_replay_and_verify();
}

}  // namespace
}  // namespace galloper::testing
