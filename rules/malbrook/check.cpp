#include "rules/malbrook/check.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "rules/core/geometry.hpp"
#include "rules/core/scenario_header.hpp"
#include "rules/malbrook/basing.hpp"

namespace galloper::rules::malbrook {

namespace {

constexpr double kTableTolerance = 1e-6;    // rounding only
constexpr double kOverlapTolerance = 1e-6;  // touching is not overlapping

FieldPath at(FieldPath p, std::string field, int index = -1) {
  p.push_back({std::move(field), index});
  return p;
}

std::string num(double v) { return spec_number(v); }

std::string quoted(std::string_view s) { return "\"" + std::string(s) + "\""; }

// The range of bases a brigade may have ("Units"). Dismounted dragoons are
// counted as the dragoon brigade they are; civilians have no stated range.
struct BaseRange {
  std::uint32_t min;
  std::uint32_t max;
};
BaseRange base_range(TroopType t) {
  switch (t) {
    case TroopType::kFoot: return {3, 12};
    case TroopType::kCivilians: return {1, 12};
    default: return {2, 12};
  }
}

enum class IdKind : std::uint8_t { kTerrain, kArmy, kWing, kCommand, kBrigade, kGun, kLeader, kObjective };

std::string_view kind_name(IdKind k) {
  switch (k) {
    case IdKind::kTerrain: return "terrain feature";
    case IdKind::kArmy: return "army";
    case IdKind::kWing: return "wing";
    case IdKind::kCommand: return "command";
    case IdKind::kBrigade: return "brigade";
    case IdKind::kGun: return "gun";
    case IdKind::kLeader: return "leader";
    case IdKind::kObjective: return "objective";
  }
  return "?";
}

struct Chain {
  std::string army;
  std::string wing;
  std::string command;
};

// A unit placed on the table, for the overlap check.
struct Placed {
  FieldPath where;
  std::string label;
  std::vector<OrientedRect> bases;
  Aabb box;
};

class Checker {
 public:
  explicit Checker(const ScenarioSpec& spec) : s_(spec) {}

  std::vector<SpecProblem> run() {
    collect_ids();
    top_level();
    for (SpecProblem& p : check_terrain(s_.terrain)) out_.push_back(std::move(p));
    for (std::size_t i = 0; i < s_.armies.size(); ++i) army(s_.armies[i], at({}, "armies", idx(i)));
    for (std::size_t i = 0; i < s_.objectives.size(); ++i) {
      objective(s_.objectives[i], at(at({}, "victory"), "objectives", idx(i)));
    }
    overlaps();
    return std::move(out_);
  }

 private:
  static int idx(std::size_t i) { return static_cast<int>(i); }

  void problem(FieldPath where, std::string message) { out_.push_back({std::move(where), std::move(message)}); }

  // ---- ids ----

  void id(const std::string& value, const FieldPath& where, IdKind kind, const Chain& chain = {}) {
    if (value.empty()) {
      problem(at(where, "id"), std::string(kind_name(kind)) + " has no id");
      return;
    }
    if (value.find('/') != std::string::npos) {
      problem(at(where, "id"), "id " + quoted(value) + " may not contain '/' (ids make seat names)");
    }
    auto [it, fresh] = ids_.emplace(value, kind);
    if (!fresh) {
      problem(at(where, "id"), "id " + quoted(value) + " is already used by a " +
                                   std::string(kind_name(it->second)) + "; ids must be unique across the scenario");
      return;
    }
    chains_[value] = chain;
  }

  void leader_id(const LeaderSpec& l, const FieldPath& where, const Chain& chain) {
    id(l.id, where, IdKind::kLeader, chain);
  }

