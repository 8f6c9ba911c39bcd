#include "rules/cfeo/sequence.hpp"

#include "rules/cfeo/victory.hpp"

namespace galloper::rules::cfeo {

namespace {

constexpr Phase kLastPhase = Phase::kMorale;

bool alternate(const GameState& s) { return !s.options.simultaneous && s.sides.size() > 1; }

Index other(const GameState& s, Index side) { return s.sides.size() > 1 ? 1 - side : side; }

const std::string& side_name(const GameState& s, Index side) { return s.sides[static_cast<std::size_t>(side)].name; }

// Clears what lasts only for a turn.
void clear_turn_marks(GameState& s) {
  for (Unit& u : s.units) {
    u.fired = false;
    u.moved = false;
    u.allowance = -1;
    u.artillery_dps = false;
    u.under_fire = false;
    u.in_combat = false;
    u.evaded = false;
    u.rode_through = false;
    u.inspired = 0;
    u.steadied = false;
    u.control = Control::kFree;
    // "Next turn may either continue to retire or remain in place to
    // reform": it stands, unformed, until it re-forms (RULINGS C7).
    u.retiring = false;
  }
  for (Gun& g : s.guns) {
    g.reserved = false;
    g.fired = false;
    g.under_fire = false;
  }
}

// Who acts first this turn: the attacker; in a meeting engagement a D6
// each, the first side in the scenario rolling first, re-rolled while tied.
void settle_first(GameState& s, Dice& dice, std::vector<Event>& ev) {
  if (s.attacker != kNone || s.sides.size() < 2) {
    s.first = s.attacker != kNone ? s.attacker : 0;
    return;
  }
  std::vector<DieRoll> rolled;
  for (;;) {
    const int a = dice.d6();
    const int b = dice.d6();
    for (const DieRoll& r : dice.drain()) rolled.push_back(r);
    if (a == b) continue;
    s.first = a > b ? 0 : 1;
    ev.push_back(public_event("first", side_name(s, 0) + " " + std::to_string(a) + ", " + side_name(s, 1) + " " +
                                           std::to_string(b) + ": " + side_name(s, s.first) + " act first this turn.",
                              std::move(rolled)));
    return;
  }
}

void enter_phase(GameState& s, Phase p, std::vector<Event>& ev) {
  s.phase = p;
  s.half = 0;
  s.move_orders = false;
  s.command_stage = CommandStage::kActions;
  s.combat_stage = CombatStage::kCharges;
  ev.push_back(public_event("phase", "Turn " + std::to_string(s.turn) + ": " + std::string(to_string(p)) + " phase" +
                                         (alternate(s) ? ", " + side_name(s, s.first) + " first." : ", both sides together.")));
}

void begin_turn(GameState& s, Dice& dice, std::vector<Event>& ev) {
  clear_turn_marks(s);
  ev.push_back(public_event("turn", "Turn " + std::to_string(s.turn) + " begins."));
  settle_first(s, dice, ev);
  enter_phase(s, Phase::kBombardment, ev);
}

}  // namespace

std::vector<Index> acting_sides(const GameState& s) {
  if (s.first == kNone) return {};
  if (!alternate(s)) {
    std::vector<Index> both{s.first};
    if (s.sides.size() > 1) both.push_back(other(s, s.first));
    return both;
  }
  return {s.half == 0 ? s.first : other(s, s.first)};
}

bool is_acting(const GameState& s, Index side) {
  for (Index a : acting_sides(s)) {
    if (a == side) return true;
  }
  return false;
}

void start(GameState& s, Dice& dice, std::vector<Event>& ev) {
  s.started = true;
  begin_turn(s, dice, ev);
}

void advance(GameState& s, Dice& dice, std::vector<Event>& ev) {
  if (alternate(s) && s.half == 0) {
    s.half = 1;
    s.move_orders = false;
    s.command_stage = CommandStage::kActions;
    s.combat_stage = CombatStage::kCharges;
    ev.push_back(public_event("phase", "Turn " + std::to_string(s.turn) + ": " + std::string(to_string(s.phase)) +
                                           " phase, " + side_name(s, other(s, s.first)) + " now act."));
    return;
  }
  if (s.phase != kLastPhase) {
    enter_phase(s, static_cast<Phase>(static_cast<int>(s.phase) + 1), ev);
    return;
  }
  if (end_of_turn(s, ev)) return;
  ++s.turn;
  begin_turn(s, dice, ev);
}

}  // namespace galloper::rules::cfeo
