// The caller handover (doc/resume-guard.md, "Caller handover"): resume-guard, run as an agent
// CLI runs its pre-tool hook, hands the caller over to the launch-wrapper --record-provenance
// the dispatcher under that same CLI process starts with no caller. The agent CLI is stood
// in for by `timeout` (a process that is not a shell and runs its command as a child), the
// hook and the dispatcher by the shell commands it runs.

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <map>
#include <string>

#include "base/ids.h"
#include "process.h"
#include "process/handover_file.h"
#include "store/provenance_record.h"
#include "suite.h"
#include "temp_dir.h"

using namespace fleet::test;

namespace {

const std::string kGuard = FLEET_RESUME_GUARD;
const std::string kWrapper = FLEET_LAUNCH_WRAPPER;
const std::string kCallerA = "c0ffee00-0000-4000-8000-00000000000a";
const std::string kCallerB = "c0ffee00-0000-4000-8000-00000000000b";

// A project with a state dir, the hook inputs of its callers and a worker that prints
// "recorded-before-start <its session id>" when its own record is in the store as it starts.
struct Fleet {
  TempDir tmp;
  std::string state() const { return tmp / "state"; }
  std::string store() const { return tmp / "state/session_provenance.jsonl"; }
  std::string worker;

  Fleet() {
    REQUIRE(::mkdir(state().c_str(), 0700) == 0);
    // Named claude: the assigned id goes on Claude Code's command line (--session-id <id>).
    worker = write_script(tmp / "claude", "grep -q \"\\\"session_id\\\":\\\"$2\\\"\" " + store() +
                                              " && echo recorded-before-start $2\n");
  }

  // The hook input of `caller`'s dispatch call (fresh when `resume` is "").
  std::string input(const std::string& caller, const std::string& resume = "") {
    const std::string path = tmp / ("input-" + caller + "-" + resume + ".json");
    write_file(path, pre_tool_use(caller, resume));
    return path;
  }

  // The shell command of the hook: resume-guard on `caller`'s dispatch call.
  std::string hook(const std::string& caller, const std::string& resume = "") {
    return kGuard + " --state-dir " + state() + " < " + input(caller, resume);
  }

  // The shell command of the dispatcher's launch, with `extra` options and no caller.
  std::string launch(const std::string& dispatch_id, const std::string& extra = "") const {
    return kWrapper + " --quiet --record-provenance --assign-session-id --state-dir " + state() +
           " --recipe-name implement --dispatch-id " + dispatch_id + " " + extra + " -- " + worker +
           " -p hi";
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

// An agent CLI process (stood in for) running `script` with sh; it lives `seconds` at most.
std::vector<std::string> agent_cli(const std::string& script, int seconds = 120) {
  return {"/usr/bin/timeout", std::to_string(seconds), "/bin/sh", "-c", script};
}

}  // namespace

TEST_CASE("caller handover: a launch with no caller records the caller the guard judged") {
  Fleet fleet;
  const RunResult r =
      run_process(agent_cli(fleet.hook(kCallerA) + " && " + fleet.launch("d-1")),
                  {"", {{"CLAUDE_CODE_SESSION_ID", "inherited-from-elsewhere-0000"}}, ""});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("recorded-before-start") != std::string::npos);
  const auto records = fleet.records();
  REQUIRE(records.size() == 1);
  // The guard's caller, not an environment variable inherited from another session.
  CHECK(records[0].caller_session_id == kCallerA);

