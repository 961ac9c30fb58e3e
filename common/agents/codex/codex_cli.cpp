#include "agents/codex/codex_cli.h"

#include "agents/claude/claude_cli.h"
#include "agents/codex/codex_hooks_list.h"
#include "agents/codex/codex_trust.h"
#include "agents/codex/codex_trust_removal.h"

namespace fleet {
namespace {

// Read from codex-cli 0.169.0's code: it loads $CODEX_HOME/.env (not a project's) into its
// environment, which its hooks inherit. [features] hooks = false in any config.toml it reads is
// read with its trust (codex_trust.h).
constexpr std::string_view kCodexEnvFiles[] = {".env"};

}  // namespace

// codex-cli 0.169.0: Claude Code's dialect; an MCP tool's tool_response is the MCP result
// {"content":[{"type":"text","text":…}]}. A project's hooks run only once trusted in
// $CODEX_HOME/config.toml (codex_trust.h).
constexpr AgentCli kCodexCli = {
    .name = "codex",
    .is_default = false,
    .display_name = "Codex CLI",
    .version_checked = "0.169.0",
    .project_hook_file = ".codex/hooks.json",
    .pre_tool_event = "PreToolUse",
    .post_tool_event = "PostToolUse",
    .session_start_event = "SessionStart",
    .fields = kClaudeHookFields,
    .mcp = {.prefix = "mcp__", .separator = "__"},
    .deny = kClaudeDeny,
    .advisory_key = "systemMessage",
    .response = {.blocks_key = "content", .block_type = "text", .text_open = "", .text_close = ""},
    .timeout_unit = TimeoutUnit::seconds,
    // A Codex worker is recorded from its first hook (its id cannot be chosen).
    .session_start = {.event = "SessionStart", .matcher = "startup"},
    .names_hook_entries = false,
    .config_home_variable = "CODEX_HOME",
    .config_home_default = ".codex",
    .user_hook_file = "hooks.json",
    .hook_trust = {.named_as = "Codex",
                   .checked = "its trust",
                   .written = "the project and the suite's own hooks in",
                   .check = &codex_trust_findings,
                   .reported = &codex_reported_findings,
                   .write = &trust_codex_hooks,
                   .record_path = &codex_config_path,
                   .remove = &untrust_codex_hooks},
    .settings_comments = false,
    .settings_scopes = {},
    .on_not_plain_json = "loads none of its hooks (it warns: failed to parse hooks config)",
    .also_read_by = {},
    .project_dir_variable = "",  // none (codex-cli 0.169.0 names no such variable)
    .switches = {.version_checked = "0.169.0",
                 .off_settings = {},
                 .env_member = "",
                 .files = {.system = {},
                           .project = {},
                           .env_files = {},
                           .config_env_files = kCodexEnvFiles}},
    // Run here (0.169.0): every tools/call's _meta["x-codex-turn-metadata"].session_id is the
    // calling session, the hooks' session_id.
    .mcp_call = {.session_path = "x-codex-turn-metadata.session_id", .call_id_key = ""},
};

}  // namespace fleet
