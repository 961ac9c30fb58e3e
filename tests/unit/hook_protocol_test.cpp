#include "hook/hook_protocol.h"
#include "agents/agents.h"

#include <doctest/doctest.h>
#include <unistd.h>
#include <csignal>
#include <thread>

#include "base/json.h"
#include "fixtures.h"

using namespace fleet;

namespace {

BoundedRead read_through_pipe(const std::string& data, std::size_t cap) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  std::thread writer([&] {
    std::size_t off = 0;
    while (off < data.size()) {
      const ssize_t n = ::write(fds[1], data.data() + off, data.size() - off);
      if (n <= 0) break;  // the reader stopped early (EPIPE is ignored below)
      off += static_cast<std::size_t>(n);
    }
    ::close(fds[1]);
  });
  BoundedRead result = read_bounded(fds[0], cap);
  ::close(fds[0]);
  writer.join();
  return result;
}

}  // namespace

TEST_CASE("hook_protocol: bounded read") {
  ::signal(SIGPIPE, SIG_IGN);
  auto small = read_through_pipe("{\"a\":1}", 100);
  CHECK(small.text == "{\"a\":1}");
  CHECK_FALSE(small.truncated);
  auto big = read_through_pipe(std::string(300000, 'x'), 100000);
  CHECK(big.text.size() == 100000);
  CHECK(big.truncated);
  auto exact = read_through_pipe(std::string(1000, 'x'), 1000);
  CHECK(exact.text.size() == 1000);
  CHECK_FALSE(exact.truncated);
  const BoundedRead failed = read_bounded(-1, 10);
  REQUIRE(failed.error);
  CHECK_FALSE(failed.error->empty());
  CHECK_FALSE(read_through_pipe("{}", 10).error);
}

TEST_CASE("hook_protocol: typed fields of a PreToolUse input") {
  const HookInput hook(R"({"session_id":"s-1","cwd":"/p","hook_event_name":"PreToolUse",
    "tool_name":"mcp__k__dispatch_food_truck","tool_input":{"resume_session_id":"x"},
    "tool_use_id":"t","mcp_server":{"name":"k","source":"config"}})",
                       fleet::claude_code());
  REQUIRE(hook.valid());
  CHECK(hook.session_id() == "s-1");
  CHECK(hook.cwd() == "/p");
  CHECK(hook.hook_event_name() == "PreToolUse");
  CHECK(hook.tool_name() == "mcp__k__dispatch_food_truck");
  REQUIRE(hook.tool_input() != nullptr);
  CHECK(hook.tool_input()->IsObject());
  CHECK(hook.tool_response() == nullptr);
}

TEST_CASE("hook_protocol: fields of the wrong type read as absent") {
  const HookInput hook(R"({"session_id":42,"tool_name":null,"cwd":["x"]})", fleet::claude_code());
  REQUIRE(hook.valid());
  CHECK(hook.session_id().empty());
  CHECK(hook.tool_name().empty());
  CHECK(hook.cwd().empty());
}

TEST_CASE("hook_protocol: empty - invalid and non-object inputs are reported") {
  CHECK(HookInput("", fleet::claude_code()).error() == "hook input is empty");
  CHECK(HookInput(" \n", fleet::claude_code()).error() == "hook input is empty");
  CHECK(HookInput("{nope", fleet::claude_code()).error().find("not valid JSON") !=
        std::string::npos);
  CHECK(HookInput("[1,2]", fleet::claude_code()).error() ==
        "hook input is a JSON array, not an object");
  CHECK(HookInput("\"s\"", fleet::claude_code()).error() ==
        "hook input is a JSON string, not an object");
  const HookInput bad("{", fleet::claude_code());
  CHECK_FALSE(bad.valid());
  CHECK(bad.session_id().empty());  // still safe to query
}

TEST_CASE("hook_protocol: the deny and advisory outputs") {
  rapidjson::Document doc =
      fleet::test::json_document(pre_tool_use_deny("no \"way\"\n", fleet::claude_code()));
  const auto& specific = doc["hookSpecificOutput"];
  CHECK(std::string(specific["hookEventName"].GetString()) == "PreToolUse");
  CHECK(std::string(specific["permissionDecision"].GetString()) == "deny");
  CHECK(std::string(specific["permissionDecisionReason"].GetString()) == "no \"way\"\n");
  CHECK(pre_tool_use_deny("x", fleet::claude_code()).back() == '\n');

  doc = fleet::test::json_document(advisory("heads up", fleet::claude_code()));
  CHECK(std::string(doc["systemMessage"].GetString()) == "heads up");
  CHECK(doc.MemberCount() == 1);
}

TEST_CASE("hook_protocol: each agent CLI's deny - the same advisory") {
  const AgentCli& codex = *find_agent_cli("codex");
  const AgentCli& gemini = *find_agent_cli("gemini");
  CHECK(pre_tool_use_deny("no", codex) == pre_tool_use_deny("no", fleet::claude_code()));
  CHECK(pre_tool_use_deny("no \"way\"", gemini) ==
        "{\"decision\":\"deny\",\"reason\":\"no \\\"way\\\"\"}\n");
  CHECK(pre_tool_use_deny("no", fleet::claude_code()) ==
        "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\","
        "\"permissionDecisionReason\":\"no\"}}\n");
  for (const AgentCli* agent : agent_clis()) {
    CHECK(advisory("heads up", *agent) == "{\"systemMessage\":\"heads up\"}\n");
  }
}

