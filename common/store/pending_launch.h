#pragma once
// A launch whose session id only the agent CLI will know (Codex chooses its own): the
// launcher leaves the session's record, without its id, in a pending file and names that
// file to the agent in $FLEET_HOOKS_PENDING_LAUNCH; the CLI's SessionStart hook, which runs
// before the session's first model request, claims it once and appends the completed record
// to the store beside it. So the worker is recorded before it can make a tool call, and a
// session the worker starts in turn (which inherits the variable) finds nothing to claim.
// Files: <state dir>/pending/<uuid>.json while pending, <uuid>.json.claimed once claimed
// (doc/files.md).
// Failing: what did not happen because there was nothing to do is an expected outcome
// (nullopt, PendingLaunch::State); a file that cannot be written or read, a path that is not
// a pending file and a store that refuses the record throw Error.

#include <optional>
#include <string>
#include <string_view>

#include "store/jsonl_append.h"
#include "store/provenance_record.h"

namespace fleet {

// The environment variable that names the pending file to the agent and its hooks.
inline constexpr const char* kPendingLaunchEnv = "FLEET_HOOKS_PENDING_LAUNCH";

// Writes `record` (its session_id and timestamp are ignored) to a new pending file in
// `state_dir` (created 0700; the file 0600) and returns the file's absolute path.
std::string write_pending_launch(const std::string& state_dir, const ProvenanceRecord& record);

// Claims the pending file at `path` for session `session_id`: the one caller that moves it
// aside completes the record (session id, timestamp now) and appends it to the store of the
// state directory the file lies in (append_record: validated, the store's safety checked),
// then leaves the completed record in the claimed file for the launcher. nullopt when there
// is nothing to claim (claimed before, or withdrawn). Throws Error when `path` is not a
// pending file or the record cannot be stored; the file is then pending again, so the
// launcher still sees the session unrecorded.
std::optional<ProvenanceRecord> claim_pending_launch(const std::string& path,
                                                     std::string_view session_id,
                                                     const AppendOptions& options);

// What became of the pending launch at `path`, for its launcher.
struct PendingLaunch {
  enum class State {
    pending,  // nobody claimed it (yet): the session is not recorded
    claimed,  // `record` is stored, with the session's id
    missing,  // neither file exists (withdrawn before)
  };
  State state = State::missing;
  ProvenanceRecord record;  // when claimed
};
PendingLaunch read_pending_launch(const std::string& path);

// Removes both files of the pending launch at `path` (what is not there is not an error):
// after this, nobody can claim it. Throws Error when a file exists and cannot be removed.
void withdraw_pending_launch(const std::string& path);

}  // namespace fleet
