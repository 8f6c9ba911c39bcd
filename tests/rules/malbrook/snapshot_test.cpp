// Snapshots (snapshot.hpp): every state of recorded and bot games restores to
// an equal state (every member, by the structs' defaulted operator==), the
// same hash and the same bytes, and play continues from it exactly as from
// the original; damaged, truncated, foreign and other-game bytes are refused
// with the right code and never crash; the seed is never in the bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

#include "proto/codec/scenario_codec.hpp"
#include "rules/core/bytes.hpp"
#include "rules/malbrook/engine.hpp"
#include "rules/malbrook/game.hpp"
#include "rules/malbrook/snapshot.hpp"
#include "tests/rules/malbrook/bot.hpp"
#include "tests/rules/malbrook/golden_files.hpp"
#include "tests/rules/malbrook/test_state.hpp"

namespace galloper::rules::malbrook {
namespace {

using Bytes = std::vector<std::uint8_t>;

using test::golden_dir;
using test::read_text;
using test::scenario_text;

// The initial game of a scenario, as the server holds it.
std::unique_ptr<MalbrookGame> load(const std::string& name, const Seed& seed) {
  auto loaded = codec::load_scenario(scenario_text(name), seed);
  if (auto* problems = std::get_if<std::vector<codec::ScenarioProblem>>(&loaded)) {
    ADD_FAILURE() << name << ": " << codec::format_problems(name, *problems);
    return nullptr;
  }
  auto game = std::move(std::get<codec::NewGame>(loaded).game);
  auto* m = dynamic_cast<MalbrookGame*>(game.get());
  if (m == nullptr) {
    ADD_FAILURE() << name << " is not a Malbrook game";
    return nullptr;
  }
  game.release();
  return std::unique_ptr<MalbrookGame>(m);
}

std::unique_ptr<MalbrookGame> load(const std::string& name, std::uint32_t bot_seed) {
  return load(name, test::bot_seed(bot_seed));
}

// Which member differs, for failure messages (same_except_terrain says only whether).
std::string first_difference(const GameState& a, const GameState& b) {
  auto vec = [](const char* name, const auto& x, const auto& y) -> std::string {
    if (x.size() != y.size()) return std::string(name) + ".size()";
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (!(x[i] == y[i])) return std::string(name) + "[" + std::to_string(i) + "] (" + x[i].id + ")";
    }
    return {};
  };
  for (const std::string& d : {vec("features", a.features, b.features), vec("armies", a.armies, b.armies),
                               vec("brigades", a.brigades, b.brigades), vec("guns", a.guns, b.guns),
                               vec("leaders", a.leaders, b.leaders), vec("objectives", a.objectives, b.objectives),
                               vec("messengers", a.messengers, b.messengers)}) {
    if (!d.empty()) return d;
  }
  if (!(a.movement == b.movement)) return "movement";
  if (!(a.after_combat == b.after_combat)) return "after_combat";
  if (!(a.combat == b.combat)) return "combat";
  if (!(a.result == b.result)) return "result";
  if (a.seed != b.seed) return "seed";
  return "another member of GameState";
}

// Snapshot -> restore onto `initial` (through the Game interface, as the
// server does) -> the restored state, checked: equal, same hash, same bytes.
GameState round_trip(const MalbrookGame& initial, const GameState& s, const std::string& where) {
  const Bytes bytes = encode_snapshot(s);
  auto back = initial.from_snapshot(bytes);
  if (!back.ok()) {
    ADD_FAILURE() << where << ": " << back.error().code << ": " << back.error().reason;
    return s;
  }
  const auto* game = dynamic_cast<const MalbrookGame*>(back.value().get());
  if (game == nullptr) {
    ADD_FAILURE() << where << ": not a Malbrook game";
    return s;
  }
  const GameState& r = game->state();
  EXPECT_TRUE(same_except_terrain(r, s)) << where << ": " << first_difference(r, s) << " differs";
  EXPECT_EQ(state_hash(r), state_hash(s)) << where;
  EXPECT_TRUE(game->snapshot() == bytes) << where << ": the restored state's snapshot has other bytes";
  return r;
}

void expect_same_events(const std::vector<Event>& a, const std::vector<Event>& b, const std::string& where) {
  ASSERT_EQ(a.size(), b.size()) << where;
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].kind, b[i].kind) << where << " event " << i;
    EXPECT_EQ(a[i].text, b[i].text) << where << " event " << i;
    EXPECT_EQ(a[i].subjects, b[i].subjects) << where << " event " << i;
    EXPECT_EQ(a[i].where, b[i].where) << where << " event " << i;
    EXPECT_EQ(a[i].dice, b[i].dice) << where << " event " << i;
    EXPECT_EQ(a[i].is_public, b[i].is_public) << where << " event " << i;
  }
}

