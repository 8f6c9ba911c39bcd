#include "rules/cfeo/game.hpp"

#include <algorithm>

#include "rules/cfeo/bot.hpp"
#include "rules/cfeo/edit.hpp"
#include "rules/cfeo/engine.hpp"
#include "rules/cfeo/seats.hpp"
#include "rules/cfeo/setup.hpp"
#include "rules/cfeo/view.hpp"

namespace galloper::rules::cfeo {

CfeoGame::CfeoGame(GameState state, const Seed& seed) : state_(std::move(state)), seed_(seed) {}

std::string CfeoGame::phase() const { return std::string(to_string(state_.phase)); }

std::vector<Seat> CfeoGame::seats() const { return seats_of(state_); }

View CfeoGame::view_for(std::string_view seat, const ViewSettings& settings) const {
  return cfeo::view_for(state_, seat, settings);
}

StateHash CfeoGame::state_hash() const { return cfeo::state_hash(state_); }

std::unique_ptr<Game> CfeoGame::clone() const { return std::make_unique<CfeoGame>(*this); }

std::unique_ptr<Game> CfeoGame::with_options(const GameOptions& options) const {
  auto next = std::make_unique<CfeoGame>(*this);
  next->state_.options = options;
  return next;
}

bool CfeoGame::finished() const { return cfeo::finished(state_); }

std::vector<Decision> CfeoGame::pending() const { return cfeo::pending(state_); }

Verdict CfeoGame::check(const Answer& answer) const { return cfeo::check(state_, answer); }

Result<Resolution> CfeoGame::resolve(const std::vector<Answer>& answers, Dice& dice) const {
  auto r = cfeo::resolve(state_, answers, dice);
  if (!r) return r.error();
  return Resolution{std::make_unique<CfeoGame>(std::move(r->next), seed_), std::move(r->events)};
}

// A seat learns of an event that is public, or whose subject its view of
// the resolved state shows; the umpire of all.
std::vector<std::size_t> CfeoGame::visible_events(const std::vector<Event>& events, std::string_view seat,
                                                  const ViewSettings& settings) const {
  const View view = view_for(seat, settings);
  const bool umpire = seat == kUmpireSeat;
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < events.size(); ++i) {
    const Event& e = events[i];
    bool shown = umpire || e.is_public;
    for (const auto& id : e.subjects) {
      shown = shown || std::any_of(view.units.begin(), view.units.end(), [&](const UnitView& u) { return u.id == id; });
    }
    if (shown) out.push_back(i);
  }
  return out;
}

std::vector<Answer> CfeoGame::propose(const View& seat_view, const Decision& decision, BotRng& rng) const {
  return cfeo::propose(seat_view, decision, rng);
}

Result<std::unique_ptr<Game>> CfeoGame::edit(const StateEdit& e) const {
  auto edited = apply_edit(state_, e);
  if (!edited) return edited.error();
  return std::unique_ptr<Game>(std::make_unique<CfeoGame>(std::move(edited).value(), seed_));
}

std::unique_ptr<Game> make_game(const ScenarioSpec& spec, const Seed& seed) {
  return std::make_unique<CfeoGame>(initial_state(spec), seed);
}

}  // namespace galloper::rules::cfeo
