#include "rules/cfeo/check.hpp"

#include <map>
#include <string>
#include <utility>

#include "rules/core/scenario_header.hpp"

namespace galloper::rules::cfeo {

namespace {

constexpr double kTableTolerance = 1e-6;  // rounding only

FieldPath at(FieldPath p, std::string field, int index = -1) {
  p.push_back({std::move(field), index});
  return p;
}

int idx(std::size_t i) { return static_cast<int>(i); }

std::string num(double v) { return spec_number(v); }

std::string quoted(std::string_view s) { return "\"" + std::string(s) + "\""; }

enum class IdKind : std::uint8_t { kTerrain, kSide, kWing, kBrigade, kUnit, kGun, kLeader, kObjective };

std::string_view kind_name(IdKind k) {
  switch (k) {
    case IdKind::kTerrain: return "terrain feature";
    case IdKind::kSide: return "side";
    case IdKind::kWing: return "wing";
    case IdKind::kBrigade: return "brigade";
    case IdKind::kUnit: return "unit";
    case IdKind::kGun: return "gun";
    case IdKind::kLeader: return "leader";
    case IdKind::kObjective: return "objective";
  }
  return "?";
}

// Where an id was declared: its kind and its side.
struct Declared {
  IdKind kind;
  std::string side;
};

class Checker {
 public:
  explicit Checker(const ScenarioSpec& spec) : s_(spec) {}

  std::vector<SpecProblem> run() {
    collect_ids();
    top_level();
    for (SpecProblem& p : check_terrain(s_.terrain)) out_.push_back(std::move(p));
    for (std::size_t i = 0; i < s_.sides.size(); ++i) side(s_.sides[i], at(forces(), "sides", idx(i)));
    for (std::size_t i = 0; i < s_.objectives.size(); ++i) {
      objective(s_.objectives[i], at(at({}, "victory"), "objectives", idx(i)));
    }
    return std::move(out_);
  }

 private:
  static FieldPath forces() { return {{"cfeo", -1}}; }

  void problem(FieldPath where, std::string message) { out_.push_back({std::move(where), std::move(message)}); }

  // ---- ids ----

  void id(const std::string& value, const FieldPath& where, IdKind kind, const std::string& side = {}) {
    if (value.empty()) {
      problem(at(where, "id"), std::string(kind_name(kind)) + " has no id");
      return;
    }
    if (value.find('/') != std::string::npos) {
      problem(at(where, "id"), "id " + quoted(value) + " may not contain '/' (ids make seat names)");
    }
    auto [it, fresh] = ids_.emplace(value, Declared{kind, side});
    if (!fresh) {
      problem(at(where, "id"), "id " + quoted(value) + " is already used by a " +
                                   std::string(kind_name(it->second.kind)) + "; ids must be unique across the scenario");
    }
  }

  void guns_ids(const std::vector<GunSpec>& guns, const FieldPath& where, const std::string& side) {
    for (std::size_t g = 0; g < guns.size(); ++g) id(guns[g].id, at(where, "guns", idx(g)), IdKind::kGun, side);
  }

  void collect_ids() {
    for (std::size_t i = 0; i < s_.terrain.size(); ++i) id(s_.terrain[i].id, at({}, "terrain", idx(i)), IdKind::kTerrain);
    for (std::size_t a = 0; a < s_.sides.size(); ++a) {
      const SideSpec& side = s_.sides[a];
      const FieldPath sp = at(forces(), "sides", idx(a));
      id(side.id, sp, IdKind::kSide, side.id);
      if (side.marshal) id(side.marshal->id, at(sp, "marshal"), IdKind::kLeader, side.id);
      guns_ids(side.guns, sp, side.id);
      for (std::size_t w = 0; w < side.wings.size(); ++w) {
        const WingSpec& wing = side.wings[w];
        const FieldPath wp = at(sp, "wings", idx(w));
        id(wing.id, wp, IdKind::kWing, side.id);
        if (wing.id == "army") problem(at(wp, "id"), "a wing may not be called \"army\": \"<side>/army\" is the marshal's seat");
        if (wing.general) id(wing.general->id, at(wp, "general"), IdKind::kLeader, side.id);
        guns_ids(wing.guns, wp, side.id);
        for (std::size_t b = 0; b < wing.brigades.size(); ++b) {
          const BrigadeSpec& brigade = wing.brigades[b];
          const FieldPath bp = at(wp, "brigades", idx(b));
          id(brigade.id, bp, IdKind::kBrigade, side.id);
          if (brigade.brigadier) id(brigade.brigadier->id, at(bp, "brigadier"), IdKind::kLeader, side.id);
          for (std::size_t u = 0; u < brigade.units.size(); ++u) {
            id(brigade.units[u].id, at(bp, "units", idx(u)), IdKind::kUnit, side.id);
          }
          guns_ids(brigade.guns, bp, side.id);
        }
      }
    }
    for (std::size_t i = 0; i < s_.objectives.size(); ++i) {
      id(s_.objectives[i].id, at(at({}, "victory"), "objectives", idx(i)), IdKind::kObjective);
    }
  }

