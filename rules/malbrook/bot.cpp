#include "rules/malbrook/bot.hpp"

#include <string>
#include <string_view>

#include "rules/core/geometry.hpp"

namespace galloper::rules::malbrook {

namespace {

double limit_of(const Decision& d, std::string_view name, double fallback = 0) {
  for (const auto& [k, v] : d.limits) {
    if (k == name) return v;
  }
  return fallback;
}

OrderStep step_of(std::string action, double distance = 0, double angle = 0, std::string pivot = "",
                  std::string formation = "") {
  OrderStep s;
  s.action = std::move(action);
  s.distance = distance;
  s.angle_deg = angle;
  s.pivot = std::move(pivot);
  s.formation = std::move(formation);
  return s;
}

const UnitView* unit_in(const View& view, const Decision& d, UnitKind kind) {
  if (d.subjects.empty()) return nullptr;
  for (const auto& u : view.units) {
    if (u.id == d.subjects.front() && u.kind == kind) return &u;
  }
  return nullptr;
}

// A leader's ride to a random point within `max` of `from`. Every draw is
// named, in a fixed order: two draws as the arguments of one call would be
// made in whatever order the compiler chose, and the bot's games would
// differ between compilers. (The order is the one the recorded games were
// played with: the bearing, then the distance.)
OrderStep ride(Vec2 from, double max, BotRng& rng) {
  const double bearing = rng.uniform(0, 360);
  const double reach = rng.uniform(0.5, max * 0.9);
  OrderStep mv = step_of("move_to");
  mv.to = from + rotate_cw(Vec2{0, reach}, bearing);
  return mv;
}

}  // namespace

std::vector<Answer> propose(const View& view, const Decision& d, BotRng& rng) {
  std::vector<Answer> out;
  auto with_steps = [&](std::vector<OrderStep> steps) {
    Answer a = Bot::fallback(d);
    a.option.clear();
    a.steps = std::move(steps);
    return a;
  };
  if (d.kind == "command_actions") {
    const UnitView* l = unit_in(view, d, UnitKind::kLeader);
    if (l == nullptr || rng.chance(3)) return out;
    if (!l->attached_to.empty()) {
      out.push_back(with_steps({step_of(rng.chance(2) ? "inspire" : "steady")}));
    } else {
      // Attach to a random brigade of his side the seat can see, or ride a little.
      std::vector<const UnitView*> own;
      for (const auto& u : view.units) {
        if (u.kind == UnitKind::kBrigade && u.side == l->side && u.base_count > 0) own.push_back(&u);
      }
      if (!own.empty() && rng.chance(2)) {
        OrderStep st = step_of("attach");
        st.target = own[rng.below(static_cast<std::uint32_t>(own.size()))]->id;
        out.push_back(with_steps({st}));
      }
      const double max = limit_of(d, "move", 6);
      out.push_back(with_steps({ride(l->position, max, rng)}));
    }
    return out;
  }
  if (d.kind == "move") {
    const double allowance = limit_of(d, "allowance");
    const UnitView* b = unit_in(view, d, UnitKind::kBrigade);
    if (allowance <= 0) {
      switch (rng.below(5)) {
        case 0: out.push_back(with_steps({step_of("about_face")})); break;
        case 1: out.push_back(with_steps({step_of("formation", 0, 0, "", rng.chance(2) ? "line" : "march column")})); break;
        case 2: out.push_back(with_steps({step_of("reform", 0, 0, "", "line")})); break;
        default: break;
      }
      if (b != nullptr && b->formation == "unformed") out.push_back(with_steps({step_of("reform", 0, 0, "", "line")}));
      return out;
    }
    if (rng.chance(4)) {
      const double a = rng.uniform(5, 30);  // named draws, in a fixed order (see ride)
      const char* pivot = rng.chance(2) ? "left" : "right";
      const double angle = rng.chance(2) ? a : -a;
      const double forward = allowance * rng.uniform(0.3, 0.8);
      out.push_back(with_steps({step_of("wheel", 0, angle, pivot), step_of("forward", forward)}));
    }
    out.push_back(with_steps({step_of("forward", allowance, rng.uniform(-10, 10))}));
    out.push_back(with_steps({step_of("forward", allowance)}));
    if (rng.chance(6)) out.push_back(with_steps({step_of("about_face")}));
    return out;
  }
  if (d.kind == "leader_move") {
    const UnitView* l = unit_in(view, d, UnitKind::kLeader);
    if (l == nullptr || rng.chance(2)) return out;
    out.push_back(with_steps({ride(l->position, limit_of(d, "max_distance", 6), rng)}));
    return out;
  }
  return Bot::any_option(d, rng);
}

}  // namespace galloper::rules::malbrook