  void collect_ids() {
    for (std::size_t i = 0; i < s_.terrain.size(); ++i) id(s_.terrain[i].id, at({}, "terrain", idx(i)), IdKind::kTerrain);
    for (std::size_t a = 0; a < s_.armies.size(); ++a) {
      const ArmySpec& army = s_.armies[a];
      const FieldPath ap = at({}, "armies", idx(a));
      id(army.id, ap, IdKind::kArmy);
      const Chain ac{army.id, "", ""};
      for (std::size_t m = 0; m < army.marshals.size(); ++m) leader_id(army.marshals[m], at(ap, "marshals", idx(m)), ac);
      for (std::size_t w = 0; w < army.wings.size(); ++w) {
        const WingSpec& wing = army.wings[w];
        const FieldPath wp = at(ap, "wings", idx(w));
        id(wing.id, wp, IdKind::kWing, ac);
        if (wing.id == "army") {
          problem(at(wp, "id"), "a wing may not be called \"army\": \"<army>/army\" is the Marshal's seat");
        }
        const Chain wc{army.id, wing.id, ""};
        if (wing.lieutenant_general) leader_id(*wing.lieutenant_general, at(wp, "lieutenant_general"), wc);
        for (std::size_t c = 0; c < wing.commands.size(); ++c) {
          const CommandSpec& command = wing.commands[c];
          const FieldPath cp = at(wp, "commands", idx(c));
          id(command.id, cp, IdKind::kCommand, wc);
          const Chain cc{army.id, wing.id, command.id};
          if (command.major_general) leader_id(*command.major_general, at(cp, "major_general"), cc);
          for (std::size_t b = 0; b < command.brigades.size(); ++b) {
            id(command.brigades[b].id, at(cp, "brigades", idx(b)), IdKind::kBrigade, cc);
          }
          for (std::size_t g = 0; g < command.guns.size(); ++g) id(command.guns[g].id, at(cp, "guns", idx(g)), IdKind::kGun, cc);
        }
        for (std::size_t g = 0; g < wing.guns.size(); ++g) id(wing.guns[g].id, at(wp, "guns", idx(g)), IdKind::kGun, wc);
      }
      for (std::size_t g = 0; g < army.guns.size(); ++g) id(army.guns[g].id, at(ap, "guns", idx(g)), IdKind::kGun, ac);
    }
    for (std::size_t i = 0; i < s_.objectives.size(); ++i) {
      id(s_.objectives[i].id, at(at({}, "victory"), "objectives", idx(i)), IdKind::kObjective);
    }
  }

  const IdKind* kind_of(const std::string& value) const {
    auto it = ids_.find(value);
    return it == ids_.end() ? nullptr : &it->second;
  }

  // ---- the scenario as a whole ----

  void top_level() {
    check_header(s_.name, s_.table_width, s_.table_depth, s_.turn_limit, "inches", "demo", out_);
    if (s_.armies.size() < 2) {
      problem(s_.armies.empty() ? FieldPath{} : at({}, "armies", 0),
              "a scenario has exactly two armies; this one has " + std::to_string(s_.armies.size()));
    }
    for (std::size_t a = 2; a < s_.armies.size(); ++a) {
      problem(at({}, "armies", idx(a)), "a scenario has exactly two armies; this is army " + std::to_string(a + 1));
    }
    if (!s_.attacker.empty()) {
      const IdKind* k = kind_of(s_.attacker);
      if (k == nullptr || *k != IdKind::kArmy) {
        problem({{"attacker", -1}}, "attacker " + quoted(s_.attacker) + " is not an army of this scenario");
      }
    }
  }

  bool on_table(Vec2 p) const {
    return p.x >= -kTableTolerance && p.y >= -kTableTolerance && p.x <= s_.table_width + kTableTolerance &&
           p.y <= s_.table_depth + kTableTolerance;
  }
  bool on_table(const OrientedRect& r) const {
    for (Vec2 c : r.corners()) {
      if (!on_table(c)) return false;
    }
    return true;
  }
  bool table_known() const { return s_.table_width > 0 && s_.table_depth > 0; }

  // ---- armies ----

  void army(const ArmySpec& a, const FieldPath& ap) {
    const std::string label = "army " + quoted(a.id);
    if (!a.style) problem(at(ap, "style"), label + ": style is missing (FIGHTING_STYLE_TRADITIONAL or _NEW)");
    if (a.break_percent > 100) {
      problem(at(ap, "break_percent"), label + ": break_percent is a percentage (0-100), not " +
                                           std::to_string(a.break_percent));
    }
    if (a.marshals.empty()) problem(ap, label + " has no Marshal: the army's command group must be on the table (marshals { ... })");
    for (std::size_t m = 0; m < a.marshals.size(); ++m) {
      leader(a.marshals[m], at(ap, "marshals", idx(m)), LeaderRank::kMarshal, {a.id, "", ""});
    }
    if (a.wings.empty()) problem(ap, label + " has no wings: every brigade belongs to a wing and a command");
    for (std::size_t w = 0; w < a.wings.size(); ++w) wing(a, a.wings[w], at(ap, "wings", idx(w)));
    for (std::size_t g = 0; g < a.guns.size(); ++g) gun(a.guns[g], at(ap, "guns", idx(g)));
  }

