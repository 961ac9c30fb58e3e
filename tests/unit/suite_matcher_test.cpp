#include "settings/suite_matcher.h"
#include "agents/agents.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "settings/matcher.h"

using namespace fleet;

namespace {

// GitHub Copilot CLI 1.0.102 matches a matcher against the whole tool name (observed:
// "dispatch_food" does not select fleet-dispatch_food_truck): the matcher read as a JavaScript
// RegExp anchored at both ends.
bool copilot_matches(std::string_view matcher, std::string_view tool) {
  return matcher_matches("^(?:" + std::string(matcher) + ")$", tool);
}

const std::vector<std::string> kSelected = {
    "dispatch_food_truck", "mcp__kitchen__dispatch_food_truck", "kitchen-dispatch_food_truck",
    "fleet-dispatch_food_truck", "my-fleet-dispatch_food_truck"};
const std::vector<std::string> kOthers = {"Bash",
                                          "Task",
                                          "kitchen-list_trucks",
                                          "kitchen-dispatch_food_truck_status",
                                          "redispatch_food_truck",
                                          "mcp__kitchen__list_trucks"};

}  // namespace

TEST_CASE("suite_matcher: Claude Code's matcher selects GitHub Copilot CLI's name too") {
  CHECK(kDispatchMatcher == "^(mcp__.*__|.*-)?dispatch_food_truck$");
  CHECK(dispatch_matcher({}, fleet::claude_code()) == std::string(kDispatchMatcher));
  CHECK(read_matcher(kDispatchMatcher) == MatcherReading::exact);
  for (const std::string& tool : kSelected) {
    CAPTURE(tool);
    CHECK(matcher_matches(kDispatchMatcher, tool));  // Claude Code's engine
    CHECK(copilot_matches(kDispatchMatcher, tool));  // Copilot's whole-name match
  }
  for (const std::string& tool : kOthers) {
    CAPTURE(tool);
    CHECK_FALSE(matcher_matches(kDispatchMatcher, tool));
    CHECK_FALSE(copilot_matches(kDispatchMatcher, tool));
  }
  CHECK(matcher_faults(kDispatchMatcher, "", fleet::claude_code()).empty());
  const std::string two = dispatch_matcher({"spawn_worker"}, fleet::claude_code());
  CHECK(two == "^(mcp__.*__|.*-)?(dispatch_food_truck|spawn_worker)$");
  CHECK(copilot_matches(two, "kitchen-spawn_worker"));
  CHECK(matcher_faults(two, "--tool spawn_worker", fleet::claude_code()).empty());
  CHECK(matcher_names(two, fleet::claude_code()) ==
        std::vector<std::string>{"dispatch_food_truck", "spawn_worker"});
}

TEST_CASE("suite_matcher: the matcher older versions wrote leaves Copilot unguarded") {
  const std::string old = "^(mcp__.*__)?dispatch_food_truck$";
  CHECK_FALSE(copilot_matches(old, "kitchen-dispatch_food_truck"));
  const std::vector<MatcherFault> faults = matcher_faults(old, "", fleet::claude_code());
  REQUIRE(faults.size() == 1);
  CHECK(std::string(faults[0].rule) == "matcher-misses-other-cli");
  CHECK(faults[0].problem.find("misses kitchen-dispatch_food_truck, the name GitHub Copilot CLI "
                               "(1.0.102) gives") != std::string::npos);
  CHECK(faults[0].problem.find("runs the hooks of .claude/settings.json too") != std::string::npos);
  CHECK(faults[0].problem.find("the dispatch tool is unguarded there") != std::string::npos);
  CHECK(faults[0].problem.find("use ^(mcp__.*__|.*-)?dispatch_food_truck$") != std::string::npos);
  // Install recognises it as the suite's own list of names, so it can rewrite it.
  CHECK(matcher_names(old, fleet::claude_code()) ==
        std::vector<std::string>{"dispatch_food_truck"});
  CHECK(matcher_names("^(mcp__.*__)?(dispatch_food_truck|spawn_worker)$", fleet::claude_code()) ==
        std::vector<std::string>{"dispatch_food_truck", "spawn_worker"});
  // A plain name still misses the MCP form first.
  const std::vector<MatcherFault> plain =
      matcher_faults("dispatch_food_truck", "", fleet::claude_code());
  REQUIRE(plain.size() == 1);
  CHECK(std::string(plain[0].rule) == "matcher-misses-mcp");
}

TEST_CASE("suite_matcher: Codex and Gemini keep their own matcher") {
  const AgentCli& codex = *find_agent_cli("codex");
  const AgentCli& gemini = *find_agent_cli("gemini");
  CHECK(dispatch_matcher({}, codex) == "^(mcp__.*__)?dispatch_food_truck$");
  CHECK(matcher_faults("^(mcp__.*__)?dispatch_food_truck$", "", codex).empty());
  CHECK(dispatch_matcher({}, gemini) == "^(mcp_.*_)?dispatch_food_truck$");
  CHECK(matcher_faults("^(mcp_.*_)?dispatch_food_truck$", "", gemini).empty());
}
