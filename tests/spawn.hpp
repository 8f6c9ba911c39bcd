#pragma once
// Starts a program as a child process with its stdout and stderr appended to
// a log file: how the integration tests, the crash harness and the startup
// benchmark run `galloper serve`.
#include <sys/types.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace galloper::testing {

// The child's pid, or -1 if it could not be forked. args[0] is the program.
inline pid_t spawn_logged(std::vector<std::string> args, const std::filesystem::path& log_file) {
  std::fflush(nullptr);  // or the child inherits and re-flushes our buffered output
  const pid_t pid = ::fork();
  if (pid != 0) return pid;
  std::FILE* log = std::freopen(log_file.c_str(), "a", stdout);
  (void)log;
  ::dup2(::fileno(stdout), 2);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  ::execv(argv[0], argv.data());
  std::_Exit(127);
}

}  // namespace galloper::testing
