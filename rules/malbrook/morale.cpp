#include "rules/malbrook/morale.hpp"

#include <algorithm>
#include <string>

#include "rules/core/geometry.hpp"
#include "rules/core/tell.hpp"
#include "rules/malbrook/basing.hpp"
#include "rules/malbrook/damage.hpp"
#include "rules/malbrook/manoeuvre.hpp"
#include "rules/malbrook/movement.hpp"
#include "rules/malbrook/sequence.hpp"

namespace galloper::rules::malbrook {

namespace {

bool on_table(const Brigade& b) {
  return b.bases > 0 && !b.has(Status::kDestroyed) && !b.has(Status::kSurrendered);
}

OrientedRect where_of(const Brigade& b) {
  Pose p = pose_of(b);
  p.bases = std::max<std::uint32_t>(p.bases, 1);  // a destroyed brigade: where its last base stood
  return pose_envelope(p);
}

// Worse causes replace milder ones for the same brigade in the same turn.
int weight(MoraleCauseKind k) {
  switch (k) {
    case MoraleCauseKind::kRetired: return 1;
    case MoraleCauseKind::kRouted: return 2;
    case MoraleCauseKind::kDestroyed: return 3;
    default: return 0;
  }
}

bool lower_grade(Grade cause, Grade affected) {
  return static_cast<int>(cause) > static_cast<int>(affected);  // kA best .. kE worst
}

const char* cause_words(MoraleCauseKind k) {
  switch (k) {
    case MoraleCauseKind::kRetired: return "retiring";
    case MoraleCauseKind::kRouted: return "routing";
    case MoraleCauseKind::kDestroyed: return "destroyed";
    case MoraleCauseKind::kLeaderKilled: return "killed";
    case MoraleCauseKind::kLeaderRouting: return "routing";
  }
  return "";
}

// Brigades lost this turn that nobody recorded yet (damage.hpp destroys them).
void find_destroyed(GameState& s) {
  for (const auto& b : s.brigades) {
    if (on_table(b)) continue;
    const bool known = std::any_of(s.morale_causes.begin(), s.morale_causes.end(), [&](const MoraleCause& c) {
      return c.unit == b.id && c.kind == MoraleCauseKind::kDestroyed;
    });
    if (!known) record_cause(s, MoraleCauseKind::kDestroyed, b);
  }
}

struct Due {
  int dps = 0;
  std::string why;
};

// A cause as the brigade's own side is told it: by its name, which the side
// knows though the piece may be gone from the table (and so from its views).
std::string cause_name(const GameState& s, std::string_view id) {
  if (const Brigade* c = s.find_brigade(id); c != nullptr && !c->name.empty()) return c->name;
  if (const Leader* l = s.find_leader(id); l != nullptr && !l->name.empty()) return l->name;
  return std::string(id);
}

Due due_for(const GameState& s, const Brigade& b) {
  Due d;
  const OrientedRect env = pose_envelope(pose_of(b));
  const Polygon poly = env.polygon();
  auto add = [&](int n, const std::string& text) {
    if (n <= 0) return;
    d.dps += n;
    d.why += (d.why.empty() ? "" : ", ") + text;
  };
  for (const auto& c : s.morale_causes) {
    if (c.turn != s.turn || c.army != b.army || c.unit == b.id) continue;
    if (c.kind == MoraleCauseKind::kLeaderKilled) continue;  // below
    OrientedRect where = c.where;
    if (const Brigade* cb = s.find_brigade(c.unit); cb != nullptr && on_table(*cb)) where = where_of(*cb);
    if (distance(poly, where.polygon()) > kMoraleRange + kGeomEpsilon) continue;
    const bool lower = lower_grade(c.grade, b.grade);
    switch (c.kind) {
      case MoraleCauseKind::kRetired:
        if (c.foot && !lower) add(1, cause_name(s, c.unit) + " retiring");
        break;
      case MoraleCauseKind::kRouted:
      case MoraleCauseKind::kDestroyed:
        add(lower ? 1 : 2, cause_name(s, c.unit) + " " + cause_words(c.kind));
        break;
      default: break;
    }
  }
  // "Their Lieutenant General or Marshal killed or routing within 6 inches":
  // the brigade's own wing's Lieutenant General or a Marshal of its army
  // (RULINGS.md MO3). One DP per leader.
  auto theirs = [&](const Leader& l) {
    return l.army == b.army &&
           (l.rank == LeaderRank::kMarshal || (l.rank == LeaderRank::kLieutenantGeneral && l.wing == b.wing));
  };
  for (const auto& f : s.fallen_leaders) {
    if (f.turn != s.turn || f.captured) continue;
    const Leader* l = s.find_leader(f.leader);
    if (l == nullptr || !theirs(*l)) continue;
    if (distance(poly, f.position) <= kMoraleRange + kGeomEpsilon) add(1, cause_name(s, f.leader) + " killed");
  }
  for (const auto& c : s.morale_causes) {
    if (c.turn != s.turn || c.army != b.army || c.kind != MoraleCauseKind::kRouted) continue;
    for (const auto& l : s.leaders) {
      if (l.attached_to != c.unit || l.killed || l.captured || !theirs(l)) continue;
      if (distance(poly, l.position) <= kMoraleRange + kGeomEpsilon) add(1, cause_name(s, l.id) + " routing with " + cause_name(s, c.unit));
    }
  }
  return d;
}

}  // namespace

void record_cause(GameState& s, MoraleCauseKind kind, const Brigade& b) {
  for (auto& c : s.morale_causes) {
    if (c.unit != b.id || c.turn != s.turn) continue;
    if (weight(kind) > weight(c.kind)) {
      c.kind = kind;
      c.where = where_of(b);
    }
    return;
  }
  MoraleCause c;
  c.kind = kind;
  c.unit = b.id;
  c.army = b.army;
  c.wing = b.wing;
  c.grade = b.grade;
  c.foot = is_foot(b.type);
  c.where = where_of(b);
  c.turn = s.turn;
  s.morale_causes.push_back(std::move(c));
}

std::uint32_t morale_dps_this_turn(const GameState& s, const Brigade& b) {
  return b.morale_dps_turn == s.turn ? std::min(b.morale_dps, b.dps) : 0;
}

int add_morale_dps(GameState& s, Brigade& b, int n, Dice& dice, std::vector<Event>& events) {
  if (n <= 0 || !on_table(b)) return 0;
  const std::uint32_t before = b.dps;
  const DamageResult r = inflict_damage(s, b, n, 0, DpCause::kMorale, dice, events);
  if (b.morale_dps_turn != s.turn) {
    b.morale_dps_turn = s.turn;
    b.morale_dps = 0;
  }
  b.morale_dps += b.dps > before ? b.dps - before : 0;
  return r.casualties;
}

bool in_combat_this_turn(const GameState& s, const Brigade& b) {
  return b.has(Status::kInCombat) || b.combat_turn == s.turn;
}

std::uint32_t redress_allowance(const GameState& s, const Brigade& b) {
  if (!on_table(b) || b.dps == 0 || b.has(Status::kMoved) || in_combat_this_turn(s, b)) return 0;
  const bool under_fire = b.has(Status::kUnderFire);
  std::uint32_t n = 0;
  switch (b.grade) {
    case Grade::kA:
    case Grade::kB: n = under_fire ? 1 : 2; break;
    case Grade::kC:
    case Grade::kD: n = under_fire ? 0 : 1; break;
    case Grade::kE:
      n = !under_fire && enemy_distance(s, b.army, pose_envelope(pose_of(b))) > kRedressEnemy ? 1 : 0;
      break;
  }
  const std::uint32_t removable = b.dps - morale_dps_this_turn(s, b);
  return std::min(n, removable);
}

std::uint32_t redress_allowance(const GameState&, const Gun& g) {
  // RULINGS.md MO4: guns re-dress as C-D grade.
  if (g.dps == 0 || g.has(Status::kMoved) || g.has(Status::kInCombat) || g.has(Status::kUnderFire) ||
      g.has(Status::kAbandoned) || g.has(Status::kCrewEliminated)) {
    return 0;
  }
  return 1;
}

int morale_dps_due(const GameState& s, const Brigade& b) {
  if (!on_table(b)) return 0;
  return due_for(s, b).dps;
}

void run_morale_phase(GameState& s, Dice& dice, std::vector<Event>& events) {
  // Causes from earlier turns no longer count; destructions stay recorded so
  // a brigade is mourned once.
  std::erase_if(s.morale_causes, [&](const MoraleCause& c) {
    return c.turn != s.turn && c.kind != MoraleCauseKind::kDestroyed;
  });
  find_destroyed(s);

  // 1. Re-dress ranks, right to left, the side with initiative first.
  for (const auto& army : armies_in_order(s)) {
    for (std::size_t i : brigades_right_to_left(s, army)) {
      Brigade& b = s.brigades[i];
      const std::uint32_t n = redress_allowance(s, b);
      if (n == 0) continue;
      b.dps -= n;
      Event e;
      e.kind = "redress";
      e.text = ref(b.id) + " re-dresses ranks: -" + std::to_string(n) + " DP" + (n > 1 ? "s" : "") + " (" +
               std::to_string(b.dps) + " left).";
      e.subjects = {b.id};
      e.where = {{b.position, b.id}};
      events.push_back(std::move(e));
    }
    for (std::size_t i : guns_right_to_left(s, army)) {
      Gun& g = s.guns[i];
      const std::uint32_t n = redress_allowance(s, g);
      if (n == 0) continue;
      g.dps -= n;
      Event e;
      e.kind = "redress";
      e.text = ref(g.id) + " re-dresses: -" + std::to_string(n) + " DP.";
      e.subjects = {g.id};
      e.where = {{g.position, g.id}};
      events.push_back(std::move(e));
    }
  }

  // 2. Morale DPs: worked out for every brigade first, then applied, so a
  // brigade destroyed by morale DPs now does not charge its neighbours until
  // the next Morale phase (RULINGS.md MO2).
  std::vector<std::pair<std::size_t, Due>> dues;
  for (const auto& army : armies_in_order(s)) {
    for (std::size_t i : brigades_right_to_left(s, army)) {
      if (!on_table(s.brigades[i])) continue;
      Due d = due_for(s, s.brigades[i]);
      if (d.dps > 0) dues.emplace_back(i, std::move(d));
    }
  }
  for (auto& [i, d] : dues) {
    Brigade& b = s.brigades[i];
    Event e;
    e.kind = "morale";
    // Why is the side's own knowledge: its losses, by name.
    e.text = ref(b.id) + " takes " + std::to_string(d.dps) + " morale DP" + (d.dps > 1 ? "s" : "") +
             known_to(b.id, ": " + d.why) + ".";
    e.subjects = {b.id};
    e.where = {{b.position, b.id}};
    events.push_back(std::move(e));
    add_morale_dps(s, b, d.dps, dice, events);
  }
}

}  // namespace galloper::rules::malbrook
