#include "rules/malbrook/game.hpp"

#include <algorithm>

#include "rules/core/decision.hpp"
#include "rules/malbrook/bot.hpp"
#include "rules/malbrook/edit.hpp"
#include "rules/malbrook/odds.hpp"
#include "rules/malbrook/engine.hpp"

#include "rules/malbrook/seats.hpp"
#include "rules/malbrook/setup.hpp"
#include "rules/malbrook/snapshot.hpp"
#include "rules/malbrook/view.hpp"

namespace galloper::rules::malbrook {

MalbrookGame::MalbrookGame(GameState state) : state_(std::move(state)) {}

MalbrookGame::MalbrookGame(GameState state, std::vector<Decision> pending)
    : state_(std::move(state)), pending_(std::move(pending)) {}

const std::vector<Decision>& MalbrookGame::owed() const {
  if (!pending_) pending_ = malbrook::pending(state_);
  return *pending_;
}

const MoveChecks* MalbrookGame::move_checks() const {
  if (state_.phase != Phase::kMovement) return nullptr;
  if (!move_checks_) move_checks_ = std::make_unique<MoveChecks>(state_);
  return move_checks_.get();
}

const CommandChecks* MalbrookGame::command_checks() const {
  if (state_.phase != Phase::kCommand) return nullptr;
  if (!command_checks_) command_checks_ = std::make_unique<CommandChecks>(state_);
  return command_checks_.get();
}

std::string_view MalbrookGame::ruleset() const { return kRulesetName; }

std::string MalbrookGame::phase() const { return std::string(to_string(state_.phase)); }

std::vector<Seat> MalbrookGame::seats() const { return seats_of(state_); }

const SightTable& MalbrookGame::sight(SightGrain grain) const {
  if (!sight_ || !sight_->serves(grain)) sight_ = sight_table(state_, grain);
  return *sight_;
}

const std::shared_ptr<const void>& MalbrookGame::basis() const {
  if (!basis_) basis_ = std::make_shared<const char>(0);  // its address is all it says
  return basis_;
}

View MalbrookGame::view_for(std::string_view seat, const ViewSettings& settings) const {
  View v = malbrook::view_for(state_, sight(sight_grain(settings)), seat, settings);
  v.basis = {basis(), settings.side_shared_vision};
  return v;
}

void MalbrookGame::refresh_view(std::string_view seat, const ViewSettings& settings, View& held,
                                ViewUpdate& update) const {
  const SightTable& table = sight(sight_grain(settings));
  // Side-shared vision: the other seats of a side refreshed from the first
  // (view.hpp, SideRefresh).
  for (const auto& done : side_refreshes_) {
    if (refresh_like(state_, table, seat, settings, held, update, done)) {
      held.basis = {basis(), settings.side_shared_vision};
      ++refreshed_from_side_;
      return;
    }
  }
  // Kept for the side when `held` is this seat's view of a known state with
  // these settings, as the other seats' must be to be refreshed from it.
  const std::shared_ptr<const void> from = held.basis.state;
  const std::size_t held_units = held.units.size();
  const bool for_side = settings.side_shared_vision && from != nullptr && held.basis.side_shared_vision &&
                        held.seat == seat && seat != kUmpireSeat;
  std::vector<std::uint32_t> shown;
  malbrook::refresh_view(state_, table, seat, settings, held, update, since_.get(), for_side ? &shown : nullptr);
  held.basis = {basis(), settings.side_shared_vision};
  // Only a change of units with every kept one in its place is replayed.
  if (!for_side || held.side.empty() || update.whole || update.terrain_changed || !update.kept_in_place) return;
  SideRefresh done = side_refresh(seat, from, held_units, held, update, std::move(shown));
  // One a side: the latest.
  auto same_side = std::find_if(side_refreshes_.begin(), side_refreshes_.end(),
                                [&](const SideRefresh& r) { return r.side == done.side; });
  if (same_side != side_refreshes_.end()) {
    *same_side = std::move(done);
  } else {
    side_refreshes_.push_back(std::move(done));
  }
}

StateHash MalbrookGame::state_hash() const { return malbrook::state_hash(state_); }

std::unique_ptr<Game> MalbrookGame::clone() const {
  auto copy = std::make_unique<MalbrookGame>(state_);
  copy->basis_ = basis_;  // the same state: a view of this one is a view of the copy
  return copy;
}

std::unique_ptr<Game> MalbrookGame::with_options(const GameOptions& options) const {
  GameState next = state_;
  next.simultaneous = options.simultaneous;
  next.wing_vision = options.seat_vision;
  next.sight_memo.set_grain(options.seat_vision ? SightGrain::kSeat : SightGrain::kSide);
  return std::make_unique<MalbrookGame>(std::move(next));
}

std::vector<Decision> MalbrookGame::pending() const { return owed(); }

Verdict MalbrookGame::check(const Answer& answer) const {
  auto verdict = malbrook::check(state_, owed(), answer, move_checks(), command_checks());
  if (verdict) accepted_.insert_or_assign(answer.decision_id, answer);
  return verdict;
}

Result<Resolution> MalbrookGame::resolve(const std::vector<Answer>& answers, Dice& dice) const {
  auto r = malbrook::resolve(state_, owed(), answers, dice, &accepted_, move_checks(), command_checks());
  if (!r) return r.error();
  Resolution out;
  auto next = std::make_unique<MalbrookGame>(std::move(r->next), std::move(r->next_pending));
  if (basis_) next->since_ = std::make_unique<const ViewSince>(view_since(state_, basis_, next->state_));
  out.next = std::move(next);
  out.events = std::move(r->events);
  return out;
}

std::vector<std::size_t> MalbrookGame::visible_events(const std::vector<Event>& events, std::string_view seat,
                                                      const ViewSettings& settings) const {
  const bool umpire = seat == kUmpireSeat;
  // Whether the seat is shown piece i of the table's scene, asked only of
  // the events' subjects.
  std::optional<ShownTo> shown_to;
  if (!umpire) {
    const SightTable* sight = &this->sight(sight_grain(settings));
    shown_to.emplace(state_, *sight, seat, settings);
    if (piece_ids_of_ != sight_) {
      piece_ids_.clear();
      piece_ids_.reserve(sight->scene.refs.size());
      for (std::size_t i = 0; i < sight->scene.refs.size(); ++i) {
        piece_ids_.emplace(shown_id(state_, sight->scene.refs[i]), i);
      }
      piece_ids_of_ = sight_;
    }
  }
  // A subject is seen when any piece of that id is (ids are unique within a
  // kind of piece; the lookup does not rely on them being unique across kinds).
  auto seen_id = [&](const std::string& id) {
    const auto [from, to] = piece_ids_.equal_range(id);
    return std::any_of(from, to, [&](const auto& entry) { return (*shown_to)(entry.second).has_value(); });
  };
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const Event& e = events[i];
    bool shown = umpire || e.is_public;
    for (const auto& id : e.subjects) shown = shown || seen_id(id);
    if (shown) out.push_back(i);
  }
  return out;
}

