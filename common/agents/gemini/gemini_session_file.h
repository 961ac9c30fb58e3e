#pragma once
// Where Gemini CLI keeps a session's file (its transcript), found from the session id and the
// working directory the way the CLI itself names it (its AgentProfile points at this).
// Failing: a file that cannot be found (yet) is ""; directories that cannot be read count as
// empty.

#include <string>

namespace fleet {

// Gemini CLI: $GEMINI_CLI_HOME (else $HOME) /.gemini/tmp/<project>/chats/
// session-<YYYY-MM-DDTHH-MM>-<first 8 characters of session_id>.jsonl, where <project> is the
// folder whose .project_root file holds `cwd` (Gemini picks that short name the first time it
// runs in a directory and keeps it in .gemini/projects.json), and whose first line names
// `session_id` in full.
std::string gemini_session_file(const std::string& session_id, const std::string& cwd);

}  // namespace fleet
