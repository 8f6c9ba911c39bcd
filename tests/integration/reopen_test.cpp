// A step whose answers collide when it resolves reopens for every seat, the
// one whose lock set it off included, over the real WebSocket. The game is the
// test-only scenario tests/browser/scenarios/collision.textproto (also the
// browser test reopen.test.mjs): Blue's two wings each side step their brigade
// 0.8" towards the other; each order passes the check alone, together they end
// on top of each other.
#include <algorithm>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>

#include "tests/integration/game_driver.hpp"
#include "tests/integration/harness.hpp"

namespace galloper::testing {
namespace {

const std::vector<std::string> kWings = {"blue/west", "blue/east"};
std::string brigade_of(const std::string& seat) { return seat == "blue/west" ? "blue_west" : "blue_east"; }
// Facing south, a brigade's left is east: the west one steps left, the east one right.
std::string towards_other(const std::string& seat) { return seat == "blue/west" ? "left" : "right"; }

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Seat {
  std::unique_ptr<Client> client;
  v1::DecisionsOwed owed;  // the newest for the open step
};

class Reopen : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = make_temp_dir("reopen");
    server_ = std::make_unique<ServerProcess>(dir_);
    server_->start();
    Client organiser(server_->port());
    ASSERT_TRUE(organiser.hello().has_welcome());
    v1::Envelope e;
    e.mutable_create_game()->set_scenario_text(read_text("tests/browser/scenarios/collision.textproto"));
    const auto created = organiser.call(e);
    ASSERT_TRUE(created.has_game_created()) << created.ShortDebugString();
    game_ = created.game_created().game_id();
    for (const auto& inv : created.game_created().invites()) {
      auto& s = seats_[inv.seat()];
      s.client = std::make_unique<Client>(server_->port());
      ASSERT_TRUE(s.client->hello().has_welcome());
      ASSERT_TRUE(join_game(*s.client, game_, inv.token()).has_joined()) << inv.seat();
    }
    for (const auto& w : kWings) ASSERT_TRUE(seats_.count(w)) << w;
  }
  void TearDown() override {
    seats_.clear();
    if (server_) {
      EXPECT_EQ(server_->stop(SIGTERM), 0);
    }
    std::filesystem::remove_all(dir_);
  }

  // The umpire's seat status of the next step someone owes.
  v1::SeatStatus owing() {
    auto m = read_until(*seats_["umpire"].client, [this](const v1::Envelope& e) {
      return e.has_seat_status() && e.seat_status().owing_size() > 0 && e.seat_status().step() > last_step_;
    });
    EXPECT_TRUE(m.has_value()) << server_->log();
    if (!m) return {};
    last_step_ = m->seat_status().step();
    return m->seat_status();
  }

  v1::DecisionsOwed decisions(const std::string& seat, std::uint64_t step) {
    // Pushed on their own, or as the `next` of the step that resolved before.
    auto m = read_until(*seats_[seat].client, [step](const v1::Envelope& e) {
      return (e.has_decisions() && e.decisions().step() == step) ||
             (e.has_step_resolved() && e.step_resolved().next().step() == step);
    });
    EXPECT_TRUE(m.has_value()) << seat << " was not sent its decisions for step " << step;
    if (!m) return {};
    return m->has_decisions() ? m->decisions() : m->step_resolved().next();
  }

  v1::Envelope answer(const std::string& seat, std::uint64_t step, const v1::Answer& a) {
    v1::Envelope e;
    e.mutable_submit_answer()->set_game_id(game_);
    e.mutable_submit_answer()->set_step(step);
    *e.mutable_submit_answer()->mutable_answer() = a;
    return seats_[seat].client->call(e);
  }

  v1::Envelope side_step(const std::string& seat, std::uint64_t step, double inches) {
    v1::Answer a;
    a.set_decision_id("move/" + brigade_of(seat));
    auto* st = a.add_steps();
    st->set_action("side_step");
    st->set_distance(inches);
    st->set_pivot(towards_other(seat));
    return answer(seat, step, a);
  }

  v1::Envelope lock(const std::string& seat, std::uint64_t step) {
    v1::Envelope e;
    e.mutable_lock_answers()->set_game_id(game_);
    e.mutable_lock_answers()->set_step(step);
    return seats_[seat].client->call(e);
  }

  std::filesystem::path dir_;
  std::unique_ptr<ServerProcess> server_;
  std::string game_;
  std::map<std::string, Seat> seats_;
  std::uint64_t last_step_ = 0;
};

