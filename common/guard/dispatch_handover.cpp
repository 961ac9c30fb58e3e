#include "guard/dispatch_handover.h"

#include <unistd.h>

#include "base/ids.h"
#include "process/call_handover.h"

namespace fleet {
namespace {

constexpr std::size_t kCallTokenBytes = 16;  // 128 random bits

}  // namespace

CallerHandover hand_over_caller(const ResumeRequest& request, const GuardDecision& decision,
                                const std::string& state_dir, const AgentCli& agent) {
  if (!request.dispatch || request.caller.empty() || decision.verdict == Verdict::deny ||
      request.kind == ResumeRequest::Kind::unreadable)
    return {};
  const std::string dir = handover_directory();
  CallerHandover handover;
  std::optional<std::string> problem;
  std::string call_id(request.call_id);
  if (call_id.empty() && binds_call_token(agent)) {
    try {
      call_id = handover.token = new_random_hex(kCallTokenBytes);
    } catch (const std::exception& e) {
      problem = std::string("no call token: ") + e.what();
    }
  }
  // The call's own handover, which its dispatcher finds by the id or token it gets with the
  // call; and the one by ancestry, for a dispatcher that passes neither on.
  if (!problem && !call_id.empty()) problem = leave_call_handover(dir, request.caller, call_id);
  if (problem) handover.token.clear();  // a token no handover names would only be refused
  if (!problem) problem = leave_caller_handover(dir, request.caller, ::getpid());
  if (!problem && !state_dir.empty())
    problem = leave_state_handover(dir, request.caller, state_dir);
  if (problem) {
    handover.log = "resume-guard: the caller " + std::string(request.caller) +
                   " was not handed over to the dispatcher (" + *problem +
                   "); a launch-wrapper --record-provenance it starts needs --caller-session-id";
  }
  return handover;
}

std::optional<std::string> guard_answer(const GuardDecision& decision, const HookFields& hook,
                                        const std::string& token, const AgentCli& agent) {
  const rapidjson::Value* input = hook.tool_input();
  if (token.empty() || decision.verdict == Verdict::deny || input == nullptr || !input->IsObject())
    return decision.output(agent);
  return pre_tool_use_rewrite(
      *input, agent.mcp_call.token_argument, token,
      decision.verdict == Verdict::advisory ? decision.message : std::string(), agent);
}

}  // namespace fleet
