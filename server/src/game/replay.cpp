#include "server/src/game/replay.hpp"

#include "codec/edit_codec.hpp"
#include "codec/play_codec.hpp"
#include "rules/core/edit.hpp"
#include "rules/core/tell.hpp"
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
  v1::StoredStep stored;
  if (!stored.ParseFromArray(entry.payload.data(), static_cast<int>(entry.payload.size()))) {
    AppliedStep out;
    out.error = "log entry " + std::to_string(entry.seq) + " (step " + std::to_string(game.step()) +
                "): its stored answers are damaged";
    return out;
  }
  return resolve_stored(game, seed, stored, entry.seq, entry.state_hash);
}

AppliedStep resolve_stored(const rules::Game& game, const rules::Seed& seed, const v1::StoredStep& stored,
                           std::uint64_t seq, std::uint64_t state_hash) {
  AppliedStep out;
  const std::string where = "log entry " + std::to_string(seq) + " (step " + std::to_string(game.step()) + ")";
  std::vector<rules::Answer> answers;
  answers.reserve(static_cast<std::size_t>(stored.answers_size()));
  for (const auto& a : stored.answers()) answers.push_back(codec::from_proto(a.answer(), a.seat()));
  rules::KeyedDice dice(seed, game.step());
  auto resolved = game.resolve(answers, dice);
  if (!resolved) {
    out.error = where + ": the engine refuses its answers (" + rules::plain_text(resolved.error().reason) + ")";
    return out;
  }
  if (resolved.value().next->state_hash() != state_hash) {
    out.error = where + ": the state differs from the one recorded (hash " +
                std::to_string(resolved.value().next->state_hash()) + ", recorded " + std::to_string(state_hash) + ")";
    return out;
  }
  out.next = std::move(resolved.value().next);
  out.events = std::move(resolved.value().events);
  return out;
}

AppliedEdit apply_edit_entry(const rules::Game& game, const persistence::StepRecord& entry) {
  v1::StoredUmpire stored;
  if (!stored.ParseFromArray(entry.payload.data(), static_cast<int>(entry.payload.size())) ||
      !stored.action().has_edit_state()) {
    AppliedEdit out;
    out.error = "log entry " + std::to_string(entry.seq) + " (edit at step " + std::to_string(game.step()) +
                "): its stored edit is damaged";
    return out;
  }
  return edit_stored(game, stored, entry.seq, entry.state_hash);
}

AppliedEdit edit_stored(const rules::Game& game, const v1::StoredUmpire& stored, std::uint64_t seq,
                        std::uint64_t state_hash) {
  AppliedEdit out;
  const std::string where = "log entry " + std::to_string(seq) + " (edit at step " + std::to_string(game.step()) + ")";
  auto edited = game.edit(codec::from_proto(stored.action().edit_state()));
  if (!edited) {
    out.error = where + ": the engine refuses the edit (" + rules::plain_text(edited.error().reason) + ")";
    return out;
  }
  if (edited.value()->state_hash() != state_hash) {
    out.error = where + ": the state differs from the one recorded (hash " +
                std::to_string(edited.value()->state_hash()) + ", recorded " + std::to_string(state_hash) + ")";
    return out;
  }
  out.next = std::move(edited.value());
  return out;
}

}  // namespace galloper::server
