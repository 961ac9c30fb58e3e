#pragma once
// Recording a launched worker whose CLI picks its own session id (Codex) before it can make
// its first tool call: the launch leaves the record in a pending file named to the agent in
// $FLEET_HOOKS_PENDING_LAUNCH (store/pending_launch.h), the session's SessionStart hook
// (`provenance-writer session-start`) claims it, and once those hooks have run — or the agent
// has exited — the launch settles it: when no hook claimed it, the launch records the
// captured id itself, late, and says how to wire the hook (doc/launch-wrapper.md).
// Failing: a store that refuses the record throws Error (store/pending_launch.h).

#include <optional>
#include <string>

#include "agent/agent_profile.h"
#include "store/jsonl_append.h"

namespace fleet {

struct SettledLaunch {
  std::string session_id;              // the recorded session, "" when none is known
  bool recorded_late = false;          // the launch recorded it: no hook claimed it
  std::optional<std::string> warning;  // for a person, when the hook did not record it
};

// Settles the pending launch at `pending_path` of a worker of `agent` whose id is
// `captured_id` ("" when it was never seen).
SettledLaunch settle_pending_launch(const std::string& pending_path, const std::string& captured_id,
                                    const AgentProfile& agent, const AppendOptions& options);

}  // namespace fleet
