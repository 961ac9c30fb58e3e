#pragma once
// OpenCode's hook table: what the hook programs and fleet-hooks install / uninstall / check
// need of it (agent/agent_cli.h says what each field means; agents/agents.h lists it).

#include "agent/agent_cli.h"

namespace fleet {

extern const AgentCli kOpenCodeCli;

}  // namespace fleet
