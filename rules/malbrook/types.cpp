#include "rules/malbrook/types.hpp"

namespace galloper::rules::malbrook {

std::string_view to_string(TroopType t) {
  switch (t) {
    case TroopType::kFoot: return "foot";
    case TroopType::kHorse: return "horse";
    case TroopType::kDragoons: return "dragoons";
    case TroopType::kDismountedDragoons: return "dismounted dragoons";
    case TroopType::kHussars: return "hussars";
    case TroopType::kCivilians: return "civilians";
  }
  return "?";
}

std::string_view to_string(Grade g) {
  switch (g) {
    case Grade::kA: return "A";
    case Grade::kB: return "B";
    case Grade::kC: return "C";
    case Grade::kD: return "D";
    case Grade::kE: return "E";
  }
  return "?";
}

std::string_view to_string(FightingStyle s) {
  switch (s) {
    case FightingStyle::kTraditional: return "traditional";
    case FightingStyle::kNew: return "new";
  }
  return "?";
}

std::string_view to_string(Formation f) {
  switch (f) {
    case Formation::kLine: return "line";
    case Formation::kTwoRankLine: return "two-rank line";
    case Formation::kMarchColumn: return "march column";
    case Formation::kFieldColumn: return "field column";
    case Formation::kUnformed: return "unformed";
  }
  return "?";
}

std::string_view to_string(GunWeight w) {
  switch (w) {
    case GunWeight::kLight: return "light gun";
    case GunWeight::kMedium: return "medium gun";
    case GunWeight::kHeavy: return "heavy gun";
    case GunWeight::kHowitzer: return "howitzer";
    case GunWeight::kMortar: return "mortar";
  }
  return "?";
}

std::string_view to_string(WingOrder o) {
  switch (o) {
    case WingOrder::kDefend: return "defend current position";
    case WingOrder::kAdvanceAndDefend: return "advance to and defend a position";
    case WingOrder::kAdvanceAndAttack: return "advance to and attack the enemy";
  }
  return "?";
}

std::string_view to_string(LeaderRank r) {
  switch (r) {
    case LeaderRank::kMajorGeneral: return "major general";
    case LeaderRank::kLieutenantGeneral: return "lieutenant general";
    case LeaderRank::kMarshal: return "marshal";
  }
  return "?";
}

std::string_view to_string(Phase p) {
  switch (p) {
    case Phase::kInitiative: return "initiative";
    case Phase::kBombardment: return "bombardment";
    case Phase::kCommand: return "command";
    case Phase::kMovement: return "movement";
    case Phase::kCloseFire: return "close fire";
    case Phase::kCombat: return "combat";
    case Phase::kMorale: return "morale";
    case Phase::kEnded: return "ended";
  }
  return "?";
}

std::string_view to_string(ControlResult r) {
  switch (r) {
    case ControlResult::kUnknown: return "unknown";
    case ControlResult::kControlled: return "controlled";
    case ControlResult::kConforming: return "conforming";
    case ControlResult::kTest: return "to test";
    case ControlResult::kHalt: return "halt";
    case ControlResult::kAsWished: return "act as player wishes";
    case ControlResult::kRepeatLastMove: return "repeat last move";
    case ControlResult::kContinue: return "continue";
  }
  return "?";
}

}  // namespace galloper::rules::malbrook
