#pragma once
// The proof `fleet-hooks check` asks of a configured resume-guard hook: run its command as
// the agent CLI would, on a forged self-resume (a session resuming itself through the
// dispatch tool, which the guard denies whatever the store holds), with an empty temporary
// state directory, and see whether it blocks the call.
// Failing: nothing here throws; a command that cannot be run, or runs too long, is an
// outcome that did not block, with `detail` saying why.

#include <optional>
#include <string>

#include "agent/agent_cli.h"
#include "settings/hook_sources.h"

namespace fleet {

struct ForgeryOutcome {
  bool blocked = false;
  std::string detail;  // when not blocked
  // What the command printed when it blocked by exiting 2 with the suite's own fail-closed
  // message ("fleet-hooks: …", as the guarded command form and the plugin's bin/ selector
  // print when they cannot run resume-guard, which itself never exits 2): every call of the
  // tool is then blocked here, not guarded.
  std::optional<std::string> blocked_by_wrapper = std::nullopt;
};

// Runs `hook`'s command on a forged self-resume through `tool` (in `agent`'s MCP form and
// dialect, within the hook's timeout), for the project `project_dir`.
ForgeryOutcome run_forgery(const ConfiguredHook& hook, const std::string& tool,
                           const std::string& project_dir, const AgentCli& agent);

}  // namespace fleet