  SUBCASE("an explicit --caller-session-id still wins") {
    const RunResult explicit_caller = run_process(agent_cli(
        fleet.hook(kCallerA) + " && " + fleet.launch("d-2", "--caller-session-id " + kCallerB)));
    CHECK(explicit_caller.exit_code == 0);
    REQUIRE(fleet.records().size() == 2);
    CHECK(fleet.records()[1].caller_session_id == kCallerB);
  }
  SUBCASE("the owner's resume is handed over too, and resumes the worker") {
    const std::string worker = records[0].session_id;
    const RunResult resumed =
        run_process(agent_cli(fleet.hook(kCallerA, worker) + " && " + kWrapper +
                              " --quiet --record-provenance " + "--state-dir " + fleet.state() +
                              " --recipe-name implement -- /bin/echo --resume " + worker));
    CHECK_MESSAGE(resumed.exit_code == 0, resumed.err);
    CHECK(resumed.out.find("--resume " + worker) != std::string::npos);
    CHECK(fleet.records().size() == 1);
  }
}

TEST_CASE("caller handover: a launch whose caller is not certain runs nothing, records nothing") {
  Fleet fleet;
  std::string script;
  std::string why;
  SUBCASE("no hook handed a caller over") {
    script = fleet.launch("d-1");
    why = "no resume-guard hook";
  }
  SUBCASE("the same agent CLI process handed over two callers") {
    script = fleet.hook(kCallerA) + " && " + fleet.hook(kCallerB) + " && " + fleet.launch("d-1");
    why = "several callers (" + kCallerA + ", " + kCallerB + ")";
  }
  SUBCASE("the guard denied the call (a self-resume): nothing is handed over") {
    script = fleet.hook(kCallerA, kCallerA) + " > /dev/null && " + fleet.launch("d-1");
    why = "no resume-guard hook";
  }
  const RunResult r = run_process(agent_cli(script));
  CHECK(r.exit_code == 125);
  CHECK(r.out.find("recorded-before-start") == std::string::npos);
  CHECK(r.err.find(why) != std::string::npos);
  CHECK(r.err.find("--caller-session-id") != std::string::npos);
  CHECK(fleet.records().empty());
}

TEST_CASE("caller handover: with none, the caller the L3's CLI names to its MCP servers") {
  // Claude Code 2.1.328 gives its MCP servers CLAUDE_CODE_SESSION_ID, Qwen Code 0.24.4
  // QWEN_CODE_SESSION_ID: the calling session, inherited by what the dispatcher launches. A
  // Qwen Code L3 started from a Claude Code session's shell also passes the outer session's
  // variable on: the nearest CLI's own names the caller.
  Fleet fleet;
  const RunResult qwen =
      run_process(under_agent_cli(fleet.tmp.path(), "qwen", {{"QWEN_CODE_SESSION_ID", kCallerA}},
                                  {"/bin/sh", "-c", fleet.launch("d-1")}),
                  {"", {{"CLAUDE_CODE_SESSION_ID", kCallerB}}, ""});
  CHECK_MESSAGE(qwen.exit_code == 0, qwen.err);
  CHECK(qwen.out.find("recorded-before-start") != std::string::npos);
  REQUIRE(fleet.records().size() == 1);
  CHECK(fleet.records()[0].caller_session_id == kCallerA);
}

TEST_CASE("caller handover: an inherited variable is never taken for the caller") {
  // A Gemini CLI or OpenCode L3 started from a Claude Code session's shell inherits that
  // session's CLAUDE_CODE_SESSION_ID and passes it to its MCP servers (OpenCode 1.18.33 does):
  // it names the outer session, never the L3's own.
  Fleet fleet;
  const std::string outer = fleet.tmp / "outer";
  REQUIRE(::mkdir(outer.c_str(), 0700) == 0);
  for (const std::string cli : {"gemini", "opencode"}) {
    CAPTURE(cli);
    const RunResult r = run_process(under_agent_cli(
        outer, "claude", {{"CLAUDE_CODE_SESSION_ID", kCallerB}},
        under_agent_cli(fleet.tmp.path(), cli, {}, {"/bin/sh", "-c", fleet.launch("d-" + cli)})));
    CHECK(r.exit_code == 125);
    CHECK(r.out.find("recorded-before-start") == std::string::npos);
    CHECK_MESSAGE(r.err.find("names no caller to its MCP servers") != std::string::npos, r.err);
    CHECK(r.err.find("CLAUDE_CODE_SESSION_ID=" + kCallerB) != std::string::npos);
  }
  // A Claude Code started from another one's shell sets its own: that one is the caller; a
  // process that names the variable it was itself started with passes nothing of its own.
  const RunResult inner = run_process(under_agent_cli(
      outer, "claude", {{"CLAUDE_CODE_SESSION_ID", kCallerB}},
      under_agent_cli(fleet.tmp.path(), "claude", {{"CLAUDE_CODE_SESSION_ID", kCallerA}},
                      {"/bin/sh", "-c", fleet.launch("d-inner")})));
  CHECK_MESSAGE(inner.exit_code == 0, inner.err);
  const RunResult same = run_process(under_agent_cli(
      outer, "claude", {{"CLAUDE_CODE_SESSION_ID", kCallerB}},
      under_agent_cli(fleet.tmp.path(), "claude", {}, {"/bin/sh", "-c", fleet.launch("d-same")})));
  CHECK(same.exit_code == 125);
  CHECK_MESSAGE(same.err.find("inherited") != std::string::npos, same.err);
  // Without any agent CLI above it, the variable is not taken either.
  const RunResult alone = run_process({"/bin/sh", "-c", fleet.launch("d-alone")},
                                      {"", {{"CLAUDE_CODE_SESSION_ID", kCallerB}}, ""});
  CHECK(alone.exit_code == 125);
  CHECK_MESSAGE(alone.err.find("no agent CLI process was recognised") != std::string::npos,
                alone.err);
  const auto records = fleet.records();
  REQUIRE(records.size() == 1);
  CHECK(records[0].caller_session_id == kCallerA);
}

TEST_CASE("caller handover: a nested L3 whose own handover lapsed is refused, not the outer's") {
  // An L3 started from another CLI's shell, its guard wired, whose launch comes more than the
  // age bound after its hook ran (a permission prompt left open): the outer L3's fresh handover
  // must not stand in for it.
  Fleet fleet;
  const std::string inner =
      write_script(fleet.tmp / "inner-l3", fleet.hook(kCallerA) + " && touch -d '11 minutes ago' " +
                                               fleet::handover_directory() + "/$PPID-* && " +
                                               fleet.launch("d-1") + "\n");
  std::string inner_cli;
  for (const std::string& word : under_agent_cli(fleet.tmp.path(), "codex", {}, {"/bin/sh", inner}))
    inner_cli += word + " ";
  const RunResult r = run_process(agent_cli(fleet.hook(kCallerB) + " && " + inner_cli));
  CHECK(r.exit_code == 125);
  CHECK(r.out.find("recorded-before-start") == std::string::npos);
  CHECK_MESSAGE(r.err.find("11 minutes ago") != std::string::npos, r.err);
  CHECK(fleet.records().empty());
}

TEST_CASE("caller handover: a recognised CLI counts however far up (npx and a shell)") {
  // `npx my-dispatcher` starting launch-wrapper through a shell puts the CLI five levels up:
  // launch-wrapper, sh, the dispatcher (node), sh (npx's), npm exec (node), the CLI. Stood in
  // for by three scripts that each run the next and wait for it.
  Fleet fleet;
  const std::string pass = write_script(fleet.tmp / "pass", "\"$@\"\nexit $?\n");
  const RunResult r =
      run_process(under_agent_cli(fleet.tmp.path(), "gemini", {},
                                  {"/bin/sh", "-c",
                                   fleet.hook(kCallerA) + " && " + pass + " " + pass + " " + pass +
                                       " /bin/sh -c '" + fleet.launch("d-1") + "; exit $?'"}));
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  CHECK(r.out.find("recorded-before-start") != std::string::npos);
  const auto records = fleet.records();
  REQUIRE(records.size() == 1);
  CHECK(records[0].caller_session_id == kCallerA);
}

TEST_CASE("caller handover: a subagent's dispatch is handed over as its main session's") {
  // GitHub Copilot CLI 1.0.102 runs .claude/settings.json hooks; a subagent's call carries the
  // subagent's own session_id and the main session as parent_agent_id (doc/claude-code.md),
  // and names the tool <server>-<tool>. The guard judges the main session, so the launch
  // records the worker under it, not under the subagent.
  Fleet fleet;
  const std::string input = fleet.tmp / "subagent-call.json";
  write_file(input,
             R"({"hook_event_name":"PreToolUse","session_id":"subagent-0001","parent_agent_id":")" +
                 kCallerA +
                 R"(","agent_id":"subagent-0001","tool_name":"fleet-dispatch_food_truck",)"
                 R"("tool_input":{"prompt":"build"}})");
  const RunResult r = run_process(agent_cli(kGuard + " --state-dir " + fleet.state() + " < " +
                                            input + " && " + fleet.launch("d-1")));
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  CHECK(r.out.find("recorded-before-start") != std::string::npos);
  const auto records = fleet.records();
  REQUIRE(records.size() == 1);
  CHECK(records[0].caller_session_id == kCallerA);
}

