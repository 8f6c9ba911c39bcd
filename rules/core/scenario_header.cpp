#include "rules/core/scenario_header.hpp"

#include <charconv>

namespace galloper::rules {

std::string spec_number(double v) {
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, 6);
  return std::string(buf, res.ptr);
}

void check_header(std::string_view name, double table_width, double table_depth, std::uint32_t turn_limit,
                  std::string_view unit_plural, std::string_view example_name, std::vector<SpecProblem>& out) {
  const std::string unit(unit_plural);
  if (name.empty()) {
    out.push_back({{{"name", -1}}, "name is missing: the scenario's key, e.g. name: \"" + std::string(example_name) + "\""});
  }
  if (!(table_width > 0)) {
    out.push_back({{{"table_width", -1}}, "table_width must be greater than 0 " + unit + ", not " + spec_number(table_width)});
  }
  if (!(table_depth > 0)) {
    out.push_back({{{"table_depth", -1}}, "table_depth must be greater than 0 " + unit + ", not " + spec_number(table_depth)});
  }
  if (turn_limit == 0) out.push_back({{{"turn_limit", -1}}, "turn_limit is missing or 0: a game needs at least one turn"});
}

}  // namespace galloper::rules
