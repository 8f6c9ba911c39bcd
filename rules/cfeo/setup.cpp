#include "rules/cfeo/setup.hpp"

#include <map>
#include <string>

#include "rules/core/geometry.hpp"

namespace galloper::rules::cfeo {

namespace {

class Builder {
 public:
  explicit Builder(const ScenarioSpec& spec) : spec_(spec) {}

  GameState build() {
    s_.scenario = spec_.name;
    s_.title = spec_.title;
    s_.description = spec_.description;
    s_.table_width = spec_.table_width;
    s_.table_depth = spec_.table_depth;
    for (const auto& t : spec_.terrain) s_.features.push_back(feature_of(t));
    s_.terrain = make_terrain_map(s_.features, feature_sizes());
    s_.turn_limit = spec_.turn_limit;
    s_.no_control_tests = spec_.no_control_tests;
    for (const auto& a : spec_.sides) side(a);
    // Attachments and battalion guns name units, which are all known now.
    for (std::size_t i = 0; i < s_.leaders.size(); ++i) s_.leaders[i].attached_to = unit_index(attached_[i]);
    for (std::size_t i = 0; i < s_.guns.size(); ++i) s_.guns[i].with_unit = unit_index(served_[i]);
    s_.attacker = side_index(spec_.attacker);
    for (const auto& o : spec_.objectives) {
      s_.objectives.push_back({o.id, o.name.empty() ? o.id : o.name, o.at.value_or(Vec2{}), o.radius, o.points,
                               side_index(o.held_by)});
    }
    return std::move(s_);
  }

 private:
  static Index as_index(std::size_t i) { return static_cast<Index>(i); }

  Index unit_index(const std::string& id) const {
    auto it = units_.find(id);
    return it == units_.end() ? kNone : it->second;
  }
  Index side_index(const std::string& id) const {
    for (std::size_t i = 0; i < s_.sides.size(); ++i) {
      if (s_.sides[i].id == id) return as_index(i);
    }
    return kNone;
  }

  Index leader(const LeaderSpec& l, LeaderRank rank, Index side, Index wing, Index brigade) {
    Leader out;
    out.id = l.id;
    out.name = l.name.empty() ? l.id : l.name;
    out.rank = rank;
    out.side = side;
    out.wing = wing;
    out.brigade = brigade;
    out.position = l.position.value_or(Vec2{});
    out.facing_deg = normalize_deg(l.facing);
    out.action_modifier = l.action_modifier;
    out.wounds = l.wounds;
    s_.leaders.push_back(std::move(out));
    attached_.push_back(l.attached_to);
    return as_index(s_.leaders.size() - 1);
  }

  void gun(const GunSpec& g, Index side, Index wing, Index brigade) {
    Gun out;
    out.id = g.id;
    out.name = g.name.empty() ? g.id : g.name;
    out.side = side;
    out.wing = wing;
    out.brigade = brigade;
    out.type = g.type.value_or(GunType::kField);
    out.limbered = g.limbered;
    out.position = g.position.value_or(Vec2{});
    out.facing_deg = normalize_deg(g.facing);
    out.dps = g.dps;
    s_.guns.push_back(std::move(out));
    served_.push_back(g.with_unit);
  }

  void unit(const UnitSpec& u, const Side& side, Index side_at, Index wing, Index brigade) {
    Unit out;
    out.id = u.id;
    out.name = u.name.empty() ? u.id : u.name;
    out.side = side_at;
    out.wing = wing;
    out.brigade = brigade;
    out.arm = u.arm.value_or(Arm::kFoot);
    out.grade = u.grade.value_or(Grade::kC);
    out.bases = u.bases;
    out.formation = u.formation.value_or(Formation::kLine);
    out.position = u.position.value_or(Vec2{});
    out.facing_deg = normalize_deg(u.facing);
    out.dps = u.dps;
    out.pike_bases = u.pike_bases;
    out.skirmishers = u.skirmishers;
    out.platoon_fire = u.platoon_fire;
    out.style = u.style.value_or(side.style);
    out.a_outrance = u.a_outrance;
    out.ranks = u.ranks > 1 ? u.ranks : 1;
    units_[out.id] = as_index(s_.units.size());
    s_.units.push_back(std::move(out));
  }

  void side(const SideSpec& a) {
    const Index at = as_index(s_.sides.size());
    Side side;
    side.id = a.id;
    side.name = a.name.empty() ? a.id : a.name;
    side.style = a.style.value_or(CavalryStyle::kTraditional);
    side.break_percent = a.break_percent;
    s_.sides.push_back(side);
    if (a.marshal) s_.sides[static_cast<std::size_t>(at)].marshal = leader(*a.marshal, LeaderRank::kMarshal, at, kNone, kNone);
    for (const auto& g : a.guns) gun(g, at, kNone, kNone);
    for (const auto& w : a.wings) {
      const Index wing_at = as_index(s_.wings.size());
      s_.wings.push_back({w.id, w.name.empty() ? w.id : w.name, at, kNone});
      if (w.general) s_.wings.back().general = leader(*w.general, LeaderRank::kGeneral, at, wing_at, kNone);
      for (const auto& g : w.guns) gun(g, at, wing_at, kNone);
      for (const auto& b : w.brigades) {
        const Index brigade_at = as_index(s_.brigades.size());
        s_.brigades.push_back({b.id, b.name.empty() ? b.id : b.name, at, wing_at, kNone});
        if (b.brigadier) {
          s_.brigades.back().brigadier = leader(*b.brigadier, LeaderRank::kBrigadier, at, wing_at, brigade_at);
        }
        for (const auto& u : b.units) unit(u, side, at, wing_at, brigade_at);
        for (const auto& g : b.guns) gun(g, at, wing_at, brigade_at);
      }
    }
  }

  const ScenarioSpec& spec_;
  GameState s_;
  std::map<std::string, Index, std::less<>> units_;
  std::vector<std::string> attached_;  // per leader: the unit id it starts attached to
  std::vector<std::string> served_;    // per gun: the battalion it serves
};

}  // namespace

GameState initial_state(const ScenarioSpec& spec) { return Builder(spec).build(); }

}  // namespace galloper::rules::cfeo