TEST_CASE("caller handover: another agent CLI's caller is never taken") {
  Fleet fleet;
  // Agent CLI A hands its caller over and stays; agent CLI B, beside it under the same
  // parent, runs no guard: B's launch must not take A's caller.
  BackgroundProcess other(agent_cli(fleet.hook(kCallerA) + " && echo handed-over && sleep 60"));
  REQUIRE(other.wait_for_output("handed-over"));
  const RunResult r = run_process(agent_cli(fleet.launch("d-1")));
  CHECK(r.exit_code == 125);
  CHECK(fleet.records().empty());
}

TEST_CASE("caller handover: 100 concurrent dispatches of two agent CLIs name their own caller") {
  Fleet fleet;
  constexpr int kEach = 50;
  // Each agent CLI dispatches kEach workers at once, each through its hook and its launch.
  const auto dispatches = [&](const std::string& caller, const std::string& name) {
    std::string script;
    for (int i = 0; i < kEach; ++i) {
      script.append("(")
          .append(fleet.hook(caller))
          .append(" && ")
          .append(fleet.launch(name + "-" + std::to_string(i)))
          .append(") & ");
    }
    return script + "wait";
  };
  BackgroundProcess a(agent_cli(dispatches(kCallerA, "A"), 300));
  BackgroundProcess b(agent_cli(dispatches(kCallerB, "B"), 300));
  REQUIRE(a.wait(300000));
  REQUIRE(b.wait(300000));
  const std::string out = a.result().out + b.result().out;
  std::size_t started = 0;
  for (std::size_t at = out.find("recorded-before-start"); at != std::string::npos;
       at = out.find("recorded-before-start", at + 1))
    ++started;
  CHECK(started == 2 * kEach);

  const std::map<char, std::string> caller_of{{'A', kCallerA}, {'B', kCallerB}};
  const auto records = fleet.records();
  CHECK(records.size() == 2 * kEach);
  int wrong = 0;
  for (const auto& record : records) {
    if (record.caller_session_id != caller_of.at(record.dispatch_id[0])) ++wrong;
  }
  CHECK(wrong == 0);
}

