#pragma once
// The seam between a ruleset and the server: a game as the server sees it.
//
// A Game is a value: the server holds one per room, asks it questions and
// replaces it with the next state a resolution returns. Implementations are
// pure: no I/O, no clocks, no threads, no globals; dice come in from outside.
// A game can also be written as a snapshot (bytes, rules/core/bytes.hpp) and
// rebuilt from one on its initial state, so loading need not replay the log.
#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "rules/core/result.hpp"
#include "rules/core/vec2.hpp"

namespace galloper::rules {

struct Decision;
struct Answer;
struct Event;
struct Resolution;
struct StateEdit;
struct ViewUpdate;
struct OddsQuestion;
struct OddsAnswer;
class Dice;
struct BotRng;

// The game's secret seed (256 bits). Dice are a pure function of it and the
// roll's position in the game, so a game replays exactly from its log.
using Seed = std::array<std::uint8_t, 32>;

// A 64-bit digest of everything in a state that can change an outcome.
using StateHash = std::uint64_t;

enum class SeatRole : std::uint8_t {
  kUmpire,     // sees and may do everything
  kPlayer,     // commands part (or all) of one side: its scope
  kSpectator,  // sees what the game's spectator setting allows; never acts
};

// A seat at the table. A player's scope is the part of its side it
// commands, in the ruleset's terms: empty for the side's commander-in-chief
// (Malbrook's army seat: the Marshal, his own leaders and the army's
// troops), otherwise the id of the part (a Malbrook wing). On the wire an
// empty scope is SEAT_ROLE_ARMY and any other SEAT_ROLE_WING.
struct Seat {
  std::string id;           // "umpire", "<side>/army", "<side>/<wing>"
  SeatRole role = SeatRole::kSpectator;
  std::string side;         // side (army) id; empty for umpire and spectators
  std::string scope;        // players: empty for the whole side's commander, else the part's id
  std::string description;  // "Allied left wing (Lt Gen Cutts)"

  friend bool operator==(const Seat&, const Seat&) = default;
};

// Per-game settings that change how the sequence of play runs.
struct GameOptions {
  // Both sides answer a phase in one step where the ruleset allows it
  // (play-by-web); otherwise sides alternate phase by phase as the text says.
  bool simultaneous = false;
  // The game's views will be asked for with wing-only vision
  // (ViewSettings::side_shared_vision false). A ruleset may then work out
  // each seat's sight from the start rather than a side's first, and offers
  // a seat only what its own eyes see (a charge's targets: Malbrook RULINGS
  // C2): a decision is built for its seat, who may not see what its side does.
  bool seat_vision = false;
};

// Per-game settings that change what a seat sees.
struct ViewSettings {
  bool side_shared_vision = true;  // false: friendly wings hidden unless seen
};

// ---- What a seat is shown (mirrors proto/galloper/v1/game.proto). ----

struct RectView {
  Vec2 center;
  double width = 0;  // along the front
  double depth = 0;
  double facing_deg = 0;

  friend bool operator==(const RectView&, const RectView&) = default;
};

enum class UnitKind : std::uint8_t { kBrigade, kGun, kLeader, kMessenger, kMarker };
enum class Knowledge : std::uint8_t { kOwn, kFriendly, kSeen, kLastSeen, kUmpire };

// A number a ruleset keeps on a unit that the common fields do not name
// (Black Powder's casualties and stamina), shown as "value of max".
struct UnitCounter {
  std::string name;   // "casualties"
  std::int32_t value = 0;
  std::int32_t max = 0;  // 0: no maximum
  friend bool operator==(const UnitCounter&, const UnitCounter&) = default;
};

// A lasting quality a ruleset states about a unit that the common fields do
// not name ("pikes": "2 bases"). Passing states are `status` words.
struct UnitAttribute {
  std::string name;
  std::string value;
  friend bool operator==(const UnitAttribute&, const UnitAttribute&) = default;
};

struct UnitView {
  std::string id;
  UnitKind kind = UnitKind::kBrigade;
  std::string side;
  std::string name;
  Knowledge knowledge = Knowledge::kOwn;
  std::string troop_type;
  // What a player at the table calls the piece ("battalion", "regiment"):
  // the word a seat that only sees it is told (rules/core/tell.hpp). Empty:
  // the kind's word ("brigade", "leader").
  std::string noun;
  std::string grade;  // empty where the seat cannot know it
  std::string formation;
  std::vector<RectView> bases;
  std::uint32_t base_count = 0;
  std::uint32_t dps = 0;
  std::vector<std::string> status;
  Vec2 position;  // middle of the front edge
  double facing_deg = 0;
  std::string command;
  std::string wing;
  std::uint32_t last_seen_turn = 0;
  std::string rank;         // leaders
  std::string attached_to;  // leaders
  std::vector<UnitCounter> counters;      // the ruleset's own numbers, as the seat knows them
  std::vector<UnitAttribute> attributes;  // the ruleset's own qualities, as the seat knows them

