// End to end: the dispatcher passes no caller (launch-wrapper --record-provenance alone), and
// every worker is recorded with the L3 that dispatched it before it runs, whichever CLI the
// L3 runs in: resume-guard, wired by `fleet-hooks install --agent <cli>` and trusted, hands
// the caller over (doc/resume-guard.md, "Caller handover"). Codex gives its MCP server no
// caller in its environment and Gemini none at all, so here only the handover can name it.

#include <doctest/doctest.h>

#include <string>

#include "agent_orchestrator.h"
#include "store/provenance_record.h"

using fleet::test::AgentFleet;
using fleet::test::AgentRun;
using fleet::test::call_field;

namespace {

// An L3 (in a kitchen of its own, so only its caller id can let its resume through)
// dispatches a worker, which finds its own record naming that L3 as it starts; the L3 resumes
// it; a stranger's resume is denied and never reaches the dispatcher.
void recorded_at_launch(const std::string& agent, bool worktrees = false, bool detached = false) {
  AgentFleet fleet(agent, FLEET_E2E_FIXTURES, FLEET_E2E_CACHE,
                   {.record_at_launch = true, .worktrees = worktrees, .detached = detached});
  fleet.install();
  fleet.trust();
  const auto check = fleet.check();
  REQUIRE_MESSAGE(check.exit_code == 0, (check.out + check.err));
  fleet.script(R"({"rules":[{"match":"L3-OWN","turns":[)" +
               fleet.dispatch_turn(R"({"prompt":"L2-WORK build","recipe_name":"implement"})") +
               "," +
               fleet.dispatch_turn(
                   R"({"prompt":"L2-WORK continue","resume_session_id":"{{last_session_id}}"})") +
               R"(,{"text":"L3 done"}]}],"default":{"text":"ok"}})");
  const AgentRun owner = fleet.l3("L3-OWN dispatch the build", "kitchen-own");
  CHECK_MESSAGE(owner.process.exit_code == 0, owner.process.err);
  REQUIRE(!owner.session_id.empty());
  auto calls = fleet.calls();
  REQUIRE_MESSAGE(calls.size() == 2, (fleet.tool_results() + owner.process.err));
  CHECK_MESSAGE(call_field(calls[0], "result", "exit_code") == "0", calls[0]);
  const std::string worker = call_field(calls[0], "result", "session_id");
  REQUIRE(!worker.empty());

  // The worker found its record, naming this L3, when it started.
  const std::string seen = fleet::test::read_file(fleet.seen(worker));
  const auto record = fleet::parse_provenance_line(seen.substr(0, seen.find('\n')));
  REQUIRE_MESSAGE(record, (seen + calls[0]));
  CHECK(record->caller_session_id == owner.session_id);
  CHECK(record->recipe_name == "implement");
  // The owner resumed it (in the worker's own worktree, when it has one).
  CHECK(call_field(calls[1], "result", "session_id") == worker);
  const std::string directory = call_field(calls[0], "result", "directory");
  CHECK(call_field(calls[1], "result", "directory") == directory);
  CHECK((directory.find("/.git/fleet-worktrees/") != std::string::npos) == worktrees);
  CHECK(call_field(calls[1], "result", "exit_code") == "0");
  // Nothing was blocked (OpenCode gives the model the guard's reason alone).
  const std::string& prefix = fleet.profile().blocked_prefix;
  CHECK(fleet.tool_results().find(prefix.empty() ? "Refused" : prefix) == std::string::npos);

  fleet.check_stranger_denied(worker, owner.session_id, 2);
}

}  // namespace

TEST_CASE("e2e: caller - a Codex L3's worker is recorded at launch with no caller passed") {
  recorded_at_launch("codex");
}

TEST_CASE("e2e: caller - a Codex L3's worker in its own worktree is recorded where it guards") {
  // The example dispatcher starts the worker in a git worktree of its own and names no state
  // directory: the record lands in the store the guard judged the call with (the project's),
  // not under the worktree, and a stranger's resume of it is denied.
  recorded_at_launch("codex", true);
}

TEST_CASE("e2e: caller - a Gemini L3's worker is recorded at launch with no caller passed") {
  recorded_at_launch("gemini");
}

// Launched outside the L3's process tree (a dispatcher service reached over a socket), where no
// handover by ancestry reaches: the guard's call token, which the CLI's pre-tool hook put in
// the call's arguments (fleet_hooks_call) and the dispatcher passed on with --mcp-call, names
// the caller of each call (doc/resume-guard.md, "Caller handover").
TEST_CASE("e2e: caller - a Gemini L3's worker launched outside its tree is recorded by token") {
  recorded_at_launch("gemini", false, true);
}

TEST_CASE("e2e: caller - a Copilot L3's worker launched outside its tree is recorded by token") {
  recorded_at_launch("copilot", false, true);
}

TEST_CASE("e2e: caller - an OpenCode L3's worker launched outside its tree is recorded by token") {
  recorded_at_launch("opencode", false, true);
}
