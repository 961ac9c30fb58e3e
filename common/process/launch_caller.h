#pragma once
// Who launches this worker: the caller its ownership record names (doc/launch-wrapper.md,
// "The caller"), for launch-wrapper --record-provenance and provenance-writer record alike.
// --caller-session-id when given; else the caller the dispatch call's `_meta` or its arguments
// name (--mcp-call, --mcp-meta: per call, where the CLI allows it); else the caller
// resume-guard handed over for the dispatch call that started this launch
// (process/caller_handover.h) by the nearest agent CLI process above it
// (process/agent_process.h); else the caller that CLI names to its MCP servers
// ($CLAUDE_CODE_SESSION_ID, $QWEN_CODE_SESSION_ID, $COPILOT_AGENT_SESSION_ID:
// AgentCli::caller_variable), only when that CLI is the nearest above and did not inherit it itself
// — a Gemini CLI or OpenCode started from a Claude Code shell passes on Claude Code's variable,
// which never names its own session. Never a guess: when the handovers name several callers, or
// lapsed, or the variable is not the nearest CLI's own, there is none. Failing: no caller is an
// expected outcome (the launch refuses to record), returned as the sentence saying why.

#include <span>
#include <string>
#include <string_view>

#include "agent/agent_cli.h"
#include "agent/agent_profile.h"

#include "base/result.h"

namespace fleet {

// The caller of this launch; `flag` is --caller-session-id ("" when not given); `known` are the
// agent CLIs whose process, caller variable or MCP call binding may name it; `call` is what the
// dispatcher got with the dispatch call. A call that names the caller through one of `clis`'
// McpCallBinding decides (its session in `_meta`, or the caller resume-guard handed over for
// its call id in `_meta` or its call token in the arguments — none there is no caller, never
// one found by ancestry); one that names nothing they know leaves it to the handover by
// ancestry.
struct CallerClis {
  std::span<const AgentCli* const> clis;          // their caller variables and MCP bindings
  std::span<const AgentProfile* const> profiles;  // how their processes are known
};
struct DispatchCall {
  std::string meta;    // --mcp-meta: the call's `_meta` as JSON ("" : not given)
  std::string params;  // --mcp-call: the tools/call params (`arguments`, `_meta`) as JSON
};
Result<std::string> launch_caller(const std::string& flag, const CallerClis& known,
                                  const DispatchCall& call = {});

// What a program refused for want of a caller says (launch_caller failed with `problem`):
// "<what> needs the caller, and it is not certain: <problem>; <nothing>. Wire resume-guard on
// the dispatch tool (fleet-hooks install), or pass --caller-session-id <…>".
std::string uncertain_caller(std::string_view what, std::string_view problem,
                             std::string_view nothing);

// Where this launch records: `flag` (--state-dir) or the state directory the environment names
// (resolve_state_dir); when nothing names one, the one the guard judged `caller`'s dispatch
// calls with (process/caller_handover.h, state_dir_of_caller), so that a dispatcher working in
// another directory (a worktree per worker) records where the guard looks; else the project of
// the working directory. Throws Error as resolve_state_dir does.
std::string launch_state_dir(const std::string& flag, const std::string& caller);

}  // namespace fleet
