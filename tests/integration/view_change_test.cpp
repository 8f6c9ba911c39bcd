// Views told as changes, over real WebSockets to a real server: a seat's
// connections keep its whole view by applying each StepResolved's change to
// the view they hold (codec::apply_change, as the web client does), and what
// they hold is what a fresh join shows. Among them, connections that stay all
// game, one that joins midway, and the connections play_steps opens and
// closes for the same seats every step.
#include <gtest/gtest.h>

#include <google/protobuf/util/message_differencer.h>

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tests/integration/game_driver.hpp"
#include "tests/integration/keep_view.hpp"

namespace galloper::testing {
namespace {

using google::protobuf::util::MessageDifferencer;

class ViewChangeTest : public StoredGameTest {};

// A connection holding a seat, and the seat's whole view as it keeps it.
struct Watcher {
  std::string seat;
  std::unique_ptr<Client> client;
  v1::GameView held;
  int changes = 0;
  int whole = 0;

  // Applies every message that came; fails the test on a change that does
  // not apply.
  void drain() {
    while (auto m = client->poll(std::chrono::milliseconds(300))) {
      if (m->has_view()) {
        held = m->view();
        ++whole;
      }
      if (!m->has_step_resolved()) continue;
      const auto& sr = m->step_resolved();
      if (sr.has_change()) {
        // A change carries only what changed since the view this connection
        // holds: no unit it holds as it is now.
        for (const auto& u : sr.view().units()) {
          for (const auto& h : held.units()) {
            if (h.id() != u.id()) continue;
            EXPECT_FALSE(MessageDifferencer::Equals(h, u)) << seat << " was sent " << u.id() << " unchanged";
          }
        }
        ++changes;
      } else {
        ++whole;
      }
      const auto wrong = keep_step_view(held, sr);
      ASSERT_FALSE(wrong) << seat << " step " << sr.step() << ": " << *wrong;
    }
  }
};

TEST_F(ViewChangeTest, ASeatsConnectionsKeepItsWholeViewByApplyingChanges) {
  std::string wing;
  for (const auto& [seat, token] : game_.tokens) {
    const bool army = seat.size() > 5 && seat.ends_with("/army");
    if (seat.find('/') != std::string::npos && !army) wing = seat;  // a wing's seat: "<army>/<wing>"
  }
  ASSERT_FALSE(wing.empty());
  std::vector<Watcher> watchers;
  auto watch = [&](const std::string& seat) {
    Watcher w{seat, std::make_unique<Client>(port()), {}, 0, 0};
    EXPECT_TRUE(w.client->hello().has_welcome());
    auto j = join_game(*w.client, game_.id, game_.tokens.at(seat));
    EXPECT_TRUE(j.has_joined()) << j.DebugString();
    w.held = j.joined().view();
    watchers.push_back(std::move(w));
  };
  watch("umpire");
  watch(wing);
  // The umpire resolves steps with the seats' defaults: nobody joins, so
  // every view after the first goes as a change to the one before.
  auto force = [&](int steps) {
    for (int i = 0; i < steps; ++i) {
      v1::Envelope e;
      e.mutable_umpire_action()->set_game_id(game_.id);
      e.mutable_umpire_action()->set_reason("test");
      e.mutable_umpire_action()->mutable_force_resolve();
      ASSERT_TRUE(watchers.front().client->call(e).has_umpire_done()) << server_->log();
      for (auto& w : watchers) w.drain();
    }
  };
  force(4);
  watch(wing);  // a second connection to the wing, midway
  force(3);
  // Connections to these seats that come and go (play_steps joins the
  // owing seats and the umpire anew every step).
  ASSERT_EQ(play_steps(port(), game_, 3), 3) << server_->log();
  for (auto& w : watchers) {
    w.drain();
    ASSERT_FALSE(::testing::Test::HasFatalFailure());
    EXPECT_GE(w.changes, 3) << w.seat << ": views were sent as changes";
    const v1::GameView fresh = view_of(w.seat);
    EXPECT_TRUE(MessageDifferencer::Equals(w.held, fresh))
        << w.seat << " holds\n"
        << w.held.ShortDebugString() << "\nbut a fresh join shows\n"
        << fresh.ShortDebugString();
  }
}

// A client of protocol 1.0 (before views as changes) on the same seat as one
// of 1.1: it gets every StepResolved with the view whole, the view the other
// builds from the changes.
TEST_F(ViewChangeTest, AClientOfProtocol10GetsWholeViews) {
  auto join = [&](unsigned minor) {
    auto c = std::make_unique<Client>(port());
    EXPECT_EQ(c->hello(1, minor).welcome().protocol().minor(), 1u);
    auto j = join_game(*c, game_.id, game_.tokens.at("umpire"));
    EXPECT_TRUE(j.has_joined()) << j.DebugString();
    return std::make_pair(std::move(c), j.joined().view());
  };
  auto [old_client, old_view] = join(0);
  auto [new_client, new_view] = join(1);
  Watcher watcher{"umpire", std::move(new_client), new_view, 0, 0};
  int whole = 0;
  for (int i = 0; i < 3; ++i) {
    v1::Envelope e;
    e.mutable_umpire_action()->set_game_id(game_.id);
    e.mutable_umpire_action()->set_reason("test");
    e.mutable_umpire_action()->mutable_force_resolve();
    ASSERT_TRUE(watcher.client->call(e).has_umpire_done()) << server_->log();
    // A forced step may be followed by steps nobody owes anything in: the
    // last view each connection was sent is compared.
    std::optional<v1::GameView> last;
    while (auto m = old_client->poll(std::chrono::milliseconds(300))) {
      if (!m->has_step_resolved()) continue;
      EXPECT_FALSE(m->step_resolved().has_change());
      last = m->step_resolved().view();
      ++whole;
    }
    ASSERT_TRUE(last) << server_->log();
    watcher.drain();
    ASSERT_FALSE(::testing::Test::HasFatalFailure());
    MessageDifferencer differ;
    std::string differences;
    differ.ReportDifferencesToString(&differences);
    EXPECT_TRUE(differ.Compare(*last, watcher.held)) << "step " << last->step() << ": " << differences;
  }
  EXPECT_GE(whole, 3);
  // The 1.1 client got them mostly as changes (a view whose kept units
  // changed order goes whole).
  EXPECT_GE(watcher.changes, 2);
}

}  // namespace
}  // namespace galloper::testing
