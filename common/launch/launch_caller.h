#pragma once
// Who launches this worker: the caller its ownership record names (doc/launch-wrapper.md,
// "The caller"). --caller-session-id when given; else the caller resume-guard handed over for
// the dispatch call that started this launch (process/caller_handover.h), whichever agent CLI
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
// agent CLIs whose caller variable may name it.
Result<std::string> launch_caller(const std::string& flag, std::span<const AgentCli* const> clis);

}  // namespace fleet
