#include "agents/opencode/opencode_cli.h"

#include "agents/claude/claude_cli.h"
#include "agents/opencode/opencode_plugin.h"

namespace fleet {

// OpenCode 1.18.33 runs no hook commands: the suite's wiring is its plugin in the project's
// .opencode/plugins/ (opencode_plugin.h), whose tool.execute.before and tool.execute.after run
// resume-guard and `provenance-writer hook` with --agent opencode in Claude Code's hook input
// (the plugin writes it: Claude Code's field names, parent_agent_id for a subagent's child
// session), and reads Claude Code's deny. An MCP tool reaches plugins as <server>_<tool>
// (kitchen_dispatch_food_truck); the MCP answer it hands on is OpenCode's `content` array of
// text blocks. No trust gate; its MCP servers get no session id (OPENCODE=1, OPENCODE_PID).
constexpr AgentCli kOpenCodeCli = {
    .name = "opencode",
    .is_default = false,
    .display_name = "OpenCode",
    .version_checked = "1.18.33",
    .project_hook_file = ".opencode/plugins/fleet-hooks-guard.js",
    .pre_tool_event = "PreToolUse",
    .post_tool_event = "PostToolUse",
    .session_start_event = "SessionStart",  // what the plugin's chat.message sends
    .fields = kClaudeHookFields,
    .mcp = {.prefix = "", .separator = "_"},
    .deny = kClaudeDeny,
    .advisory_key = "systemMessage",
    .response = {.blocks_key = "", .block_type = "text", .text_open = "", .text_close = ""},
    .timeout_unit = TimeoutUnit::seconds,
    .session_start = {.event = "", .matcher = ""},
    .names_hook_entries = false,
    .config_home_variable = "",
    .config_home_default = ".config/opencode",
    .user_hook_file = "",
    .hook_trust = {},  // a project's plugins load as they are
    .settings_comments = false,
    .settings_scopes = {},
    .on_not_plain_json = "",
    .also_read_by = {},
    .caller_variable = "",
    .plugin = {.folder = ".opencode/plugins",
               .file_name = "fleet-hooks-guard.js",
               .contents = &opencode_plugin_contents,
               .tools_line = "const MORE_TOOLS = "},
    // The plugin writes the guard's hookSpecificOutput.updatedInput into tool.execute.before's
    // output.args, the object OpenCode 1.18.33 then sends its MCP server as the call's
    // arguments (doc/cli-facts.md): the call carries its token there.
    .mcp_call = {.session_path = "", .call_id_key = "", .token_argument = kCallTokenArgument},
    .input_rewrite = {.wrapper = "hookSpecificOutput",
                      .event_key = "hookEventName",
                      .input_key = "updatedInput"},
};

}  // namespace fleet
