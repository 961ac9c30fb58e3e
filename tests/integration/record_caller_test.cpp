// The caller of `provenance-writer record` without --caller-session-id (doc/provenance-writer.md):
// learnt as launch-wrapper --record-provenance learns it (doc/launch-wrapper.md, "The caller"),
// never from a variable the process merely inherited. The agent CLIs are stood in for by
// processes of their names (under_agent_cli) or by `timeout`, the hooks and the dispatcher by
// the shell commands they run.

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "fixtures.h"
#include "process.h"
#include "store/provenance_record.h"
#include "temp_dir.h"

using namespace fleet::test;

namespace {

const std::string kGuard = FLEET_RESUME_GUARD;
const std::string kWriter = FLEET_PROVENANCE_WRITER;
const std::string kCallerA = "c0ffee00-0000-4000-8000-0000000001aa";
const std::string kCallerB = "c0ffee00-0000-4000-8000-0000000001bb";

struct Fleet {
  TempDir tmp;
  std::string state() const { return tmp / "state"; }
  std::string store() const { return tmp / "state/session_provenance.jsonl"; }

  Fleet() { REQUIRE(::mkdir(state().c_str(), 0700) == 0); }

  // The shell command of resume-guard on `caller`'s fresh dispatch call, with Claude Code's
  // tool-call id `call` when not "".
  std::string hook(const std::string& caller, const std::string& call = "") {
    std::string json = pre_tool_use(caller, "");
    if (!call.empty()) json.insert(json.rfind('}'), ",\"tool_use_id\":\"" + call + "\"");
    const std::string path = tmp / ("input-" + caller + "-" + call + ".json");
    write_file(path, json);
    return kGuard + " --state-dir " + state() + " < " + path;
  }

  // The shell command of the dispatcher's `provenance-writer record` of worker `worker`, with
  // `extra` options and no caller.
  std::string record(const std::string& worker, const std::string& extra = "",
                     bool state_dir = true) const {
    return kWriter + " record --session-id " + worker + " --recipe-name implement " +
           (state_dir ? "--state-dir " + state() + " " : std::string()) + extra;
  }

  std::vector<fleet::ProvenanceRecord> records() const {
    std::vector<fleet::ProvenanceRecord> found;
    if (::access(store().c_str(), F_OK) != 0) return found;
    for (const std::string& line : split_lines(read_file(store()))) {
      if (auto record = fleet::parse_provenance_line(line)) found.push_back(*record);
    }
    return found;
  }
};

// An agent CLI process (stood in for by `timeout`) running `script` with sh.
std::vector<std::string> agent_cli(const std::string& script) {
  return {"/usr/bin/timeout", "120", "/bin/sh", "-c", script};
}

}  // namespace

TEST_CASE("record caller: an inherited variable is never taken for the caller") {
  // A Gemini CLI or OpenCode L3 started from a Claude Code session's shell inherits
  // CLAUDE_CODE_SESSION_ID and passes it on: its dispatcher's record named the outer session.
  Fleet fleet;
  const std::string outer = fleet.tmp / "outer";
  REQUIRE(::mkdir(outer.c_str(), 0700) == 0);
  for (const std::string cli : {"gemini", "opencode"}) {
    CAPTURE(cli);
    const RunResult r = run_process(under_agent_cli(
        outer, "claude", {{"CLAUDE_CODE_SESSION_ID", kCallerB}},
        under_agent_cli(fleet.tmp.path(), cli, {}, {"/bin/sh", "-c", fleet.record("w-" + cli)})));
    CHECK(r.exit_code == 2);
    CHECK_MESSAGE(r.err.find("provenance-writer: record needs the caller, and it is not certain") !=
                      std::string::npos,
                  r.err);
    CHECK(r.err.find("names no caller to its MCP servers") != std::string::npos);
    CHECK(r.err.find("CLAUDE_CODE_SESSION_ID=" + kCallerB) != std::string::npos);
    CHECK(r.err.find("--caller-session-id") != std::string::npos);
    CHECK(fleet.records().empty());
  }
  // Under it, the caller its guard handed over is the one recorded.
  const RunResult handed = run_process(under_agent_cli(
      outer, "claude", {{"CLAUDE_CODE_SESSION_ID", kCallerB}},
      under_agent_cli(fleet.tmp.path(), "gemini", {},
                      {"/bin/sh", "-c", fleet.hook(kCallerA) + " && " + fleet.record("w-g")})));
  CHECK_MESSAGE(handed.exit_code == 0, handed.err);
  // A Claude Code's own variable still names its caller.
  const RunResult own = run_process(under_agent_cli(fleet.tmp.path(), "claude",
                                                    {{"CLAUDE_CODE_SESSION_ID", kCallerA}},
                                                    {"/bin/sh", "-c", fleet.record("w-own")}));
  CHECK_MESSAGE(own.exit_code == 0, own.err);
  // Without any agent CLI above it, the variable is not taken either.
  const RunResult alone = run_process({"/bin/sh", "-c", fleet.record("w-alone")},
                                      {"", {{"CLAUDE_CODE_SESSION_ID", kCallerB}}, ""});
  CHECK(alone.exit_code == 2);
  CHECK_MESSAGE(alone.err.find("no agent CLI process was recognised") != std::string::npos,
                alone.err);
  const auto records = fleet.records();
  REQUIRE(records.size() == 2);
  CHECK(records[0].session_id == "w-g");
  CHECK(records[0].caller_session_id == kCallerA);
  CHECK(records[1].session_id == "w-own");
  CHECK(records[1].caller_session_id == kCallerA);
}