// ---- Round trips ----

struct GoldenSpec {
  const char* file;
  bool whole_game;
};
constexpr GoldenSpec kGolden[] = {{"demo.golden", true}, {"blenheim.golden", false}, {"cavalry.golden", true}};

// Every state of every recorded game round-trips, and the game is played on
// from the RESTORED state at every step: it must still reach the recorded
// final hash (recorded from uninterrupted play).
TEST(SnapshotRoundTrip, EveryStepOfTheGoldenGames) {
  for (const auto& g : kGolden) {
    const auto golden = test::golden_read(read_text(golden_dir() / g.file));
    ASSERT_TRUE(golden.has_value()) << g.file;
    const auto initial = load(golden->scenario, golden->seed);
    ASSERT_NE(initial, nullptr);
    GameState s = round_trip(*initial, initial->state(), std::string(g.file) + " at the start");
    std::size_t i = 0;
    for (; i < golden->steps.size() && !finished(s); ++i) {
      KeyedDice dice(s.seed, s.step);
      auto r = resolve(s, golden->steps[i], dice);
      ASSERT_TRUE(r.ok()) << g.file << " step " << i << ": " << r.error().code << ": " << r.error().reason;
      s = round_trip(*initial, r->next, std::string(g.file) + " after step " + std::to_string(i));
      if (::testing::Test::HasFailure()) return;
    }
    EXPECT_EQ(i, golden->steps.size()) << g.file;
    if (g.whole_game) {
      EXPECT_TRUE(finished(s)) << g.file;
    }
    EXPECT_EQ(state_hash(s), golden->hash) << g.file << ": play continued from restored snapshots went elsewhere";
  }
}

// Bot games: at every step, the step is resolved from the state and from its
// restored snapshot with the same answers and dice; both give the same next
// state hash and the same events.
void play_with_snapshots(const std::string& scenario, std::uint32_t seed, int max_steps) {
  const auto initial = load(scenario, seed);
  ASSERT_NE(initial, nullptr);
  test::Bot bot(seed * 2654435761u + 17u);
  GameState s = initial->state();
  int steps = 0;
  for (; steps < max_steps && !finished(s); ++steps) {
    const std::string where = scenario + " seed " + std::to_string(seed) + " step " + std::to_string(steps);
    std::vector<Answer> used;
    auto original = test::resolve_bot_step(s, bot.answers(s), &used);
    ASSERT_TRUE(original.ok()) << where << ": " << original.error().code << ": " << original.error().reason;
    const GameState restored = round_trip(*initial, s, where);
    KeyedDice dice(restored.seed, restored.step);
    auto continued = resolve(restored, used, dice);
    ASSERT_TRUE(continued.ok()) << where << ": the restored state refused the step: " << continued.error().reason;
    EXPECT_EQ(state_hash(continued->next), state_hash(original->next)) << where;
    expect_same_events(continued->events, original->events, where);
    if (::testing::Test::HasFailure()) return;
    s = std::move(original->next);
  }
  round_trip(*initial, s, scenario + " seed " + std::to_string(seed) + " at the end");
  std::printf("[ snapshot ] %s seed %u: %d steps%s\n", scenario.c_str(), seed, steps, finished(s) ? " (ended)" : "");
}

TEST(SnapshotRoundTrip, BotGameOnTheDemo) { play_with_snapshots("demo", 21, 20000); }

TEST(SnapshotRoundTrip, BotGameOnTheCavalryClash) { play_with_snapshots("cavalry_clash", 23, 20000); }