TEST_F(Reopen, EverySeatAnswersAndLocksAgainTheLastToLockIncluded) {
  // Up to the movement orders: "manoeuvre" for both brigades, defaults elsewhere.
  std::uint64_t move_step = 0;
  v1::SeatStatus status;
  for (int round = 0; round < 12 && move_step == 0; ++round) {
    status = owing();
    const auto step = status.step();
    for (const auto& seat : status.owing()) {
      const auto owed = decisions(seat, step);
      for (const auto& d : owed.decisions()) {
        if (d.id() == "move/" + brigade_of(seat)) move_step = step;
        if (d.id() == "dice/" + brigade_of(seat)) {
          v1::Answer a;
          a.set_decision_id(d.id());
          a.set_option("manoeuvre");
          ASSERT_TRUE(answer(seat, step, a).has_answer_accepted()) << d.id();
        }
      }
    }
    if (move_step != 0) break;
    for (const auto& seat : status.owing()) ASSERT_TRUE(lock(seat, step).has_answers_locked()) << seat;
  }
  ASSERT_NE(move_step, 0u) << "the wings were asked for their brigades' orders";

  // The colliding orders; the wings lock last, blue/east the very last.
  for (const auto& w : kWings) {
    ASSERT_TRUE(side_step(w, move_step, 0.8).has_answer_accepted()) << w << ": each order passes the check alone";
  }
  std::vector<std::string> order;
  for (const auto& seat : status.owing()) {
    if (std::find(kWings.begin(), kWings.end(), seat) == kWings.end()) order.push_back(seat);
  }
  order.insert(order.end(), kWings.begin(), kWings.end());
  for (const auto& seat : order) ASSERT_TRUE(lock(seat, move_step).has_answers_locked()) << seat;

  // Every connection hears that the step reopened; every owing seat is sent
  // its decisions for the same step, unlocked, its answers kept.
  for (auto& [seat, s] : seats_) {
    const bool owes = std::find(order.begin(), order.end(), seat) != order.end();
    std::optional<v1::GameNotice> notice;
    std::optional<v1::DecisionsOwed> reopened;  // the seat's decisions sent unlocked after its lock
    read_until(*s.client, [&](const v1::Envelope& e) {
      if (e.has_notice() && e.notice().kind() == "reopened") notice = e.notice();
      if (e.has_decisions() && e.decisions().step() == move_step && !e.decisions().locked()) reopened = e.decisions();
      if (e.has_decisions() && e.decisions().locked()) reopened.reset();
      return notice.has_value() && (!owes || reopened.has_value());
    });
    ASSERT_TRUE(notice.has_value()) << seat << " was not told the step reopened";
    // The umpire is told why; a player that its step reopened, and which of
    // its own orders were involved -- never the other side's.
    const std::string opening = "step " + std::to_string(move_step) + " reopened: ";
    EXPECT_EQ(notice->text().rfind(opening, 0), 0u) << seat << ": " << notice->text();
    if (seat == "umpire") {
      EXPECT_NE(notice->text().find("would end on top of each other"), std::string::npos) << notice->text();
    } else {
      EXPECT_EQ(notice->text().rfind(opening + "orders collided when it resolved.", 0), 0u)
          << seat << ": " << notice->text();
    }
    if (seat.rfind("red/", 0) == 0) {
      EXPECT_EQ(notice->text().find("Blue"), std::string::npos) << seat << ": " << notice->text();
      EXPECT_EQ(notice->text().find("blue_"), std::string::npos) << seat << ": " << notice->text();
    }
    if (owes) seats_[seat].owed = reopened.value_or(v1::DecisionsOwed{});
  }
  for (const auto& seat : order) {
    const auto& owed = seats_[seat].owed;
    EXPECT_EQ(owed.step(), move_step) << seat << " was sent its decisions again, unlocked";
    if (std::find(kWings.begin(), kWings.end(), seat) != kWings.end()) {
      bool kept = false;
      for (const auto& a : owed.answers()) kept = kept || a.decision_id() == "move/" + brigade_of(seat);
      EXPECT_TRUE(kept) << seat << ": its order was kept";
    }
  }

  // Answer again (0.3": no collision) and lock again, the one that set off
  // the collision included: the step resolves.
  for (const auto& w : kWings) ASSERT_TRUE(side_step(w, move_step, 0.3).has_answer_accepted()) << w;
  for (const auto& seat : order) {
    const auto locked = lock(seat, move_step);
    ASSERT_TRUE(locked.has_answers_locked()) << seat << " could not lock again: " << locked.ShortDebugString();
  }
  auto resolved = read_until(*seats_["umpire"].client, [move_step](const v1::Envelope& e) {
    return e.has_step_resolved() && e.step_resolved().step() == move_step;
  });
  ASSERT_TRUE(resolved.has_value()) << server_->log();
  int moved = 0;
  for (const auto& e : resolved->step_resolved().events()) {
    for (const auto& w : kWings) {
      for (const auto& s : e.subjects()) moved += s == brigade_of(w) ? 1 : 0;
    }
  }
  EXPECT_GE(moved, 2) << "both brigades moved";
}

}  // namespace
}  // namespace galloper::testing
