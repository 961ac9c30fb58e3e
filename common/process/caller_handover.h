#pragma once
// The caller handover (doc/resume-guard.md, "Caller handover"): how a dispatcher learns its
// caller under any agent CLI. Every CLI shows the caller's session id to its pre-tool hook,
// and runs both that hook and the dispatcher (its MCP server) as descendants of its own
// process. So on each dispatch call it lets through, resume-guard leaves a small file naming
// the caller it judged and the CLI process that ran it (the hook's host: its nearest ancestor
// that is not a shell); `launch-wrapper --record-provenance` without --caller-session-id
// takes the caller whose host is its own nearest ancestor with a handover.
//
// The files live in a directory private to the user (/run/user/<uid>/fleet-hooks when that
// runtime directory is the user's; else ~/.local/state/fleet-hooks/handover under the user's own
// $HOME, a name no other user can take first; /tmp/fleet-hooks-<uid> only without either), one
// per (host, caller), written
// atomically once and then only renewed (its mtime is the time it was left); a handover of
// another boot, or older than kHandoverMaxAge, counts for nothing.
// Failing: nothing here throws (leaving one is on the guard's hot path); what cannot be done
// is returned as the sentence saying why.

#include <sys/types.h>
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"

namespace fleet {

// From the pre-tool hook to the dispatcher's launch, a permission prompt included.
inline constexpr std::chrono::seconds kHandoverMaxAge{600};

// The directory of this user's handovers (not created).
std::string handover_directory();

// `dir`, created (0700) when missing, when it is private to this user; else why not (another
// owner, access for group or others, a symbolic link, not a directory).
Result<std::string> private_directory(const std::string& dir);

// Leaves the handover of `caller` in `dir` for the host of process `self` (a hook: itself) at
// time `now`; when that writes a new file (not when it renews the same handover), prunes the
// handovers there that count for nothing. nullopt when left, else why not.
std::optional<std::string> leave_caller_handover(
    const std::string& dir, std::string_view caller, pid_t self,
    std::chrono::system_clock::time_point now = std::chrono::system_clock::now());

// Leaves the handover of `caller` for the tool call `call_id` (the id the CLI sends its MCP
// server with the call: Claude Code's tool_use_id) in `dir`: a file of its own per call, which
// binds the caller to the call whatever the processes' ancestry (a dispatcher serving several
// CLIs, a nested CLI, one CLI process running several sessions). nullopt when left, else why not.
std::optional<std::string> leave_call_handover(
    const std::string& dir, std::string_view caller, std::string_view call_id,
    std::chrono::system_clock::time_point now = std::chrono::system_clock::now());

struct HandedOverCaller {
  enum class Status {
    found,      // `caller`
    none,       // no handover counts for this process
    several,    // the nearest host handed over several callers
    untrusted,  // the directory is not private to this user
  };
  Status status = Status::none;
  std::string caller;   // when found
  std::string problem;  // when not found: why, in a sentence
};

// The caller handed over in `dir` to process `self` (a launch: itself): of the handovers that
// count, those whose host is the nearest of its ancestors with one; they must all name one
// caller.
HandedOverCaller caller_from_handover(
    const std::string& dir, pid_t self,
    std::chrono::system_clock::time_point now = std::chrono::system_clock::now());

// Leaves, for the dispatch calls of `caller`, the state directory `state_dir` (absolute) the
// guard judged them with, in `dir`: one file per caller session, whose launches record there
// whatever their dispatcher's working directory (a worktree per worker). nullopt when left,
// else why not.
std::optional<std::string> leave_state_handover(
    const std::string& dir, std::string_view caller, const std::string& state_dir,
    std::chrono::system_clock::time_point now = std::chrono::system_clock::now());

// The state directory the guard judged `caller`'s dispatch calls with (leave_state_handover);
// nullopt when no such handover counts.
std::optional<std::string> state_dir_of_caller(
    const std::string& dir, std::string_view caller,
    std::chrono::system_clock::time_point now = std::chrono::system_clock::now());

// The caller handed over in `dir` for the tool call `call_id` (leave_call_handover): found, or
// none (with why); also removes the call handovers there that count for nothing any more.
HandedOverCaller caller_of_call(
    const std::string& dir, std::string_view call_id,
    std::chrono::system_clock::time_point now = std::chrono::system_clock::now());

}  // namespace fleet
