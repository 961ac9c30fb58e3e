// End to end: the real Codex CLI and Gemini CLI as L3 orchestrators, each against a scripted
// model API on loopback (its own wire), calling dispatch_food_truck on the stdio MCP
// dispatcher, which launches Claude Code workers through launch-wrapper. The hooks are wired
// by `fleet-hooks install --agent <cli>`, trusted, and pass `fleet-hooks check --agent <cli>`.
// Assertions use what each CLI sent back to its model, the dispatcher's calls and the store.

#include <doctest/doctest.h>

#include <string>

#include "agent_orchestrator.h"
#include "base/json.h"
#include "fixtures.h"
#include "store/provenance_store.h"

using fleet::test::AgentFleet;
using fleet::test::AgentRun;

namespace {

std::string field(const std::string& call_line, const char* object, const char* key) {
  const auto doc = fleet::parse_json_object(call_line);
  REQUIRE(doc.ok());
  const auto* inner = fleet::member(*doc, object);
  REQUIRE(inner != nullptr);
  return std::string(fleet::string_member(*inner, key).value_or(""));
}

// An L3 dispatches a worker and resumes it in the same session: both calls run, and the
// worker is recorded by the L3's after-tool hook as the L3's. Then a stranger — another L3
// session in another kitchen — tries to resume that worker: the guard denies it, the CLI tells
// its model so, and the dispatcher never runs. Returns nothing; REQUIREs / CHECKs each step.
void guarded_fleet(AgentFleet& fleet) {
  const std::string agent = fleet.profile().name;
  fleet.script(R"({"rules":[{"match":"L3-OWN","turns":[)" +
               fleet.dispatch_turn(
                   R"({"prompt":"L2-WORK build","recipe_name":"implement","step_name":"build"})") +
               "," +
               fleet.dispatch_turn(
                   R"({"prompt":"L2-WORK continue","resume_session_id":"{{last_session_id}}"})") +
               R"(,{"text":"L3 done"}]},{"match":"L2-WORK","turns":[{"text":"worker finished"}]}],)"
               R"("default":{"text":"ok"}})");
  const AgentRun owner = fleet.l3("L3-OWN dispatch the build", "kitchen-1");
  CHECK_MESSAGE(owner.process.exit_code == 0, owner.process.err);
  REQUIRE_MESSAGE(!owner.session_id.empty(), (owner.process.out + owner.process.err));
  auto calls = fleet.calls();
  REQUIRE_MESSAGE(calls.size() == 2, (fleet.tool_results() + owner.process.err));
  const std::string worker = field(calls[0], "result", "session_id");
  REQUIRE(!worker.empty());
  // (b) the owner's resume ran.
  CHECK(field(calls[1], "input", "resume_session_id") == worker);
  CHECK(field(calls[1], "result", "session_id") == worker);
  CHECK(fleet.tool_results().find(fleet.profile().blocked_prefix) == std::string::npos);
  // (c) the fresh dispatch was recorded by `provenance-writer hook --agent <cli>` (the
  // dispatcher records nothing here), with the L3's own session id as the caller.
  const auto record = fleet::lookup_session(fleet.store(), worker);
  REQUIRE_MESSAGE(record.status == fleet::StoreLookup::Status::found, agent);
  CHECK(record.record.caller_session_id == owner.session_id);
  CHECK(record.record.kitchen_id == "kitchen-1");
  CHECK(record.record.recipe_name == "implement");

  // (a) a stranger's resume is denied: the model is told why, the dispatcher does not run.
  fleet.check_stranger_denied(worker, owner.session_id, 2);
}

// Records a worker of kL3 in kitchen-1 and scripts an L3 prompt "L3-STEAL" that resumes it;
// returns the worker's id.
std::string script_stranger_resume(const AgentFleet& fleet) {
  const std::string worker = "0d07e5d0-0000-4000-8000-00000000beef";
  fleet.record(worker, fleet::test::kL3, "kitchen-1");
  fleet.script(
      R"({"rules":[{"match":"L3-STEAL","turns":[)" +
      fleet.dispatch_turn(R"({"prompt":"L2-WORK steal","resume_session_id":")" + worker + R"("})") +
      R"(,{"text":"done"}]},{"match":"L2-WORK","turns":[{"text":"x"}]}]})");
  return worker;
}

}  // namespace

