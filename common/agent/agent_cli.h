#pragma once
// The agent CLIs the hooks run under (Claude Code, Codex CLI, Gemini CLI): one table per CLI
// holding everything the hook side needs that differs between them — hook event names, the
// stdin fields read, the MCP form of a tool name, how a hook denies or advises, where an MCP
// tool's answer sits in a post-tool hook's tool_response, timeout unit, project config file,
// the other CLIs that run the hooks of that file (GitHub Copilot CLI reads Claude Code's), its
// trust. The types only: each CLI's row is in its home, common/agents/<name>/, and
// agents/agents.h lists them and looks them up by the name `--agent` takes
// (doc/development.md, "Adding a CLI").
// Failing: agent_config_home throws Error when no variable says where the home is.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "agent/hook_switches.h"
#include "agent/hook_trust.h"
#include "base/result.h"

namespace fleet {

// The names of the hook input's fields the suite reads (string literals).
struct HookFieldNames {
  const char* session_id;
  const char* hook_event_name;
  const char* tool_name;
  const char* tool_input;
  const char* tool_response;
  const char* cwd;
  // The session that owns a subagent's call, when the input names one besides session_id
  // (GitHub Copilot CLI 1.0.102: parent_agent_id, the main session; session_id is then the
  // subagent's own id).
  const char* parent_session_id;
  // The id of this tool call, which the CLI also sends its MCP server with the call (its
  // McpCallBinding::call_id_key); "" : none that reaches the server.
  const char* tool_use_id = "";
};

// An MCP tool as the CLI names it to hooks: `prefix` <server> `separator` <tool>, with a
// non-empty server ("mcp__" and "__" for Claude Code: mcp__kitchen__dispatch_food_truck).
struct McpToolNameForm {
  std::string_view prefix;
  std::string_view separator;
};

// How a hook denies a tool call, printed on stdout with exit 0: the members `decision_key`:
// "deny" and `reason_key`: <reason>, inside an object under `wrapper` together with
// `event_key`: <the pre-tool event> when `wrapper` is not empty, else at the top level.
struct DenyForm {
  const char* wrapper;  // "" : the decision is at the top level
  const char* event_key;
  const char* decision_key;
  const char* reason_key;
};

// Where the MCP server's text is in a post-tool hook's tool_response: text blocks
// ({"type": `block_type`, "text": …}; any block with a "text" when `block_type` is empty),
// either the tool_response itself (an array) or its member `blocks_key` (an object). A text
// wrapped in `text_open` … `text_close` is read without them. Or, when `text_key` is set, the
// string member `text_key` of tool_response (an object) is that text.
struct ToolResponseForm {
  const char* blocks_key;  // "" : tool_response itself is the array of blocks
  const char* block_type;
  std::string_view text_open;
  std::string_view text_close;
  const char* text_key = "";  // GitHub Copilot CLI's tool_result: "text_result_for_llm"
};

// Another CLI that runs the hooks of a CLI's project_hook_file too, in that CLI's dialect, but
// names MCP tools its own way: the suite's matcher and its tool-name check must accept its
// names as well, or the file it reads leaves the dispatch tool unguarded under it.
struct HookFileReader {
  std::string_view display_name;     // "GitHub Copilot CLI"
  std::string_view version_checked;  // the version it was observed with
  McpToolNameForm mcp;               // {"", "-"}: kitchen-dispatch_food_truck
  // Where its post-tool input holds the tool's answer instead of fields.tool_response: an
  // object under `result_field` whose string `result_text` is the text the model got.
  const char* result_field;  // "tool_result"
  const char* result_text;   // "text_result_for_llm"
};

// What the CLI sends its MCP server with each tool call (the request's `_meta`) that names the
// call's caller: the caller's session itself, at `session_path` (members from the top,
// dot-separated; Codex: "x-codex-turn-metadata.session_id"), or the call's id at
// `call_id_key`, the same id its pre-tool hook sees as HookFieldNames::tool_use_id (Claude
// Code: "claudecode/toolUseId"), which resume-guard hands over with the caller it judged.
// Or, where the CLI lets its pre-tool hook change the call (AgentCli::input_rewrite), a token
// in the call's argument `token_argument` (kCallTokenArgument), which resume-guard mints for the
// call and hands over with the caller it judged, as it does a call id.
// A dispatcher passes the call to `launch-wrapper --mcp-call` (or its `_meta` to `--mcp-meta`)
// as it got it, whatever the CLI.
struct McpCallBinding {
  std::string_view session_path = "";
  std::string_view call_id_key = "";
  std::string_view token_argument = "";
};

// The argument in which a dispatch call carries its call token (McpCallBinding::token_argument):
// one name for every CLI, so that a dispatcher passes the call's arguments on as it got them.
// resume-guard overwrites whatever the model wrote there.
inline constexpr std::string_view kCallTokenArgument = "fleet_hooks_call";

// How a pre-tool hook's answer gives the CLI the tool's new input, which the CLI then sends its
// MCP server in place of the model's: the whole input, as the member `input_key` of an object
// under `wrapper` that also holds `event_key`: <the pre-tool event>. An empty `input_key`: no
// hook of the CLI can change a call's input (or nothing it changes reaches the server).
struct InputRewriteForm {
  const char* wrapper = "";    // "hookSpecificOutput"
  const char* event_key = "";  // "hookEventName"
  const char* input_key = "";  // Gemini CLI: "tool_input"; GitHub Copilot CLI: "updatedInput"
};

enum class TimeoutUnit { seconds, milliseconds };

// The project-local settings file `fleet-hooks install --scope local` writes, besides the
// project's project_hook_file; `--scope user` writes the user's hook file (user_hook_file in
// the configuration directory); the CLI runs the hooks of all three (Claude Code). Empty: the
// CLI has no such scopes, and only project_hook_file is wired.
struct SettingsScopes {
  std::string_view local_file;  // from the project's root: ".claude/settings.local.json"
};

// The hooks `fleet-hooks install --agent` wires beyond the guard and the writer: a
// session-start hook running `provenance-writer session-start --agent <name>` for the sessions
// whose matcher is `session_start_matcher` ("" : none is wired).
struct SessionStartWiring {
  std::string_view event;    // "SessionStart"
  std::string_view matcher;  // "startup" (Codex's source of a new session); "" : not wired
};

// A CLI that runs no hook commands but loads plugins from a project's folder (OpenCode): the
// suite's wiring is one plugin file, not entries in project_hook_file. `folder` is "" for a
// CLI wired by hook entries.
struct PluginWiring {
  std::string_view folder;     // from the project's root: ".opencode/plugins"
  std::string_view file_name;  // "fleet-hooks-guard.js"
  // The plugin's bytes as the suite ships them (embedded at build time).
  std::string_view (*contents)() = nullptr;
  // The start of the plugin's line that lists the dispatch tools of `fleet-hooks install
  // --tool`: then a JSON array of their names and ";" ("const MORE_TOOLS = ": shipped as
  // `const MORE_TOOLS = [];`, the only line install changes).
  std::string_view tools_line = "";
};

// The plugins a CLI loads hooks from (Claude Code): a plugin is a directory whose `hooks_file`
// holds entries in the CLI's dialect, their commands naming the plugin's directory as
// $`root_variable`. The CLI's `command` adds a marketplace (a directory holding
// `marketplace_file`) and installs a plugin from it, recorded in `installed_file` of the CLI's
// configuration directory (agent_config_home). Empty: the CLI loads no such plugins.
struct HookPlugins {
  std::string_view command;           // "claude": `claude plugin marketplace add`, `… install`
  std::string_view marketplace_file;  // ".claude-plugin/marketplace.json"
  std::string_view hooks_file;        // "hooks/hooks.json"
  std::string_view installed_file;    // "plugins/installed_plugins.json"
  std::string_view root_variable;     // "CLAUDE_PLUGIN_ROOT"
};

struct AgentCli {
  std::string_view name;  // what --agent takes: "claude", "codex", "gemini"
  // The CLI the hook programs speak without --agent (one row: Claude Code's): the commands
  // install writes for it name no --agent.
  bool is_default;
  std::string_view display_name;         // "Claude Code"
  std::string_view version_checked;      // the version its facts were observed with
  std::string_view project_hook_file;    // where a project's hooks are wired, from its root
  std::string_view pre_tool_event;       // hook_event_name before a tool runs
  std::string_view post_tool_event;      // hook_event_name after a tool ran
  std::string_view session_start_event;  // hook_event_name when a session starts
  HookFieldNames fields;
  McpToolNameForm mcp;
  DenyForm deny;
  const char* advisory_key;  // a message shown to the user that decides nothing
  ToolResponseForm response;
  TimeoutUnit timeout_unit;  // of a hook entry's "timeout"
  SessionStartWiring session_start;
  bool names_hook_entries;  // each hook entry carries a "name" (Gemini CLI)
  // The user's configuration directory: $`config_home_variable` when set, else
  // ~/`config_home_default`; its `user_hook_file` holds the user's own hooks.
  std::string_view config_home_variable;  // "CODEX_HOME"; "" : none
  std::string_view config_home_default;   // ".codex"
  std::string_view user_hook_file;        // "hooks.json"
  HookTrust hook_trust;                   // what a project's hooks need before the CLI runs them
  bool settings_comments;  // reads // and /* */ comments in its hook file (Gemini CLI)
  // Hooks also come from a project-local and a user settings file (fleet-hooks --scope);
  // else only from project_hook_file and the user's hook file.
  SettingsScopes settings_scopes;
  // What the CLI does with a hook file that is not plain JSON, after "so <display name> ".
  std::string_view on_not_plain_json;
  // The other CLIs that run the hooks of project_hook_file (Claude Code's: GitHub Copilot CLI).
  std::span<const HookFileReader> also_read_by;
  // The environment variable in which the CLI names, to the MCP servers it starts (and so to
  // what they launch), the session that calls them: "CLAUDE_CODE_SESSION_ID"; "" : none.
  std::string_view caller_variable = "";
  // The plugin install places instead of hook entries (OpenCode); empty for the others.
  PluginWiring plugin = {};
  // The variable the CLI sets to the project's root in its hook commands' environment, which a
  // command may name ($CLAUDE_PROJECT_DIR/bin/resume-guard); "" : none.
  std::string_view project_dir_variable = "";
  // The plugins it loads hooks from besides its hook files (Claude Code); empty for the others.
  HookPlugins hook_plugins = {};
  // What in the files it reads turns its hooks off or sets their environment.
  HookSwitches switches = {};
  // What in an MCP call's `_meta` names the call's caller; empty: nothing (the handover by
  // the processes' ancestry stands in).
  McpCallBinding mcp_call = {};
  // How its pre-tool hook rewrites a call's input (the call token's way to the MCP server);
  // empty: it cannot.
  InputRewriteForm input_rewrite = {};
};

// True when resume-guard binds `agent`'s dispatch calls to their caller by a call token in the
// call's arguments (AgentCli::input_rewrite, McpCallBinding::token_argument).
inline bool binds_call_token(const AgentCli& agent) {
  return *agent.input_rewrite.input_key != '\0' && !agent.mcp_call.token_argument.empty();
}

// True when `agent` loads hooks from plugins (AgentCli::hook_plugins).
inline bool loads_hook_plugins(const AgentCli& agent) {
  return !agent.hook_plugins.command.empty();
}

// True when `agent` is wired by a plugin file (AgentCli::plugin), not by hook entries.
inline bool wired_by_plugin(const AgentCli& agent) {
  return !agent.plugin.folder.empty();
}

// True when `agent` has settings files besides its project's (AgentCli::settings_scopes).
inline bool has_settings_scopes(const AgentCli& agent) {
  return !agent.settings_scopes.local_file.empty();
}

// True when `fleet-hooks install --trust` writes `agent`'s trust (HookTrust::write).
inline bool writes_hook_trust(const AgentCli& agent) {
  return agent.hook_trust.write != nullptr;
}

// The CLIs of `clis` for which `has` is true, in order: (clis, has_settings_scopes).
std::vector<const AgentCli*> agent_clis_with(std::span<const AgentCli* const> clis,
                                             bool (*has)(const AgentCli&));

// The MCP forms of a tool name the hooks of `agent`'s project_hook_file are called with:
// `agent`'s own (agent.mcp) first, then those of the CLIs in agent.also_read_by.
std::vector<McpToolNameForm> hook_file_mcp_forms(const AgentCli& agent);

// `agent`'s configuration directory on this machine (AgentCli::config_home_variable, else
// $HOME/config_home_default). Throws Error, naming the variable to set, when neither that
// variable nor HOME is set (never the root directory).
std::string agent_config_home(const AgentCli& agent);
// The same; nullopt where neither variable is set.
std::optional<std::string> known_config_home(const AgentCli& agent);

// `seconds` in the unit of `agent`'s hook "timeout".
int hook_timeout_value(const AgentCli& agent, int seconds);

// The `field` of each of `clis` that has one, after `prefix`, joined by `separator` and the last
// two by `last_separator`: (&AgentCli::name, "|", "|") "claude|codex|gemini";
// (&AgentCli::caller_variable, ", ", " or ", "$") "$CLAUDE_CODE_SESSION_ID, … or $…".
std::string agent_cli_list(std::span<const AgentCli* const> clis, std::string_view AgentCli::*field,
                           std::string_view separator, std::string_view last_separator,
                           std::string_view prefix = "");

// The session that runs this process as the agent CLIs above it, of `clis`, name it to their
// MCP servers (AgentCli::caller_variable): "" when no such variable is set; the problem, naming
// the variables, when they name different sessions (a CLI started from another CLI's shell
// inherits that one's variable too: no guess is made).
Result<std::string> caller_from_environment(std::span<const AgentCli* const> clis);

}  // namespace fleet