TEST_CASE("hook_protocol: a Gemini BeforeTool input and the probe check sends") {
  const AgentCli& gemini = *find_agent_cli("gemini");
  const HookInput hook(R"({"session_id":"s-1","cwd":"/p","hook_event_name":"BeforeTool",
      "timestamp":"2026-05-06T13:30:00.000Z","tool_name":"mcp_fleet_dispatch_food_truck",
      "tool_input":{"resume_session_id":"w-1"},"mcp_context":{"server_name":"fleet"}})",
                       gemini);
  REQUIRE(hook.valid());
  CHECK(&hook.agent() == &gemini);
  CHECK(hook.hook_event_name() == "BeforeTool");
  CHECK(hook.session_id() == "s-1");
  CHECK(hook.tool_name() == "mcp_fleet_dispatch_food_truck");
  REQUIRE(hook.tool_input() != nullptr);
  CHECK(&HookInput("{}", fleet::claude_code()).agent() == &claude_code());
  const HookInput probe(
      pre_tool_use_input("s-2", "mcp_fleet_dispatch_food_truck", "w-2", "", gemini), gemini);
  CHECK(probe.hook_event_name() == "BeforeTool");
  CHECK(probe.session_id() == "s-2");
}

TEST_CASE("hook_protocol: the caller is the session that owns the call") {
  // GitHub Copilot CLI 1.0.102, a subagent's call: session_id is the subagent's own id,
  // parent_agent_id the main session.
  const HookInput subagent(
      R"({"hook_event_name":"PreToolUse","session_id":"sub-1",)"
      R"("parent_agent_id":"main-1","tool_name":"kitchen-dispatch_food_truck"})",
      fleet::claude_code());
  CHECK(subagent.session_id() == "sub-1");
  CHECK(subagent.caller_session_id() == "main-1");
  // The main agent's own call, and a parent that is empty or not a string: session_id.
  for (const char* text :
       {R"({"session_id":"main-1"})", R"({"session_id":"main-1","parent_agent_id":""})",
        R"({"session_id":"main-1","parent_agent_id":7})"}) {
    CAPTURE(text);
    CHECK(HookInput(text, fleet::claude_code()).caller_session_id() == "main-1");
  }
}

TEST_CASE("hook_protocol: the call token's rewrite in each CLI's output form") {
  const rapidjson::Document model_input = fleet::test::json_document(
      R"({"prompt":"build it","resume_session_id":"w-1","fleet_hooks_call":"the model's guess"})");
  // Gemini CLI 0.61.0: hookSpecificOutput.tool_input, the whole input (tool.build checks it).
  CHECK(pre_tool_use_rewrite(model_input, kCallTokenArgument, "t0k3n", "",
                             *find_agent_cli("gemini")) ==
        R"({"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"prompt":"build it",)"
        R"("resume_session_id":"w-1","fleet_hooks_call":"t0k3n"}}})"
        "\n");
  // GitHub Copilot CLI and the suite's OpenCode plugin: hookSpecificOutput.updatedInput.
  for (const char* name : {"copilot", "opencode"}) {
    CAPTURE(name);
    const rapidjson::Document out = fleet::test::json_document(
        pre_tool_use_rewrite(model_input, kCallTokenArgument, "t0k3n", "", *find_agent_cli(name)));
    const auto& specific = out["hookSpecificOutput"];
    CHECK(std::string(specific["hookEventName"].GetString()) == "PreToolUse");
    CHECK(!specific.HasMember("permissionDecision"));  // never an allow
    const auto& input = specific["updatedInput"];
    CHECK(input.MemberCount() == 3);
    CHECK(std::string(input["fleet_hooks_call"].GetString()) == "t0k3n");
    CHECK(std::string(input["prompt"].GetString()) == "build it");
  }
  // An advisory stays beside the rewrite.
  const rapidjson::Document advised = fleet::test::json_document(pre_tool_use_rewrite(
      model_input, kCallTokenArgument, "t0k3n", "not checked", *find_agent_cli("copilot")));
  CHECK(std::string(advised["systemMessage"].GetString()) == "not checked");
  CHECK(advised["hookSpecificOutput"]["updatedInput"].HasMember("fleet_hooks_call"));
}

TEST_CASE("hook_protocol: which CLIs bind a call by a token") {
  // Those whose pre-tool hook can change what reaches the MCP server; Claude Code and Codex
  // name the caller in _meta themselves; Qwen Code 0.24.4 lets no PreToolUse hook change it.
  for (const AgentCli* agent : agent_clis()) {
    CAPTURE(agent->name);
    const bool token =
        agent->name == "gemini" || agent->name == "copilot" || agent->name == "opencode";
    CHECK(binds_call_token(*agent) == token);
    if (token) CHECK(agent->mcp_call.token_argument == kCallTokenArgument);
  }
}