TEST_CASE("e2e: codex - a stranger's resume is denied, the owner's runs, a dispatch is recorded") {
  AgentFleet fleet("codex", FLEET_E2E_FIXTURES, FLEET_E2E_CACHE);
  fleet.install();
  fleet.trust();
  const auto check = fleet.check();
  REQUIRE_MESSAGE(check.exit_code == 0, (check.out + check.err));
  guarded_fleet(fleet);
}

TEST_CASE("e2e: codex - an untrusted wiring fails check, and Codex runs a stranger's resume") {
  AgentFleet fleet("codex", FLEET_E2E_FIXTURES, FLEET_E2E_CACHE);
  fleet.install();
  // Installed but not trusted: check fails and says how to trust ...
  const auto untrusted = fleet.check();
  CHECK(untrusted.exit_code == 1);
  CHECK(untrusted.out.find("codex-project-untrusted") != std::string::npos);
  CHECK(untrusted.out.find("install --agent codex --trust") != std::string::npos);
  // ... because Codex then skips the hooks without a word: a stranger's resume of a recorded
  // worker reaches the dispatcher.
  const std::string worker = script_stranger_resume(fleet);
  const AgentRun unguarded = fleet.l3("L3-STEAL resume the worker", "kitchen-2");
  CHECK(unguarded.process.exit_code == 0);
  CHECK(fleet.calls().size() == 1);
  CHECK(fleet.tool_results().find(fleet.profile().blocked_prefix) == std::string::npos);
  // Trusted by install --trust: check passes and the same resume is denied.
  fleet.trust();
  const auto trusted = fleet.check();
  CHECK_MESSAGE(trusted.exit_code == 0, (trusted.out + trusted.err));
  const AgentRun denied = fleet.l3("L3-STEAL resume the worker", "kitchen-2");
  CHECK(denied.process.exit_code == 0);
  CHECK(fleet.calls().size() == 1);
  CHECK(fleet.tool_results().find(fleet.profile().blocked_prefix + "Refused to resume session '" +
                                  worker) != std::string::npos);
}

TEST_CASE("e2e: gemini - a stranger's resume is denied, the owner's runs, a dispatch is recorded") {
  AgentFleet fleet("gemini", FLEET_E2E_FIXTURES, FLEET_E2E_CACHE);
  fleet.install();
  fleet.trust();
  const auto check = fleet.check();
  REQUIRE_MESSAGE(check.exit_code == 0, (check.out + check.err));
  guarded_fleet(fleet);
}

TEST_CASE(
    "e2e: gemini - an untrusted folder fails check, and Gemini refuses it or ignores its "
    "settings") {
  AgentFleet fleet("gemini", FLEET_E2E_FIXTURES, FLEET_E2E_CACHE);
  fleet.install();
  const auto untrusted = fleet.check();
  CHECK(untrusted.exit_code == 1);
  CHECK(untrusted.out.find("trustedFolders.json") != std::string::npos);
  const std::string worker = script_stranger_resume(fleet);
  // Headless in an untrusted folder Gemini refuses to run (exit 55) ...
  const AgentRun refused = fleet.l3("L3-STEAL resume the worker", "kitchen-2");
  CHECK(refused.process.exit_code == 55);
  CHECK(fleet.calls().empty());
  // ... and with --skip-trust it runs without anything of the project's settings.json: no
  // hooks, and here not even the dispatcher configured there (the model is told the tool does
  // not exist). A dispatcher configured elsewhere (~/.gemini/settings.json) would run
  // unguarded: hence check's failure.
  const AgentRun skipped = fleet.l3("L3-STEAL resume the worker", "kitchen-2", {"--skip-trust"});
  CHECK(skipped.process.exit_code == 0);
  CHECK(fleet.calls().empty());
  CHECK(fleet.tool_results().find("Tool \\\"mcp_kitchen_dispatch_food_truck\\\" not found") !=
        std::string::npos);
}
