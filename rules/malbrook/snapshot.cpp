#include "rules/malbrook/snapshot.hpp"

#include <cmath>
#include <concepts>
#include <cstdint>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "rules/core/bytes.hpp"
#include "rules/core/geometry.hpp"

namespace galloper::rules::malbrook {

namespace {

// ---- One field list per struct, for writing and reading ----
//
// fields(ar, x) hands every member of x to the archive, in declaration order:
// the writer (Out) takes them const, the reader (In) fills them. Each list is
// a structured binding of ALL the struct's members, which does not compile
// when the struct gains or loses a member: add the member to the list (and
// bump kSnapshotFormat). Only GameState's list leaves members out (the seed
// and the terrain), by name.

// `S` is T or const T.
template <class S, class T>
concept either = std::same_as<std::remove_const_t<S>, T>;

// Binds every member of `obj` and passes the same names to the archive, so
// the list bound and the list written/read are one list. (A macro: the
// binding and the call need the same names, and only the preprocessor can
// write one list twice.)
#define GALLOPER_FIELDS(obj, ...) \
  auto& [__VA_ARGS__] = obj;       \
  ar(__VA_ARGS__)

template <class Ar>
void fields(Ar& ar, either<Vec2> auto& v) {
  GALLOPER_FIELDS(v, x, y);
}

template <class Ar>
void fields(Ar& ar, either<OrientedRect> auto& r) {
  GALLOPER_FIELDS(r, center, width, depth, facing_deg);
}

template <class Ar>
void fields(Ar& ar, either<OrderStep> auto& s) {
  GALLOPER_FIELDS(s, action, distance, angle_deg, pivot, formation, to, target, order, has_objective, feature, unit,
                  wing, command);
}

// movement_state.hpp

template <class Ar>
void fields(Ar& ar, either<LastMove> auto& m) {
  GALLOPER_FIELDS(m, turn, mode, avd, d6, steps);
}

template <class Ar>
void fields(Ar& ar, either<MoveDeclaration> auto& d) {
  GALLOPER_FIELDS(d, unit, lead, mode, avd, d6, objective, double_move, faces, allowance, executed);
}

template <class Ar>
void fields(Ar& ar, either<HeldOrder> auto& o) {
  GALLOPER_FIELDS(o, decision, steps);
}

template <class Ar>
void fields(Ar& ar, either<MovementState> auto& m) {
  GALLOPER_FIELDS(m, turn, half, stage, declarations, skirmishers, threats, orders);
}

// after_combat_state.hpp

template <class Ar>
void fields(Ar& ar, either<MoraleCause> auto& c) {
  GALLOPER_FIELDS(c, kind, unit, army, wing, grade, foot, rank, where, turn);
}

template <class Ar>
void fields(Ar& ar, either<GameResult> auto& r) {
  GALLOPER_FIELDS(r, decided, winner, reason, broken, points);
}

template <class Ar>
void fields(Ar& ar, either<AfterCombatEntry> auto& e) {
  GALLOPER_FIELDS(e, combat, brigade, army, result, options, enemies, decided, chosen, round, ground, executed,
                  unbound);
}

template <class Ar>
void fields(Ar& ar, either<AfterCombatState> auto& a) {
  GALLOPER_FIELDS(a, turn, started, round, entries, done, move_turn, move_half, retire_choices, meeting_pursuer,
                  meeting_enemy);
}

// combat.hpp

template <class Ar>
void fields(Ar& ar, either<CombatModifier> auto& m) {
  GALLOPER_FIELDS(m, why, dice);
}

template <class Ar>
void fields(Ar& ar, either<CombatBrigade> auto& b) {
  GALLOPER_FIELDS(b, brigade, type, grade, bases_in_combat, charged, counter_charged, a_outrance, pursuing, moved,
                  flanked, single_rank, dps, casualties, destroyed, options);
}

template <class Ar>
void fields(Ar& ar, either<CombatSide> auto& s) {
  GALLOPER_FIELDS(s, army, brigades, guns, parts, bases, modifiers, dice, hit_on, faces, hits, charged, a_outrance,
                  cavalry, foot);
}

template <class Ar>
void fields(Ar& ar, either<CombatResult> auto& r) {
  GALLOPER_FIELDS(r, id, turn, a, b, difference, band_a, band_b, loser, pursuit);
}

template <class Ar>
void fields(Ar& ar, either<ChargeDeclaration> auto& c) {
  GALLOPER_FIELDS(c, charger, target, a_outrance, counter, dice, start, start_facing, start_gap, faces, inches,
                  contacted);
}

template <class Ar>
void fields(Ar& ar, either<ResponseRecord> auto& r) {
  GALLOPER_FIELDS(r, brigade, response, against);
}

template <class Ar>
void fields(Ar& ar, either<FailedCharge> auto& f) {
  GALLOPER_FIELDS(f, charger, target, turn);
}

template <class Ar>
void fields(Ar& ar, either<FlankingFire> auto& f) {
  GALLOPER_FIELDS(f, target, firer, turn, rolled);
}

template <class Ar>
void fields(Ar& ar, either<CombatState> auto& c) {
  GALLOPER_FIELDS(c, turn, stage, half, charges, responses, evaders, results, failed, flanking, next_id);
}

// state.hpp

template <class Ar>
void fields(Ar& ar, either<BasePose> auto& p) {
  GALLOPER_FIELDS(p, center, facing_deg);
}

template <class Ar>
void fields(Ar& ar, either<Brigade> auto& b) {
  GALLOPER_FIELDS(b, id, name, army, wing, command, type, grade, style, a_outrance, bases, formation, position,
                  facing_deg, base_poses, dps, status, inspire_actions, horse_holders, move_dice_turn, move_dice,
                  move_dice_before, last_move, horse_holders_moved, control, controlled_by, conform_to,
                  conform_behind, morale_dps_turn, morale_dps, combat_turn, pursuing);
}

template <class Ar>
void fields(Ar& ar, either<Gun> auto& g) {
  GALLOPER_FIELDS(g, id, name, army, wing, command, weight, limbered, position, facing_deg, dps, status, last_move,
                  control, controlled_by, last_target, last_band, last_shot_from, last_shot_facing, bombarded_turn,
                  bombarded_close, crew_with);
}

template <class Ar>
void fields(Ar& ar, either<Leader> auto& l) {
  GALLOPER_FIELDS(l, id, name, army, wing, command, rank, action_modifier, exceptional, wounds, killed, captured,
                  attached_to, position, facing_deg);
}

template <class Ar>
void fields(Ar& ar, either<Command> auto& c) {
  GALLOPER_FIELDS(c, id, name, major_general);
}

template <class Ar>
void fields(Ar& ar, either<Wing> auto& w) {
  GALLOPER_FIELDS(w, id, name, lieutenant_general, order, objective, objective_feature, commands, orders_from);
}

template <class Ar>
void fields(Ar& ar, either<Army> auto& a) {
  GALLOPER_FIELDS(a, id, name, style, break_percent, marshals, wings);
}

template <class Ar>
void fields(Ar& ar, either<Feature> auto& f) {
  GALLOPER_FIELDS(f, id, name, kind, points, closed, elevation, steep, significantly_high, major, impassable, width,
                  crosses);
}

template <class Ar>
void fields(Ar& ar, either<Objective> auto& o) {
  GALLOPER_FIELDS(o, id, name, at, radius, points, held_by);
}

template <class Ar>
void fields(Ar& ar, either<Message> auto& m) {
  GALLOPER_FIELDS(m, kind, order, objective, objective_feature, unit, wing, command);
}

template <class Ar>
void fields(Ar& ar, either<Messenger> auto& m) {
  GALLOPER_FIELDS(m, id, army, from, to, position, facing_deg, message);
}

template <class Ar>
void fields(Ar& ar, either<RiskTested> auto& r) {
  GALLOPER_FIELDS(r, brigade, cause, turn, phase);
}

template <class Ar>
void fields(Ar& ar, either<FallenLeader> auto& f) {
  GALLOPER_FIELDS(f, leader, army, rank, position, turn, phase, captured);
}

// Everything but the seed (secret; the restoring game's own) and the terrain
// (derived from the features; the restoring game's own).
template <class Ar>
void fields(Ar& ar, either<GameState> auto& s) {
  auto& [scenario, title, description, table_width, table_depth, features, terrain, armies, brigades, guns, leaders,
         turn, phase, initiative, attacker, turn_limit, objectives, victory_description, seed, step, simultaneous,
         wing_vision, half, command_stage, initiative_winner, messengers, next_messenger, movement, risk_tested, fallen_leaders,
         after_combat, morale_causes, result, combat, advantage_of_ground, sight_memo] = s;
  (void)terrain;
  (void)sight_memo;  // a cache
  (void)seed;
  (void)wing_vision;  // the game's options: the restoring game's own
  ar(scenario, title, description, table_width, table_depth, features, armies, brigades, guns, leaders, turn, phase,
     initiative, attacker, turn_limit, objectives, victory_description, step, simultaneous, half, command_stage,
     initiative_winner, messengers, next_messenger, movement, risk_tested, fallen_leaders, after_combat,
     morale_causes, result, combat, advantage_of_ground);
}

// ---- Enums: the last value of each, so a reader refuses any beyond it ----
// (every enum here numbers its values 0, 1, 2, ... in order). A new value
// added at the end must be named here; the reader refuses it until it is.

constexpr TroopType last_of(TroopType) { return TroopType::kCivilians; }
constexpr Grade last_of(Grade) { return Grade::kE; }
constexpr FightingStyle last_of(FightingStyle) { return FightingStyle::kNew; }
constexpr Formation last_of(Formation) { return Formation::kUnformed; }
constexpr GunWeight last_of(GunWeight) { return GunWeight::kMortar; }
constexpr WingOrder last_of(WingOrder) { return WingOrder::kAdvanceAndAttack; }
constexpr LeaderRank last_of(LeaderRank) { return LeaderRank::kMarshal; }
constexpr Phase last_of(Phase) { return Phase::kEnded; }
constexpr ControlResult last_of(ControlResult) { return ControlResult::kContinue; }
constexpr CommandStage last_of(CommandStage) { return CommandStage::kControl; }
constexpr RiskCause last_of(RiskCause) { return RiskCause::kCasualty; }
constexpr TerrainKind last_of(TerrainKind) { return TerrainKind::kFord; }
constexpr MessageKind last_of(MessageKind) { return MessageKind::kReassign; }
constexpr MoveStage last_of(MoveStage) { return MoveStage::kFlankFire; }
constexpr MoveMode last_of(MoveMode) { return MoveMode::kRoad; }
constexpr MoraleCauseKind last_of(MoraleCauseKind) { return MoraleCauseKind::kLeaderRouting; }
constexpr AfterAction last_of(AfterAction) { return AfterAction::kRetireHaltShort; }
constexpr CombatBand last_of(CombatBand) { return CombatBand::kBreak; }
constexpr CombatStage last_of(CombatStage) { return CombatStage::kResolved; }
constexpr ChargeResponse last_of(ChargeResponse) { return ChargeResponse::kRefuseFlank; }

// ---- The archives ----

class Out {
 public:
  explicit Out(ByteWriter& w) : w_(w) {}

