#pragma once
// A random bot for whole Malbrook games: the library's bot
// (rules/core/bot.hpp, which the server's bot seats use too) answers every
// pending decision of every seat, each from that seat's own view.
//
// The moves of one step are each legal alone but may collide at their ends
// ("no two units may end on top of each other"); then the bot halts the
// later of the orders the rejection names (Rejection::decisions) and
// resolves again. Any other rejection
// of checked answers is an engine error and is returned to the caller.
//
// Also: the golden-game text format (answers per step) and the game
// invariants the full-game test asserts after every step.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "rules/core/bot.hpp"
#include "rules/malbrook/bot.hpp"
#include "rules/core/dice.hpp"
#include "rules/core/geometry.hpp"
#include "rules/malbrook/engine.hpp"
#include "rules/malbrook/manoeuvre.hpp"
#include "rules/malbrook/view.hpp"

namespace galloper::rules::malbrook::test {

inline Seed bot_seed(std::uint32_t x) {
  Seed s{};
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<std::uint8_t>((x >> (8 * (i % 4))) + 31 * i);
  return s;
}

// The library's bot (rules/core/bot.hpp) for every seat at once: each seat's
// decisions are answered from that seat's own view, as the server's bot seats are.
class Bot {
 public:
  explicit Bot(std::uint32_t seed) : bot_(seed, malbrook::propose) {}

  // One answer per pending decision.
  std::vector<Answer> answers(const GameState& s) {
    std::vector<Answer> out;
    std::map<std::string, View> views;  // by seat, made once per call
    const AnswerCheck legal = [&s](const Answer& a) { return check(s, a); };
    for (const auto& d : pending(s)) {
      auto it = views.find(d.seat);
      if (it == views.end()) it = views.emplace(d.seat, view_for(s, d.seat, ViewSettings{})).first;
      out.push_back(bot_.answer(it->second, d, legal));
    }
    return out;
  }

  static Answer fallback(const Decision& d) { return rules::Bot::fallback(d); }

 private:
  rules::Bot bot_;
};

// Resolves `answers`; when two moves legal alone would end on top of each
// other, halts the later unit the rejection names and tries again. Returns
// the result, or the engine's rejection of anything else.
inline Result<StepResult> resolve_bot_step(const GameState& s, std::vector<Answer> answers,
                                           std::vector<Answer>* used = nullptr) {
  for (int tries = 0; tries < 64; ++tries) {
    KeyedDice dice(s.seed, s.step);
    auto r = resolve(s, answers, dice);
    if (r.ok() || r.error().code != "overlap") {
      if (used != nullptr) *used = answers;
      return r;
    }
    bool changed = false;
    const auto& involved = r.error().decisions;
    for (auto it = answers.rbegin(); it != answers.rend(); ++it) {
      if (!it->steps.empty() && std::find(involved.begin(), involved.end(), it->decision_id) != involved.end()) {
        it->steps.clear();
        it->option = "halt";
        changed = true;
        break;
      }
    }
    if (!changed) return r;
  }
  return reject("bot", "too many collisions");
}

// ---- Invariants ----

inline bool brigade_present(const Brigade& b) {
  return b.bases > 0 && !b.has(Status::kDestroyed) && !b.has(Status::kSurrendered);
}

// "" when every invariant holds; otherwise what is wrong.
inline std::string invariant_violation(const GameState& s) {
  struct Body {
    std::string id;
    std::vector<OrientedRect> bases;
    Aabb box;
  };
  std::vector<Body> bodies;
  for (const auto& b : s.brigades) {
    if (b.dps > 6) return b.id + " has " + std::to_string(b.dps) + " DPs";
    if (b.bases > 36) return b.id + " has " + std::to_string(b.bases) + " bases";
    if (!brigade_present(b)) continue;
    Body o{b.id, pose_bases(pose_of(b)), {}};
    for (const auto& r : o.bases) o.box.add(r.bounds());
    bodies.push_back(std::move(o));
  }
  for (const auto& g : s.guns) {
    if (g.dps > 6) return g.id + " has " + std::to_string(g.dps) + " DPs";
    if (g.has(Status::kCrewEliminated) || g.has(Status::kAbandoned)) continue;
    Body o{g.id, {pose_envelope(pose_of(g))}, {}};
    o.box = o.bases.front().bounds();
    bodies.push_back(std::move(o));
  }
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    for (std::size_t j = i + 1; j < bodies.size(); ++j) {
      if (!bodies[i].box.intersects(bodies[j].box)) continue;
      for (const auto& a : bodies[i].bases) {
        for (const auto& b : bodies[j].bases) {
          if (overlaps(a, b, 1e-3)) return bodies[i].id + " overlaps " + bodies[j].id;
        }
      }
    }
  }
  return {};
}

