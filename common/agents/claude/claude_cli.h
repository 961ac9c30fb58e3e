#pragma once
// Claude Code's hook table: what the hook programs and fleet-hooks install / uninstall / check
// need of it (agent/agent_cli.h says what each field means; agents/agents.h lists it). Its
// dialect's field names and deny form are also Codex's and, for the fields, Gemini's.

#include "agent/agent_cli.h"

namespace fleet {

extern const AgentCli kClaudeCli;

// The hook input's field names of Claude Code 2.1.328, the same in every CLI checked so far
// (parent_agent_id: sent only by GitHub Copilot CLI 1.0.102, for a subagent's call, also when
// it reads Claude Code's file).
inline constexpr HookFieldNames kClaudeHookFields = {.session_id = "session_id",
                                                     .hook_event_name = "hook_event_name",
                                                     .tool_name = "tool_name",
                                                     .tool_input = "tool_input",
                                                     .tool_response = "tool_response",
                                                     .cwd = "cwd",
                                                     .parent_session_id = "parent_agent_id",
                                                     .tool_use_id = "tool_use_id"};

// {"hookSpecificOutput":{"hookEventName":…,"permissionDecision":"deny",
//  "permissionDecisionReason":…}}
inline constexpr DenyForm kClaudeDeny = {.wrapper = "hookSpecificOutput",
                                         .event_key = "hookEventName",
                                         .decision_key = "permissionDecision",
                                         .reason_key = "permissionDecisionReason"};

}  // namespace fleet