  template <class... T>
  void operator()(const T&... v) {
    (put(v), ...);
  }

 private:
  void put(bool b) { w_.u8(b ? 1 : 0); }
  void put(std::uint8_t v) { w_.u8(v); }
  void put(std::uint32_t v) { w_.varint(v); }
  void put(std::uint64_t v) { w_.varint(v); }
  void put(int v) { w_.zigzag(v); }
  void put(double d) { w_.f64(d); }
  void put(const std::string& s) { w_.str(s); }

  template <class E>
    requires std::is_enum_v<E>
  void put(E e) {
    w_.varint(static_cast<std::uint64_t>(static_cast<std::underlying_type_t<E>>(e)));
  }

  template <class T>
  void put(const std::optional<T>& o) {
    put(o.has_value());
    if (o) put(*o);
  }

  template <class T>
  void put(const std::vector<T>& v) {
    w_.varint(v.size());
    for (const auto& x : v) put(x);
  }

  template <class K, class V>
  void put(const std::map<K, V>& m) {
    w_.varint(m.size());
    for (const auto& [k, v] : m) {
      put(k);
      put(v);
    }
  }

  template <class T>
    requires std::is_class_v<T>
  void put(const T& t) {
    fields(*this, t);
  }

  ByteWriter& w_;
};

class In {
 public:
  explicit In(ByteReader& r) : r_(r) {}

