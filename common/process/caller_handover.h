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
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "process/handover_file.h"
#include "process/process_identity.h"

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
    lapsed,     // the nearest host's handovers are all older than kHandoverMaxAge
    untrusted,  // the directory is not private to this user
  };
  Status status = Status::none;
  std::string caller;   // when found
  std::string problem;  // when not found: why, in a sentence
};

// Which agent CLI process `link` is: the CLI's name, "" for any other process.
using AgentRecognizer = std::function<std::string(const ProcessLink&)>;

// The processes above a launch whose handovers may decide its caller: its ancestors (of its
// own user, below any launch-wrapper) up to the nearest one `recognize` takes for an agent
// CLI, at any depth; without one, the nearest kMaxLaunchDepth (a terminal or login session
// further up is never taken for the CLI, whatever hook ran beneath it).
struct LaunchAncestry {
  std::vector<ProcessLink> chain;  // nearest first
  std::string agent;               // the recognised CLI's name, "" when none was
  pid_t agent_pid = 0;
};
LaunchAncestry launch_ancestry(pid_t self, const AgentRecognizer& recognize = {});

// The caller handed over in `dir` to the launch `above` belongs to: the nearest process of its
// chain with a handover decides, and none above it. Its handovers that count must all name one
// caller; when all of them lapsed the launch is refused (`lapsed`), never taken for a call of a
// CLI further up (a nested L3's launch long after its call).
HandedOverCaller caller_from_handover(
    const std::string& dir, const LaunchAncestry& above,
    std::chrono::system_clock::time_point now = std::chrono::system_clock::now());

}  // namespace fleet
