#include "rules/core/game.hpp"

#include "rules/core/bot.hpp"
#include "rules/core/decision.hpp"
#include "rules/core/edit.hpp"
#include "rules/core/odds.hpp"
#include "rules/core/view_update.hpp"

namespace galloper::rules {

std::unique_ptr<Game> Game::with_options(const GameOptions&) const { return clone(); }

void Game::refresh_view(std::string_view seat, const ViewSettings& settings, View& held, ViewUpdate& update) const {
  update_view(held, view_for(seat, settings), update);
}

std::uint64_t Game::step() const { return 0; }
bool Game::finished() const { return false; }
std::vector<Decision> Game::pending() const { return {}; }

Verdict Game::check(const Answer&) const {
  return reject("no_sequence_of_play", "this ruleset does not take answers yet");
}

Result<Resolution> Game::resolve(const std::vector<Answer>&, Dice&) const {
  return reject("no_sequence_of_play", "this ruleset does not resolve steps yet");
}

std::vector<std::size_t> Game::visible_events(const std::vector<Event>&, std::string_view,
                                              const ViewSettings&) const {
  return {};
}

std::vector<Answer> Game::propose(const View&, const Decision& decision, BotRng& rng) const {
  return Bot::any_option(decision, rng);
}

Result<std::unique_ptr<Game>> Game::edit(const StateEdit&) const {
  return reject("edit_unsupported", "edits are not supported by this ruleset");
}

Result<OddsAnswer> Game::odds(std::string_view, const OddsQuestion&, const ViewSettings&) const {
  return reject("odds_unsupported", "this ruleset does not compute odds");
}

std::vector<std::uint8_t> Game::snapshot() const { return {}; }

Result<std::unique_ptr<Game>> Game::from_snapshot(std::span<const std::uint8_t>) const {
  return reject("snapshot_unsupported", "snapshots are not supported by this ruleset; replay the game's log instead");
}

}  // namespace galloper::rules
