#pragma once
// The words of Close Fire & European Order's pieces: arms, grades,
// formations, gun types and leaders' ranks, and their names as the views and
// the scenario files spell them.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace galloper::rules::cfeo {

inline constexpr std::string_view kRulesetName = "cfeo";

enum class Arm : std::uint8_t { kFoot, kHorse, kDragoons, kDismountedDragoons };
enum class Grade : std::uint8_t { kA, kB, kC, kD, kE };
enum class Formation : std::uint8_t { kLine, kAssaultColumn, kMarchColumn, kUnformed };
enum class CavalryStyle : std::uint8_t { kTraditional, kNew };
enum class GunType : std::uint8_t { kHeavy, kField, kBattalion };
enum class LeaderRank : std::uint8_t { kMarshal, kGeneral, kBrigadier };

// Foot: battalions and dismounted dragoons. Cavalry: horse and mounted dragoons.
constexpr bool is_foot(Arm a) { return a == Arm::kFoot || a == Arm::kDismountedDragoons; }
constexpr bool is_cavalry(Arm a) { return !is_foot(a); }

std::string_view to_string(Arm a);
std::string_view to_string(Grade g);
std::string_view to_string(Formation f);
std::string_view to_string(CavalryStyle s);
std::string_view to_string(GunType t);
std::string_view to_string(LeaderRank r);

// A distance as the sheet and the log say it: "110 yds", to the nearest yard.
std::string yards(double y);

// The formation a key names ("line", "assault column", ...), if any.
std::optional<Formation> formation_named(std::string_view key);

}  // namespace galloper::rules::cfeo