// Blenheim steps are slow in Debug builds (a second each with the bot's own
// checks): a few steps here; the golden game above covers two whole turns.
TEST(SnapshotRoundTrip, BotGameOnBlenheim) { play_with_snapshots("blenheim", 24, 4); }

// Members the games above rarely or never set, each given a value that is
// not its default, and doubles whose bits matter (-0.0).
TEST(SnapshotRoundTrip, RarelySetMembersAndNegativeZero) {
  GameState s = test::tiny_state();
  s.description = "A test of every corner";
  s.victory_description = "Hold the bridge";
  s.attacker = "fr";
  s.initiative_winner = "al";
  s.simultaneous = true;
  s.half = 1;
  s.step = 1234567890123ULL;
  s.next_messenger = 7;
  s.command_stage = CommandStage::kControl;
  s.phase = Phase::kCombat;
  Feature f;
  f.id = "br";
  f.name = "Bridge";
  f.kind = TerrainKind::kBridge;
  f.points = {{1, 2}};
  f.crosses = "river";
  f.width = 3;
  f.impassable = true;
  f.major = true;
  f.significantly_high = true;
  f.steep = true;
  f.elevation = 2;
  f.closed = true;
  s.features.push_back(f);
  s.terrain = make_terrain_map(s.features);
  s.armies[0].style = FightingStyle::kNew;
  s.armies[0].break_percent = 40;
  s.armies[0].wings[0].order = WingOrder::kAdvanceAndAttack;
  s.armies[0].wings[0].objective = Vec2{-0.0, 12.5};
  s.armies[0].wings[0].objective_feature = "br";
  s.armies[0].wings[0].orders_from = "fr_m";
  Brigade& b = test::brigade(s, "fr_b1");
  b.type = TroopType::kDismountedDragoons;
  b.grade = Grade::kA;
  b.style = FightingStyle::kNew;
  b.a_outrance = true;
  b.formation = Formation::kUnformed;
  b.base_poses = {{{1, 2}, 90}, {{3, 4}, -0.0}};
  b.dps = 3;
  b.status = static_cast<std::uint32_t>(Status::kRetiring) | static_cast<std::uint32_t>(Status::kSurrendered);
  b.inspire_actions = 2;
  b.horse_holders = Vec2{5, 6};
  b.move_dice_turn = 3;
  b.move_dice = 2;
  b.move_dice_before = 1;
  b.last_move.turn = 2;
  b.last_move.mode = MoveMode::kRoad;
  b.last_move.avd = 2;
  b.last_move.d6 = true;
  OrderStep st;
  st.action = "wheel";
  st.distance = 1.5;
  st.angle_deg = -22.5;
  st.pivot = "left";
  st.formation = "line";
  st.to = {7, 8};
  st.target = "al_b1";
  st.order = "reassign";
  st.has_objective = true;
  st.feature = "br";
  st.unit = "fr_b2";
  st.wing = "right";
  st.command = "c5";
  b.last_move.steps = {st, st};
  b.horse_holders_moved = true;
  b.control = ControlResult::kConforming;
  b.controlled_by = "fr_mg1";
  b.conform_to = "fr_b2";
  b.conform_behind = true;
  b.morale_dps_turn = 4;
  b.morale_dps = 1;
  b.combat_turn = 3;
  b.pursuing = "al_b1";
  Gun g;
  g.id = "fr_g1";
  g.name = "Battery";
  g.army = "fr";
  g.wing = "left";
  g.command = "c1";
  g.weight = GunWeight::kHowitzer;
  g.limbered = true;
  g.position = {20, 5};
  g.facing_deg = 359.5;
  g.dps = 2;
  g.status = static_cast<std::uint32_t>(Status::kAbandoned);
  g.last_move = b.last_move;
  g.control = ControlResult::kHalt;
  g.controlled_by = "fr_lg";
  g.last_target = "al_b2";
  g.last_band = 2;
  g.last_shot_from = {19, 4};
  g.last_shot_facing = 1;
  g.bombarded_turn = 2;
  g.bombarded_close = true;
  g.crew_with = "fr_b3";
  s.guns.push_back(g);
  Leader& l = test::leader(s, "fr_mg1");
  l.action_modifier = -1;
  l.exceptional = true;
  l.wounds = 1;
  l.killed = true;
  l.captured = true;
  l.attached_to = "fr_b1";
  s.objectives.push_back({"o1", "Village", {30, 24}, 3, 5, "al"});
  Messenger m;
  m.id = "msg3";
  m.army = "fr";
  m.from = "fr_m";
  m.to = "fr_lg";
  m.position = {40, 3};
  m.facing_deg = 270;
  m.message.kind = MessageKind::kReassign;
  m.message.order = WingOrder::kAdvanceAndDefend;
  m.message.objective = Vec2{1, 1};
  m.message.objective_feature = "br";
  m.message.unit = "fr_b4";
  m.message.wing = "right";
  m.message.command = "c5";
  s.messengers.push_back(m);
  OrderStep held;
  held.action = "side_step";
  held.distance = 0.75;
  held.pivot = "left";
  s.movement = {3, 1, MoveStage::kFlankFire, {{"fr_b1", "fr_b2", MoveMode::kDice, 2, true, true, true, {2, 5, 6}, 9.5, true}},
                {"fr_b1"}, {"al_b1"}, {{"move/fr_b1", {held}}}};
  s.risk_tested.push_back({"fr_b1", RiskCause::kCasualty, 3, Phase::kMorale});
  s.fallen_leaders.push_back({"fr_mg1", "fr", LeaderRank::kMajorGeneral, {10, 2}, 3, Phase::kCombat, true});
  s.after_combat.turn = 3;
  s.after_combat.started = true;
  s.after_combat.round = 1;
  s.after_combat.entries.push_back({"t3c1", "fr_b1", "fr", -3, {AfterAction::kRetire, AfterAction::kRout},
                                    {"al_b1"}, true, AfterAction::kRout, 1, 2.5, true, {0, 3}});
  s.after_combat.done = true;
  s.after_combat.move_turn = 3;
  s.after_combat.move_half = 1;
  s.after_combat.retire_choices = {"fr_b2"};
  s.after_combat.meeting_pursuer = "al_b1";
  s.after_combat.meeting_enemy = "fr_b2";
  s.morale_causes.push_back(
      {MoraleCauseKind::kLeaderRouting, "fr_mg1", "fr", "left", Grade::kD, true, LeaderRank::kMarshal, {{1, 2}, 3, 4, 5}, 3});
  s.result = {true, "al", "army_broken", {"fr"}, {0, 7}};
  CombatSide side;
  side.army = "fr";
  side.brigades = {"fr_b1"};
  side.guns = {"fr_g1"};
  CombatBrigade part;
  part.brigade = "fr_b1";
  part.type = TroopType::kHussars;
  part.grade = Grade::kB;
  part.bases_in_combat = 3;
  part.charged = part.counter_charged = part.a_outrance = part.pursuing = part.moved = part.flanked = true;
  part.single_rank = part.destroyed = true;
  part.dps = 2;
  part.casualties = 1;
  part.options = {AfterAction::kRideThrough3, AfterAction::kRemainWithDp};
  side.parts = {part};
  side.bases = 3;
  side.modifiers = {{"flanked", -2}, {"charged", 1}};
  side.dice = 2;
  side.hit_on = 6;
  side.faces = {1, 6};
  side.hits = 1;
  side.charged = side.a_outrance = side.cavalry = side.foot = true;
  CombatResult cr;
  cr.id = "t3c1";
  cr.turn = 3;
  cr.a = side;
  cr.b = side;
  cr.b.army = "al";
  cr.difference = -4;
  cr.band_a = CombatBand::kBreak;
  cr.band_b = CombatBand::kBreakthrough;
  cr.loser = "fr";
  cr.pursuit = true;
  s.combat.turn = 3;
  s.combat.stage = CombatStage::kResolved;
  s.combat.half = 1;
  s.combat.charges.push_back(
      {"fr_b1", "al_b1", true, true, 3, {16, 10}, 0.25, 3.5, {3, 4, 6}, 10.5, "al_b1"});
  s.combat.responses.push_back({"al_b1", ChargeResponse::kRefuseFlank, "fr_b1"});
  s.combat.evaders = {"al_b2"};
  s.combat.results = {cr};
  s.combat.failed.push_back({"fr_b2", "al_b2", 2});
  s.combat.flanking.push_back({"al_b1", "fr_b3", 3, true});
  s.combat.next_id = 9;
  s.advantage_of_ground = {{"fr_b1", true}, {"al_b1", false}};

  const MalbrookGame initial(s);  // same features, seed and terrain
  const GameState back = round_trip(initial, s, "rare members");
  EXPECT_TRUE(std::signbit(back.armies[0].wings[0].objective->x));
  EXPECT_TRUE(std::signbit(back.brigades[0].base_poses[1].facing_deg));

  // And every one of them is in the bytes: changing any changes them.
  const Bytes bytes = encode_snapshot(s);
  GameState t = s;
  t.advantage_of_ground["fr_b1"] = false;
  EXPECT_NE(encode_snapshot(t), bytes);
  t = s;
  t.combat.results[0].b.parts[0].options.pop_back();
  EXPECT_NE(encode_snapshot(t), bytes);
  t = s;
  t.brigades[0].base_poses[1].facing_deg = 0.0;  // == -0.0, other bits
  EXPECT_NE(encode_snapshot(t), bytes);
}

