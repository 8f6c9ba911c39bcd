#include "rules/cfeo/morale.hpp"

#include <algorithm>
#include <optional>
#include <string>

#include "rules/cfeo/basing.hpp"
#include "rules/cfeo/command_tables.hpp"
#include "rules/cfeo/movement.hpp"
#include "rules/core/tell.hpp"

namespace galloper::rules::cfeo {

namespace {

std::string dps_text(int n) { return std::to_string(n) + (n == 1 ? " DP" : " DPs"); }

tables::Arm table_arm(const Unit& u) { return is_cavalry(u.arm) ? tables::Arm::kCavalry : tables::Arm::kInfantry; }

Event unit_event(const Unit& u, std::string kind, std::string text) {
  Event e;
  e.kind = std::move(kind);
  e.subjects = {u.id};
  e.where = {{u.position, u.id}};
  e.text = std::move(text);
  return e;
}

// A friend's fate this morale phase, if it has one the list names. A unit
// destroyed this turn still has its last position.
std::optional<tables::FriendFate> fate_of(const Unit& f) {
  // Destroyed in this turn's combat: counted in this morale phase only.
  if (f.destroyed) return f.in_combat ? std::optional(tables::FriendFate::kDestroyed) : std::nullopt;
  if (f.routing) return tables::FriendFate::kRouting;
  if (f.retiring) return tables::FriendFate::kRetiring;
  return std::nullopt;
}

}  // namespace

void assign_morale_dps(GameState& s, std::vector<Event>& ev) {
  const GameState before = s;
  for (std::size_t i = 0; i < s.units.size(); ++i) {
    const Unit& u = before.units[i];
    if (u.destroyed || u.routing) continue;
    int dps = 0;
    std::string why;
    auto add = [&](tables::MoraleCause cause, const std::string& who) {
      dps += tables::morale_dps(cause);
      why += (why.empty() ? "" : "; ") + std::string(tables::to_string(cause)) + (who.empty() ? "" : " (" + ref(who) + ")");
    };
    for (std::size_t j = 0; j < before.units.size(); ++j) {
      const Unit& f = before.units[j];
      if (j == i || f.side != u.side) continue;
      const auto fate = fate_of(f);
      if (!fate) continue;
      // A destroyed unit is measured from where it last stood (RULINGS C11).
      Unit standing = f;
      standing.destroyed = false;
      tables::FriendSeen seen{*fate, f.grade, table_arm(f), group_gap(footprint(u), footprint(standing))};
      if (const auto cause = tables::morale_cause(u.grade, seen)) add(*cause, f.id);
    }
    if (u.evaded) add(tables::MoraleCause::kEvading, "");
    if (u.rode_through) add(tables::MoraleCause::kRideThroughOrTakePosition, "");
    const int taken = std::max(dps, -static_cast<int>(u.dps));
    if (taken == 0) continue;
    s.units[i].dps = static_cast<std::uint32_t>(static_cast<int>(u.dps) + taken);
    ev.push_back(unit_event(u, "morale",
                            ref(u.id) + (taken > 0 ? " takes " + dps_text(taken) : " removes " + dps_text(-taken)) +
                                " for morale: " + why + "."));
  }
}

void test_routs(GameState& s, Dice& dice, std::vector<Event>& ev) {
  for (Unit& u : s.units) {
    if (!u.routing || u.destroyed || enemy_distance(s, u) < kRoutClear) continue;
    const tables::ControlTestRoll roll = tables::roll_control_test(dice, 0, true);
    const bool stops = roll.result == tables::ControlResult::kAsWished;
    if (stops) u.routing = false;
    Event e = unit_event(u, "rout_test",
                         ref(u.id) + " tests to stop its rout: " + std::to_string(roll.total) +
                             (stops ? ", it stops and may re-form." : ", it routs on."));
    e.dice = dice.drain();
    ev.push_back(std::move(e));
  }
}

void redress(GameState& s, std::vector<Event>& ev) {
  for (Unit& u : s.units) {
    if (u.dps == 0 || u.destroyed) continue;
    tables::RedressTerms terms;
    terms.grade = u.grade;
    terms.stationary = !u.moved;
    terms.under_fire = u.under_fire;
    terms.in_combat = u.in_combat;
    terms.dps_from_artillery_this_turn = u.artillery_dps;
    const int removed = std::min(tables::redress_allowance(terms), static_cast<int>(u.dps));
    if (removed <= 0) continue;
    u.dps -= static_cast<std::uint32_t>(removed);
    ev.push_back(unit_event(u, "redress", ref(u.id) + " redresses its ranks: " + dps_text(removed) + " removed."));
  }
}

}  // namespace galloper::rules::cfeo
