#pragma once
// Running a shell command the way Claude Code runs a hook: /bin/sh -c COMMAND, JSON on
// stdin, stdout and stderr captured, killed (with its process group) after a timeout.

#include <chrono>
#include <string>
#include <vector>

namespace fleet {

struct CommandResult {
  int exit_code = -1;  // 128+N when killed by signal N
  bool timed_out = false;
  std::string out;
  std::string err;
};

// `env` holds "NAME=value" entries: the command's whole environment. Throws Error when the
// command cannot be started.
CommandResult run_shell_command(const std::string& command, const std::string& input,
                                const std::vector<std::string>& env,
                                std::chrono::milliseconds timeout);

}  // namespace fleet
