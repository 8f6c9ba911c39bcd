#pragma once
// Malbrook "Close Combat": the combat phase's charges (charge.hpp) and the
// resolution of every combat, with the results the after-combat sub-step
// (after_combat.hpp) consumes.
//
// ===========================================================================
// THE INTERFACE TO AFTER-COMBAT (fixed)
//
// Each combat resolved this turn is one CombatResult in
// GameState::combat.results (stamped with the turn), in resolution order. By
// the time after-combat runs, everything on the table up to the result is
// done: civilians eliminated, guns' crews abandoned, the dice rolled, the
// DPs and casualties of the table applied (damage.hpp, DpCause::kCombat) and
// the attached leaders tested (RiskCause::kCombat). What is left is the
// after-combat actions: CombatBrigade::options lists, for each brigade, what
// the table lets it do (one option: forced). The losing side acts first
// (CombatResult::loser; empty when the hits were equal: then the side without
// initiative decides first, RULINGS C16).
//
// "Pursuers encountering new enemy immediately charge into them": after-
// combat calls pursuit_charge() (below), which resolves that combat at once
// and appends its CombatResult.
// ===========================================================================
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/core/decision.hpp"
#include "rules/core/dice.hpp"
#include "rules/core/result.hpp"
#include "rules/core/vec2.hpp"
#include "rules/malbrook/after_combat_state.hpp"
#include "rules/core/hasher.hpp"
#include "rules/malbrook/types.hpp"

namespace galloper::rules::malbrook {

struct GameState;
struct Brigade;

// The Combat Results table, full text (RULINGS C12: the quick reference's
// bands differ; the full text wins):
//   +7 or more Breakthrough, +4/+6 Victory, +2/+3 Success, +1/-1 Inconclusive,
//   -2/-4 Driven Back, -5/-6 Defeat, -7 or less Break.
enum class CombatBand : std::uint8_t { kBreakthrough, kVictory, kSuccess, kInconclusive, kDrivenBack, kDefeat, kBreak };
inline constexpr int kCombatBandCount = 7;
std::string_view to_string(CombatBand b);
// The band for a side whose hits exceed its opponent's by `difference`.
CombatBand combat_band(int difference);
// What the band costs each brigade of the side: DPs (Inconclusive: 2 if it
// charged à l'outrance, else 1) and the side's casualties.
struct BandCost {
  int dps = 0;
  int casualties = 0;
};
BandCost band_cost(CombatBand band, bool charged_a_outrance);

// One dice modifier, for the event and for players.
struct CombatModifier {
  std::string why;
  int dice = 0;

  friend bool operator==(const CombatModifier&, const CombatModifier&) = default;
};

// One brigade's part in a combat.
struct CombatBrigade {
  std::string brigade;
  TroopType type = TroopType::kFoot;
  Grade grade = Grade::kC;
  int bases_in_combat = 0;      // "Bases in Combat" (RULINGS C8)
  bool charged = false;         // its charge (or counter-charge) made contact this turn
  bool counter_charged = false;
  bool a_outrance = false;      // charged à l'outrance
  bool pursuing = false;
  bool moved = false;           // moved this turn (foot charged by cavalry: -2)
  bool flanked = false;         // contacted in flank or rear by a charge from behind the flank
  bool single_rank = false;     // one rank deep (line or unformed)
  // Applied by the resolution (damage.hpp):
  int dps = 0;
  int casualties = 0;
  bool destroyed = false;
  // What the table lets it do now (after_combat.hpp); one entry: it must.
  std::vector<AfterAction> options;

  friend bool operator==(const CombatBrigade&, const CombatBrigade&) = default;
};

struct CombatSide {
  std::string army;
  std::vector<std::string> brigades;  // in combat (civilians already eliminated are not here)
  std::vector<std::string> guns;      // guns in the combat (their crews abandon them)
  std::vector<CombatBrigade> parts;   // parts[i] is brigades[i]
  int bases = 0;                      // bases in combat, all brigades
  std::vector<CombatModifier> modifiers;
  int dice = 0;                       // bases + modifiers, at least 0
  int hit_on = 5;                     // 5: a hit on 5-6; 6: on a 6 only
  std::vector<int> faces;
  int hits = 0;
  bool charged = false;     // some brigade of the side charged into this combat
  bool a_outrance = false;  // ... à l'outrance
  bool cavalry = false;     // every brigade of the side is cavalry
  bool foot = false;        // some brigade of the side is foot

