#pragma once
// Which tool calls the hooks act on: the dispatch tool by its bare name or as an MCP tool
// (mcp__<server>__<name>), plus names added with --tool.
// Failing: nothing here fails; the answers are bools.

#include <string>
#include <string_view>
#include <vector>

namespace fleet {

inline constexpr std::string_view kDispatchToolName = "dispatch_food_truck";

// True when `tool_name` is `name` or `mcp__<server>__<name>` (non-empty server) for
// kDispatchToolName or one of `extra_names`.
bool is_dispatch_tool(std::string_view tool_name, const std::vector<std::string>& extra_names);

// True for a name a dispatch tool can have: 1-128 letters, digits, `_` and `-` (it is written
// into hook matchers, where anything else would be a regular expression).
bool is_valid_tool_name(std::string_view name);

}  // namespace fleet
