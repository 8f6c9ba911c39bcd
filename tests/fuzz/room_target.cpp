// A connection's messages to the lobby and a game's room, as a WebSocket
// session hands them on once the Hello is done: the real Lobby and Room over
// the in-memory store, the demo game stored, and a fake peer that has joined
// one of its seats with that seat's own token (no fuzzer guesses a token).
//
// Bytes: the first picks the seat (or none: a connection that has not
// joined); then frames, each a flags byte (bit 0: a text frame, else
// binary), a 16-bit little-endian length and that many bytes.
#include <google/protobuf/text_format.h>

#include <boost/asio/io_context.hpp>

#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "persistence/memory_store.hpp"
#include "server/src/clock.hpp"
#include "server/src/game/lobby.hpp"
#include "server/src/metrics.hpp"
#include "server/src/network/frame_codec.hpp"
#include "server/src/network/outgoing.hpp"
#include "server/src/notify/notifier.hpp"
#include "server/src/tokens.hpp"
#include "tests/fuzz/bundled_games.hpp"
#include "tests/fuzz/fuzz_input.hpp"
#include "tests/fuzz/targets.hpp"

namespace galloper::fuzz {
namespace {

constexpr std::size_t kMaxFrames = 32;
constexpr std::size_t kMaxHandlers = 100'000;  // per frame: a room settles in far fewer

class FakePeer final : public server::Peer {
 public:
  explicit FakePeer(bool view_changes) : view_changes_(view_changes) {}
  void send(server::OutgoingPtr) override { ++sent_; }
  std::string describe() const override { return "fuzz peer"; }
  void set_seat(std::string, std::string) override {}
  bool takes_view_changes() const override { return view_changes_; }

 private:
  bool view_changes_;
  std::size_t sent_ = 0;
};

struct StoredGame {
  persistence::GameRecord record;
  std::vector<persistence::SeatRecord> seats;
  std::vector<std::string> tokens;  // by seat, as `seats`
};

const StoredGame& stored_game() {
  static const StoredGame game = [] {
    StoredGame g;
    g.record.id = "gfuzz";
    g.record.title = "fuzz";
    g.record.ruleset = "malbrook";
    g.record.scenario_name = "demo";
    g.record.scenario_text = std::string(codec::find_bundled_scenario("demo")->text);
    g.record.seed.assign(fixed_seed().begin(), fixed_seed().end());
    g.record.seed_commitment = server::seed_commitment(fixed_seed(), g.record.id);
    v1::GameSettings settings;
    settings.set_step_deadline_seconds(600);
    google::protobuf::TextFormat::PrintToString(settings, &g.record.settings);
    auto add = [&g](const std::string& id, const std::string& description) {
      g.tokens.push_back("token-" + id);
      g.seats.push_back({g.record.id, id, description, server::token_hash(g.tokens.back())});
    };
    for (const auto& seat : demo_game().seats()) add(seat.id, seat.description);
    add("spectator", "Spectators");
    return g;
  }();
  return game;
}

// Webhooks would post to the network from inside a fuzz run: their URLs go.
void without_webhooks(v1::Envelope& env) {
  if (env.has_set_notifications()) env.mutable_set_notifications()->clear_webhook();
  if (env.has_create_game()) env.mutable_create_game()->mutable_settings()->clear_webhooks();
}

// What WebSocketSession::handle does with a decoded message after the Hello.
void dispatch(server::Lobby& lobby, const v1::Envelope& env, const std::shared_ptr<server::Peer>& peer) {
  const auto id = env.correlation_id();
  switch (env.body_case()) {
    case v1::Envelope::kListScenarios: return lobby.list_scenarios(env.list_scenarios(), peer, id);
    case v1::Envelope::kCreateGame: return lobby.create_game(env.create_game(), peer, id);
    case v1::Envelope::kJoinGame: return lobby.join_game(env.join_game(), peer, id);
    case v1::Envelope::kListGames: return lobby.list_games(peer, id);
    case v1::Envelope::kSubmitAnswer: return lobby.submit_answer(env.submit_answer(), peer, id);
    case v1::Envelope::kLockAnswers: return lobby.lock_answers(env.lock_answers(), peer, id);
    case v1::Envelope::kSetStandingOrders: return lobby.standing_orders(env.set_standing_orders(), peer, id);
    case v1::Envelope::kUmpireAction: return lobby.umpire_action(env.umpire_action(), peer, id);
    case v1::Envelope::kSendChat: return lobby.send_chat(env.send_chat(), peer, id);
    case v1::Envelope::kSetNotifications: return lobby.set_notifications(env.set_notifications(), peer, id);
    case v1::Envelope::kListAudit: return lobby.list_audit(env.list_audit(), peer, id);
    case v1::Envelope::kOddsRequest: return lobby.odds(env.odds_request(), peer, id);
    default: return;  // the session answers these itself
  }
}

void settle(boost::asio::io_context& ioc) {
  for (std::size_t ran = 0; ran < kMaxHandlers; ++ran) {
    ioc.restart();
    if (ioc.poll_one() == 0) return;
  }
}

}  // namespace

void room(Bytes data) {
  FuzzInput in(data);
  const auto& game = stored_game();
  const std::uint8_t who = in.u8();

  boost::asio::io_context ioc;
  auto store = persistence::make_memory_store();
  server::ManualClock clock;
  server::Metrics metrics;
  server::Notifier notifier(ioc);
  store->create_game(game.record, game.seats, [](persistence::Status s) {
    if (!s.ok()) std::abort();
  });
  auto lobby = std::make_shared<server::Lobby>(ioc, *store, metrics, clock, notifier);
  auto peer = std::make_shared<FakePeer>((who & 0x80) != 0);

  const std::size_t seat = (who & 0x7f) % (game.seats.size() + 1);
  if (seat < game.seats.size()) {
    v1::JoinGame join;
    join.set_game_id(game.record.id);
    join.set_token(game.tokens[seat]);
    lobby->join_game(join, peer, 1);
    settle(ioc);
  }

  for (std::size_t frames = 0; frames < kMaxFrames && !in.empty(); ++frames) {
    const bool text = (in.u8() & 1) != 0;
    const std::size_t length = in.u16();
    std::string payload;
    for (std::size_t i = 0; i < length && !in.empty(); ++i) payload.push_back(static_cast<char>(in.u8()));
    auto decoded = server::decode_frame(payload, text ? server::Encoding::kJson : server::Encoding::kBinary);
    if (!decoded.envelope) continue;
    without_webhooks(*decoded.envelope);
    dispatch(*lobby, *decoded.envelope, peer);
    settle(ioc);
  }
}

}  // namespace galloper::fuzz
