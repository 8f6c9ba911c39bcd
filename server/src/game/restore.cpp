#include "server/src/game/restore.hpp"

#include <google/protobuf/text_format.h>
#include <spdlog/spdlog.h>

#include <map>

#include "server/src/game/log_entry.hpp"
#include "server/src/game/reducer.hpp"

namespace galloper::server {

namespace {

// Where loading starts: the state after log entry `seq` (0: the scenario).
struct Base {
  std::uint64_t seq = 0;
  std::shared_ptr<const rules::Game> game;
  std::map<std::uint32_t, std::shared_ptr<const rules::Game>> turn_starts;
};

Base choose_base(const RoomState& state, const std::vector<persistence::StepRecord>& log,
                 const std::vector<persistence::SnapshotRecord>& snapshots, Metrics& metrics) {
  // A snapshot is used only when it decodes, belongs to a live resolution
  // whose recorded hash it has, and decodes to a state with that hash. Any
  // other is derived data gone bad: the log is the record, so it is skipped.
  auto usable = [&](const persistence::SnapshotRecord& snap) -> std::shared_ptr<const rules::Game> {
    const persistence::StepRecord* entry =
        snap.seq >= 1 && snap.seq <= log.size() && log[snap.seq - 1].seq == snap.seq ? &log[snap.seq - 1] : nullptr;
    std::string why;
    if (entry == nullptr || entry->kind != kind_name(v1::LogEntry::kResolve) || entry->superseded) {
      why = "it does not follow a live resolution in the log";
    } else if (entry->state_hash != snap.state_hash) {
      why = "its hash is not the one the log recorded";
    } else {
      auto decoded = state.initial->from_snapshot(snap.state);
      if (!decoded) {
        why = decoded.error().reason;
      } else if (decoded.value()->state_hash() != entry->state_hash) {
        why = "it decodes to a state that differs from the one the log recorded";
      } else {
        return std::shared_ptr<const rules::Game>(std::move(decoded.value()));
      }
    }
    spdlog::warn("game {}: the snapshot after log entry {} is not used ({}); replaying the log instead", state.game_id,
                 snap.seq, why);
    metrics.snapshots_rejected++;
    return nullptr;
  };

  Base base;
  const auto delay = state.settings.spectator_delay_turns();
  for (auto it = snapshots.rbegin(); it != snapshots.rend(); ++it) {
    auto game = usable(*it);
    if (!game) continue;
    // A delayed spectator view shows the start of a past turn: each turn it
    // may still show must have its first state at hand.
    std::map<std::uint32_t, std::shared_ptr<const rules::Game>> starts;
    const std::uint32_t turn = game->turn();
    const std::uint32_t first_needed =
        delay == 0 ? turn + 1 : std::max<std::uint32_t>(2, turn > delay ? turn - delay : 2);
    bool complete = true;
    for (std::uint32_t t = first_needed; t <= turn && complete; ++t) {
      complete = false;
      for (const auto& snap : snapshots) {
        if (snap.turn != t || !snap.turn_start || snap.seq > it->seq) continue;
        if (snap.seq == it->seq) {
          starts[t] = game;
          complete = true;
        } else if (auto start = usable(snap)) {
          starts[t] = std::move(start);
          complete = true;
        }
        break;
      }
    }
    if (!complete) continue;  // an older snapshot may still do, or the whole log
    base.seq = it->seq;
    base.game = std::move(game);
    base.turn_starts = std::move(starts);
    break;
  }
  return base;
}

// Applies the log from the start, the state standing for itself up to `base`.
// `incomplete`: a resolution before the base kept no events, so the history
// can only come from replaying it all.
std::optional<std::string> apply_log(RoomState& state, const std::vector<persistence::StepRecord>& log, Base base,
                                     bool& incomplete, Effects* last) {
  for (const auto& record : log) {
    auto entry = decode_entry(record);
    if (!entry) return "log entry " + std::to_string(record.seq) + " (" + record.kind + ") is damaged";
    const EntryMeta meta{record.seq, record.state_hash, record.superseded, record.seq <= base.seq};
    auto applied = apply_entry(state, *entry, meta);
    if (auto* why = std::get_if<std::string>(&applied)) {
      if (meta.before_snapshot && entry->has_resolve()) {
        incomplete = true;
        return std::nullopt;
      }
      return *why;
    }
    if (last != nullptr) *last = std::move(std::get<Effects>(applied));
    if (base.game && record.seq == base.seq) {
      state.game = base.game;
      for (auto& [turn, start] : base.turn_starts) state.turn_start[turn] = start;
      state.open_step();
    }
  }
  if (base.game && (log.empty() || log.back().seq < base.seq)) {
    return "the snapshot after log entry " + std::to_string(base.seq) + " was never reached";
  }
  return std::nullopt;
}

}  // namespace

std::uint32_t snapshot_turns_back(const persistence::GameRecord& record) {
  v1::GameSettings settings;
  if (!record.settings.empty()) google::protobuf::TextFormat::ParseFromString(record.settings, &settings);
  return settings.spectator_delay_turns();
}

std::optional<std::string> restore_state(RoomState& state, const std::vector<persistence::StepRecord>& log,
                                         const std::vector<persistence::SnapshotRecord>& snapshots,
                                         Metrics& metrics, Effects* last) {
  bool incomplete = false;
  auto problem = apply_log(state, log, choose_base(state, log, snapshots, metrics), incomplete, last);
  if (!incomplete) return problem;
  spdlog::info("game {}: the log before its snapshot lacks stored events; replaying it from the start",
               state.game_id);
  state.reset();
  return apply_log(state, log, Base{}, incomplete, last);
}

}  // namespace galloper::server
