#include "server/src/tools.hpp"

#include <google/protobuf/text_format.h>

#include <fstream>
#include <future>
#include <sstream>

#include "persistence/sqlite.hpp"
#include "server/src/log_check.hpp"
#include "server/src/tokens.hpp"
#include "server/src/version.hpp"

namespace galloper::server::tools {

namespace fs = std::filesystem;
using persistence::GameRecord;
using persistence::Status;
using persistence::StepRecord;
using persistence::Store;

namespace {

constexpr std::uint32_t kExportFormat = 1;

fs::path store_file(const fs::path& data_dir) { return data_dir / "galloper.db"; }

// Read-only: the tools never write to a store, and may run beside a server.
std::unique_ptr<Store> open_store(const fs::path& data_dir, bool integrity_check, std::ostream& err) {
  persistence::StoreOptions options;
  options.read_only = true;
  options.run_integrity_check = integrity_check;
  auto opened = persistence::open_sqlite_store(store_file(data_dir), options);
  if (!opened.store) err << "cannot open the game store: " << opened.error->message << "\n";
  return std::move(opened.store);
}

// The store answers on its own threads; the tools just wait.
template <class T>
struct Answer {
  T value{};
  Status status;
};

Answer<std::optional<GameRecord>> load_game(Store& store, const std::string& id) {
  std::promise<Answer<std::optional<GameRecord>>> p;
  store.load_game(id, [&p](std::optional<GameRecord> g, Status s) { p.set_value({std::move(g), std::move(s)}); });
  return p.get_future().get();
}

Answer<std::vector<GameRecord>> list_games(Store& store) {
  std::promise<Answer<std::vector<GameRecord>>> p;
  store.list_games([&p](std::vector<GameRecord> g, Status s) { p.set_value({std::move(g), std::move(s)}); });
  return p.get_future().get();
}

Answer<std::vector<StepRecord>> load_steps(Store& store, const std::string& id) {
  std::promise<Answer<std::vector<StepRecord>>> p;
  store.load_steps(id, 0, [&p](std::vector<StepRecord> l, Status s) { p.set_value({std::move(l), std::move(s)}); });
  return p.get_future().get();
}

std::string describe(const LogCheck& check) {
  if (check.ok()) {
    return "ok: " + std::to_string(check.steps_resolved) + " steps, final hash " + hash_hex(check.final_hash) + " (" +
           std::to_string(check.entries) + " log entries)";
  }
  return "FAILED: " + *check.error;
}

// Writes `bytes` to `dest` so that `dest` is either absent or complete.
bool write_file_atomically(const fs::path& dest, const std::string& bytes, std::ostream& err) {
  fs::path tmp = dest;
  tmp += ".partial";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    f.flush();
    if (!f) {
      err << "cannot write " << tmp.string() << "\n";
      return false;
    }
  }
  std::error_code ec;
  fs::rename(tmp, dest, ec);
  if (ec) {
    err << "cannot rename " << tmp.string() << " to " << dest.string() << ": " << ec.message() << "\n";
    fs::remove(tmp, ec);
    return false;
  }
  return true;
}

}  // namespace

int replay(const fs::path& data_dir, const std::string& game_id, bool all, std::ostream& out, std::ostream& err) {
  auto store = open_store(data_dir, true, err);
  if (!store) return 2;
  std::vector<GameRecord> games;
  if (all) {
    auto listed = list_games(*store);
    if (!listed.status.ok()) {
      err << "cannot list the games: " << listed.status.error->message << "\n";
      return 2;
    }
    games = std::move(listed.value);
  } else {
    auto loaded = load_game(*store, game_id);
    if (!loaded.status.ok()) {
      err << "cannot read game " << game_id << ": " << loaded.status.error->message << "\n";
      return 2;
    }
    if (!loaded.value) {
      err << "there is no game " << game_id << " in " << store_file(data_dir).string() << "\n";
      return 2;
    }
    games.push_back(std::move(*loaded.value));
  }

  std::size_t failed = 0;
  for (const auto& game : games) {
    auto log = load_steps(*store, game.id);
    LogCheck check;
    if (!log.status.ok()) {
      check.error = "cannot read its log: " + log.status.error->message;
    } else {
      check = check_game(game, log.value);
    }
    if (!check.ok()) ++failed;
    if (all) out << game.id << ": ";
    out << describe(check) << "\n";
  }
  if (all) out << games.size() << " games: " << games.size() - failed << " ok, " << failed << " failed\n";
  return failed == 0 ? 0 : 1;
}

