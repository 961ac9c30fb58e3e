#pragma once
// Test support: run a real executable the way a user or Claude Code does (stdin, environment,
// working directory) and capture what it prints and how it exits.

#include <string>
#include <utility>
#include <vector>

namespace fleet::test {

struct RunOptions {
  std::string stdin_data;
  std::vector<std::pair<std::string, std::string>> env;  // set in the child
  std::string cwd;                                       // "" keeps the current one
};

struct RunResult {
  int exit_code = -1;   // -1 when killed by a signal
  int term_signal = 0;  // the signal that killed it, 0 when it exited
  std::string out;
  std::string err;
};

// Runs argv[0] with argv. The child's environment is this process's minus every variable
// the suite reads (CLAUDE_*, FLEET_HOOKS_*, AUTOSKILLIT_*), plus `options.env`.
RunResult run_process(const std::vector<std::string>& argv, const RunOptions& options = {});

// Starts argv in the background with stdin/stdout/stderr on /dev/null; returns its pid.
int spawn_detached(const std::vector<std::string>& argv,
                   const std::vector<std::pair<std::string, std::string>>& env = {});

}  // namespace fleet::test
