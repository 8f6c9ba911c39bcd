// Odds of a proposed charge or shot (OddsRequest) over a real WebSocket to a
// real server and SQLite store: asked by the seat that owes the decision when
// one arises in the demo game, answered from what that seat sees; a unit not
// the seat's, an enemy it cannot see, another seat's name and a malformed
// request are typed errors; asking stores nothing.
#include <chrono>
#include <optional>
#include <thread>

#include "tests/integration/game_driver.hpp"

namespace galloper::testing {
namespace {

struct Owed {
  std::string seat;
  v1::Decision decision;
};

class OddsTest : public StoredGameTest {
 protected:
  // The first decision of `kind` some seat owes now with an option `accept`s
  // (called with the decision id and the option id).
  template <class Accept>
  std::optional<Owed> owed(const std::string& kind, Accept accept) {
    Client umpire(port());
    umpire.hello();
    if (!join_game(umpire, game_.id, game_.tokens.at("umpire")).has_joined()) return std::nullopt;
    auto status = read_until(umpire, [](const v1::Envelope& m) { return m.has_seat_status(); });
    if (!status) return std::nullopt;
    for (const auto& seat : status->seat_status().owing()) {
      Client c(port());
      c.hello();
      if (!join_game(c, game_.id, game_.tokens.at(seat)).has_joined()) continue;
      auto d = read_until(c, [](const v1::Envelope& m) { return m.has_decisions(); });
      if (!d) continue;
      for (const auto& decision : d->decisions().decisions()) {
        if (decision.kind() != kind) continue;
        for (const auto& o : decision.options()) {
          if (accept(decision.id(), o.id())) return Owed{seat, decision};
        }
      }
    }
    return std::nullopt;
  }
  // Plays default steps until `find` finds something (at most `limit` steps).
  template <class Find>
  auto play_until(Find find, int limit) -> decltype(find()) {
    for (int n = 0; n <= limit; ++n) {
      if (auto found = find()) return found;
      if (n < limit && play_steps(port(), game_, 1) != 1) break;
    }
    return std::nullopt;
  }
  // The umpire moves a unit (an edit of the state, logged with its reason).
  void move(const std::string& unit, double x, double y, double facing) {
    auto umpire = joined("umpire");
    v1::Envelope e;
    e.mutable_umpire_action()->set_game_id(game_.id);
    e.mutable_umpire_action()->set_reason("set the table for the odds test");
    auto* edit = e.mutable_umpire_action()->mutable_edit_state();
    edit->set_kind("move");
    edit->set_subject(unit);
    edit->mutable_position()->set_x(x);
    edit->mutable_position()->set_y(y);
    edit->set_facing_deg(facing);
    auto done = umpire->call(e);
    // Just after the game is created the room may still be storing a step
    // it resolved by itself; the server says to send the edit again.
    for (int i = 0; i < 100 && done.has_error() && done.error().code() == v1::ERROR_CODE_UNAVAILABLE; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      done = umpire->call(e);
    }
    ASSERT_TRUE(done.has_umpire_done()) << done.DebugString();
  }
  v1::Envelope ask_shot(Client& c, const std::string& gun, const std::string& target, const std::string& seat = "") {
    v1::Envelope e;
    e.mutable_odds_request()->set_game_id(game_.id);
    e.mutable_odds_request()->set_seat(seat);
    e.mutable_odds_request()->mutable_shot()->set_gun(gun);
    e.mutable_odds_request()->mutable_shot()->set_target(target);
    return c.call(e);
  }
  v1::Envelope ask_charge(Client& c, const std::string& charger, const std::string& target, std::uint32_t dice) {
    v1::Envelope e;
    e.mutable_odds_request()->set_game_id(game_.id);
    auto* p = e.mutable_odds_request()->mutable_charge();
    p->set_charger(charger);
    p->set_target(target);
    p->set_dice(dice);
    return c.call(e);
  }
  // The odds of answering `decision` with `option` (OddsRequest.answer).
  v1::Envelope ask_answer(Client& c, const std::string& decision, const std::string& option, std::uint32_t dice = 0) {
    v1::Envelope e;
    e.mutable_odds_request()->set_game_id(game_.id);
    auto* p = e.mutable_odds_request()->mutable_answer();
    p->mutable_answer()->set_decision_id(decision);
    p->mutable_answer()->set_option(option);
    p->set_dice(dice);
    return c.call(e);
  }
  static void expect_whole(const v1::OddsReply& r) {
    ASSERT_GT(r.outcomes_size(), 0);
    double total = 0;
    for (const auto& o : r.outcomes()) {
      total += o.probability();
      if (o.denominator() != 0) {
        EXPECT_NEAR(static_cast<double>(o.numerator()) / static_cast<double>(o.denominator()), o.probability(), 1e-12)
            << o.label();
      }
    }
    EXPECT_NEAR(total, 1.0, 1e-9);
  }
  static void expect_error(const v1::Envelope& e, v1::ErrorCode code, const std::string& rule = "") {
    ASSERT_TRUE(e.has_error()) << e.DebugString();
    EXPECT_EQ(e.error().code(), code) << e.DebugString();
    EXPECT_FALSE(e.error().message().empty());
    if (!rule.empty()) {
      EXPECT_EQ(e.error().context().at("rule"), rule) << e.DebugString();
    }
  }
};

std::string after_slash(const std::string& id) { return id.substr(id.find('/') + 1); }

TEST_F(OddsTest, AShotWhenAFireDecisionArisesAndTypedErrorsChangeNothing) {
  // Schmettau's brigade to the far corner, more than 36" from every French
  // piece: an enemy the French do not see.
  move("schmettau", 6, 3, 0);
  auto fire = play_until(
      [&] { return owed("artillery_fire", [](const std::string&, const std::string& o) { return o != "hold"; }); }, 12);
  ASSERT_TRUE(fire) << "no gun was offered a target within 12 steps";
  const std::string gun = after_slash(fire->decision.id());
  std::string target;
  for (const auto& o : fire->decision.options()) {
    if (o.id() != "hold" && target.empty()) target = o.id();
  }
  const std::string before = steps_rows();
  auto seat = joined(fire->seat);

  auto reply = ask_shot(*seat, gun, target);
  ASSERT_TRUE(reply.has_odds_reply()) << reply.DebugString();
  expect_whole(reply.odds_reply());
  for (const auto& o : reply.odds_reply().outcomes()) EXPECT_EQ(6 % o.denominator(), 0u) << o.label();  // one D6
  EXPECT_NE(reply.odds_reply().summary().find(gun), std::string::npos);
  EXPECT_FALSE(reply.odds_reply().notes().empty());

  // The same question put as a candidate answer to the fire decision: the
  // same reply. The option carries the mark that says so.
  bool marked = false;
  for (const auto& o : fire->decision.options()) marked = marked || (o.id() == target && o.odds());
  EXPECT_TRUE(marked) << fire->decision.DebugString();
  auto answered = ask_answer(*seat, fire->decision.id(), target);
  ASSERT_TRUE(answered.has_odds_reply()) << answered.DebugString();
  EXPECT_EQ(answered.odds_reply().SerializeAsString(), reply.odds_reply().SerializeAsString());
  // Holding fire has no odds; neither has an option the decision does not
  // offer, whether it names a real piece or nothing: the same words.
  expect_error(ask_answer(*seat, fire->decision.id(), "hold"), v1::ERROR_CODE_INVALID_ARGUMENT, "no_odds");

  // The umpire asks as the gun's seat, and gets the same answer.
  auto umpire = joined("umpire");
  auto umpire_answered = ask_answer(*umpire, fire->decision.id(), target);
  ASSERT_TRUE(umpire_answered.has_odds_reply()) << umpire_answered.DebugString();
  EXPECT_EQ(umpire_answered.odds_reply().SerializeAsString(), reply.odds_reply().SerializeAsString());
  auto as_seat = ask_shot(*umpire, gun, target);
  ASSERT_TRUE(as_seat.has_odds_reply()) << as_seat.DebugString();
  EXPECT_EQ(as_seat.odds_reply().SerializeAsString(), reply.odds_reply().SerializeAsString());
  expect_error(ask_shot(*umpire, gun, target, "nobody/nowhere"), v1::ERROR_CODE_NOT_FOUND);

  // An enemy the seat does not see (in the umpire's view, not the seat's): the
  // same words as an id that does not exist.
  const v1::GameView mine = view_of(fire->seat);
  const v1::GameView all = view_of("umpire");
  std::string unseen;
  for (const auto& u : all.units()) {
    if (u.side() == mine.side() || u.kind() != v1::UNIT_KIND_BRIGADE) continue;
    bool seen = false;
    for (const auto& m : mine.units()) seen = seen || m.id() == u.id();
    if (!seen) unseen = u.id();
  }
  ASSERT_FALSE(unseen.empty()) << "every enemy brigade is in sight of " << fire->seat;
  auto hidden = ask_shot(*seat, gun, unseen);
  expect_error(hidden, v1::ERROR_CODE_INVALID_ARGUMENT, "unseen");
  auto missing = ask_shot(*seat, gun, "no_such_brigade");
  expect_error(missing, v1::ERROR_CODE_INVALID_ARGUMENT, "unseen");
  EXPECT_EQ(hidden.error().message().substr(unseen.size()), missing.error().message().substr(15));
  auto hidden_option = ask_answer(*seat, fire->decision.id(), unseen);
  auto made_up_option = ask_answer(*seat, fire->decision.id(), "no_such_brigade");
  expect_error(hidden_option, v1::ERROR_CODE_INVALID_ARGUMENT, "no_odds");
  expect_error(made_up_option, v1::ERROR_CODE_INVALID_ARGUMENT, "no_odds");
  EXPECT_EQ(hidden_option.error().message().substr(hidden_option.error().message().find(unseen) + unseen.size()),
            made_up_option.error().message().substr(made_up_option.error().message().find("no_such_brigade") + 15));
  // A decision that is not pending (another seat's is refused in the same
  // words: QuestionOfAnswer.AnotherSeatsDecisionIsRefusedAsOneThatDoesNotExist).
  expect_error(ask_answer(*seat, "fire/zz_made_up", target), v1::ERROR_CODE_INVALID_ARGUMENT, "not_pending");

  // Not the seat's gun: an enemy gun, asked about by this seat.
  std::string enemy_gun;
  for (const auto& u : all.units()) {
    if (u.side() != mine.side() && u.kind() == v1::UNIT_KIND_GUN) enemy_gun = u.id();
  }
  ASSERT_FALSE(enemy_gun.empty());
  expect_error(ask_shot(*seat, enemy_gun, target), v1::ERROR_CODE_PERMISSION_DENIED, "not_yours");
  // A player may not ask as another seat.
  expect_error(ask_shot(*seat, gun, target, "umpire"), v1::ERROR_CODE_PERMISSION_DENIED);
  // Malformed: no proposal; no target.
  v1::Envelope empty;
  empty.mutable_odds_request()->set_game_id(game_.id);
  expect_error(seat->call(empty), v1::ERROR_CODE_INVALID_ARGUMENT);
  expect_error(ask_shot(*seat, gun, ""), v1::ERROR_CODE_INVALID_ARGUMENT, "no_target");
  // A game the connection has not joined.
  v1::Envelope elsewhere;
  elsewhere.mutable_odds_request()->set_game_id("no-such-game");
  elsewhere.mutable_odds_request()->mutable_shot()->set_gun(gun);
  expect_error(seat->call(elsewhere), v1::ERROR_CODE_PERMISSION_DENIED);

  // A question, not an action: nothing was stored, the decision is still owed.
  EXPECT_EQ(steps_rows(), before);
  auto still = owed("artillery_fire", [&](const std::string&, const std::string& o) { return o == target; });
  ASSERT_TRUE(still);
  EXPECT_EQ(still->decision.id(), fire->decision.id());
}

TEST_F(OddsTest, AChargeWhenADeclarationArises) {
  // The umpire brings Lumley's horse to 4" from the French line, so a charge
  // is offered in the first combat phase, and Lumley, its major general, to
  // just behind it. Without him the horse is out of command (he starts 30"
  // away), takes a control test in the command phase and on a 1 or 2 halts
  // for the turn ("may not initiate a charge"): the game's seed is random, so
  // a third of runs offered no charge. In command there is no test and no die
  // decides whether the charge is offered.
  move("lumleys_horse", 26, 34, 0);
  move("lumley", 26, 32, 0);
  auto charge = play_until(
      [&] {
        return owed("charge_declaration", [](const std::string& d, const std::string& o) {
          return d == "charge/lumleys_horse" && o.rfind("charge:", 0) == 0;
        });
      },
      16);
  ASSERT_TRUE(charge) << "no charge was offered within 16 steps";
  const std::string charger = after_slash(charge->decision.id());
  const std::string before = steps_rows();
  auto seat = joined(charge->seat);
  // Every target the engine offers: the odds, or the reason there are none
  // (a path another unit blocks).
  std::string target;
  for (const auto& o : charge->decision.options()) {
    if (o.id().rfind("charge:", 0) != 0) continue;
    const std::string t = o.id().substr(7);
    auto reply = ask_charge(*seat, charger, t, 2);
    if (reply.has_error()) {
      expect_error(reply, v1::ERROR_CODE_INVALID_ARGUMENT, "no_path");
      continue;
    }
    ASSERT_TRUE(reply.has_odds_reply()) << reply.DebugString();
    if (target.empty()) target = t;
  }
  ASSERT_FALSE(target.empty()) << "no offered charge of " << charger << " has a clear path";
  for (std::uint32_t dice : {1u, 2u, 3u}) {
    auto reply = ask_charge(*seat, charger, target, dice);
    ASSERT_TRUE(reply.has_odds_reply()) << reply.DebugString();
    expect_whole(reply.odds_reply());
    EXPECT_EQ(reply.odds_reply().outcomes(0).label(), "no contact");
    EXPECT_EQ(reply.odds_reply().outcomes_size(), 8);
  }
  // The same charges put as candidate answers to the declaration: the same
  // replies, the dice assumed as asked (2 when not said).
  for (const std::uint32_t dice : {1u, 2u, 3u}) {
    auto answered = ask_answer(*seat, charge->decision.id(), "charge:" + target, dice);
    ASSERT_TRUE(answered.has_odds_reply()) << answered.DebugString();
    EXPECT_EQ(answered.odds_reply().SerializeAsString(),
              ask_charge(*seat, charger, target, dice).odds_reply().SerializeAsString());
  }
  EXPECT_EQ(ask_answer(*seat, charge->decision.id(), "charge:" + target).odds_reply().SerializeAsString(),
            ask_charge(*seat, charger, target, 2).odds_reply().SerializeAsString());
  expect_error(ask_answer(*seat, charge->decision.id(), "none"), v1::ERROR_CODE_INVALID_ARGUMENT, "no_odds");
  expect_error(ask_charge(*seat, charger, target, 4), v1::ERROR_CODE_INVALID_ARGUMENT, "dice");
  expect_error(ask_charge(*seat, target, charger, 2), v1::ERROR_CODE_PERMISSION_DENIED, "not_yours");
  // Declared charges may be blocked: Ross's dragoons have Ingoldsby's brigade
  // straight in front of them. The odds say so rather than guess.
  expect_error(ask_charge(*seat, "ross_dragoons", "artois", 2), v1::ERROR_CODE_INVALID_ARGUMENT, "no_path");
  EXPECT_EQ(steps_rows(), before);
}

}  // namespace
}  // namespace galloper::testing
