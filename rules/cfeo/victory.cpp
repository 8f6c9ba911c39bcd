#include "rules/cfeo/victory.hpp"

#include <string>

#include "rules/cfeo/basing.hpp"
#include "rules/core/geometry.hpp"

namespace galloper::rules::cfeo {

namespace {

bool holds_ground(const Unit& u) {
  return !u.destroyed && !u.routing && !u.retiring && u.formation != Formation::kUnformed;
}

bool within(const Unit& u, const Objective& o) {
  for (const auto& b : footprint(u)) {
    if (b.contains(o.at, o.radius)) return true;
    for (Vec2 c : b.corners()) {
      if (distance(c, o.at) <= o.radius) return true;
    }
  }
  return false;
}

const std::string& side_name(const GameState& s, Index side) { return s.sides[static_cast<std::size_t>(side)].name; }

}  // namespace

Index holder_now(const GameState& s, const Objective& o) {
  std::vector<char> present(s.sides.size(), 0);
  for (const Unit& u : s.units) {
    if (within(u, o)) present[static_cast<std::size_t>(u.side)] |= holds_ground(u) ? 1 : 2;
  }
  Index holder = kNone;
  for (std::size_t a = 0; a < present.size(); ++a) {
    if (present[a] == 0) continue;
    if (holder != kNone || (present[a] & 1) == 0) return kNone;  // contested, or only broken troops
    holder = static_cast<Index>(a);
  }
  return holder;
}

std::vector<std::uint32_t> objective_points(const GameState& s) {
  std::vector<std::uint32_t> out(s.sides.size(), 0);
  for (const Objective& o : s.objectives) {
    if (o.held_by != kNone) out[static_cast<std::size_t>(o.held_by)] += o.points;
  }
  return out;
}

bool side_broken(const GameState& s, Index side) {
  const std::uint32_t percent = s.sides[static_cast<std::size_t>(side)].break_percent;
  if (percent == 0) return false;
  std::uint32_t lost = 0;
  std::uint32_t total = 0;
  for (const Unit& u : s.units) {
    if (u.side != side) continue;
    ++total;
    if (u.destroyed || u.routing) ++lost;
  }
  return total > 0 && lost * 100 >= percent * total;
}

bool end_of_turn(GameState& s, std::vector<Event>& ev) {
  for (Objective& o : s.objectives) {
    const Index now = holder_now(s, o);
    if (now == kNone || now == o.held_by) continue;
    o.held_by = now;
    ev.push_back(public_event("objective", side_name(s, now) + " take " + o.name + "."));
  }
  std::vector<Index> broken;
  for (std::size_t a = 0; a < s.sides.size(); ++a) {
    if (side_broken(s, static_cast<Index>(a))) broken.push_back(static_cast<Index>(a));
  }
  if (broken.empty() && s.turn < s.turn_limit) return false;
  s.ended = true;
  const auto points = objective_points(s);
  std::string text = "The game ends after turn " + std::to_string(s.turn);
  if (broken.empty()) {
    text += ", the last turn";
  } else {
    for (std::size_t i = 0; i < broken.size(); ++i) text += (i == 0 ? ": " : " and ") + side_name(s, broken[i]);
    text += broken.size() > 1 ? " have broken" : " has broken";
  }
  text += ". Objective points:";
  for (std::size_t a = 0; a < s.sides.size(); ++a) {
    text += (a == 0 ? " " : ", ") + s.sides[a].name + " " + std::to_string(points[a]);
  }
  // One side broken loses; otherwise the more objective points win (V3).
  Index winner = kNone;
  if (broken.size() == 1 && s.sides.size() == 2) {
    winner = 1 - broken.front();
  } else if (broken.empty() && s.sides.size() == 2 && points[0] != points[1]) {
    winner = points[0] > points[1] ? 0 : 1;
  }
  text += winner == kNone ? ". A draw." : ". " + side_name(s, winner) + " win.";
  ev.push_back(public_event("game_over", text));
  return true;
}

}  // namespace galloper::rules::cfeo
