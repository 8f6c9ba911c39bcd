#include "rules/malbrook/command.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <set>

#include "rules/core/geometry.hpp"
#include "rules/core/tell.hpp"
#include "rules/malbrook/basing.hpp"
#include "rules/malbrook/seats.hpp"
#include "rules/malbrook/sequence.hpp"

namespace galloper::rules::malbrook {

namespace {

// Where the pieces that count as enemy for a leader's move stand (brigades
// on the table, guns with crews), worked out once for every question asked
// of one state: the command decisions of every leader, the checks of their
// answers (CommandChecks), every leader's moves as the phase is carried out,
// the messengers' rides. Only leaders and messengers move while it is used,
// and no command action changes a brigade's or gun's footprint or whether it
// is on the table (steady and inspire change DPs and markers), so the
// outlines of a state hold for the states its command actions make.
class EnemyOutlines {
 public:
  explicit EnemyOutlines(const GameState& s) : s_(s) {}

  // Edge distance from `stand` to the nearest piece not of `army`.
  double distance_from(std::string_view army, const OrientedRect& stand) {
    if (!built_) build();
    const Aabb box = stand.bounds();
    double best = std::numeric_limits<double>::infinity();
    for (const auto& g : groups_) {
      if (g.army == army) continue;
      for (const auto& o : g.outlines) {
        // The boxes' gap is a lower bound of the rectangles': one further than
        // the best so far (with room for rounding) cannot change the minimum.
        if (box.distance_to(o.box) > best + 1e-6) continue;
        best = std::min(best, distance(stand, o.rect));
      }
    }
    return best;
  }

  // distance_from(army, stand) > limit, without finding the nearest: any
  // piece within the limit settles it, and a box further than the limit
  // (with room for rounding) cannot be.
  bool farther_than(std::string_view army, const OrientedRect& stand, double limit) {
    if (!built_) build();
    const Aabb box = stand.bounds();
    for (const auto& g : groups_) {
      if (g.army == army) continue;
      for (const auto& o : g.outlines) {
        if (box.distance_to(o.box) > limit + 1e-6) continue;
        if (distance(stand, o.rect) <= limit) return false;
      }
    }
    return true;
  }

  // A leader's move allowance (leader_move_allowance): its stand where it
  // starts and where it ends, laid out as footprint() lays out a leader.
  double allowance(const Leader& l, Vec2 from, Vec2 to) {
    const BaseSize size = leader_base_size(l.rank);
    const auto stand = [&](Vec2 at) { return OrientedRect::from_front_mid(at, size.width, size.depth, l.facing_deg); };
    const bool far_start = farther_than(l.army, stand(from), kLeaderDoubleBeyond);
    const bool far_end = far_start && farther_than(l.army, stand(to), kLeaderDoubleBeyond);
    return far_start && far_end ? 2 * kLeaderMove : kLeaderMove;
  }

 private:
  struct Outline {
    OrientedRect rect;
    Aabb box;
  };
  // The outlines by army: a question about one army's enemies compares the
  // army once per army, not once per piece.
  struct Group {
    std::string army;
    std::vector<Outline> outlines;
  };

  void build() {
    built_ = true;
    auto add = [&](const std::string& army, const OrientedRect& r) {
      auto g = std::find_if(groups_.begin(), groups_.end(), [&](const Group& x) { return x.army == army; });
      if (g == groups_.end()) g = groups_.insert(groups_.end(), Group{army, {}});
      g->outlines.push_back({r, r.bounds()});
    };
    for (const auto& b : s_.brigades) {
      if (b.has(Status::kDestroyed) || b.has(Status::kSurrendered) || b.bases == 0) continue;
      for (const auto& r : footprint(b)) add(b.army, r);
    }
    for (const auto& g : s_.guns) {
      if (g.has(Status::kDestroyed) || g.has(Status::kCrewEliminated)) continue;
      add(g.army, footprint(g));
    }
  }