// ---- Refusals ----

// The demo golden game halfway: movement, fire and combat state all in use.
struct MidGame {
  std::unique_ptr<MalbrookGame> initial;
  GameState state;
  Bytes bytes;
};

const MidGame& demo_mid_game() {
  static const MidGame mid = [] {
    MidGame m;
    const auto golden = test::golden_read(read_text(golden_dir() / "demo.golden"));
    if (!golden) return m;  // the tests fail on the empty bytes
    m.initial = load(golden->scenario, golden->seed);
    if (m.initial == nullptr) return m;
    m.state = m.initial->state();
    for (std::size_t i = 0; i < golden->steps.size() / 2; ++i) {
      KeyedDice dice(m.state.seed, m.state.step);
      m.state = std::move(resolve(m.state, golden->steps[i], dice).value().next);
    }
    m.bytes = encode_snapshot(m.state);
    return m;
  }();
  return mid;
}

std::string refusal_of(const Game& initial, const Bytes& bytes) {
  auto r = initial.from_snapshot(bytes);
  return r.ok() ? "accepted" : r.error().code;
}

TEST(SnapshotRefusal, EveryTruncationIsDamaged) {
  const MidGame& m = demo_mid_game();
  ASSERT_NE(m.initial, nullptr) << "demo.golden is missing";
  for (std::size_t n = 0; n < m.bytes.size(); ++n) {
    const Bytes cut(m.bytes.begin(), m.bytes.begin() + static_cast<std::ptrdiff_t>(n));
    ASSERT_EQ(refusal_of(*m.initial, cut), kSnapshotDamaged) << "cut to " << n << " of " << m.bytes.size();
  }
  EXPECT_EQ(refusal_of(*m.initial, m.bytes), "accepted");
}

