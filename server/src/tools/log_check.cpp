#include "server/src/tools/log_check.hpp"

#include <google/protobuf/text_format.h>

#include <array>
#include <cstdio>

#include "codec/scenario_codec.hpp"
#include "galloper/v1/protocol.pb.h"
#include "galloper/v1/store.pb.h"
#include "server/src/game/log_entry.hpp"
#include "server/src/game/replay.hpp"

namespace galloper::server {

namespace {

std::string entry_name(const persistence::StepRecord& e) {
  return "log entry " + std::to_string(e.seq) + " (" + e.kind + ")";
}

}  // namespace

std::variant<std::unique_ptr<rules::Game>, std::string> initial_game(std::string_view scenario_text,
                                                                     std::string_view settings_text,
                                                                     const rules::Seed& seed) {
  auto loaded = codec::load_scenario(scenario_text, seed);
  if (auto* problems = std::get_if<std::vector<codec::ScenarioProblem>>(&loaded)) {
    return "the stored scenario fails the checks of this version:\n" + codec::format_problems("scenario", *problems);
  }
  // As the lobby does: settings that do not parse leave the defaults.
  v1::GameSettings settings;
  google::protobuf::TextFormat::ParseFromString(std::string(settings_text), &settings);
  return std::get<codec::NewGame>(loaded).game->with_options(game_options(settings));
}

rules::GameOptions game_options(const v1::GameSettings& settings) {
  rules::GameOptions options;
  options.simultaneous = settings.mode() == v1::PLAY_MODE_SIMULTANEOUS;
  options.seat_vision = settings.vision() == v1::VISION_WING_ONLY;
  return options;
}

std::optional<rules::Seed> seed_of(const std::vector<std::uint8_t>& bytes) {
  rules::Seed seed{};
  if (bytes.size() != seed.size()) return std::nullopt;
  std::copy(bytes.begin(), bytes.end(), seed.begin());
  return seed;
}

LogCheck check_log(const rules::Game& initial, const rules::Seed& seed,
                   const std::vector<persistence::StepRecord>& log) {
  LogCheck out;
  std::unique_ptr<rules::Game> game = initial.clone();
  out.final_hash = game->state_hash();
  auto fail = [&](const persistence::StepRecord& e, std::string why) {
    out.bad_seq = e.seq;
    out.error = std::move(why);
    return out;
  };
  for (const auto& entry : log) {
    if (entry.seq != out.entries + 1) {
      return fail(entry, "log entry " + std::to_string(entry.seq) + " follows entry " + std::to_string(out.entries) +
                             ": the log has a gap or a repeat");
    }
    ++out.entries;
    if (!known_log_kind(entry.kind)) return fail(entry, entry_name(entry) + ": unknown kind of log entry");
    const auto decoded = decode_entry(entry);
    if (!decoded) return fail(entry, entry_name(entry) + ": its payload is damaged (does not decode)");
    if (entry.superseded) continue;
    if (decoded->has_edit()) {
      if (!decoded->edit().action().has_edit_state()) return fail(entry, entry_name(entry) + ": its stored edit is damaged");
      auto edited = edit_stored(*game, decoded->edit(), entry.seq, entry.state_hash);
      if (edited.error) return fail(entry, *edited.error);
      game = std::move(edited.next);
      out.final_hash = game->state_hash();
      continue;
    }
    if (!decoded->has_resolve()) continue;
    auto applied = resolve_stored(*game, seed, decoded->resolve(), entry.seq, entry.state_hash);
    if (applied.error) return fail(entry, *applied.error);
    game = std::move(applied.next);
    out.final_hash = game->state_hash();
    ++out.steps_resolved;
  }
  return out;
}

LogCheck check_game(const persistence::GameRecord& game, const std::vector<persistence::StepRecord>& log) {
  LogCheck out;
  auto seed = seed_of(game.seed);
  if (!seed) {
    out.error = "the stored seed is " + std::to_string(game.seed.size()) + " bytes, not 32: it is damaged";
    return out;
  }
  auto initial = initial_game(game.scenario_text, game.settings, *seed);
  if (auto* why = std::get_if<std::string>(&initial)) {
    out.error = *why;
    return out;
  }
  return check_log(*std::get<std::unique_ptr<rules::Game>>(initial), *seed, log);
}

std::string hash_hex(rules::StateHash hash) {
  std::array<char, 17> buf{};
  std::snprintf(buf.data(), buf.size(), "%016llx", static_cast<unsigned long long>(hash));
  return std::string(buf.data(), 16);
}

}  // namespace galloper::server
