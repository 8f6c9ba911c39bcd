#pragma once
// The whole of a Malbrook game as one value.
//
// Organisation (armies -> wings -> commands) is a tree of ids and leaders;
// brigades, guns and leaders are kept in flat lists and name their place in
// the chain of command, because the rules let a superior re-assign troops
// between commands and wings during play ("Chain of Command").
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/core/features.hpp"
#include "rules/core/game.hpp"
#include "rules/core/terrain.hpp"
#include "rules/core/vec2.hpp"
#include "rules/malbrook/types.hpp"
#include "rules/malbrook/movement_state.hpp"
#include "rules/malbrook/after_combat_state.hpp"
#include "rules/malbrook/combat.hpp"

namespace galloper::rules::malbrook {

// Status markers a brigade or gun can carry. A bit set so the hash and the
// view walk them in one fixed order.
enum class Status : std::uint32_t {
  kHalted = 1u << 0,        // halt marker (steadied, or a control-test halt)
  kInspired = 1u << 1,      // see Brigade::inspire_actions
  kCharging = 1u << 2,
  kFailedCharge = 1u << 3,  // charged last turn and failed to contact
  kEvading = 1u << 4,
  kRetiring = 1u << 5,
  kRouting = 1u << 6,
  kPursuing = 1u << 7,
  kLooting = 1u << 8,
  kInCombat = 1u << 9,
  kMoved = 1u << 10,        // moved this turn (not stationary)
  kUnderFire = 1u << 11,    // under fire this turn
  kFired = 1u << 12,        // guns: fired this turn (firing marker)
  kAbandoned = 1u << 13,    // guns: crew sought refuge
  kCrewEliminated = 1u << 14,
  kDestroyed = 1u << 15,    // brigades: no bases left / eliminated
  kSurrendered = 1u << 16,
};
inline constexpr std::uint32_t kStatusCount = 17;
std::string_view to_string(Status s);

// One base of a brigade standing on its own: a base of a refused flank, or a
// freely placed base of an unformed brigade. `center` is the middle of the
// base; `facing_deg` its own facing.
struct BasePose {
  Vec2 center;
  double facing_deg = 0;
  friend bool operator==(const BasePose&, const BasePose&) = default;
};

struct Brigade {
  std::string id;
  std::string name;
  std::string army;
  std::string wing;
  std::string command;
  TroopType type = TroopType::kFoot;
  Grade grade = Grade::kC;
  FightingStyle style = FightingStyle::kTraditional;
  bool a_outrance = false;  // may charge à l'outrance (hussars and new style horse always may)
  std::uint32_t bases = 0;
  Formation formation = Formation::kLine;
  Vec2 position;            // middle of the front edge
  double facing_deg = 0;    // clockwise from north, [0, 360)
  // Where each base stands when the brigade is not simply laid out from
  // (position, facing, formation) (basing.hpp `footprint`): a line with a
  // refused flank ("One or two bases ... may step back", "a backwards wheel
  // with one or more of the brigade's bases"), or an unformed brigade whose
  // "bases are moved individually". Empty: laid out; else one per base, in
  // layout order (left to right, front rank first). For a refused line
  // `position` and `facing_deg` stay those of the line; for an unformed
  // brigade `position` is the front middle of the bases' envelope.
  std::vector<BasePose> base_poses;
  std::uint32_t dps = 0;
  std::uint32_t status = 0;  // Status bits
  std::uint32_t inspire_actions = 0;
  std::optional<Vec2> horse_holders;  // dismounted dragoons only

  bool has(Status s) const { return (status & static_cast<std::uint32_t>(s)) != 0; }

  // ---- Movement (movement.cpp) ----
  // Dice moved in the turn `move_dice_turn` (a road move counts 2) and in the
  // turn before it: "Cavalry may only change speed by up to 2 dice per turn".
  std::uint32_t move_dice_turn = 0;
  std::uint32_t move_dice = 0;
  std::uint32_t move_dice_before = 0;
  LastMove last_move;                // "Repeat last move"
  bool horse_holders_moved = false;  // "The horses may not move again on their own"