// The decoder itself, behind the checksum: every truncation of the body,
// sealed again with a valid checksum, is refused as damaged.
TEST(SnapshotRefusal, EveryTruncatedBodyIsRefusedByTheDecoder) {
  const MidGame& m = demo_mid_game();
  ASSERT_NE(m.initial, nullptr) << "demo.golden is missing";
  auto body = open_snapshot(m.bytes, kRulesetName, kSnapshotFormat);
  ASSERT_TRUE(body.ok());
  const Bytes full(body->begin(), body->end());
  for (std::size_t n = 0; n < full.size(); ++n) {
    ByteWriter w = begin_snapshot(kRulesetName, kSnapshotFormat);
    w.raw(std::span<const std::uint8_t>(full.data(), n));
    const Bytes sealed = seal_snapshot(std::move(w));
    auto r = m.initial->from_snapshot(sealed);
    ASSERT_FALSE(r.ok()) << "body cut to " << n << " of " << full.size();
    ASSERT_EQ(r.error().code, kSnapshotDamaged) << n;
  }
  // Bytes left over after the state are damage too.
  ByteWriter w = begin_snapshot(kRulesetName, kSnapshotFormat);
  w.raw(full);
  w.u8(0);
  auto r = m.initial->from_snapshot(seal_snapshot(std::move(w)));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, kSnapshotDamaged);
  EXPECT_NE(r.error().reason.find("left over"), std::string::npos) << r.error().reason;
}

