#pragma once
// The caller handover (doc/resume-guard.md, "Caller handover"): how a dispatcher learns its
// caller under any agent CLI. Every CLI shows the caller's session id to its pre-tool hook,
// and runs both that hook and the dispatcher (its MCP server) as descendants of its own
// process. So on each dispatch call it lets through, resume-guard leaves a small file naming
// the caller it judged and the CLI process that ran it (the hook's host: its nearest ancestor
// that is not a shell); `launch-wrapper --record-provenance` without --caller-session-id
// takes the caller whose host is its own nearest ancestor with a handover.
//
// The files live in the user's private handover directory (process/handover_file.h), one per
// (host, caller), written atomically once and then only renewed (its mtime is the time it was
// left); a handover of another boot, or older than kHandoverMaxAge, counts for nothing. The
// handovers by call (process/call_handover.h) bind the caller to the call where the agent CLI
// allows it; these stand in where it does not.
// Failing: nothing here throws (leaving one is on the guard's hot path); what cannot be done
// is returned as the sentence saying why.

#include <sys/types.h>
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "process/handover_file.h"

namespace fleet {

// Leaves the handover of `caller` in `dir` for the host of process `self` (a hook: itself) at
// time `now`; when that writes a new file (not when it renews the same handover), prunes the
// handovers there that count for nothing. nullopt when left, else why not.
std::optional<std::string> leave_caller_handover(
    const std::string& dir, std::string_view caller, pid_t self,
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

}  // namespace fleet