  // ---- Command and control this turn (control.hpp); reset at each turn's start. ----
  ControlResult control = ControlResult::kUnknown;
  std::string controlled_by;    // leader id controlling it (attached or in range), if any
  std::string conform_to;       // kConforming: the controlled brigade it conforms to
  bool conform_behind = false;  // kConforming from a rear line: does not charge with the lead

  // ---- After combat and morale (after_combat.hpp, morale.hpp) ----
  // "Morale DPs ... cannot be removed by re-dressing ranks in the same turn
  // that they were acquired": how many were acquired in `morale_dps_turn`.
  std::uint32_t morale_dps_turn = 0;
  std::uint32_t morale_dps = 0;
  std::uint32_t combat_turn = 0;  // the last turn it was in combat ("not in combat that turn")
  std::string pursuing;           // Status::kPursuing: the brigade it pursues

  friend bool operator==(const Brigade&, const Brigade&) = default;
};

struct Gun {
  std::string id;
  std::string name;
  std::string army;
  std::string wing;     // empty: army artillery under the Marshal
  std::string command;  // empty: kept under the wing's Lieutenant General
  GunWeight weight = GunWeight::kMedium;
  bool limbered = false;
  Vec2 position;        // middle of the front edge of the gun's base
  double facing_deg = 0;
  std::uint32_t dps = 0;
  std::uint32_t status = 0;

  bool has(Status s) const { return (status & static_cast<std::uint32_t>(s)) != 0; }

  LastMove last_move;  // movement.cpp: "Repeat last move"

  // ---- Command and control this turn (control.hpp); reset at each turn's start. ----
  ControlResult control = ControlResult::kUnknown;
  std::string controlled_by;

  // ---- Artillery (artillery.hpp) ----
  // Its last direct-fire shot, for "Same target and range" / "New target".
  std::string last_target;           // unit id ("": none yet)
  std::uint8_t last_band = 0;        // that shot's RangeBand
  Vec2 last_shot_from;               // where it stood: a gun that moved since has a new target
  double last_shot_facing = 0;
  std::uint32_t bombarded_turn = 0;  // turn of its last bombardment-phase shot (0: never)
  bool bombarded_close = false;      // ... and whether that shot was at close range
  std::string crew_with;             // abandoned, crew alive: the brigade sheltering the crew marker

  friend bool operator==(const Gun&, const Gun&) = default;
};

struct Leader {
  std::string id;
  std::string name;
  std::string army;
  std::string wing;     // Marshals: empty
  std::string command;  // Major Generals only
  LeaderRank rank = LeaderRank::kMajorGeneral;
  int action_modifier = 0;  // +1 superior, -1 incompetent
  bool exceptional = false; // Marshals: +1 on the initiative roll
  std::uint32_t wounds = 0;
  bool killed = false;
  bool captured = false;
  std::string attached_to;  // brigade id, or empty when detached
  Vec2 position;            // middle of the front edge of the stand
  double facing_deg = 0;

  // "Lieutenant Generals and Marshals may normally take two actions ...
  // Major Generals normally only one", +/-1 for superior/incompetent leaders.
  int base_actions() const;

  friend bool operator==(const Leader&, const Leader&) = default;
};

struct Command {
  std::string id;
  std::string name;
  std::string major_general;  // leader id

  friend bool operator==(const Command&, const Command&) = default;
};

struct Wing {
  std::string id;
  std::string name;
  std::string lieutenant_general;  // leader id
  WingOrder order = WingOrder::kDefend;
  std::optional<Vec2> objective;
  std::string objective_feature;
  std::vector<Command> commands;
  // The Marshal who issued the current orders: only he may change them
  // ("Orders"). Empty: the scenario's orders, which any Marshal of the army may change.
  std::string orders_from;

  friend bool operator==(const Wing&, const Wing&) = default;
};

struct Army {
  std::string id;
  std::string name;
  FightingStyle style = FightingStyle::kTraditional;
  std::uint32_t break_percent = 0;  // 0: the army does not break by this rule
  std::vector<std::string> marshals;  // leader ids
  std::vector<Wing> wings;

  friend bool operator==(const Army&, const Army&) = default;
};

// The terrain as the game keeps it (rules/core/features.hpp).
using rules::Feature;

struct Objective {
  std::string id;
  std::string name;
  Vec2 at;
  double radius = 0;
  std::uint32_t points = 0;
  std::string held_by;  // army id, or empty

