#include "agent/agent_cli.h"

#include <array>
#include <cstdlib>

#include "base/error.h"

namespace fleet {
namespace {

// The same field names in every CLI checked so far (parent_agent_id: sent only by GitHub
// Copilot CLI 1.0.102, for a subagent's call, also when it reads Claude Code's file).
constexpr HookFieldNames kCommonFields = {"session_id",     "hook_event_name", "tool_name",
                                          "tool_input",     "tool_response",   "cwd",
                                          "parent_agent_id"};

// GitHub Copilot CLI 1.0.102 runs the hooks of a trusted repository's .claude/settings.json
// (Claude Code's dialect) and names an MCP tool <server>-<tool>: kitchen-dispatch_food_truck.
// Its PostToolUse input has no tool_response but "tool_result": {"result_type": "success",
// "text_result_for_llm": <the MCP server's text>}.
constexpr std::array<HookFileReader, 1> kClaudeFileReaders = {{
    {.display_name = "GitHub Copilot CLI",
     .version_checked = "1.0.102",
     .mcp = {"", "-"},
     .result_field = "tool_result",
     .result_text = "text_result_for_llm"},
}};

// {"hookSpecificOutput":{"hookEventName":…,"permissionDecision":"deny",
//  "permissionDecisionReason":…}}
constexpr DenyForm kHookSpecificOutput = {"hookSpecificOutput", "hookEventName",
                                          "permissionDecision", "permissionDecisionReason"};

// Claude Code 2.1.328: PostToolUse's tool_response for an MCP tool is the array of content
// blocks [{"type":"text","text":…}].
constexpr AgentCli kClaude = {
    "claude",
    "Claude Code",
    "2.1.328",
    ".claude/settings.json",
    "PreToolUse",
    "PostToolUse",
    "SessionStart",
    kCommonFields,
    {"mcp__", "__"},
    kHookSpecificOutput,
    "systemMessage",
    {"", "text", "", ""},
    TimeoutUnit::seconds,
    {"SessionStart", ""},
    false,
    "CLAUDE_CONFIG_DIR",
    ".claude",
    "settings.json",
    HookTrust::none,
    false,
    true,
    "ignores the whole file, without a warning",
    kClaudeFileReaders,
    "CLAUDE_CODE_SESSION_ID",
};

// codex-cli 0.169.0: Claude Code's dialect; an MCP tool's tool_response is the MCP result
// {"content":[{"type":"text","text":…}]}.
constexpr AgentCli kCodex = {
    "codex",
    "Codex CLI",
    "0.169.0",
    ".codex/hooks.json",
    "PreToolUse",
    "PostToolUse",
    "SessionStart",
    kCommonFields,
    {"mcp__", "__"},
    kHookSpecificOutput,
    "systemMessage",
    {"content", "text", "", ""},
    TimeoutUnit::seconds,
    // A Codex worker is recorded from its first hook (its id cannot be chosen).
    {"SessionStart", "startup"},
    false,
    "CODEX_HOME",
    ".codex",
    "hooks.json",
    HookTrust::codex_config,
    false,
    false,
    "loads none of its hooks (it warns: failed to parse hooks config)",
    {},
};

// gemini-cli 0.61.0: BeforeTool/AfterTool, mcp_<server>_<tool>, a top-level
// {"decision":"deny","reason":…}; AfterTool's tool_response is {"llmContent":[{"text":…}],
// "returnDisplay":…} with an MCP server's text wrapped in <untrusted_context> tags.
constexpr AgentCli kGemini = {
    "gemini",
    "Gemini CLI",
    "0.61.0",
    ".gemini/settings.json",
    "BeforeTool",
    "AfterTool",
    "SessionStart",
    kCommonFields,
    {"mcp_", "_"},
    {"", "", "decision", "reason"},
    "systemMessage",
    {"llmContent", "", "<untrusted_context>\n", "\n</untrusted_context>"},
    TimeoutUnit::milliseconds,
    {"SessionStart", ""},
    true,
    "",
    ".gemini",
    "settings.json",
    HookTrust::gemini_folders,
    true,
    false,
    "stops with a configuration error (a trailing comma is fatal)",
    {},
};

// Qwen Code 0.24.4 (a fork of Gemini CLI) speaks Claude Code's hook protocol in
// .qwen/settings.json: PreToolUse/PostToolUse/SessionStart, the anchored matcher, the
// hookSpecificOutput deny, timeouts in seconds, mcp__<server>__<tool>; PostToolUse's
// tool_response is Gemini's {"llmContent":[{"text":…}],"returnDisplay":…} without Gemini's
// <untrusted_context> tags. It reads // and /* */ comments in its settings, ignores a file with
// a trailing comma whole without a word, names the calling session to its MCP servers in
// QWEN_CODE_SESSION_ID, and drops an untrusted project's settings once the user turned folder
// trust on (settings/qwen_trust.h).
constexpr AgentCli kQwen = {
    .name = "qwen",
    .display_name = "Qwen Code",
    .version_checked = "0.24.4",
    .project_hook_file = ".qwen/settings.json",
    .pre_tool_event = "PreToolUse",
    .post_tool_event = "PostToolUse",
    .session_start_event = "SessionStart",
    .fields = kCommonFields,
    .mcp = {.prefix = "mcp__", .separator = "__"},
    .deny = kHookSpecificOutput,
    .advisory_key = "systemMessage",
    .response = {.blocks_key = "llmContent", .block_type = "", .text_open = "", .text_close = ""},
    .timeout_unit = TimeoutUnit::seconds,
    .session_start = {.event = "SessionStart", .matcher = ""},
    .names_hook_entries = false,
    .config_home_variable = "QWEN_HOME",
    .config_home_default = ".qwen",
    .user_hook_file = "settings.json",
    .hook_trust = HookTrust::qwen_folders,
    .settings_comments = true,
    .settings_scopes = false,
    .on_not_plain_json = "ignores the whole file (its MCP servers too), without a warning",
    .also_read_by = {},
    .caller_variable = "QWEN_CODE_SESSION_ID",
};

constexpr std::array<const AgentCli*, 4> kAgents = {&kClaude, &kCodex, &kGemini, &kQwen};

}  // namespace

const AgentCli& claude_code() {
  return kClaude;
}

std::span<const AgentCli* const> agent_clis() {
  return kAgents;
}

const AgentCli* find_agent_cli(std::string_view name) {
  for (const AgentCli* agent : kAgents) {
    if (agent->name == name) return agent;
  }
  return nullptr;
}

std::string agent_config_home(const AgentCli& agent) {
  if (!agent.config_home_variable.empty()) {
    const char* set = std::getenv(std::string(agent.config_home_variable).c_str());
    if (set != nullptr && *set != '\0') return set;
  }
  const char* home = std::getenv("HOME");
  if (home != nullptr && *home != '\0')
    return std::string(home) + "/" + std::string(agent.config_home_default);
  const std::string variable(agent.config_home_variable);
  throw Error((variable.empty() ? "HOME is not set" : "neither " + variable + " nor HOME is set") +
              ", so where " + std::string(agent.display_name) +
              " keeps its configuration is unknown: set " +
              (variable.empty() ? "HOME" : variable + " (or HOME)") + " and run it again");
}

std::vector<McpToolNameForm> hook_file_mcp_forms(const AgentCli& agent) {
  std::vector<McpToolNameForm> forms = {agent.mcp};
  for (const HookFileReader& reader : agent.also_read_by) forms.push_back(reader.mcp);
  return forms;
}

int hook_timeout_value(const AgentCli& agent, int seconds) {
  return agent.timeout_unit == TimeoutUnit::milliseconds ? seconds * 1000 : seconds;
}

Result<std::string> caller_from_environment() {
  std::string caller;
  std::string named;  // "VARIABLE=value" of each variable set
  for (const AgentCli* agent : kAgents) {
    if (agent->caller_variable.empty()) continue;
    const std::string variable(agent->caller_variable);
    const char* value = std::getenv(variable.c_str());
    if (value == nullptr || *value == '\0') continue;
    named += (named.empty() ? "" : ", ") + variable + "=" + value;
    if (!caller.empty() && caller != value) {
      return Result<std::string>::failure(
          "the environment names different calling sessions (" + named +
          "): a CLI started from another CLI's shell inherits its variable too, so which one "
          "called is not certain");
    }
    caller = value;
  }
  return caller;
}

std::string agent_cli_names(std::string_view separator) {
  std::string names;
  for (const AgentCli* agent : kAgents) {
    if (!names.empty()) names += separator;
    names += agent->name;
  }
  return names;
}

}  // namespace fleet
