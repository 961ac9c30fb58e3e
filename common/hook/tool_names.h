#pragma once
// Which tool calls the hooks act on: the dispatch tool by its bare name or as an MCP tool in
// the form of the agent CLI that calls it (Claude Code and Codex: mcp__<server>__<name>;
// Gemini: mcp_<server>_<name>; GitHub Copilot CLI, which runs the hooks of Claude Code's
// file: <server>-<name>), plus names added with --tool.
// Failing: nothing here fails; the answers are bools.

#include <string>
#include <string_view>
#include <vector>

#include "agent/agent_cli.h"

namespace fleet {

inline constexpr std::string_view kDispatchToolName = "dispatch_food_truck";

// True when `tool_name` is `name` or an MCP form of it that the hooks of `agent`'s file are
// called with (hook_file_mcp_forms: mcp__<server>__<name> or <server>-<name> for Claude
// Code's, non-empty server) for kDispatchToolName or one of `extra_names`.
bool is_dispatch_tool(std::string_view tool_name, const std::vector<std::string>& extra_names,
                      const AgentCli& agent);

// `tool` of MCP server `server` as `agent` names it to hooks (mcp__kitchen__dispatch_food_truck
// for Claude Code and Codex, mcp_kitchen_dispatch_food_truck for Gemini).
std::string mcp_tool_name(std::string_view server, std::string_view tool, const AgentCli& agent);
// `tool` of MCP server `server` in MCP form `form` (kitchen-dispatch_food_truck for {"", "-"}).
std::string mcp_tool_name(std::string_view server, std::string_view tool,
                          const McpToolNameForm& form);

// True for a name a dispatch tool can have: 1-128 letters, digits, `_` and `-` (it is written
// into hook matchers, where anything else would be a regular expression).
bool is_valid_tool_name(std::string_view name);

}  // namespace fleet