  friend bool operator==(const UnitView&, const UnitView&) = default;
  // Field by field: std::swap's three whole moves cost three times as much
  // (a refreshed view swaps each changed unit into its place, view_update.hpp).
  // A field added above must be added here (debug builds check every swap).
  friend void swap(UnitView& a, UnitView& b) noexcept {
    using std::swap;
    swap(a.id, b.id);
    swap(a.kind, b.kind);
    swap(a.side, b.side);
    swap(a.name, b.name);
    swap(a.knowledge, b.knowledge);
    swap(a.troop_type, b.troop_type);
    swap(a.noun, b.noun);
    swap(a.grade, b.grade);
    swap(a.formation, b.formation);
    swap(a.bases, b.bases);
    swap(a.base_count, b.base_count);
    swap(a.dps, b.dps);
    swap(a.status, b.status);
    swap(a.position, b.position);
    swap(a.facing_deg, b.facing_deg);
    swap(a.command, b.command);
    swap(a.wing, b.wing);
    swap(a.last_seen_turn, b.last_seen_turn);
    swap(a.rank, b.rank);
    swap(a.attached_to, b.attached_to);
    swap(a.counters, b.counters);
    swap(a.attributes, b.attributes);
  }
};

enum class TerrainKind : std::uint8_t {
  kHill, kWood, kTown, kMarsh, kRough, kStream, kRiver, kHedge, kWall, kDitch,
  kFortification, kFieldworks, kChevauxDeFrise, kRoad, kBridge, kFord,
};

struct TerrainView {
  std::string id;
  TerrainKind kind = TerrainKind::kRough;
  std::string name;
  std::vector<Vec2> outline;
  bool closed = false;
  double elevation = 0;
  bool steep = false;
  bool major = false;

  friend bool operator==(const TerrainView&, const TerrainView&) = default;
};

struct SideView {
  std::string id;
  std::string name;
  bool attacker = false;

  friend bool operator==(const SideView&, const SideView&) = default;
};

// Which state of a game a view was last built from, and with which vision
// setting: a ruleset's memo for its refresh_view (MalbrookGame keeps each
// unchanged piece's unit without describing it again when the view is of
// the state the game was resolved from, and refreshes the seats of a side
// from one of them). Not part of the view's value: views compare equal
// whatever their bases, and nothing is sent of it. Null: not known (a view
// built by hand, or decoded).
struct ViewBasis {
  std::shared_ptr<const void> state;
  bool side_shared_vision = false;  // ViewSettings::side_shared_vision it was built with (with `state`)

  friend bool operator==(const ViewBasis&, const ViewBasis&) { return true; }
};

struct View {
  std::string ruleset;
  std::string scenario;
  std::string title;
  std::string seat;
  std::string side;
  double table_width = 0;
  double table_depth = 0;
  std::string unit_name;  // "inch"
  std::uint32_t turn = 0;
  std::string phase;
  std::uint32_t turn_limit = 0;
  std::vector<SideView> sides;
  std::vector<TerrainView> terrain;
  std::vector<UnitView> units;
  ViewBasis basis;  // a memo, not compared (above)

  friend bool operator==(const View&, const View&) = default;
};

class Game {
 public:
  virtual ~Game() = default;

  virtual std::string_view ruleset() const = 0;
  virtual std::string_view scenario_name() const = 0;
  virtual std::string_view title() const = 0;
  virtual std::uint32_t turn() const = 0;
  virtual std::string phase() const = 0;

  // Every seat this game offers, the umpire's first.
  virtual std::vector<Seat> seats() const = 0;

  // The one path to what a seat may see. Nothing shown to a seat is built any
  // other way. An unknown seat id sees only the table and the terrain.
  virtual View view_for(std::string_view seat, const ViewSettings& settings) const = 0;
  // The same view built into `held`, the view last shown to this seat (of
  // any state of this game, or empty): afterwards `held` is exactly
  // view_for's, and `update` (rules/core/view_update.hpp) says what changed
  // in it. A ruleset builds it by the same path as view_for, so only the
  // cost differs: what is equal to what `held` has is neither copied nor
  // freed. Default (game.cpp): view_for, then update_view.
  virtual void refresh_view(std::string_view seat, const ViewSettings& settings, View& held,
                            ViewUpdate& update) const;

