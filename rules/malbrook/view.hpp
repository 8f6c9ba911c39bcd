#pragma once
// What a seat may see: the one path (ARCHITECTURE.md, "Hidden information").
#include <cassert>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/core/game.hpp"
#include "rules/core/view_update.hpp"
#include "rules/malbrook/state.hpp"
#include "rules/malbrook/visibility.hpp"

namespace galloper::rules::malbrook {

// The umpire sees everything (KNOWLEDGE_UMPIRE). A side's seat sees its own
// pieces in full (KNOWLEDGE_OWN); the other seats of its side in full
// (KNOWLEDGE_FRIENDLY) with side-shared vision, otherwise only those its own
// pieces see; enemies only when seen (KNOWLEDGE_SEEN), showing what is on the
// table (type, formation, bases, DP markers, status markers) but not the
// name, grade or chain of command. Observers are the seat's own brigades,
// guns and leaders, and with side-shared vision every piece of its side.
// Terrain, the table and the turn are public. An unknown seat sees only those.
View view_for(const GameState& state, std::string_view seat, const ViewSettings& settings);

// The sight table a view with these settings needs (visibility.hpp):
// wing-only vision needs each seat's own sight, side-shared a side's.
SightGrain sight_grain(const ViewSettings& settings);

// view_for with this state's sight table (visibility.hpp, sight_table): who
// sees what is the same for every seat and either vision setting (a seat's
// view picks its bits), so one state needs it once however many seats are
// shown it.
View view_for(const GameState& state, const SightTable& sight, std::string_view seat, const ViewSettings& settings);
// What a state resolved from another knows of it, for views of the other
// (MalbrookGame::resolve makes it; view_since). A unit depends on its piece,
// the piece's footprint (a function of the piece) and what the seat knows of
// it; the terrain on the features alone. So in a view of the parent state,
// an unchanged piece's unit with the same knowledge is the unit, and the
// terrain is the terrain when no feature changed.
struct ViewSince {
  std::shared_ptr<const void> parent;  // the basis (View::basis) of views of the parent state
  // Per index in the state's lists: the piece equals the parent's at that
  // index (operator==, every field). Messengers are not listed: their units
  // name the leaders they carry between.
  std::vector<char> brigades, guns, leaders;
  bool features = false;  // the terrain features equal the parent's
};
ViewSince view_since(const GameState& parent, std::shared_ptr<const void> parent_basis, const GameState& state);

// The same view built into `held`, a view of any state shown to this seat
// before (Game::refresh_view): view_for is this from an empty view. With
// `since` (of `state`), a held view whose basis is since->parent keeps the
// units of unchanged pieces and its terrain without building or comparing
// them. `held`'s basis is cleared: the caller sets it.
// `shown`, if given, gets the scene index (in sight.scene) of each unit of
// the view built, in order.
void refresh_view(const GameState& state, const SightTable& sight, std::string_view seat,
                  const ViewSettings& settings, View& held, ViewUpdate& update, const ViewSince* since = nullptr,
                  std::vector<std::uint32_t>* shown = nullptr);

// One seat's refresh_view with side-shared vision, kept so that the other
// seats of its side are refreshed from it (refresh_like). With side-shared
// vision the seats of a side are shown the same pieces, told alike: a unit
// depends on the seat only through its knowledge, and that differs only in
// which pieces are the seat's own (KNOWLEDGE_OWN) and which its friends'
// (KNOWLEDGE_FRIENDLY), both told in full. So two seats' views of one state
// differ only in those marks and their `seat`, and so do their views of the
// next state and what changed between them.
struct SideRefresh {
  std::string seat;                  // the seat refreshed
  std::string side;                  // its side
  std::shared_ptr<const void> from;  // the basis of the view it held, a view of that seat (ViewBasis)
  std::size_t held_units = 0;        // how many units that view had
  View header;                       // the view built, without its terrain and units
  std::size_t units = 0;             // its unit count
  ViewUpdate update;                 // what changed: units only, every kept one in its place
  std::vector<UnitView> changed;     // its units at update.changed
  std::vector<std::uint32_t> shown;  // the scene index of each of its units
};
// What a refresh of `seat` leaves for the other seats of its side: the view
// it held was its own view of state `from`, with `held_units` units; it is
// now `refreshed`, changed by `update`; `shown` gives each unit's scene
// index (refresh_view's `shown`).
SideRefresh side_refresh(std::string_view seat, std::shared_ptr<const void> from, std::size_t held_units,
                         const View& refreshed, const ViewUpdate& update, std::vector<std::uint32_t> shown);
// refresh_view(state, sight, seat, settings, held, update) for another seat
// of `done`'s side whose held view is its own view of the same state, with
// the same setting, as the one `done` refreshed, built from `done`: the
// header and the changed units copied, each changed unit told with this
// seat's knowledge (ShownTo), the rest kept where they are. False, touching
// nothing, when `done` does not serve (another side or vision, another held
// state, the same seat) or a kept messenger is known otherwise now: a
// messenger's unit does not name the seat it belongs to (its sender's, which
// follows the sender's wing), so it is the one unit whose knowledge may
// change for one seat of a side and not another. Debug builds, which run
// every test, refresh a copy of `held` the plain way and assert the same
// view and update.
bool refresh_like(const GameState& state, const SightTable& sight, std::string_view seat,
                  const ViewSettings& settings, View& held, ViewUpdate& update, const SideRefresh& done);

// The pieces view_for(state, sight, seat, settings) shows, in its order (by
// their index in sight.scene), and what the seat knows of each: view_for
// builds its units from this, and the event filter asks it which pieces a
// seat may learn of without building every unit's view.
void for_each_shown(const GameState& state, const SightTable& sight, std::string_view seat,
                    const ViewSettings& settings, const std::function<void(std::size_t, Knowledge)>& shown);

// for_each_shown's test one piece at a time: whether the seat is shown piece
// `i` of sight.scene, and with what knowledge. The views ask it of every
// piece, the event filter only of its events' subjects. Holds references to
// its arguments.
class ShownTo {
 public:
  ShownTo(const GameState& state, const SightTable& sight, std::string_view seat, const ViewSettings& settings);
  // Nothing when the piece is not shown (or the seat is unknown or a spectator).
  std::optional<Knowledge> operator()(std::size_t i) const;
  // The table asked (a seat's own when `sight` could not tell wings apart).
  const SightTable& sight() const { return *sight_; }
  // The seat's side; empty for an unknown seat or a spectator.
  std::string_view side() const { return side_; }

