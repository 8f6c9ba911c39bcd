#include "rules/malbrook/damage.hpp"

#include <algorithm>
#include <cmath>

#include "rules/core/geometry.hpp"
#include "rules/core/tell.hpp"
#include "rules/malbrook/basing.hpp"

namespace galloper::rules::malbrook {

std::string_view to_string(DpCause c) {
  switch (c) {
    case DpCause::kManoeuvre: return "manoeuvre";
    case DpCause::kFire: return "fire";
    case DpCause::kCombat: return "combat";
    case DpCause::kMorale: return "morale";
  }
  return "?";
}

std::string_view to_string(RiskCause c) {
  switch (c) {
    case RiskCause::kFire: return "fire";
    case RiskCause::kCombat: return "combat";
    case RiskCause::kCasualty: return "casualty";
  }
  return "?";
}

namespace {

std::string plural(int n, std::string_view one) {
  return std::to_string(n) + " " + std::string(one) + (n == 1 ? "" : "s");
}

Event unit_event(std::string kind, std::string text, const std::string& subject, Vec2 where) {
  Event e;
  e.kind = std::move(kind);
  e.text = std::move(text);
  e.subjects = {subject};
  e.where = {{where, subject}};
  return e;
}

bool multi_rank(const Brigade& b) {
  return b.bases > 1 && static_cast<std::uint32_t>(bases_per_rank(b.formation, b.bases)) < b.bases;
}

}  // namespace

bool brigade_on_table(const Brigade& b) {
  return b.bases > 0 && !b.has(Status::kDestroyed) && !b.has(Status::kSurrendered);
}

std::uint32_t dp_capacity(const Brigade& b) { return std::min(b.bases, kMaxDps); }

std::size_t casualty_base(const Brigade& b) {
  if (b.bases <= 1) return 0;
  // Several ranks: the rear rank's right-hand base (the last in layout order).
  if (multi_rank(b)) return b.bases - 1;
  // One rank: the outer flanks in turn, right with an even count, left with
  // an odd one, so the line stays within half a base of where it stood.
  return b.bases % 2 == 0 ? b.bases - 1 : 0;
}

namespace {

// Bases placed one by one (Brigade::base_poses: unformed bases moved
// individually, a refused flank): the same base goes as from a laid-out
// brigade and the others stay exactly where they stand. Moving them to the
// layout of one base fewer would shift them sideways, possibly into the
// enemy or friends they touch (RULINGS AR11).
void remove_placed_base(Brigade& b) {
  const std::size_t gone = casualty_base(b);
  const bool line_kept = b.formation != Formation::kUnformed && !multi_rank(b);
  b.base_poses.erase(b.base_poses.begin() + static_cast<std::ptrdiff_t>(gone));
  const std::uint32_t before = b.bases;
  --b.bases;
  const BaseSize size = base_size(b.type, b.style);
  const auto rects = posed_bases(b.base_poses, size);
  if (b.formation == Formation::kUnformed) {
    // An unformed brigade's position is the front middle of its bases' envelope.
    b.position = envelope(rects, b.facing_deg).front_mid();
  } else if (line_kept) {
    // A refused line keeps the line's position: half a base towards the
    // other flank, as for a laid-out line.
    const bool right = gone + 1 == before;
    b.position = b.position + facing_unit(b.facing_deg + 90.0) * (right ? -size.width / 2.0 : size.width / 2.0);
  }
  // The refused base gone: the rest is a plain layout again.
  const auto laid = layout(b.position, b.facing_deg, size, b.bases, b.formation);
  bool plain = laid.size() == rects.size();
  for (std::size_t i = 0; plain && i < rects.size(); ++i) {
    plain = distance(laid[i].center, rects[i].center) <= 1e-9 &&
            std::abs(angle_diff_deg(laid[i].facing_deg, rects[i].facing_deg)) <= 1e-9;
  }
  if (plain) b.base_poses.clear();
}

}  // namespace

void remove_base(Brigade& b) {
  if (b.bases == 0) return;
  if (b.bases > 1 && b.base_poses.size() == b.bases) {
    remove_placed_base(b);
    return;
  }
  b.base_poses.clear();  // stale: not one per base
  if (b.bases > 1 && !multi_rank(b)) {
    // A flank base goes: the rest of the line keeps its place, so the
    // middle of the front edge moves half a base towards the other flank.
    const BaseSize size = base_size(b.type, b.style);
    const double step = (b.formation == Formation::kUnformed ? size.width + kUnformedGap : size.width) / 2.0;
    const bool right = casualty_base(b) != 0;
    b.position = b.position + facing_unit(b.facing_deg + 90.0) * (right ? -step : step);
  }
  --b.bases;
}

int take_casualty(GameState& s, Brigade& b, std::vector<Event>& events, int n) {
  (void)s;
  int removed = 0;
  for (int i = 0; i < n && brigade_on_table(b); ++i) {
    remove_base(b);
    ++removed;
    events.push_back(unit_event("casualty",
                                ref(b.id) + " loses a base (" + plural(static_cast<int>(b.bases), "base") + " left).",
                                b.id, b.position));
    if (b.bases == 0) {
      b.status |= static_cast<std::uint32_t>(Status::kDestroyed);
      events.push_back(unit_event("destroyed", ref(b.id) + " is destroyed: no bases left.", b.id, b.position));
    }
  }
  return removed;
}

int add_dps(GameState& s, Brigade& b, int n, DpCause cause, std::vector<Event>& events) {
  if (n <= 0 || !brigade_on_table(b)) return 0;
  if (cause == DpCause::kManoeuvre) {
    const std::uint32_t before = b.dps;
    if (b.dps < kManoeuvreDpCap) b.dps = std::min<std::uint32_t>(kManoeuvreDpCap, b.dps + static_cast<std::uint32_t>(n));
    const int added = static_cast<int>(b.dps - before);
    if (added > 0) {
      events.push_back(unit_event("dp", ref(b.id) + " takes " + plural(added, "DP") + " (manoeuvre).", b.id, b.position));
    }
    return 0;
  }
  // DPs come one at a time: each beyond the capacity is a casualty instead,
  // and each casualty lowers the capacity for the next.
  int casualties = 0;
  int pending = 0;  // DPs added and not yet reported
  auto report = [&] {
    if (pending == 0) return;
    events.push_back(unit_event("dp",
                                ref(b.id) + " takes " + plural(pending, "DP") + " (" + std::string(to_string(cause)) +
                                    "), " + std::to_string(b.dps) + " in all.",
                                b.id, b.position));
    pending = 0;
  };
  for (int i = 0; i < n && brigade_on_table(b); ++i) {
    if (b.dps < dp_capacity(b)) {
      ++b.dps;
      ++pending;
      continue;
    }
    report();
    events.push_back(unit_event("dp_casualty",
                                ref(b.id) + " has " + std::to_string(b.dps) + " DPs and " +
                                    plural(static_cast<int>(b.bases), "base") + ": a further DP from " +
                                    std::string(to_string(cause)) + " is a casualty.",
                                b.id, b.position));
    casualties += take_casualty(s, b, events, 1);
  }
  report();
  return casualties;
}

void add_dps(GameState& s, Gun& g, int n, DpCause cause, std::vector<Event>& events) {
  (void)s;
  if (n <= 0) return;
  const std::uint32_t cap = cause == DpCause::kManoeuvre ? kManoeuvreDpCap : kMaxDps;
  const std::uint32_t before = g.dps;
  if (g.dps < cap) g.dps = std::min<std::uint32_t>(cap, g.dps + static_cast<std::uint32_t>(n));
  const int added = static_cast<int>(g.dps - before);
  if (added > 0) {
    events.push_back(unit_event("dp",
                                ref(g.id) + " takes " + plural(added, "DP") + " (" + std::string(to_string(cause)) +
                                    "), " + std::to_string(g.dps) + " in all.",
                                g.id, g.position));
  }
}

void apply_leader_fate(GameState& s, Leader& l, LeaderFate fate, std::vector<DieRoll> dice, std::string why,
                       std::vector<Event>& events) {
  Event e;
  e.subjects = {l.id};
  e.where = {{l.position, l.id}};
  e.dice = std::move(dice);
  switch (fate) {
    case LeaderFate::kUnhurt:
      e.kind = "leader_risk";
      e.text = ref(l.id) + " is not hit (" + why + ").";
      break;
    case LeaderFate::kNearMiss:
      e.kind = "leader_risk";
      e.text = ref(l.id) + " is hit (" + why + "): a near miss, no effect.";
      break;
    case LeaderFate::kWounded:
      ++l.wounds;
      e.kind = "leader_wounded";
      e.text = ref(l.id) + " is wounded (" + why + ").";
      break;
    case LeaderFate::kKilled:
      e.kind = "leader_killed";
      e.text = ref(l.id) + (l.wounds > 0 ? " is wounded a second time and killed (" : " is killed (") + why + ").";
      l.killed = true;
      l.attached_to.clear();
      s.fallen_leaders.push_back({l.id, l.army, l.rank, l.position, s.turn, s.phase, false});
      break;
  }
  events.push_back(std::move(e));
}

void risk_to_attached_leaders(GameState& s, const Brigade& b, RiskCause cause, Dice& dice,
                              std::vector<Event>& events) {
  // Forget tests of earlier phases; then once per brigade and cause.
  std::erase_if(s.risk_tested, [&](const RiskTested& r) { return r.turn != s.turn || r.phase != s.phase; });
  const bool tested = std::any_of(s.risk_tested.begin(), s.risk_tested.end(), [&](const RiskTested& r) {
    return r.brigade == b.id && r.cause == cause;
  });
  if (!tested) {
    s.risk_tested.push_back({b.id, cause, s.turn, s.phase});
    for (auto& l : s.leaders) {
      if (l.attached_to != b.id || l.killed || l.captured) continue;
      const std::string why = "attached to " + ref(b.id) + ", risk from " + std::string(to_string(cause));
      const int first = dice.d6();
      if (first != 1) {
        apply_leader_fate(s, l, LeaderFate::kUnhurt, dice.drain(), why + ", rolled " + std::to_string(first), events);
        continue;
      }
      const int second = dice.d6();
      apply_leader_fate(s, l, leader_hit_result(second, l.wounds), dice.drain(),
                        why + ", rolled 1 then " + std::to_string(second), events);
    }
  }
  // Leaders of a brigade that is no more stay where they were, detached.
  if (!brigade_on_table(b)) {
    for (auto& l : s.leaders) {
      if (l.attached_to == b.id) l.attached_to.clear();
    }
  }
}

DamageResult inflict_damage(GameState& s, Brigade& b, int dps, int casualties, DpCause cause, Dice& dice,
                            std::vector<Event>& events) {
  DamageResult r;
  if (!brigade_on_table(b)) return r;
  const std::uint32_t dps_before = b.dps;
  r.casualties = add_dps(s, b, dps, cause, events);
  r.dps = static_cast<int>(b.dps) - static_cast<int>(dps_before);
  if (casualties > 0) r.casualties += take_casualty(s, b, events, casualties);
  r.destroyed = !brigade_on_table(b);
  const bool took_dp = dps > 0;  // a DP converted to a casualty was still a DP "taken"
  if ((cause == DpCause::kFire || cause == DpCause::kCombat) && (took_dp || r.casualties > 0)) {
    risk_to_attached_leaders(s, b, cause == DpCause::kFire ? RiskCause::kFire : RiskCause::kCombat, dice, events);
  } else if (r.casualties > 0) {
    risk_to_attached_leaders(s, b, RiskCause::kCasualty, dice, events);
  }
  return r;
}

void mark_under_fire(Brigade& b) { b.status |= static_cast<std::uint32_t>(Status::kUnderFire); }
void mark_under_fire(Gun& g) { g.status |= static_cast<std::uint32_t>(Status::kUnderFire); }

}  // namespace galloper::rules::malbrook
