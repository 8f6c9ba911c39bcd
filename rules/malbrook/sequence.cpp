#include "rules/malbrook/sequence.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

#include "rules/core/geometry.hpp"
#include "rules/malbrook/seats.hpp"

namespace galloper::rules::malbrook {

std::vector<std::string> armies_in_order(const GameState& state) {
  std::vector<std::string> out;
  for (const auto& a : state.armies) out.push_back(a.id);
  if (!state.initiative.empty()) {
    std::stable_partition(out.begin(), out.end(), [&](const std::string& id) { return id == state.initiative; });
  }
  return out;
}

std::string other_army(const GameState& state, std::string_view army) {
  for (const auto& a : state.armies) {
    if (a.id != army) return a.id;
  }
  return {};
}

std::vector<std::string> acting_armies(const GameState& state) {
  std::vector<std::string> order = armies_in_order(state);
  if (state.simultaneous || order.size() < 2) return order;
  return {order[state.half == 0 ? 0 : 1]};
}

bool is_acting(const GameState& state, std::string_view army) {
  for (const auto& a : acting_armies(state)) {
    if (a == army) return true;
  }
  return false;
}

// ---- Right to left ----

namespace {

struct Centre {
  Vec2 sum;
  int n = 0;
  void add(Vec2 p) {
    sum = sum + p;
    ++n;
  }
  Vec2 mean() const { return n == 0 ? Vec2{} : sum * (1.0 / n); }
};

Centre centre_of(const GameState& s, std::string_view army) {
  Centre c;
  for (const auto& b : s.brigades) {
    if (same_id(b.army, army)) c.add(b.position);
  }
  for (const auto& g : s.guns) {
    if (same_id(g.army, army)) c.add(g.position);
  }
  for (const auto& l : s.leaders) {
    if (same_id(l.army, army)) c.add(l.position);
  }
  return c;
}

template <class Piece>
std::vector<std::size_t> right_to_left(const GameState& s, std::string_view army, const std::vector<Piece>& pieces) {
  const Vec2 right = facing_unit(army_facing_deg(s, army) + 90.0);
  std::vector<std::tuple<double, std::string, std::size_t>> keyed;
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    if (!same_id(pieces[i].army, army)) continue;
    keyed.emplace_back(-dot(pieces[i].position, right), pieces[i].id, i);
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<std::size_t> out;
  out.reserve(keyed.size());
  for (const auto& k : keyed) out.push_back(std::get<2>(k));
  return out;
}

}  // namespace

double army_facing_deg(const GameState& state, std::string_view army) {
  const Centre own = centre_of(state, army);
  const Centre enemy = centre_of(state, other_army(state, army));
  if (own.n == 0 || enemy.n == 0) return 0;
  const Vec2 d = enemy.mean() - own.mean();
  if (d.x == 0 && d.y == 0) return 0;
  // Snap to the nearest table axis: north, east, south or west.
  const double b = bearing_of(d);
  return normalize_deg(std::round(b / 90.0) * 90.0);
}

std::vector<std::size_t> brigades_right_to_left(const GameState& state, std::string_view army) {
  return right_to_left(state, army, state.brigades);
}
std::vector<std::size_t> guns_right_to_left(const GameState& state, std::string_view army) {
  return right_to_left(state, army, state.guns);
}
std::vector<std::size_t> leaders_right_to_left(const GameState& state, std::string_view army) {
  return right_to_left(state, army, state.leaders);
}

// ---- Turns and initiative ----

void begin_turn(GameState& state) {
  constexpr std::uint32_t kPerTurn =
      static_cast<std::uint32_t>(Status::kHalted) | static_cast<std::uint32_t>(Status::kInspired) |
      static_cast<std::uint32_t>(Status::kMoved) | static_cast<std::uint32_t>(Status::kUnderFire) |
      static_cast<std::uint32_t>(Status::kFired);
  for (auto& b : state.brigades) {
    b.status &= ~kPerTurn;
    b.inspire_actions = 0;
    b.control = ControlResult::kUnknown;
    b.controlled_by.clear();
    b.conform_to.clear();
    b.conform_behind = false;
  }
  for (auto& g : state.guns) {
    g.status &= ~kPerTurn;
    g.control = ControlResult::kUnknown;
    g.controlled_by.clear();
  }
}

int initiative_modifier(const GameState& state, std::string_view army) {
  const Army* a = state.find_army(army);
  if (a == nullptr) return 0;
  for (const auto& id : a->marshals) {
    const Leader* m = state.find_leader(id);
    if (m != nullptr && m->exceptional && !m->killed && !m->captured) return 1;
  }
  return 0;
}

namespace {

std::string army_name(const GameState& s, std::string_view id) {
  const Army* a = s.find_army(id);
  return a != nullptr && !a->name.empty() ? a->name : std::string(id);
}

}  // namespace

void settle_initiative(GameState& state, Dice& dice, std::vector<Event>& events) {
  state.initiative.clear();
  state.initiative_winner.clear();
  if (state.armies.size() < 2) {
    if (!state.armies.empty()) state.initiative = state.armies.front().id;
    return;
  }
  if (state.turn == 1 && !state.attacker.empty() && state.find_army(state.attacker) != nullptr) {
    state.initiative = state.attacker;
    events.push_back(public_event("initiative", "Turn 1 of an attack scenario: " + army_name(state, state.attacker) +
                                                    ", the attacker, moves first."));
    return;
  }
  const std::string a = state.armies[0].id;
  const std::string b = state.armies[1].id;
  const int ma = initiative_modifier(state, a);
  const int mb = initiative_modifier(state, b);
  for (;;) {
    const int ra = dice.d6();
    const int rb = dice.d6();
    const int ta = ra + ma;
    const int tb = rb + mb;
    auto score = [](const std::string& name, int roll, int mod) {
      return name + " " + std::to_string(roll) + (mod != 0 ? "+1 (exceptional Marshal) = " + std::to_string(roll + mod) : "");
    };
    std::string text = "Initiative: " + score(army_name(state, a), ra, ma) + ", " + score(army_name(state, b), rb, mb);
    if (ta == tb) {
      events.push_back(public_event("initiative_roll", text + ": tied, both roll again.", dice.drain()));
      continue;
    }
    state.initiative_winner = ta > tb ? a : b;
    events.push_back(public_event("initiative_roll",
                                  text + ": " + army_name(state, state.initiative_winner) +
                                      " wins and chooses whether to go first or second.",
                                  dice.drain()));
    return;
  }
}

Decision initiative_decision(const GameState& state) {
  Decision d;
  d.id = std::string(kInitiativeDecision);
  d.seat = army_seat(state.initiative_winner);
  d.kind = "initiative";
  d.prompt = "You won the initiative for turn " + std::to_string(state.turn) +
             ": go first or second in every phase of this turn?";
  d.options = {{"first", "Go first"}, {"second", "Go second"}};
  d.default_option = "first";
  return d;
}

Verdict initiative_check(const GameState&, const Answer& answer) {
  if (answer.option != "first" && answer.option != "second") {
    return reject("bad_option", "Answer \"first\" or \"second\", not \"" + answer.option + "\".");
  }
  return Ok{};
}

void apply_initiative_choice(GameState& state, const Answer& answer, std::vector<Event>& events) {
  const std::string winner = state.initiative_winner;
  state.initiative = answer.option == "second" ? other_army(state, winner) : winner;
  state.initiative_winner.clear();
  events.push_back(public_event("initiative",
                                army_name(state, winner) + " chooses to go " + answer.option + ": " +
                                    army_name(state, state.initiative) + " moves first in turn " +
                                    std::to_string(state.turn) + "."));
}

}  // namespace galloper::rules::malbrook
