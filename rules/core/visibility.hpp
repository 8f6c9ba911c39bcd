#pragma once
// Line of sight, independent of any ruleset: the ruleset describes what is on
// the table as a Scene and its numbers as VisibilityRules; this decides who
// sees what. Every choice is written down in rules/core/VISIBILITY.md.
//
// Short version: an object is seen by an observer when a straight sight line
// from one of the observer's sight points to one of the object's sight points
// is (1) within range, (2) not over a hill higher than both ends, (3) not
// through more cover (woods/towns) than the cover rules allow, and (4) not
// through a body that blocks it (formed troops, guns, smoke; unformed troops
// partly). A seat sees an object if ANY observer serving that seat sees it.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "rules/core/geometry.hpp"
#include "rules/core/terrain.hpp"

namespace galloper::rules {

// Bit i set = seat i (the ruleset numbers its seats; at most 64).
using SeatMask = std::uint64_t;

enum class SceneKind : std::uint8_t {
  kFormed,     // formed troops: block sight
  kUnformed,   // unformed troops: block only sight more than unformed_see_beyond past them
  kGun,        // blocks like formed troops; if it fired this turn, its smoke blocks even elevated observers
  kLeader,     // never blocks
  kMessenger,  // never blocks
  kMarker,     // never blocks
};

struct SceneObject {
  std::uint32_t id = 0;              // the caller's id; results use scene order
  SceneKind kind = SceneKind::kFormed;
  std::vector<OrientedRect> bases;   // footprint: what blocks sight
  // Where this object sees from and is seen at. Empty: default_sight_points(bases).
  std::vector<Vec2> sight_points;
  // Height of the ground it stands on (hill elevation; fortification height
  // where the ruleset counts that as higher ground). > 0 means "on higher
  // elevation": longer range and seeing over lower troops.
  double elevation = 0;
  bool significantly_high = false;   // on a significantly high hill: also sees over woods, towns, smoke
  // In a wood or town, at its edge (the ruleset decides with TerrainMap::at_edge_of).
  bool at_cover_edge = false;
  // Shot this turn: troops at a cover edge are then seen at any range; a gun's smoke blocks.
  bool shot_this_turn = false;
  SeatMask observer_for = 0;         // seats this object sees for (0: not an observer)

  friend bool operator==(const SceneObject&, const SceneObject&) = default;
};

struct Scene {
  std::vector<SceneObject> objects;

  friend bool operator==(const Scene&, const Scene&) = default;
};

// A ruleset's visibility numbers (table units). No defaults: the ruleset sets
// every field. Malbrook: open 36, elevated 48, cover 2, edge seen 2, edge
// depth (its at-edge test), see-over 2, unformed 2.
struct VisibilityRules {
  double open_range = 0;            // normal maximum sight distance
  double elevated_range = 0;        // observers with elevation > 0
  double cover_range = 0;           // any sight line through woods/towns is limited to this
  double cover_edge_seen_range = 0; // troops at a cover edge who did not shoot: seen only this close
  // How deep inside cover the first (observer's) or last (target's) stretch of
  // a sight line may run for an object flagged at_cover_edge to see out, or be
  // seen, "from the edge". Looking across a wood from its edge is not seeing out.
  double cover_edge_depth = 0;
  double see_over_min_distance = 0; // elevated observers see over lower troops at least this far away
  double unformed_see_beyond = 0;   // sight continues this far past unformed troops
};

enum class SightBlock : std::uint8_t {
  kNone,      // visible
  kRange,     // too far
  kHill,      // a hill higher than both ends
  kCover,     // woods/towns
  kBody,      // formed troops or an unfired gun
  kUnformed,  // more than unformed_see_beyond past unformed troops
  kSmoke,     // a gun that fired this turn
  kNoPoints,  // an object without sight points
};

struct SightResult {
  bool visible = false;
  SightBlock reason = SightBlock::kNoPoints;
  // The blocking object's id (kBody/kUnformed/kSmoke) or terrain index into
  // hills()/areas() (kHill/kCover); 0 otherwise. For a pair of objects, the
  // blocker of the last sight line tried.
  std::uint32_t blocker = 0;
};

// The points an object sees from and is seen at when the scene gives none:
//  * one base (a gun, a leader, a messenger, a marker): its centre -- a model
//    is seen or not as a whole;
//  * bases that make one body (a line, a column, a block): the centre and the
//    four corners of their envelope, pulled in 1% so bodies in contact do not
//    meet at a shared corner;
//  * bases spaced apart (unformed): each base's centre, then the envelope's
//    corners.
// Order: centre(s) first, the four corners last.
std::vector<Vec2> default_sight_points(std::span<const OrientedRect> bases);

// One sight line: can `observer` at `eye` see `target` at `mark`?
// (Indices into scene.objects.)
SightResult line_of_sight(const Scene& scene, const TerrainMap& terrain, const VisibilityRules& rules,
                          std::size_t observer, Vec2 eye, std::size_t target, Vec2 mark);

// Can the observer see the target: any of its sight points from any of the
// observer's. An object always sees itself.
SightResult can_see(const Scene& scene, const TerrainMap& terrain, const VisibilityRules& rules,
                    std::size_t observer, std::size_t target);

// Many "does this object see that one" questions about one scene (a
// ruleset's gun and its targets, leaders and the troops they control): the
// scene is prepared once for all of them, not once per question as can_see
// does. The verdict is can_see's; which blocker a hidden pair would name
// depends on the questions asked before, so only the verdict is given. The
// scene and terrain must outlive it.
class SightQueries {
 public:
  SightQueries(const Scene& scene, const TerrainMap& terrain, const VisibilityRules& rules);
  ~SightQueries();
  SightQueries(const SightQueries&) = delete;
  SightQueries& operator=(const SightQueries&) = delete;

