#pragma once
// What resume-guard leaves for the dispatcher after deciding on a dispatch call: the caller
// it judged, as a caller handover (process/caller_handover.h; doc/resume-guard.md, "Caller
// handover"), so that the launch the call starts records that caller; and, where the agent CLI
// lets the hook change the call (AgentCli::input_rewrite), a token minted for the call that the
// call then carries to the dispatcher in its arguments, naming that handover.
// Failing: nothing here throws (the guard's hot path); a handover that cannot be left is a
// line for stderr, and the decision stands.

#include <optional>
#include <string>

#include "guard/resume_guard.h"
#include "guard/resume_request.h"

namespace fleet {

struct CallerHandover {
  std::optional<std::string> log;  // the stderr line when it could not be left
  // The call token handed over with the caller (McpCallBinding::token_argument); "" : none.
  std::string token;
};

// Leaves the handover of `request`'s caller when `request` is a dispatch call that `decision`
// does not deny (a fresh dispatch or a resume): for its call id (the CLI's own, or, where
// `agent` binds calls by a token, a token minted here: at least 128 random bits), by ancestry,
// and the state directory `state_dir` the guard judged it with ("" : none), where its launch
// then records the worker. Nothing when there is nothing to hand over.
CallerHandover hand_over_caller(const ResumeRequest& request, const GuardDecision& decision,
                                const std::string& state_dir, const AgentCli& agent);

// What the guard prints for `decision` on the call `hook` (the CLI's input): the decision in
// `agent`'s dialect, or, when `token` is not "", the call's input rewritten to carry it in
// McpCallBinding::token_argument (with an advisory beside it); nullopt when silent.
std::optional<std::string> guard_answer(const GuardDecision& decision, const HookFields& hook,
                                        const std::string& token, const AgentCli& agent);

}  // namespace fleet
