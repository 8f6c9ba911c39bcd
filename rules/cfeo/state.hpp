#pragma once
// A Close Fire & European Order game's whole state: a value. Pieces refer to
// one another by their index in the state's vectors (a unit's side, wing and
// brigade; a leader's unit), never by id; ids and names are kept for the
// scenario, the wire and the events only.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "rules/cfeo/types.hpp"
#include "rules/core/decision.hpp"
#include "rules/core/features.hpp"
#include "rules/core/game.hpp"
#include "rules/core/terrain.hpp"
#include "rules/core/vec2.hpp"

namespace galloper::rules::cfeo {

// What a unit's control test in the command phase left it to do this turn
// (command.hpp): kFree when it took none.
enum class Control : std::uint8_t {
  kFree,            // no test: under control
  kHalt,            // "2- = Halt."
  kAsWished,        // "3-4 = Act as player wishes"
  kRepeatLastMove,  // "5+ = Repeat last move."
  kContinueCharge,  // "Continue ... charge unless 3-4 result" (RULINGS K6)
};

// An index into one of GameState's vectors; kNone where there is none.
using Index = std::int32_t;
inline constexpr Index kNone = -1;
// An index as a vector's subscript.
constexpr std::size_t at(Index i) { return static_cast<std::size_t>(i); }

// A battalion of foot or a regiment of horse or dragoons.
struct Unit {
  std::string id;
  std::string name;
  Index side = kNone;
  Index wing = kNone;
  Index brigade = kNone;
  Arm arm = Arm::kFoot;
  Grade grade = Grade::kC;
  std::uint32_t bases = 0;
  Formation formation = Formation::kLine;
  Vec2 position;            // middle of the front edge
  double facing_deg = 0;    // clockwise from north
  std::uint32_t dps = 0;
  std::uint32_t pike_bases = 0;
  bool skirmishers = false;
  bool platoon_fire = false;
  CavalryStyle style = CavalryStyle::kTraditional;
  bool a_outrance = false;
  std::uint32_t ranks = 1;  // cavalry in line: ranks of bases deep
  // This turn:
  bool fired = false;           // gave fire (musketry)
  bool moved = false;           // moved or manoeuvred
  std::int32_t allowance = -1;  // yards the move dice gave this turn; -1: none rolled
  bool under_fire = false;      // was shot at
  bool artillery_dps = false;   // took DPs from artillery fire (no redress: "Redress Ranks")
  bool in_combat = false;       // fought in the combat phase (no redress)
  bool evaded = false;          // evaded a charge ("Evading = 1 DP")
  bool rode_through = false;    // rode through or took the position ("-1DP")
  std::uint32_t inspired = 0;   // inspire actions spent on it ("+1 each action to max +2")
  bool steadied = false;        // "Steady - remove 1 DP. Unit must remain halted."
  Control control = Control::kFree;  // its control test's result
  // Until the next turn's command phase:
  bool charge_failed = false;   // "charged last turn and failed to contact"
  // Its last ordered move, for "Repeat last move" (empty: it halted).
  std::vector<OrderStep> last_move;
  // The umpire's ruling on its advantage of ground (RULINGS C14); none: the
  // engine judges it from the ground.
  std::optional<bool> ground_ruling;
  // Until it ends (combat.hpp):
  bool retiring = false;        // "Retire": until it stops to reform
  bool routing = false;         // "Rout": until a control test stops it
  bool destroyed = false;       // lost its last base (RULINGS C10): off the table

  friend bool operator==(const Unit&, const Unit&) = default;
};

// A unit still in the fight: not destroyed, routing or retiring.
inline bool in_field(const Unit& unit) { return !unit.destroyed && !unit.routing && !unit.retiring; }

// A piece a shot or an order names: a unit or a gun (kNone: none).
struct Target {
  enum class Kind : std::uint8_t { kNone, kUnit, kGun };
  Kind kind = Kind::kNone;
  Index index = kNone;
  friend bool operator==(const Target&, const Target&) = default;
};

struct Gun {
  std::string id;
  std::string name;
  Index side = kNone;
  Index wing = kNone;      // kNone: the army's artillery, under the marshal
  Index brigade = kNone;   // kNone: the wing's or the army's
  GunType type = GunType::kField;
  bool limbered = false;
  Vec2 position;
  double facing_deg = 0;
  std::uint32_t dps = 0;
  Index with_unit = kNone;  // battalion guns: the battalion they serve
  // The last shot, for "same target and range +1" and "new target -1".
  Target last_target;
  std::uint8_t last_range = 0;  // the range band of the last shot (fire.hpp)
  // This turn:
  bool reserved = false;  // reserved its fire in the bombardment for close artillery
  bool fired = false;
  bool under_fire = false;
  // Lost in combat ("Guns abandoned"): it fires, moves and fights no more.
  bool abandoned = false;
  bool crew_killed = false;

