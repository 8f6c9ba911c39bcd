// The galloper command line: scenario check, version, odds, --help.
#include <array>
#include <cstdio>
#include <filesystem>
#include <unistd.h>

#include "tests/integration/harness.hpp"

namespace galloper::testing {
namespace {

struct Run {
  int status = -1;
  std::string out;
};

Run run(const std::string& args) {
  Run r;
  const std::string cmd = std::string(GALLOPER_BINARY) + " " + args + " 2>&1";
  std::FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), buf.size(), p) != nullptr) r.out += buf.data();
  const int st = ::pclose(p);
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

TEST(Cli, BundledScenariosCheckOk) {
  for (const char* name : {"demo", "blenheim"}) {
    auto r = run(std::string("scenario check rules/malbrook/scenarios/") + name + ".textproto");
    EXPECT_EQ(r.status, 0) << name << ": " << r.out;
    EXPECT_EQ(r.out, "ok\n");
  }
}

TEST(Cli, ScenarioProblemsArePrintedWithFileLineColumnAndExitNonZero) {
  auto dir = make_temp_dir("cli");
  const auto file = (dir / "bad.textproto").string();
  std::ofstream(file) << "name: \"bad\"\nruleset: \"malbrook\"\ntable_width: -5\n";
  auto r = run("scenario check " + file);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find(file + ":3:"), std::string::npos) << r.out;

  std::ofstream(file) << "name: \"bad\"\ntable_width: {\n";
  auto syntax = run("scenario check " + file);
  EXPECT_EQ(syntax.status, 1);
  EXPECT_NE(syntax.out.find(file + ":2:"), std::string::npos) << syntax.out;
  std::filesystem::remove_all(dir);
}

TEST(Cli, UnreadableScenarioFileIsExitTwo) {
  auto r = run("scenario check /nonexistent/nothing.textproto");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("cannot read"), std::string::npos);
}

TEST(Cli, VersionAndHelp) {
  auto v = run("version");
  EXPECT_EQ(v.status, 0);
  EXPECT_NE(v.out.find("galloper "), std::string::npos);
  EXPECT_NE(v.out.find("protocol 1."), std::string::npos);
  // The build's allocator, and that it is the one answering malloc (a
  // library linked after libc, or dropped by --as-needed, would not be).
#if GALLOPER_EXPECT_TCMALLOC
  EXPECT_NE(v.out.find("allocator: tcmalloc "), std::string::npos) << v.out;
  EXPECT_EQ(v.out.find("glibc"), std::string::npos) << v.out;
#else
  EXPECT_NE(v.out.find("allocator: glibc malloc"), std::string::npos) << v.out;
#endif
  for (const char* sub : {"--help", "serve --help", "scenario --help", "scenario check --help", "version --help"}) {
    auto h = run(sub);
    EXPECT_EQ(h.status, 0) << sub;
    EXPECT_NE(h.out.find("Usage"), std::string::npos) << sub << ": " << h.out;
  }
}

TEST(Cli, BadListenAddressIsRefused) {
  auto r = run("serve --listen nonsense --data /tmp");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.out.find("HOST:PORT"), std::string::npos) << r.out;
}

TEST(Cli, BadWebhookAllowRangeIsRefusedBeforeAnythingIsOpened) {
  const auto dir = std::filesystem::temp_directory_path() / ("galloper-allow-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  auto r = run("serve --listen 127.0.0.1:0 --webhook-allow 10.0.0.0/33 --data " + dir.string());
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("--webhook-allow: \"10.0.0.0/33\": the prefix length must be 0 to 32"), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(dir)) << "no store was created";
  EXPECT_NE(run("serve --help").out.find("--webhook-allow"), std::string::npos);
}

// `galloper odds`: the engine's exact odds. The expected fractions were
// worked out apart from the engine (binomial hits, the Combat Results bands):
// A 5 dice hitting on 5-6 against B 4 dice hitting on 6.
TEST(Cli, OddsCombatPrintsTheExactBandProbabilities) {
  auto r = run("odds combat --dice-a 5 --dice-b 4 --hit-on-a 5 --hit-on-b 6");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("Expected hits: A 5/3 (1.666667), B 2/3 (0.666667)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("breakthrough: A 0 (0.000000), B 0 (0.000000)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("victory: A 7375/314928 (0.023418), B 2/19683 (0.000102)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("success: A 16945/52488 (0.322836), B 50/2187 (0.022862)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("inconclusive: A 66217/104976 (0.630782), B 66217/104976 (0.630782)"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("driven back: A 452/19683 (0.022964), B 9035/26244 (0.344269)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("defeat: A 0 (0.000000), B 625/314928 (0.001985)"), std::string::npos) << r.out;
}

// A medium gun at close range on a new target: modifier -1, so faces 3-4
// give 1 DP, 5-6 two DPs; nothing reaches 6+.
TEST(Cli, OddsFirePrintsTheResultsTableRows) {
  auto r = run("odds fire --weight medium --range close");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("modifier -1 (-1 new target)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("no effect: 1/3 (0.333333)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 DP: 1/3 (0.333333)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Expected DPs: 1 (1.000000), expected casualties: 0 (0.000000)"), std::string::npos) << r.out;
  auto indirect = run("odds fire --weight howitzer");
  ASSERT_EQ(indirect.status, 0) << indirect.out;
  EXPECT_NE(indirect.out.find("lands on the aim point 1/3"), std::string::npos) << indirect.out;
}

TEST(Cli, OddsBadInputIsExitTwoWithAReason) {
  auto hit = run("odds combat --dice-a 5 --dice-b 4 --hit-on-a 9");
  EXPECT_EQ(hit.status, 2) << hit.out;
  EXPECT_NE(hit.out.find("--hit-on-a must be 2-6"), std::string::npos) << hit.out;
  auto missing = run("odds combat --dice-a 5");
  EXPECT_EQ(missing.status, 2) << missing.out;
  EXPECT_NE(missing.out.find("--dice-b"), std::string::npos) << missing.out;
  auto word = run("odds combat --dice-a five --dice-b 4");
  EXPECT_EQ(word.status, 2) << word.out;
  auto range = run("odds fire --weight medium --range far");
  EXPECT_EQ(range.status, 2) << range.out;
  EXPECT_NE(range.out.find("--range must be close, effective or beyond"), std::string::npos) << range.out;
  for (const char* sub : {"odds --help", "odds combat --help", "odds fire --help"}) {
    auto h = run(sub);
    EXPECT_EQ(h.status, 0) << sub;
    EXPECT_NE(h.out.find("Usage"), std::string::npos) << sub << ": " << h.out;
  }
}

}  // namespace
}  // namespace galloper::testing
