#include "server/src/replay.hpp"

#include "codec/play_codec.hpp"
#include "galloper/v1/store.pb.h"

namespace galloper::server {

std::optional<std::vector<rules::Answer>> decode_step_answers(const persistence::StepRecord& step) {
  v1::StoredStep stored;
  if (!stored.ParseFromArray(step.payload.data(), static_cast<int>(step.payload.size()))) return std::nullopt;
  std::vector<rules::Answer> answers;
  answers.reserve(static_cast<std::size_t>(stored.answers_size()));
  for (const auto& a : stored.answers()) answers.push_back(codec::from_proto(a.answer(), a.seat()));
  return answers;
}

AppliedStep apply_resolve_entry(const rules::Game& game, const rules::Seed& seed,
                                const persistence::StepRecord& entry) {
  AppliedStep out;
  const std::string where = "log entry " + std::to_string(entry.seq) + " (step " + std::to_string(game.step()) + ")";
  auto answers = decode_step_answers(entry);
  if (!answers) {
    out.error = where + ": its stored answers are damaged";
    return out;
  }
  rules::KeyedDice dice(seed, game.step());
  auto resolved = game.resolve(*answers, dice);
  if (!resolved) {
    out.error = where + ": the engine refuses its answers (" + resolved.error().reason + ")";
    return out;
  }
  if (resolved.value().next->state_hash() != entry.state_hash) {
    out.error = where + ": the state differs from the one recorded (hash " +
                std::to_string(resolved.value().next->state_hash()) + ", recorded " +
                std::to_string(entry.state_hash) + ")";
    return out;
  }
  out.next = std::move(resolved.value().next);
  out.events = std::move(resolved.value().events);
  return out;
}

ReplayResult replay(std::unique_ptr<rules::Game> game, const rules::Seed& seed,
                    const std::vector<persistence::StepRecord>& steps) {
  ReplayResult out;
  out.game = std::move(game);
  for (const auto& step : steps) {
    out.last_seq = step.seq;
    if (step.kind != "resolve" || step.superseded) continue;
    auto applied = apply_resolve_entry(*out.game, seed, step);
    if (applied.error) {
      out.error = std::move(applied.error);
      return out;
    }
    out.events += applied.events.size();
    out.game = std::move(applied.next);
    ++out.steps_applied;
  }
  return out;
}

}  // namespace galloper::server