  friend bool operator==(const CombatSide&, const CombatSide&) = default;
};

struct CombatResult {
  std::string id;  // "t<turn>c<n>", unique in the game
  std::uint32_t turn = 0;
  CombatSide a;    // the side that charged (if only one did), else the side with initiative
  CombatSide b;
  int difference = 0;  // a.hits - b.hits
  CombatBand band_a = CombatBand::kInconclusive;
  CombatBand band_b = CombatBand::kInconclusive;
  std::string loser;   // army with the lower result; empty when equal
  bool pursuit = false;  // a pursuit charge (pursuit_charge)

  friend bool operator==(const CombatResult&, const CombatResult&) = default;
};

// ---- What the phase keeps between its steps ----

// Sub-steps of the combat phase (RULINGS C1).
enum class CombatStage : std::uint8_t {
  kIdle,      // stale stamp: the phase starts afresh
  kDeclare,   // charge declarations, side with initiative first (half 0, 1)
  kRespond,   // responses of the brigades charged
  kDice,      // chargers and counter-chargers choose their dice
  kResolved,  // charges moved and every combat resolved: after-combat next
};

// One declared charge, and what became of it.
struct ChargeDeclaration {
  std::string charger;
  std::string target;        // brigade or gun id named at declaration
  bool a_outrance = false;
  bool counter = false;      // a counter-charge against `target` (a charger)
  std::uint32_t dice = 0;    // 1: 1 AvD, 2: 2 AvD, 3: 2 AvD + D6, 4: 1 AvD + D6 (0 until chosen)
  Vec2 start;                // the charger's position and facing when declared
  double start_facing = 0;
  double start_gap = 0;      // edge distance to the target when declared
  std::vector<int> faces;
  double inches = 0;
  std::string contacted;     // whom it reached (empty: failed to contact)

  friend bool operator==(const ChargeDeclaration&, const ChargeDeclaration&) = default;
};

// A charged brigade's response ("Charge Responses").
enum class ChargeResponse : std::uint8_t { kStand, kCounterCharge, kEvade, kAboutFace, kRefuseFlank };
std::string_view to_string(ChargeResponse r);
struct ResponseRecord {
  std::string brigade;
  ChargeResponse response = ChargeResponse::kStand;
  std::string against;  // the charger it responds to (counter-charge, evade, refuse)

  friend bool operator==(const ResponseRecord&, const ResponseRecord&) = default;
};

// A charge that failed to contact: next turn it tests and may have to charge again.
struct FailedCharge {
  std::string charger;
  std::string target;
  std::uint32_t turn = 0;  // the turn it failed

  friend bool operator==(const FailedCharge&, const FailedCharge&) = default;
};

// Flanking musketry owed ("Flanking musketry"): rolled in the combat phase of
// `turn`, once per pair.
struct FlankingFire {
  std::string target;  // the brigade that passed
  std::string firer;   // the enemy foot
  std::uint32_t turn = 0;
  bool rolled = false;

  friend bool operator==(const FlankingFire&, const FlankingFire&) = default;
};

struct CombatState {
  std::uint32_t turn = 0;  // stamp
  CombatStage stage = CombatStage::kIdle;
  std::uint32_t half = 0;
  std::vector<ChargeDeclaration> charges;  // charges, then counter-charges
  std::vector<ResponseRecord> responses;
  std::vector<std::string> evaders;        // cavalry evading without being charged (the Note)
  std::vector<CombatResult> results;       // THIS TURN'S COMBATS (the after-combat interface)
  std::vector<FailedCharge> failed;
  std::vector<FlankingFire> flanking;
  std::uint32_t next_id = 1;