  virtual StateHash state_hash() const = 0;
  virtual std::unique_ptr<Game> clone() const = 0;
  // The same game with the game's options applied (before its first step).
  virtual std::unique_ptr<Game> with_options(const GameOptions& options) const;

  // ---- The engine (rules/core/decision.hpp). ----
  // Defaults (game.cpp) describe a game with no sequence of play yet: nothing
  // pending, every answer refused. A ruleset overrides all of them.

  // Steps resolved so far: the dice of the next resolution are keyed by it.
  virtual std::uint64_t step() const;
  // True once the game has ended (victory conditions or turn limit).
  virtual bool finished() const;
  // The decisions owed at this step, by every seat that owes one.
  virtual std::vector<Decision> pending() const;
  // Whether an answer is legal now; a reason a player can act on when not
  // (a template: tell_text, rules/core/tell.hpp). An answer naming a piece
  // its seat does not see is refused exactly as one naming an id that does
  // not exist. Never changes the game.
  virtual Verdict check(const Answer& answer) const;
  // Given an answer to every pending decision (defaults already applied by the
  // caller for missed deadlines) and the step's dice, the next state and the
  // events that happened (each seat is told its own copy: tell_event).
  // Rejects the whole step if any answer is illegal or answers collide; the
  // rejection names the decisions involved (Rejection::decisions).
  virtual Result<Resolution> resolve(const std::vector<Answer>& answers, Dice& dice) const;
  // Which of a step's events a seat may learn of (indices into `events`, in
  // order): the same visibility as view_for, judged on this, the resolved,
  // state. Public events reach everyone; the umpire learns of all. What a
  // seat is told of them is tell_event's (rules/core/tell.hpp), which also
  // leaves out an event of which the seat may read nothing.
  virtual std::vector<std::size_t> visible_events(const std::vector<Event>& events, std::string_view seat,
                                                  const ViewSettings& settings) const;

  // ---- The bot (rules/core/bot.hpp). ----
  // Candidate answers to `decision` for the seat whose view `seat_view` is,
  // best first, drawn with `rng`; the bot plays the first one check()
  // passes, else the default. Decided from the view and the decision alone,
  // never from the state. Default (game.cpp): one listed option at random.
  virtual std::vector<Answer> propose(const View& seat_view, const Decision& decision, BotRng& rng) const;

  // ---- The umpire (rules/core/edit.hpp). ----
  // The game with the umpire's edit made, or a Rejection with a reason the
  // umpire can act on (unknown unit, off the table, overlapping, out of
  // range, unknown kind). Never changes this game; dice play no part, so an
  // edit replays exactly from the log. Default (game.cpp): refused with
  // "edit_unsupported".
  virtual Result<std::unique_ptr<Game>> edit(const StateEdit& edit) const;

  // ---- Questions (rules/core/odds.hpp). ----
  // The exact odds of a proposed order as `seat` sees the table with these
  // view settings (only what view_for shows it); the umpire's seat gets the
  // odds as the unit's own seat sees them. A Rejection with a reason a player
  // can act on when the order could not be given ("not_yours", "unseen",
  // "out_of_arc", ...). Never changes the game; no dice. Default (game.cpp):
  // refused with "odds_unsupported".
  virtual Result<OddsAnswer> odds(std::string_view seat, const OddsQuestion& question,
                                  const ViewSettings& settings) const;

  // ---- Snapshots (loading fast; the log stays the record). ----
  // A self-contained encoding of this state except the seed (a snapshot is
  // derived data and never carries the secret). Byte-identical for equal states.
  // Defaults (game.cpp): snapshots are not supported by this ruleset (empty
  // bytes; from_snapshot refuses with "snapshot_unsupported").
  virtual std::vector<std::uint8_t> snapshot() const;
  // The game `bytes` (from snapshot()) encode, built on THIS game's seed; call it
  // on the game's initial state. Rejection (code "snapshot_damaged",
  // "snapshot_version", "snapshot_ruleset" or "snapshot_other_game") with a reason a
  // person can act on when the bytes are damaged/truncated, from another format
  // version, another ruleset, or another scenario. Never crashes, never reads out of bounds.
  virtual Result<std::unique_ptr<Game>> from_snapshot(std::span<const std::uint8_t> bytes) const;
};

}  // namespace galloper::rules
