#include "rules/core/edit.hpp"

#include <cstdio>

namespace galloper::rules {

std::string format_number(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", d);
  std::string s(buf);
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

std::string describe(const StateEdit& e) {
  std::string out = e.kind + " " + e.subject;
  if (e.position) out += " to (" + format_number(e.position->x) + ", " + format_number(e.position->y) + ")";
  if (e.facing_deg) out += " facing " + format_number(*e.facing_deg);
  if (e.value) out += " value " + std::to_string(*e.value);
  if (!e.key.empty()) out += " " + e.key;
  if (e.kind == "attach" && e.key.empty()) out += " (detach)";
  if (e.flag) out += *e.flag ? " yes" : " no";
  if (e.kind == "advantage_of_ground" && !e.flag) out += " (cleared)";
  return out;
}

}  // namespace galloper::rules
