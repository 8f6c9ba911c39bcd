#pragma once
// The offline commands of `galloper`: replay, backup, export, verify, odds. Each
// returns the process exit code and writes what it found to `out` (results)
// and `err` (problems running at all).
//
// Exit codes: 0 everything checked out; 1 a check failed (the output names the
// first bad log entry); 2 the command could not run (no store, unknown game,
// unreadable file); 3 (verify only) the seed is not revealed yet, so only the
// commitment could be read.
//
// replay, backup and export open the store read-only (StoreOptions::read_only):
// they never write to the database, and work while a server runs on it.
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "galloper/v1/export.pb.h"
#include "persistence/store.hpp"

namespace galloper::server::tools {

// `galloper replay --data DIR GAME_ID` (or every game with all = true):
// rebuilds each game from its log and checks every stored state hash.
int replay(const std::filesystem::path& data_dir, const std::string& game_id, bool all, std::ostream& out,
           std::ostream& err);

// `galloper backup --data DIR OUT.db`: a consistent copy (SQLite online
// backup) while the server carries on; the copy is integrity-checked.
int backup(const std::filesystem::path& data_dir, const std::filesystem::path& dest, std::ostream& out,
           std::ostream& err);

// `galloper export --data DIR GAME_ID OUT [--text]`: the game in one file.
int export_game(const std::filesystem::path& data_dir, const std::string& game_id,
                const std::filesystem::path& dest, bool text, std::ostream& out, std::ostream& err);

// `galloper verify FILE`: checks an exported game with no server or database.
int verify(const std::filesystem::path& file, std::ostream& out, std::ostream& err);

// `galloper odds combat`: the exact odds the rules engine computes
// (rules/malbrook/odds.hpp) for a close combat given by its numbers: each
// result band's probability for either side and the expected hits. Exit 2 on
// bad numbers.
struct CombatOddsArgs {
  int dice_a = 0;
  int dice_b = 0;
  int hit_on_a = 5;  // hits on this face or higher, 2-6
  int hit_on_b = 5;
};
int odds_combat(const CombatOddsArgs& args, std::ostream& out, std::ostream& err);

// `galloper odds fire`: one artillery shot. Direct fire (light, medium,
// heavy guns): each Results-table row's probability and the expected DPs and
// casualties; howitzers and mortars: where the indirect shot lands.
struct FireOddsArgs {
  std::string weight = "medium";  // light, medium, heavy, howitzer, mortar
  std::string range;              // close, effective, beyond (direct fire)
  int gun_dps = 0;
  std::string target = "new";     // new, same (target and range), same-target (another range)
  bool exposed = false;
  std::string cover = "none";     // none, fieldworks, fortifications
};
int odds_fire(const FireOddsArgs& args, std::ostream& out, std::ostream& err);

// The pieces, for tests.
v1::GameExport make_export(const persistence::GameRecord& game, const std::vector<persistence::StepRecord>& log);

struct Verdict {
  enum class Outcome { kOk, kSeedNotRevealed, kFailed } outcome = Outcome::kFailed;
  std::string message;  // one line: "ok: ...", "seed not revealed yet: ...", or what failed
};
Verdict verify_export(const v1::GameExport& exported);

// Binary protobuf, or protobuf text format (as `export --text` writes it).
bool parse_export(const std::string& bytes, v1::GameExport& out);

}  // namespace galloper::server::tools
