#include "server/src/tools/tools.hpp"

#include <google/protobuf/text_format.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <future>
#include <sstream>

#include "persistence/sqlite.hpp"
#include "rules/malbrook/odds.hpp"
#include "server/src/tools/log_check.hpp"
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

// ---- odds ----

namespace {

namespace mb = rules::malbrook;

std::string fixed(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6f", v);
  return buf;
}

std::string hits_on(int hit_on) { return hit_on >= 6 ? "6" : std::to_string(hit_on) + "-6"; }

// "5/36 (0.138889)".
std::string prob(mb::Fraction f) { return f.str() + " (" + fixed(f.value()) + ")"; }

}  // namespace

int odds_combat(const CombatOddsArgs& a, std::ostream& out, std::ostream& err) {
  constexpr int kMaxDice = 200;
  for (const auto& [name, v] : {std::pair{"--dice-a", a.dice_a}, std::pair{"--dice-b", a.dice_b}}) {
    if (v < 0 || v > kMaxDice) {
      err << "odds combat: " << name << " must be 0-" << kMaxDice << " (got " << v << ")\n";
      return 2;
    }
  }
  for (const auto& [name, v] : {std::pair{"--hit-on-a", a.hit_on_a}, std::pair{"--hit-on-b", a.hit_on_b}}) {
    if (v < 2 || v > 6) {
      err << "odds combat: " << name << " must be 2-6, the lowest face that hits (got " << v << ")\n";
      return 2;
    }
  }
  const mb::CombatOdds o = mb::combat_odds(a.dice_a, a.hit_on_a, a.dice_b, a.hit_on_b);
  const bool exact = !o.exact.empty();
  out << "Combat: side A " << o.dice_a << " dice hitting on " << hits_on(o.hit_on_a) << ", side B " << o.dice_b
      << " dice hitting on " << hits_on(o.hit_on_b) << "\n";
  const mb::Fraction hits_a(static_cast<std::int64_t>(o.dice_a) * (7 - o.hit_on_a), 6);
  const mb::Fraction hits_b(static_cast<std::int64_t>(o.dice_b) * (7 - o.hit_on_b), 6);
  out << "Expected hits: A " << prob(hits_a) << ", B " << prob(hits_b) << "\n";
  // B's band for a difference d (A's hits minus B's) is A's band for -d.
  std::array<mb::Fraction, mb::kCombatBandCount> band_b_exact{};
  if (exact) {
    for (std::size_t i = 0; i < o.exact.size(); ++i) {
      const int d = static_cast<int>(i) + o.min_difference;
      band_b_exact[static_cast<std::size_t>(mb::combat_band(-d))] += o.exact[i];
    }
  }
  out << "Result bands (A's hits minus B's, Combat Results table):\n";
  for (int b = 0; b < mb::kCombatBandCount; ++b) {
    const auto band = static_cast<mb::CombatBand>(b);
    const auto i = static_cast<std::size_t>(b);
    out << "  " << mb::to_string(band) << ": A "
        << (exact ? prob(o.band_a_exact[i]) : fixed(o.band_a[i])) << ", B "
        << (exact ? prob(band_b_exact[i]) : fixed(o.band_b(band))) << "\n";
  }
  if (!exact) out << "(more than " << mb::kExactCombatDice << " dice in all: probabilities as decimals only)\n";
  return 0;
}

int odds_fire(const FireOddsArgs& a, std::ostream& out, std::ostream& err) {
  const std::pair<const char*, mb::GunWeight> weights[] = {{"light", mb::GunWeight::kLight},
                                                           {"medium", mb::GunWeight::kMedium},
                                                           {"heavy", mb::GunWeight::kHeavy},
                                                           {"howitzer", mb::GunWeight::kHowitzer},
                                                           {"mortar", mb::GunWeight::kMortar}};
  const auto* w = std::find_if(std::begin(weights), std::end(weights), [&](const auto& p) { return a.weight == p.first; });
  if (w == std::end(weights)) {
    err << "odds fire: --weight must be light, medium, heavy, howitzer or mortar (got '" << a.weight << "')\n";
    return 2;
  }
  if (mb::fires_indirect(w->second)) {
    const mb::IndirectOdds o = mb::indirect_fire_odds();
    out << "Indirect fire (" << a.weight << "): lands on the aim point " << prob(o.on_target) << "\n";
    for (std::size_t k = 0; k < o.off_by.size(); ++k) {
      char buf[16];
      std::snprintf(buf, sizeof buf, "%.1f\"", static_cast<double>(k + 1) * mb::kScatterPerPip);
      out << "  off by " << buf << ": " << prob(o.off_by[k]) << "\n";
    }
    out << "  bearing when off: each whole degree " << prob(o.bearing_each) << "\n";
    return 0;
  }
  mb::ProposedShot shot;
  shot.weight = w->second;
  if (a.range == "close") {
    shot.band = mb::RangeBand::kClose;
  } else if (a.range == "effective") {
    shot.band = mb::RangeBand::kEffective;
  } else if (a.range == "beyond") {
    shot.band = mb::RangeBand::kBeyond;
  } else if (a.range.empty()) {
    err << "odds fire: direct fire needs --range (close, effective or beyond)\n";
    return 2;
  } else {
    err << "odds fire: --range must be close, effective or beyond (got '" << a.range << "')\n";
    return 2;
  }
  if (a.gun_dps < 0 || a.gun_dps > static_cast<int>(mb::kMaxDps)) {
    err << "odds fire: --gun-dps must be 0-" << mb::kMaxDps << " (got " << a.gun_dps << ")\n";
    return 2;
  }
  shot.gun_dps = static_cast<std::uint32_t>(a.gun_dps);
  if (a.target == "new") {
    shot.target_history = -1;
  } else if (a.target == "same") {
    shot.target_history = 1;
  } else if (a.target == "same-target") {
    shot.target_history = 0;
  } else {
    err << "odds fire: --target must be new, same or same-target (got '" << a.target << "')\n";
    return 2;
  }
  shot.exposed = a.exposed;
  if (a.cover == "none") {
    shot.cover = 0;
  } else if (a.cover == "fieldworks") {
    shot.cover = -1;
  } else if (a.cover == "fortifications") {
    shot.cover = -2;
  } else {
    err << "odds fire: --cover must be none, fieldworks or fortifications (got '" << a.cover << "')\n";
    return 2;
  }
  const mb::FireModifiers m = mb::fire_modifiers(shot);
  const mb::ShotOdds o = mb::direct_fire_odds(m.total(), shot.band);
  const std::string why = m.describe();
  out << "Direct fire: " << mb::to_string(w->second) << " at " << mb::to_string(shot.band) << " range, modifier "
      << (m.total() > 0 ? "+" : "") << m.total() << (why.empty() ? "" : " (" + why.substr(1) + ")") << "\n";
  for (int r = 0; r < 4; ++r) {
    const auto row = static_cast<mb::ShotResult>(r);
    out << "  " << mb::to_string(row) << ": " << prob(o.of(row)) << "\n";
  }
  out << "Expected DPs: " << prob(o.expected_dps()) << ", expected casualties: " << prob(o.expected_casualties())
      << "\n";
  return 0;
}

}  // namespace galloper::server::tools
