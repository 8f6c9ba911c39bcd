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

ReplayResult replay(std::unique_ptr<rules::Game> game, const rules::Seed& seed,
                    const std::vector<persistence::StepRecord>& steps) {
  ReplayResult out;
  out.game = std::move(game);
  for (const auto& step : steps) {
    out.last_seq = step.seq;
    if (step.superseded) continue;
    if (step.kind != "resolve") {
      out.open_step.push_back(step);
      continue;
    }
    out.open_step.clear();
    auto answers = decode_step_answers(step);
    if (!answers) {
      out.error = "step " + std::to_string(step.seq) + ": its stored answers are damaged";
      return out;
    }
    rules::KeyedDice dice(seed, out.game->step());
    auto resolved = out.game->resolve(*answers, dice);
    if (!resolved) {
      out.error = "step " + std::to_string(step.seq) + ": the engine refuses its answers (" +
                  resolved.error().reason + ")";
      return out;
    }
    auto next = std::move(resolved.value().next);
    if (next->state_hash() != step.state_hash) {
      out.error = "step " + std::to_string(step.seq) + ": the state differs from the one recorded (hash " +
                  std::to_string(next->state_hash()) + ", recorded " + std::to_string(step.state_hash) + ")";
      return out;
    }
    out.events += resolved.value().events.size();
    out.game = std::move(next);
    ++out.steps_applied;
  }
  return out;
}

}  // namespace galloper::server
