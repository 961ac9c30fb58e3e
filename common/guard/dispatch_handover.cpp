#include "guard/dispatch_handover.h"

#include <unistd.h>

#include "process/call_handover.h"

namespace fleet {

std::optional<std::string> hand_over_caller(const ResumeRequest& request,
                                            const GuardDecision& decision,
                                            const std::string& state_dir) {
  if (!request.dispatch || request.caller.empty() || decision.verdict == Verdict::deny ||
      request.kind == ResumeRequest::Kind::unreadable)
    return std::nullopt;
  const std::string dir = handover_directory();
  // The call's own handover, which its dispatcher finds by the id it gets with the call; and
  // the one by ancestry, for a dispatcher that passes no call id.
  auto problem = request.call_id.empty()
                     ? std::nullopt
                     : leave_call_handover(dir, request.caller, request.call_id);
  if (!problem) problem = leave_caller_handover(dir, request.caller, ::getpid());
  if (!problem && !state_dir.empty())
    problem = leave_state_handover(dir, request.caller, state_dir);
  if (!problem) return std::nullopt;
  return "resume-guard: the caller " + std::string(request.caller) +
         " was not handed over to the dispatcher (" + *problem +
         "); a launch-wrapper --record-provenance it starts needs --caller-session-id";
}

}  // namespace fleet