  friend bool operator==(const Objective&, const Objective&) = default;
};

// What a leader passes down the chain of command, in person or by messenger
// ("Orders", "Chain of Command"): new wing orders, or a re-assignment of a
// brigade, gun or whole command to another wing/command.
enum class MessageKind : std::uint8_t { kOrders, kReassign };
struct Message {
  MessageKind kind = MessageKind::kOrders;
  WingOrder order = WingOrder::kDefend;  // kOrders
  std::optional<Vec2> objective;         // kOrders
  std::string objective_feature;         // kOrders
  std::string unit;                      // kReassign: brigade, gun or command id
  std::string wing;                      // kReassign: destination wing
  std::string command;                   // kReassign: destination command (empty: wing level, guns only)

  friend bool operator==(const Message&, const Message&) = default;
};

// A messenger marker on its way ("Send a messenger"): rides up to 6" (12"
// beyond 6" of enemy) towards its recipient in each of its side's command
// phases and relays its message on reaching base-to-base contact.
struct Messenger {
  std::string id;    // "msg1", "msg2", ... in order of sending
  std::string army;
  std::string from;  // sending leader id
  std::string to;    // recipient leader id
  Vec2 position;
  double facing_deg = 0;
  Message message;

  friend bool operator==(const Messenger&, const Messenger&) = default;
};

// ---- Damage (damage.hpp) ----
// "He only needs to test once for fire and once for combat": the tests taken
// in the current phase (entries from another turn or phase are stale).
struct RiskTested {
  std::string brigade;
  RiskCause cause = RiskCause::kFire;
  std::uint32_t turn = 0;
  Phase phase = Phase::kInitiative;

  friend bool operator==(const RiskTested&, const RiskTested&) = default;
};
// A leader killed or captured, where and when (the morale phase: "Their
// Lieutenant General or Marshal killed ... within 6 inches").
struct FallenLeader {
  std::string leader;
  std::string army;
  LeaderRank rank = LeaderRank::kMajorGeneral;
  Vec2 position;
  std::uint32_t turn = 0;
  Phase phase = Phase::kInitiative;
  bool captured = false;  // false: killed

  friend bool operator==(const FallenLeader&, const FallenLeader&) = default;
};

struct SightTable;  // visibility.hpp

// How finely a sight table (visibility.hpp) tells who sees a piece. kSide:
// each piece observes for every seat of its side -- what side-shared views,
// the umpire's and spectators' views, and every rule asking what a side sees
// ("known enemy", charge targets) need. kSeat: each piece observes for its
// own seat only, which wing-only views need; it answers all kSide does too,
// and costs about three times as much to work out at big-battle scale.
enum class SightGrain : std::uint8_t { kSide, kSeat };

// The last sight table worked out for a state (visibility.hpp, sight_table):
// a cache, not state. A GameState that changes keeps it, and sight_table
// reuses it only while the seats, the scene and the terrain it was computed
// for are exactly the state's, so what the engine decides never depends on
// it. Not compared, hashed or stored; copies share the (immutable) table.
// Atomic so that reading one state from two threads stays safe. It also
// carries the grain the game's views will ask for (a hint set once, by the
// game's options, so that the engine's own questions work out the table its
// views need instead of a coarser one first).
class SightMemo {
 public:
  SightMemo() = default;
  SightMemo(const SightMemo& o) : last_(o.last_.load()), grain_(o.grain_) {}
  SightMemo& operator=(const SightMemo& o) {
    last_.store(o.last_.load());
    grain_ = o.grain_;
    return *this;
  }
  std::shared_ptr<const SightTable> get() const { return last_.load(); }
  void set(std::shared_ptr<const SightTable> table) const { last_.store(std::move(table)); }
  SightGrain grain() const { return grain_; }
  void set_grain(SightGrain grain) { grain_ = grain; }
  // `copy`'s memo was copied from this one and the copy was then worked on
  // for a question (the phase's start, the other half's declarations): a
  // table it worked out is of nearly this state's scene, so this state takes
  // it rather than working the same table out again from its older one.
  void take_from(const SightMemo& copy) const {
    if (auto table = copy.get(); table != nullptr) set(std::move(table));
  }

