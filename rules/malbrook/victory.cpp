#include "rules/malbrook/victory.hpp"

#include <algorithm>
#include <string>

#include "rules/core/geometry.hpp"
#include "rules/malbrook/manoeuvre.hpp"
#include "rules/malbrook/sequence.hpp"

namespace galloper::rules::malbrook {

namespace {

bool on_table(const Brigade& b) {
  return b.bases > 0 && !b.has(Status::kDestroyed) && !b.has(Status::kSurrendered);
}

std::string army_name(const GameState& s, std::string_view id) {
  const Army* a = s.find_army(id);
  return a != nullptr && !a->name.empty() ? a->name : std::string(id);
}

}  // namespace

bool holds_ground(const Brigade& b) {
  return on_table(b) && b.formation != Formation::kUnformed && !b.has(Status::kRetiring) &&
         !b.has(Status::kRouting) && !b.has(Status::kPursuing);
}

bool within_objective(const Brigade& b, const Objective& o) {
  const OrientedRect env = pose_envelope(pose_of(b));
  return distance(env.polygon(), o.at) <= o.radius + kGeomEpsilon;
}

std::string holder_now(const GameState& s, const Objective& o) {
  std::vector<std::string> formed_here;
  std::vector<std::string> present;
  for (const auto& b : s.brigades) {
    if (!on_table(b) || !within_objective(b, o)) continue;
    if (std::find(present.begin(), present.end(), b.army) == present.end()) present.push_back(b.army);
    if (holds_ground(b) && std::find(formed_here.begin(), formed_here.end(), b.army) == formed_here.end()) {
      formed_here.push_back(b.army);
    }
  }
  if (formed_here.size() == 1 && present.size() == 1) return formed_here.front();
  return {};
}

void update_objectives(GameState& s, std::vector<Event>& events) {
  for (auto& o : s.objectives) {
    const std::string h = holder_now(s, o);
    if (h.empty() || h == o.held_by) continue;
    o.held_by = h;
    Event e = public_event("objective", army_name(s, h) + " now holds " + o.name + " (" + std::to_string(o.points) +
                                            " point" + (o.points == 1 ? "" : "s") + ").");
    e.subjects = {o.id};
    e.where = {{o.at, ""}};  // a point of the table, not a piece
    events.push_back(std::move(e));
  }
}

std::vector<std::uint32_t> objective_points(const GameState& s) {
  std::vector<std::uint32_t> out(s.armies.size(), 0);
  for (const auto& o : s.objectives) {
    for (std::size_t i = 0; i < s.armies.size(); ++i) {
      if (s.armies[i].id == o.held_by) out[i] += o.points;
    }
  }
  return out;
}

BreakCount break_count(const GameState& s, std::string_view army) {
  BreakCount c;
  for (const auto& b : s.brigades) {
    if (b.army != army) continue;
    ++c.total;
    if (!on_table(b) || b.has(Status::kRouting)) ++c.lost;
  }
  return c;
}

bool army_broken(const GameState& s, std::string_view army) {
  const Army* a = s.find_army(army);
  if (a == nullptr || a->break_percent == 0) return false;
  const BreakCount c = break_count(s, army);
  if (c.total == 0) return false;
  // lost / total >= percent / 100, in integers.
  return static_cast<std::uint64_t>(c.lost) * 100 >= static_cast<std::uint64_t>(a->break_percent) * c.total;
}

void end_game(GameState& s, GameResult r, std::vector<Event>& events) {
  r.decided = true;
  if (r.points.empty()) r.points = objective_points(s);
  s.result = r;
  s.phase = Phase::kEnded;
  s.half = 0;
  std::string text = "The game ends after turn " + std::to_string(s.turn);
  if (r.reason == "turn_limit") {
    text += ", the last turn";
  } else if (r.reason == "army_broken") {
    std::string who;
    for (const auto& b : r.broken) who += (who.empty() ? "" : " and ") + army_name(s, b);
    text += ": " + who + (r.broken.size() > 1 ? " have" : " has") + " broken";
  }
  text += ". Objective points:";
  for (std::size_t i = 0; i < s.armies.size() && i < r.points.size(); ++i) {
    text += (i == 0 ? " " : ", ") + army_name(s, s.armies[i].id) + " " + std::to_string(r.points[i]);
  }
  text += r.winner.empty() ? ". A draw." : ". " + army_name(s, r.winner) + " wins.";
  Event e = public_event("game_over", text);
  events.push_back(std::move(e));
}

bool end_of_turn(GameState& s, std::vector<Event>& events) {
  update_objectives(s, events);
  GameResult r;
  r.points = objective_points(s);
  for (const auto& a : s.armies) {
    if (army_broken(s, a.id)) {
      r.broken.push_back(a.id);
      const BreakCount c = break_count(s, a.id);
      events.push_back(public_event("army_broken", army_name(s, a.id) + " has broken: " + std::to_string(c.lost) +
                                                       " of " + std::to_string(c.total) +
                                                       " brigades destroyed, surrendered or routing (break at " +
                                                       std::to_string(a.break_percent) + "%)."));
    }
  }
  const bool last_turn = s.turn_limit > 0 && s.turn >= s.turn_limit;
  if (r.broken.empty() && !last_turn) return false;
  if (r.broken.size() == 1 && s.armies.size() == 2) {
    r.reason = "army_broken";
    r.winner = other_army(s, r.broken.front());
  } else {
    // Both broken in the same turn, or the turn limit: objective points decide (V3).
    r.reason = r.broken.empty() ? "turn_limit" : "army_broken";
    if (r.points.size() == 2 && r.points[0] != r.points[1]) {
      r.winner = s.armies[r.points[0] > r.points[1] ? 0 : 1].id;
    }
  }
  end_game(s, std::move(r), events);
  return true;
}

}  // namespace galloper::rules::malbrook
