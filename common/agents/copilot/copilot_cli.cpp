#include "agents/copilot/copilot_cli.h"

#include "agents/claude/claude_cli.h"
#include "agents/copilot/copilot_trust.h"

namespace fleet {

// GitHub Copilot CLI 1.0.102 (doc/copilot.md): a repository's .github/hooks/*.json in Claude
// Code's dialect (PreToolUse/PostToolUse with a matcher on the whole tool name; Copilot's own
// {"version":1,…"preToolUse"} form is not needed), stdin session_id, tool_name, tool_input and,
// for a subagent's call, parent_agent_id (the main session); PostToolUse has "tool_result":
// {"result_type","text_result_for_llm": <the MCP server's text>}. An MCP tool is
// <server>-<tool>. Claude Code's hookSpecificOutput denies. The repository's hooks run only in
// a folder trusted in $COPILOT_HOME/config.json (copilot_trust.h); a hook file that is not
// plain JSON is skipped whole with a line in its log only. Its MCP servers get
// COPILOT_AGENT_SESSION_ID.
constexpr AgentCli kCopilotCli = {
    .name = "copilot",
    .is_default = false,
    .display_name = "GitHub Copilot CLI",
    .version_checked = "1.0.102",
    .project_hook_file = ".github/hooks/fleet-hooks.json",
    .pre_tool_event = "PreToolUse",
    .post_tool_event = "PostToolUse",
    .session_start_event = "SessionStart",
    .fields = {.session_id = "session_id",
               .hook_event_name = "hook_event_name",
               .tool_name = "tool_name",
               .tool_input = "tool_input",
               .tool_response = "tool_result",
               .cwd = "cwd",
               .parent_session_id = "parent_agent_id"},
    .mcp = {.prefix = "", .separator = "-"},
    .deny = kClaudeDeny,
    .advisory_key = "systemMessage",
    .response = {.blocks_key = "",
                 .block_type = "",
                 .text_open = "",
                 .text_close = "",
                 .text_key = "text_result_for_llm"},
    .timeout_unit = TimeoutUnit::seconds,
    .session_start = {.event = "SessionStart", .matcher = ""},
    .names_hook_entries = false,
    .config_home_variable = "COPILOT_HOME",
    .config_home_default = ".copilot",
    .user_hook_file = "hooks/fleet-hooks.json",
    .hook_trust = {.named_as = "GitHub Copilot CLI",
                   .checked = "the folder's trust",
                   .written = "the project among the trusted folders of",
                   .check = &copilot_trust_findings,
                   .write = &trust_copilot_folder,
                   .record_path = &copilot_config_path,
                   .remove = &untrust_copilot_folder},
    .settings_comments = false,
    .settings_scopes = {},
    .on_not_plain_json = "skips the whole file (one line in its log, nothing on screen)",
    .also_read_by = {},
    .caller_variable = "COPILOT_AGENT_SESSION_ID",
    // Its hook runner names ${COPILOT_PROJECT_DIR} and ${CLAUDE_PROJECT_DIR} (GitHub Copilot CLI
    // 1.0.102, read in its code; doc/cli-facts.md).
    .project_dir_variable = "CLAUDE_PROJECT_DIR",
    // A PreToolUse hook's hookSpecificOutput.updatedInput replaces the call's arguments (1.0.102,
    // doc/cli-facts.md): the call carries its token there.
    .mcp_call = {.session_path = "", .call_id_key = "", .token_argument = kCallTokenArgument},
    .input_rewrite = {.wrapper = "hookSpecificOutput",
                      .event_key = "hookEventName",
                      .input_key = "updatedInput"},
};

}  // namespace fleet
