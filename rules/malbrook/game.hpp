#pragma once
// Malbrook as the server sees it: a rules::Game over a GameState value.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "rules/core/game.hpp"
#include "rules/malbrook/command.hpp"
#include "rules/malbrook/movement.hpp"
#include "rules/malbrook/scenario.hpp"
#include "rules/malbrook/state.hpp"
#include "rules/malbrook/view.hpp"

namespace galloper::rules::malbrook {

class MalbrookGame final : public Game {
 public:
  explicit MalbrookGame(GameState state);
  // With pending(state) already known.
  MalbrookGame(GameState state, std::vector<Decision> pending);
  // Its memos point into state_: a game is cloned (clone()), never copied or moved.
  MalbrookGame(const MalbrookGame&) = delete;
  MalbrookGame& operator=(const MalbrookGame&) = delete;

  const GameState& state() const { return state_; }

  std::string_view ruleset() const override;
  std::string_view scenario_name() const override { return state_.scenario; }
  std::string_view title() const override { return state_.title; }
  std::uint32_t turn() const override { return state_.turn; }
  std::string phase() const override;
  std::vector<Seat> seats() const override;
  View view_for(std::string_view seat, const ViewSettings& settings) const override;
  void refresh_view(std::string_view seat, const ViewSettings& settings, View& held,
                    ViewUpdate& update) const override;
  StateHash state_hash() const override;
  std::unique_ptr<Game> clone() const override;
  std::unique_ptr<Game> with_options(const GameOptions& options) const override;

  std::uint64_t step() const override { return state_.step; }
  bool finished() const override { return state_.phase == Phase::kEnded; }
  // The engine (engine.hpp).
  std::vector<Decision> pending() const override;
  Verdict check(const Answer& answer) const override;
  Result<Resolution> resolve(const std::vector<Answer>& answers, Dice& dice) const override;
  // Public events reach every seat and the umpire sees all; otherwise a seat
  // learns of an event when its view (view_for, the one path) shows one of
  // the event's subjects.
  std::vector<std::size_t> visible_events(const std::vector<Event>& events, std::string_view seat,
                                          const ViewSettings& settings) const override;

  // The bot's candidates (bot.hpp).
  std::vector<Answer> propose(const View& seat_view, const Decision& decision, BotRng& rng) const override;

  // The umpire's edits (edit.hpp).
  Result<std::unique_ptr<Game>> edit(const StateEdit& edit) const override;

  // What views of the state this one was resolved from keep (ViewSince);
  // null when no view of that state had been built.
  const ViewSince* since_parent() const { return since_.get(); }
  // How many refresh_view calls were served from another seat's of the same
  // side (SideRefresh): for tests.
  std::size_t views_refreshed_from_side() const { return refreshed_from_side_; }

  // Odds of a proposed charge or shot (odds.hpp: odds_for).
  Result<OddsAnswer> odds(std::string_view seat, const OddsQuestion& question,
                          const ViewSettings& settings) const override;

  // Snapshots (snapshot.hpp): the whole state but the seed and the terrain,
  // which from_snapshot takes from this (initial) game.
  std::vector<std::uint8_t> snapshot() const override;
  Result<std::unique_ptr<Game>> from_snapshot(std::span<const std::uint8_t> bytes) const override;

 private:
  const SightTable& sight(SightGrain grain) const;
  const std::vector<Decision>& owed() const;
  const MoveChecks* move_checks() const;  // in the movement phase
  const CommandChecks* command_checks() const;  // in the command phase

  GameState state_;
  // pending(state_), worked out once: the room asks for it, then checks
  // every answer against it, then resolves with it. Also a memo of a pure
  // function of state_ (resolve hands the next game the list it found).
  mutable std::optional<std::vector<Decision>> pending_;
  // Who sees what in this (never changing) state (sight_table), looked up
  // once for all the views a room asks of it after a step rather than
  // rebuilding the scene to compare per view. A memo of a pure function of
  // state_. Like the rest of a game it is used from one thread at a time (a
  // room's strand), const calls included.
  mutable std::shared_ptr<const SightTable> sight_;
  // The ids of the sight table's pieces (shown_id), each with its index in
  // the table's scene: the event filter looks an event's subjects up in it
  // for every seat (one hash a subject, where a sorted list took a binary
  // search of string comparisons). Built from the table it holds.
  mutable std::unordered_multimap<std::string, std::size_t> piece_ids_;
  mutable std::shared_ptr<const SightTable> piece_ids_of_;
  // The last answer check() accepted for each decision of this state, so
  // that resolve need not check it again (engine.hpp, resolve). One per
  // decision: a seat revising its answer replaces it, so the memo stays as
  // small as the pending list.
  mutable std::map<std::string, Answer, std::less<>> accepted_;
  // What checking this state's movement orders shares, built for the first
  // (movement.hpp). Points into state_, which never changes.
  mutable std::unique_ptr<MoveChecks> move_checks_;
  // The same for its leaders' command actions (command.hpp).
  mutable std::unique_ptr<CommandChecks> command_checks_;
  // Views of this state carry it as their basis (View::basis): made with
  // the first view built, so a state no one is shown (a replay, the bot)
  // has none, and resolve then compares nothing for its successor.
  const std::shared_ptr<const void>& basis() const;
  mutable std::shared_ptr<const void> basis_;
  // With side-shared vision, the last refresh of a seat of each side, from
  // which the other seats of that side are refreshed (view.hpp,
  // SideRefresh): a room refreshes every seat after a step.
  mutable std::vector<SideRefresh> side_refreshes_;
  mutable std::size_t refreshed_from_side_ = 0;
  // What this state knows of the one it was resolved from (view_since), when
  // views of that one had been built: a view of it is refreshed by keeping
  // its unchanged pieces' units.
  std::unique_ptr<const ViewSince> since_;
};

// A game in the initial state of a scenario that passed check_scenario().
std::unique_ptr<Game> make_game(const ScenarioSpec& spec, const Seed& seed);

}  // namespace galloper::rules::malbrook