  bool sees(std::size_t observer, std::size_t target);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// What a later compute may start from (VisibilityEngine::compute_from): the
// scene a table was worked out on and the proofs behind its masks. A cache:
// the masks computed from it are exactly those of a whole compute.
struct SightRecord {
  // `observer` saw `target`, which gave `target` these seats (scene indices).
  struct Witness {
    std::uint32_t target = 0;
    std::uint32_t observer = 0;
    SeatMask seats = 0;
  };
  Scene scene;
  std::vector<Aabb> blocks;         // per object: the box of what blocks sight (empty: it never blocks)
  std::vector<Witness> witnesses;
  // Pairs the terrain alone hides (hills, woods, towns between them,
  // whatever bodies stand there): bit o * ((n + 63) / 64) * 64 + t of n
  // objects is set when `o` cannot see `t` for the terrain. Such a pair stays
  // hidden while both ends are unchanged.
  std::vector<std::uint64_t> terrain_hidden;
  // The engine's token of the objects it prepared for `scene`: while they are
  // still its last, compute_from copies each unchanged object's preparation.
  std::shared_ptr<const void> prepared;
};

// For compute_from: an object new to the scene.
inline constexpr std::uint32_t kNewObject = 0xFFFFFFFFu;

// The workhorse for views: for every object (scene order), the seats that see
// it. An observer's own seats always see it. Keeps scratch buffers between
// calls, so a long-lived engine allocates nothing once warm.
class VisibilityEngine {
 public:
  VisibilityEngine();
  ~VisibilityEngine();
  VisibilityEngine(VisibilityEngine&&) noexcept;
  VisibilityEngine& operator=(VisibilityEngine&&) noexcept;

  // `record`, if given, is filled for a later compute_from.
  const std::vector<SeatMask>& compute(const Scene& scene, const TerrainMap& terrain, const VisibilityRules& rules,
                                       SightRecord* record = nullptr);

  // The masks compute(scene, terrain, rules) gives, worked out from `last` (a
  // record made with the same terrain and rules): a seat keeps an object its
  // last witness still proves, and only the pairs a change could alter are
  // judged again -- those with a changed end, those whose sight lines a
  // changed blocker's old or new box may cross, and those of seats whose
  // witness no longer holds. last_index[i]: the index in last.scene of
  // scene.objects[i], or kNewObject; an object equal to its last self is
  // unchanged. Falls back to a whole compute when much has changed
  // (VISIBILITY.md, "From the last table").
  const std::vector<SeatMask>& compute_from(const SightRecord& last, std::span<const std::uint32_t> last_index,
                                            const Scene& scene, const TerrainMap& terrain,
                                            const VisibilityRules& rules, SightRecord* record = nullptr);
  // Whether the last compute_from started from its record (false: it fell
  // back to a whole compute).
  bool started_from_last() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Convenience wrappers (allocate a fresh engine).
std::vector<SeatMask> compute_visibility(const Scene& scene, const TerrainMap& terrain,
                                         const VisibilityRules& rules);
// Ids of the objects any of `seats` sees, in scene order.
std::vector<std::uint32_t> visible_to(const Scene& scene, const TerrainMap& terrain,
                                      const VisibilityRules& rules, SeatMask seats);

}  // namespace galloper::rules
