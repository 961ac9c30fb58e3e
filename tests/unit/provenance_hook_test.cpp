#include "hook/provenance_hook.h"
#include "agents/agents.h"

#include <doctest/doctest.h>

#include "agent_hooks.h"
#include "base/paths.h"
#include "fixtures.h"
#include "store/provenance_store.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::post_tool_use;
using fleet::test::TempDir;

namespace {

std::optional<ProvenanceRecord> extract(const std::string& input, std::string& problem,
                                        const std::string& store = "/nonexistent/s.jsonl") {
  const HookInput hook(input, fleet::claude_code());
  REQUIRE(hook.valid());
  DispatchedRecord dispatched =
      dispatched_record(hook, "default-kitchen", store, fleet::agent_clis());
  problem = dispatched.outcome == DispatchedRecord::Outcome::no_session_id
                ? "no dispatched session id"
                : "";
  if (dispatched.outcome != DispatchedRecord::Outcome::launched) return std::nullopt;
  return dispatched.record;
}

}  // namespace

TEST_CASE("provenance_hook: fields from MCP text blocks - then tool_input") {
  std::string problem;
  auto record = extract(
      post_tool_use(
          R"({"recipe_name":"implement","step_name":"build","kitchen_id":"k-in"})",
          R"([{"type":"text","text":"{\"session_id\":\"w-1\",\"dispatch_id\":\"d-9\",\"kitchen_id\":\"k-out\"}"}])"),
      problem);
  REQUIRE(record);
  CHECK(record->session_id == "w-1");
  CHECK(record->caller_session_id == "c0ffee00-0000-4000-8000-000000000001");
  CHECK(record->dispatch_id == "d-9");
  CHECK(record->kitchen_id == "k-out");  // tool_response wins over tool_input
  CHECK(record->recipe_name == "implement");
  CHECK(record->step_name == "build");
}

TEST_CASE("provenance_hook: a JSON object response and dispatched_session_id") {
  std::string problem;
  auto record = extract(
      post_tool_use(R"({})", R"({"dispatched_session_id":"w-2","session_id":"ignored"})"), problem);
  REQUIRE(record);
  CHECK(record->session_id == "w-2");
  CHECK(record->kitchen_id == "default-kitchen");
}

TEST_CASE("provenance_hook: non-JSON text blocks are skipped") {
  std::string problem;
  auto record = extract(post_tool_use(R"({"session_id":"w-3"})",
                                      R"([{"type":"text","text":"launched!"},{"type":"image"}])"),
                        problem);
  REQUIRE(record);
  CHECK(record->session_id == "w-3");
}

TEST_CASE("provenance_hook: no dispatched id means no record") {
  std::string problem;
  CHECK_FALSE(extract(post_tool_use(R"({"resume_session_id":"x"})", R"("plain text")"), problem));
  CHECK(problem.find("no dispatched session id") != std::string::npos);
}

TEST_CASE("provenance_hook: run_provenance_hook writes the record and never throws") {
  TempDir tmp;
  ProvenanceHookOptions options;
  options.agent = &fleet::claude_code();
  options.known_agents = fleet::agent_clis();
  options.state_dir = tmp.path();
  const std::string store = provenance_store_path(tmp.path());

  CHECK_FALSE(run_provenance_hook(
      {post_tool_use("{}", R"({"session_id":"w-1","recipe_name":"r"})"), false, std::nullopt},
      options));
  auto found = lookup_session(store, "w-1");
  REQUIRE(found.status == StoreLookup::Status::found);
  CHECK(found.record.recipe_name == "r");
  CHECK_FALSE(found.record.timestamp.empty());

  // Other tools and events: nothing, silently.
  CHECK_FALSE(run_provenance_hook(
      {post_tool_use("{}", R"({"session_id":"w-2"})", "Bash"), false, std::nullopt}, options));
  CHECK(lookup_session(store, "w-2").status == StoreLookup::Status::not_found);

  // Problems: one log line each, nothing written.
  CHECK(run_provenance_hook({"nope", false, std::nullopt}, options)
            .value_or("")
            .find("not valid JSON") != std::string::npos);
  CHECK(run_provenance_hook({"{}", true, std::nullopt}, options).value_or("").find("too large") !=
        std::string::npos);
  CHECK(run_provenance_hook({post_tool_use("{}", "[]"), false, std::nullopt}, options)
            .value_or("")
            .find("nothing recorded") != std::string::npos);
  CHECK(run_provenance_hook({post_tool_use("{}", R"({"session_id":"../x"})"), false, std::nullopt},
                            options)
            .value_or("")
            .find("session id") != std::string::npos);
  CHECK(lookup_session(store, "../x").status == StoreLookup::Status::not_found);
}

