#pragma once
// Malbrook's numbers for the core line-of-sight framework ("Visibility"), and
// the Scene a GameState makes.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <memory>
#include <string_view>
#include <vector>

#include "rules/core/game.hpp"
#include "rules/core/visibility.hpp"
#include "rules/malbrook/state.hpp"

namespace galloper::rules::malbrook {

// "normally limited to 36 inches in open ground"; "Higher elevation increases
// visibility to 48 inches"; "In woods and towns, visibility is limited to 2
// inches"; at the edge "can only be seen from 2 inches away unless they
// shoot"; elevated troops "can see over intervening brigades that are at least
// 2 inches away"; "Troops can see anything that is up to 2 inches beyond
// unformed troops". The edge depth (how far inside a wood still counts as its
// edge) is a ruling: 1" (RULINGS.md).
VisibilityRules visibility_rules();
inline constexpr double kCoverEdgeDepth = 1.0;
// "Troops on higher elevation (hill or fortification)": troops at a
// fortification stand this high above the ground it is built on, as on a
// hill of the default height (RULINGS R16, R20).
inline constexpr double kFortificationHeight = 1.0;

// kMessenger: GameState::messengers; kHorseHolders: the horse-holder marker
// of GameState::brigades[index].
enum class PieceKind : std::uint8_t { kBrigade, kGun, kLeader, kMessenger, kHorseHolders };
inline constexpr std::size_t kPieceKinds = 5;
struct PieceRef {
  PieceKind kind = PieceKind::kBrigade;
  std::size_t index = 0;  // into GameState::brigades / guns / leaders / messengers

  friend bool operator==(const PieceRef&, const PieceRef&) = default;
};

struct MalbrookScene {
  Scene scene;
  std::vector<PieceRef> refs;  // refs[i] is scene.objects[i]
  // facings[i]: the facing scene.objects[i] was placed on the terrain with
  // (its elevation and cover edge are judged on the envelope at that facing).
  std::vector<double> facings;
  // owners[i]: the index in the scene's seats of the seat that commands
  // scene.objects[i] (seats.hpp, commands; the first such seat), kNoOwner
  // when none does. Unlike observer_for it is kept for a gun its crew
  // abandoned: the piece is still that seat's.
  std::vector<std::uint32_t> owners;
  static constexpr std::uint32_t kNoOwner = ~std::uint32_t{0};

  friend bool operator==(const MalbrookScene&, const MalbrookScene&) = default;
};

// What build_scene reads of one piece, less the terrain it stands on and
// the seats: two states whose pieces give equal keys, in order, make equal
// scenes for the same seats on the same terrain (debug builds check it in
// sight_table). Working the keys out lays out no bases, so sight_table
// compares them with its memo's instead of building the scene to compare.
struct SceneKey {
  static constexpr std::uint32_t kShot = 1;      // shot_this_turn
  static constexpr std::uint32_t kObserves = 2;  // observes for its owner
  PieceRef ref;
  Vec2 position;  // a horse-holder marker's: where the horses are
  double facing_deg = 0;
  std::uint32_t owner = MalbrookScene::kNoOwner;
  std::uint32_t shape = 0;      // what sizes and lays out its bases: formation, troop type, style; weight; rank
  std::uint32_t flags = 0;      // kShot, kObserves
  std::uint32_t count = 0;      // a brigade's bases
  std::vector<BasePose> poses;  // a brigade's base_poses, which footprint() may lay its bases by

