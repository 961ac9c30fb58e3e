#pragma once
// Where Codex CLI keeps a session's file (its transcript), found from the session id and the
// working directory the way the CLI itself names it (its AgentProfile points at this).
// Failing: a file that cannot be found (yet) is ""; directories that cannot be read count as
// empty.

#include <ctime>
#include <string>
#include <vector>

namespace fleet {

// Codex CLI: $CODEX_HOME (else $HOME/.codex) /sessions/YYYY/MM/DD/rollout-<time>-<session_id>
// .jsonl, the date and time the session started (so found by its id once it exists), looked
// for only in the day folders of codex_rollout_days(): never every day of the user's history.
// A rollout Codex keeps compressed (rollout-…-<id>.jsonl.zst) is the answer only when no plain
// one is found; the completion watch cannot read it (transcript_watch.h says so).
std::string codex_session_file(const std::string& session_id, const std::string& cwd);

// The day folders ("YYYY/MM/DD", local time, as Codex names them) a rollout of `session_id` can
// be in at time `now`: today and yesterday (a session this launch started), and, for a UUIDv7
// id (Codex's), the day its time stamp names and the days either side of it (a session
// resumed by its id, whatever its age).
std::vector<std::string> codex_rollout_days(const std::string& session_id, std::time_t now);

}  // namespace fleet
