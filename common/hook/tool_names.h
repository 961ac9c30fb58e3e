#pragma once
// Which tool calls the hooks act on: the dispatch tool by its bare name or as an MCP tool in
// the form of the agent CLI that calls it (Claude Code and Codex: mcp__<server>__<name>;
// Gemini: mcp_<server>_<name>), plus names added with --tool.
// Failing: nothing here fails; the answers are bools.

#include <string>
#include <string_view>
#include <vector>

#include "agent/agent_cli.h"

namespace fleet {

inline constexpr std::string_view kDispatchToolName = "dispatch_food_truck";

// True when `tool_name` is `name` or its MCP form in `agent` (mcp__<server>__<name> for
// Claude Code, non-empty server) for kDispatchToolName or one of `extra_names`.
bool is_dispatch_tool(std::string_view tool_name, const std::vector<std::string>& extra_names,
                      const AgentCli& agent = claude_code());

// `tool` of MCP server `server` as `agent` names it to hooks (mcp__kitchen__dispatch_food_truck
// for Claude Code and Codex, mcp_kitchen_dispatch_food_truck for Gemini).
std::string mcp_tool_name(std::string_view server, std::string_view tool,
                          const AgentCli& agent = claude_code());

// True for a name a dispatch tool can have: 1-128 letters, digits, `_` and `-` (it is written
// into hook matchers, where anything else would be a regular expression).
bool is_valid_tool_name(std::string_view name);

}  // namespace fleet
