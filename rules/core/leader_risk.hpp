#pragma once
// "Risk to Leader" as Malbrook and Close Fire & European Order both print
// it: once a leader is hit, roll again: "1 = Killed. 2-4 = Wounded ... Killed
// on 2nd wound. 5-6 = Near miss." When a leader is at risk, and what a hit
// needs, is each ruleset's own.
#include <cstdint>
#include <string_view>

namespace galloper::rules {

enum class LeaderFate : std::uint8_t { kUnhurt, kNearMiss, kWounded, kKilled };
std::string_view to_string(LeaderFate fate);

// The second roll once hit: 1 killed, 2-4 wounded (killed if already
// wounded), 5-6 near miss.
LeaderFate leader_hit_result(int die, std::uint32_t wounds_before);

}  // namespace galloper::rules