  friend bool operator==(const CombatState&, const CombatState&) = default;
};

// The umpire's rulings on advantage of ground: brigade id -> has it (true) or
// not (false), overriding the terrain computation (RULINGS C10).
using AdvantageOverrides = std::map<std::string, bool>;

void hash_combat(Hasher& h, const CombatState& c, const AdvantageOverrides& advantage);

// ---- The phase (engine.cpp dispatches here) ----

std::vector<Decision> combat_pending(const GameState& state);
Verdict combat_check(const GameState& state, const Answer& answer);
// The same, given combat_pending(state).
Verdict combat_check(const GameState& state, const std::vector<Decision>& pending, const Answer& answer);
// Applies the answers of the current sub-step and runs on: with nothing more
// to ask, charges move and every combat is resolved (stage kResolved).
// `owed`, when given, is combat_pending(state), which it then need not work
// out again. When it stops at a later sub-step with decisions, it has worked
// out combat_pending(state) for that stage to find it: handed back in
// `known` (when given), so the engine need not work it out again either.
Verdict combat_resolve(GameState& state, const std::vector<Answer>& answers, Dice& dice, std::vector<Event>& events,
                       const std::vector<Decision>* owed = nullptr,
                       std::optional<std::vector<Decision>>* known = nullptr);
// This turn's combats are resolved (after-combat may start).
bool combat_resolved(const GameState& state);

// ---- Resolution pieces (tests and after-combat use them) ----

// Finds every combat on the table (brigades in base contact, foot with enemy
// within 1" to their front) and resolves each (RULINGS C6-C16).
void resolve_all_combats(GameState& state, Dice& dice, std::vector<Event>& events);

// The combat containing `brigade` as it stands, sides filled (bases,
// modifiers, dice, hit_on) but nothing rolled or applied; nullopt when it is
// in no combat. The odds (odds.hpp) use it on a seat's picture of the table.
std::optional<CombatResult> assess_combat_of(const GameState& state, std::string_view brigade);

// Rolls both sides' dice (a first) and sets faces, hits, the difference,
// the bands and the loser. Applies nothing.
void roll_combat(CombatResult& result, Dice& dice);

// "Bases in Combat" one base at a time (RULINGS C8), in footprint order
// (basing.hpp), against the enemies' outlines: `bases_in_combat` counts them;
// after_combat.hpp finds the bases "bound by the result" from them.
std::vector<bool> base_in_combat(const Brigade& b, const std::vector<Polygon>& enemies);

// After-combat options for one brigade from the table (CombatBrigade::options).
std::vector<AfterAction> after_combat_options(const CombatBrigade& part, CombatBand band, const CombatSide& enemy,
                                              CombatBand enemy_band);

// Records flanking musketry owed this turn (the movement phase calls it).
void record_flanking_fire(GameState& state, std::string_view target, std::string_view firer);
// `firer` has given (or owes) flanking fire on `target` this turn or last:
// "The following turn the brigade may move freely without again taking
// flanking fire from the same enemy" (RULINGS C18).
bool flanking_fire_given(const GameState& state, std::string_view target, std::string_view firer);

// Resolves the combat containing `brigade` now, if it is in one; the result
// is appended to state.combat.results. Returns its index, or -1.
int resolve_combat_of(GameState& state, std::string_view brigade, Dice& dice, std::vector<Event>& events);

// "Pursuers encountering new enemy immediately charge into them": moves the
// pursuer straight at `enemy` into contact (cavalry enemy that counter-
// charges meet it), then resolves that combat at once with the pursuer
// pursuing. Returns the index in state.combat.results, or -1 when no
// contact is possible.
int pursuit_charge(GameState& state, std::string_view pursuer, std::string_view enemy, bool enemy_counter_charges,
                   Dice& dice, std::vector<Event>& events);

// Flanking musketry's dice: the bases of `firer` with `target` (an outline)
// within 1" in their own front arcs (unformed: within 1").
int flanking_fire_dice(const Brigade& firer, const Polygon& target);
// Rolls the flanking musketry owed this turn (1 D6 per firing base within
// 1", 4-6 a DP), once per pair.
void roll_flanking_musketry(GameState& state, Dice& dice, std::vector<Event>& events);

}  // namespace galloper::rules::malbrook