  const Declared* declared(const std::string& value) const {
    auto it = ids_.find(value);
    return it == ids_.end() ? nullptr : &it->second;
  }

  // ---- the scenario as a whole ----

  void top_level() {
    check_header(s_.name, s_.table_width, s_.table_depth, s_.turn_limit, "yards", "gadebusch", out_);
    if (s_.sides.size() != 2) {
      problem(s_.sides.size() > 2 ? at(forces(), "sides", 2) : forces(),
              "a scenario has exactly two sides; this one has " + std::to_string(s_.sides.size()));
    }
    if (!s_.attacker.empty()) {
      const Declared* d = declared(s_.attacker);
      if (d == nullptr || d->kind != IdKind::kSide) {
        problem({{"attacker", -1}}, "attacker " + quoted(s_.attacker) + " is not a side of this scenario");
      }
    }
  }

  bool table_known() const { return s_.table_width > 0 && s_.table_depth > 0; }

  void placed(const std::optional<Vec2>& position, const FieldPath& where, const std::string& label,
              const std::string& field = "position") {
    if (!position) {
      problem(at(where, field), label + ": " + field + " is missing (the middle of its front edge, in yards)");
      return;
    }
    const Vec2 p = *position;
    if (table_known() && (p.x < -kTableTolerance || p.y < -kTableTolerance ||
                          p.x > s_.table_width + kTableTolerance || p.y > s_.table_depth + kTableTolerance)) {
      problem(at(where, field), label + ": " + field + " (" + num(p.x) + ", " + num(p.y) + ") is off the " +
                                         num(s_.table_width) + " x " + num(s_.table_depth) + " yard table");
    }
  }

  // ---- sides, wings, brigades ----

  void side(const SideSpec& a, const FieldPath& sp) {
    const std::string label = "side " + quoted(a.id);
    if (!a.style) problem(at(sp, "style"), label + ": style is missing (CAVALRY_STYLE_TRADITIONAL or _NEW)");
    if (a.break_percent > 100) {
      problem(at(sp, "break_percent"), label + ": break_percent is a percentage (0-100), not " +
                                           std::to_string(a.break_percent));
    }
    if (!a.marshal) {
      problem(sp, label + " has no marshal: the side's commander must be on the table (marshal { ... })");
    } else {
      leader(*a.marshal, at(sp, "marshal"), a.id, nullptr);
    }
    if (a.wings.empty()) problem(sp, label + " has no wings: every brigade belongs to a wing");
    for (std::size_t w = 0; w < a.wings.size(); ++w) wing(a, a.wings[w], at(sp, "wings", idx(w)));
    for (std::size_t g = 0; g < a.guns.size(); ++g) gun(a.guns[g], at(sp, "guns", idx(g)), nullptr);
  }

  void wing(const SideSpec& a, const WingSpec& w, const FieldPath& wp) {
    const std::string label = "wing " + quoted(w.id);
    if (!w.general) {
      problem(wp, label + " has no general: each wing must have a leader on the table");
    } else {
      leader(*w.general, at(wp, "general"), a.id, nullptr);
    }
    if (w.brigades.empty() && w.guns.empty()) problem(wp, label + " has no brigades and no guns");
    for (std::size_t b = 0; b < w.brigades.size(); ++b) brigade(a, w.brigades[b], at(wp, "brigades", idx(b)));
    for (std::size_t g = 0; g < w.guns.size(); ++g) gun(w.guns[g], at(wp, "guns", idx(g)), nullptr);
  }

  void brigade(const SideSpec& a, const BrigadeSpec& b, const FieldPath& bp) {
    const std::string label = "brigade " + quoted(b.id);
    if (!b.brigadier) {
      problem(bp, label + " has no brigadier: each brigade must have a leader on the table");
    } else {
      leader(*b.brigadier, at(bp, "brigadier"), a.id, &b);
    }
    if (b.units.empty()) problem(bp, label + " has no units");
    for (std::size_t u = 0; u < b.units.size(); ++u) unit(b.units[u], at(bp, "units", idx(u)));
    for (std::size_t g = 0; g < b.guns.size(); ++g) gun(b.guns[g], at(bp, "guns", idx(g)), &b);
  }

  // ---- pieces ----

