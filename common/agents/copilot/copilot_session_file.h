#pragma once
// Where GitHub Copilot CLI keeps a session's events (its AgentProfile points at this).
// Failing: nothing fails; an empty id has no file ("").

#include <string>

namespace fleet {

// GitHub Copilot CLI: $COPILOT_HOME (else $HOME/.copilot) /session-state/<session_id>/
// events.jsonl (1.0.102), whatever the working directory. Always a path for a non-empty id:
// the id is the launch's (--session-id) or the one resumed.
std::string copilot_session_file(const std::string& session_id, const std::string& cwd);

}  // namespace fleet
