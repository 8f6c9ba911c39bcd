#pragma once
// The words the dice tables of Close Fire & European Order take as inputs:
// grades (the state's own), the tables' three arms, and a modifier with its
// reason.
//
// The tables live in their own namespace, cfeo::tables: their words (the
// arms of the sheet's rows, a ControlResult) stay apart from the state's;
// the engine maps its pieces onto these plain inputs when it calls a table.
#include <cstdint>
#include <string_view>

#include "rules/cfeo/types.hpp"

namespace galloper::rules::cfeo::tables {

// A is the best grade, E the worst: the state's own (types.hpp).
using cfeo::Grade;

// "Equal or higher grade": A is higher than B, and so on.
constexpr bool equal_or_higher(Grade a, Grade than) {
  return static_cast<int>(a) <= static_cast<int>(than);
}

// The sheet's three arms. Infantry is the sheet's "foot".
enum class Arm : std::uint8_t { kInfantry, kCavalry, kGuns };

// One line of a modifier list, for the event text and for players.
struct Modifier {
  std::string_view why;  // the sheet's own words
  int value = 0;
  friend bool operator==(const Modifier&, const Modifier&) = default;
};

}  // namespace galloper::rules::cfeo::tables
