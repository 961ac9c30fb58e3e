// resume-guard in two steps: reading the request out of a hook input (resume_request.h) and
// deciding on a request (resume_guard.h) without any hook input JSON.

#include "guard/resume_request.h"
#include "agents/agents.h"

#include <doctest/doctest.h>

#include "base/json.h"
#include "base/paths.h"
#include "fixtures.h"
#include "guard/resume_guard.h"
#include "hook/hook_protocol.h"
#include "store/provenance_store.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::TempDir;

namespace {

constexpr const char* kDispatch = "mcp__kitchen__dispatch_food_truck";

// A PreToolUse input whose tool_input is the raw JSON `tool_input`.
std::string input_with(const std::string& tool_input, const std::string& tool = kDispatch,
                       const std::string& event = "PreToolUse") {
  return R"({"session_id":"l3-a","cwd":"/project","hook_event_name":")" + event +
         R"(","tool_name":")" + tool + R"(","tool_input":)" + tool_input + "}";
}

// A hook input and the request read out of it (the request's views point into the input).
struct Read {
  HookInput hook;
  ResumeRequest request;
  explicit Read(const std::string& text, const std::vector<std::string>& tools = {})
      : hook(text, fleet::claude_code()), request(read_resume_request(hook, tools)) {}
};

}  // namespace

TEST_CASE("resume_request: a resume through the dispatch tool is read with its caller and cwd") {
  const HookInput hook(
      pre_tool_use_input("l3-a", kDispatch, "w-1", "/project", fleet::claude_code()),
      fleet::claude_code());
  const ResumeRequest request = read_resume_request(hook, {});
  CHECK(request.kind == ResumeRequest::Kind::resume);
  CHECK(request.resume_id == "w-1");
  CHECK(request.caller == "l3-a");
  CHECK(request.cwd == "/project");
  CHECK(request.problem.empty());
}

TEST_CASE("resume_request: GitHub Copilot CLI's call in Claude Code's file - judged by its owner") {
  // Copilot CLI 1.0.102 reads .claude/settings.json: the tool is <server>-<tool>, and a
  // subagent's call names the main session in parent_agent_id.
  const Read main_agent(
      R"({"hook_event_name":"PreToolUse","session_id":"main-1","timestamp":"t","cwd":"/p",)"
      R"("tool_name":"kitchen-dispatch_food_truck","tool_input":{"resume_session_id":"w-1"}})");
  CHECK(main_agent.request.kind == ResumeRequest::Kind::resume);
  CHECK(main_agent.request.caller == "main-1");
  const Read subagent(
      R"({"hook_event_name":"PreToolUse","session_id":"sub-1","parent_agent_id":"main-1",)"
      R"("tool_name":"kitchen-dispatch_food_truck","tool_input":{"resume_session_id":"w-1"}})");
  CHECK(subagent.request.kind == ResumeRequest::Kind::resume);
  CHECK(subagent.request.caller == "main-1");
}

TEST_CASE("resume_request: what is not a resume of a guarded tool reads as none") {
  CHECK(Read(input_with(R"({"resume_session_id":"w-1"})", "Bash")).request.kind ==
        ResumeRequest::Kind::none);
  CHECK(Read(input_with(R"({"resume_session_id":"w-1"})", kDispatch, "PostToolUse")).request.kind ==
        ResumeRequest::Kind::none);
  CHECK(Read(input_with(R"({})")).request.kind == ResumeRequest::Kind::none);
  CHECK(Read(input_with(R"({"resume_session_id":null})")).request.kind ==
        ResumeRequest::Kind::none);
  CHECK(Read(input_with(R"({"resume_session_id":""})")).request.kind == ResumeRequest::Kind::none);
  CHECK(Read(input_with("null")).request.kind == ResumeRequest::Kind::none);
  // --tool adds a name; without hook_event_name the input is taken as PreToolUse.
  CHECK(Read(R"({"tool_name":"mcp__x__launch","tool_input":{"resume_session_id":"w-1"}})")
            .request.kind == ResumeRequest::Kind::none);
  CHECK(
      Read(R"({"tool_name":"mcp__x__launch","tool_input":{"resume_session_id":"w-1"}})", {"launch"})
          .request.kind == ResumeRequest::Kind::resume);
}