  friend bool operator==(const Gun&, const Gun&) = default;
};

struct Leader {
  std::string id;
  std::string name;
  LeaderRank rank = LeaderRank::kBrigadier;
  Index side = kNone;
  Index wing = kNone;      // kNone: the marshal
  Index brigade = kNone;   // kNone: the marshal or a general
  Vec2 position;
  double facing_deg = 0;
  int action_modifier = 0;
  Index attached_to = kNone;  // a unit
  std::uint32_t wounds = 0;
  bool killed = false;

  friend bool operator==(const Leader&, const Leader&) = default;
};

struct Brigade {
  std::string id;
  std::string name;
  Index side = kNone;
  Index wing = kNone;
  Index brigadier = kNone;  // a leader

  friend bool operator==(const Brigade&, const Brigade&) = default;
};

struct Wing {
  std::string id;
  std::string name;
  Index side = kNone;
  Index general = kNone;  // a leader

  friend bool operator==(const Wing&, const Wing&) = default;
};

struct Side {
  std::string id;
  std::string name;
  CavalryStyle style = CavalryStyle::kTraditional;
  Index marshal = kNone;  // a leader
  std::uint32_t break_percent = 0;

  friend bool operator==(const Side&, const Side&) = default;
};

struct Objective {
  std::string id;
  std::string name;
  Vec2 at;
  double radius = 0;
  std::uint32_t points = 0;
  Index held_by = kNone;  // a side

  friend bool operator==(const Objective&, const Objective&) = default;
};

// A charge declared in the combat phase, and the target's response
// (combat.hpp).
enum class Response : std::uint8_t { kStand, kCounterCharge, kEvade };
struct Charge {
  Index unit = kNone;
  Target target;
  Response response = Response::kStand;
  friend bool operator==(const Charge&, const Charge&) = default;
};

// A unit's move after combat that its player chooses ("Movement after
// Combat"): what the Combat Results row allows it.
enum class AfterCombatChoice : std::uint8_t {
  kAnyPermittedAction,  // remain, pursue; cavalry may retire, foot take the position
  kRemainOrRetire,
  kRideThrough,         // 2 or 3 dice
};
struct AfterCombat {
  Index unit = kNone;
  AfterCombatChoice choice = AfterCombatChoice::kAnyPermittedAction;
  Index enemy = kNone;     // the unit it fought that gave ground, if any
  bool enemy_gave_ground = false;
  friend bool operator==(const AfterCombat&, const AfterCombat&) = default;
};

// The combat phase's stages within each half: charges are declared, the
// charged answer, then the moves after combat are chosen.
enum class CombatStage : std::uint8_t { kCharges, kResponses, kAfterCombat };

// The command phase's stages within each half: the leaders' actions, then
// the control tests' optional modifiers.
enum class CommandStage : std::uint8_t { kActions, kControl };

// The phases of a turn, in the sheet's order ("Sequence of Play").
enum class Phase : std::uint8_t {
  kBombardment, kMusketry, kCommand, kMovement, kCloseArtillery, kCombat, kMorale,
};
std::string_view to_string(Phase p);

struct GameState {
  std::string scenario;
  std::string title;
  std::string description;
  double table_width = 0;  // yards
  double table_depth = 0;
  std::vector<Feature> features;
  TerrainMap terrain;  // derived from `features` (make_terrain_map)

  std::vector<Side> sides;  // exactly two
  std::vector<Wing> wings;
  std::vector<Brigade> brigades;
  std::vector<Unit> units;
  std::vector<Gun> guns;
  std::vector<Leader> leaders;
  std::vector<Objective> objectives;
  Index attacker = kNone;
  bool no_control_tests = false;  // the scenario's call (RULINGS K4)

  std::uint32_t turn = 1;
  std::uint32_t turn_limit = 0;
  Phase phase = Phase::kBombardment;
  GameOptions options;
  // The sequence of play (sequence.hpp).
  bool started = false;   // the first step has been resolved
  bool ended = false;
  Index first = kNone;    // the side that acts first this turn
  std::uint8_t half = 0;  // alternate play: 0 while the first side acts, 1 the other
  bool move_orders = false;  // movement phase: the move dice are settled, orders are owed
  CommandStage command_stage = CommandStage::kActions;
  CombatStage combat_stage = CombatStage::kCharges;
  std::vector<Charge> charges;            // declared this half
  std::vector<AfterCombat> after_combat;  // choices owed this half
  std::uint64_t step = 0; // steps resolved
};

// The widths CF&EO's terrain takes when the scenario gives none, in yards
// (RULINGS F4).
const FeatureSizes& feature_sizes();

// A deterministic digest of everything that can change an outcome.
StateHash state_hash(const GameState& state);

}  // namespace galloper::rules::cfeo
