#pragma once
// Where each agent CLI keeps a session's file (its transcript), found from the session id and
// the working directory the way the CLI itself names it (agent_profile.h points at these).
// Failing: a file that cannot be found (yet) is ""; directories that cannot be read count as
// empty.

#include <string>

namespace fleet {

// Claude Code: $CLAUDE_CONFIG_DIR (else $HOME/.claude) /projects/<claude_project_folder(cwd)>/
// <session_id>.jsonl (claude_project_folder.h). Always a path: Claude Code names it in advance.
std::string claude_session_file(const std::string& session_id, const std::string& cwd);

// Codex CLI: $CODEX_HOME (else $HOME/.codex) /sessions/YYYY/MM/DD/rollout-<time>-<session_id>
// .jsonl, the date and time the session started (so found by its id once it exists).
std::string codex_session_file(const std::string& session_id, const std::string& cwd);

// Gemini CLI: $GEMINI_CLI_HOME (else $HOME) /.gemini/tmp/<project>/chats/
// session-<YYYY-MM-DDTHH-MM>-<first 8 characters of session_id>.jsonl, where <project> is the
// folder whose .project_root file holds `cwd` (Gemini picks that short name the first time it
// runs in a directory), and whose first line names `session_id` in full.
std::string gemini_session_file(const std::string& session_id, const std::string& cwd);

}  // namespace fleet
