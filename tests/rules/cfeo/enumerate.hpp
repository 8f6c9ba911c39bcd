#pragma once
// Exact distributions by enumeration: every combination of faces of a few
// dice, each equally likely, fed to the code under test through FixedDice.
// The expected counts are written out by hand in each test, from the sheet.
#include <cstddef>
#include <functional>
#include <vector>

namespace galloper::rules::cfeo::tables::test {

// A die's equally likely faces as FixedDice takes them.
inline const std::vector<int> kD6{1, 2, 3, 4, 5, 6};
inline const std::vector<int> kAvd{2, 3, 3, 4, 4, 5};

// Calls fn with every combination of faces, one face from each die's list
// (6^n calls for n six-faced dice).
inline void for_each_roll(const std::vector<std::vector<int>>& dice,
                          const std::function<void(const std::vector<int>&)>& fn) {
  std::vector<std::size_t> at(dice.size(), 0);
  std::vector<int> faces(dice.size());
  for (;;) {
    for (std::size_t i = 0; i < dice.size(); ++i) faces[i] = dice[i][at[i]];
    fn(faces);
    std::size_t i = 0;
    while (i < dice.size() && ++at[i] == dice[i].size()) at[i++] = 0;
    if (i == dice.size()) return;
  }
}

inline std::vector<std::vector<int>> d6s(int n) { return std::vector<std::vector<int>>(static_cast<std::size_t>(n), kD6); }

}  // namespace galloper::rules::cfeo::tables::test