int backup(const fs::path& data_dir, const fs::path& dest, std::ostream& out, std::ostream& err) {
  // No integrity check of the live file (it would hold a read transaction over
  // the whole database for as long as it runs); the copy is checked instead.
  auto store = open_store(data_dir, false, err);
  if (!store) return 2;
  std::promise<Status> p;
  store->backup_to(dest, [&p](Status s) { p.set_value(std::move(s)); });
  const Status status = p.get_future().get();
  store->close();
  if (!status.ok()) {
    err << "backup failed: " << status.error->message << "\n";
    return 1;
  }
  try {
    persistence::sqlite::Database copy(dest, persistence::sqlite::OpenFlags::kReadOnly);
    const auto problems = copy.pragma_rows("integrity_check(20)");
    if (problems.size() != 1 || problems.front() != "ok") {
      err << "the backup " << dest.string() << " fails its integrity check:\n";
      for (const auto& line : problems) err << "  " << line << "\n";
      return 1;
    }
  } catch (const persistence::sqlite::Error& e) {
    err << "cannot check the backup " << dest.string() << ": " << e.what() << "\n";
    return 1;
  }
  std::error_code ec;
  out << "backup written to " << dest.string() << " (" << fs::file_size(dest, ec) << " bytes, integrity_check ok)\n";
  return 0;
}

v1::GameExport make_export(const GameRecord& game, const std::vector<StepRecord>& log) {
  v1::GameExport e;
  e.set_format_version(kExportFormat);
  e.set_game_id(game.id);
  e.set_title(game.title);
  e.set_ruleset(game.ruleset);
  e.set_scenario_name(game.scenario_name);
  e.set_scenario_text(game.scenario_text);
  e.set_settings(game.settings);
  e.set_seed_commitment(game.seed_commitment);
  // The seed decides every die still to be rolled: secret until the end.
  if (game.ended) e.set_seed(std::string(game.seed.begin(), game.seed.end()));
  e.set_ended(game.ended);
  e.set_created_unix(game.created_unix);
  e.set_exported_by("galloper " + std::string(kServerVersion));
  for (const auto& step : log) {
    auto* entry = e.add_log();
    entry->set_seq(step.seq);
    entry->set_kind(step.kind);
    entry->set_payload(std::string(step.payload.begin(), step.payload.end()));
    entry->set_state_hash(step.state_hash);
    entry->set_created_unix(step.created_unix);
    entry->set_superseded(step.superseded);
  }
  return e;
}

int export_game(const fs::path& data_dir, const std::string& game_id, const fs::path& dest, bool text,
                std::ostream& out, std::ostream& err) {
  auto store = open_store(data_dir, false, err);
  if (!store) return 2;
  auto game = load_game(*store, game_id);
  if (!game.status.ok() || !game.value) {
    err << (game.status.ok() ? "there is no game " + game_id + " in " + store_file(data_dir).string()
                             : "cannot read game " + game_id + ": " + game.status.error->message)
        << "\n";
    return 2;
  }
  auto log = load_steps(*store, game_id);
  if (!log.status.ok()) {
    err << "cannot read the log of game " << game_id << ": " << log.status.error->message << "\n";
    return 2;
  }
  const v1::GameExport e = make_export(*game.value, log.value);
  std::string bytes;
  if (text) {
    bytes = "# galloper game export: protobuf text format of galloper.v1.GameExport (proto/galloper/v1/export.proto)\n";
    std::string body;
    google::protobuf::TextFormat::PrintToString(e, &body);
    bytes += body;
  } else {
    e.SerializeToString(&bytes);
  }
  if (!write_file_atomically(dest, bytes, err)) return 2;
  out << "exported game " << game_id << " (" << log.value.size() << " log entries) to " << dest.string() << "\n";
  if (!game.value->ended) {
    err << "note: game " << game_id << " has not ended, so the file holds the seed's commitment but not the seed;"
        << " it does hold every seat's answers so far: keep it from the players until the game is over\n";
  }
  return 0;
}