  void wing(const ArmySpec& a, const WingSpec& w, const FieldPath& wp) {
    const std::string label = "wing " + quoted(w.id);
    if (!w.lieutenant_general) {
      problem(wp, label + " has no lieutenant_general: each wing must have a leader on the table");
    } else {
      leader(*w.lieutenant_general, at(wp, "lieutenant_general"), LeaderRank::kLieutenantGeneral, {a.id, w.id, ""});
    }
    if (!w.orders) {
      problem(wp, label + " has no orders (defend, advance to and defend a position, or advance and attack)");
    } else {
      const FieldPath op = at(wp, "orders");
      if (!w.orders->order) {
        problem(at(op, "order"), label + ": order is missing (WING_ORDER_DEFEND, _ADVANCE_AND_DEFEND or _ADVANCE_AND_ATTACK)");
      } else if (*w.orders->order == WingOrder::kAdvanceAndDefend && !w.orders->objective &&
                 w.orders->objective_feature.empty()) {
        problem(at(op, "order"), label + ": \"advance to and defend a position\" needs the position: objective or objective_feature");
      }
      if (!w.orders->objective_feature.empty()) {
        const IdKind* k = kind_of(w.orders->objective_feature);
        if (k == nullptr || *k != IdKind::kTerrain) {
          problem(at(op, "objective_feature"), label + ": objective_feature " + quoted(w.orders->objective_feature) +
                                                   " is not a terrain feature");
        }
      }
      if (w.orders->objective && table_known() && !on_table(*w.orders->objective)) {
        problem(at(op, "objective"), label + ": the objective is off the table");
      }
    }
    if (w.commands.empty()) problem(wp, label + " has no commands: each brigade belongs to a command under a Major General");
    for (std::size_t c = 0; c < w.commands.size(); ++c) command(a, w, w.commands[c], at(wp, "commands", idx(c)));
    for (std::size_t g = 0; g < w.guns.size(); ++g) gun(w.guns[g], at(wp, "guns", idx(g)));
  }

  void command(const ArmySpec& a, const WingSpec& w, const CommandSpec& c, const FieldPath& cp) {
    const std::string label = "command " + quoted(c.id);
    if (!c.major_general) {
      problem(cp, label + " has no major_general: each command must have a leader on the table");
    } else {
      leader(*c.major_general, at(cp, "major_general"), LeaderRank::kMajorGeneral, {a.id, w.id, c.id});
    }
    if (c.brigades.empty() && c.guns.empty()) problem(cp, label + " has no brigades");
    // "A command must normally be either all foot or all cavalry, except that
    // dragoons may be part of either."
    const BrigadeSpec* first_foot = nullptr;
    const BrigadeSpec* first_cavalry = nullptr;
    for (std::size_t b = 0; b < c.brigades.size(); ++b) {
      const BrigadeSpec& br = c.brigades[b];
      const FieldPath bp = at(cp, "brigades", idx(b));
      brigade(a, br, bp);
      if (!br.type) continue;
      if (*br.type == TroopType::kFoot) {
        if (first_cavalry != nullptr && first_foot == nullptr) {
          problem(at(bp, "type"), label + " mixes foot and cavalry: brigade " + quoted(br.id) + " is foot but " +
                                      quoted(first_cavalry->id) + " is " + std::string(to_string(*first_cavalry->type)) +
                                      " (only dragoons may join either kind of command)");
        }
        if (first_foot == nullptr) first_foot = &br;
      } else if (*br.type == TroopType::kHorse || *br.type == TroopType::kHussars) {
        if (first_foot != nullptr && first_cavalry == nullptr) {
          problem(at(bp, "type"), label + " mixes foot and cavalry: brigade " + quoted(br.id) + " is " +
                                      std::string(to_string(*br.type)) + " but " + quoted(first_foot->id) +
                                      " is foot (only dragoons may join either kind of command)");
        }
        if (first_cavalry == nullptr) first_cavalry = &br;
      }
    }
    for (std::size_t g = 0; g < c.guns.size(); ++g) gun(c.guns[g], at(cp, "guns", idx(g)));
  }