  void unit(const UnitSpec& u, const FieldPath& up) {
    const std::string label = "unit " + quoted(u.id);
    if (!u.arm) problem(at(up, "arm"), label + ": arm is missing (ARM_FOOT, _HORSE, _DRAGOONS or _DISMOUNTED_DRAGOONS)");
    if (!u.grade) problem(at(up, "grade"), label + ": grade is missing (GRADE_A to GRADE_E)");
    if (!u.formation) problem(at(up, "formation"), label + ": formation is missing (FORMATION_LINE, ...)");
    if (u.bases < 1 || u.bases > kMaxBases) {
      problem(at(up, "bases"), label + ": a unit has 1-" + std::to_string(kMaxBases) + " bases, not " +
                                   std::to_string(u.bases));
    }
    placed(u.position, up, label);
    const bool foot = u.arm && is_foot(*u.arm);
    const bool cavalry = u.arm && is_cavalry(*u.arm);
    if (u.pike_bases > 0 && !foot) problem(at(up, "pike_bases"), label + ": only foot carry pikes");
    if (u.pike_bases > u.bases) {
      problem(at(up, "pike_bases"), label + ": " + std::to_string(u.pike_bases) + " pike bases of " +
                                        std::to_string(u.bases) + " bases");
    }
    if (u.skirmishers && !foot) problem(at(up, "skirmishers"), label + ": only foot skirmish");
    if (u.platoon_fire && !foot) problem(at(up, "platoon_fire"), label + ": only foot fire by platoons");
    if (u.formation == Formation::kAssaultColumn && !foot) {
      problem(at(up, "formation"), label + ": only foot form an assault column");
    }
    if (u.style && !cavalry) problem(at(up, "style"), label + ": a style is for horse and dragoons only");
    if (u.a_outrance && !cavalry) problem(at(up, "a_outrance"), label + ": only cavalry charge a l'outrance");
    if (u.ranks > 1 && !cavalry) problem(at(up, "ranks"), label + ": ranks are for cavalry only");
    if (u.ranks > 1 && u.ranks > u.bases) {
      problem(at(up, "ranks"), label + ": " + std::to_string(u.ranks) + " ranks of " + std::to_string(u.bases) + " bases");
    }
  }

  void gun(const GunSpec& g, const FieldPath& gp, const BrigadeSpec* brigade) {
    const std::string label = "gun " + quoted(g.id);
    if (!g.type) problem(at(gp, "type"), label + ": type is missing (GUN_TYPE_HEAVY, _FIELD or _BATTALION)");
    placed(g.position, gp, label);
    if (g.with_unit.empty()) {
      if (g.type == GunType::kBattalion) {
        problem(at(gp, "with_unit"), label + ": a battalion gun serves a battalion: with_unit is missing");
      }
      return;
    }
    if (g.type != GunType::kBattalion) {
      problem(at(gp, "with_unit"), label + ": only battalion guns serve a battalion (with_unit)");
      return;
    }
    const UnitSpec* served = nullptr;
    if (brigade != nullptr) {
      for (const auto& u : brigade->units) {
        if (u.id == g.with_unit) served = &u;
      }
    }
    if (served == nullptr || !served->arm || !is_foot(*served->arm)) {
      problem(at(gp, "with_unit"), label + ": with_unit " + quoted(g.with_unit) +
                                       " is not a foot unit of the gun's own brigade");
    }
  }

  void leader(const LeaderSpec& l, const FieldPath& lp, const std::string& side, const BrigadeSpec* brigade) {
    const std::string label = "leader " + quoted(l.id);
    placed(l.position, lp, label);
    if (l.action_modifier < -1 || l.action_modifier > 1) {
      problem(at(lp, "action_modifier"), label + ": action_modifier is -1, 0 or +1, not " + std::to_string(l.action_modifier));
    }
    if (l.wounds > 1) problem(at(lp, "wounds"), label + ": a second wound kills (wounds is 0 or 1)");
    if (l.attached_to.empty()) return;
    const Declared* d = declared(l.attached_to);
    if (d == nullptr || d->kind != IdKind::kUnit || d->side != side) {
      problem(at(lp, "attached_to"), label + ": attached_to " + quoted(l.attached_to) + " is not a unit of side " +
                                         quoted(side));
      return;
    }
    if (brigade != nullptr) {
      bool own = false;
      for (const auto& u : brigade->units) own = own || u.id == l.attached_to;
      if (!own) {
        problem(at(lp, "attached_to"), label + ": a brigadier attaches to a unit of his own brigade, not " +
                                           quoted(l.attached_to));
      }
    }
  }

  void objective(const ObjectiveSpec& o, const FieldPath& op) {
    const std::string label = "objective " + quoted(o.id);
    if (!o.at) {
      problem(at(op, "at"), label + ": at is missing: the objective's centre, in yards");
    } else {
      placed(o.at, op, label, "at");
    }
    if (!(o.radius > 0)) problem(at(op, "radius"), label + ": radius must be greater than 0 yards");
    if (!o.held_by.empty()) {
      const Declared* d = declared(o.held_by);
      if (d == nullptr || d->kind != IdKind::kSide) {
        problem(at(op, "held_by"), label + ": held_by " + quoted(o.held_by) + " is not a side of this scenario");
      }
    }
  }

  const ScenarioSpec& s_;
  std::map<std::string, Declared, std::less<>> ids_;
  std::vector<SpecProblem> out_;
};

}  // namespace

std::vector<SpecProblem> check_scenario(const ScenarioSpec& spec) { return Checker(spec).run(); }

}  // namespace galloper::rules::cfeo
