#include "guard/resume_guard.h"
#include "agents/agents.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include "agent_hooks.h"
#include "base/json.h"
#include "base/paths.h"
#include "fixtures.h"
#include "store/provenance_store.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::kL3;
using fleet::test::kWorker;
using fleet::test::ScopedEnv;
using fleet::test::TempDir;

namespace {

constexpr const char* kOtherL3 = "beef0000-0000-4000-8000-000000000009";

// A PreToolUse input for the dispatch tool; `resume` is raw JSON ("" leaves the key out).
std::string pre_tool_use(const std::string& caller, const std::string& resume,
                         const std::string& tool = "mcp__kitchen__dispatch_food_truck") {
  rapidjson::Document doc(rapidjson::kObjectType);
  auto& alloc = doc.GetAllocator();
  doc.AddMember("session_id", json_string(caller, alloc), alloc);
  doc.AddMember("hook_event_name", "PreToolUse", alloc);
  doc.AddMember("tool_name", json_string(tool, alloc), alloc);
  rapidjson::Value input(rapidjson::kObjectType);
  input.AddMember("recipe_name", "implement", alloc);
  if (!resume.empty()) {
    rapidjson::Document value = fleet::test::json_document(resume);
    input.AddMember("resume_session_id", rapidjson::Value(value, alloc), alloc);
  }
  doc.AddMember("tool_input", input, alloc);
  return to_json(doc);
}

std::string quoted(const std::string& id) {
  return "\"" + id + "\"";
}

struct Fixture {
  TempDir tmp;
  GuardOptions options;
  Fixture() {
    options.state_dir = tmp.path();
    options.kitchen_id = "kitchen-1";
  }
  void add(const std::string& session, const std::string& caller, const std::string& kitchen,
           const std::string& recipe = "implement") {
    append_record(provenance_store_path(tmp.path()),
                  fleet::test::record(session, caller, kitchen, recipe), {});
  }
  GuardDecision decide(const std::string& input) {
    return decide_resume(read_resume_request(HookInput(input, fleet::claude_code()), options.tools),
                         options);
  }
};

bool denied_with(const GuardDecision& d, const std::string& part) {
  return d.verdict == Verdict::deny && d.message.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("resume_guard: silent for fresh dispatches - other tools and other events") {
  Fixture f;
  CHECK(f.decide(pre_tool_use(kL3, "")).verdict == Verdict::silent);
  CHECK(f.decide(pre_tool_use(kL3, "null")).verdict == Verdict::silent);
  CHECK(f.decide(pre_tool_use(kL3, "\"\"")).verdict == Verdict::silent);
  CHECK(f.decide(pre_tool_use(kL3, quoted(kL3), "Bash")).verdict == Verdict::silent);
  std::string post = pre_tool_use(kL3, quoted(kL3));
  post.replace(post.find("PreToolUse"), 10, "PostToolUse");
  CHECK(f.decide(post).verdict == Verdict::silent);
  const auto self = f.decide(pre_tool_use(kL3, quoted(kL3))).output(fleet::claude_code());
  REQUIRE(self);
  CHECK(self->find("allow") == std::string::npos);
  CHECK_FALSE(
      f.decide(pre_tool_use(kL3, "")).output(fleet::claude_code()));  // silent: nothing on stdout
}

TEST_CASE("resume_guard: rule 1 - a resume id that is not a string is denied") {
  Fixture f;
  CHECK(denied_with(f.decide(pre_tool_use(kL3, "42")), "JSON number"));
  CHECK(denied_with(f.decide(pre_tool_use(kL3, "{\"id\":1}")), "JSON object"));
  CHECK(denied_with(f.decide(pre_tool_use(kL3, "[\"x\"]")), "JSON array"));
  CHECK(denied_with(f.decide(pre_tool_use(kL3, "true")), "JSON boolean"));
  CHECK(denied_with(f.decide(pre_tool_use(kL3, "\"../../etc/passwd\"")), "character outside"));
}

TEST_CASE("resume_guard: rule 2 - self-resume by full id or 8-char prefix") {
  Fixture f;
  CHECK(denied_with(f.decide(pre_tool_use(kL3, quoted(kL3))), "own id"));
  CHECK(denied_with(f.decide(pre_tool_use(kL3, "\"c0ffee00\"")), "own id"));
  CHECK(denied_with(f.decide(pre_tool_use(kL3, "\"c0ffee00-0000\"")), "own id"));
  // 7 characters is not enough to call it a self-resume; it is looked up instead.
  CHECK(f.decide(pre_tool_use(kL3, "\"c0ffee0\"")).verdict == Verdict::advisory);
}

TEST_CASE("resume_guard: rule 3 - first record wins and short ids resolve") {
  Fixture f;
  f.add(kWorker, kL3, "kitchen-1");
  f.add(kWorker, kOtherL3, "kitchen-2");  // a later record cannot take ownership
  CHECK(f.decide(pre_tool_use(kL3, quoted(kWorker))).verdict == Verdict::silent);
  CHECK(f.decide(pre_tool_use(kL3, "\"0d07e5d0\"")).verdict == Verdict::silent);
  f.options.kitchen_id = "kitchen-2";
  CHECK(denied_with(f.decide(pre_tool_use(kOtherL3, quoted(kWorker))), kL3));

  f.add("0d07e5d0-0000-4000-8000-000000000002", kL3, "kitchen-1");
  const auto ambiguous = f.decide(pre_tool_use(kL3, "\"0d07e5d0\""));
  CHECK(denied_with(ambiguous, "0d07e5d0-0000-4000-8000-000000000001"));
  CHECK(denied_with(ambiguous, "0d07e5d0-0000-4000-8000-000000000002"));
  CHECK(denied_with(ambiguous, "full session id"));
}

TEST_CASE("resume_guard: a short id that resolves to the caller itself is a self-resume") {
  Fixture f;
  f.add(kL3, "human", "kitchen-1", "implement");
  CHECK(denied_with(f.decide(pre_tool_use(kL3, "\"c0ffee0\"")), "own id"));
}

TEST_CASE("resume_guard: rule 4 - fail open with an advisory - --strict denies") {
  Fixture f;
  auto missing = f.decide(pre_tool_use(kL3, quoted(kWorker)));
  CHECK(missing.verdict == Verdict::advisory);
  CHECK(missing.message.find("does not exist") != std::string::npos);
  CHECK(missing.log == missing.message);
  REQUIRE(missing.output(fleet::claude_code()));
  CHECK(missing.output(fleet::claude_code())->find("systemMessage") != std::string::npos);

  f.add("someone-else", kL3, "kitchen-1");
  auto unknown = f.decide(pre_tool_use(kL3, quoted(kWorker)));
  CHECK(unknown.verdict == Verdict::advisory);
  CHECK(unknown.message.find("no provenance record") != std::string::npos);

  f.options.strict = true;
  CHECK(denied_with(f.decide(pre_tool_use(kL3, quoted(kWorker))), "--strict"));
}

TEST_CASE("resume_guard: rule 4 - an unreadable store") {
  Fixture f;
  fleet::test::write_file(f.tmp / "real", "");
  REQUIRE(::symlink((f.tmp / "real").c_str(), provenance_store_path(f.tmp.path()).c_str()) == 0);
  auto d = f.decide(pre_tool_use(kL3, quoted(kWorker)));
  CHECK(d.verdict == Verdict::advisory);
  CHECK(d.message.find("unreadable") != std::string::npos);
  f.options.strict = true;
  CHECK(denied_with(f.decide(pre_tool_use(kL3, quoted(kWorker))), "unreadable"));
}

TEST_CASE("resume_guard: rule 5 - an orchestrator session is never resumed") {
  Fixture f;
  f.add(kOtherL3, kL3, "kitchen-1", "");
  CHECK(denied_with(f.decide(pre_tool_use(kL3, quoted(kOtherL3))), "L3 orchestrator"));
}

TEST_CASE("resume_guard: rule 6 - owner caller or owner kitchen lets it through") {
  Fixture f;
  f.add(kWorker, kOtherL3, "kitchen-1");
  // A successor L3 in the same kitchen.
  CHECK(f.decide(pre_tool_use(kL3, quoted(kWorker))).verdict == Verdict::silent);
  // The owning caller from another kitchen.
  f.options.kitchen_id = "kitchen-2";
  CHECK(f.decide(pre_tool_use(kOtherL3, quoted(kWorker))).verdict == Verdict::silent);
}

TEST_CASE("resume_guard: rule 6 - the kitchen comes from the flag or the environment") {
  Fixture f;
  f.options.kitchen_id.clear();
  f.add(kWorker, kOtherL3, "camp-1");
  CHECK(f.decide(pre_tool_use(kL3, quoted(kWorker))).verdict == Verdict::deny);
  {
    ScopedEnv campaign("AUTOSKILLIT_CAMPAIGN_ID", "camp-1");
    CHECK(f.decide(pre_tool_use(kL3, quoted(kWorker))).verdict == Verdict::silent);
  }
  ScopedEnv kitchen("FLEET_HOOKS_KITCHEN_ID", "camp-1");
  CHECK(f.decide(pre_tool_use(kL3, quoted(kWorker))).verdict == Verdict::silent);
}

TEST_CASE("resume_guard: rule 7 - anyone else is denied with both owners named") {
  Fixture f;
  f.add(kWorker, kOtherL3, "kitchen-2");
  const auto d = f.decide(pre_tool_use(kL3, quoted(kWorker)));
  CHECK(denied_with(d, kOtherL3));
  CHECK(denied_with(d, "kitchen-2"));
  CHECK(denied_with(d, kL3));
  CHECK(denied_with(d, "kitchen-1"));
  // Empty owner fields never match an empty current caller or kitchen.
  Fixture g;
  g.options.kitchen_id.clear();
  g.add(kWorker, kOtherL3, "");
  CHECK(g.decide(pre_tool_use("", quoted(kWorker))).verdict == Verdict::deny);
}

TEST_CASE("resume_guard: unreadable hook input is silent with a log line - --strict denies") {
  Fixture f;
  for (const std::string bad : {"", "not json", "[1]", "{\"tool_name\":"}) {
    const auto d = f.decide(bad);
    CHECK(d.verdict == Verdict::silent);
    CHECK_FALSE(d.output(fleet::claude_code()));
    REQUIRE(d.log);
    CHECK(d.log->find("no decision made") != std::string::npos);
  }
  CHECK(f.decide(R"({"tool_name":"dispatch_food_truck","tool_input":"resume"})")
            .log.value_or("")
            .find("tool_input") != std::string::npos);
  auto truncated = decide_resume(
      read_resume_request(HookInput(BoundedRead{"{", true, std::nullopt}, fleet::claude_code()),
                          f.options.tools),
      f.options);
  CHECK(truncated.log.value_or("").find("MiB") != std::string::npos);
  f.options.strict = true;
  CHECK(f.decide("not json").verdict == Verdict::deny);
}

TEST_CASE("resume_guard: --tool adds dispatch tool names") {
  Fixture f;
  CHECK(f.decide(pre_tool_use(kL3, quoted(kL3), "mcp__x__launch")).verdict == Verdict::silent);
  f.options.tools = {"launch"};
  CHECK(f.decide(pre_tool_use(kL3, quoted(kL3), "mcp__x__launch")).verdict == Verdict::deny);
}

TEST_CASE("resume_guard: the same decision in every agent CLI's dialect") {
  Fixture f;
  f.options.kitchen_id = fleet::test::kGuardCaseKitchen;
  for (const ProvenanceRecord& record : fleet::test::guard_case_records()) {
    append_record(provenance_store_path(f.tmp.path()), record, {});
  }
  for (const fleet::test::GuardCase& c : fleet::test::guard_cases()) {
    std::optional<std::string> claude_text;
    for (const AgentCli* agent : agent_clis()) {
      CAPTURE(c.name);
      CAPTURE(agent->name);
      f.options.agent = agent;
      const std::string input = fleet::test::agent_pre_tool_input(*agent, c.caller, c.resume_json);
      const GuardDecision d =
          decide_resume(read_resume_request(HookInput(input, *agent), f.options.tools), f.options);
      const auto answer = fleet::test::read_answer(*agent, d.output(*agent).value_or(""));
      CHECK(answer.kind == c.expect);
      if (!claude_text) claude_text = answer.text;
      CHECK(answer.text == *claude_text);  // the same reason or message, word for word
    }
  }
}

TEST_CASE("resume_guard: another CLI's event or MCP name is not the dispatch call") {
  Fixture f;
  const AgentCli& gemini = *find_agent_cli("gemini");
  const AgentCli& claude = claude_code();
  // Gemini's input read as Claude Code's, and the other way round: not a guarded call.
  const std::string from_gemini = fleet::test::agent_pre_tool_input(gemini, kL3, quoted(kL3));
  CHECK(f.decide(from_gemini).verdict == Verdict::silent);
  const std::string from_claude = fleet::test::agent_pre_tool_input(claude, kL3, quoted(kL3));
  CHECK(decide_resume(read_resume_request(HookInput(from_claude, gemini), {}), f.options).verdict ==
        Verdict::silent);
  CHECK(decide_resume(read_resume_request(HookInput(from_gemini, gemini), {}), f.options).verdict ==
        Verdict::deny);
}

TEST_CASE("resume_guard: each decision names the rule of the table that decided") {
  Fixture f;
  f.add(kWorker, kL3, "kitchen-1");
  f.add("a11ce000-0000-4000-8000-000000000001", kL3, "", "");  // an L3
  f.add("0d07e5d0-0000-4000-8000-000000000002", kOtherL3, "kitchen-2");
  const auto rule = [&](const std::string& caller, const std::string& resume) {
    return std::string(f.decide(pre_tool_use(caller, resume)).rule);
  };
  CHECK(rule(kL3, "") == "not-a-resume");
  CHECK(rule(kL3, "42") == "malformed");
  CHECK(rule(kL3, "\"../x\"") == "invalid-id");
  CHECK(rule(kL3, quoted(kL3)) == "self-resume");
  CHECK(rule(kL3, "\"0d07e5d0\"") == "ambiguous-prefix");
  CHECK(rule(kL3, "\"a11ce000-0000-4000-8000-000000000001\"") == "orchestrator-session");
  CHECK(rule(kL3, quoted(kWorker)) == "caller-owns");
  CHECK(rule(kOtherL3, quoted(kWorker)) == "kitchen-owns");
  CHECK(rule(kL3, "\"0d07e5d0-0000-4000-8000-000000000002\"") == "not-owner");
  CHECK(rule(kL3, "\"unknown-1\"") == "unrecorded");
  CHECK(std::string(f.decide("not json").rule) == "unreadable-input");
  f.options.state_dir = f.tmp / "none";
  CHECK(rule(kL3, "\"unknown-1\"") == "store-missing");
}
