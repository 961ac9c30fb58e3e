#include "agents/gemini/gemini_cli.h"

#include "agents/claude/claude_cli.h"
#include "agents/gemini/gemini_trust.h"

namespace fleet {
namespace {

// Read from Gemini CLI 0.61.0's code: it loads the first .gemini/.env or .env of the project
// (then ~/.gemini/.env and ~/.env) into its environment, which its hooks inherit; its settings
// have no "env" for hooks. hooksConfig.enabled and hooksConfig.disabled, merged across its
// settings as it merges them, are read with its trust (gemini_trust.h).
constexpr std::string_view kGeminiEnvFiles[] = {".gemini/.env", ".env", "~/.gemini/.env", "~/.env"};
constexpr std::string_view kGeminiOwnVariables[] = {"GEMINI_PROJECT_DIR"};

}  // namespace

// gemini-cli 0.61.0: BeforeTool/AfterTool, mcp_<server>_<tool>, a top-level
// {"decision":"deny","reason":…}; AfterTool's tool_response is {"llmContent":[{"text":…}],
// "returnDisplay":…} with an MCP server's text wrapped in <untrusted_context> tags. A project's
// settings load only in a trusted folder (gemini_trust.h).
constexpr AgentCli kGeminiCli = {
    .name = "gemini",
    .is_default = false,
    .display_name = "Gemini CLI",
    .version_checked = "0.61.0",
    .project_hook_file = ".gemini/settings.json",
    .pre_tool_event = "BeforeTool",
    .post_tool_event = "AfterTool",
    .session_start_event = "SessionStart",
    .fields = kClaudeHookFields,
    .mcp = {.prefix = "mcp_", .separator = "_"},
    .deny = {.wrapper = "", .event_key = "", .decision_key = "decision", .reason_key = "reason"},
    .advisory_key = "systemMessage",
    .response = {.blocks_key = "llmContent",
                 .block_type = "",
                 .text_open = "<untrusted_context>\n",
                 .text_close = "\n</untrusted_context>"},
    .timeout_unit = TimeoutUnit::milliseconds,
    .session_start = {.event = "SessionStart", .matcher = ""},
    .names_hook_entries = true,
    .config_home_variable = "",
    .config_home_default = ".gemini",
    .user_hook_file = "settings.json",
    .hook_trust = {.named_as = "Gemini",
                   .checked = "the folder's trust",
                   .check = &gemini_trust_findings},
    .settings_comments = true,
    .settings_scopes = {},
    .on_not_plain_json = "stops with a configuration error (a trailing comma is fatal)",
    .also_read_by = {},
    // Also GEMINI_PROJECT_DIR (Gemini CLI 0.61.0, doc/cli-facts.md).
    .project_dir_variable = "CLAUDE_PROJECT_DIR",
    .switches = {.version_checked = "0.61.0",
                 .off_settings = {},
                 .env_member = "",
                 .files = {.system = {}, .project = {}, .env_files = kGeminiEnvFiles},
                 .variables = kGeminiOwnVariables},
    // Its MCP calls carry nothing of the caller, but a BeforeTool hook's
    // hookSpecificOutput.tool_input replaces the call's arguments (0.61.0, read in its code:
    // BeforeToolHookOutput.getModifiedToolInput, evaluateBeforeToolHook; checked against the
    // tool's schema by tool.build): the call carries its token there.
    .mcp_call = {.session_path = "", .call_id_key = "", .token_argument = kCallTokenArgument},
    .input_rewrite = {.wrapper = "hookSpecificOutput",
                      .event_key = "hookEventName",
                      .input_key = "tool_input"},
};

}  // namespace fleet