TEST_CASE("provenance_hook: a resume records nothing, a session the call launched is a worker") {
  std::string problem = "unset";
  // The resumed session, named by the response in full or by the call with a prefix.
  CHECK_FALSE(extract(
      post_tool_use(
          R"({"resume_session_id":"0d07e5d0-0000-4000-8000-000000000001"})",
          R"([{"type":"text","text":"{\"session_id\":\"0d07e5d0-0000-4000-8000-000000000001\"}"}])"),
      problem));
  CHECK(problem.empty());
  // A prefix is compared once the store resolves it: to the dispatched session, a resume.
  TempDir tmp;
  const std::string store = tmp / "s.jsonl";
  append_record(store, fleet::test::record("0d07e5d0-0000-4000-8000-000000000001"), {});
  problem = "unset";
  CHECK_FALSE(extract(post_tool_use(R"({"resume_session_id":"0d07e5d0"})",
                                    R"({"session_id":"0d07e5d0-0000-4000-8000-000000000001"})"),
                      problem, store));
  CHECK(problem.empty());
  // To another session (w-1 itself), or to none: the dispatched w-10 is a fresh session.
  append_record(store, fleet::test::record("w-1"), {});
  for (const std::string& where : {store, std::string("/nonexistent/s.jsonl")}) {
    auto fresh_w10 =
        extract(post_tool_use(R"({"resume_session_id":"w-1"})", R"({"session_id":"w-10"})"),
                problem, where);
    REQUIRE(fresh_w10);
    CHECK(fresh_w10->session_id == "w-10");
  }
  // The dispatcher launched a fresh session instead: that one is recorded, as a worker.
  auto fresh = extract(post_tool_use(R"({"resume_session_id":"0d07e5d0"})",
                                     R"({"session_id":"1e07e5d0-0000-4000-8000-000000000002"})"),
                       problem);
  REQUIRE(fresh);
  CHECK(fresh->session_id == "1e07e5d0-0000-4000-8000-000000000002");
  CHECK(fresh->recipe_name == kUnnamedRecipe);
  auto named =
      extract(post_tool_use(R"({"recipe_name":"implement"})", R"({"session_id":"w-9"})"), problem);
  REQUIRE(named);
  CHECK(named->recipe_name == "implement");
}

TEST_CASE("provenance_hook: a fresh dispatch recorded from each agent CLI's post-tool input") {
  for (const AgentCli* agent : agent_clis()) {
    CAPTURE(agent->name);
    TempDir tmp;
    ProvenanceHookOptions options;
    options.state_dir = tmp.path();
    options.agent = agent;
    options.known_agents = fleet::agent_clis();
    const std::string input = fleet::test::agent_post_tool_input(
        *agent, fleet::test::kL3, R"({"recipe_name":"implement","step_name":"build"})",
        R"({"session_id":"w-1","dispatch_id":"d-7","kitchen_id":"kitchen-1"})");
    CHECK_FALSE(run_provenance_hook({input, false, std::nullopt}, options));
    const StoreLookup found = lookup_session(provenance_store_path(tmp.path()), "w-1");
    REQUIRE(found.status == StoreLookup::Status::found);
    CHECK(found.record.caller_session_id == fleet::test::kL3);
    CHECK(found.record.dispatch_id == "d-7");
    CHECK(found.record.kitchen_id == "kitchen-1");
    CHECK(found.record.recipe_name == "implement");
    CHECK(found.record.step_name == "build");
  }
}

TEST_CASE("provenance_hook: Gemini's answer is read without its untrusted_context tags") {
  const AgentCli& gemini = *find_agent_cli("gemini");
  const std::string text =
      R"({"session_id":"l3","hook_event_name":"AfterTool","tool_name":"mcp_k_dispatch_food_truck",)"
      R"("tool_input":{},"tool_response":{"llmContent":[{"text":"<untrusted_context>\n)"
      R"({\"session_id\":\"w-4\"}\n</untrusted_context>"}],"returnDisplay":"x"}})";
  const HookInput hook(text, gemini);
  REQUIRE(hook.valid());
  const DispatchedRecord dispatched =
      dispatched_record(hook, "k", "/nonexistent/s.jsonl", fleet::agent_clis());
  REQUIRE(dispatched.outcome == DispatchedRecord::Outcome::launched);
  CHECK(dispatched.record.session_id == "w-4");
  // Read as Claude Code's input, the same object names no session.
  const HookInput as_claude(text, fleet::claude_code());
  CHECK(dispatched_record(as_claude, "k", "/nonexistent/s.jsonl", fleet::agent_clis()).outcome ==
        DispatchedRecord::Outcome::no_session_id);
}

TEST_CASE("provenance_hook: GitHub Copilot CLI's PostToolUse in Claude Code's file") {
  // Observed with Copilot CLI 1.0.102: no tool_response; the MCP server's text is in
  // tool_result.text_result_for_llm. A subagent's call names the main session in
  // parent_agent_id: that session is the caller, never the subagent.
  const std::string tail =
      R"("cwd":"/p","tool_name":"kitchen-dispatch_food_truck","tool_input":{"prompt":"x"},)"
      R"("tool_result":{"result_type":"success","text_result_for_llm":)"
      R"("{\"session_id\":\"w-5\",\"kitchen_id\":\"kitchen-1\"}"}})";
  std::string problem;
  const auto main_agent = extract(
      R"({"hook_event_name":"PostToolUse","session_id":"main-1","timestamp":"t",)" + tail, problem);
  REQUIRE_MESSAGE(main_agent, problem);
  CHECK(main_agent->session_id == "w-5");
  CHECK(main_agent->caller_session_id == "main-1");
  CHECK(main_agent->kitchen_id == "kitchen-1");
  const auto subagent = extract(
      R"({"hook_event_name":"PostToolUse","session_id":"sub-1","parent_agent_id":"main-1",)" + tail,
      problem);
  REQUIRE_MESSAGE(subagent, problem);
  CHECK(subagent->caller_session_id == "main-1");
  // A failed call's result names no session: nothing is recorded.
  CHECK_FALSE(extract(R"({"hook_event_name":"PostToolUse","session_id":"main-1","tool_name":)"
                      R"("kitchen-dispatch_food_truck","tool_input":{},"tool_result":)"
                      R"({"result_type":"failure","text_result_for_llm":"boom"}})",
                      problem));
  CHECK(problem == "no dispatched session id");
}
