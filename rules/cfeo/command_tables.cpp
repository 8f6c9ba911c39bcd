#include "rules/cfeo/command_tables.hpp"

#include <algorithm>

namespace galloper::rules::cfeo::tables {
namespace {

bool allowed(bool term, int choice) { return choice == 0 || (term && (choice == 1 || choice == -1)); }

}  // namespace

std::optional<int> control_test_modifier(const ControlTestTerms& terms, const ControlTestChoice& choice) {
  if (!allowed(terms.leader_attached, choice.leader)) return std::nullopt;
  if (!allowed(terms.guns_or_a_b_grade, choice.guns_or_grade)) return std::nullopt;
  return choice.leader + choice.guns_or_grade;
}

std::string_view to_string(ControlResult r) {
  switch (r) {
    case ControlResult::kHalt: return "halt";
    case ControlResult::kAsWished: return "act as player wishes";
    case ControlResult::kRepeatLastMove: return "repeat last move";
    case ControlResult::kContinue: return "continue";
  }
  return "";
}

ControlResult control_test_result(int total, bool continuing) {
  if (total == 3 || total == 4) return ControlResult::kAsWished;
  if (continuing) return ControlResult::kContinue;
  return total <= 2 ? ControlResult::kHalt : ControlResult::kRepeatLastMove;
}

ControlTestRoll roll_control_test(Dice& dice, int modifier, bool continuing) {
  ControlTestRoll r;
  r.face = dice.d6();
  r.total = r.face + modifier;
  r.result = control_test_result(r.total, continuing);
  return r;
}

LeaderRiskRoll roll_risk_to_leader(Dice& dice, int wounds_before) {
  LeaderRiskRoll r;
  r.first = dice.d6();
  if (r.first != 1) return r;
  r.second = dice.d6();
  r.fate = leader_hit_result(r.second, static_cast<std::uint32_t>(wounds_before));
  return r;
}

std::string_view to_string(MoraleCause c) {
  switch (c) {
    case MoraleCause::kGeneralOrMarshalKilledOrRouting: return "general or marshal killed or routing in 120 yds";
    case MoraleCause::kEqualOrHigherRoutingOrDestroyed: return "equal or higher grade routing or destroyed in 120 yds";
    case MoraleCause::kLowerRoutingOrDestroyed: return "lower grade routing or destroyed in 120 yds";
    case MoraleCause::kEqualOrHigherFootRetiring: return "equal or higher grade foot retiring in 120 yds";
    case MoraleCause::kEvading: return "evading";
    case MoraleCause::kRideThroughOrTakePosition: return "ride through or take the position after combat";
  }
  return "";
}

int morale_dps(MoraleCause cause) {
  switch (cause) {
    case MoraleCause::kGeneralOrMarshalKilledOrRouting: return 2;
    case MoraleCause::kEqualOrHigherRoutingOrDestroyed: return 2;
    case MoraleCause::kLowerRoutingOrDestroyed: return 1;
    case MoraleCause::kEqualOrHigherFootRetiring: return 1;
    case MoraleCause::kEvading: return 1;
    case MoraleCause::kRideThroughOrTakePosition: return -1;
  }
  return 0;
}

std::optional<MoraleCause> morale_cause(Grade own_grade, const FriendSeen& f) {
  if (f.yards > kMoraleRange) return std::nullopt;
  const bool equal_or_higher_grade = equal_or_higher(f.grade, own_grade);
  if (f.fate == FriendFate::kRetiring) {
    if (equal_or_higher_grade && f.arm == Arm::kInfantry) return MoraleCause::kEqualOrHigherFootRetiring;
    return std::nullopt;
  }
  return equal_or_higher_grade ? MoraleCause::kEqualOrHigherRoutingOrDestroyed : MoraleCause::kLowerRoutingOrDestroyed;
}

int redress_allowance(const RedressTerms& t) {
  if (t.in_combat || t.dps_from_artillery_this_turn) return 0;
  switch (t.grade) {
    case Grade::kA:
    case Grade::kB: return t.stationary ? 2 : 1;
    case Grade::kC:
    case Grade::kD: return t.stationary ? 1 : 0;
    case Grade::kE: return t.stationary && !t.under_fire ? 1 : 0;
  }
  return 0;
}

int movement_dps_taken(int current_dps, int incurred) {
  if (incurred <= 0) return 0;
  return std::clamp(kMovementDpCap - current_dps, 0, incurred);
}

}  // namespace galloper::rules::cfeo::tables
