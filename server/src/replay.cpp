#include "server/src/replay.hpp"

#include "codec/edit_codec.hpp"
#include "codec/play_codec.hpp"
#include "rules/core/edit.hpp"
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

AppliedEdit apply_edit_entry(const rules::Game& game, const persistence::StepRecord& entry) {
  AppliedEdit out;
  const std::string where = "log entry " + std::to_string(entry.seq) + " (edit at step " + std::to_string(game.step()) + ")";
  v1::StoredUmpire stored;
  if (!stored.ParseFromArray(entry.payload.data(), static_cast<int>(entry.payload.size())) ||
      !stored.action().has_edit_state()) {
    out.error = where + ": its stored edit is damaged";
    return out;
  }
  auto edited = game.edit(codec::from_proto(stored.action().edit_state()));
  if (!edited) {
    out.error = where + ": the engine refuses the edit (" + edited.error().reason + ")";
    return out;
  }
  if (edited.value()->state_hash() != entry.state_hash) {
    out.error = where + ": the state differs from the one recorded (hash " +
                std::to_string(edited.value()->state_hash()) + ", recorded " + std::to_string(entry.state_hash) + ")";
    return out;
  }
  out.next = std::move(edited.value());
  return out;
}

ReplayResult replay(std::unique_ptr<rules::Game> game, const rules::Seed& seed,
                    const std::vector<persistence::StepRecord>& steps) {
  ReplayResult out;
  out.game = std::move(game);
  for (const auto& step : steps) {
    out.last_seq = step.seq;
    if (step.superseded) continue;
    if (step.kind == "edit") {
      auto edited = apply_edit_entry(*out.game, step);
      if (edited.error) {
        out.error = std::move(edited.error);
        return out;
      }
      out.game = std::move(edited.next);
      continue;
    }
    if (step.kind != "resolve") continue;
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
