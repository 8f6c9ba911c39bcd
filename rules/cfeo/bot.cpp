#include "rules/cfeo/bot.hpp"

#include <algorithm>
#include <cmath>

namespace galloper::rules::cfeo {

namespace {

double limit(const Decision& d, std::string_view name) {
  for (const auto& [key, value] : d.limits) {
    if (key == name) return value;
  }
  return 0;
}

OrderStep forward(double yards) {
  OrderStep st;
  st.action = "forward";
  st.distance = yards;
  return st;
}

OrderStep wheel(bool left, double degrees) {
  OrderStep st;
  st.action = "wheel";
  st.pivot = left ? "left" : "right";
  st.angle_deg = left ? -degrees : degrees;
  return st;
}

}  // namespace

std::vector<Answer> propose(const View&, const Decision& d, BotRng& rng) {
  // A charge one time in three: a bot that charges whatever it may breaks
  // its army in a couple of turns, and the later phases go unplayed.
  if (d.kind == "charge" && !rng.chance(3)) return {Bot::fallback(d)};
  if (d.kind == "command") {
    // A leader inspires or steadies the unit he is with, now and then; the
    // engine refuses either when he is with none.
    std::vector<Answer> out;
    if (rng.chance(3)) {
      for (std::string_view action : {"inspire", "steady"}) {
        Answer a = Bot::fallback(d);
        a.option.clear();
        OrderStep st;
        st.action = action;
        a.steps = {st};
        out.push_back(std::move(a));
      }
    }
    out.push_back(Bot::fallback(d));
    return out;
  }
  if (d.kind != "move") return Bot::any_option(d, rng);
  const double yards = limit(d, "max_distance");
  std::vector<std::vector<OrderStep>> orders = {
      {forward(yards)},
      {forward(std::floor(yards * rng.uniform(0.2, 0.9)))},
      {wheel(true, 15 + rng.below(30))},
      {wheel(false, 15 + rng.below(30))},
      {wheel(rng.chance(2), 10), forward(std::floor(yards / 2))},
  };
  // A shuffle that std::shuffle would leave to the library: draw by hand.
  for (std::size_t i = orders.size(); i > 1; --i) std::swap(orders[i - 1], orders[rng.below(static_cast<std::uint32_t>(i))]);
  std::vector<Answer> out;
  for (auto& steps : orders) {
    Answer a = Bot::fallback(d);
    a.option.clear();  // steps, not "halt"
    a.steps = std::move(steps);
    out.push_back(std::move(a));
  }
  return out;
}

}  // namespace galloper::rules::cfeo
