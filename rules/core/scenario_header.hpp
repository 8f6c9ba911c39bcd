#pragma once
// What every ruleset's scenario shares besides its terrain (scenario.proto's
// header): its objectives as written, and the checks of its name, table and
// turn limit. Each ruleset's checker runs these first, in its own unit.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/core/ruleset.hpp"
#include "rules/core/vec2.hpp"

namespace galloper::rules {

// A victory objective as written (scenario.proto's Objective).
struct ObjectiveSpec {
  std::string id;
  std::string name;
  std::optional<Vec2> at;
  double radius = 0;
  std::uint32_t points = 0;
  std::string held_by;
};

// A number as problems print it: at most 6 significant digits.
std::string spec_number(double v);

// "name is missing", a table of no width or depth (in `unit_plural`), a turn
// limit of 0. `example_name` is the key a message suggests ("demo").
void check_header(std::string_view name, double table_width, double table_depth, std::uint32_t turn_limit,
                  std::string_view unit_plural, std::string_view example_name, std::vector<SpecProblem>& out);

}  // namespace galloper::rules
