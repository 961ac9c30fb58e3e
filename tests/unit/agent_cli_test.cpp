#include "agent/agent_cli.h"
#include "agents/agents.h"

#include <doctest/doctest.h>

#include <set>
#include <string>
#include <vector>

using namespace fleet;

TEST_CASE("agent_cli: the CLIs by the names --agent takes - claude first") {
  REQUIRE(agent_clis().size() == 6);
  CHECK(agent_clis()[0] == &claude_code());
  CHECK(agent_cli_names("|") == "claude|codex|gemini|qwen|copilot|opencode");
  for (const AgentCli* agent : agent_clis()) CHECK(find_agent_cli(agent->name) == agent);
  CHECK(find_agent_cli("") == nullptr);
  CHECK(find_agent_cli("Claude") == nullptr);
  CHECK(find_agent_cli("claude-code") == nullptr);
}

TEST_CASE("agent_cli: the default CLI - the first of the list, the one row marked default") {
  CHECK(&default_agent_cli() == agent_clis()[0]);
  CHECK(&default_agent_cli() == &claude_code());
  for (const AgentCli* agent : agent_clis())
    CHECK(agent->is_default == (agent == &default_agent_cli()));
}

TEST_CASE("agent_cli: a field of several CLIs as a list - those without one left out") {
  const AgentCli* clis[] = {&claude_code(), find_agent_cli("codex"), find_agent_cli("qwen"),
                            find_agent_cli("copilot")};
  CHECK(agent_cli_list(clis, &AgentCli::name, "|", "|") == "claude|codex|qwen|copilot");
  CHECK(agent_cli_list(clis, &AgentCli::display_name, ", ", " and ") ==
        "Claude Code, Codex CLI, Qwen Code and GitHub Copilot CLI");
  // Codex names no caller to its MCP servers: left out, and the last two joined by " or ".
  CHECK(agent_cli_list(clis, &AgentCli::caller_variable, ", ", " or ", "$") ==
        "$CLAUDE_CODE_SESSION_ID, $QWEN_CODE_SESSION_ID or $COPILOT_AGENT_SESSION_ID");
  CHECK(agent_cli_list(std::span(clis, 1), &AgentCli::caller_variable, ", ", " or ", "$") ==
        "$CLAUDE_CODE_SESSION_ID");
  CHECK(agent_cli_list({}, &AgentCli::name, "|", "|").empty());
  // Those that have a fact, in order.
  CHECK(agent_cli_list(agent_clis_with(clis, writes_hook_trust), &AgentCli::name, ", ", " or ",
                       "--agent ") == "--agent codex or --agent copilot");
  CHECK(agent_clis_with(clis, has_settings_scopes) == std::vector<const AgentCli*>{clis[0]});
}

TEST_CASE("agent_cli: every table is complete") {
  std::set<std::string_view> names;
  for (const AgentCli* agent : agent_clis()) {
    CAPTURE(agent->name);
    CHECK(names.insert(agent->name).second);
    for (const std::string_view text :
         {agent->name, agent->display_name, agent->version_checked, agent->project_hook_file,
          agent->pre_tool_event, agent->post_tool_event, agent->mcp.separator}) {
      CHECK_FALSE(text.empty());
    }
    // A prefix, or none where the server's name leads (GitHub Copilot CLI: <server>-<tool>,
    // OpenCode: <server>_<tool>, the only CLI wired by a plugin).
    CHECK(agent->mcp.prefix.empty() == (agent->mcp.separator == "-" || wired_by_plugin(*agent)));
    for (const char* key :
         {agent->fields.session_id, agent->fields.hook_event_name, agent->fields.tool_name,
          agent->fields.tool_input, agent->fields.tool_response, agent->fields.cwd,
          agent->deny.decision_key, agent->deny.reason_key, agent->advisory_key}) {
      REQUIRE(key != nullptr);
      CHECK(*key != '\0');
    }
    // A wrapped deny names the event inside the wrapper.
    CHECK((*agent->deny.wrapper == '\0') == (*agent->deny.event_key == '\0'));
    CHECK(agent->response.text_open.empty() == agent->response.text_close.empty());
  }
}