  void brigade(const ArmySpec& a, const BrigadeSpec& b, const FieldPath& bp) {
    const std::string label = "brigade " + quoted(b.id);
    if (!b.type) problem(at(bp, "type"), label + ": type is missing (TROOP_TYPE_FOOT, _HORSE, _DRAGOONS, ...)");
    if (!b.grade) problem(at(bp, "grade"), label + ": grade is missing (GRADE_A .. GRADE_E)");
    const std::optional<FightingStyle> style = b.style ? b.style : a.style;
    bool layout_known = b.type.has_value() && style.has_value();

    if (b.type) {
      const BaseRange range = base_range(*b.type);
      if (b.bases < range.min || b.bases > range.max) {
        problem(at(bp, "bases"), label + ": a " + std::string(to_string(*b.type)) + " brigade has " +
                                     std::to_string(range.min) + "-" + std::to_string(range.max) + " bases, not " +
                                     std::to_string(b.bases));
        layout_known = false;
      }
    }
    std::optional<Formation> formation = b.formation;
    if (b.type && always_unformed(*b.type)) {
      if (formation && *formation != Formation::kUnformed) {
        problem(at(bp, "formation"), label + ": " + std::string(to_string(*b.type)) + " are always unformed, not " +
                                         std::string(to_string(*formation)));
        layout_known = false;
      }
      formation = Formation::kUnformed;
    } else if (b.type) {
      if (!formation) {
        problem(at(bp, "formation"), label + ": formation is missing (FORMATION_LINE, _TWO_RANK_LINE, _MARCH_COLUMN or _FIELD_COLUMN)");
        layout_known = false;
      } else if (*formation == Formation::kUnformed) {
        problem(at(bp, "formation"), label + ": only dismounted dragoons, hussars and civilians are unformed; "
                                             "other brigades may not voluntarily become unformed");
        layout_known = false;
      } else if (*formation == Formation::kTwoRankLine && style && layout_known) {
        const BaseSize size = base_size(*b.type, *style);
        if (!two_rank_line_allowed(size, b.bases)) {
          const int front = bases_per_rank(Formation::kTwoRankLine, b.bases);
          problem(at(bp, "formation"), label + ": a two-rank line must be at least as wide as it is deep; " +
                                           std::to_string(b.bases) + " bases make it " + num(front * size.width) +
                                           "\" wide and " + num(2 * size.depth) + "\" deep");
        }
      } else if (*formation == Formation::kFieldColumn && !field_column_allowed(b.bases) && layout_known) {
        problem(at(bp, "formation"), label + ": a field column is two bases wide and two or more deep, so needs at least 3 bases");
      }
    }
    if (b.type && *b.type == TroopType::kDismountedDragoons && style == FightingStyle::kNew) {
      problem(at(bp, "type"), label + ": only traditional style dragoons may dismount");
    }
    if (b.a_outrance && b.type) {
      const bool may = *b.type == TroopType::kHussars ||
                       ((*b.type == TroopType::kHorse || *b.type == TroopType::kDragoons) && style == FightingStyle::kNew);
      if (!may) {
        problem(at(bp, "a_outrance"), label + ": only hussars and new style horse and dragoons may charge à l'outrance");
      }
    }
    const std::uint32_t max_dps = std::min<std::uint32_t>(b.bases, 6);
    if (b.dps > max_dps) {
      problem(at(bp, "dps"), label + ": a brigade of " + std::to_string(b.bases) + " bases holds at most " +
                                 std::to_string(max_dps) + " DPs, not " + std::to_string(b.dps));
    }
    if (b.horse_holders) {
      if (b.type && *b.type != TroopType::kDismountedDragoons) {
        problem(at(bp, "horse_holders"), label + ": only dismounted dragoons have horse holders");
      } else if (table_known() && !on_table(*b.horse_holders)) {
        problem(at(bp, "horse_holders"), label + ": the horse holders are off the table");
      }
    }
    if (!b.position) {
      problem(bp, label + ": position is missing (the middle of the front edge)");
      return;
    }
    if (!layout_known || !formation) return;
    Brigade placed;
    placed.type = *b.type;
    placed.style = *style;
    placed.bases = b.bases;
    placed.formation = *formation;
    placed.position = *b.position;
    placed.facing_deg = b.facing;
    place(label, at(bp, "position"), footprint(placed));
  }

  void gun(const GunSpec& g, const FieldPath& gp) {
    const std::string label = "gun " + quoted(g.id);
    if (!g.weight) problem(at(gp, "weight"), label + ": weight is missing (GUN_WEIGHT_LIGHT, _MEDIUM, _HEAVY, _HOWITZER or _MORTAR)");
    if (g.dps > 6) problem(at(gp, "dps"), label + ": at most 6 DPs, not " + std::to_string(g.dps));
    if (!g.position) {
      problem(gp, label + ": position is missing (the middle of the front edge)");
      return;
    }
    if (!g.weight) return;
    Gun placed;
    placed.weight = *g.weight;
    placed.position = *g.position;
    placed.facing_deg = g.facing;
    place(label, at(gp, "position"), {footprint(placed)});
  }

