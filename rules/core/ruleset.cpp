#include "rules/core/ruleset.hpp"

#include <utility>

namespace galloper::rules {

Term term_of(std::string_view key, std::string label, std::string help) {
  if (label.empty()) {
    label = std::string(key);
    if (!label.empty() && label[0] >= 'a' && label[0] <= 'z') label[0] = static_cast<char>(label[0] - 'a' + 'A');
  }
  return {std::string(key), std::move(label), std::move(help)};
}

}  // namespace galloper::rules
