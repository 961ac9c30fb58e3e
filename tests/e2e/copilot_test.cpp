// End to end: the real GitHub Copilot CLI (1.0.102, tests/e2e/setup.sh) as an L3 orchestrator
// (tests/support/agent_orchestrator.h's AgentFleet) in a repository wired for Claude Code
// (`fleet-hooks install`, no --agent): Copilot runs the hooks of .claude/settings.json once the
// folder is trusted in ~/.copilot/config.json. It runs offline, with no GitHub login, against
// the scripted model on loopback speaking streamed Chat Completions
// (fixtures/chat_completions_wire.mjs), with the stdio MCP dispatcher as its server "kitchen"
// (the model calls kitchen-dispatch_food_truck), which launches Claude Code workers through
// launch-wrapper. The case wired with --agent copilot is in agents_test.cpp.

#include <doctest/doctest.h>

#include <string>

#include "agent_orchestrator.h"
#include "base/paths.h"
#include "fixtures.h"
#include "store/provenance_store.h"

using fleet::test::AgentFleet;
using fleet::test::AgentRun;
using fleet::test::call_field;
using fleet::test::read_file;
using fleet::test::RunResult;

namespace {

constexpr const char* kOwner = "c0ffee00-0000-4000-8000-0000000000c1";

// A Copilot fleet whose project is wired for Claude Code and trusted by Copilot.
void wire_for_claude(const AgentFleet& fleet) {
  fleet.trust();
  const RunResult install = fleet.fleet_hooks({"install"});
  REQUIRE_MESSAGE(install.exit_code == 0, (install.out + install.err));
  const RunResult check = fleet.fleet_hooks({"check"});
  REQUIRE_MESSAGE(check.exit_code == 0, (check.out + check.err));
}

// The worker of the dispatcher's call `index`, recorded with kOwner as its caller.
std::string owned_worker(const AgentFleet& fleet, std::size_t index) {
  const auto calls = fleet.calls();
  REQUIRE_MESSAGE(calls.size() > index, fleet.tool_results());
  const std::string worker = call_field(calls[index], "result", "session_id");
  REQUIRE(!worker.empty());
  const auto record = fleet::lookup_session(fleet.store(), worker);
  REQUIRE_MESSAGE(record.status == fleet::StoreLookup::Status::found, read_file(fleet.store()));
  CHECK(record.record.caller_session_id == kOwner);
  return worker;
}

}  // namespace

TEST_CASE("e2e: copilot - a Claude-wired repository denies a stranger's resume, the owner's runs") {
  AgentFleet fleet("copilot", FLEET_E2E_FIXTURES, FLEET_E2E_CACHE);
  wire_for_claude(fleet);
  // The owner dispatches a worker and resumes it: both run, and the worker is recorded by the
  // PostToolUse hook Copilot runs, with the owner's session as the caller.
  fleet.script(R"({"rules":[{"match":"L3-OWN","turns":[)" +
               fleet.dispatch_turn(R"({"prompt":"L2-WORK build","recipe_name":"implement"})") +
               "," +
               fleet.dispatch_turn(
                   R"({"prompt":"L2-WORK more","resume_session_id":"{{last_session_id}}"})") +
               R"(,{"text":"L3 done"}]},{"match":"L2-WORK","turns":[{"text":"worker finished"}]}],)"
               R"("default":{"text":"ok"}})");
  const AgentRun owner =
      fleet.l3("L3-OWN dispatch the build", "kitchen-1", {"--session-id", kOwner});
  CHECK_MESSAGE(owner.process.exit_code == 0, owner.process.err);
  CHECK(owner.session_id == kOwner);
  REQUIRE_MESSAGE(fleet.calls().size() == 2, (fleet.tool_results() + owner.process.err));
  const std::string worker = owned_worker(fleet, 0);
  CHECK(call_field(fleet.calls()[1], "input", "resume_session_id") == worker);
  CHECK(fleet.tool_results().find("Refused") == std::string::npos);
  // A stranger in another kitchen resumes that worker: denied, the dispatcher never runs.
  fleet.check_stranger_denied(worker, kOwner, 2);
}

TEST_CASE("e2e: copilot - a subagent's call is judged and recorded as its main session's") {
  // Copilot CLI 1.0.102: a tool call of a subagent (the "task" tool) carries the subagent's
  // own id as session_id and the main session as parent_agent_id.
  AgentFleet fleet("copilot", FLEET_E2E_FIXTURES, FLEET_E2E_CACHE);
  wire_for_claude(fleet);
  const auto task = [](const std::string& prompt) {
    return R"({"tool_use":{"name":"task","input":{"description":"dispatch a truck","prompt":")" +
           prompt + R"(","agent_type":"general-purpose","name":"dispatcher"}}})";
  };
  // The owner's subagent dispatches a worker: recorded with the owner as the caller.
  fleet.script(R"({"rules":[{"match":"SUB-DISPATCH","turns":[)" +
               fleet.dispatch_turn(R"({"prompt":"L2-WORK build","recipe_name":"implement"})") +
               R"(,{"text":"sub done"}]},{"match":"L3-OWN","turns":[)" +
               task("SUB-DISPATCH dispatch the build") +
               R"(,{"text":"L3 done"}]},{"match":"L2-WORK","turns":[{"text":"worker finished"}]}],)"
               R"("default":{"text":"ok"}})");
  const AgentRun owner =
      fleet.l3("L3-OWN dispatch through a subagent", "kitchen-1", {"--session-id", kOwner});
  CHECK_MESSAGE(owner.process.exit_code == 0, owner.process.err);
  CHECK(owner.session_id == kOwner);
  REQUIRE_MESSAGE(fleet.calls().size() == 1, (fleet.tool_results() + owner.process.err));
  const std::string worker = owned_worker(fleet, 0);

  // A stranger's subagent resumes it: denied, the dispatcher does not run.
  fleet.script(
      R"({"rules":[{"match":"SUB-STEAL","turns":[)" +
      fleet.dispatch_turn(R"({"prompt":"L2-WORK steal","resume_session_id":")" + worker + R"("})") +
      R"(,{"text":"sub gave up"}]},{"match":"L3-STEAL","turns":[)" +
      task("SUB-STEAL resume the worker") + R"(,{"text":"L3 done"}]}],"default":{"text":"ok"}})");
  const AgentRun stranger = fleet.l3("L3-STEAL resume through a subagent", "kitchen-2");
  CHECK_MESSAGE(stranger.process.exit_code == 0, stranger.process.err);
  CHECK(stranger.session_id != kOwner);
  CHECK(fleet.calls().size() == 1);
  CHECK_MESSAGE(
      fleet.tool_results().find("Refused to resume session '" + worker) != std::string::npos,
      fleet.tool_results());
}
