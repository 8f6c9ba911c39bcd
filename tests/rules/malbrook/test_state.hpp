#pragma once
// A tiny Malbrook GameState built directly in C++, for engine tests.
//
// Table 72" x 48", open ground. Two armies:
//   "fr" (French) deployed along the south edge, facing north (0 deg):
//     Marshal fr_m at (50, 2); wing "left", Lt Gen fr_lg at (20, 2);
//     command c1 (Maj Gen fr_mg1 at (10, 2)): fr_b1 at (16, 10), fr_b2 at (20, 10)
//       -- 4-base traditional foot lines, 4" wide, side by side in contact;
//     command c2 (Maj Gen fr_mg2 at (40, 2)): fr_b3 at (30, 10), fr_b4 at (30, 7)
//       -- fr_b4 2" directly behind fr_b3.
//     Wing "right" (Lt Gen fr_lg2 at (60, 2)) with command c5 (Maj Gen fr_mg5
//     at (66, 2)): fr_b5 at (60, 10).
//   "al" (Allies) along the north edge, facing south (180 deg):
//     Marshal al_m at (36, 46); wing "right", Lt Gen al_lg at (30, 46);
//     command c3 (Maj Gen al_mg3 at (46, 46)): al_b1 at (36, 38), al_b2 at (44, 38).
// Every leader starts detached and more than 4" from every brigade; the two
// sides are 27" apart. Phase: turn 1, command actions, "fr" has initiative.
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "rules/core/decision.hpp"
#include "rules/core/tell.hpp"
#include "rules/malbrook/state.hpp"

namespace galloper::rules::malbrook::test {

// `text` with every `from` replaced by `to`: a reply about one id held to the
// reply about another.
inline std::string replaced(std::string text, std::string_view from, std::string_view to) {
  for (std::size_t at = text.find(from); !from.empty() && at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

inline Brigade make_brigade(std::string id, std::string army, std::string wing, std::string command, Vec2 at,
                            double facing) {
  Brigade b;
  b.id = id;
  b.name = id;
  b.army = std::move(army);
  b.wing = std::move(wing);
  b.command = std::move(command);
  b.type = TroopType::kFoot;
  b.grade = Grade::kC;
  b.bases = 4;
  b.formation = Formation::kLine;
  b.position = at;
  b.facing_deg = facing;
  return b;
}

inline Leader make_leader(std::string id, std::string army, LeaderRank rank, std::string wing, std::string command,
                          Vec2 at, double facing) {
  Leader l;
  l.id = id;
  l.name = id;
  l.army = std::move(army);
  l.rank = rank;
  l.wing = std::move(wing);
  l.command = std::move(command);
  l.position = at;
  l.facing_deg = facing;
  return l;
}

inline GameState tiny_state() {
  GameState s;
  s.scenario = "tiny";
  s.title = "Tiny";
  s.table_width = 72;
  s.table_depth = 48;
  s.terrain = make_terrain_map(s.features);

  Army fr;
  fr.id = "fr";
  fr.name = "French";
  fr.marshals = {"fr_m"};
  Wing left;
  left.id = "left";
  left.name = "Left";
  left.lieutenant_general = "fr_lg";
  left.commands = {{"c1", "First", "fr_mg1"}, {"c2", "Second", "fr_mg2"}};
  fr.wings.push_back(left);
  Wing right;
  right.id = "right";
  right.name = "Right";
  right.lieutenant_general = "fr_lg2";
  right.commands = {{"c5", "Fifth", "fr_mg5"}};
  fr.wings.push_back(right);

  Army al;
  al.id = "al";
  al.name = "Allies";
  al.marshals = {"al_m"};
  Wing alw;
  alw.id = "right";
  alw.name = "Right";
  alw.lieutenant_general = "al_lg";
  alw.commands = {{"c3", "Third", "al_mg3"}};
  al.wings.push_back(alw);
  s.armies = {fr, al};

  s.brigades = {
      make_brigade("fr_b1", "fr", "left", "c1", {16, 10}, 0),  make_brigade("fr_b2", "fr", "left", "c1", {20, 10}, 0),
      make_brigade("fr_b3", "fr", "left", "c2", {30, 10}, 0),  make_brigade("fr_b4", "fr", "left", "c2", {30, 7}, 0),
      make_brigade("fr_b5", "fr", "right", "c5", {60, 10}, 0), make_brigade("al_b1", "al", "right", "c3", {36, 38}, 180),
      make_brigade("al_b2", "al", "right", "c3", {44, 38}, 180),
  };
  s.leaders = {
      make_leader("fr_m", "fr", LeaderRank::kMarshal, "", "", {50, 2}, 0),
      make_leader("fr_lg", "fr", LeaderRank::kLieutenantGeneral, "left", "", {20, 2}, 0),
      make_leader("fr_mg1", "fr", LeaderRank::kMajorGeneral, "left", "c1", {10, 2}, 0),
      make_leader("fr_mg2", "fr", LeaderRank::kMajorGeneral, "left", "c2", {40, 2}, 0),
      make_leader("fr_lg2", "fr", LeaderRank::kLieutenantGeneral, "right", "", {60, 2}, 0),
      make_leader("fr_mg5", "fr", LeaderRank::kMajorGeneral, "right", "c5", {66, 2}, 0),
      make_leader("al_m", "al", LeaderRank::kMarshal, "", "", {36, 46}, 180),
      make_leader("al_lg", "al", LeaderRank::kLieutenantGeneral, "right", "", {30, 46}, 180),
      make_leader("al_mg3", "al", LeaderRank::kMajorGeneral, "right", "c3", {46, 46}, 180),
  };
  s.turn = 1;
  s.turn_limit = 10;
  s.phase = Phase::kCommand;
  s.command_stage = CommandStage::kActions;
  s.initiative = "fr";
  s.half = 0;
  return s;
}

inline Brigade& brigade(GameState& s, std::string_view id) {
  for (auto& b : s.brigades) {
    if (b.id == id) return b;
  }
  throw std::out_of_range(std::string(id));
}
inline Leader& leader(GameState& s, std::string_view id) {
  for (auto& l : s.leaders) {
    if (l.id == id) return l;
  }
  throw std::out_of_range(std::string(id));
}
inline const Brigade& brigade(const GameState& s, std::string_view id) { return brigade(const_cast<GameState&>(s), id); }
inline const Leader& leader(const GameState& s, std::string_view id) { return leader(const_cast<GameState&>(s), id); }

inline Answer option_answer(std::string decision, std::string seat, std::string option) {
  Answer a;
  a.decision_id = std::move(decision);
  a.seat = std::move(seat);
  a.option = std::move(option);
  return a;
}

inline Answer steps_answer(std::string decision, std::string seat, std::vector<OrderStep> steps) {
  Answer a;
  a.decision_id = std::move(decision);
  a.seat = std::move(seat);
  a.steps = std::move(steps);
  return a;
}

inline OrderStep act(std::string action, std::string target = "") {
  OrderStep s;
  s.action = std::move(action);
  s.target = std::move(target);
  return s;
}
inline OrderStep move_to(Vec2 to) {
  OrderStep s;
  s.action = "move_to";
  s.to = to;
  return s;
}

// The default answer to every decision (what a missed deadline gives).
inline std::vector<Answer> default_answers(const std::vector<Decision>& ds) {
  std::vector<Answer> out;
  for (const auto& d : ds) out.push_back(option_answer(d.id, d.seat, d.default_option));
  return out;
}

}  // namespace galloper::rules::malbrook::test