// One line for a failure report: where a brigade stands and each base.
inline std::string describe(const Brigade& b) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s at (%.3f, %.3f) facing %.1f, %s, %u bases, %zu placed, status %u:", b.id.c_str(),
                b.position.x, b.position.y, b.facing_deg, std::string(to_string(b.formation)).c_str(), b.bases,
                b.base_poses.size(), b.status);
  std::string out = buf;
  for (const auto& r : pose_bases(pose_of(b))) {
    std::snprintf(buf, sizeof buf, " [(%.3f, %.3f) %.1f]", r.center.x, r.center.y, r.facing_deg);
    out += buf;
  }
  return out;
}

// ---- Golden games: answers per step in a line-based text format ----
//
//   galloper-golden 1
//   scenario <name>
//   seed <bot seed number>
//   step                         one per resolved step
//   a <decision> <seat> <option> <n steps>
//   s <action> <distance> <angle> <pivot> <formation> <to.x> <to.y> <target> <order> <has_objective>
//     <feature> <unit> <wing> <command>
//   hash <16 hex digits>          the final state hash
//   end
// Strings are escaped: "" -> "~", space -> %20, % -> %25, ~ -> %7E, newline -> %0A.
// Reals are printed with 17 significant digits (they read back exactly).

inline std::string golden_escape(const std::string& s) {
  if (s.empty()) return "~";
  std::string out;
  for (char c : s) {
    switch (c) {
      case ' ': out += "%20"; break;
      case '%': out += "%25"; break;
      case '~': out += "%7E"; break;
      case '\n': out += "%0A"; break;
      default: out += c;
    }
  }
  return out;
}

inline std::string golden_unescape(const std::string& s) {
  if (s == "~") return {};
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

inline std::string golden_real(double d) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  return buf;
}

struct GoldenGame {
  std::string scenario;
  std::uint32_t seed = 0;
  std::vector<std::vector<Answer>> steps;
  StateHash hash = 0;
};

inline std::string golden_write(const GoldenGame& g) {
  std::ostringstream o;
  o << "galloper-golden 1\n";
  o << "scenario " << g.scenario << "\n";
  o << "seed " << g.seed << "\n";
  for (const auto& step : g.steps) {
    o << "step\n";
    for (const auto& a : step) {
      o << "a " << golden_escape(a.decision_id) << ' ' << golden_escape(a.seat) << ' ' << golden_escape(a.option) << ' '
        << a.steps.size() << "\n";
      for (const auto& s : a.steps) {
        o << "s " << golden_escape(s.action) << ' ' << golden_real(s.distance) << ' ' << golden_real(s.angle_deg) << ' '
          << golden_escape(s.pivot) << ' ' << golden_escape(s.formation) << ' ' << golden_real(s.to.x) << ' '
          << golden_real(s.to.y) << ' ' << golden_escape(s.target) << ' ' << golden_escape(s.order) << ' '
          << (s.has_objective ? 1 : 0) << ' ' << golden_escape(s.feature) << ' ' << golden_escape(s.unit) << ' '
          << golden_escape(s.wing) << ' ' << golden_escape(s.command) << "\n";
      }
    }
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(g.hash));
  o << "hash " << buf << "\nend\n";
  return o.str();
}

inline std::optional<GoldenGame> golden_read(const std::string& text) {
  std::istringstream in(text);
  std::string word;
  GoldenGame g;
  in >> word;
  if (word != "galloper-golden") return std::nullopt;
  int version = 0;
  in >> version;
  while (in >> word) {
    if (word == "scenario") {
      in >> g.scenario;
    } else if (word == "seed") {
      in >> g.seed;
    } else if (word == "step") {
      g.steps.emplace_back();
    } else if (word == "a") {
      Answer a;
      std::string id, seat, option;
      std::size_t n = 0;
      in >> id >> seat >> option >> n;
      a.decision_id = golden_unescape(id);
      a.seat = golden_unescape(seat);
      a.option = golden_unescape(option);
      for (std::size_t i = 0; i < n; ++i) {
        std::string tag, action, pivot, formation, target, order, feature, unit, wing, command;
        OrderStep s;
        int has_objective = 0;
        in >> tag >> action >> s.distance >> s.angle_deg >> pivot >> formation >> s.to.x >> s.to.y >> target >> order >>
            has_objective >> feature >> unit >> wing >> command;
        if (tag != "s") return std::nullopt;
        s.action = golden_unescape(action);
        s.pivot = golden_unescape(pivot);
        s.formation = golden_unescape(formation);
        s.target = golden_unescape(target);
        s.order = golden_unescape(order);
        s.has_objective = has_objective != 0;
        s.feature = golden_unescape(feature);
        s.unit = golden_unescape(unit);
        s.wing = golden_unescape(wing);
        s.command = golden_unescape(command);
        a.steps.push_back(std::move(s));
      }
      if (g.steps.empty()) return std::nullopt;
      g.steps.back().push_back(std::move(a));
    } else if (word == "hash") {
      std::string hex;
      in >> hex;
      g.hash = std::stoull(hex, nullptr, 16);
    } else if (word == "end") {
      return g;
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace galloper::rules::malbrook::test
