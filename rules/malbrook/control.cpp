#include "rules/malbrook/control.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <span>
#include <tuple>

#include "rules/core/geometry.hpp"
#include "rules/core/tell.hpp"
#include "rules/core/visibility.hpp"
#include "rules/malbrook/basing.hpp"
#include "rules/malbrook/command.hpp"
#include "rules/malbrook/seats.hpp"
#include "rules/malbrook/sequence.hpp"
#include "rules/malbrook/visibility.hpp"

namespace galloper::rules::malbrook {

namespace {

constexpr double kSlack = 1e-6;

bool on_table(const Brigade& b) {
  return !b.has(Status::kDestroyed) && !b.has(Status::kSurrendered) && b.bases > 0;
}
bool on_table(const Gun& g) {
  return !g.has(Status::kDestroyed) && !g.has(Status::kCrewEliminated) && !g.has(Status::kAbandoned);
}

bool routing_pursuing_looting(const Brigade& b) {
  return b.has(Status::kRouting) || b.has(Status::kPursuing) || b.has(Status::kLooting);
}
bool charging(const Brigade& b) { return b.has(Status::kCharging) || b.has(Status::kFailedCharge); }
// Brigades in these states are not "part of a continuous line".
bool out_of_line(const Brigade& b) {
  return routing_pursuing_looting(b) || charging(b) || b.has(Status::kEvading) || b.has(Status::kRetiring);
}

double gap(const std::vector<OrientedRect>& a, const std::vector<OrientedRect>& b) {
  double best = std::numeric_limits<double>::infinity();
  for (const auto& x : a) {
    for (const auto& y : b) best = std::min(best, distance(x, y));
  }
  return best;
}

int rank_order(LeaderRank r) {
  switch (r) {
    case LeaderRank::kMajorGeneral: return 0;
    case LeaderRank::kLieutenantGeneral: return 1;
    case LeaderRank::kMarshal: return 2;
  }
  return 3;
}

// Scene indices of the state's pieces (build_scene skips pieces off the table).
// The detached leader of the unit's chain of command who controls it: within
// range and able to see it. Lowest rank first (its own Major General before
// its Lieutenant General before the Marshal), then nearest, then id.
template <class Unit>
const Leader* controlling_leader(const GameState& s, const SceneLookup& scene,
                                 const Unit& unit, PieceKind kind, std::size_t unit_index,
                                 const std::vector<OrientedRect>& bases) {
  const auto target = scene.find(kind, unit_index);
  // The bases' box: its gap to a leader's box is a lower bound of the
  // footprints' gap, which saves working that out for leaders out of range
  // (with a second kSlack to spare for rounding).
  const Aabb box = bounds(bases);
  const Leader* best = nullptr;
  std::tuple<int, double, std::string> best_key;
  for (std::size_t li = 0; li < s.leaders.size(); ++li) {
    const Leader& l = s.leaders[li];
    if (!on_table(l) || !l.attached_to.empty() || !in_chain_of_command(l, unit)) continue;
    const double range = l.rank == LeaderRank::kMarshal ? kMarshalControlRange : kControlRange;
    const OrientedRect stand = footprint(l);
    if (box.distance_to(stand.bounds()) > range + 2 * kSlack) continue;
    const double d = distance(std::span(bases), stand);
    if (d > range + kSlack) continue;
    const auto eye = scene.find(PieceKind::kLeader, li);
    if (!eye || !target) continue;
    if (!scene.sees(*eye, *target)) continue;
    auto key = std::make_tuple(rank_order(l.rank), d, l.id);
    if (best == nullptr || key < best_key) {
      best = &l;
      best_key = key;
    }
  }
  return best;
}

bool same_command(const Brigade& a, const Brigade& b) {
  return a.army == b.army && a.wing == b.wing && a.command == b.command && !a.command.empty();
}

bool facing_together(const Brigade& a, const Brigade& b) {
  return std::abs(angle_diff_deg(a.facing_deg, b.facing_deg)) <= kConformFacing + kSlack;
}

OrientedRect envelope_of(const Brigade& b) {
  const auto bases = footprint(b);
  return envelope(bases, b.facing_deg);
}

// The test options for `choices` player's +/-1 modifiers.
std::vector<Option> test_options(int choices) {
  if (choices == 0) return {{"test", "Take the control test"}};
  if (choices == 1) return {{"test+1", "Take the control test, +1"}, {"test-1", "Take the control test, -1"}};
  return {{"test+2", "Take the control test, +1 +1"},
          {"test+0", "Take the control test, +1 -1"},
          {"test-2", "Take the control test, -1 -1"}};
}

std::string default_test(int choices) {
  if (choices == 0) return "test";
  return choices == 1 ? "test-1" : "test+0";
}

// The chosen net modifier of a test option, or nullopt for a non-test option.
std::optional<int> chosen_modifier(std::string_view option) {
  if (option == "test") return 0;
  if (option == "test+0") return 0;
  if (option == "test+1") return 1;
  if (option == "test-1") return -1;
  if (option == "test+2") return 2;
  if (option == "test-2") return -2;
  return std::nullopt;
}

std::string fixed_reason(const Brigade& b) {
  if (b.has(Status::kRouting)) return "routing";
  if (b.has(Status::kPursuing)) return "pursuing";
  return "charging";
}

}  // namespace

const Leader* attached_leader(const GameState& s, const Brigade& b) {
  const Leader* best = nullptr;
  for (const auto& l : s.leaders) {
    if (!on_table(l) || l.attached_to != b.id || !in_chain_of_command(l, b)) continue;
    if (best == nullptr || rank_order(l.rank) < rank_order(best->rank) ||
        (rank_order(l.rank) == rank_order(best->rank) && l.id < best->id)) {
      best = &l;
    }
  }
  return best;
}

void determine_control(GameState& s) {
  const SceneLookup scene(s);
  std::vector<std::vector<OrientedRect>> feet(s.brigades.size());
  for (std::size_t i = 0; i < s.brigades.size(); ++i) {
    Brigade& b = s.brigades[i];
    b.control = ControlResult::kUnknown;
    b.controlled_by.clear();
    b.conform_to.clear();
    b.conform_behind = false;
    if (!on_table(b)) continue;
    feet[i] = footprint(b);
    if (const Leader* l = attached_leader(s, b)) {
      b.control = ControlResult::kControlled;
      b.controlled_by = l->id;
    } else if (const Leader* c = controlling_leader(s, scene, b, PieceKind::kBrigade, i, feet[i])) {
      b.control = ControlResult::kControlled;
      b.controlled_by = c->id;
    } else {
      b.control = ControlResult::kTest;
    }
  }
  // A continuous line: spread from each controlled brigade through brigades
  // of the same command in base-to-base contact beside it (transitively).
  std::vector<std::size_t> frontier;
  for (std::size_t i = 0; i < s.brigades.size(); ++i) {
    const Brigade& b = s.brigades[i];
    if (b.control == ControlResult::kControlled && !out_of_line(b)) frontier.push_back(i);
  }
  std::vector<std::string> root(s.brigades.size());
  for (std::size_t i : frontier) root[i] = s.brigades[i].id;
  for (std::size_t k = 0; k < frontier.size(); ++k) {
    const std::size_t i = frontier[k];
    const Brigade& lead = s.brigades[i];
    const OrientedRect lead_env = envelope_of(lead);
    for (std::size_t j = 0; j < s.brigades.size(); ++j) {
      Brigade& b = s.brigades[j];
      if (b.control != ControlResult::kTest || out_of_line(b) || !same_command(lead, b) || !facing_together(lead, b)) {
        continue;
      }
      if (gap(feet[i], feet[j]) > kCommandContact + kSlack) continue;
      const OrientedRect env = envelope_of(b);
      if (directly_behind(lead_env, env, kCommandContact, kSlack) || directly_behind(env, lead_env, kCommandContact, kSlack)) {
        continue;  // one behind the other: a rear line, not a line
      }
      b.control = ControlResult::kConforming;
      b.conform_to = root[i];
      root[j] = root[i];
      frontier.push_back(j);
    }
  }
  // Rear lines: within 4" directly behind a controlled brigade.
  for (std::size_t j = 0; j < s.brigades.size(); ++j) {
    Brigade& b = s.brigades[j];
    if (b.control != ControlResult::kTest || out_of_line(b)) continue;
    const OrientedRect env = envelope_of(b);
    for (std::size_t i = 0; i < s.brigades.size(); ++i) {
      const Brigade& lead = s.brigades[i];
      if (i == j || lead.control != ControlResult::kControlled || out_of_line(lead) || !same_command(lead, b) ||
          !facing_together(lead, b)) {
        continue;
      }
      if (!directly_behind(envelope_of(lead), env, kConformBehind, kSlack)) continue;
      b.control = ControlResult::kConforming;
      b.conform_to = lead.id;
      b.conform_behind = true;
      break;
    }
  }
  // "All brigades that ... charged and failed to make contact last turn; must
  // take a Control Test even if they are under control or have an attached leader."
  for (auto& b : s.brigades) {
    if (on_table(b) && b.has(Status::kFailedCharge)) {
      b.control = ControlResult::kTest;
      b.conform_to.clear();
      b.conform_behind = false;
    }
  }
  for (std::size_t i = 0; i < s.guns.size(); ++i) {
    Gun& g = s.guns[i];
    g.control = ControlResult::kUnknown;
    g.controlled_by.clear();
    if (!on_table(g)) continue;
    if (const Leader* c = controlling_leader(s, scene, g, PieceKind::kGun, i, {footprint(g)})) {
      g.control = ControlResult::kControlled;
      g.controlled_by = c->id;
    } else {
      g.control = ControlResult::kTest;
    }
  }
}

bool gun_controlled(const GameState& s, const SceneLookup& scene, std::size_t i) {
  const Gun& g = s.guns[i];
  return on_table(g) && controlling_leader(s, scene, g, PieceKind::kGun, i, {footprint(g)}) != nullptr;
}

ControlModifiers control_modifiers(const GameState& s, const Brigade& b) {
  ControlModifiers m;
  // Full text: "+1 to result if in Rout, Pursuit or Charging" (the quick
  // reference adds looting; the full text wins: RULINGS.md).
  if (b.has(Status::kRouting) || b.has(Status::kPursuing) || charging(b)) m.fixed = 1;
  if (attached_leader(s, b) != nullptr) ++m.choices;
  if (b.grade == Grade::kA || b.grade == Grade::kB) ++m.choices;
  return m;
}

ControlModifiers control_modifiers(const GameState&, const Gun&) { return {0, 1}; }

ControlResult control_test_result(int total, bool continuing, bool looting) {
  if (total <= 2) return continuing ? ControlResult::kContinue : ControlResult::kHalt;
  if (total <= 4) return ControlResult::kAsWished;
  return continuing || looting ? ControlResult::kContinue : ControlResult::kRepeatLastMove;
}

std::vector<Decision> control_pending(const GameState& s) {
  std::vector<Decision> out;
  for (const auto& army : acting_armies(s)) {
    for (std::size_t i : brigades_right_to_left(s, army)) {
      const Brigade& b = s.brigades[i];
      if (!on_table(b)) continue;
      const ControlModifiers m = control_modifiers(s, b);
      Decision d;
      d.id = std::string(kControlDecisionPrefix) + b.id;
      d.seat = seat_of(b);
      d.kind = "control_test";
      d.subjects = {b.id};
      const std::vector<Option> tests = test_options(m.choices);
      if (b.control == ControlResult::kConforming) {
        d.prompt = ref(b.id) + " is not under control but may conform to " + ref(b.conform_to) +
                   (b.conform_behind ? " (from behind: it does not charge with it)" : "") +
                   "; or take a control test to act differently.";
        d.options.push_back({"conform", "Conform to " + ref(b.conform_to), b.conform_to});
        d.default_option = "conform";
      } else if (b.control == ControlResult::kControlled && routing_pursuing_looting(b)) {
        d.prompt = ref(b.id) + " is under control; to cease " +
                   std::string(b.has(Status::kRouting) ? "routing" : b.has(Status::kPursuing) ? "pursuing" : "looting") +
                   " it must take a control test.";
        d.options.push_back({"continue", "Carry on"});
        d.default_option = "continue";
      } else if (b.control == ControlResult::kTest && m.choices > 0) {
        d.prompt = ref(b.id) + " must take a control test: choose the modifiers before the die is rolled.";
        d.default_option = default_test(m.choices);
      } else {
        continue;
      }
      d.options.insert(d.options.end(), tests.begin(), tests.end());
      out.push_back(std::move(d));
    }
    for (std::size_t i : guns_right_to_left(s, army)) {
      const Gun& g = s.guns[i];
      if (g.control != ControlResult::kTest) continue;
      Decision d;
      d.id = std::string(kControlDecisionPrefix) + g.id;
      d.seat = seat_of(g);
      d.kind = "control_test";
      d.subjects = {g.id};
      d.prompt = ref(g.id) + " must take a control test: +1 or -1 for guns, chosen before the die is rolled.";
      d.options = test_options(1);
      d.default_option = default_test(1);
      out.push_back(std::move(d));
    }
  }
  return out;
}

void resolve_control(GameState& s, const std::vector<Answer>& answers, Dice& dice, std::vector<Event>& events) {
  std::map<std::string, std::string> chosen;
  for (const auto& a : answers) {
    if (a.decision_id.rfind(kControlDecisionPrefix, 0) == 0) {
      chosen[a.decision_id.substr(kControlDecisionPrefix.size())] = a.option;
    }
  }
  for (const auto& army : acting_armies(s)) {
    // Brigades and guns together, right to left.
    const Vec2 right = facing_unit(army_facing_deg(s, army) + 90.0);
    std::vector<std::tuple<double, std::string, bool, std::size_t>> order;
    for (std::size_t i = 0; i < s.brigades.size(); ++i) {
      if (s.brigades[i].army == army) order.emplace_back(-dot(s.brigades[i].position, right), s.brigades[i].id, false, i);
    }
    for (std::size_t i = 0; i < s.guns.size(); ++i) {
      if (s.guns[i].army == army) order.emplace_back(-dot(s.guns[i].position, right), s.guns[i].id, true, i);
    }
    std::sort(order.begin(), order.end());
    for (const auto& [key, id, is_gun, index] : order) {
      (void)key;
      auto it = chosen.find(id);
      const std::string option = it == chosen.end() ? "" : it->second;
      if (option == "conform" || option == "continue") continue;
      int fixed = 0;
      int choice = 0;
      bool continuing = false;
      bool looting = false;
      std::string why;
      Vec2 where;
      if (!is_gun) {
        const Brigade& b = s.brigades[index];
        if (!on_table(b)) continue;
        const bool must = b.control == ControlResult::kTest;
        if (!must && option.empty()) continue;  // controlled or conforming: no test
        const ControlModifiers m = control_modifiers(s, b);
        fixed = m.fixed;
        if (fixed > 0) why += " +1 (" + fixed_reason(b) + ")";
        choice = chosen_modifier(option).value_or(0);
        continuing = b.has(Status::kRouting) || b.has(Status::kPursuing) || charging(b);
        looting = b.has(Status::kLooting);
        where = b.position;
      } else {
        const Gun& g = s.guns[index];
        if (g.control != ControlResult::kTest) continue;
        choice = chosen_modifier(option.empty() ? default_test(1) : option).value_or(0);
        where = g.position;
      }
      if (choice != 0) why += (choice > 0 ? " +" : " ") + std::to_string(choice) + " (player's choice)";
      const int face = dice.d6();
      const int total = face + fixed + choice;
      const ControlResult r = control_test_result(total, continuing, looting);
      Event e;
      e.kind = "control_test";
      e.subjects = {id};
      e.where = {{where, id}};
      e.text = ref(id) + " takes a control test: " + std::to_string(face) + why + " = " + std::to_string(total) + ": " +
               std::string(to_string(r)) + ".";
      e.dice = dice.drain();
      events.push_back(std::move(e));
      if (!is_gun) {
        Brigade& b = s.brigades[index];
        b.control = r;
        b.conform_to.clear();
        b.conform_behind = false;
        if (r == ControlResult::kHalt) b.status |= static_cast<std::uint32_t>(Status::kHalted);
      } else {
        Gun& g = s.guns[index];
        g.control = r;
        if (r == ControlResult::kHalt) g.status |= static_cast<std::uint32_t>(Status::kHalted);
      }
    }
  }
}

}  // namespace galloper::rules::malbrook