TEST_CASE("agent_cli: the facts observed with each pinned CLI") {
  const AgentCli& claude = claude_code();
  CHECK(claude.version_checked == "2.1.328");
  CHECK(claude.project_hook_file == ".claude/settings.json");
  CHECK(claude.pre_tool_event == "PreToolUse");
  CHECK(claude.post_tool_event == "PostToolUse");
  CHECK(std::string(claude.deny.wrapper) == "hookSpecificOutput");
  CHECK(claude.timeout_unit == TimeoutUnit::seconds);
  CHECK(has_settings_scopes(claude));  // project, local and user settings
  CHECK(claude.settings_scopes.local_file == ".claude/settings.local.json");
  // The user's settings: settings.json in $CLAUDE_CONFIG_DIR, else in ~/.claude.
  CHECK(claude.config_home_variable == "CLAUDE_CONFIG_DIR");
  CHECK(claude.config_home_default == ".claude");
  CHECK(claude.user_hook_file == "settings.json");

  const AgentCli& codex = *find_agent_cli("codex");
  CHECK(codex.version_checked == "0.169.0");
  CHECK(codex.project_hook_file == ".codex/hooks.json");
  CHECK(codex.pre_tool_event == "PreToolUse");
  CHECK(codex.post_tool_event == "PostToolUse");
  CHECK(codex.mcp.prefix == "mcp__");
  CHECK(codex.mcp.separator == "__");
  CHECK(std::string(codex.deny.wrapper) == "hookSpecificOutput");  // Claude Code's dialect
  CHECK(std::string(codex.response.blocks_key) == "content");
  CHECK(codex.timeout_unit == TimeoutUnit::seconds);
  CHECK_FALSE(has_settings_scopes(codex));

  const AgentCli& gemini = *find_agent_cli("gemini");
  CHECK(gemini.version_checked == "0.61.0");
  CHECK_FALSE(has_settings_scopes(gemini));
  CHECK(gemini.project_hook_file == ".gemini/settings.json");
  CHECK(gemini.pre_tool_event == "BeforeTool");
  CHECK(gemini.post_tool_event == "AfterTool");
  CHECK(gemini.mcp.prefix == "mcp_");
  CHECK(gemini.mcp.separator == "_");
  CHECK(std::string(gemini.deny.wrapper).empty());
  CHECK(std::string(gemini.deny.decision_key) == "decision");
  CHECK(std::string(gemini.deny.reason_key) == "reason");
  CHECK(std::string(gemini.response.blocks_key) == "llmContent");
  CHECK(gemini.response.text_open == "<untrusted_context>\n");
  CHECK(gemini.timeout_unit == TimeoutUnit::milliseconds);

  const AgentCli& qwen = *find_agent_cli("qwen");
  CHECK(qwen.version_checked == "0.24.4");
  CHECK(qwen.project_hook_file == ".qwen/settings.json");
  CHECK(qwen.pre_tool_event == "PreToolUse");  // Claude Code's dialect
  CHECK(qwen.post_tool_event == "PostToolUse");
  CHECK(qwen.mcp.prefix == "mcp__");
  CHECK(std::string(qwen.deny.wrapper) == "hookSpecificOutput");
  CHECK(std::string(qwen.response.blocks_key) == "llmContent");  // Gemini's answer shape
  CHECK(qwen.response.text_open.empty());                        // without its tags
  CHECK(qwen.timeout_unit == TimeoutUnit::seconds);
  CHECK(qwen.settings_comments);
  CHECK((qwen.hook_trust.check != nullptr));
  CHECK(qwen.caller_variable == "QWEN_CODE_SESSION_ID");

  // OpenCode 1.18.33 runs no hook commands: its wiring is the suite's plugin, which speaks
  // Claude Code's hook input with OpenCode's tool names.
  const AgentCli& opencode = *find_agent_cli("opencode");
  CHECK(opencode.version_checked == "1.18.33");
  CHECK(wired_by_plugin(opencode));
  CHECK(opencode.plugin.folder == ".opencode/plugins");
  CHECK(opencode.plugin.file_name == "fleet-hooks-guard.js");
  CHECK(opencode.plugin.contents().find("tool.execute.before") != std::string_view::npos);
  // The one line install writes: the --tool names, shipped empty.
  CHECK(opencode.plugin.tools_line == "const MORE_TOOLS = ");
  CHECK(opencode.plugin.contents().find("\nconst MORE_TOOLS = [];\n") != std::string_view::npos);
  CHECK(opencode.mcp.prefix.empty());
  CHECK(opencode.mcp.separator == "_");
  CHECK(std::string(opencode.deny.wrapper) == "hookSpecificOutput");
  CHECK(opencode.caller_variable.empty());
  for (const AgentCli* other : {&claude, &codex, &gemini, &qwen})
    CHECK_FALSE(wired_by_plugin(*other));
  CHECK(claude.caller_variable == "CLAUDE_CODE_SESSION_ID");
  CHECK(codex.caller_variable.empty());
  CHECK(gemini.caller_variable.empty());

  // GitHub Copilot CLI 1.0.102 in its own hook file, in Claude Code's dialect.
  const AgentCli& copilot = *find_agent_cli("copilot");
  CHECK(copilot.version_checked == "1.0.102");
  CHECK(copilot.project_hook_file == ".github/hooks/fleet-hooks.json");
  CHECK(copilot.pre_tool_event == "PreToolUse");
  CHECK(copilot.mcp.prefix.empty());
  CHECK(copilot.mcp.separator == "-");
  CHECK(std::string(copilot.deny.wrapper) == "hookSpecificOutput");
  CHECK(std::string(copilot.fields.tool_response) == "tool_result");
  CHECK(std::string(copilot.response.text_key) == "text_result_for_llm");
  CHECK(std::string(copilot.fields.parent_session_id) == "parent_agent_id");
  CHECK(copilot.config_home_variable == "COPILOT_HOME");
  CHECK((copilot.hook_trust.check != nullptr));
  CHECK((copilot.hook_trust.write != nullptr));
  CHECK((copilot.hook_trust.remove != nullptr));  // the folder install --trust added goes
  CHECK(copilot.caller_variable == "COPILOT_AGENT_SESSION_ID");
  for (const AgentCli* agent : agent_clis()) {  // the slot Copilot added, empty for the others
    CAPTURE(agent->name);
    CHECK((*agent->response.text_key == '\0') == (agent != &copilot));
  }
}

TEST_CASE("agent_cli: GitHub Copilot CLI runs the hooks of Claude Code's file only") {
  const AgentCli& claude = claude_code();
  REQUIRE(claude.also_read_by.size() == 1);
  const HookFileReader& copilot = claude.also_read_by[0];
  CHECK(copilot.display_name == "GitHub Copilot CLI");
  CHECK(copilot.version_checked == "1.0.102");
  CHECK(copilot.mcp.prefix == "");
  CHECK(copilot.mcp.separator == "-");
  CHECK(std::string(copilot.result_field) == "tool_result");
  CHECK(std::string(copilot.result_text) == "text_result_for_llm");
  const std::vector<McpToolNameForm> forms = hook_file_mcp_forms(claude);
  REQUIRE(forms.size() == 2);
  CHECK(forms[0].prefix == "mcp__");  // Claude Code's own first
  CHECK(forms[1].separator == "-");
  CHECK(std::string(claude.fields.parent_session_id) == "parent_agent_id");
  for (const char* name : {"codex", "gemini", "qwen", "copilot"}) {
    CAPTURE(name);
    CHECK(find_agent_cli(name)->also_read_by.empty());
    CHECK(hook_file_mcp_forms(*find_agent_cli(name)).size() == 1);
  }
}