bool parse_export(const std::string& bytes, v1::GameExport& out) {
  // Binary first. A text export starts with '#', which is no valid binary
  // field, and a binary export is never valid text.
  if (out.ParseFromString(bytes) && out.format_version() != 0) return true;
  out.Clear();
  return google::protobuf::TextFormat::ParseFromString(bytes, &out) && out.format_version() != 0;
}

Verdict verify_export(const v1::GameExport& e) {
  using Outcome = Verdict::Outcome;
  if (e.format_version() != kExportFormat) {
    return {Outcome::kFailed, "unknown export format version " + std::to_string(e.format_version()) +
                                  " (this build reads version " + std::to_string(kExportFormat) + ")"};
  }
  if (e.seed().empty()) {
    return {Outcome::kSeedNotRevealed, "seed not revealed yet: commitment only (" + e.seed_commitment() + "; " +
                                           std::to_string(e.log_size()) +
                                           " log entries, not replayed); verify again once the game has ended"};
  }
  const std::vector<std::uint8_t> seed_bytes(e.seed().begin(), e.seed().end());
  const auto seed = seed_of(seed_bytes);
  if (!seed) {
    return {Outcome::kFailed, "the seed is " + std::to_string(seed_bytes.size()) + " bytes, not 32"};
  }
  const std::string commitment = seed_commitment(seed_bytes, e.game_id());
  if (!constant_time_equal(commitment, e.seed_commitment())) {
    return {Outcome::kFailed, "the seed does not match its commitment: SHA-256(seed || game id) is " + commitment +
                                  ", the commitment published at the start is " + e.seed_commitment()};
  }
  auto initial = initial_game(e.scenario_text(), e.settings(), *seed);
  if (auto* why = std::get_if<std::string>(&initial)) return {Outcome::kFailed, *why};
  std::vector<StepRecord> log;
  log.reserve(static_cast<std::size_t>(e.log_size()));
  for (const auto& entry : e.log()) {
    StepRecord r;
    r.game_id = e.game_id();
    r.seq = entry.seq();
    r.kind = entry.kind();
    r.payload.assign(entry.payload().begin(), entry.payload().end());
    r.state_hash = entry.state_hash();
    r.created_unix = entry.created_unix();
    r.superseded = entry.superseded();
    log.push_back(std::move(r));
  }
  const LogCheck check = check_log(*std::get<std::unique_ptr<rules::Game>>(initial), *seed, log);
  if (!check.ok()) return {Outcome::kFailed, *check.error};
  return {Outcome::kOk, "ok: " + std::to_string(check.steps_resolved) + " steps, final hash " +
                            hash_hex(check.final_hash) + " (" + std::to_string(check.entries) +
                            " log entries); the seed matches its commitment and every roll replays"};
}

int verify(const fs::path& file, std::ostream& out, std::ostream& err) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    err << file.string() << ": cannot read the file\n";
    return 2;
  }
  std::ostringstream bytes;
  bytes << in.rdbuf();
  v1::GameExport e;
  if (!parse_export(bytes.str(), e)) {
    err << file.string() << ": not a galloper game export (neither binary nor text galloper.v1.GameExport)\n";
    return 2;
  }
  const Verdict v = verify_export(e);
  out << "game " << e.game_id() << ": " << v.message << "\n";
  switch (v.outcome) {
    case Verdict::Outcome::kOk: return 0;
    case Verdict::Outcome::kSeedNotRevealed: return 3;
    case Verdict::Outcome::kFailed: return 1;
  }
  return 1;
}

}  // namespace galloper::server::tools
