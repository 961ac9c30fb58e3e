#pragma once
// What resume-guard leaves for the dispatcher after deciding on a dispatch call: the caller
// it judged, as a caller handover (process/caller_handover.h; doc/resume-guard.md, "Caller
// handover"), so that the launch the call starts records that caller.
// Failing: nothing here throws (the guard's hot path); a handover that cannot be left is a
// line for stderr, and the decision stands.

#include <optional>
#include <string>

#include "guard/resume_guard.h"
#include "guard/resume_request.h"

namespace fleet {

// Leaves the handover of `request`'s caller when `request` is a dispatch call that `decision`
// does not deny (a fresh dispatch or a resume): for its call id, by ancestry, and the state
// directory `state_dir` the guard judged it with ("" : none), where its launch then records
// the worker. The stderr line when it could not be left; nullopt when it was, or when there is
// nothing to hand over.
std::optional<std::string> hand_over_caller(const ResumeRequest& request,
                                            const GuardDecision& decision,
                                            const std::string& state_dir);

}  // namespace fleet
