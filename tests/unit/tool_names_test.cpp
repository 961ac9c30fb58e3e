#include "hook/tool_names.h"

#include <doctest/doctest.h>

using namespace fleet;

TEST_CASE("tool_names: the dispatch tool - bare and as an MCP tool") {
  const std::vector<std::string> none;
  CHECK(is_dispatch_tool("dispatch_food_truck", none));
  CHECK(is_dispatch_tool("mcp__kitchen__dispatch_food_truck", none));
  CHECK(is_dispatch_tool("mcp__a__b__dispatch_food_truck", none));
  CHECK_FALSE(is_dispatch_tool("mcp____dispatch_food_truck", none));
  CHECK_FALSE(is_dispatch_tool("mcp__kitchen__dispatch_food_truck2", none));
  CHECK_FALSE(is_dispatch_tool("xdispatch_food_truck", none));
  CHECK_FALSE(is_dispatch_tool("mcp__kitchen_dispatch_food_truck", none));
  CHECK_FALSE(is_dispatch_tool("Bash", none));
  CHECK_FALSE(is_dispatch_tool("", none));
}

TEST_CASE("tool_names: names added with --tool") {
  const std::vector<std::string> extra = {"launch_worker", ""};
  CHECK(is_dispatch_tool("launch_worker", extra));
  CHECK(is_dispatch_tool("mcp__srv__launch_worker", extra));
  CHECK(is_dispatch_tool("dispatch_food_truck", extra));
  CHECK_FALSE(is_dispatch_tool("launch_worker_x", extra));
  CHECK_FALSE(is_dispatch_tool("", extra));
}