std::vector<Answer> MalbrookGame::propose(const View& seat_view, const Decision& decision, BotRng& rng) const {
  return malbrook::propose(seat_view, decision, rng);
}

Result<std::unique_ptr<Game>> MalbrookGame::edit(const StateEdit& e) const {
  auto edited = apply_edit(state_, e);
  if (!edited) return edited.error();
  return std::unique_ptr<Game>(std::make_unique<MalbrookGame>(std::move(edited).value()));
}

Result<OddsAnswer> MalbrookGame::odds(std::string_view seat, const OddsQuestion& question,
                                      const ViewSettings& settings) const {
  if (question.kind == OddsQuestion::Kind::kAnswer) {
    auto put = question_of_answer(pending(), seat, question);
    if (!put) return put.error();
    return odds_for(state_, seat, put.value(), settings);
  }
  return odds_for(state_, seat, question, settings);
}

std::vector<std::uint8_t> MalbrookGame::snapshot() const { return encode_snapshot(state_); }

Result<std::unique_ptr<Game>> MalbrookGame::from_snapshot(std::span<const std::uint8_t> bytes) const {
  auto restored = restore_snapshot(state_, bytes);
  if (!restored) return restored.error();
  return std::unique_ptr<Game>(std::make_unique<MalbrookGame>(std::move(restored).value()));
}

std::unique_ptr<Game> make_game(const ScenarioSpec& spec, const Seed& seed) {
  return std::make_unique<MalbrookGame>(initial_state(spec, seed));
}

}  // namespace galloper::rules::malbrook