  void leader(const LeaderSpec& l, const FieldPath& lp, LeaderRank rank, const Chain& chain) {
    const std::string label = std::string(to_string(rank)) + " " + quoted(l.id);
    if (l.action_modifier < -1 || l.action_modifier > 1) {
      problem(at(lp, "action_modifier"), label + ": action_modifier is +1 (superior), -1 (incompetent) or 0, not " +
                                             std::to_string(l.action_modifier));
    }
    if (l.exceptional && rank != LeaderRank::kMarshal) {
      problem(at(lp, "exceptional"), label + ": only a Marshal can be exceptional");
    }
    if (l.wounds > 1) problem(at(lp, "wounds"), label + ": a second wound kills; wounds is 0 or 1");
    if (!l.attached_to.empty()) {
      auto it = chains_.find(l.attached_to);
      const IdKind* k = kind_of(l.attached_to);
      if (k == nullptr || *k != IdKind::kBrigade || it == chains_.end()) {
        problem(at(lp, "attached_to"), label + ": attached_to " + quoted(l.attached_to) + " is not a brigade");
      } else {
        const Chain& c = it->second;
        const bool in_chain = c.army == chain.army && (chain.wing.empty() || c.wing == chain.wing) &&
                              (chain.command.empty() || c.command == chain.command);
        if (!in_chain) {
          problem(at(lp, "attached_to"), label + ": brigade " + quoted(l.attached_to) +
                                             " is not under his command; a leader attaches only to his own troops");
        }
      }
      return;  // an attached leader stands behind his brigade; his position is not used
    }
    if (!l.position) {
      problem(lp, label + ": position is missing (or attach him: attached_to)");
      return;
    }
    Leader placed;
    placed.rank = rank;
    placed.position = *l.position;
    placed.facing_deg = l.facing;
    if (table_known() && !on_table(footprint(placed))) {
      problem(at(lp, "position"), label + " is off the table (" + num(s_.table_width) + "\" x " +
                                      num(s_.table_depth) + "\")");
    }
  }

  void objective(const ObjectiveSpec& o, const FieldPath& op) {
    const std::string label = "objective " + quoted(o.id);
    if (!o.at) {
      problem(op, label + ": at is missing");
    } else if (table_known() && !on_table(*o.at)) {
      problem(at(op, "at"), label + " is off the table");
    }
    if (o.radius < 0) problem(at(op, "radius"), label + ": radius may not be negative");
    if (!o.held_by.empty()) {
      const IdKind* k = kind_of(o.held_by);
      if (k == nullptr || *k != IdKind::kArmy) {
        problem(at(op, "held_by"), label + ": held_by " + quoted(o.held_by) + " is not an army of this scenario");
      }
    }
  }

  // ---- on the table, and not on each other ----

  void place(const std::string& label, const FieldPath& where, std::vector<OrientedRect> bases) {
    if (table_known()) {
      for (const auto& r : bases) {
        if (!on_table(r)) {
          problem(where, label + " is off the table (" + num(s_.table_width) + "\" x " + num(s_.table_depth) + "\")");
          return;  // an off-table unit's overlaps are beside the point
        }
      }
    }
    const Aabb box = bounds(bases);
    placed_.push_back({where, label, std::move(bases), box});
  }

  void overlaps() {
    for (std::size_t j = 1; j < placed_.size(); ++j) {
      for (std::size_t i = 0; i < j; ++i) {
        const Placed& a = placed_[i];
        const Placed& b = placed_[j];
        if (!a.box.intersects(b.box)) continue;
        bool hit = false;
        for (const auto& ra : a.bases) {
          for (const auto& rb : b.bases) {
            if (overlaps_(ra, rb)) {
              hit = true;
              break;
            }
          }
          if (hit) break;
        }
        if (hit) {
          problem(b.where, b.label + " overlaps " + a.label);
          break;  // one report per unit is enough
        }
      }
    }
  }

  static bool overlaps_(const OrientedRect& a, const OrientedRect& b) {
    return galloper::rules::overlaps(a, b, kOverlapTolerance);
  }

  const ScenarioSpec& s_;
  std::vector<SpecProblem> out_;
  std::map<std::string, IdKind, std::less<>> ids_;
  std::map<std::string, Chain, std::less<>> chains_;
  std::vector<Placed> placed_;
};

}  // namespace

std::vector<SpecProblem> check_scenario(const ScenarioSpec& spec) { return Checker(spec).run(); }

}  // namespace galloper::rules::malbrook
