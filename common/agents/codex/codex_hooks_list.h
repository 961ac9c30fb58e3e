#pragma once
// What Codex itself says of a project's hooks: `codex app-server` (JSON lines on its stdin and
// stdout: initialize, initialized, then hooks/list with the project as its cwd) as codex-cli
// 0.169.0 answers it (doc/codex.md, "Trust"): each hook it loads, with its trust key, current
// hash and trust status, and the errors it met loading its configuration (a config.toml it
// cannot load is one). The project's hooks are listed only when the project is trusted.
// Failing: codex_hooks_list returns a Result (Codex cannot be started, exits or times out
// before it answers, or answers an error); codex_reported_findings turns that into a warning.

#include <chrono>
#include <string>
#include <vector>

#include "base/finding.h"
#include "base/result.h"

namespace fleet {

struct CodexListedHook {
  std::string key;    // "<hooks file>:<event label>:<group>:<entry>"
  std::string event;  // as hooks name it: "PreToolUse"
  std::string command;
  std::string current_hash;  // "sha256:<hex>"
  std::string trust_status;  // "trusted", "untrusted", "modified"
  bool enabled = true;
};

struct CodexHookList {
  std::vector<CodexListedHook> hooks;
  std::vector<std::string> errors;  // Codex's own messages
};

// Runs `program` app-server with the environment `env` ("NAME=value": CODEX_HOME, HOME) and
// asks it for the hooks of `project_dir` (a resolved path: the working directory a session
// there has); gives up after `timeout`. The server is stopped before this returns.
Result<CodexHookList> codex_hooks_list(const std::string& program, const std::string& project_dir,
                                       const std::vector<std::string>& env,
                                       std::chrono::milliseconds timeout);

// `fleet-hooks check --agent codex` where `codex` is on PATH: what Codex reports for
// `project_dir`, whatever the suite's own reading of config.toml says. Errors:
// codex-config-error (Codex cannot load its configuration: always), codex-reports-untrusted
// (only when `own_check_passed`: a suite hook Codex lists is not trusted or is turned off, or
// it lists none); warning: codex-not-asked (no answer). Nothing when codex is not on PATH.
std::vector<Finding> codex_reported_findings(const std::string& project_dir, bool own_check_passed);

}  // namespace fleet
