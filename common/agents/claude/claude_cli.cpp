#include "agents/claude/claude_cli.h"

#include <array>

namespace fleet {
namespace {

// GitHub Copilot CLI 1.0.102 runs the hooks of a trusted repository's .claude/settings.json
// (Claude Code's dialect) and names an MCP tool <server>-<tool>: kitchen-dispatch_food_truck.
// Its PostToolUse input has no tool_response but "tool_result": {"result_type": "success",
// "text_result_for_llm": <the MCP server's text>}.
constexpr std::array<HookFileReader, 1> kClaudeFileReaders = {{
    {.display_name = "GitHub Copilot CLI",
     .version_checked = "1.0.102",
     .mcp = {.prefix = "", .separator = "-"},
     .result_field = "tool_result",
     .result_text = "text_result_for_llm"},
}};

// Read from Claude Code 2.1.328's code: "disableAllHooks": true in any settings file (the merged
// settings, or the managed ones) runs no hook but managed ones; "allowManagedHooksOnly": true,
// read from managed settings only, runs only theirs. Every settings file's "env" is the hooks'
// environment, and its CLAUDE_CODE_SHELL_PREFIX is put before every hook command.
constexpr HooksOffSetting kClaudeHooksOff[] = {
    {.path = "disableAllHooks", .off = true},
    {.path = "allowManagedHooksOnly", .off = true, .system_only = true},
};
constexpr std::string_view kClaudeManaged[] = {"/etc/claude-code/managed-settings.json",
                                               "/etc/claude-code/managed-settings.d/"};
constexpr std::string_view kClaudeOwnVariables[] = {"CLAUDE_CODE_SHELL_PREFIX",
                                                    "CLAUDE_CODE_SIMPLE", "CLAUDE_CODE_SAFE_MODE"};

}  // namespace

// Claude Code 2.1.328: PostToolUse's tool_response for an MCP tool is the array of content
// blocks [{"type":"text","text":…}].
constexpr AgentCli kClaudeCli = {
    .name = "claude",
    .is_default = true,
    .display_name = "Claude Code",
    .version_checked = "2.1.328",
    .project_hook_file = ".claude/settings.json",
    .pre_tool_event = "PreToolUse",
    .post_tool_event = "PostToolUse",
    .session_start_event = "SessionStart",
    .fields = kClaudeHookFields,
    .mcp = {.prefix = "mcp__", .separator = "__"},
    .deny = kClaudeDeny,
    .advisory_key = "systemMessage",
    .response = {.blocks_key = "", .block_type = "text", .text_open = "", .text_close = ""},
    .timeout_unit = TimeoutUnit::seconds,
    .session_start = {.event = "SessionStart", .matcher = ""},
    .names_hook_entries = false,
    .config_home_variable = "CLAUDE_CONFIG_DIR",
    .config_home_default = ".claude",
    .user_hook_file = "settings.json",
    .hook_trust = {},  // a project's settings run as they are
    .settings_comments = false,
    .settings_scopes = {.local_file = ".claude/settings.local.json"},
    .on_not_plain_json = "ignores the whole file, without a warning",
    .also_read_by = kClaudeFileReaders,
    .caller_variable = "CLAUDE_CODE_SESSION_ID",
    .project_dir_variable = "CLAUDE_PROJECT_DIR",
    // `claude --plugin-dir DIR`, or `claude plugin marketplace add DIR` and `claude plugin
    // install <plugin>@<marketplace>` (recorded in ~/.claude/plugins/installed_plugins.json).
    .hook_plugins = {.command = "claude",
                     .marketplace_file = ".claude-plugin/marketplace.json",
                     .hooks_file = "hooks/hooks.json",
                     .installed_file = "plugins/installed_plugins.json",
                     .root_variable = "CLAUDE_PLUGIN_ROOT"},
    .switches = {.version_checked = "2.1.328",
                 .off_settings = kClaudeHooksOff,
                 .env_member = "env",
                 .files = {.system = kClaudeManaged, .project = {}, .env_files = {}},
                 .variables = kClaudeOwnVariables},
    // Read in 2.1.328's code: tools/call carries params._meta["claudecode/toolUseId"], the
    // hook input's tool_use_id (no session id).
    .mcp_call = {.session_path = "", .call_id_key = "claudecode/toolUseId"},
};

}  // namespace fleet