  const GameState& s_;
  bool built_ = false;
  std::vector<Group> groups_;
};

constexpr double kSlack = 1e-6;  // absorbs rounding in "up to 6 inches"

std::string fmt(double inches) {
  const double r = std::round(inches * 100.0) / 100.0;
  std::string s = std::to_string(r);
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s + "\"";
}

// A piece as each seat is told it (rules/core/tell.hpp).
std::string name_of(const Leader& l) { return ref(l.id); }
std::string name_of(const Brigade& b) { return ref(b.id); }

Leader* find_leader_mut(GameState& s, std::string_view id) {
  for (auto& l : s.leaders) {
    if (l.id == id) return &l;
  }
  return nullptr;
}
Brigade* find_brigade_mut(GameState& s, std::string_view id) {
  for (auto& b : s.brigades) {
    if (b.id == id) return &b;
  }
  return nullptr;
}
Gun* find_gun_mut(GameState& s, std::string_view id) {
  for (auto& g : s.guns) {
    if (g.id == id) return &g;
  }
  return nullptr;
}
Wing* find_wing_mut(GameState& s, std::string_view army, std::string_view wing) {
  for (auto& a : s.armies) {
    if (a.id != army) continue;
    for (auto& w : a.wings) {
      if (w.id == wing) return &w;
    }
  }
  return nullptr;
}
// The wing holding command `id` in `army`, or nullptr.
const Wing* wing_of_command(const GameState& s, std::string_view army, std::string_view id) {
  const Army* a = s.find_army(army);
  if (a == nullptr) return nullptr;
  for (const auto& w : a->wings) {
    for (const auto& c : w.commands) {
      if (c.id == id) return &w;
    }
  }
  return nullptr;
}
const Command* find_command(const Wing& w, std::string_view id) {
  for (const auto& c : w.commands) {
    if (c.id == id) return &c;
  }
  return nullptr;
}

bool is_marshal_of(const GameState& s, const Leader& l) {
  const Army* a = s.find_army(l.army);
  return a != nullptr && l.rank == LeaderRank::kMarshal &&
         std::find(a->marshals.begin(), a->marshals.end(), l.id) != a->marshals.end();
}

Event leader_event(std::string kind, std::string text, const Leader& l, std::vector<std::string> more = {}) {
  Event e;
  e.kind = std::move(kind);
  e.text = std::move(text);
  e.subjects.push_back(l.id);
  for (auto& m : more) e.subjects.push_back(std::move(m));
  e.where.push_back({l.position, l.id});
  return e;
}

bool on_table_area(const GameState& s, Vec2 p) {
  if (s.table_width <= 0 || s.table_depth <= 0) return true;
  return p.x >= -kSlack && p.y >= -kSlack && p.x <= s.table_width + kSlack && p.y <= s.table_depth + kSlack;
}

Result<WingOrder> parse_order(std::string_view name) {
  if (name == "defend") return WingOrder::kDefend;
  if (name == "advance_and_defend") return WingOrder::kAdvanceAndDefend;
  if (name == "advance_and_attack") return WingOrder::kAdvanceAndAttack;
  return reject("bad_order", "Orders are \"defend\", \"advance_and_defend\", \"advance_and_attack\" or \"reassign\", not \"" +
                                 std::string(name) + "\".");
}

Result<Message> parse_message(const GameState& s, const OrderStep& step) {
  Message m;
  if (step.order == "reassign") {
    m.kind = MessageKind::kReassign;
    m.unit = step.unit;
    m.wing = step.wing;
    m.command = step.command;
    return m;
  }
  auto order = parse_order(step.order);
  if (!order) return order.error();
  m.kind = MessageKind::kOrders;
  m.order = order.value();
  if (m.order != WingOrder::kDefend) {
    if (step.has_objective) m.objective = step.to;
    if (!step.feature.empty()) {
      const bool known = std::any_of(s.features.begin(), s.features.end(),
                                     [&](const Feature& f) { return f.id == step.feature; });
      if (!known) return reject("unknown_feature", "There is no terrain feature \"" + step.feature + "\".");
      m.objective_feature = step.feature;
    }
    if (m.order == WingOrder::kAdvanceAndDefend && !m.objective && m.objective_feature.empty()) {
      return reject("no_objective", "Orders to advance to and defend a position need the position: a point or a feature.");
    }
  }
  return m;
}

// Who must receive a message from `issuer`, or a rejection if the issuer may
// not send it at all.
Result<std::string> message_recipient(const GameState& s, const Leader& issuer, const Message& m) {
  if (issuer.rank == LeaderRank::kMajorGeneral) {
    return reject("not_authorised", "Only a Lieutenant General or a Marshal may issue new orders; " + name_of(issuer) +
                                        " is a Major General.");
  }
  const Army* army = s.find_army(issuer.army);
  if (army == nullptr) return reject("unknown_army", "No army " + issuer.army + ".");
  if (m.kind == MessageKind::kOrders) {
    // Orders are for Lieutenant Generals, from the Marshal who issued them.
    return reject("internal", "wing orders have no single recipient");  // handled by the caller
  }
  // Re-assignment: what is being moved, from where.
  std::string from_wing;
  std::string from_command;
  // The enemy's troops are answered as ids that do not exist (RULINGS R21):
  // a refusal must not tell a seat what the enemy has.
  const Brigade* b = s.find_brigade(m.unit);
  if (b != nullptr && b->army != issuer.army) b = nullptr;
  const Gun* g = b == nullptr ? s.find_gun(m.unit) : nullptr;
  if (g != nullptr && g->army != issuer.army) g = nullptr;
  const Wing* cw = (b == nullptr && g == nullptr) ? wing_of_command(s, issuer.army, m.unit) : nullptr;
  if (b != nullptr) {
    from_wing = b->wing;
    from_command = b->command;
  } else if (g != nullptr) {
    from_wing = g->wing;
    from_command = g->command;
  } else if (cw != nullptr) {
    from_wing = cw->id;
  } else {
    return reject("unknown_unit", "There is no brigade, gun or command \"" + m.unit + "\" in your army.");
  }
  const Wing* to_wing = s.find_wing(issuer.army, m.wing);
  if (to_wing == nullptr) return reject("unknown_wing", "Your army has no wing \"" + m.wing + "\".");
  if (cw != nullptr) {
    if (!m.command.empty()) return reject("bad_reassign", "A whole command joins a wing, not another command.");
    if (to_wing->id == from_wing) return reject("bad_reassign", "Command " + m.unit + " is already in that wing.");
  } else {
    if (m.command.empty() && b != nullptr) {
      return reject("bad_reassign", "A brigade must be re-assigned to a command of the wing.");
    }
    if (!m.command.empty() && find_command(*to_wing, m.command) == nullptr) {
      return reject("unknown_command", "Wing " + to_wing->id + " has no command \"" + m.command + "\".");
    }
    if (to_wing->id == from_wing && m.command == from_command) {
      return reject("bad_reassign", m.unit + " is already there.");
    }
  }
  if (issuer.rank == LeaderRank::kLieutenantGeneral) {
    // "a Lieutenant General may influence all brigades and commands in his
    // wing but not those in another wing"; sending troops to another wing is
    // the Marshal's.
    if (from_wing != issuer.wing || to_wing->id != issuer.wing || cw != nullptr) {
      return reject("not_authorised", "A Lieutenant General may only re-assign troops between the commands of his own wing.");
    }
    // Given to the Major General who loses them (or, for wing troops, who gains them).
    const Wing* w = s.find_wing(issuer.army, issuer.wing);
    const Command* c = w == nullptr ? nullptr : find_command(*w, from_command.empty() ? m.command : from_command);
    if (c == nullptr || c->major_general.empty()) return reject("no_recipient", "That command has no Major General.");
    return c->major_general;
  }
  // A Marshal: through the Lieutenant General who loses the troops (army
  // troops: who gains them).
  const Wing* w = from_wing.empty() ? to_wing : s.find_wing(issuer.army, from_wing);
  if (w == nullptr || w->lieutenant_general.empty()) return reject("no_recipient", "That wing has no Lieutenant General.");
  return w->lieutenant_general;
}

// Checks that `issuer` may send message `m` to `recipient`.
Verdict check_message(const GameState& s, const Leader& issuer, const Leader& recipient, const Message& m) {
  if (recipient.army != issuer.army) return reject("not_your_leader", name_of(recipient) + " is not in your army.");
  if (m.kind == MessageKind::kOrders) {
    if (!is_marshal_of(s, issuer)) {
      return reject("not_authorised", "Wing orders are given by the Marshal; " + name_of(issuer) + " is not a Marshal.");
    }
    const Wing* w = recipient.rank == LeaderRank::kLieutenantGeneral ? s.find_wing(recipient.army, recipient.wing) : nullptr;
    if (w == nullptr || w->lieutenant_general != recipient.id) {
      return reject("bad_recipient", "Orders go to a wing's Lieutenant General; " + name_of(recipient) + " is not one.");
    }
    if (!w->orders_from.empty() && w->orders_from != issuer.id) {
      const Leader* by = s.find_leader(w->orders_from);
      return reject("not_your_orders", "Orders may only be changed by the Marshal who issued them (" +
                                           (by != nullptr ? name_of(*by) : ref(w->orders_from)) + ").");
    }
    return Ok{};
  }
  auto who = message_recipient(s, issuer, m);
  if (!who) return who.error();
  if (who.value() != recipient.id) {
    const Leader* r = s.find_leader(who.value());
    return reject("bad_recipient", "This re-assignment is given to " + (r != nullptr ? name_of(*r) : ref(who.value())) +
                                       ", not to " + name_of(recipient) + ".");
  }
  return Ok{};
}

// Leaders listening this phase: recipient -> issuers heard ("" = anyone).
using Listeners = std::map<std::string, std::set<std::string>>;

struct Run {
  bool apply = false;  // false: checking only (no events, no messages carried out)
  const Listeners* listeners = nullptr;
  std::vector<Event>* events = nullptr;
  void emit(Event e) const {
    if (apply && events != nullptr) events->push_back(std::move(e));
  }
};

// What is checked before any step: the leader exists and has as many
// actions as the steps take.
Verdict actions_allowed(const Leader* L, const std::string& leader_id, const std::vector<OrderStep>& steps) {
  if (L == nullptr) return reject("unknown_leader", "No leader \"" + leader_id + "\".");
  const int allowed = command_actions(*L);
  const int used = count_actions(steps);
  if (used > allowed) {
    return reject("too_many_actions", name_of(*L) + " has " + std::to_string(allowed) + " command action" +
                                          (allowed == 1 ? "" : "s") + " this turn, not " + std::to_string(used) + ".");
  }
  return Ok{};
}

// The leader's actions in order, on `s`. Stops at the first illegal action.
// `enemies`: the outlines of `s`, or of the state its command actions started from.
Verdict run_actions(GameState& s, const std::string& leader_id, const std::vector<OrderStep>& steps, const Run& run,
                    EnemyOutlines& enemies) {
  Leader* L = find_leader_mut(s, leader_id);
  if (auto ok = actions_allowed(L, leader_id, steps); !ok) return ok;
  std::size_t i = 0;
  while (i < steps.size()) {
    const OrderStep& st = steps[i];
    const std::string& act = st.action;
    if (act == "detach" || act == "move_to" || act == "attach") {
      const Vec2 start = L->position;
      Vec2 at = start;
      double path = 0;
      bool moved = false;
      if (steps[i].action == "detach") {
        if (L->attached_to.empty()) return reject("not_attached", name_of(*L) + " is not attached to a brigade.");
        run.emit(leader_event("detached", name_of(*L) + " detaches from " + ref(L->attached_to) + ".", *L, {L->attached_to}));
        L->attached_to.clear();
        ++i;
      }
      if (i < steps.size() && steps[i].action == "move_to") {
        if (!L->attached_to.empty()) {
          return reject("attached", name_of(*L) + " is attached to " + ref(L->attached_to) +
                                        " and moves with it; detach first (in the same move action).");
        }
        if (!on_table_area(s, steps[i].to)) return reject("off_table", "That point is off the table.");
        path += distance(at, steps[i].to);
        at = steps[i].to;
        moved = true;
        ++i;
      }
      const Brigade* target = nullptr;
      if (i < steps.size() && steps[i].action == "attach") {
        target = s.find_brigade(steps[i].target);
        // An enemy brigade is answered as an id that does not exist (RULINGS R21).
        if (target == nullptr || target->army != L->army) {
          return reject("unknown_brigade", "Your army has no brigade \"" + steps[i].target + "\".");
        }
        if (target->has(Status::kDestroyed) || target->has(Status::kSurrendered) || target->bases == 0) {
          return reject("gone", name_of(*target) + " is no longer on the table.");
        }
        if (!in_chain_of_command(*L, *target)) {
          return reject("not_in_chain", name_of(*target) + " is not under " + name_of(*L) +
                                            "'s command: a leader attaches only to a brigade under his command.");
        }
        if (L->attached_to == target->id) return reject("already_attached", name_of(*L) + " is already attached to it.");
        if (!L->attached_to.empty()) {
          return reject("attached", name_of(*L) + " is attached to " + ref(L->attached_to) + "; detach first.");
        }
        const Vec2 rear = attached_leader_position(*target);
        path += distance(at, rear);
        at = rear;
        ++i;
      }
      if (path > 0) {
        const double allowance = enemies.allowance(*L, start, at);
        if (path > allowance + kSlack) {
          return reject("too_far", name_of(*L) + " may move up to " + fmt(allowance) + " in a move action, not " +
                                       fmt(path) + ".");
        }
        if (moved || target != nullptr) L->facing_deg = bearing_of(at - start);
        L->position = at;
        if (target == nullptr) {
          run.emit(leader_event("leader_moved", name_of(*L) + " moves " + fmt(path) + ".", *L));
        }
      }
      if (target != nullptr) {
        L->attached_to = target->id;
        L->position = attached_leader_position(*target);
        L->facing_deg = target->facing_deg;
        run.emit(leader_event("attached", name_of(*L) + " attaches to " + name_of(*target) + ".", *L, {target->id}));
      }
      continue;
    }
    if (act == "steady" || act == "inspire") {
      if (L->attached_to.empty()) {
        return reject("not_attached", name_of(*L) + " must be attached to a brigade to " + act + " it.");
      }
      if (!may_influence(*L)) {
        return reject("wounded", name_of(*L) + " is a wounded Major General and may no longer inspire or steady.");
      }
      if (!st.target.empty() && st.target != L->attached_to) {
        return reject("not_attached", name_of(*L) + " can only influence the brigade he is attached to (" +
                                          ref(L->attached_to) + ").");
      }
      Brigade* b = find_brigade_mut(s, L->attached_to);
      if (b == nullptr) return reject("unknown_brigade", "No brigade \"" + L->attached_to + "\".");
      if (act == "steady") {
        const bool had = b->dps > 0;
        if (had) --b->dps;
        b->status |= static_cast<std::uint32_t>(Status::kHalted);
        run.emit(leader_event("steadied",
                              name_of(*L) + " steadies " + name_of(*b) +
                                  (had ? ": 1 DP removed" : ": no DP to remove") + "; it halts for the rest of the turn.",
                              *L, {b->id}));
      } else {
        ++b->inspire_actions;
        b->status |= static_cast<std::uint32_t>(Status::kInspired);
        run.emit(leader_event("inspired", name_of(*L) + " inspires " + name_of(*b) + " (" +
                                              std::to_string(b->inspire_actions) + " inspire action" +
                                              (b->inspire_actions == 1 ? "" : "s") + ").",
                              *L, {b->id}));
      }
      ++i;
      continue;
    }
    if (act == "listen") {
      if (!st.target.empty()) {
        const Leader* from = s.find_leader(st.target);
        if (from == nullptr || from->army != L->army) {
          return reject("unknown_leader", "No leader \"" + st.target + "\" of your army to listen to.");
        }
      }
      // Orders, listening and messages are the side's own: the table does not show them.
      run.emit(leader_event("listening", known_to(L->id, name_of(*L) + " listens for orders."), *L));
      ++i;
      continue;
    }
    if (act == "issue_orders" || act == "send_messenger") {
      if (L->rank == LeaderRank::kMajorGeneral) {
        return reject("not_authorised", "Only a detached Lieutenant General or Marshal may issue new orders; " +
                                            name_of(*L) + " is a Major General.");
      }
      if (!L->attached_to.empty()) {
        return reject("attached", "Only a detached Lieutenant General or Marshal may issue new orders; " + name_of(*L) +
                                      " is attached to " + ref(L->attached_to) + ".");
      }
      const Leader* R = s.find_leader(st.target);
      // An enemy leader is answered as an id that does not exist (RULINGS R21).
      if (R == nullptr || R->army != L->army) {
        return reject("unknown_leader", "Your army has no leader \"" + st.target + "\".");
      }
      if (R->id == L->id) return reject("bad_recipient", "A leader does not give orders to himself.");
      if (!on_table(*R)) return reject("bad_recipient", name_of(*R) + " is no longer on the table.");
      auto msg = parse_message(s, st);
      if (!msg) return msg.error();
      if (auto ok = check_message(s, *L, *R, msg.value()); !ok) return ok.error();
      if (act == "issue_orders") {
        const double gap = distance(footprint(*L), footprint(*R));
        if (gap > kLeaderContact + kSlack) {
          return reject("not_in_contact", name_of(*L) + " must be in base-to-base contact with " + name_of(*R) +
                                              " to give orders in person (" + fmt(gap) +
                                              " apart); send a messenger instead.");
        }
        if (run.apply) {
          bool heard = false;
          if (run.listeners != nullptr) {
            auto it = run.listeners->find(R->id);
            heard = it != run.listeners->end() && (it->second.count("") > 0 || it->second.count(L->id) > 0);
          }
          if (heard) {
            const Leader issuer = *L;
            const Leader recipient = *R;
            apply_message(s, issuer, recipient, msg.value(), *run.events);
            L = find_leader_mut(s, leader_id);
          } else {
            run.emit(leader_event("orders_not_heard",
                                  known_to(L->id, name_of(*L) + " gives orders to " + name_of(*R) +
                                                      ", who did not take a listen action this phase: nothing "
                                                      "changes."),
                                  *L, {R->id}));
          }
        }
      } else {
        Messenger m;
        m.id = "msg" + std::to_string(s.next_messenger++);
        m.army = L->army;
        m.from = L->id;
        m.to = R->id;
        m.position = L->position;
        m.facing_deg = bearing_of(R->position - L->position);
        m.message = msg.value();
        Event e = leader_event("messenger_sent",
                               name_of(*L) + " sends a messenger (" + ref(m.id) + ")" +
                                   known_to(L->id, " to " + name_of(*R)) + ".",
                               *L, {m.id, R->id});
        s.messengers.push_back(std::move(m));
        L = find_leader_mut(s, leader_id);
        run.emit(std::move(e));
      }
      ++i;
      continue;
    }
    return reject("unknown_action", "\"" + act + "\" is not a command action (detach, move_to, attach, steady, inspire, "
                                                 "issue_orders, listen, send_messenger).");
  }
  return Ok{};
}

std::string leader_of_decision(std::string_view decision_id) {
  if (decision_id.substr(0, kCommandDecisionPrefix.size()) != kCommandDecisionPrefix) return {};
  return std::string(decision_id.substr(kCommandDecisionPrefix.size()));
}

Verdict answer_shape(const Answer& a) {
  if (!a.option.empty() && a.option != "none") {
    return reject("bad_option", "Answer with a list of actions, or the option \"none\".");
  }
  if (a.option == "none" && !a.steps.empty()) return reject("bad_option", "\"none\" takes no actions.");
  return Ok{};
}

// command_check with the enemy's outlines of `s` (built once by its caller).
Verdict check_with(const GameState& s, EnemyOutlines& enemies, const Answer& a) {
  if (auto ok = answer_shape(a); !ok) return ok;
  const std::string id = leader_of_decision(a.decision_id);
  // No steps: only what run_actions checks before its first step, without
  // copying the state to run them on.
  if (a.steps.empty()) return actions_allowed(s.find_leader(id), id, a.steps);
  GameState scratch = s;
  Run run;  // checking only
  return run_actions(scratch, id, a.steps, run, enemies);
}

}  // namespace

int command_actions(const Leader& l) {
  if (!on_table(l)) return 0;
  const int base = l.base_actions();
  if (l.wounds > 0 && l.rank != LeaderRank::kMajorGeneral) return std::min(base, 1);
  return base;
}

bool may_influence(const Leader& l) { return !(l.rank == LeaderRank::kMajorGeneral && l.wounds > 0); }
bool on_table(const Leader& l) { return !l.killed && !l.captured; }

bool in_chain_of_command(const Leader& l, const Brigade& b) {
  if (l.army != b.army) return false;
  switch (l.rank) {
    case LeaderRank::kMarshal: return true;
    case LeaderRank::kLieutenantGeneral: return b.wing == l.wing;
    case LeaderRank::kMajorGeneral: return b.wing == l.wing && b.command == l.command;
  }
  return false;
}

bool in_chain_of_command(const Leader& l, const Gun& g) {
  if (l.army != g.army) return false;
  switch (l.rank) {
    case LeaderRank::kMarshal: return true;
    case LeaderRank::kLieutenantGeneral: return !g.wing.empty() && g.wing == l.wing;
    case LeaderRank::kMajorGeneral: return !g.command.empty() && g.wing == l.wing && g.command == l.command;
  }
  return false;
}

double distance_to_enemy(const GameState& s, std::string_view army, const OrientedRect& stand) {
  return EnemyOutlines(s).distance_from(army, stand);
}

double leader_move_allowance(const GameState& s, const Leader& l, Vec2 from, Vec2 to) {
  return EnemyOutlines(s).allowance(l, from, to);
}

int count_actions(const std::vector<OrderStep>& steps) {
  int n = 0;
  std::size_t i = 0;
  while (i < steps.size()) {
    const std::string& a = steps[i].action;
    if (a == "detach" || a == "move_to" || a == "attach") {
      if (steps[i].action == "detach") ++i;
      if (i < steps.size() && steps[i].action == "move_to") ++i;
      if (i < steps.size() && steps[i].action == "attach") ++i;
    } else {
      ++i;
    }
    ++n;
  }
  return n;
}

std::vector<Decision> command_pending(const GameState& s) {
  std::vector<Decision> out;
  EnemyOutlines enemies(s);
  for (const auto& army : acting_armies(s)) {
    for (std::size_t li : leaders_right_to_left(s, army)) {
      const Leader& l = s.leaders[li];
      const int n = command_actions(l);
      if (n <= 0) continue;
      Decision d;
      d.id = std::string(kCommandDecisionPrefix) + l.id;
      d.seat = seat_of(l);
      d.kind = "command_actions";
      d.subjects = {l.id};
      d.prompt = name_of(l) + ": choose up to " + std::to_string(n) + " command action" + (n == 1 ? "" : "s") +
                 " (move/attach/detach" + (l.attached_to.empty() || !may_influence(l) ? "" : ", steady, inspire") +
                 (l.rank == LeaderRank::kMajorGeneral ? "" : ", issue orders, send a messenger") + ", listen).";
      d.default_option = "none";
      d.options = {{"none", "No actions"}};
      const bool far = enemies.farther_than(l.army, footprint(l), kLeaderDoubleBeyond);
      d.limits = {{"actions", static_cast<double>(n)}, {"move", far ? 2 * kLeaderMove : kLeaderMove}};
      out.push_back(std::move(d));
    }
  }
  return out;
}

Verdict command_check(const GameState& s, const Answer& a) {
  EnemyOutlines enemies(s);
  return check_with(s, enemies, a);
}

struct CommandChecks::Impl {
  explicit Impl(const GameState& s) : enemies(s) {}
  EnemyOutlines enemies;
};

CommandChecks::CommandChecks(const GameState& state) : state_(state) {}
CommandChecks::~CommandChecks() = default;

Verdict CommandChecks::check(const Answer& answer) const {
  if (!impl_) impl_ = std::make_unique<Impl>(state_);
  return check_with(state_, impl_->enemies, answer);
}

void apply_command_actions(GameState& s, const std::vector<Answer>& answers, std::vector<Event>& events) {
  Listeners listeners;
  std::map<std::string, const Answer*> by_leader;
  for (const auto& a : answers) {
    const std::string id = leader_of_decision(a.decision_id);
    if (id.empty()) continue;
    by_leader[id] = &a;
    for (const auto& st : a.steps) {
      if (st.action == "listen") listeners[id].insert(st.target);
    }
  }
  Run run;
  run.apply = true;
  run.listeners = &listeners;
  run.events = &events;
  EnemyOutlines enemies(s);  // one for every leader: their actions move no brigade or gun
  for (const auto& army : acting_armies(s)) {
    for (std::size_t li : leaders_right_to_left(s, army)) {
      const std::string id = s.leaders[li].id;
      auto it = by_leader.find(id);
      if (it == by_leader.end() || it->second->steps.empty()) continue;
      // A step made impossible by another leader's actions leaves this
      // leader's earlier steps in place and stops there.
      if (auto ok = run_actions(s, id, it->second->steps, run, enemies); !ok) {
        const Leader* l = s.find_leader(id);
        Event e;
        e.kind = "action_failed";
        e.text = known_to(id, ref(id) + ": " + ok.error().reason);
        e.subjects = {id};
        if (l != nullptr) e.where = {{l->position, id}};
        events.push_back(std::move(e));
      }
    }
  }
}

void apply_message(GameState& s, const Leader& issuer, const Leader& recipient, const Message& m,
                   std::vector<Event>& events) {
  if (m.kind == MessageKind::kOrders) {
    // Orders change the wing whose Lieutenant General received them.
    Wing* w = find_wing_mut(s, recipient.army, recipient.wing);
    if (w == nullptr) return;
    w->order = m.order;
    w->objective = m.objective;
    w->objective_feature = m.objective_feature;
    w->orders_from = issuer.id;
    events.push_back(leader_event("orders_changed",
                                  known_to(recipient.id, name_of(recipient) + " receives new orders from " +
                                                             name_of(issuer) + ": " + std::string(to_string(m.order)) +
                                                             "."),
                                  recipient, {issuer.id}));
    return;
  }
  Event e;
  e.kind = "reassigned";
  e.subjects = {issuer.id, m.unit};
  if (Brigade* b = find_brigade_mut(s, m.unit)) {
    b->wing = m.wing;
    b->command = m.command;
    e.where = {{b->position, b->id}};
    std::string text = name_of(*b) + " is re-assigned to wing " + m.wing + ", command " + m.command + ".";
    // Leaders no longer over it let go of it.
    for (auto& l : s.leaders) {
      if (l.attached_to == b->id && !in_chain_of_command(l, *b)) {
        l.attached_to.clear();
        text += " " + name_of(l) + " detaches.";
      }
    }
    e.text = known_to(b->id, text);
  } else if (Gun* g = find_gun_mut(s, m.unit)) {
    g->wing = m.wing;
    g->command = m.command;
    e.where = {{g->position, g->id}};
    e.text = known_to(g->id, ref(g->id) + " is re-assigned to wing " + m.wing +
                                 (m.command.empty() ? "" : ", command " + m.command) + ".");
  } else {
    // A whole command moves to another wing.
    const Wing* from = wing_of_command(s, issuer.army, m.unit);
    Wing* to = find_wing_mut(s, issuer.army, m.wing);
    if (from == nullptr || to == nullptr) return;
    Wing* fromw = find_wing_mut(s, issuer.army, from->id);
    auto it = std::find_if(fromw->commands.begin(), fromw->commands.end(), [&](const Command& c) { return c.id == m.unit; });
    const Command moved = *it;
    const std::string old_wing = fromw->id;
    fromw->commands.erase(it);
    to->commands.push_back(moved);
    for (auto& b : s.brigades) {
      if (b.army == issuer.army && b.wing == old_wing && b.command == moved.id) b.wing = to->id;
    }
    for (auto& g : s.guns) {
      if (g.army == issuer.army && g.wing == old_wing && g.command == moved.id) g.wing = to->id;
    }
    for (auto& l : s.leaders) {
      if (l.army == issuer.army && l.rank == LeaderRank::kMajorGeneral && l.command == moved.id) l.wing = to->id;
    }
    e.text = known_to(issuer.id, "Command " + moved.id + " is re-assigned to wing " + to->id + ".");
  }
  events.push_back(std::move(e));
}

void move_messengers(GameState& s, std::string_view army, std::vector<Event>& events) {
  EnemyOutlines enemies(s);  // messengers and leaders move, nothing else
  std::vector<std::string> order;
  {
    const Vec2 right = facing_unit(army_facing_deg(s, army) + 90.0);
    std::vector<std::pair<double, std::string>> keyed;
    for (const auto& m : s.messengers) {
      if (m.army == army) keyed.emplace_back(-dot(m.position, right), m.id);
    }
    std::sort(keyed.begin(), keyed.end());
    for (auto& k : keyed) order.push_back(k.second);
  }
  for (const auto& id : order) {
    auto it = std::find_if(s.messengers.begin(), s.messengers.end(), [&](const Messenger& m) { return m.id == id; });
    if (it == s.messengers.end()) continue;
    Messenger m = *it;
    s.messengers.erase(it);
    const Leader* R = s.find_leader(m.to);
    Event e;
    e.subjects = {m.id, m.to};
    if (R == nullptr || !on_table(*R)) {
      e.kind = "messenger_lost";
      e.text = ref(m.id) + " finds no one to deliver to" +
               known_to(m.id, ": " + ref(m.to) + " is no longer on the table") + ".";
      e.where = {{m.position, m.id}};
      events.push_back(std::move(e));
      continue;
    }
    const Polygon target = footprint(*R).polygon();
    const double gap = distance(target, m.position);
    const Vec2 to_centre = R->position - m.position;
    const double len = length(to_centre);
    const Vec2 dir = len > 0 ? to_centre * (1.0 / len) : Vec2{};
    // "Move up to 6 inches (double if beyond 6 inches of enemy)": the
    // messenger's own stand is taken as a point (RULINGS.md).
    Leader probe = *R;
    probe.position = m.position;
    const double ride = std::min(gap, 2 * kLeaderMove);
    const double allowance = enemies.allowance(probe, m.position, m.position + dir * ride);
    if (gap <= allowance + kSlack) {
      m.position = m.position + dir * std::min(gap, len);
      e.kind = "messenger_delivered";
      e.where = {{m.position, m.id}};
      e.text = ref(m.id) + " reaches " + name_of(*R) + ".";
      events.push_back(std::move(e));
      const Leader* from = s.find_leader(m.from);
      Leader issuer = from != nullptr ? *from : Leader{};
      if (from == nullptr) {
        issuer.id = m.from;
        issuer.army = m.army;
      }
      // The situation may have changed on the way: the message must still make sense.
      Leader sender_now = issuer;
      sender_now.killed = false;
      sender_now.captured = false;
      const Verdict still = check_message(s, sender_now, *R, m.message);
      if (!still) {
        Event x;
        x.kind = "message_void";
        x.text = known_to(m.to, "The message from " + name_of(issuer) + " no longer applies: " + still.error().reason);
        x.subjects = {m.to, m.from};
        x.where = {{R->position, R->id}};
        events.push_back(std::move(x));
      } else {
        const Leader recipient = *R;
        apply_message(s, issuer, recipient, m.message, events);
      }
      continue;
    }
    m.position = m.position + dir * allowance;
    m.facing_deg = bearing_of(dir);
    e.kind = "messenger_moved";
    e.where = {{m.position, m.id}};
    e.text = ref(m.id) + " rides " + fmt(allowance) + known_to(m.id, " towards " + name_of(*R)) + ".";
    events.push_back(std::move(e));
    s.messengers.push_back(std::move(m));
  }
}

}  // namespace galloper::rules::malbrook
