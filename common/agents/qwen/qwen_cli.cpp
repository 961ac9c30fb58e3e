#include "agents/qwen/qwen_cli.h"

#include "agents/claude/claude_cli.h"
#include "agents/qwen/qwen_trust.h"

namespace fleet {
namespace {

// Read from Qwen Code 0.24.4's code: it loads the first .qwen/.env or .env of the project (then
// ~/.qwen/.env and ~/.env) into its environment, filling unset variables, which its hooks
// inherit; QWEN_CODE_SAFE_MODE and QWEN_CODE_SIMPLE set there (or in a settings file's "env")
// turn every hook off. Its disableAllHooks is read with folder trust (qwen_trust.h).
constexpr std::string_view kQwenEnvFiles[] = {".qwen/.env", ".env", "~/.qwen/.env", "~/.env"};
constexpr std::string_view kQwenSystem[] = {"/etc/qwen-code/settings.json",
                                            "/etc/qwen-code/system-defaults.json"};
constexpr std::string_view kQwenOwnVariables[] = {"QWEN_CODE_SAFE_MODE", "QWEN_CODE_SIMPLE",
                                                  "QWEN_PROJECT_DIR", "GEMINI_PROJECT_DIR"};

}  // namespace

// Qwen Code 0.24.4 (a fork of Gemini CLI) speaks Claude Code's hook protocol in
// .qwen/settings.json: PreToolUse/PostToolUse/SessionStart, the anchored matcher, the
// hookSpecificOutput deny, timeouts in seconds, mcp__<server>__<tool>; PostToolUse's
// tool_response is Gemini's {"llmContent":[{"text":…}],"returnDisplay":…} without Gemini's
// <untrusted_context> tags. It reads // and /* */ comments in its settings, ignores a file with
// a trailing comma whole without a word, gives its MCP servers QWEN_CODE_SESSION_ID, and drops
// a project's settings in an untrusted folder once the user turned folder trust on
// (qwen_trust.h).
constexpr AgentCli kQwenCli = {
    .name = "qwen",
    .is_default = false,
    .display_name = "Qwen Code",
    .version_checked = "0.24.4",
    .project_hook_file = ".qwen/settings.json",
    .pre_tool_event = "PreToolUse",
    .post_tool_event = "PostToolUse",
    .session_start_event = "SessionStart",
    .fields = kClaudeHookFields,
    .mcp = {.prefix = "mcp__", .separator = "__"},
    .deny = kClaudeDeny,
    .advisory_key = "systemMessage",
    .response = {.blocks_key = "llmContent", .block_type = "", .text_open = "", .text_close = ""},
    .timeout_unit = TimeoutUnit::seconds,
    .session_start = {.event = "SessionStart", .matcher = ""},
    .names_hook_entries = false,
    .config_home_variable = "QWEN_HOME",
    .config_home_default = ".qwen",
    .user_hook_file = "settings.json",
    .hook_trust = {.named_as = "Qwen Code",
                   .checked = "the folder's trust where folder trust is on",
                   .check = &qwen_trust_findings},
    .settings_comments = true,
    .settings_scopes = {},
    .on_not_plain_json = "ignores the whole file (its MCP servers too), without a warning",
    .also_read_by = {},
    .caller_variable = "QWEN_CODE_SESSION_ID",
    // Also QWEN_PROJECT_DIR and GEMINI_PROJECT_DIR (Qwen Code 0.24.4, doc/cli-facts.md).
    .project_dir_variable = "CLAUDE_PROJECT_DIR",
    .switches = {.version_checked = "0.24.4",
                 .off_settings = {},
                 .env_member = "env",
                 .files = {.system = kQwenSystem, .project = {}, .env_files = kQwenEnvFiles},
                 .variables = kQwenOwnVariables},
};

}  // namespace fleet