  template <class... T>
  void operator()(T&... v) {
    (get(v), ...);
  }

 private:
  void get(bool& b) {
    const std::uint8_t v = r_.u8();
    if (v > 1) r_.fail("a yes/no that is neither 0 nor 1");
    b = v == 1;
  }
  void get(std::uint8_t& v) { v = r_.u8(); }
  void get(std::uint32_t& v) {
    const std::uint64_t x = r_.varint();
    if (x > UINT32_MAX) r_.fail("a number too large for 32 bits");
    v = static_cast<std::uint32_t>(x);
  }
  void get(std::uint64_t& v) { v = r_.varint(); }
  void get(int& v) {
    const std::int64_t x = r_.zigzag();
    if (x < INT32_MIN || x > INT32_MAX) r_.fail("a number too large for 32 bits");
    v = static_cast<int>(x);
  }
  // Positions, facings and distances: a number no table holds (a NaN, an
  // infinity, 1e228) would overflow the terrain grid's cells later.
  void get(double& d) {
    d = r_.f64();
    if (!std::isfinite(d) || std::abs(d) > 1e6) r_.fail("a number no table holds");
  }
  void get(std::string& s) { s = r_.str(); }

  template <class E>
    requires std::is_enum_v<E>
  void get(E& e) {
    const std::uint64_t x = r_.varint();
    if (x > static_cast<std::uint64_t>(last_of(E{}))) {
      r_.fail("a choice numbered " + std::to_string(x) + " that this version does not know");
      return;
    }
    e = static_cast<E>(x);
  }