namespace {

// The hook input of `caller`'s fresh dispatch call with the tool-call id `call` (Claude Code's
// tool_use_id, which it also sends its MCP server as _meta["claudecode/toolUseId"]).
std::string call_input(Fleet& fleet, const std::string& caller, const std::string& call) {
  std::string json = pre_tool_use(caller, "");
  json.insert(json.rfind('}'), ",\"tool_use_id\":\"" + call + "\"");
  const std::string path = fleet.tmp / ("input-" + call + ".json");
  write_file(path, json);
  return path;
}

}  // namespace

TEST_CASE("caller handover per call: the call's _meta binds its caller, whatever the ancestry") {
  // A dispatcher service started beneath L3 A (whose handover by ancestry is fresh) serves
  // L3 B's call: before, B's worker was recorded under A. The service passes the call's _meta.
  Fleet fleet;
  // B's hook ran in B's own CLI process (another tree), for its call toolu_B.
  REQUIRE(run_process(agent_cli(kGuard + " --state-dir " + fleet.state() + " < " +
                                call_input(fleet, kCallerB, "toolu_B")))
              .exit_code == 0);
  const std::string a_hook = fleet.hook(kCallerA);
  const auto launch_in_a = [&](const std::string& dispatch_id, const std::string& meta) {
    return run_process(
        agent_cli(a_hook + " && " + fleet.launch(dispatch_id, "--mcp-meta '" + meta + "'")));
  };
  RunResult r = launch_in_a("d-b", R"({"claudecode/toolUseId":"toolu_B","progressToken":1})");
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  REQUIRE(fleet.records().size() == 1);
  CHECK(fleet.records()[0].caller_session_id == kCallerB);

  // Codex sends the calling session itself with each call.
  const std::string codex_caller = "019a0000-0000-7000-8000-00000000c0de";
  r = launch_in_a("d-codex", R"({"x-codex-turn-metadata":{"session_id":")" + codex_caller +
                                 R"(","turn_id":"t"},"threadId":"x"})");
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  REQUIRE(fleet.records().size() == 2);
  CHECK(fleet.records()[1].caller_session_id == codex_caller);

  // A call id no guard handed over: refused, never the caller found by ancestry.
  r = launch_in_a("d-unknown", R"({"claudecode/toolUseId":"toolu_nobody"})");
  CHECK(r.exit_code == 125);
  CHECK_MESSAGE(r.err.find("no resume-guard hook handed over the caller of the dispatch call "
                           "toolu_nobody") != std::string::npos,
                r.err);
  CHECK(fleet.records().size() == 2);

  // A _meta that names no caller (a CLI that sends none): the handover by ancestry stands in.
  r = launch_in_a("d-a", R"({"progressToken":"p"})");
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  REQUIRE(fleet.records().size() == 3);
  CHECK(fleet.records()[2].caller_session_id == kCallerA);

  // Not JSON: refused, saying what --mcp-meta must be.
  r = launch_in_a("d-bad", "not json");
  CHECK(r.exit_code == 125);
  CHECK(r.err.find("--mcp-meta is not the call's _meta as a JSON object") != std::string::npos);
  CHECK(fleet.records().size() == 3);
}

