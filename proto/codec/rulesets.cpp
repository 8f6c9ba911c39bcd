#include "codec/rulesets.hpp"

#include "rules/cfeo/codec/cfeo_ruleset.hpp"
#include "rules/malbrook/codec/malbrook_ruleset.hpp"

namespace galloper::codec {

const std::vector<const Ruleset*>& rulesets() {
  static const std::vector<const Ruleset*> all = {
      &malbrook_ruleset(),
      &cfeo_ruleset(),
  };
  return all;
}

const Ruleset* find_ruleset(std::string_view name) {
  for (const Ruleset* r : rulesets()) {
    if (r->info().name == name) return r;
  }
  return nullptr;
}

std::string ruleset_names() {
  std::string out;
  for (const Ruleset* r : rulesets()) {
    if (!out.empty()) out += ", ";
    out += '"' + r->info().name + '"';
  }
  return out;
}

}  // namespace galloper::codec
