#pragma once
// `fleet-hooks check`'s reading of the switch-offs of an agent CLI (agent/hook_switches.h) in
// every file it reads: a setting that stops every hook, and a file that sets, for the hooks,
// PATH or a variable the suite reads — each a way for a repository (a pull request) to take the
// guard out of play while the wiring itself looks right.
// Failing: never throws; a file that is missing or unreadable holds no switch.

#include <string>
#include <string_view>
#include <vector>

#include "agent/agent_cli.h"
#include "base/finding.h"

namespace fleet {

// True when `name` is a variable whose value, set for the hooks by a file the repository
// controls, changes what the suite's hooks do: PATH (which resume-guard runs), HOME, TMPDIR and
// XDG_RUNTIME_DIR (where the caller handover is), FLEET_HOOKS_* and AUTOSKILLIT_* (the store,
// the kitchen), CLAUDE_PROJECT_DIR, `agent`'s project-dir and caller variables, and its own
// variables that stop or replace its hooks (HookSwitches::variables).
bool suite_variable(std::string_view name, const AgentCli& agent);

// The findings on `agent`'s switch-offs in `hook_files` (the hook files check reads, in order)
// and the files of agent.switches for `project_dir`: `<name>-hooks-disabled` and
// `hook-environment` (errors), each naming the file and the key.
// `config_home` is the CLI's configuration directory ("": its .env files there are not read).
std::vector<Finding> switch_off_findings(const AgentCli& agent, const std::string& project_dir,
                                         const std::vector<std::string>& hook_files,
                                         const std::string& config_home = "");

// The names a .env file's `text` sets (`NAME=value`, `export NAME=value`; comments and blank
// lines skipped), in order.
std::vector<std::string> env_file_names(std::string_view text);

}  // namespace fleet
