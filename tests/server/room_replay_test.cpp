// The reducer is the one path from the log to the room: a game played live
// (bots in every seat, a connection on every seat) and the same log applied
// entry by entry through apply_entry send every seat the same messages, and
// end in the same state. Rooms without sockets (room_rig.hpp).
#include "tests/server/room_rig.hpp"

#include <algorithm>

#include "server/src/game/fanout.hpp"
#include "server/src/game/log_entry.hpp"
#include "server/src/game/reducer.hpp"
#include "server/src/game/restore.hpp"

namespace galloper::testing {
namespace {

v1::GameSettings bots_everywhere(const std::string& scenario, v1::Vision vision, v1::PlayMode mode) {
  v1::GameSettings settings;
  settings.set_vision(vision);
  settings.set_mode(mode);
  settings.set_spectator_delay_turns(1);
  auto loaded = codec::load_scenario(codec::find_bundled_scenario(scenario)->text, rules::Seed{});
  for (const auto& seat : std::get<codec::NewGame>(loaded).game->seats()) {
    if (seat.role == rules::SeatRole::kPlayer) settings.add_bot_seats(seat.id);
  }
  return settings;
}

// Pushes only: replies carry a correlation id, and a join's messages a resume token.
std::vector<v1::Envelope> pushes(const std::vector<v1::Envelope>& all) {
  std::vector<v1::Envelope> out;
  for (const auto& e : all) {
    if (e.correlation_id() == 0) out.push_back(e);
  }
  return out;
}

struct Case {
  const char* scenario;
  v1::Vision vision;
  v1::PlayMode mode;
};

class ReplayEqualsLive : public ::testing::TestWithParam<Case> {};

TEST_P(ReplayEqualsLive, EverySeatIsSentTheSameMessagesAndTheStatesAgree) {
  const auto c = GetParam();
  RoomRig rig(c.scenario, bots_everywhere(c.scenario, c.vision, c.mode));

  // Live: a connection on every seat, then play until 24 steps resolved.
  std::vector<std::shared_ptr<FakePeer>> live;
  for (const auto& s : rig.seats) live.push_back(rig.join(s.seat));
  for (auto& p : live) p->take();
  rig.room->start();
  auto resolved = [&] {
    int n = 0;
    for (const auto& e : live.front()->seen()) n += e.has_step_resolved() ? 1 : 0;
    return n;
  };
  while (resolved() < 24 && rig.run(2000) > 0) {
  }
  ASSERT_GE(resolved(), 24) << "the bots did not play on";
  const auto log = rig.log();

  // Replay: the same log through the reducer, effects performed by a fan-out
  // to the same seats joined at the same point.
  server::RoomState state(rig.record, rig.initial());
  server::SeatLinks links;
  links.init(state, rig.seats);
  server::Fanout fanout(state, links, rig.record);
  std::vector<std::shared_ptr<FakePeer>> replay;
  for (std::size_t i = 0; i < state.seats.size(); ++i) {
    auto peer = std::make_shared<FakePeer>(state.seats[i].seat.id);
    fanout.joined(i, peer, 1, links.attach(i, peer), v1::JoinGame{});
    peer->take();
    replay.push_back(peer);
  }
  for (const auto& record : log) {
    auto entry = server::decode_entry(record);
    ASSERT_TRUE(entry) << record.seq;
    auto applied = server::apply_entry(state, *entry, {record.seq, record.state_hash, record.superseded, false});
    ASSERT_TRUE(std::holds_alternative<server::Effects>(applied)) << std::get<std::string>(applied);
    const auto& effects = std::get<server::Effects>(applied);
    fanout.perform(effects);
    if (effects.ended) fanout.ended(*effects.status);
  }

  // Every message a seat got live, the replay sent it too, in the same order
  // (the live room may not yet have sent the effects of its last entries).
  for (std::size_t s = 0; s < live.size(); ++s) {
    const auto got = pushes(live[s]->seen());
    const auto again = pushes(replay[s]->seen());
    ASSERT_LE(got.size(), again.size()) << rig.seats[s].seat;
    ASSERT_GT(got.size(), 10u) << rig.seats[s].seat;
    for (std::size_t i = 0; i < got.size(); ++i) {
      ASSERT_TRUE(same(got[i], again[i])) << rig.seats[s].seat << " message " << i << "\nlive:\n"
                                          << got[i].ShortDebugString().substr(0, 2000) << "\nreplay:\n"
                                          << again[i].ShortDebugString().substr(0, 2000);
    }
  }

  // Loading (restore_state, from snapshots or not) reaches the state the
  // reducer reached, and the one the live room holds.
  server::RoomState loaded(rig.record, rig.initial());
  ASSERT_EQ(server::restore_state(loaded, log, {}, rig.metrics), std::nullopt);
  EXPECT_EQ(loaded.game->state_hash(), state.game->state_hash());
  EXPECT_EQ(loaded.history.size(), state.history.size());
  EXPECT_EQ(loaded.log_seq, state.log_seq);
  EXPECT_EQ(loaded.answers.size(), state.answers.size());
  EXPECT_EQ(loaded.locked, state.locked);
}

INSTANTIATE_TEST_SUITE_P(
    Games, ReplayEqualsLive,
    ::testing::Values(Case{"demo", v1::VISION_SIDE_SHARED, v1::PLAY_MODE_ALTERNATE},
                      Case{"demo", v1::VISION_WING_ONLY, v1::PLAY_MODE_SIMULTANEOUS},
                      Case{"cfeo/gadebusch", v1::VISION_SIDE_SHARED, v1::PLAY_MODE_ALTERNATE},
                      Case{"cfeo/fraustadt", v1::VISION_WING_ONLY, v1::PLAY_MODE_SIMULTANEOUS}),
    [](const auto& info) {
      std::string name = info.param.scenario;
      std::replace(name.begin(), name.end(), '/', '_');
      return name + (info.param.vision == v1::VISION_WING_ONLY ? "_wing" : "_shared") +
             (info.param.mode == v1::PLAY_MODE_SIMULTANEOUS ? "_simultaneous" : "_alternate");
    });

}  // namespace
}  // namespace galloper::testing
