// Writes the seed corpora of tests/fuzz/corpus/ from real data: frames a
// client sends, the bundled scenarios, snapshots and answers of the demo
// game's states along a bot game, and an export of a game the bot played in
// a real room. Run once when a target's input format changes:
//   fuzz_make_seeds tests/fuzz/corpus
// Files it writes are named seed-*; files from fuzzing runs (crashes kept as
// regressions) are named after what they found and are left alone.
#include <google/protobuf/text_format.h>

#include <boost/asio/io_context.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "persistence/memory_store.hpp"
#include "proto/codec/scenario_codec.hpp"
#include "rules/core/bytes.hpp"
#include "rules/malbrook/snapshot.hpp"
#include "rules/malbrook/types.hpp"
#include "server/src/clock.hpp"
#include "server/src/game/room.hpp"
#include "server/src/metrics.hpp"
#include "server/src/network/frame_codec.hpp"
#include "server/src/notify/notifier.hpp"
#include "server/src/tokens.hpp"
#include "server/src/tools/tools.hpp"
#include "server/src/version.hpp"
#include "tests/fuzz/bundled_games.hpp"

namespace fs = std::filesystem;
namespace v1 = galloper::v1;
using namespace galloper;

namespace {

void write(const fs::path& dir, const std::string& name, const std::string& bytes) {
  fs::create_directories(dir);
  std::ofstream(dir / ("seed-" + name), std::ios::binary) << bytes;
}

std::vector<v1::Envelope> client_frames() {
  const auto& game = fuzz::demo_game();
  std::vector<v1::Envelope> out;
  auto next = [&out]() -> v1::Envelope& {
    out.emplace_back();
    out.back().set_correlation_id(out.size());
    return out.back();
  };
  auto& hello = next();
  hello.mutable_hello()->mutable_protocol()->set_major(server::kProtocolMajor);
  hello.mutable_hello()->mutable_protocol()->set_minor(1);
  hello.mutable_hello()->set_client_name("seed");
  next().mutable_list_scenarios();
  next().mutable_list_scenarios()->set_scenario_text(std::string(codec::find_bundled_scenario("demo")->text));
  next().mutable_list_games();
  auto& create = next();
  create.mutable_create_game()->set_scenario_name("demo");
  create.mutable_create_game()->set_title("seed");
  create.mutable_create_game()->mutable_settings()->set_step_deadline_seconds(600);
  auto& join = next();
  join.mutable_join_game()->set_game_id("gfuzz");
  join.mutable_join_game()->set_token("token-umpire");
  for (const auto& d : game.pending()) {
    auto& submit = next();
    submit.mutable_submit_answer()->set_game_id("gfuzz");
    submit.mutable_submit_answer()->set_step(game.step());
    submit.mutable_submit_answer()->mutable_answer()->set_decision_id(d.id);
    submit.mutable_submit_answer()->mutable_answer()->set_option(d.options.empty() ? d.default_option
                                                                                 : d.options.front().id);
  }
  auto& lock = next();
  lock.mutable_lock_answers()->set_game_id("gfuzz");
  lock.mutable_lock_answers()->set_step(game.step());
  auto& chat = next();
  chat.mutable_send_chat()->set_game_id("gfuzz");
  chat.mutable_send_chat()->set_channel(v1::CHAT_CHANNEL_SIDE);
  chat.mutable_send_chat()->set_text("seed");
  next().mutable_list_audit()->set_game_id("gfuzz");
  auto& orders = next();
  orders.mutable_set_standing_orders()->set_game_id("gfuzz");
  (*orders.mutable_set_standing_orders()->mutable_by_kind())["initiative"] = "first";
  return out;
}

// room_target.cpp's format: a seat byte, then (flags, 16-bit length, bytes) per frame.
std::string room_input(std::uint8_t seat, const std::vector<std::pair<bool, std::string>>& frames) {
  std::string out(1, static_cast<char>(seat));
  for (const auto& [text, payload] : frames) {
    out.push_back(text ? 1 : 0);
    out.push_back(static_cast<char>(payload.size() & 0xff));
    out.push_back(static_cast<char>((payload.size() >> 8) & 0xff));
    out += payload;
  }
  return out;
}

void frames_and_rooms(const fs::path& corpus) {
  const auto frames = client_frames();
  std::vector<std::pair<bool, std::string>> all_binary, all_text;
  for (std::size_t i = 0; i < frames.size(); ++i) {
    const auto binary = *server::encode_frame(frames[i], server::Encoding::kBinary);
    const auto text = *server::encode_frame(frames[i], server::Encoding::kJson);
    write(corpus / "frame", std::to_string(i) + ".bin", binary);
    write(corpus / "frame", std::to_string(i) + ".json", text);
    if (binary.size() < 4000) all_binary.emplace_back(false, binary);
    if (text.size() < 4000) all_text.emplace_back(true, text);
  }
  const auto seats = fuzz::demo_game().seats().size() + 1;  // and the spectators
  for (std::size_t seat = 0; seat <= seats; ++seat) {
    write(corpus / "room", "seat" + std::to_string(seat) + ".bin",
          room_input(static_cast<std::uint8_t>(seat), all_binary));
    write(corpus / "room", "seat" + std::to_string(seat) + ".json",
          room_input(static_cast<std::uint8_t>(seat | 0x80), all_text));
  }
}

void scenarios(const fs::path& corpus) {
  for (const auto& s : codec::bundled_scenarios()) write(corpus / "scenario", std::string(s.name), std::string(s.text));
}

// snapshot_target.cpp's format: a mode byte, then a whole snapshot (0) or
// its body (1).
void snapshots(const fs::path& corpus) {
  const auto& states = fuzz::demo_states();
  for (std::size_t i = 0; i < states.size(); i += 4) {
    const auto bytes = states[i]->snapshot();
    const auto name = "demo-step" + std::to_string(states[i]->step());
    write(corpus / "snapshot", name, std::string(1, '\0') + std::string(bytes.begin(), bytes.end()));
    const auto body = rules::open_snapshot(bytes, rules::malbrook::kRulesetName, rules::malbrook::kSnapshotFormat);
    if (body.ok()) {
      write(corpus / "snapshot", name + "-body", std::string(1, '\1') + std::string(body.value().begin(), body.value().end()));
    }
  }
}

// answers_target.cpp's format: each listed decision of each state answered
// with its first option, and each decision with a 2" forward move.
void answers(const fs::path& corpus) {
  const auto& states = fuzz::demo_states();
  for (std::size_t i = 0; i < states.size(); ++i) {
    const auto pending = states[i]->pending();
    for (std::size_t j = 0; j < pending.size() && j < 4; ++j) {
      const std::string base{static_cast<char>(i), 0, static_cast<char>(j), 1, 1};
      write(corpus / "answers", "state" + std::to_string(i) + "-d" + std::to_string(j) + "-option",
            base + std::string{1, 0, 0});
      // no listed option; one step: forward (pick 1), 2" (number 1, 32/16), angle 0, then zeros
      write(corpus / "answers", "state" + std::to_string(i) + "-d" + std::to_string(j) + "-forward",
            base + std::string{0, 0, 1, 1, 1, 32, 0, 1, 0, 0, 1, 1, 1, 1, 0, 0, 1, 0, 0, 1, 0, 0});
    }
  }
}

// A demo game the bot plays in a real room over the in-memory store; its
// export with the seed revealed, so verify replays every entry.
void game_export(const fs::path& corpus) {
  boost::asio::io_context ioc;
  auto store = persistence::make_memory_store();
  server::ManualClock clock;
  server::Metrics metrics;
  server::Notifier notifier(ioc);
  persistence::GameRecord record;
  record.id = "gexport";
  record.title = "seed export";
  record.ruleset = "malbrook";
  record.scenario_name = "demo";
  record.scenario_text = std::string(codec::find_bundled_scenario("demo")->text);
  record.seed.assign(fuzz::fixed_seed().begin(), fuzz::fixed_seed().end());
  record.seed_commitment = server::seed_commitment(fuzz::fixed_seed(), record.id);
  v1::GameSettings settings;
  std::vector<persistence::SeatRecord> seats;
  for (const auto& seat : fuzz::demo_game().seats()) {
    seats.push_back({record.id, seat.id, seat.description, server::token_hash("t-" + seat.id)});
    if (seat.id != "umpire") settings.add_bot_seats(seat.id);
  }
  google::protobuf::TextFormat::PrintToString(settings, &record.settings);
  store->create_game(record, seats, [](persistence::Status) {});
  auto room = std::make_shared<server::Room>(server::RoomServices{ioc, *store, metrics, clock, notifier}, record,
                                             fuzz::demo_game().clone(), seats);
  room->start();
  for (int i = 0; i < 20000; ++i) {
    ioc.restart();
    if (ioc.poll_one() == 0) break;
  }
  std::vector<persistence::StepRecord> log;
  store->load_steps(record.id, 0, [&log](std::vector<persistence::StepRecord> steps, persistence::Status) {
    log = std::move(steps);
  });
  if (log.size() > 40) log.resize(40);  // a prefix of a log is a log: enough to replay a few steps
  auto e = server::tools::make_export(record, log);
  e.set_seed(std::string(record.seed.begin(), record.seed.end()));
  e.set_ended(true);
  e.set_created_unix(0);
  e.set_exported_by("galloper seeds");
  for (auto& entry : *e.mutable_log()) entry.set_created_unix(0);
  std::printf("export: %zu log entries, verify says: %s\n", log.size(),
              server::tools::verify_export(e).message.c_str());
  write(corpus / "export", "demo.bin", e.SerializeAsString());
  std::string text;
  google::protobuf::TextFormat::PrintToString(e, &text);
  write(corpus / "export", "demo.textproto", text);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_make_seeds CORPUS_DIR\n");
    return 2;
  }
  const fs::path corpus = argv[1];
  frames_and_rooms(corpus);
  scenarios(corpus);
  snapshots(corpus);
  answers(corpus);
  game_export(corpus);
  return 0;
}
