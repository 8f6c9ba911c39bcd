// The galloper command line: scenario check, version, --help.
#include <array>
#include <cstdio>

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

}  // namespace
}  // namespace galloper::testing