TEST(SnapshotRefusal, EveryFlippedByteOfTheBodyIsDamaged) {
  const MidGame& m = demo_mid_game();
  ASSERT_NE(m.initial, nullptr) << "demo.golden is missing";
  const std::size_t header = kSnapshotMagic.size() + 2 + 1 + kRulesetName.size();
  for (std::size_t i = header; i < m.bytes.size(); ++i) {
    for (std::uint8_t mask : {std::uint8_t{0x01}, std::uint8_t{0x80}}) {
      Bytes b = m.bytes;
      b[i] ^= mask;
      ASSERT_EQ(refusal_of(*m.initial, b), kSnapshotDamaged) << "byte " << i;
    }
  }
}

// Random damage behind a valid checksum (a buggy or hostile writer): never a
// crash or an out-of-bounds read (ASan runs this), and whatever is accepted
// is canonical: it encodes back to the very same bytes.
TEST(SnapshotRefusal, ResealedRandomDamageNeverCrashes) {
  const MidGame& m = demo_mid_game();
  ASSERT_NE(m.initial, nullptr) << "demo.golden is missing";
  auto body = open_snapshot(m.bytes, kRulesetName, kSnapshotFormat);
  ASSERT_TRUE(body.ok());
  const Bytes full(body->begin(), body->end());
  std::mt19937 rng(12345);
  int accepted = 0;
  int refused = 0;
  for (int iter = 0; iter < 1500; ++iter) {
    Bytes b = full;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits && !b.empty(); ++e) {
      const std::size_t at = rng() % b.size();
      switch (rng() % 4) {
        case 0: b[at] = static_cast<std::uint8_t>(rng()); break;
        case 1: b[at] ^= static_cast<std::uint8_t>(1u << (rng() % 8)); break;
        case 2: b.erase(b.begin() + static_cast<std::ptrdiff_t>(at)); break;
        default: b.insert(b.begin() + static_cast<std::ptrdiff_t>(at), static_cast<std::uint8_t>(rng())); break;
      }
    }
    ByteWriter w = begin_snapshot(kRulesetName, kSnapshotFormat);
    w.raw(b);
    const Bytes sealed = seal_snapshot(std::move(w));
    auto r = m.initial->from_snapshot(sealed);
    if (r.ok()) {
      ++accepted;
      ASSERT_TRUE(r.value()->snapshot() == sealed) << "iteration " << iter << ": accepted bytes are not canonical";
    } else {
      ++refused;
      EXPECT_TRUE(r.error().code == kSnapshotDamaged || r.error().code == kSnapshotOtherGame) << r.error().code;
      EXPECT_FALSE(r.error().reason.empty());
    }
  }
  std::printf("[ snapshot ] random damage: %d accepted (still a state), %d refused\n", accepted, refused);
}

TEST(SnapshotRefusal, WrongMagicVersionAndRuleset) {
  const MidGame& m = demo_mid_game();
  ASSERT_NE(m.initial, nullptr) << "demo.golden is missing";
  Bytes magic = m.bytes;
  magic[0] = 'g';
  EXPECT_EQ(refusal_of(*m.initial, magic), kSnapshotDamaged);

  Bytes version = m.bytes;
  version[kSnapshotMagic.size()] = static_cast<std::uint8_t>(kSnapshotFormat + 1);
  auto r = m.initial->from_snapshot(version);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, kSnapshotVersion);
  EXPECT_NE(r.error().reason.find("version " + std::to_string(kSnapshotFormat + 1)), std::string::npos)
      << r.error().reason;

  auto body = open_snapshot(m.bytes, kRulesetName, kSnapshotFormat);
  ASSERT_TRUE(body.ok());
  ByteWriter w = begin_snapshot("cfeo", kSnapshotFormat);
  w.raw(body.value());
  r = m.initial->from_snapshot(seal_snapshot(std::move(w)));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, kSnapshotRuleset);
  EXPECT_NE(r.error().reason.find("cfeo"), std::string::npos) << r.error().reason;

  EXPECT_EQ(refusal_of(*m.initial, {}), kSnapshotDamaged);
}

