// galloper-load against the real `galloper serve` on loopback: a small load
// run (200 spectators, 5 steps) passes with every result delivered, and the
// tool refuses what it must refuse.
#include <gtest/gtest.h>

#include <string>

#include "tests/integration/game_driver.hpp"

namespace galloper::testing {
namespace {

CommandResult load(const std::string& args, int timeout_s = 120) {
  return run_command(std::string(GALLOPER_LOAD_BINARY) + " " + args, timeout_s);
}

class LoadRun : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = make_temp_dir("load");
    // The server's defaults, limits included.
    server_.emplace(dir_);
    server_->start();
  }
  void TearDown() override {
    server_.reset();
    std::filesystem::remove_all(dir_);
  }
  std::string port_arg() const { return "--port " + std::to_string(server_->port()); }

  std::filesystem::path dir_;
  std::optional<ServerProcess> server_;
};

TEST_F(LoadRun, TwoHundredSpectatorsReceiveEveryResultOfFiveSteps) {
  // 200 spectators from 127.0.0.2-127.0.0.5 (64 each: the server's default
  // cap per address stays as it is).
  auto r = load(port_arg() + " --connections 200 --steps 5 --timeout 90");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("connected and joined 200 spectators"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("steps measured: 5 of 5; spectators: 200; results missed: 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("turn result to spectators, from the last lock's ack: count 1000,"), std::string::npos) << r.out;
  // A spectator is sent each step's StepResolved and nothing else of the
  // step (no SeatStatus, no per-seat notices; protocol.proto, SeatStatus).
  EXPECT_NE(r.out.find("frames each spectator received per step: 1.0\n"), std::string::npos) << r.out;
  // Spectator 0 checked each result's full decode: a spectator's view.
  EXPECT_NE(r.out.find("spectator 0 decoded 5 StepResolved in full"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("result: ok"), std::string::npos) << r.out;
}

TEST_F(LoadRun, ATargetTheRunMissesFailsIt) {
  // No delivery over a real socket takes under a nanosecond. The umpire
  // forces the steps here (the other way a step resolves).
  auto r = load(port_arg() + " --connections 20 --steps 2 --drive force --timeout 60 --p95-max-ms 0.000001");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("from UmpireDone: count 40,"), std::string::npos) << r.out;
  // A forced step sends spectators no "forced" or "defaulted" notices either.
  EXPECT_NE(r.out.find("frames each spectator received per step: 1.0\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("results missed: 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("exceeds --p95-max-ms"), std::string::npos) << r.out;
}

TEST_F(LoadRun, MoreSpectatorsPerAddressThanTheServerAllowsIsASetupFailureThatSaysWhy) {
  // The server admits 64 connections per address by default.
  auto r = load(port_arg() + " --connections 80 --per-source 80 --steps 1 --timeout 60");
  EXPECT_EQ(r.status, 3) << r.out;
  EXPECT_NE(r.out.find("could not join"), std::string::npos) << r.out;
  // Refused in the handshake (HTTP 429) or accepted and closed at once (1013), with the reason.
  EXPECT_TRUE(r.out.find("HTTP 429") != std::string::npos || r.out.find("(1013 ") != std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--max-connections-per-ip"), std::string::npos) << r.out;
}

TEST(LoadTool, RefusesEveryAddressButLoopbackBeforeConnecting) {
  for (const std::string host : {"10.0.0.1", "192.168.1.10", "8.8.8.8", "0.0.0.0", "::ffff:10.0.0.1", "2001:db8::1"}) {
    auto r = load("--host " + shell_quote(host) + " --port 8080 --connections 1 --steps 1", 20);
    EXPECT_EQ(r.status, 2) << host << ": " << r.out;
    EXPECT_NE(r.out.find("is not a loopback address"), std::string::npos) << host << ": " << r.out;
  }
  // Names are never looked up (only "localhost" is known).
  auto named = load("--host example.com --port 8080 --connections 1 --steps 1", 20);
  EXPECT_EQ(named.status, 2) << named.out;
  EXPECT_NE(named.out.find("not an IP address"), std::string::npos) << named.out;
}

TEST(LoadTool, HelpListsTheBounds) {
  auto r = load("--help", 20);
  EXPECT_EQ(r.status, 0) << r.out;
  for (const char* option : {"--connections", "--steps", "--timeout", "--p95-max-ms", "--per-source", "--host"}) {
    EXPECT_NE(r.out.find(option), std::string::npos) << option << "\n" << r.out;
  }
}

TEST(LoadTool, IPv6LoopbackNeedsEveryConnectionFromOneAddress) {
  auto r = load("--host ::1 --port 8080 --connections 100 --steps 1", 20);
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("--per-source 100"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace galloper::testing
