// End to end: the real OpenCode (1.18.33, tests/e2e/setup.sh) as an L3 orchestrator guarded by
// the suite's plugin, which `fleet-hooks install --agent opencode` writes into the project's
// .opencode/plugins/ (tests/support/agent_orchestrator.h's AgentFleet).
// It runs offline in a private home (HOME and XDG_*, an unreachable npm registry for the
// package OpenCode tries to install on start) against the scripted model on loopback speaking
// streamed Chat Completions (fixtures/chat_completions_wire.mjs), with the stdio MCP dispatcher
// as its server "kitchen" (the model calls kitchen_dispatch_food_truck), which launches Claude
// Code workers through launch-wrapper --record-provenance: the caller comes from the guard's
// caller handover, since OpenCode gives its MCP servers no session id. Assertions use what
// OpenCode sent back to its model, the dispatcher's calls and the store.

#include <doctest/doctest.h>

#include <string>

#include "agent_orchestrator.h"
#include "fixtures.h"
#include "process.h"
#include "store/provenance_store.h"

using fleet::test::AgentFleet;
using fleet::test::AgentRun;
using fleet::test::call_field;
using fleet::test::FleetOptions;
using fleet::test::read_file;
using fleet::test::RunResult;

namespace {

// An OpenCode fleet wired by fleet-hooks install --agent opencode; `options` as AgentFleet's
// (by default the dispatcher records each worker at launch, launch-wrapper
// --record-provenance; else the plugin's tool.execute.after does).
struct OpenCodeFleet : AgentFleet {
  explicit OpenCodeFleet(FleetOptions options = {.record_at_launch = true})
      : AgentFleet("opencode", FLEET_E2E_FIXTURES, FLEET_E2E_CACHE, options) {
    install();
  }
};

// The worker of the dispatcher's only call, recorded with `owner` as its caller.
std::string recorded_worker(const AgentFleet& fleet, const AgentRun& owner) {
  REQUIRE_MESSAGE(fleet.calls().size() == 1,
                  (fleet.tool_results() + owner.process.out + owner.process.err));
  const std::string worker = call_field(fleet.calls()[0], "result", "session_id");
  const auto record = fleet::lookup_session(fleet.store(), worker);
  REQUIRE_MESSAGE(record.status == fleet::StoreLookup::Status::found, owner.process.err);
  CHECK(record.record.caller_session_id == owner.session_id);
  CHECK(record.record.recipe_name == "implement");
  return worker;
}

// The owner's fresh dispatch, run: its process and session.
AgentRun fresh_dispatch(const AgentFleet& fleet) {
  fleet.script(R"({"rules":[{"match":"L3-FRESH","turns":[)" +
               fleet.dispatch_turn(R"({"prompt":"L2-WORK build","recipe_name":"implement"})") +
               R"(,{"text":"L3 done"}]},{"match":"L2-WORK","turns":[{"text":"worker finished"}]}],)"
               R"("default":{"text":"ok"}})");
  const AgentRun run = fleet.l3("L3-FRESH dispatch the build", "kitchen-1");
  CHECK_MESSAGE(run.process.exit_code == 0, run.process.err);
  REQUIRE(run.session_id.rfind("ses_", 0) == 0);
  return run;
}

}  // namespace

TEST_CASE("e2e: opencode - the guard plugin denies a stranger's resume, the owner's runs") {
  OpenCodeFleet fleet;  // wired by fleet-hooks install --agent opencode
  const RunResult checked = fleet.check();
  CHECK_MESSAGE(checked.exit_code == 0, checked.out);

  // The owner's subagent (a child session of its own) dispatches a worker and reports its id;
  // the owner resumes it. The worker is recorded at launch with the owner's main session as the
  // caller, not the child's, and the owner's resume runs although it is in another kitchen than
  // the worker's (kitchen-1): the guard judged the child's call as its main session's.
  const std::string task =
      R"({"tool_use":{"name":"task","input":{"description":"dispatch a truck","prompt":)"
      R"("SUB-DISPATCH dispatch the build","subagent_type":"general"}}})";
  fleet.script(
      R"({"rules":[{"match":"SUB-DISPATCH","turns":[)" +
      fleet.dispatch_turn(R"({"prompt":"L2-WORK build","recipe_name":"implement"})") +
      R"(,{"text":"{\"session_id\":\"{{last_session_id}}\"}"}]},{"match":"L3-OWN","turns":[)" +
      task + "," +
      fleet.dispatch_turn(
          R"({"prompt":"L2-WORK more","resume_session_id":"{{last_session_id}}"})") +
      R"(,{"text":"L3 done"}]},{"match":"L2-WORK","turns":[{"text":"worker finished"}]}],)"
      R"("default":{"text":"ok"}})");
  const AgentRun owner = fleet.l3("L3-OWN dispatch the build", "kitchen-own");
  CHECK_MESSAGE(owner.process.exit_code == 0, owner.process.err);
  REQUIRE(owner.session_id.rfind("ses_", 0) == 0);
  auto calls = fleet.calls();
  REQUIRE_MESSAGE(calls.size() == 2,
                  (fleet.tool_results() + owner.process.out + owner.process.err));
  const std::string worker = call_field(calls[0], "result", "session_id");
  REQUIRE(!worker.empty());
  CHECK(call_field(calls[1], "input", "resume_session_id") == worker);
  CHECK(fleet.tool_results().find("Refused") == std::string::npos);
  const auto record = fleet::lookup_session(fleet.store(), worker);
  REQUIRE_MESSAGE(record.status == fleet::StoreLookup::Status::found, read_file(fleet.store()));
  CHECK(record.record.caller_session_id == owner.session_id);
  CHECK(record.record.recipe_name == "implement");

  // A stranger in another kitchen resumes that worker: the plugin refuses it with the guard's
  // reason, OpenCode tells its model, and the dispatcher never runs.
  fleet.check_stranger_denied(worker, owner.session_id, 2);
}