 private:
  mutable std::atomic<std::shared_ptr<const SightTable>> last_;
  SightGrain grain_ = SightGrain::kSide;
};

struct GameState {
  std::string scenario;  // the scenario's name, e.g. "demo"
  std::string title;
  std::string description;
  double table_width = 0;
  double table_depth = 0;
  std::vector<Feature> features;
  TerrainMap terrain;  // derived from `features` by make_terrain_map()

  std::vector<Army> armies;  // exactly two
  std::vector<Brigade> brigades;
  std::vector<Gun> guns;
  std::vector<Leader> leaders;

  std::uint32_t turn = 1;
  Phase phase = Phase::kInitiative;
  std::string initiative;  // army id that moves first this turn; empty until decided
  std::string attacker;    // army id; empty for a meeting engagement
  std::uint32_t turn_limit = 0;
  std::vector<Objective> objectives;
  std::string victory_description;

  Seed seed{};              // secret; dice are a function of it and `step`
  std::uint64_t step = 0;   // resolved steps so far (the dice counter's base)

  // ---- Sequence of play (engine.hpp, sequence.hpp) ----
  // House option for play-by-web: both sides answer each phase in the same
  // step instead of alternately (RULINGS.md).
  bool simultaneous = false;
  // The game's views are wing-only (GameOptions::seat_vision): each wing sees
  // only through its own eyes, so it is offered only targets those eyes see
  // (RULINGS C2, R21). A setting of the game, fixed when it starts.
  bool wing_vision = false;
  // Alternate play: 0 while the side with initiative acts in the phase, 1
  // while the other side does. Always 0 when simultaneous.
  std::uint32_t half = 0;
  CommandStage command_stage = CommandStage::kActions;
  // The army that won the initiative roll and owes the first/second choice.
  std::string initiative_winner;
  std::vector<Messenger> messengers;
  std::uint32_t next_messenger = 1;  // numbers messenger ids
  MovementState movement;   // movement.cpp: the movement phase's sub-steps

  // ---- Damage (damage.hpp) ----
  std::vector<RiskTested> risk_tested;
  std::vector<FallenLeader> fallen_leaders;

  // ---- After combat, morale and the end of the game (after_combat.hpp, morale.hpp, victory.hpp) ----
  AfterCombatState after_combat;
  std::vector<MoraleCause> morale_causes;  // this turn's, for the Morale phase
  GameResult result;                       // once phase == kEnded

  // ---- Close combat (charge.hpp, combat.hpp) ----
  CombatState combat;  // the combat phase's sub-steps; combat.results: this turn's combats
  // The umpire's rulings on advantage of ground, by brigade (RULINGS C10).
  AdvantageOverrides advantage_of_ground;

  SightMemo sight_memo;  // a cache (above)

  const Army* find_army(std::string_view id) const;
  const Wing* find_wing(std::string_view army, std::string_view wing) const;
  const Brigade* find_brigade(std::string_view id) const;
  const Gun* find_gun(std::string_view id) const;
  const Leader* find_leader(std::string_view id) const;
};

// Whether two ids (of pieces, armies, wings) are the same, trying their
// lengths and last characters before comparing them whole: in a loop over
// pieces most ids differ there ("fr_b12", "fr_b13"; "allies", "french").
inline bool same_id(std::string_view a, std::string_view b) {
  return a.size() == b.size() && (a.empty() || a.back() == b.back()) && a == b;
}

// Malbrook's widths of features their author gave none, in inches: river
// 2", road 1", stream 1/2", other obstacles 1/4"; a bridge or ford 2" wide,
// reaching 1" onto each bank.
const FeatureSizes& feature_sizes();
// The core terrain model of the features (hills, woods, towns... for sight).
inline TerrainMap make_terrain_map(const std::vector<Feature>& features) {
  return rules::make_terrain_map(features, feature_sizes());
}
inline double linear_width(const Feature& f) { return rules::linear_width(f, feature_sizes()); }
inline OrientedRect crossing_rect(const Feature& crossing, const Feature* crossed) {
  return rules::crossing_rect(crossing, crossed, feature_sizes());
}

// A deterministic 64-bit digest over a canonical walk of everything that can
// change an outcome (not the seed: it never changes and its commitment is
// published separately). The same on every compiler and platform.
StateHash state_hash(const GameState& state);

}  // namespace galloper::rules::malbrook
