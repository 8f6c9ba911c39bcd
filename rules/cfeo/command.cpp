#include "rules/cfeo/command.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "rules/cfeo/basing.hpp"
#include "rules/cfeo/command_tables.hpp"
#include "rules/cfeo/fire.hpp"
#include "rules/cfeo/seats.hpp"
#include "rules/cfeo/sequence.hpp"
#include "rules/cfeo/sight.hpp"
#include "rules/core/answers.hpp"
#include "rules/core/geometry.hpp"
#include "rules/core/tell.hpp"

namespace galloper::rules::cfeo {

namespace {

constexpr double kTolerance = 1e-6;
constexpr double kSameFacingDeg = 10;     // a continuous line faces one way (K5)
constexpr double kFollowFacingDeg = 45;   // a supporting unit faces roughly as its lead (K5)
constexpr std::string_view kNoActions = "none";

std::string signed_number(int n) { return n > 0 ? "+" + std::to_string(n) : std::to_string(n); }

// The leaders over a unit: its brigadier, its wing's general, its marshal.
bool commands(const GameState& s, Index leader, const Unit& u) {
  const Leader& l = s.leaders[at(leader)];
  if (l.side != u.side || l.killed) return false;
  switch (l.rank) {
    case LeaderRank::kMarshal: return true;
    case LeaderRank::kGeneral: return l.wing == u.wing;
    case LeaderRank::kBrigadier: return u.brigade != kNone && s.brigades[at(u.brigade)].brigadier == leader;
  }
  return false;
}

// How deep a unit stands, front edge to rear.
double depth_of(const Unit& u) {
  const Vec2 dir = facing_unit(u.facing_deg);
  double depth = 0;
  for (const auto& b : footprint(u)) {
    for (Vec2 c : b.corners()) depth = std::max(depth, dot(u.position - c, dir));
  }
  return depth;
}

// Where a leader attached to `u` stands: his stand's front against the
// middle of its rear edge, facing as it does.
Vec2 behind(const Unit& u) { return u.position - facing_unit(u.facing_deg) * depth_of(u); }

// The yards from a leader's stand at `at` to the nearest enemy his side sees.
double seen_enemy_distance(const GameState& s, const SightTable& sight, const Leader& l, Vec2 at) {
  Leader placed = l;
  placed.position = at;
  const std::vector<OrientedRect> stand{footprint(placed)};
  double best = std::numeric_limits<double>::infinity();
  for (Target t : seen_enemies(s, sight, seat_of(s, l), l.side)) best = std::min(best, group_gap(stand, target_bases(s, t)));
  return best;
}

Index leader_of(const GameState& s, std::string_view decision_id) {
  const std::string_view id = decision_id.substr(kCommandPrefix.size());
  for (std::size_t i = 0; i < s.leaders.size(); ++i) {
    if (s.leaders[i].id == id) return static_cast<Index>(i);
  }
  return kNone;
}

// ---- Actions ----

// A leader's actions carried out on a copy: where he ends, and what he did
// to the units he was attached to.
struct Acted {
  Leader leader;
  int actions = 0;
  std::vector<std::pair<Index, std::string>> influence;  // unit, "steady" or "inspire"
};

Result<Acted> carry_out(const GameState& s, const SightTable& sight, Index self, const std::vector<OrderStep>& steps) {
  Acted a{s.leaders[at(self)], 0, {}};
  Leader& l = a.leader;
  const std::string who = ref(l.id);
  for (std::size_t i = 0; i < steps.size();) {
    const std::string& action = steps[i].action;
    if (action == "steady" || action == "inspire") {
      if (l.attached_to == kNone) return reject("not_attached", who + " must be attached to a unit to " + action + " it.");
      const Unit& u = s.units[at(l.attached_to)];
      if (action == "steady" && u.dps == 0) return reject("no_dps", ref(u.id) + " has no DPs to remove.");
      a.influence.emplace_back(l.attached_to, action);
      ++a.actions;
      ++i;
      continue;
    }
    if (action != "detach" && action != "move_to" && action != "attach") {
      return reject("bad_action", "\"" + action + "\" is not a command action: detach, move_to, attach, steady or inspire.");
    }
    // One move action: ["detach"] ["move_to"] ["attach"].
    const Vec2 from = l.position;
    if (steps[i].action == "detach") {
      if (l.attached_to == kNone) return reject("not_attached", who + " is not attached to a unit.");
      l.attached_to = kNone;
      ++i;
    }
    if (i < steps.size() && steps[i].action == "move_to") {
      if (l.attached_to != kNone) return reject("attached", who + " is attached: he detaches before he moves.");
      const Vec2 to = steps[i].to;
      if (to.x < 0 || to.y < 0 || to.x > s.table_width || to.y > s.table_depth) {
        return reject("off_table", who + " would leave the table.");
      }
      l.position = to;
      ++i;
    }
    if (i < steps.size() && steps[i].action == "attach") {
      if (l.attached_to != kNone) return reject("attached", who + " is attached: he detaches before he attaches again.");
      const Target named = target_named(s, steps[i].target);
      const Index u = named.index;
      // The same words for a unit of another command as for a made-up id.
      if (named.kind != Target::Kind::kUnit || !commands(s, self, s.units[at(u)]) || s.units[at(u)].destroyed) {
        return reject("not_commanded", "\"" + steps[i].target + "\" is not a unit " + who + " commands.");
      }
      l.position = behind(s.units[at(u)]);
      l.facing_deg = s.units[at(u)].facing_deg;
      l.attached_to = u;
      ++i;
    }
    const double moved = distance(from, l.position);
    const bool far = seen_enemy_distance(s, sight, l, from) > kLeaderMove && seen_enemy_distance(s, sight, l, l.position) > kLeaderMove;
    const double allowance = far ? kLeaderMarch : kLeaderMove;
    if (moved > allowance + kTolerance) {
      return reject("too_far", who + " moves " + yards(moved) + "; a move action is up to " + yards(allowance) +
                                   (far ? "." : " within 120 yds of an enemy his side sees."));
    }
    ++a.actions;
  }
  if (a.actions > command_actions(s.leaders[at(self)])) {
    return reject("too_many_actions", who + " has " + std::to_string(command_actions(s.leaders[at(self)])) +
                                          " command actions this turn, not " + std::to_string(a.actions) + ".");
  }
  return a;
}

// ---- Control ----

bool under_leader(const GameState& s, const Unit& u, Index self) {
  const auto bases = footprint(u);
  for (std::size_t i = 0; i < s.leaders.size(); ++i) {
    const Leader& l = s.leaders[i];
    if (l.killed) continue;
    if (l.attached_to == self) return true;
    if (l.attached_to != kNone || !commands(s, static_cast<Index>(i), u)) continue;
    const double reach = l.rank == LeaderRank::kMarshal ? kMarshalControl : kLeaderControl;
    if (group_gap({footprint(l)}, bases) <= reach + kTolerance) return true;
  }
  return false;
}

// Side by side with `lead`, facing as it does, a short interval apart.
bool in_line_with(const Unit& u, const Unit& lead) {
  if (std::abs(angle_diff_deg(u.facing_deg, lead.facing_deg)) > kSameFacingDeg) return false;
  const Vec2 dir = facing_unit(lead.facing_deg);
  if (std::abs(dot(u.position - lead.position, dir)) > kLineGap) return false;
  return group_gap(footprint(u), footprint(lead)) <= kLineGap + kTolerance;
}

// Within 60 yds behind `lead`, facing roughly as it does, its front's
// middle behind the lead's rear and within its frontage.
bool behind_of(const Unit& u, const Unit& lead) {
  if (std::abs(angle_diff_deg(u.facing_deg, lead.facing_deg)) > kFollowFacingDeg) return false;
  const Vec2 dir = facing_unit(lead.facing_deg);
  const Vec2 offset = u.position - lead.position;
  if (dot(offset, dir) > -depth_of(lead) + kTolerance) return false;
  const double frontage = base_size(lead.arm).width * static_cast<double>(std::min(bases_per_rank(lead), lead.bases));
  if (std::abs(cross(dir, offset)) > frontage / 2 + kTolerance) return false;
  return group_gap(footprint(u), footprint(lead)) <= kBehindReach + kTolerance;
}

std::vector<char> controlled(const GameState& s) {
  std::vector<char> out(s.units.size(), 0);
  for (std::size_t i = 0; i < s.units.size(); ++i) {
    if (!s.units[i].destroyed) out[i] = under_leader(s, s.units[i], static_cast<Index>(i)) ? 1 : 0;
  }
  // Lines and supports pass control on, unit to unit.
  for (bool grew = true; grew;) {
    grew = false;
    for (std::size_t i = 0; i < s.units.size(); ++i) {
      const Unit& u = s.units[i];
      if (out[i] || u.destroyed || u.brigade == kNone) continue;
      for (std::size_t j = 0; j < s.units.size(); ++j) {
        const Unit& lead = s.units[j];
        if (!out[j] || j == i || lead.brigade != u.brigade || lead.destroyed) continue;
        if (in_line_with(u, lead) || behind_of(u, lead)) {
          out[i] = 1;
          grew = true;
          break;
        }
      }
    }
  }
  return out;
}

tables::ControlTestTerms terms_of(const GameState& s, Index self) {
  const Unit& u = s.units[at(self)];
  tables::ControlTestTerms t;
  t.leader_attached = std::any_of(s.leaders.begin(), s.leaders.end(),
                                  [&](const Leader& l) { return !l.killed && l.attached_to == self; });
  t.guns_or_a_b_grade = u.grade == Grade::kA || u.grade == Grade::kB;
  return t;
}

// The net modifiers a unit's player may choose, low to high.
std::vector<int> modifiers_of(const tables::ControlTestTerms& t) {
  const int reach = (t.leader_attached ? 1 : 0) + (t.guns_or_a_b_grade ? 1 : 0);
  std::vector<int> out;
  for (int m = -reach; m <= reach; ++m) out.push_back(m);
  return out;
}

Control control_of(tables::ControlResult r) {
  switch (r) {
    case tables::ControlResult::kHalt: return Control::kHalt;
    case tables::ControlResult::kAsWished: return Control::kAsWished;
    case tables::ControlResult::kRepeatLastMove: return Control::kRepeatLastMove;
    case tables::ControlResult::kContinue: return Control::kContinueCharge;
  }
  return Control::kAsWished;
}

std::string_view outcome_text(Control c) {
  switch (c) {
    case Control::kHalt: return "it halts this turn";
    case Control::kAsWished: return "it acts as its player wishes";
    case Control::kRepeatLastMove: return "it repeats its last move";
    case Control::kContinueCharge: return "it continues its charge";
    case Control::kFree: break;
  }
  return "";
}

}  // namespace

int command_actions(const Leader& l) {
  if (l.killed) return 0;
  const int base = l.rank == LeaderRank::kBrigadier ? 1 : 2;
  return std::max(0, base + l.action_modifier - static_cast<int>(l.wounds) * tables::kWoundActionsLost);
}

std::vector<char> control_tests_owed(const GameState& s) {
  std::vector<char> out(s.units.size(), 0);
  if (s.no_control_tests) return out;
  const std::vector<char> under = controlled(s);
  for (std::size_t i = 0; i < s.units.size(); ++i) {
    const Unit& u = s.units[i];
    if (is_acting(s, u.side) && in_field(u) && (u.charge_failed || !under[i])) out[i] = 1;
  }
  return out;
}

std::vector<Decision> command_pending(const GameState& s) {
  std::vector<Decision> out;
  if (s.phase != Phase::kCommand) return out;
  if (s.command_stage == CommandStage::kActions) {
    for (const Leader& l : s.leaders) {
      const int actions = command_actions(l);
      if (!is_acting(s, l.side) || actions <= 0) continue;
      Decision d;
      d.id = std::string(kCommandPrefix) + l.id;
      d.seat = seat_of(s, l);
      d.kind = "command";
      d.subjects = {l.id};
      d.prompt = "Command actions for " + ref(l.id) + ": up to " + std::to_string(actions) + ".";
      d.default_option = std::string(kNoActions);
      d.limits = {{"actions", actions}, {"max_distance", kLeaderMove}};
      out.push_back(std::move(d));
    }
    return out;
  }
  const std::vector<char> owed = control_tests_owed(s);
  for (std::size_t i = 0; i < s.units.size(); ++i) {
    if (!owed[i]) continue;
    const Unit& u = s.units[i];
    const auto choices = modifiers_of(terms_of(s, static_cast<Index>(i)));
    if (choices.size() < 2) continue;  // nothing to choose: rolled without asking
    Decision d;
    d.id = std::string(kControlPrefix) + u.id;
    d.seat = seat_of(s, u);
    d.kind = "control_test";
    d.subjects = {u.id};
    d.prompt = ref(u.id) + (u.charge_failed ? " charged last turn and failed to contact" : " is out of command") +
               ": it takes a control test. Add or take away the optional modifiers?";
    for (int m : choices) {
      d.options.push_back({m == 0 ? "0" : signed_number(m), m == 0 ? "No modifier" : "Roll " + signed_number(m)});
    }
    d.default_option = "0";
    out.push_back(std::move(d));
  }
  return out;
}

Verdict command_check(const GameState& s, const Decision& d, const Answer& a) {
  if (d.kind == "control_test") return listed_option(d, a);
  if (!a.option.empty() && a.option != kNoActions) {
    return reject("bad_option", "Command actions are steps, or \"" + std::string(kNoActions) + "\" with none; not \"" +
                                    a.option + "\".");
  }
  if (a.option == kNoActions && !a.steps.empty()) return reject("bad_option", "\"none\" takes no steps.");
  const Index self = leader_of(s, a.decision_id);
  if (self == kNone) return reject("unknown_decision", "Nothing called \"" + a.decision_id + "\" is pending now.");
  auto acted = carry_out(s, sight_table(s), self, a.steps);
  if (!acted) return acted.error();
  return Ok{};
}

void resolve_command_actions(GameState& s, const std::vector<Answer>& answers, std::vector<Event>& ev) {
  const GameState before = s;
  const SightTable sight = sight_table(before);
  for (const Answer& a : answers) {
    const Index self = leader_of(before, a.decision_id);
    if (self == kNone || a.steps.empty()) continue;
    auto acted = carry_out(before, sight, self, a.steps);
    if (!acted) continue;  // checked with the step: cannot happen
    Leader& l = s.leaders[at(self)];
    const Vec2 from = l.position;
    const bool moved = distance(from, acted->leader.position) > kTolerance || l.attached_to != acted->leader.attached_to;
    l = acted->leader;
    if (moved) {
      Event e;
      e.kind = "leader_moved";
      e.subjects = {l.id};
      e.where = {{from, l.id}, {l.position, l.id}};
      e.text = ref(l.id) + (l.attached_to != kNone ? " joins " + ref(s.units[at(l.attached_to)].id) : " rides to a new post") + ".";
      ev.push_back(std::move(e));
    }
    for (const auto& [unit, action] : acted->influence) {
      Unit& u = s.units[at(unit)];
      Event e;
      e.kind = action;
      e.subjects = {l.id, u.id};
      e.where = {{u.position, u.id}};
      if (action == "steady") {
        if (u.dps > 0) --u.dps;
        u.steadied = true;
        e.text = ref(l.id) + " steadies " + ref(u.id) + ": it removes 1 DP and remains halted this turn.";
      } else if (u.inspired < kMaxInspire) {
        ++u.inspired;
        e.text = ref(l.id) + " inspires " + ref(u.id) + " (+" + std::to_string(u.inspired) + ").";
      } else {
        e.text = ref(l.id) + " inspires " + ref(u.id) + ", already at +2, the most.";
      }
      ev.push_back(std::move(e));
    }
  }
}

void roll_control_tests(GameState& s, const std::vector<Answer>& answers, Dice& dice, std::vector<Event>& ev) {
  const std::vector<char> owed = control_tests_owed(s);
  for (std::size_t i = 0; i < s.units.size(); ++i) {
    Unit& u = s.units[i];
    if (!is_acting(s, u.side)) continue;
    if (!owed[i]) {
      u.charge_failed = false;
      continue;
    }
    int modifier = 0;
    const std::string decision = std::string(kControlPrefix) + u.id;
    for (const Answer& a : answers) {
      if (a.decision_id == decision && !a.option.empty()) modifier = std::stoi(a.option);
    }
    const bool continuing = u.charge_failed;
    const tables::ControlTestRoll roll = tables::roll_control_test(dice, modifier, continuing);
    u.control = control_of(roll.result);
    u.charge_failed = false;
    Event e;
    e.kind = "control_test";
    e.subjects = {u.id};
    e.where = {{u.position, u.id}};
    e.dice = dice.drain();
    e.text = ref(u.id) + " takes a control test: " + std::to_string(roll.face) +
             (modifier != 0 ? " " + signed_number(modifier) + " = " + std::to_string(roll.total) : "") + ", " +
             std::string(outcome_text(u.control)) + ".";
    ev.push_back(std::move(e));
  }
}

void follow_attached(GameState& s) {
  for (Leader& l : s.leaders) {
    if (l.attached_to == kNone) continue;
    const Unit& u = s.units[at(l.attached_to)];
    if (u.destroyed || l.killed) {
      l.attached_to = kNone;
      continue;
    }
    l.position = behind(u);
    l.facing_deg = u.facing_deg;
  }
}

}  // namespace galloper::rules::cfeo
