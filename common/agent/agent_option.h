#pragma once
// The `--agent claude|codex|gemini` option of the hook programs: which agent CLI's hook input
// they read and whose dialect they answer in (agent_cli.h). Named explicitly on the command
// line that install writes, never guessed from the input.
// Failing: an unknown name is a CLI11 validation error (a usage error of the program).

#include <CLI/CLI.hpp>

#include "agent/agent_cli.h"

namespace fleet {

// Adds --agent NAME to `app`; parsing it points `agent` at that CLI's table (left as it is,
// claude_code() by default, when the option is not given).
CLI::Option* add_agent_option(CLI::App& app, const AgentCli*& agent);

}  // namespace fleet