 private:
  // The army of the piece a scene entry shows.
  const std::string& army_of(PieceRef ref) const;

  const GameState& state_;
  std::shared_ptr<const SightTable> own_;  // worked out when `sight` does not serve
  const SightTable* sight_ = nullptr;
  bool shown_nothing_ = true;
  bool umpire_ = false;
  bool side_shared_ = false;
  std::string_view side_;
  SeatMask mine_ = 0;
  SeatMask side_seats_ = 0;  // the seats of side_ (the first 64)
  std::uint32_t seat_at_ = 0;
};

// Inline: for_each_shown asks it of every piece.
inline std::optional<Knowledge> ShownTo::operator()(std::size_t i) const {
  if (shown_nothing_) return std::nullopt;
  if (umpire_) return Knowledge::kUmpire;
  const MalbrookScene& scene = sight_->scene;
  const PieceRef ref = scene.refs[i];
  const std::uint32_t owner = scene.owners[i];
  const bool seen = (sight_->seen_by[i] & mine_) != 0;
  if (owner == seat_at_) return Knowledge::kOwn;
  // A piece's owner is a seat of its army (ids hold no '/', so a seat name
  // "army/wing" names one army): its side is told by the owner's bit.
  assert(owner >= 64 || owner >= sight_->seats.size() || sight_->seats[owner].side == army_of(ref));
  if (owner < 64 ? ((side_seats_ >> owner) & 1) != 0 : army_of(ref) == side_) {
    // Messengers of the seat's own side are always shown (RULINGS.md R23).
    if (!side_shared_ && !seen && ref.kind != PieceKind::kMessenger) return std::nullopt;
    return Knowledge::kFriendly;
  }
  if (seen) return Knowledge::kSeen;
  return std::nullopt;
}

inline const std::string& ShownTo::army_of(PieceRef ref) const {
  switch (ref.kind) {
    case PieceKind::kBrigade:
    case PieceKind::kHorseHolders: return state_.brigades[ref.index].army;
    case PieceKind::kGun: return state_.guns[ref.index].army;
    case PieceKind::kLeader: return state_.leaders[ref.index].army;
    case PieceKind::kMessenger: break;
  }
  return state_.messengers[ref.index].army;
}

// The id a piece has in views (UnitView::id).
std::string shown_id(const GameState& state, PieceRef ref);
inline std::string horse_holder_id(const Brigade& b) { return b.id + "/horse-holders"; }

}  // namespace galloper::rules::malbrook
