// Sight tables at a side's grain and at a seat's (visibility.hpp,
// SightGrain): the side's table answers every side-level question and every
// side-shared view exactly as the seat's does, and a view that needs the
// seat's grain never reads a side's table. Played on Blenheim by the library
// bot so that the lines close and pieces are seen, hidden and fighting.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

#include "rules/malbrook/basing.hpp"
#include "rules/malbrook/engine.hpp"
#include "rules/malbrook/game.hpp"
#include "rules/malbrook/seats.hpp"
#include "rules/malbrook/view.hpp"
#include "rules/malbrook/visibility.hpp"
#include "tests/rules/malbrook/bot.hpp"
#include "tests/rules/malbrook/golden_files.hpp"

namespace galloper::rules::malbrook {
namespace {

GameState blenheim(std::uint32_t seed) { return test::scenario_state("blenheim", test::bot_seed(seed)); }

// A fresh copy of the state with no table remembered, asking at `grain`.
std::shared_ptr<const SightTable> fresh(const GameState& s, SightGrain grain) {
  GameState copy = s;
  copy.sight_memo.set(nullptr);
  return sight_table(copy, grain);
}

ViewSettings vision(bool side_shared) {
  ViewSettings v;
  v.side_shared_vision = side_shared;
  return v;
}

bool same_units(const View& a, const View& b) {
  if (a.units.size() != b.units.size()) return false;
  for (std::size_t i = 0; i < a.units.size(); ++i) {
    if (a.units[i].id != b.units[i].id || a.units[i].knowledge != b.units[i].knowledge) return false;
  }
  return true;
}

TEST(SightGrain, ASidesTableAgreesWithTheSeatsOnEverySideAndEverySideSharedView) {
  GameState s = blenheim(5);
  test::Bot bot(5);
  int compared = 0;
  for (int step = 0; step < 60 && !finished(s); ++step) {
    if (step % 6 == 0) {
      const auto side = fresh(s, SightGrain::kSide);
      const auto seat = fresh(s, SightGrain::kSeat);
      ASSERT_EQ(side->grain, SightGrain::kSide);
      ASSERT_EQ(seat->grain, SightGrain::kSeat);
      ASSERT_EQ(side->scene, seat->scene);
      ASSERT_EQ(side->seen_by.size(), seat->seen_by.size());
      for (const auto& army : s.armies) {
        const SeatMask m = seat->side_mask(army.id);
        for (std::size_t i = 0; i < seat->seen_by.size(); ++i) {
          // Seen by some seat of the side at the seat's grain iff by all of them at the side's.
          EXPECT_EQ((seat->seen_by[i] & m) != 0, (side->seen_by[i] & m) == m) << "object " << i << " army " << army.id;
          EXPECT_TRUE((side->seen_by[i] & m) == 0 || (side->seen_by[i] & m) == m);
        }
      }
      for (const auto& st : seat->seats) {
        EXPECT_TRUE(same_units(view_for(s, *side, st.id, vision(true)), view_for(s, *seat, st.id, vision(true))))
            << st.id;
        // A wing-only view handed a side's table works the seat's out itself.
        EXPECT_TRUE(same_units(view_for(s, *side, st.id, vision(false)), view_for(s, *seat, st.id, vision(false))))
            << st.id;
      }
      ++compared;
    }
    auto r = test::resolve_bot_step(s, bot.answers(s), nullptr);
    ASSERT_TRUE(r) << r.error().reason;
    s = std::move(r->next);
  }
  EXPECT_GE(compared, 5);
}

// Each step's table is worked out from the last state's (VisibilityEngine::
// compute_from) and must equal one worked out afresh, at either grain.
TEST(SightGrain, TablesWorkedOutFromTheLastStatesAreTheFreshOnes) {
  for (SightGrain grain : {SightGrain::kSide, SightGrain::kSeat}) {
    GameState s = blenheim(8);
    s.sight_memo.set_grain(grain);
    test::Bot bot(8);
    int from_last = 0;
    int tables = 0;
    std::shared_ptr<const SightTable> previous;
    for (int step = 0; step < 90 && !finished(s); ++step) {
      const auto table = sight_table(s, grain);
      if (table != previous) {
        ++tables;
        from_last += table->from_last ? 1 : 0;
        const auto afresh = fresh(s, grain);
        ASSERT_FALSE(afresh->from_last);
        ASSERT_EQ(table->scene, afresh->scene) << "step " << step;
        ASSERT_EQ(table->seen_by, afresh->seen_by) << "step " << step << " grain " << static_cast<int>(grain);
      }
      previous = table;
      auto r = test::resolve_bot_step(s, bot.answers(s), nullptr);
      ASSERT_TRUE(r) << r.error().reason;
      s = std::move(r->next);
    }
    EXPECT_GE(tables, 20);
    EXPECT_GE(from_last, tables / 2);  // most steps change a few pieces
  }
}

// build_scene with an earlier scene on the same terrain (`like`, what
// sight_table passes: the last table's) takes an unchanged piece's elevation
// and cover edge from it; the scene must be the one built afresh, whatever
// moved, turned or left the table since.
TEST(SightGrain, AScenePlacedLikeTheLastIsTheSceneBuiltAfresh) {
  GameState s = blenheim(3);
  const auto seats = seats_of(s);
  const MalbrookScene like = build_scene(s, seats);
  ASSERT_EQ(build_scene(s, seats, &like), like);

  // A brigade moved onto the top of a hill: its bases changed, so it is placed afresh.
  const auto hill = std::find_if(s.features.begin(), s.features.end(),
                                 [](const Feature& f) { return f.kind == TerrainKind::kHill && f.points.size() >= 3; });
  ASSERT_NE(hill, s.features.end());
  Vec2 top{};
  for (Vec2 p : hill->points) top = top + p * (1.0 / static_cast<double>(hill->points.size()));
  GameState moved = s;
  moved.brigades[0].position = top;
  const MalbrookScene afresh = build_scene(moved, seats);
  ASSERT_GT(afresh.scene.objects[0].elevation, 0);  // the vertex mean of this hill lies on it
  EXPECT_EQ(build_scene(moved, seats, &like), afresh);

  // The first brigade gone: every later piece sits one place earlier than
  // in `like`, and none may take another's place on the terrain.
  GameState gone = s;
  gone.brigades[0].status |= static_cast<std::uint32_t>(Status::kDestroyed);
  EXPECT_EQ(build_scene(gone, seats, &like), build_scene(gone, seats));

  // Turned in place (a leader: one base, so the base turns with it).
  GameState turned = s;
  turned.leaders[0].facing_deg = std::fmod(turned.leaders[0].facing_deg + 90, 360);
  EXPECT_EQ(build_scene(turned, seats, &like), build_scene(turned, seats));
}

// sight_table keeps its memo when the state's scene keys equal the memo's,
// without building the scene (SceneKey). So every change to a piece that
// changes what build_scene makes of it must change its key; changes the
// scene does not show (DPs, names, wounds) leave the keys, and so the memo,
// alone.
TEST(SightGrain, EveryChangeThatChangesThePiecesSceneChangesItsKey) {
  GameState s = blenheim(8);
  // A messenger on its way and dismounted dragoons' horses, so that every
  // kind of piece is on the table.
  ASSERT_GE(s.leaders.size(), 3u);
  Messenger m;
  m.id = "msg1";
  m.army = s.leaders[1].army;
  m.from = s.leaders[1].id;
  m.to = s.leaders[2].id;
  m.position = s.leaders[1].position + Vec2{1, 1};
  m.facing_deg = 90;
  s.messengers.push_back(m);
  const auto dragoons = std::find_if(s.brigades.begin(), s.brigades.end(),
                                     [](const Brigade& b) { return b.type == TroopType::kDragoons; });
  ASSERT_NE(dragoons, s.brigades.end());
  dragoons->type = TroopType::kDismountedDragoons;
  dragoons->horse_holders = dragoons->position + Vec2{0, -3};
  const std::size_t dr = static_cast<std::size_t>(dragoons - s.brigades.begin());
  const auto seats = seats_of(s);
  const MalbrookScene scene = build_scene(s, seats);
  const std::vector<SceneKey> keys = scene_keys(s, seats);
  std::vector<SceneKey> built_keys;
  ASSERT_EQ(build_scene(s, seats, nullptr, &built_keys), scene);
  ASSERT_EQ(built_keys, keys);  // one walk gives both
  ASSERT_EQ(keys.size(), scene.refs.size());

  // A wing of the same army other than the piece's own.
  auto other_wing = [&](std::string_view army, std::string_view wing) {
    for (const auto& a : s.armies) {
      if (a.id != army) continue;
      for (const auto& w : a.wings) {
        if (w.id != wing) return w.id;
      }
    }
    return std::string(wing);
  };
  enum class Expect { kChanged, kSame, kMay };
  struct Change {
    std::string what;
    std::function<void(GameState&)> apply;
    Expect expect;
  };
  auto on = [](auto member, std::size_t i, auto change) {
    return [member, i, change](GameState& g) { change((g.*member)[i]); };
  };
  constexpr auto kB = &GameState::brigades;
  constexpr auto kG = &GameState::guns;
  constexpr auto kL = &GameState::leaders;
  constexpr auto kM = &GameState::messengers;
  auto bit = [](Status st) { return static_cast<std::uint32_t>(st); };
  const std::vector<Change> changes = {
      {"brigade moved",
       on(kB, 0,
          [](Brigade& b) {
            b.position = b.position + Vec2{1, 0};
          }),
       Expect::kChanged},
      {"brigade turned", on(kB, 0, [](Brigade& b) { b.facing_deg = std::fmod(b.facing_deg + 10, 360); }),
       Expect::kChanged},
      {"brigade in march column", on(kB, 0, [](Brigade& b) { b.formation = Formation::kMarchColumn; }),
       Expect::kChanged},
      {"brigade unformed", on(kB, 0, [](Brigade& b) { b.formation = Formation::kUnformed; }), Expect::kChanged},
      {"brigade lost a base", on(kB, 0, [](Brigade& b) { b.bases -= 1; }), Expect::kChanged},
      {"brigade's troop type", on(kB, 0, [](Brigade& b) { b.type = TroopType::kHorse; }), Expect::kMay},
      {"brigade's style", on(kB, 0, [](Brigade& b) { b.style = FightingStyle::kNew; }), Expect::kMay},
      {"brigade's bases posed apart",
       on(kB, 0,
          [](Brigade& b) {
            for (const auto& r : footprint(b)) b.base_poses.push_back({r.center + Vec2{0.5, 0}, r.facing_deg});
          }),
       Expect::kChanged},
      {"brigade in combat (shoots)", on(kB, 0, [&](Brigade& b) { b.status |= bit(Status::kInCombat); }),
       Expect::kChanged},
      {"brigade destroyed", on(kB, 0, [&](Brigade& b) { b.status |= bit(Status::kDestroyed); }), Expect::kChanged},
      {"brigade surrendered", on(kB, 0, [&](Brigade& b) { b.status |= bit(Status::kSurrendered); }), Expect::kChanged},
      {"brigade with no bases", on(kB, 0, [](Brigade& b) { b.bases = 0; }), Expect::kChanged},
      {"brigade to another wing", on(kB, 0, [&](Brigade& b) { b.wing = other_wing(b.army, b.wing); }),
       Expect::kChanged},
      {"brigade's DPs", on(kB, 0, [](Brigade& b) { b.dps += 1; }), Expect::kSame},
      {"brigade's name and grade",
       on(kB, 0,
          [](Brigade& b) {
            b.name += " (renamed)";
            b.grade = Grade::kA;
          }),
       Expect::kSame},
      {"brigade halted", on(kB, 0, [&](Brigade& b) { b.status |= bit(Status::kHalted); }), Expect::kSame},
      {"horses moved",
       on(kB, dr,
          [](Brigade& b) {
            b.horse_holders = *b.horse_holders + Vec2{1, 0};
          }),
       Expect::kChanged},
      {"horses mounted", on(kB, dr, [](Brigade& b) { b.horse_holders.reset(); }), Expect::kChanged},
      {"gun moved",
       on(kG, 0,
          [](Gun& g) {
            g.position = g.position + Vec2{0, 1};
          }),
       Expect::kChanged},
      {"gun turned", on(kG, 0, [](Gun& g) { g.facing_deg = std::fmod(g.facing_deg + 45, 360); }), Expect::kChanged},
      {"gun's weight",
       on(kG, 0, [](Gun& g) { g.weight = g.weight == GunWeight::kLight ? GunWeight::kHeavy : GunWeight::kLight; }),
       Expect::kChanged},
      {"gun fired", on(kG, 0, [&](Gun& g) { g.status |= bit(Status::kFired); }), Expect::kChanged},
      {"gun abandoned", on(kG, 0, [&](Gun& g) { g.status |= bit(Status::kAbandoned); }), Expect::kChanged},
      {"gun to another wing", on(kG, 0, [&](Gun& g) { g.wing = other_wing(g.army, g.wing); }), Expect::kMay},
      {"gun's DPs", on(kG, 0, [](Gun& g) { g.dps += 1; }), Expect::kSame},
      {"leader moved",
       on(kL, 0,
          [](Leader& l) {
            l.position = l.position + Vec2{2, 0};
          }),
       Expect::kChanged},
      {"leader turned", on(kL, 0, [](Leader& l) { l.facing_deg = std::fmod(l.facing_deg + 90, 360); }),
       Expect::kChanged},
      {"leader's rank", on(kL, 2, [](Leader& l) { l.rank = LeaderRank::kMarshal; }), Expect::kMay},
      {"leader killed", on(kL, 0, [](Leader& l) { l.killed = true; }), Expect::kChanged},
      {"leader captured", on(kL, 0, [](Leader& l) { l.captured = true; }), Expect::kChanged},
      {"leader to another wing", on(kL, 2, [&](Leader& l) { l.wing = other_wing(l.army, l.wing); }), Expect::kMay},
      {"leader wounded", on(kL, 0, [](Leader& l) { l.wounds += 1; }), Expect::kSame},
      {"messenger moved",
       on(kM, 0,
          [](Messenger& x) {
            x.position = x.position + Vec2{3, 0};
          }),
       Expect::kChanged},
      {"messenger turned", on(kM, 0, [](Messenger& x) { x.facing_deg = 270; }), Expect::kChanged},
      {"messenger's sender", on(kM, 0, [&](Messenger& x) { x.from = s.leaders[0].id; }), Expect::kMay},
      {"messenger's recipient", on(kM, 0, [&](Messenger& x) { x.to = s.leaders[0].id; }), Expect::kSame},
  };
  int changed = 0;
  for (const auto& c : changes) {
    GameState t = s;
    c.apply(t);
    const bool scene_changed = build_scene(t, seats) != scene;
    const bool keys_changed = scene_keys(t, seats) != keys;
    if (scene_changed) {
      ++changed;
      EXPECT_TRUE(keys_changed) << c.what << ": the scene changed but the keys did not";
    }
    if (c.expect == Expect::kChanged) {
      EXPECT_TRUE(scene_changed) << c.what << " should change the scene";
    }
    if (c.expect == Expect::kSame) {
      EXPECT_FALSE(keys_changed) << c.what << " changes nothing the scene shows, but the keys";
    }
  }
  EXPECT_GE(changed, 25);

  // The memo: kept through a change the scene does not show, not through one it does.
  const auto table = sight_table(s, SightGrain::kSide);
  GameState hurt = s;
  hurt.brigades[0].dps += 1;
  EXPECT_EQ(sight_table(hurt, SightGrain::kSide), table);
  GameState moved = s;
  moved.brigades[0].position = moved.brigades[0].position + Vec2{1, 0};
  const auto after_move = sight_table(moved, SightGrain::kSide);
  EXPECT_NE(after_move, table);
  EXPECT_EQ(after_move->seen_by, fresh(moved, SightGrain::kSide)->seen_by);
  EXPECT_EQ(after_move->keys, scene_keys(moved, seats));
}

// A state's pending decisions are sometimes worked out on a copy (the
// combat phase's start, the other half's charge declarations); the copy's
// memo was the state's, and the table worked out for the charges' targets is
// handed back (SightMemo::take_from), so that the step's views use it rather
// than work the same table out again. Checked where charges are declared.
TEST(SightGrain, ATableWorkedOutForPendingOnACopyIsKeptByTheState) {
  GameState s = blenheim(4);
  test::Bot bot(4);
  int declared = 0;
  for (int step = 0; step < 400 && !finished(s) && declared < 6; ++step) {
    if (s.phase == Phase::kCombat) {
      GameState c = s;
      c.sight_memo.set(nullptr);
      const auto owed = pending(c);
      const bool declares = std::any_of(owed.begin(), owed.end(),
                                        [](const Decision& d) { return d.id.rfind("charge/", 0) == 0; });
      if (declares) {
        ++declared;
        const auto kept = c.sight_memo.get();
        ASSERT_NE(kept, nullptr) << "step " << step << ": the charges' table was not kept";
        // The table is of the state's own scene: its views take it as it is.
        EXPECT_EQ(sight_table(c, SightGrain::kSide), kept) << "step " << step;
        EXPECT_EQ(kept->seen_by, fresh(s, SightGrain::kSide)->seen_by) << "step " << step;
      }
    }
    auto r = test::resolve_bot_step(s, bot.answers(s), nullptr);
    ASSERT_TRUE(r) << r.error().reason;
    s = std::move(r->next);
  }
  EXPECT_GE(declared, 3);
}

TEST(SightGrain, TheGamesOptionsChooseTheGrainItsStatesWorkOut) {
  const GameState s = blenheim(6);
  const MalbrookGame plain(s);
  const auto side_game = plain.with_options(GameOptions{.simultaneous = false, .seat_vision = false});
  const auto seat_game = plain.with_options(GameOptions{.simultaneous = false, .seat_vision = true});
  const auto& side_state = static_cast<const MalbrookGame&>(*side_game).state();
  const auto& seat_state = static_cast<const MalbrookGame&>(*seat_game).state();
  EXPECT_EQ(side_state.sight_memo.grain(), SightGrain::kSide);
  EXPECT_EQ(seat_state.sight_memo.grain(), SightGrain::kSeat);
  // The engine's own side-level questions work out the grain the views will need.
  EXPECT_EQ(sight_table(side_state)->grain, SightGrain::kSide);
  EXPECT_EQ(sight_table(seat_state)->grain, SightGrain::kSeat);
  // A seat's table serves a side's question; a side's table is not reused for a seat's.
  EXPECT_EQ(sight_table(seat_state, SightGrain::kSide), sight_table(seat_state, SightGrain::kSeat));
  EXPECT_EQ(sight_table(side_state, SightGrain::kSeat)->grain, SightGrain::kSeat);
  // A snapshot keeps the game's grain (it comes from the initial game's options).
  const auto restored = seat_game->from_snapshot(seat_game->snapshot());
  ASSERT_TRUE(restored) << restored.error().reason;
  EXPECT_EQ(static_cast<const MalbrookGame&>(*restored.value()).state().sight_memo.grain(), SightGrain::kSeat);
}

}  // namespace
}  // namespace galloper::rules::malbrook
