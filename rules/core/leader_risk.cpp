#include "rules/core/leader_risk.hpp"

namespace galloper::rules {

std::string_view to_string(LeaderFate fate) {
  switch (fate) {
    case LeaderFate::kUnhurt: return "unhurt";
    case LeaderFate::kNearMiss: return "near miss";
    case LeaderFate::kWounded: return "wounded";
    case LeaderFate::kKilled: return "killed";
  }
  return "unhurt";
}

LeaderFate leader_hit_result(int die, std::uint32_t wounds_before) {
  if (die <= 1) return LeaderFate::kKilled;
  if (die <= 4) return wounds_before > 0 ? LeaderFate::kKilled : LeaderFate::kWounded;
  return LeaderFate::kNearMiss;
}

}  // namespace galloper::rules