TEST(SnapshotRefusal, ADemoSnapshotOnBlenheimIsAnotherGame) {
  const MidGame& m = demo_mid_game();
  ASSERT_NE(m.initial, nullptr) << "demo.golden is missing";
  const auto blenheim = load("blenheim", 1);
  ASSERT_NE(blenheim, nullptr);
  auto r = blenheim->from_snapshot(m.bytes);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, kSnapshotOtherGame);
  EXPECT_NE(r.error().reason.find("demo"), std::string::npos) << r.error().reason;
}

TEST(SnapshotRefusal, TheSameScenarioNameWithOtherTerrainIsAnotherGame) {
  const MidGame& m = demo_mid_game();
  ASSERT_NE(m.initial, nullptr) << "demo.golden is missing";
  GameState other = m.state;
  ASSERT_FALSE(other.features.empty());
  other.features.back().points.front().x += 0.5;
  auto r = m.initial->from_snapshot(encode_snapshot(other));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().code, kSnapshotOtherGame);
  EXPECT_NE(r.error().reason.find(other.features.back().id), std::string::npos) << r.error().reason;

  other = m.state;
  other.table_width += 1;
  EXPECT_EQ(refusal_of(*m.initial, encode_snapshot(other)), kSnapshotOtherGame);
}

// ---- The seed ----

Seed distinct_seed(std::uint8_t salt) {
  Seed s{};
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = static_cast<std::uint8_t>(salt + 37 * i + (i * i) % 11);
  return s;
}

TEST(SnapshotSeed, IsNeverInTheBytesAndComesFromTheRestoringGame) {
  const Seed a = distinct_seed(3);
  const Seed b = distinct_seed(101);
  const auto game_a = load("demo", a);
  const auto game_b = load("demo", b);
  ASSERT_NE(game_a, nullptr);
  ASSERT_NE(game_b, nullptr);
  // A few steps in, so dice have been rolled with the seed.
  test::Bot bot(7);
  GameState s = game_a->state();
  for (int i = 0; i < 12 && !finished(s); ++i) {
    auto r = test::resolve_bot_step(s, bot.answers(s));
    ASSERT_TRUE(r.ok()) << r.error().reason;
    s = std::move(r->next);
  }
  const Bytes bytes = MalbrookGame(s).snapshot();
  EXPECT_EQ(std::search(bytes.begin(), bytes.end(), a.begin(), a.end()), bytes.end()) << "the seed is in the snapshot";
  EXPECT_EQ(std::search(bytes.begin(), bytes.end(), a.begin(), a.begin() + 16), bytes.end());
  EXPECT_EQ(std::search(bytes.begin(), bytes.end(), a.begin() + 16, a.end()), bytes.end());

  auto onto_b = game_b->from_snapshot(bytes);
  ASSERT_TRUE(onto_b.ok()) << onto_b.error().reason;
  const auto& restored = dynamic_cast<const MalbrookGame&>(*onto_b.value()).state();
  EXPECT_EQ(restored.seed, b);
  EXPECT_EQ(restored.step, s.step);
  EXPECT_EQ(onto_b.value()->state_hash(), state_hash(s));  // the hash leaves the seed out too
}

// ---- The format ----

// The bytes of a small state, pinned: the encoding is defined byte by byte,
// so this holds on every compiler. If it changes, the format changed: bump
// kSnapshotFormat (snapshot.hpp) and pin the new value.
TEST(SnapshotFormat, PinnedBytesOfASmallState) {
  const GameState s = test::tiny_state();
  const Bytes bytes = encode_snapshot(s);
  EXPECT_EQ(bytes.size(), 1288u);
  EXPECT_EQ(fnv1a64(bytes), 0x7e60450ef33c0e0ULL) << std::hex << fnv1a64(bytes);
  EXPECT_EQ(kSnapshotFormat, 4);
}

TEST(SnapshotFormat, EqualStatesGiveEqualBytesAndTheGameInterfaceAgrees) {
  const auto a = load("demo", 4);
  const auto b = load("demo", 4);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(a->snapshot(), b->snapshot());
  EXPECT_EQ(a->snapshot(), encode_snapshot(a->state()));
  const Game& g = *a;
  EXPECT_FALSE(g.snapshot().empty());
}

}  // namespace
}  // namespace galloper::rules::malbrook
