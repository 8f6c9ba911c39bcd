#include "rules/cfeo/combat_tables.hpp"

#include <algorithm>

namespace galloper::rules::cfeo::tables {
namespace {

int grade_modifier(Grade g) {
  switch (g) {
    case Grade::kA: return +2;
    case Grade::kB: return +1;
    case Grade::kC: return 0;
    case Grade::kD: return -1;
    case Grade::kE: return -2;
  }
  return 0;
}

std::string_view grade_words(Grade g) {
  switch (g) {
    case Grade::kA: return "A Grade";
    case Grade::kB: return "B Grade";
    case Grade::kC: return "C Grade";
    case Grade::kD: return "D Grade";
    case Grade::kE: return "E Grade";
  }
  return "";
}

bool has_foot(const Opponents& o) { return o.formed_foot || o.skirmishers; }
bool only_guns(const Opponents& o) { return o.guns && !has_foot(o) && !o.cavalry; }
bool only_cavalry(const Opponents& o) { return o.cavalry && !has_foot(o) && !o.guns; }
// "guns, skirmishers, or a single rank of cavalry": nothing else among them.
bool may_be_ridden_through(const Opponents& o) {
  return (o.guns || o.skirmishers || o.cavalry) && !o.formed_foot && !o.deep_cavalry;
}
bool c_to_e(Grade g) { return g == Grade::kC || g == Grade::kD || g == Grade::kE; }

// "Defeat" or worse: what a charge must inflict on foot at Victory (T11).
bool defeated(CombatResult r) { return r == CombatResult::kDefeat || r == CombatResult::kBreak; }

}  // namespace

std::vector<Modifier> combat_modifiers(const CombatFactors& f) {
  std::vector<Modifier> out;
  if (const int g = grade_modifier(f.grade); g != 0) out.push_back({grade_words(f.grade), g});
  if (const int i = std::clamp(f.inspire_actions, 0, kMaxInspire); i > 0) out.push_back({"leader inspiring", i});
  if (f.advantage_of_ground) out.push_back({"advantage of ground", +1});
  if (f.charging_or_pursuing) out.push_back({"charging, counter-charging or pursuing", +1});
  if (f.a_outrance_vs_cavalry) out.push_back({"charging à l'outrance vs. cavalry", +1});
  if (f.cavalry_pursuing) out.push_back({"cavalry pursuing", +1});
  if (f.traditional_cavalry_deeper_vs_cavalry) {
    out.push_back({"traditional cavalry in deeper formation vs. cavalry", +1});
  }
  if (f.foot_line_not_fired_by_platoons) out.push_back({"foot in line that did not fire by platoons", +1});
  if (f.dps > 0) out.push_back({"each DP", -f.dps});
  if (f.foot_moved_charged_by_cavalry) out.push_back({"foot that moved charged by cavalry", -2});
  if (f.hit_in_flank_or_rear) out.push_back({"hit in flank/rear", -2});
  return out;
}

int combat_modifier(const CombatFactors& f) {
  int total = 0;
  for (const Modifier& m : combat_modifiers(f)) total += m.value;
  return total;
}

int assault_column_bases(std::span<const int> bases_per_rank, bool charging) {
  auto rank = [&](std::size_t i) { return i < bases_per_rank.size() ? std::max(0, bases_per_rank[i]) : 0; };
  if (!charging) return rank(0);
  return rank(0) + rank(1) + (rank(2) + rank(3) + 1) / 2;
}

int pike_base_dice(Arm facing, bool charging) {
  if (facing == Arm::kCavalry) return 2;
  if (charging) return 1;
  return facing == Arm::kInfantry ? 0 : 1;
}

int combat_dice(int base_dice, int modifier) { return std::max(0, base_dice + modifier); }

int hit_threshold(bool march_column_or_unformed, bool opponent_defending_fieldworks) {
  return march_column_or_unformed || opponent_defending_fieldworks ? 6 : 5;
}

int count_hits(std::span<const int> faces, int threshold) {
  return static_cast<int>(std::count_if(faces.begin(), faces.end(), [&](int f) { return f >= threshold; }));
}

CombatRoll roll_combat(Dice& dice, int combat_dice, int threshold) {
  CombatRoll r;
  r.faces = dice.d6s(combat_dice);
  r.hits = count_hits(r.faces, threshold);
  return r;
}

std::string_view to_string(CombatResult r) {
  switch (r) {
    case CombatResult::kVictory: return "Victory";
    case CombatResult::kSuccess: return "Success";
    case CombatResult::kInconclusive: return "Inconclusive";
    case CombatResult::kDrivenBack: return "Driven Back";
    case CombatResult::kDefeat: return "Defeat";
    case CombatResult::kBreak: return "Break";
  }
  return "";
}

CombatResult combat_result(int d) {
  if (d >= 4) return CombatResult::kVictory;
  if (d >= 1) return CombatResult::kSuccess;
  if (d == 0) return CombatResult::kInconclusive;
  if (d >= -2) return CombatResult::kDrivenBack;
  if (d >= -7) return CombatResult::kDefeat;
  return CombatResult::kBreak;
}

int combat_result_dps(CombatResult r) {
  switch (r) {
    case CombatResult::kVictory: return 1;
    case CombatResult::kSuccess: return 1;
    case CombatResult::kInconclusive: return 2;
    case CombatResult::kDrivenBack: return 3;
    case CombatResult::kDefeat: return 4;
    case CombatResult::kBreak: return 5;
  }
  return 0;
}

std::string_view to_string(Reaction r) {
  switch (r) {
    case Reaction::kAnyPermittedAction: return "take any permitted action";
    case Reaction::kRemainInPlace: return "remain in place";
    case Reaction::kRemainOrRetire: return "remain in place or retire";
    case Reaction::kRetire: return "retire";
    case Reaction::kPursue: return "pursue";
    case Reaction::kRideThrough: return "ride through";
    case Reaction::kGunsAbandoned: return "guns abandoned";
    case Reaction::kGunsAbandonedCrewKilled: return "guns abandoned and crew killed";
    case Reaction::kRout: return "rout";
  }
  return "";
}

CombatOutcome combat_outcome(int difference, const CombatUnit& u, const Opponents& o) {
  CombatOutcome out;
  out.result = combat_result(difference);
  const bool cavalry = u.arm == Arm::kCavalry;
  const bool foot_or_guns = !cavalry;
  const bool cavalry_charged_foot = cavalry && u.charged && has_foot(o);
  switch (out.result) {
    case CombatResult::kVictory:
      // "Cavalry that charged and failed to Defeat foot (-3/-4 result) retire.
      // Otherwise C-E Grade pursue. Others take any permitted action." Guns
      // do not pursue (T11).
      if (cavalry_charged_foot && !defeated(combat_result(-difference))) {
        out.reaction = Reaction::kRetire;
      } else if (c_to_e(u.grade) && u.arm != Arm::kGuns) {
        out.reaction = Reaction::kPursue;
      } else {
        out.reaction = Reaction::kAnyPermittedAction;
      }
      break;
    case CombatResult::kSuccess:
      if (cavalry_charged_foot) {
        out.reaction = Reaction::kRetire;
      } else if (foot_or_guns && o.cavalry) {
        out.reaction = Reaction::kRemainInPlace;  // "facing cavalry"
      } else if (cavalry && u.charged && only_guns(o)) {
        out.reaction = Reaction::kRideThrough;
      } else {
        out.reaction = Reaction::kAnyPermittedAction;
      }
      break;
    case CombatResult::kInconclusive:
      // À l'outrance through skirmishers before "charged foot retire" (T12).
      if (cavalry && u.charged && u.a_outrance && may_be_ridden_through(o)) {
        out.reaction = Reaction::kRideThrough;
      } else if (cavalry_charged_foot) {
        out.reaction = Reaction::kRetire;
      } else if (foot_or_guns) {
        out.reaction = Reaction::kRemainInPlace;
      } else {
        out.reaction = Reaction::kRemainOrRetire;
      }
      break;
    case CombatResult::kDrivenBack:
      if (foot_or_guns && u.was_charged && only_cavalry(o)) {
        out.reaction = Reaction::kRemainInPlace;
      } else if (u.arm == Arm::kGuns) {
        out.reaction = Reaction::kGunsAbandoned;
      } else {
        out.reaction = Reaction::kRetire;
      }
      if (cavalry_charged_foot) out.extra_dps = 1;
      break;
    case CombatResult::kDefeat:
      out.reaction = u.arm == Arm::kGuns ? Reaction::kGunsAbandonedCrewKilled : Reaction::kRetire;
      break;
    case CombatResult::kBreak:
      out.reaction = u.arm == Arm::kGuns ? Reaction::kGunsAbandonedCrewKilled : Reaction::kRout;
      break;
  }
  out.dps = combat_result_dps(out.result) + out.extra_dps;
  return out;
}

int free_hack_casualties(std::span<const int> faces) {
  return static_cast<int>(std::count_if(faces.begin(), faces.end(), [](int f) { return f >= 4; }));
}

FreeHackRoll roll_free_hack(Dice& dice, int stands_in_contact) {
  FreeHackRoll r;
  r.faces = dice.d6s(stands_in_contact);
  r.casualties = free_hack_casualties(r.faces);
  return r;
}

}  // namespace galloper::rules::cfeo::tables
