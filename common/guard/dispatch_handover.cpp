#include "guard/dispatch_handover.h"

#include <unistd.h>

#include "process/caller_handover.h"

namespace fleet {

std::optional<std::string> hand_over_caller(const ResumeRequest& request,
                                            const GuardDecision& decision) {
  if (!request.dispatch || request.caller.empty() || decision.verdict == Verdict::deny ||
      request.kind == ResumeRequest::Kind::unreadable)
    return std::nullopt;
  const auto problem = leave_caller_handover(handover_directory(), request.caller, ::getpid());
  if (!problem) return std::nullopt;
  return "resume-guard: the caller " + std::string(request.caller) +
         " was not handed over to the dispatcher (" + *problem +
         "); a launch-wrapper --record-provenance it starts needs --caller-session-id";
}

}  // namespace fleet