TEST_CASE("caller handover per call: one CLI process running two sessions, dispatching in turn") {
  // One host process running two sessions side by side (`codex app-server` threads, `opencode
  // serve`, Claude Code after /clear): by ancestry both hand over to the same host, so without
  // the call's _meta no launch is certain; with it each launch names its own session.
  Fleet fleet;
  const std::string script =
      kGuard + " --state-dir " + fleet.state() + " < " + call_input(fleet, kCallerA, "toolu_A1") +
      " && " + fleet.launch("d-a1", R"(--mcp-meta '{"claudecode/toolUseId":"toolu_A1"}')") +
      " && " + kGuard + " --state-dir " + fleet.state() + " < " +
      call_input(fleet, kCallerB, "toolu_B1") + " && " +
      fleet.launch("d-b1", R"(--mcp-meta '{"claudecode/toolUseId":"toolu_B1"}')") + " && " +
      kGuard + " --state-dir " + fleet.state() + " < " + call_input(fleet, kCallerA, "toolu_A2") +
      " && " + fleet.launch("d-a2", R"(--mcp-meta '{"claudecode/toolUseId":"toolu_A2"}')") +
      " && " + fleet.launch("d-blind");
  const RunResult r = run_process(agent_cli(script));
  CHECK(r.exit_code == 125);  // the last launch, without _meta
  CHECK_MESSAGE(r.err.find("handed over several callers") != std::string::npos, r.err);
  CHECK(r.err.find("--mcp-call") != std::string::npos);  // what the user can do
  const auto records = fleet.records();
  REQUIRE(records.size() == 3);
  CHECK(records[0].caller_session_id == kCallerA);
  CHECK(records[1].caller_session_id == kCallerB);
  CHECK(records[2].caller_session_id == kCallerA);
}