TEST_CASE("resume_request: input that cannot be read, and a resume id that is not a string") {
  const Read bad("not json");
  const ResumeRequest& request = bad.request;
  CHECK(request.kind == ResumeRequest::Kind::unreadable);
  CHECK(request.problem.starts_with("hook input is not valid JSON"));
  CHECK(Read("").request.problem == "hook input is empty");
  CHECK(Read(input_with("[1]")).request.problem == "tool_input is a JSON array, not an object");
  const HookInput truncated(BoundedRead{"{", true, std::nullopt}, fleet::claude_code());
  CHECK(read_resume_request(truncated, {}).problem ==
        "hook input is larger than 8 MiB and was not read further");
  const HookInput failed(BoundedRead{"", false, "Input/output error"}, fleet::claude_code());
  CHECK(read_resume_request(failed, {}).problem == "cannot read stdin: Input/output error");

  const Read number(input_with(R"({"resume_session_id":42})"));
  CHECK(number.request.kind == ResumeRequest::Kind::not_a_string);
  CHECK(number.request.problem == "number");
  // Reading does not judge the id: an invalid one is the decision's (rule 1b).
  CHECK(Read(input_with(R"({"resume_session_id":"../x"})")).request.kind ==
        ResumeRequest::Kind::resume);
}

TEST_CASE("resume_request: an input object already parsed reads as its text does") {
  rapidjson::Document doc =
      fleet::test::json_document(input_with(R"({"resume_session_id":"w-1"})"));
  const ResumeRequest request = read_resume_request(HookFields(doc, fleet::claude_code()), {});
  CHECK(request.kind == ResumeRequest::Kind::resume);
  CHECK(request.resume_id == "w-1");
  CHECK(request.caller == "l3-a");
  CHECK(request.cwd == "/project");
}

TEST_CASE("resume_request: deciding needs no hook input - the verdict of each request") {
  TempDir tmp;
  append_record(provenance_store_path(tmp.path()), {"w-1", "l3-a", "k1", "", "implement", "", "t"},
                {});
  GuardOptions options;
  options.state_dir = tmp.path();
  options.kitchen_id = "k-other";
  CHECK(decide_resume(resume_request("l3-a", "w-1"), options).verdict == Verdict::silent);
  const GuardDecision stranger = decide_resume(resume_request("l3-x", "w-1"), options);
  CHECK(stranger.verdict == Verdict::deny);
  CHECK(stranger.message.find("dispatched by l3-a in kitchen k1") != std::string::npos);
  CHECK(decide_resume(resume_request("l3-x", "w-9"), options).verdict == Verdict::advisory);
  CHECK(decide_resume(resume_request("l3-x", "../x"), options).message.starts_with("Refused: "));
  CHECK(decide_resume(resume_request("l3-x", ""), options).verdict == Verdict::silent);
  CHECK(decide_resume(resume_request("w-1", "w-1"), options).message.find("own id") !=
        std::string::npos);

  ResumeRequest unreadable;
  unreadable.kind = ResumeRequest::Kind::unreadable;
  unreadable.problem = "hook input is empty";
  GuardDecision decision = decide_resume(unreadable, options);
  CHECK(decision.verdict == Verdict::silent);
  CHECK(decision.log == "resume-guard: hook input is empty; no decision made");
  CHECK_FALSE(decision.output(fleet::claude_code()));
  options.strict = true;
  CHECK(decide_resume(unreadable, options).verdict == Verdict::deny);
  CHECK(decide_resume(resume_request("l3-x", "w-9"), options).verdict == Verdict::deny);

  ResumeRequest number;
  number.kind = ResumeRequest::Kind::not_a_string;
  number.problem = "number";
  decision = decide_resume(number, options);
  CHECK(decision.verdict == Verdict::deny);
  CHECK(decision.message.find("but it is a JSON number") != std::string::npos);
  REQUIRE(decision.output(fleet::claude_code()));
  CHECK(decision.output(fleet::claude_code())->find("\"permissionDecision\":\"deny\"") !=
        std::string::npos);
  CHECK_FALSE(decision.log);
}

TEST_CASE("resume_request: the verdicts have one name each") {
  for (const Verdict verdict : {Verdict::silent, Verdict::deny, Verdict::advisory}) {
    CHECK(parse_verdict(to_string(verdict)) == verdict);
  }
  CHECK(std::string(to_string(Verdict::silent)) == "silent");
  CHECK(std::string(to_string(Verdict::deny)) == "deny");
  CHECK(std::string(to_string(Verdict::advisory)) == "advisory");
  CHECK_FALSE(parse_verdict("allowed"));
  CHECK_FALSE(parse_verdict("pass"));
  CHECK_FALSE(parse_verdict("Deny"));
}
