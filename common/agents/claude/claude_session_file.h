#pragma once
// Where Claude Code keeps a session's file (its transcript), found from the session id and the
// working directory the way the CLI itself names it (its AgentProfile points at this).
// Failing: a file that cannot be found (yet) is ""; directories that cannot be read count as
// empty.

#include <string>

namespace fleet {

// Claude Code: $CLAUDE_CONFIG_DIR (else $HOME/.claude) /projects/<claude_project_folder(cwd)>/
// <session_id>.jsonl (claude_project_folder.h). Always a path: Claude Code names it in advance.
std::string claude_session_file(const std::string& session_id, const std::string& cwd);

}  // namespace fleet