TEST_CASE("e2e: opencode - an L3 started from a Claude Code shell is never recorded as it") {
  // OpenCode passes the CLAUDE_CODE_SESSION_ID it inherited from a Claude Code session's shell
  // on to its MCP servers: it names the outer session, never the OpenCode L3.
  const std::string outer = "c1aude00-0000-4000-8000-0000000000e1";
  const FleetOptions options = {.record_at_launch = true,
                                .inherited = {{"CLAUDE_CODE_SESSION_ID", outer}}};
  SUBCASE("unwired: no handover, and the variable is not OpenCode's own - refused") {
    AgentFleet fleet("opencode", FLEET_E2E_FIXTURES, FLEET_E2E_CACHE, options);
    fresh_dispatch(fleet);
    REQUIRE_MESSAGE(fleet.calls().size() == 1, fleet.tool_results());
    CHECK(call_field(fleet.calls()[0], "result", "exit_code") == "125");
    CHECK(read_file(fleet.store()).find(outer) == std::string::npos);
  }
  SUBCASE("wired: the plugin's handover names OpenCode's own session") {
    AgentFleet fleet("opencode", FLEET_E2E_FIXTURES, FLEET_E2E_CACHE, options);
    fleet.install();
    const AgentRun owner = fresh_dispatch(fleet);
    recorded_worker(fleet, owner);
  }
}

TEST_CASE("e2e: opencode - without resume-guard on PATH the plugin refuses every dispatch") {
  OpenCodeFleet fleet;
  fleet.take_suite_off_path();
  fleet.script(R"({"rules":[{"match":"L3-FRESH","turns":[)" +
               fleet.dispatch_turn(R"({"prompt":"L2-WORK build","recipe_name":"implement"})") +
               R"(,{"text":"L3 done"}]}],"default":{"text":"ok"}})");
  const AgentRun run = fleet.l3("L3-FRESH dispatch the build", "kitchen-1");
  CHECK_MESSAGE(run.process.exit_code == 0, run.process.err);
  CHECK(fleet.calls().empty());
  CHECK_MESSAGE(fleet.tool_results().find("resume-guard could not run") != std::string::npos,
                fleet.tool_results());
}

TEST_CASE("e2e: opencode - the plugin records a fresh dispatch with the run's own session") {
  OpenCodeFleet fleet(FleetOptions{.record_at_launch = false});
  recorded_worker(fleet, fresh_dispatch(fleet));
}

TEST_CASE("e2e: opencode - install --tool spawn_worker guards and records that tool too") {
  // The dispatcher's tool is spawn_worker (the model calls kitchen_spawn_worker); the plugin
  // the L3 runs was written by install --agent opencode --tool spawn_worker.
  OpenCodeFleet fleet(FleetOptions{.record_at_launch = false, .tool = "spawn_worker"});
  const RunResult checked =
      fleet.fleet_hooks({"check", "--agent", "opencode", "--tool", "spawn_worker"});
  CHECK_MESSAGE(checked.exit_code == 0, checked.out);
  // The owner's fresh spawn_worker call runs and the plugin records it with the owner's session;
  // a stranger in another kitchen resuming that worker through spawn_worker is refused with the
  // guard's reason, and the dispatcher never runs.
  const AgentRun owner = fresh_dispatch(fleet);
  fleet.check_stranger_denied(recorded_worker(fleet, owner), owner.session_id, 1);
}