namespace {

// The shell command of a Gemini CLI BeforeTool hook on `caller`'s fresh dispatch call whose
// model wrote `model_arguments` (JSON members), then of its dispatcher, which passes the call
// as the CLI sends it (the arguments the hook answered) to launch `dispatch_id` with
// --mcp-call. The sed takes the arguments out of the guard's
// {"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{…}}}.
std::string gemini_dispatch(Fleet& fleet, const std::string& caller, const std::string& dispatch_id,
                            const std::string& model_arguments = R"("prompt":"build")") {
  const std::string input = fleet.tmp / ("gemini-input-" + dispatch_id + ".json");
  write_file(input, R"({"session_id":")" + caller +
                        R"(","hook_event_name":"BeforeTool","cwd":"/","tool_name":)"
                        R"("mcp_kitchen_dispatch_food_truck","tool_input":{)" +
                        model_arguments + "}}");
  const std::string answered = fleet.tmp / ("gemini-answer-" + dispatch_id + ".json");
  return kGuard + " --agent gemini --state-dir " + fleet.state() + " < " + input + " > " +
         answered +
         R"( && call=$(sed -e 's/^{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":/{"arguments":/' -e 's/}$//' )" +
         answered + ") && " + fleet.launch(dispatch_id, R"(--mcp-call "$call")");
}

}  // namespace

TEST_CASE("caller handover per call: a call token binds each call of one CLI process's sessions") {
  // Gemini CLI, GitHub Copilot CLI and OpenCode send their MCP server nothing of the caller,
  // but their pre-tool hook can rewrite the call: resume-guard mints a token for each call it
  // lets through, leaves the caller under it and puts it in the call's arguments
  // (fleet_hooks_call), overwriting what the model wrote there. One host process running two
  // sessions that dispatch in turn: by ancestry the launches are not certain (several
  // callers), by token each is its own session's.
  Fleet fleet;
  const std::string script =
      gemini_dispatch(fleet, kCallerA, "d-a1", R"("prompt":"x","fleet_hooks_call":"guess")") +
      " && " + gemini_dispatch(fleet, kCallerB, "d-b1") + " && " +
      gemini_dispatch(fleet, kCallerA, "d-a2") + " && " + fleet.launch("d-blind");
  const RunResult r = run_process(agent_cli(script));
  CHECK(r.exit_code == 125);  // the last launch, which passed nothing of its call
  CHECK_MESSAGE(r.err.find("handed over several callers") != std::string::npos, r.err);
  CHECK(r.err.find("--mcp-call") != std::string::npos);  // what the user can do
  const auto records = fleet.records();
  REQUIRE_MESSAGE(records.size() == 3, r.err);
  CHECK(records[0].caller_session_id == kCallerA);
  CHECK(records[1].caller_session_id == kCallerB);
  CHECK(records[2].caller_session_id == kCallerA);
  // The model's own value was overwritten with an unguessable token (128 bits, in hex); the
  // handover directory names it only by its digest.
  const std::string answer = read_file(fleet.tmp / "gemini-answer-d-a1.json");
  CHECK(answer.find("guess") == std::string::npos);
  const auto at = answer.find(R"("fleet_hooks_call":")");
  REQUIRE(at != std::string::npos);
  const std::string token = answer.substr(at + 20, answer.find('"', at + 20) - at - 20);
  CHECK(token.size() == 32);
  CHECK(token.find_first_not_of("0123456789abcdef") == std::string::npos);
}