  template <class T>
  void get(std::optional<T>& o) {
    bool present = false;
    get(present);
    if (!present || !r_.ok()) {
      o.reset();
      return;
    }
    get(o.emplace());
  }

  // Elements are appended one at a time (no reserve from the count): what is
  // allocated grows with the bytes actually read, never with a damaged count.
  template <class T>
  void get(std::vector<T>& v) {
    const std::size_t n = r_.count();
    v.clear();
    for (std::size_t i = 0; i < n && r_.ok(); ++i) get(v.emplace_back());
  }

  template <class K, class V>
  void get(std::map<K, V>& m) {
    const std::size_t n = r_.count();
    m.clear();
    for (std::size_t i = 0; i < n && r_.ok(); ++i) {
      K k{};
      V v{};
      get(k);
      get(v);
      if (!r_.ok()) return;
      // Keys in strictly increasing order: one encoding per map.
      if (!m.empty() && !(std::prev(m.end())->first < k)) {
        r_.fail("a table whose keys are out of order");
        return;
      }
      m.emplace_hint(m.end(), std::move(k), std::move(v));
    }
  }

  template <class T>
    requires std::is_class_v<T>
  void get(T& t) {
    fields(*this, t);
  }

  ByteReader& r_;
};

std::string damaged(const std::string& what) {
  return "the snapshot is damaged: " + what + "; load the game by replaying its log instead";
}

#undef GALLOPER_FIELDS

}  // namespace

std::vector<std::uint8_t> encode_snapshot(const GameState& state) {
  ByteWriter w = begin_snapshot(kRulesetName, kSnapshotFormat);
  Out out(w);
  out(state);
  return seal_snapshot(std::move(w));
}

Result<GameState> restore_snapshot(const GameState& initial, std::span<const std::uint8_t> bytes) {
  auto body = open_snapshot(bytes, kRulesetName, kSnapshotFormat);
  if (!body) return body.error();
  ByteReader r(body.value());
  GameState s;
  In in(r);
  in(s);
  if (r.ok() && !r.at_end()) r.fail(std::to_string(r.remaining()) + " bytes left over after the state");
  if (!r.ok()) return reject(std::string(kSnapshotDamaged), damaged(r.error()));

  const std::string other = "the snapshot is of another game: ";
  const std::string act = "; restore it onto the initial state of the game it was taken from";
  if (s.scenario != initial.scenario) {
    return reject(std::string(kSnapshotOtherGame),
                  other + "scenario '" + s.scenario + "', not '" + initial.scenario + "'" + act);
  }
  if (s.table_width != initial.table_width || s.table_depth != initial.table_depth) {
    return reject(std::string(kSnapshotOtherGame),
                  other + "its table differs in size from that of scenario '" + initial.scenario + "'" + act);
  }
  if (s.features != initial.features) {
    std::string which = "its terrain differs from that of scenario '" + initial.scenario + "'";
    for (std::size_t i = 0; i < s.features.size() && i < initial.features.size(); ++i) {
      if (!(s.features[i] == initial.features[i])) {
        which += " (terrain feature '" + initial.features[i].id + "')";
        break;
      }
    }
    return reject(std::string(kSnapshotOtherGame), other + which + act);
  }
  s.seed = initial.seed;
  s.terrain = initial.terrain;
  s.sight_memo.set_grain(initial.sight_memo.grain());  // the game's options (with_options)
  s.wing_vision = initial.wing_vision;
  return s;
}

bool same_except_terrain(const GameState& a, const GameState& b) {
  // Binds every member, so this does not compile when GameState gains or
  // loses one: compare the new member below too.
  [[maybe_unused]] const auto& [scenario, title, description, table_width, table_depth, features, terrain, armies,
                                brigades, guns, leaders, turn, phase, initiative, attacker, turn_limit, objectives,
                                victory_description, seed, step, simultaneous, wing_vision, half, command_stage,
                                initiative_winner, messengers, next_messenger, movement, risk_tested,
                                fallen_leaders, after_combat, morale_causes, result, combat, advantage_of_ground,
                                sight_memo] = a;
  return a.scenario == b.scenario && a.title == b.title && a.description == b.description &&
         a.table_width == b.table_width && a.table_depth == b.table_depth && a.features == b.features &&
         a.armies == b.armies && a.brigades == b.brigades && a.guns == b.guns && a.leaders == b.leaders &&
         a.turn == b.turn && a.phase == b.phase && a.initiative == b.initiative && a.attacker == b.attacker &&
         a.turn_limit == b.turn_limit && a.objectives == b.objectives &&
         a.victory_description == b.victory_description && a.seed == b.seed && a.step == b.step &&
         a.simultaneous == b.simultaneous && a.wing_vision == b.wing_vision && a.half == b.half && a.command_stage == b.command_stage &&
         a.initiative_winner == b.initiative_winner && a.messengers == b.messengers &&
         a.next_messenger == b.next_messenger && a.movement == b.movement && a.risk_tested == b.risk_tested &&
         a.fallen_leaders == b.fallen_leaders && a.after_combat == b.after_combat &&
         a.morale_causes == b.morale_causes && a.result == b.result && a.combat == b.combat &&
         a.advantage_of_ground == b.advantage_of_ground;
}

}  // namespace galloper::rules::malbrook
