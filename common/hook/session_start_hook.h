#pragma once
// provenance-writer's SessionStart mode: records the worker a launcher started when only the
// agent CLI knows the session's id (Codex chooses its own), by claiming the pending launch
// the launcher named in $FLEET_HOOKS_PENDING_LAUNCH (store/pending_launch.h). The hook runs
// before the session's first model request, so the worker is recorded before its first tool
// call.
// Failing: nothing here throws; every failure is the line it returns for stderr (a
// SessionStart hook never blocks: the launcher sees the launch unclaimed and records it late).

#include <optional>
#include <string>

#include "agent/agent_cli.h"
#include "hook/hook_protocol.h"
#include "store/jsonl_append.h"

namespace fleet {

struct SessionStartHookOptions {
  AppendOptions append;
  const AgentCli* agent = nullptr;  // --agent: whose hook input this is
};

// Claims the pending launch named in the environment for the hook input's session_id, when
// the input is `options.agent`'s session-start event. Nothing to do (no variable set, the
// launch claimed before) is silent. Returns the line for stderr when there is something to
// say, nullopt otherwise.
std::optional<std::string> run_session_start_hook(const BoundedRead& input,
                                                  const SessionStartHookOptions& options);

}  // namespace fleet