TEST_CASE(
    "caller handover per call: a call without the token of the CLI above is another L3's, "
    "refused") {
  // A dispatcher service started from one L3's shell (a Gemini CLI here) and serving other L3s
  // over a socket: the nearest CLI above the launch is that L3's, and its handover is fresh.
  // Every dispatch call that CLI lets through carries its guard's token; a call that reaches
  // the service with none came from elsewhere (another L3, whose CLI binds nothing: Qwen Code)
  // and is refused, never recorded under the L3 above the service.
  Fleet fleet;
  const std::string script = gemini_dispatch(fleet, kCallerA, "d-a1") + " && " +
                             fleet.launch("d-other", R"(--mcp-call '{"arguments":{"prompt":"x"},)"
                                                     R"("_meta":{"progressToken":1}}')");
  const RunResult r =
      run_process(under_agent_cli(fleet.tmp.path(), "gemini", {}, {"/bin/sh", "-c", script}));
  CHECK(r.exit_code == 125);
  CHECK_MESSAGE(r.err.find("carries no call token, though Gemini CLI (pid ") != std::string::npos,
                r.err);
  const auto records = fleet.records();
  REQUIRE_MESSAGE(records.size() == 1, r.err);  // the Gemini L3's own call only
  CHECK(records[0].caller_session_id == kCallerA);
  // --mcp-meta alone (a dispatcher that passes only _meta) cannot see the token: the ancestry
  // decides, as before.
  const RunResult meta = run_process(
      under_agent_cli(fleet.tmp.path(), "gemini", {},
                      {"/bin/sh", "-c",
                       gemini_dispatch(fleet, kCallerA, "d-a2") + " && " +
                           fleet.launch("d-a3", R"(--mcp-meta '{"progressToken":1}')")}));
  CHECK_MESSAGE(meta.exit_code == 0, meta.err);
}

TEST_CASE("caller handover per call: a token no guard handed over is refused, never guessed") {
  // Beneath an L3 whose handover by ancestry is fresh: a forged or unknown token, or one that
  // is not a string, names no caller, and the launch is refused (exit 125, nothing recorded).
  Fleet fleet;
  std::string call;
  std::string why;
  SUBCASE("an unknown token") {
    call = R"({"arguments":{"prompt":"x","fleet_hooks_call":"00000000000000000000000000000000"}})";
    why = "no resume-guard hook handed over the caller of the dispatch call 0000";
  }
  SUBCASE("a token that is not a string") {
    call = R"({"arguments":{"fleet_hooks_call":7}})";
    why = "the call's argument fleet_hooks_call is not a call token";
  }
  SUBCASE("not the call's params as JSON") {
    call = "arguments";
    why = "--mcp-call is not the call's tools/call params as a JSON object";
  }
  const RunResult r = run_process(
      agent_cli(fleet.hook(kCallerA) + " && " + fleet.launch("d-1", "--mcp-call '" + call + "'")));
  CHECK(r.exit_code == 125);
  CHECK_MESSAGE(r.err.find(why) != std::string::npos, r.err);
  CHECK(r.out.find("recorded-before-start") == std::string::npos);
  CHECK(fleet.records().empty());
}

TEST_CASE("caller handover per call: --mcp-call without a token leaves it to the ancestry") {
  // A call that carries no token and a _meta that names no caller (Qwen Code 0.24.4): the
  // handover by ancestry names the caller, as with --mcp-meta; Claude Code's _meta inside
  // --mcp-call still binds its call.
  Fleet fleet;
  REQUIRE(run_process(agent_cli(kGuard + " --state-dir " + fleet.state() + " < " +
                                call_input(fleet, kCallerB, "toolu_B")))
              .exit_code == 0);
  RunResult r = run_process(
      agent_cli(fleet.hook(kCallerA) + " && " +
                fleet.launch("d-a", R"(--mcp-call '{"name":"dispatch_food_truck","arguments":)"
                                    R"({"prompt":"x"},"_meta":{"progressToken":1}}')")));
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  r = run_process(
      agent_cli(fleet.hook(kCallerA) + " && " +
                fleet.launch("d-b", R"(--mcp-call '{"arguments":{"prompt":"x"},)"
                                    R"("_meta":{"claudecode/toolUseId":"toolu_B"}}')")));
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  // --mcp-meta and --mcp-call are one or the other.
  r = run_process(agent_cli(fleet.launch("d-c", "--mcp-meta '{}' --mcp-call '{}'")));
  CHECK(r.exit_code != 0);
  const auto records = fleet.records();
  REQUIRE(records.size() == 2);
  CHECK(records[0].caller_session_id == kCallerA);
  CHECK(records[1].caller_session_id == kCallerB);
}