TEST_CASE("record caller: the caller the guard handed over, not the environment's") {
  Fleet fleet;
  const RunResult r =
      run_process(agent_cli(fleet.hook(kCallerA) + " && " + fleet.record("w-1")),
                  {"", {{"CLAUDE_CODE_SESSION_ID", "inherited-from-elsewhere-0000"}}, ""});
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  const auto records = fleet.records();
  REQUIRE(records.size() == 1);
  CHECK(records[0].caller_session_id == kCallerA);
  // An explicit --caller-session-id still wins.
  const RunResult given = run_process(agent_cli(
      fleet.hook(kCallerA) + " && " + fleet.record("w-2", "--caller-session-id " + kCallerB)));
  CHECK_MESSAGE(given.exit_code == 0, given.err);
  REQUIRE(fleet.records().size() == 2);
  CHECK(fleet.records()[1].caller_session_id == kCallerB);
}

TEST_CASE("record caller: one host running two sessions, dispatching in turn") {
  // One CLI process running two sessions (Claude Code after /clear, an app server's threads):
  // by ancestry both hand over to the same host, so without the call no record is certain;
  // with its _meta (or the whole call) each names its own session. The environment names A
  // throughout, as a host's MCP server inherits its first session's variable.
  Fleet fleet;
  const std::string script =
      fleet.hook(kCallerA, "toolu_A1") + " && " +
      fleet.record("w-a1", R"(--mcp-meta '{"claudecode/toolUseId":"toolu_A1"}')") + " && " +
      fleet.hook(kCallerB, "toolu_B1") + " && " +
      fleet.record("w-b1", R"(--mcp-call '{"arguments":{"prompt":"x"},)"
                           R"("_meta":{"claudecode/toolUseId":"toolu_B1"}}')") +
      " && " + fleet.hook(kCallerA, "toolu_A2") + " && " +
      fleet.record("w-a2", R"(--mcp-meta '{"claudecode/toolUseId":"toolu_A2"}')") + " && " +
      fleet.record("w-blind");
  const RunResult r =
      run_process(agent_cli(script), {"", {{"CLAUDE_CODE_SESSION_ID", kCallerA}}, ""});
  CHECK(r.exit_code == 2);  // the last record, without the call
  CHECK_MESSAGE(r.err.find("handed over several callers") != std::string::npos, r.err);
  CHECK(r.err.find("--mcp-call") != std::string::npos);  // what the user can do
  const auto records = fleet.records();
  REQUIRE_MESSAGE(records.size() == 3, r.err);
  CHECK(records[0].caller_session_id == kCallerA);
  CHECK(records[1].caller_session_id == kCallerB);
  CHECK(records[2].caller_session_id == kCallerA);
}

TEST_CASE("record caller: a call that names no caller a guard handed over is refused") {
  // A dispatcher service beneath L3 A (whose handover by ancestry is fresh) serving a call no
  // guard judged: refused, never A's caller; a call that is not JSON says what it must be.
  Fleet fleet;
  std::string extra;
  std::string why;
  SUBCASE("an unknown call id") {
    extra = R"(--mcp-meta '{"claudecode/toolUseId":"toolu_nobody"}')";
    why = "no resume-guard hook handed over the caller of the dispatch call toolu_nobody";
  }
  SUBCASE("an unknown call token") {
    extra = R"(--mcp-call '{"arguments":{"fleet_hooks_call":"00000000000000000000000000000000"}}')";
    why = "no resume-guard hook handed over the caller of the dispatch call 0000";
  }
  SUBCASE("not JSON") {
    extra = "--mcp-meta 'not json'";
    why = "--mcp-meta is not the call's _meta as a JSON object";
  }
  SUBCASE("both forms of the call") {
    extra = "--mcp-meta '{}' --mcp-call '{}'";
    why = "--mcp-meta";
  }
  const RunResult r =
      run_process(agent_cli(fleet.hook(kCallerA) + " && " + fleet.record("w-1", extra)));
  CHECK(r.exit_code == 2);
  CHECK_MESSAGE(r.err.find(why) != std::string::npos, r.err);
  CHECK(fleet.records().empty());
}

TEST_CASE("record caller: a record in another directory lands where the guard judged") {
  // A dispatcher that records each worker from its own worktree, naming no state directory,
  // wrote <worktree>/.autoskillit/temp/…, a store the wired guard never reads.
  Fleet fleet;
  // A caller of its own: the state handover is the caller's.
  const std::string caller = "c0ffee00-0000-4000-8000-0000000001c7";
  const std::string worktree = fleet.tmp / "worktree";
  REQUIRE(::mkdir(worktree.c_str(), 0755) == 0);
  const RunResult r = run_process(agent_cli(fleet.hook(caller) + " && cd " + worktree + " && " +
                                            fleet.record("w-1", "", false)));
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  const auto records = fleet.records();
  REQUIRE(records.size() == 1);
  CHECK(records[0].caller_session_id == caller);
  struct stat st {};
  CHECK(::stat((worktree + "/.autoskillit").c_str(), &st) != 0);
}
