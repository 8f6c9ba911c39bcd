#pragma once
// Malbrook cavalry charges ("Cavalry Charges", "Charge Move", "Failure to
// contact", "Charging à l'outrance", "Charge Responses", the Note on foot
// advancing within 1" of cavalry). The combat phase (combat.hpp) asks these
// decisions in its first three sub-steps (RULINGS C1):
//
//  1. kDeclare  "charge/<brigade>" (kind "charge_declaration"), the side with
//     initiative first, then the other (both at once when simultaneous):
//     "none", "charge:<target>", "outrance:<target>" (hussars, new style
//     horse, flagged new style dragoons), and "evade" for unformed cavalry
//     that enemy foot came within 1" of. A brigade that failed to contact
//     last turn and did not get "act as player wishes" must charge again.
//     A brigade conforming in a line has "conform" instead of "none" and its
//     charge options hold only if its lead charges; a conforming rear line
//     is offered no charge (RULINGS C19).
//  2. kRespond  "response/<brigade>" (kind "charge_response") for each brigade
//     charged that is not charging itself: "stand" (default),
//     "counter_charge" (cavalry, even halted), "evade" (unformed cavalry),
//     "about_face" / "refuse_flank" (formed foot charged from beyond 2").
//  3. kDice     "charge_dice/<brigade>" (kind "charge_dice") for chargers and
//     counter-chargers: "1" (1 AvD), "2" (2 AvD), "1+d6" (1 AvD + D6), "3"
//     (2 AvD + D6), as the cavalry change-of-speed rule allows.
// Then execute_charges(): evades, then each charge in declaration order.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/core/decision.hpp"
#include "rules/core/dice.hpp"
#include "rules/core/geometry.hpp"
#include "rules/core/result.hpp"
#include "rules/malbrook/state.hpp"

namespace galloper::rules::malbrook {

inline constexpr double kChargeDeviation = 22.5;    // "up to 22½° off centre"
inline constexpr double kContactGap = 0.05;          // base-to-base contact (a charge ends touching)
inline constexpr double kStandBeyond = 2.0;         // "a charge from over 2 inches away"
inline constexpr double kChargeSightRange = 48.0;   // targets: anything seen (visibility is at most 48")

// A brigade or gun on the table, as combat sees it.
bool unit_on_table(const Brigade& b);
bool unit_on_table(const Gun& g);
// Footprints: every base (front rank first) and the envelope polygon.
std::vector<OrientedRect> unit_bases(const GameState& s, std::string_view id);
Polygon unit_polygon(const GameState& s, std::string_view id);
std::string unit_army(const GameState& s, std::string_view id);

// "Normally only hussars and new style horse ...; some new style dragoons".
bool may_charge_a_outrance(const Brigade& b);
// Cavalry able to initiate a charge now: on the table, not halted (marker or
// control result), not routing/retiring/evading/pursuing, and not already in
// base-to-base contact with enemy (RULINGS C2).
bool may_charge(const GameState& s, const Brigade& b);
// Why the brigade may not declare a charge now (its own state, or
// conforming: RULINGS C19), or Ok.
Verdict may_declare_charge(const GameState& s, const Brigade& b);
// Conforming brigades and charges (Control, RULINGS C19): a rear line "does
// not charge"; a line in contact charges only when the brigade it conforms to
// can, and then with it ("if it charges they charge"). nullopt when
// conforming does not stop the brigade.
std::optional<Rejection> conforming_charge_refusal(const GameState& s, const Brigade& b);
// Failed to contact last turn and did not get "act as player wishes".
bool must_charge_again(const GameState& s, const Brigade& b);

// The charge path: the direction within 22½° of the facing that reaches the
// target soonest, and the distance to contact (ignoring anything else).
struct ChargePath {
  double deviation_deg = 0;  // clockwise from the facing
  Vec2 dir;
  double contact = 0;        // inches to contact
};
std::optional<ChargePath> charge_path(const OrientedRect& charger, const Polygon& target, double max_distance);
// The charge path to `target` on the table as it stands, or nullopt when
// there is none or something else (friends, other enemy, closed terrain, the
// table edge) is met first.
std::optional<ChargePath> charge_contact(const GameState& s, const Brigade& b, std::string_view target);
// Enemy brigades and guns the brigade's army sees (with wing-only vision:
// its own seat sees), with a charge path.
std::vector<std::string> charge_targets(const GameState& s, const Brigade& b);

// A brigade's bases were it standing at (position, facing) (a charger's start).
std::vector<OrientedRect> brigade_bases_at(const Brigade& b, Vec2 position, double facing_deg);

// "Charged in the flank": `target` formed, and some base of the charger
// started behind the line of the target's front edge (RULINGS C5).
bool charge_from_behind_flank(const Brigade& target, const std::vector<OrientedRect>& charger_start_bases);

// ---- The three decision sub-steps ----
std::vector<Decision> charge_declare_decisions(const GameState& s);  // the acting armies (acting_armies)
std::vector<Decision> charge_response_decisions(const GameState& s);
std::vector<Decision> charge_dice_decisions(const GameState& s);
// Answers are already checked against the decisions (options listed).
void apply_charge_declarations(GameState& s, const std::vector<Decision>& ds, const std::vector<Answer>& answers,
                               std::vector<Event>& events);
void apply_charge_responses(GameState& s, const std::vector<Decision>& ds, const std::vector<Answer>& answers,
                            std::vector<Event>& events);
void apply_charge_dice(GameState& s, const std::vector<Decision>& ds, const std::vector<Answer>& answers,
                       std::vector<Event>& events);

// Evades, counter-charges and charges: dice, fatigue DPs, moves, contact or
// failure (Status::kFailedCharge and CombatState::failed).
void execute_charges(GameState& s, Dice& dice, std::vector<Event>& events);

// The distance (inches) a charge covers on the given dice faces.
double charge_inches(const std::vector<int>& faces, bool inspired);

}  // namespace galloper::rules::malbrook
