#pragma once
// Shooting in the sequence of play: the bombardment ("Guns may fire or
// reserve fire"), musketry ("Infantry may fire at targets beyond 40 yds")
// and close artillery ("Guns that reserved fire may give fire at close range
// only"). The tables are fire_tables.hpp's; this finds their inputs on the
// table (RULINGS F8).
//
// Each piece of an acting side that may fire owes a decision, offered only
// the enemies its seat sees: "fire/<gun>" (a target, "reserve" or "hold"),
// "musketry/<unit>" and "close_fire/<gun>" (a target or "hold"). Every shot
// of a step is worked out on the state the step began with, then applied.
#include <string>
#include <string_view>
#include <vector>

#include "rules/cfeo/sight.hpp"
#include "rules/cfeo/state.hpp"
#include "rules/core/geometry.hpp"
#include "rules/core/decision.hpp"
#include "rules/core/dice.hpp"

namespace galloper::rules::cfeo {

inline constexpr std::string_view kFirePrefix = "fire/";
inline constexpr std::string_view kMusketryPrefix = "musketry/";
inline constexpr std::string_view kCloseFirePrefix = "close_fire/";
inline constexpr std::string_view kReserve = "reserve";
inline constexpr std::string_view kHold = "hold";
inline constexpr double kFireArcDeg = 45;  // either side of the front (RULINGS F8)

// The decisions of the current fire phase (bombardment, musketry or close
// artillery) for the acting sides; none in other phases.
std::vector<Decision> fire_pending(const GameState& state, const SightTable& sight);
// Applies the answers: rolls each shot, puts its DPs on its target, and
// marks who fired, reserved fire or came under fire.
void resolve_fire(GameState& state, const std::vector<Answer>& answers, Dice& dice, std::vector<Event>& events);

// The piece an id names: a unit or a gun (kind kNone: neither).
Target target_named(const GameState& state, std::string_view id);
const std::string& target_id(const GameState& state, Target target);
std::vector<OrientedRect> target_bases(const GameState& state, Target target);

// The enemy units and guns (abandoned guns aside) a piece of `seat` on
// `side` may be offered: those its seat's eyes see, or its side's with
// side-shared vision.
std::vector<Target> seen_enemies(const GameState& state, const SightTable& sight, const std::string& seat, Index side);

}  // namespace galloper::rules::cfeo
