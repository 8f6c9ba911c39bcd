#pragma once
// A room without sockets or files: the real Room over the in-memory store, a
// manual clock, and fake peers that keep every message they are sent. Runs
// on one io_context polled by the test, so a test decides when time passes.
#include <google/protobuf/text_format.h>
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <boost/asio/io_context.hpp>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "codec/scenario_codec.hpp"
#include "persistence/memory_store.hpp"
#include "server/src/clock.hpp"
#include "server/src/game/room.hpp"
#include "server/src/metrics.hpp"
#include "server/src/notify/notifier.hpp"
#include "server/src/tools/log_check.hpp"
#include "server/src/tokens.hpp"

namespace galloper::testing {

namespace v1 = galloper::v1;

class FakePeer final : public server::Peer {
 public:
  explicit FakePeer(std::string name) : name_(std::move(name)) {}
  void send(server::OutgoingPtr message) override {
    std::lock_guard lock(mu_);
    got_.push_back(message->envelope());
  }
  std::string describe() const override { return "fake peer " + name_; }
  void set_seat(std::string, std::string) override {}
  bool takes_view_changes() const override { return true; }

  std::vector<v1::Envelope> take() {
    std::lock_guard lock(mu_);
    return std::exchange(got_, {});
  }
  std::vector<v1::Envelope> seen() const {
    std::lock_guard lock(mu_);
    return got_;
  }

 private:
  std::string name_;
  mutable std::mutex mu_;
  std::vector<v1::Envelope> got_;
};

struct RoomRig {
  boost::asio::io_context ioc;
  std::unique_ptr<persistence::Store> store = persistence::make_memory_store();
  server::ManualClock clock;
  server::Metrics metrics;
  server::Notifier notifier{ioc};
  persistence::GameRecord record;
  std::vector<persistence::SeatRecord> seats;
  std::map<std::string, std::string> tokens;  // seat -> invite token
  std::shared_ptr<server::Room> room;

  // A game of a bundled scenario with these settings, stored and loaded as the lobby does.
  RoomRig(std::string_view scenario, const v1::GameSettings& settings) {
    const auto* bundled = codec::find_bundled_scenario(scenario);
    EXPECT_NE(bundled, nullptr);
    rules::Seed seed{};
    for (std::size_t i = 0; i < seed.size(); ++i) seed[i] = static_cast<std::uint8_t>(7 * i + 3);
    record.id = "groomtest";
    record.title = "room test";
    record.scenario_name = std::string(scenario);
    record.scenario_text = std::string(bundled->text);
    record.seed.assign(seed.begin(), seed.end());
    record.seed_commitment = server::seed_commitment(seed, record.id);
    google::protobuf::TextFormat::PrintToString(settings, &record.settings);
    auto game = initial();
    record.ruleset = std::string(game->ruleset());
    for (const auto& seat : game->seats()) add_seat(seat.id, seat.description);
    add_seat("spectator", "Spectators");
    store->create_game(record, seats, [](persistence::Status s) { EXPECT_TRUE(s.ok()); });
    room = make_room();
  }

  std::unique_ptr<rules::Game> initial() const {
    auto game = server::initial_game(record.scenario_text, record.settings, *server::seed_of(record.seed));
    return std::move(std::get<std::unique_ptr<rules::Game>>(game));
  }

  std::shared_ptr<server::Room> make_room() {
    return std::make_shared<server::Room>(server::RoomServices{ioc, *store, metrics, clock, notifier}, record,
                                          initial(), seats);
  }

  void add_seat(const std::string& id, const std::string& description) {
    const auto token = "token-" + id;
    tokens[id] = token;
    seats.push_back({record.id, id, description, server::token_hash(token)});
  }

  // Runs what is queued until nothing is; at most `limit` handlers.
  std::size_t run(std::size_t limit = 1'000'000) {
    std::size_t ran = 0;
    while (ran < limit) {
      ioc.restart();
      const auto n = ioc.poll_one();
      if (n == 0) break;
      ran += n;
    }
    return ran;
  }

  std::shared_ptr<FakePeer> join(const std::string& seat, std::uint64_t last_sequence = 0) {
    auto peer = std::make_shared<FakePeer>(seat);
    v1::JoinGame join;
    join.set_game_id(record.id);
    join.set_token(tokens.at(seat));
    join.set_last_sequence(last_sequence);
    room->join(join, peer, 1);
    run();
    return peer;
  }

  std::vector<persistence::StepRecord> log() const {
    std::vector<persistence::StepRecord> out;
    store->load_steps(record.id, 0, [&](std::vector<persistence::StepRecord> steps, persistence::Status s) {
      EXPECT_TRUE(s.ok());
      out = std::move(steps);
    });
    return out;
  }
};

inline bool same(const v1::Envelope& a, const v1::Envelope& b) {
  return google::protobuf::util::MessageDifferencer::Equals(a, b);
}

}  // namespace galloper::testing