TEST_CASE(
    "caller handover: another user's fleet-hooks-<uid> in the shared temp directory changes "
    "nothing") {
  // Where there is no /run/user/<uid> (containers, CI runners, su), any local user could create
  // /tmp/fleet-hooks-<uid> first; every launch of the victim was then refused, with advice
  // (remove it) the victim cannot follow. The handovers now live in the user's own state
  // directory.
  if (::geteuid() != 0) {
    MESSAGE("skipped: giving a directory to another user needs root");
    return;
  }
  struct stat runtime {};
  if (::stat(("/run/user/" + std::to_string(::geteuid())).c_str(), &runtime) == 0) {
    MESSAGE("skipped: this machine has the user's runtime directory, which no one can take");
    return;
  }
  Fleet fleet;
  REQUIRE(::mkdir((fleet.tmp / "home").c_str(), 0755) == 0);
  // The name taken by another user (uid 65534), this user's own one set aside meanwhile.
  const std::string taken = "/tmp/fleet-hooks-" + std::to_string(::geteuid());
  const std::string aside = fleet.tmp / "own-fleet-hooks";
  const bool existed = ::rename(taken.c_str(), aside.c_str()) == 0;
  REQUIRE(::mkdir(taken.c_str(), 0777) == 0);
  REQUIRE(::chown(taken.c_str(), 65534, 65534) == 0);
  const RunResult r = run_process(agent_cli(fleet.hook(kCallerA) + " && " + fleet.launch("d-1")),
                                  {"", {{"HOME", fleet.tmp / "home"}}, ""});
  ::rmdir(taken.c_str());
  if (existed) ::rename(aside.c_str(), taken.c_str());
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  REQUIRE(fleet.records().size() == 1);
  CHECK(fleet.records()[0].caller_session_id == kCallerA);
  struct stat own {};
  CHECK(::stat((fleet.tmp / "home/.local/state/fleet-hooks/handover").c_str(), &own) == 0);
  CHECK((own.st_mode & 0777) == 0700);
}

TEST_CASE("caller handover: a launch in another directory records where the guard judged") {
  // A dispatcher that starts each worker in its own git worktree (`cd <worktree> && exec
  // launch-wrapper --record-provenance …`, naming no state directory) recorded it in
  // <worktree>/.autoskillit/temp, a store the wired hooks never read: a second L3's resume of
  // that worker then went through. The guard hands over the state directory it judged with.
  Fleet fleet;
  // A caller of its own: the state handover is the caller's, and the other tests' guards, run
  // at the same time, judge kCallerA's calls with their own state directories.
  const std::string caller = "c0ffee00-0000-4000-8000-0000000000c7";
  const std::string worktree = fleet.tmp / "worktree";
  REQUIRE(::mkdir(worktree.c_str(), 0755) == 0);
  const std::string launch = "cd " + worktree + " && " + kWrapper +
                             " --quiet --record-provenance --assign-session-id --recipe-name "
                             "implement --dispatch-id d-w -- " +
                             fleet.worker + " -p hi";
  const RunResult r = run_process(agent_cli(fleet.hook(caller) + " && " + launch));
  CHECK_MESSAGE(r.exit_code == 0, r.err);
  CHECK(r.out.find("recorded-before-start") != std::string::npos);
  REQUIRE(fleet.records().size() == 1);
  CHECK(fleet.records()[0].caller_session_id == caller);
  struct stat st {};
  CHECK(::stat((worktree + "/.autoskillit").c_str(), &st) != 0);
}
