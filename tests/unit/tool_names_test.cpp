#include "hook/tool_names.h"
#include "agents/agents.h"

#include <doctest/doctest.h>

using namespace fleet;

TEST_CASE("tool_names: the dispatch tool - bare and as an MCP tool") {
  const std::vector<std::string> none;
  CHECK(is_dispatch_tool("dispatch_food_truck", none, fleet::claude_code()));
  CHECK(is_dispatch_tool("mcp__kitchen__dispatch_food_truck", none, fleet::claude_code()));
  CHECK(is_dispatch_tool("mcp__a__b__dispatch_food_truck", none, fleet::claude_code()));
  CHECK_FALSE(is_dispatch_tool("mcp____dispatch_food_truck", none, fleet::claude_code()));
  CHECK_FALSE(is_dispatch_tool("mcp__kitchen__dispatch_food_truck2", none, fleet::claude_code()));
  CHECK_FALSE(is_dispatch_tool("xdispatch_food_truck", none, fleet::claude_code()));
  CHECK_FALSE(is_dispatch_tool("mcp__kitchen_dispatch_food_truck", none, fleet::claude_code()));
  CHECK_FALSE(is_dispatch_tool("Bash", none, fleet::claude_code()));
  CHECK_FALSE(is_dispatch_tool("", none, fleet::claude_code()));
}

TEST_CASE("tool_names: names added with --tool") {
  const std::vector<std::string> extra = {"launch_worker", ""};
  CHECK(is_dispatch_tool("launch_worker", extra, fleet::claude_code()));
  CHECK(is_dispatch_tool("mcp__srv__launch_worker", extra, fleet::claude_code()));
  CHECK(is_dispatch_tool("dispatch_food_truck", extra, fleet::claude_code()));
  CHECK_FALSE(is_dispatch_tool("launch_worker_x", extra, fleet::claude_code()));
  CHECK_FALSE(is_dispatch_tool("", extra, fleet::claude_code()));
}

TEST_CASE("tool_names: each agent CLI's MCP form - matched as exactly as Claude Code's") {
  const std::vector<std::string> none;
  const AgentCli& codex = *find_agent_cli("codex");
  const AgentCli& gemini = *find_agent_cli("gemini");
  CHECK(mcp_tool_name("kitchen", "dispatch_food_truck", fleet::claude_code()) ==
        "mcp__kitchen__dispatch_food_truck");
  CHECK(mcp_tool_name("kitchen", "dispatch_food_truck", codex) ==
        "mcp__kitchen__dispatch_food_truck");
  CHECK(mcp_tool_name("fleet", "dispatch_food_truck", gemini) == "mcp_fleet_dispatch_food_truck");

  CHECK(is_dispatch_tool("mcp__fleet__dispatch_food_truck", none, codex));  // observed name
  CHECK(is_dispatch_tool("dispatch_food_truck", none, codex));
  CHECK_FALSE(is_dispatch_tool("mcp__kitchen_dispatch_food_truck", none, codex));
  CHECK_FALSE(is_dispatch_tool("mcp_fleet_dispatch_food_truck", none, codex));

  CHECK(is_dispatch_tool("mcp_fleet_dispatch_food_truck", none, gemini));  // observed name
  CHECK(is_dispatch_tool("mcp_my_fleet_dispatch_food_truck", none, gemini));
  CHECK(is_dispatch_tool("dispatch_food_truck", none, gemini));
  CHECK_FALSE(is_dispatch_tool("mcp__dispatch_food_truck", none, gemini));  // no server
  CHECK_FALSE(is_dispatch_tool("mcp_dispatch_food_truck", none, gemini));
  CHECK_FALSE(is_dispatch_tool("mcp_fleet_dispatch_food_truck2", none, gemini));
  CHECK_FALSE(is_dispatch_tool("mcpx_fleet_dispatch_food_truck", none, gemini));
  CHECK_FALSE(is_dispatch_tool("mcp_fleetdispatch_food_truck", none, gemini));
  CHECK_FALSE(is_dispatch_tool("run_shell_command", none, gemini));
  // Gemini does not name tools the Claude Code way, and Claude Code not the Gemini way.
  CHECK_FALSE(is_dispatch_tool("mcp_fleet_dispatch_food_truck", none, fleet::claude_code()));
  const std::vector<std::string> extra = {"launch_worker"};
  CHECK(is_dispatch_tool("mcp_srv_launch_worker", extra, gemini));
  CHECK_FALSE(is_dispatch_tool("mcp_srv_launch_worker_x", extra, gemini));
}

TEST_CASE("tool_names: GitHub Copilot CLI's <server>-<tool> in Claude Code's file") {
  // Copilot CLI 1.0.102 runs the hooks of .claude/settings.json and calls an MCP server's tool
  // <server>-<tool> (observed: fleet-dispatch_food_truck, kitchen-dispatch_food_truck).
  const std::vector<std::string> none;
  CHECK(is_dispatch_tool("fleet-dispatch_food_truck", none, fleet::claude_code()));
  CHECK(is_dispatch_tool("kitchen-dispatch_food_truck", none, fleet::claude_code()));
  CHECK(is_dispatch_tool("my-fleet-dispatch_food_truck", none, fleet::claude_code()));
  CHECK_FALSE(is_dispatch_tool("-dispatch_food_truck", none, fleet::claude_code()));  // no server
  CHECK_FALSE(is_dispatch_tool("kitchen-dispatch_food_truck2", none, fleet::claude_code()));
  CHECK_FALSE(is_dispatch_tool("kitchen-redispatch_food_truck", none, fleet::claude_code()));
  CHECK_FALSE(is_dispatch_tool("kitchen_dispatch_food_truck", none, fleet::claude_code()));
  const std::vector<std::string> extra = {"launch_worker"};
  CHECK(is_dispatch_tool("kitchen-launch_worker", extra, fleet::claude_code()));
  CHECK_FALSE(is_dispatch_tool("kitchen-launch_worker", none, fleet::claude_code()));
  // Only Claude Code's file is read by Copilot: Codex's and Gemini's hooks keep their forms.
  CHECK_FALSE(is_dispatch_tool("kitchen-dispatch_food_truck", none, *find_agent_cli("codex")));
  CHECK_FALSE(is_dispatch_tool("kitchen-dispatch_food_truck", none, *find_agent_cli("gemini")));
  CHECK(mcp_tool_name("kitchen", "dispatch_food_truck", McpToolNameForm{"", "-"}) ==
        "kitchen-dispatch_food_truck");
}

TEST_CASE("tool_names: OpenCode's <server>_<tool> - its own form, not Claude Code's") {
  const std::vector<std::string> none;
  const AgentCli& opencode = *find_agent_cli("opencode");
  CHECK(mcp_tool_name("kitchen", "dispatch_food_truck", opencode) == "kitchen_dispatch_food_truck");
  CHECK(is_dispatch_tool("kitchen_dispatch_food_truck", none, opencode));  // OpenCode 1.18.33
  CHECK(is_dispatch_tool("dispatch_food_truck", none, opencode));
  CHECK_FALSE(is_dispatch_tool("_dispatch_food_truck", none, opencode));  // no server
  CHECK_FALSE(is_dispatch_tool("kitchendispatch_food_truck", none, opencode));
  CHECK_FALSE(is_dispatch_tool("kitchen_dispatch_food_truck", none, fleet::claude_code()));
}
