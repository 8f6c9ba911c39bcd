#pragma once
// Close Fire & European Order as the server sees it (rules/core/game.hpp):
// the state, its seats, its views and its engine (engine.hpp).
#include <memory>

#include "rules/cfeo/scenario.hpp"
#include "rules/cfeo/state.hpp"
#include "rules/core/game.hpp"

namespace galloper::rules::cfeo {

class CfeoGame final : public Game {
 public:
  CfeoGame(GameState state, const Seed& seed);

  std::string_view ruleset() const override { return kRulesetName; }
  std::string_view scenario_name() const override { return state_.scenario; }
  std::string_view title() const override { return state_.title; }
  std::uint32_t turn() const override { return state_.turn; }
  std::string phase() const override;
  std::vector<Seat> seats() const override;
  View view_for(std::string_view seat, const ViewSettings& settings) const override;
  StateHash state_hash() const override;
  std::unique_ptr<Game> clone() const override;
  std::unique_ptr<Game> with_options(const GameOptions& options) const override;

  std::uint64_t step() const override { return state_.step; }
  bool finished() const override;
  std::vector<Decision> pending() const override;
  Verdict check(const Answer& answer) const override;
  Result<Resolution> resolve(const std::vector<Answer>& answers, Dice& dice) const override;
  std::vector<std::size_t> visible_events(const std::vector<Event>& events, std::string_view seat,
                                          const ViewSettings& settings) const override;
  std::vector<Answer> propose(const View& seat_view, const Decision& decision, BotRng& rng) const override;
  Result<std::unique_ptr<Game>> edit(const StateEdit& edit) const override;

  const GameState& state() const { return state_; }

 private:
  GameState state_;
  Seed seed_;
};

// The game of a scenario check_scenario passed.
std::unique_ptr<Game> make_game(const ScenarioSpec& spec, const Seed& seed);

}  // namespace galloper::rules::cfeo