  friend bool operator==(const SceneKey&, const SceneKey&) = default;
};

// Every brigade, gun and leader still on the table, every messenger on its
// way and every horse-holder marker. Each observes for the bit of its owning
// seat in `seats` (seat index = bit): "Leaders, messengers, and markers do not
// block line of sight and they have the same ability to see things as normal
// brigades". A messenger belongs to the seat of the leader who sent it.
//
// `like`, if given, is a scene built earlier on the same terrain (the
// state's last sight table's): a piece at the same place in it, with the
// same bases and facing, takes its elevation and cover edge from there
// instead of asking the terrain again -- they depend on nothing else. The
// scene is the same either way.
//
// `keys`, if given, gets each scene object's SceneKey, in scene order.
MalbrookScene build_scene(const GameState& state, const std::vector<Seat>& seats, const MalbrookScene* like = nullptr,
                          std::vector<SceneKey>* keys = nullptr);
// The keys build_scene gives, without the scene.
std::vector<SceneKey> scene_keys(const GameState& state, const std::vector<Seat>& seats);
// scene_keys(state, seats) == keys, stopping at the first that differs.
bool scene_keys_are(const GameState& state, const std::vector<Seat>& seats, const std::vector<SceneKey>& keys);

// A state's scene with its pieces found by kind and index, and "does this
// piece see that one" answered on it (the scene prepared once for all the
// questions: a gun and its targets, leaders and the troops they control).
// Holds references to the state's terrain: use it while the state lives.
class SceneLookup {
 public:
  explicit SceneLookup(const GameState& state);
  SceneLookup(const SceneLookup&) = delete;
  SceneLookup& operator=(const SceneLookup&) = delete;

  const MalbrookScene& scene() const { return ms_; }
  std::optional<std::size_t> find(PieceKind kind, std::size_t index) const;
  // can_see's verdict for two scene objects.
  bool sees(std::size_t observer, std::size_t target) const;

 private:
  const TerrainMap& terrain_;
  MalbrookScene ms_;
  std::map<std::pair<int, std::size_t>, std::size_t> at_;
  mutable std::unique_ptr<SightQueries> queries_;  // made on the first question
};

// Who sees whom in one state: its seats, its scene and, for each scene
// object, the seats that see it (compute_visibility). The same for every
// seat and either vision setting, so the engine's checks (known enemy,
// charge targets) and every seat's view share it.
//
// At SightGrain::kSide, each piece observes for every seat of its side, so
// seen_by[i] holds either all of a side's seats or none of them: exactly what
// the kSeat table gives when its bits are read a side at a time (a side-shared
// view, side_mask), for a third of the work.
struct SightTable {
  std::vector<Seat> seats;
  MalbrookScene scene;            // as build_scene makes it (each piece observing for its own seat)
  std::vector<SceneKey> keys;     // the scene's, for comparing a state with this table's (sight_table)
  std::vector<Feature> features;  // the terrain it was computed on
  std::vector<SeatMask> seen_by;  // seen_by[i]: the seats that see scene.scene.objects[i]
  SightGrain grain = SightGrain::kSeat;
  // What the next state's table starts from (VisibilityEngine::compute_from):
  // the scene as computed (at kSide, each piece observing for its side).
  SightRecord record;
  bool from_last = false;  // worked out from the state's last table (compute_from), not afresh
  // The engine that worked this table out, for the next table to take: a
  // warm engine keeps its buffers and the terrain it prepared (the woods,
  // towns and hills cut into convex pieces). Taken by exchange, so two
  // threads working out tables from one state never share it; whoever finds
  // it gone makes a new one. Not part of the table's meaning.
  mutable std::atomic<std::shared_ptr<VisibilityEngine>> spare_engine;
  // The seats of one side (bit i = seats[i]).
  SeatMask side_mask(std::string_view army) const;
  // Whether this table answers questions asked at `wanted`.
  bool serves(SightGrain wanted) const { return grain == SightGrain::kSeat || wanted == SightGrain::kSide; }
};
// The state's sight table at least as fine as `grain` (and as the grain the
// state's memo asks for): the one the state last computed when its seats,
// scene and terrain are still the same (GameState::sight_memo) and it is fine
// enough, else worked out now and remembered. Comparing the state's scene
// keys with the memo's costs a few microseconds; computing the table ~1 ms
// (kSide) to ~3.5 ms (kSeat) at big-battle scale.
std::shared_ptr<const SightTable> sight_table(const GameState& state, SightGrain grain = SightGrain::kSide);

}  // namespace galloper::rules::malbrook
