#pragma once
// Who launches this worker: the caller its ownership record names (doc/launch-wrapper.md,
// "The caller"). --caller-session-id when given; else the caller the dispatch call's `_meta`
// names (--mcp-meta: per call, where the CLI sends one); else the caller resume-guard handed over
// for the dispatch call that started this launch (process/caller_handover.h), whichever agent CLI
// made it; else the caller the orchestrator's CLI names to its MCP servers
// ($CLAUDE_CODE_SESSION_ID, $QWEN_CODE_SESSION_ID: agent/agent_cli.h, caller_from_environment).
// Never a guess: when the handovers name several callers, or those variables different ones,
// there is none.
// Failing: no caller is an expected outcome (the launch refuses to record), returned as the
// sentence saying why.

#include <span>
#include <string>

#include "agent/agent_cli.h"

#include "base/result.h"

namespace fleet {

// The caller of this launch; `flag` is --caller-session-id ("" when not given); `clis` are the
// agent CLIs whose caller variable or MCP call binding may name it; `mcp_meta` is the dispatch
// call's `_meta` as JSON (--mcp-meta; "" when not given). A `_meta` that names the caller
// through one of `clis`' McpCallBinding decides (its session, or the caller resume-guard
// handed over for its call id — none there is no caller, never one found by ancestry); one
// that names nothing they know leaves it to the handover by ancestry.
Result<std::string> launch_caller(const std::string& flag, std::span<const AgentCli* const> clis,
                                  const std::string& mcp_meta = "");

// Where this launch records: `flag` (--state-dir) or the state directory the environment names
// (resolve_state_dir); when nothing names one, the one the guard judged `caller`'s dispatch
// calls with (process/caller_handover.h, state_dir_of_caller), so that a dispatcher working in
// another directory (a worktree per worker) records where the guard looks; else the project of
// the working directory. Throws Error as resolve_state_dir does.
std::string launch_state_dir(const std::string& flag, const std::string& caller);

}  // namespace fleet
