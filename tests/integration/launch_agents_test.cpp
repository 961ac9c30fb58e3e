// launch-wrapper --agent claude|codex|gemini|qwen with small fake agents that behave as each CLI's
// documented facts say (doc/agents.md): its resume form, its stale-session text, its exit
// statuses, and a command that is not the CLI's own left as it is.

#include <doctest/doctest.h>

#include "base/json.h"
#include "launch/session_state.h"
#include "launch_output.h"
#include "process.h"
#include "temp_dir.h"

using fleet::test::announced_pids;
using fleet::test::run_process;
using fleet::test::RunResult;
using fleet::test::TempDir;
using fleet::test::wrapper_summary;
using fleet::test::write_script;
using Args = std::vector<std::string>;

namespace {

const std::string kWrapper = FLEET_LAUNCH_WRAPPER;

Args launch(Args options, const Args& command) {
  Args argv = {kWrapper};
  argv.insert(argv.begin() + 1, options.begin(), options.end());
  argv.push_back("--");
  argv.insert(argv.end(), command.begin(), command.end());
  return argv;
}

// The keyed session `key` recorded as resume_pending on `id`.
void mark_pending(const std::string& state_dir, const std::string& key, const std::string& id) {
  fleet::SessionState pending;
  pending.session_key = key;
  pending.session_id = id;
  pending.state = fleet::SessionStatus::resume_pending;
  pending.resume_reason = fleet::ResumeReason::shutdown_timeout;
  pending.last_resume_marked_at = "2026-11-25T00:00:00Z";
  pending.restart_failure_count = 1;
  fleet::SessionStore(state_dir, key).write(pending);
}

}  // namespace

TEST_CASE("launch agents: a pending Codex session resumes as codex exec resume <id>") {
  TempDir tmp;
  mark_pending(tmp / "state", "w1", "01a21293-b600-7f20-9a4e-3c2d1b0a9f88");
  const std::string codex = write_script(tmp / "codex", "echo \"args: $*\"\n");
  const RunResult r =
      run_process(launch({"--agent", "codex", "--session-key", "w1", "--state-dir", tmp / "state"},
                         {codex, "exec", "--json", "go"}));
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("args: exec resume 01a21293-b600-7f20-9a4e-3c2d1b0a9f88 --json go\n") !=
        std::string::npos);
}

TEST_CASE("launch agents: a stale Codex resume is retried as a fresh codex exec") {
  TempDir tmp;
  const std::string codex = write_script(
      tmp / "codex",
      "for a in \"$@\"; do if [ \"$a\" = resume ]; then\n"
      "  echo 'Error: thread/resume: thread/resume failed: no rollout found for thread id "
      "01a21293-b600-7f20-9a4e-3c2d1b0a9f88' >&2\n"
      "  exit 1\nfi; done\necho \"args: $*\"\n");
  // exec's options before `resume <id>`, as people write it.
  const RunResult r = run_process(
      launch({"--agent", "codex", "--retries", "1"},
             {codex, "exec", "--json", "resume", "01a21293-b600-7f20-9a4e-3c2d1b0a9f88", "go"}));
  CHECK(r.exit_code == 0);
  CHECK(announced_pids(r.out).size() == 2);
  CHECK(r.out.find("args: exec --json go\n") != std::string::npos);
  auto summary = wrapper_summary(r.err);
  CHECK(std::string(summary["failure_classes"][0].GetString()) == "stale_session");
}

TEST_CASE("launch agents: Gemini's own resume form, id option and stale-session text") {
  TempDir tmp;
  const std::string gemini = write_script(
      tmp / "gemini",
      "if [ \"$1\" = --resume ]; then echo \"Invalid session identifier \\\"$2\\\".\" >&2; "
      "exit 42; fi\necho \"args: $*\"\n");
  mark_pending(tmp / "state", "g1", "5f2c9a10-3b4d-4e6f-8a7b-1c2d3e4f5a6b");
  const RunResult r = run_process(launch({"--agent", "gemini", "--session-key", "g1", "--state-dir",
                                          tmp / "state", "--assign-session-id", "--retries", "1"},
                                         {gemini, "-p", "go"}));
  CHECK(r.exit_code == 0);
  CHECK(announced_pids(r.out).size() == 2);
  CHECK(r.out.find("args: --session-id ") != std::string::npos);
  auto summary = wrapper_summary(r.err);
  CHECK(std::string(summary["failure_classes"][0].GetString()) == "stale_session");
}

TEST_CASE("launch agents: a rate limit Gemini CLI already retried is not retried again") {
  TempDir tmp;
  const std::string gemini =
      write_script(tmp / "gemini",
                   "echo 'Attempt 10 failed with status 429. Retrying with backoff...' >&2\n"
                   "echo 'RESOURCE_EXHAUSTED' >&2\nexit 173\n");
  const RunResult r = run_process(
      launch({"--agent", "gemini", "--retries", "3", "--backoff", "0"}, {gemini, "-p", "go"}));
  CHECK(r.exit_code == 173);
  CHECK(announced_pids(r.out).size() == 1);
  auto summary = wrapper_summary(r.err);
  CHECK(std::string(summary["failure_classes"][0].GetString()) == "fatal");
  REQUIRE(summary.HasMember("not_retried"));
  CHECK(std::string(summary["not_retried"].GetString()).find("Gemini CLI") != std::string::npos);
  // The same output from Claude Code is worth another attempt.
  const std::string claude =
      write_script(tmp / "claude", "echo 'API Error: 429 rate limit' >&2\nexit 1\n");
  const RunResult again =
      run_process(launch({"--retries", "1", "--backoff", "0"}, {claude, "-p", "go"}));
  CHECK(announced_pids(again.out).size() == 2);
}

TEST_CASE("launch agents: a command that is not the CLI's own is never rewritten") {
  TempDir tmp;
  // A shell in front of the agent: --session-id or --resume inserted here would be the
  // shell's options, and its "-c" is not Claude Code's --continue.
  const Args shell = {"/bin/sh", "-c", "echo \"args: $*\"; echo \"id: $FLEET_SESSION_ID\"",
                      "sh",      "-p", "go"};
  RunResult r = run_process(launch({"--assign-session-id"}, shell));
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("args: -p go\n") != std::string::npos);
  auto summary = wrapper_summary(r.err);
  const std::string id = summary["session_id"].GetString();
  CHECK(r.out.find("id: " + id + "\n") != std::string::npos);
  CHECK(r.err.find("FLEET_SESSION_ID") != std::string::npos);

  mark_pending(tmp / "state", "k", "s-1");
  const Args resuming = {
      "/bin/sh", "-c", "echo \"args: $*\"; echo \"resume: $FLEET_RESUME_SESSION_ID\"",
      "sh",      "-p", "go"};
  r = run_process(launch({"--session-key", "k", "--state-dir", tmp / "state"}, resuming));
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("args: -p go\n") != std::string::npos);
  CHECK(r.out.find("resume: s-1\n") != std::string::npos);
}

TEST_CASE("launch agents: --agent names one of the known CLIs") {
  const RunResult r = run_process(launch({"--agent", "vim"}, {"/bin/true"}));
  CHECK(r.exit_code == 125);
  CHECK(r.err.find("--agent") != std::string::npos);
  CHECK(r.err.find("claude") != std::string::npos);
}

namespace {

constexpr const char* kCodexId = "01a21293-b600-7f20-9a4e-3c2d1b0a9f88";
constexpr const char* kGeminiId = "5f2c9a10-3b4d-4e6f-8a7b-1c2d3e4f5a6b";
const std::string kMarker = "%%W1_DONE%%";

// A resumed agent that works a while ("still working" on stdout) before it appends its new
// completion record to `session_file` and then idles: only the new record may end it.
// `prelude` is what the CLI appends when it resumes, before the turn.
// `stdout_prelude` is what it prints first (a shell command).
std::string resumed_agent(const std::string& path, const std::string& session_file,
                          const std::string& record, const std::string& prelude = "",
                          const std::string& stdout_prelude = "") {
  const std::string append_prelude =
      prelude.empty() ? "" : "printf '%s\\n' '" + prelude + "' >> " + session_file + "\n";
  return write_script(path, stdout_prelude + append_prelude +
                                "sleep 1\necho still working\nprintf '%s\\n' '" + record + "' >> " +
                                session_file + "\necho finished\nexec sleep 60\n");
}

// A Codex rollout's finished turn whose last message ends with `text`.
std::string codex_done(const std::string& text) {
  return R"({"timestamp":"t","type":"event_msg","payload":{"type":"task_complete","last_agent_message":"ok\n)" +
         text + "\"}}";
}

void check_ended_by_new_record(const RunResult& r) {
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("still working\nfinished\n") != std::string::npos);
  auto summary = wrapper_summary(r.err);
  CHECK(summary["completion_seen"].GetBool());
  CHECK(std::string(summary["kill_reason"].GetString()) == "completed_then_stopped");
}

}  // namespace

TEST_CASE("launch agents: a resumed Codex worker runs on past its old task_complete") {
  TempDir tmp;
  const std::string day = tmp / "codex-home/sessions/2026/11/25";
  REQUIRE(run_process({"/bin/mkdir", "-p", day}).exit_code == 0);
  const std::string rollout = day + "/rollout-2026-11-25T23-59-01-" + kCodexId + ".jsonl";
  fleet::test::write_file(rollout, codex_done(kMarker) + "\n");  // the interrupted run's last turn
  const std::string codex = resumed_agent(tmp / "codex", rollout, codex_done(kMarker));
  const RunResult r = run_process(
      launch({"--agent", "codex", "--completion-marker", kMarker, "--drain", "0.2", "--grace", "1"},
             {codex, "exec", "resume", kCodexId, "--json", "go on"}),
      {"", {{"CODEX_HOME", tmp / "codex-home"}}, ""});
  check_ended_by_new_record(r);
}

TEST_CASE("launch agents: a resumed Gemini worker runs on past its old answer") {
  TempDir tmp;
  const std::string project = tmp / "project";
  const std::string chats = tmp / "home/.gemini/tmp/project/chats";
  REQUIRE(run_process({"/bin/mkdir", "-p", chats, project}).exit_code == 0);
  fleet::test::write_file(tmp / "home/.gemini/tmp/project/.project_root", project);
  const std::string session =
      chats + "/session-2026-11-25T23-59-" + std::string(kGeminiId).substr(0, 8) + ".jsonl";
  const std::string answer =
      R"({"id":"m2","timestamp":"t","type":"gemini","content":"ok\n)" + kMarker + "\"}";
  fleet::test::write_file(session, R"({"sessionId":")" + std::string(kGeminiId) +
                                       R"(","projectHash":"h"})"
                                       "\n" +
                                       answer + "\n");
  // gemini-cli 0.61.0 resuming: a new header line, then the earlier messages again in a $set
  // (the old answer with its marker among them).
  const std::string prelude =
      R"({"sessionId":")" + std::string(kGeminiId) +
      R"(","projectHash":"h"})"
      "\n" +
      R"({"$set":{"messages":[{"id":"m2","type":"gemini","content":[{"text":"ok\n)" + kMarker +
      R"("}]}]}})";
  const std::string gemini = resumed_agent(tmp / "gemini", session, answer, prelude);
  const RunResult r = run_process(launch({"--agent", "gemini", "--completion-marker", kMarker,
                                          "--drain", "0.2", "--grace", "1"},
                                         {gemini, "--resume", kGeminiId, "-p", "go on"}),
                                  {"", {{"HOME", tmp / "home"}, {"GEMINI_CLI_HOME", ""}}, project});
  check_ended_by_new_record(r);
}

namespace {

constexpr const char* kCaller = "c0ffee00-0000-4000-8000-000000000001";

// `codex exec --json` as codex-cli 0.169.0 runs it: thread.started, turn.started, then its
// SessionStart hooks ($HOOK, when wired: `provenance-writer session-start --agent codex`),
// then the turn's first tool call, which says whether the worker was recorded by then.
std::string fake_codex(const std::string& path, const std::string& store) {
  return write_script(
      path, std::string("id=") + kCodexId +
                "\necho '{\"type\":\"thread.started\",\"thread_id\":\"'$id'\"}'\n"
                "echo '{\"type\":\"turn.started\"}'\n"
                "if [ -n \"$HOOK\" ]; then printf '%s' '{\"session_id\":\"'$id'\","
                "\"transcript_path\":null,\"cwd\":\"/w\",\"hook_event_name\":\"SessionStart\","
                "\"model\":\"gpt-5\",\"permission_mode\":\"default\",\"source\":\"startup\"}' | "
                "\"$HOOK\" session-start --agent codex; fi\n"
                "if grep -q \"\\\"session_id\\\":\\\"$id\\\"\" " +
                store +
                " 2>/dev/null; then echo 'tool call: recorded'; "
                "else echo 'tool call: unrecorded'; fi\n"
                "echo '{\"type\":\"turn.completed\"}'\n");
}

std::vector<std::string> store_lines(const std::string& store) {
  return fleet::test::split_lines(fleet::test::read_file(store));
}

// launch-wrapper --agent codex --record-provenance, called by kCaller, of fake_codex (its store
// in `tmp`/state) run with `words`, the words after the program.
RunResult launch_recorded_codex(const TempDir& tmp, const Args& words) {
  Args command = {fake_codex(tmp / "codex", tmp / "state/session_provenance.jsonl")};
  command.insert(command.end(), words.begin(), words.end());
  return run_process(
      fleet::test::under_agent_cli(tmp.path(), "claude", {{"CLAUDE_CODE_SESSION_ID", kCaller}},
                                   launch({"--agent", "codex", "--record-provenance", "--state-dir",
                                           tmp / "state", "--recipe-name", "implement"},
                                          command)));
}

}  // namespace

TEST_CASE(
    "launch agents: a Codex worker's SessionStart hook records it before its first tool call") {
  TempDir tmp;
  const std::string store = tmp / "state/session_provenance.jsonl";
  const std::string codex = fake_codex(tmp / "codex", store);
  const RunResult r = run_process(
      fleet::test::under_agent_cli(tmp.path(), "claude", {{"CLAUDE_CODE_SESSION_ID", kCaller}},
                                   launch({"--agent", "codex", "--record-provenance", "--state-dir",
                                           tmp / "state", "--recipe-name", "implement"},
                                          {codex, "exec", "--json", "go"})),
      {"", {{"HOOK", FLEET_PROVENANCE_WRITER}}, ""});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("tool call: recorded\n") != std::string::npos);
  CHECK(r.err.find("warning") == std::string::npos);
  const auto lines = store_lines(store);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].find(std::string("\"session_id\":\"") + kCodexId) != std::string::npos);
  CHECK(lines[0].find("\"agent_cli\":\"codex\"") != std::string::npos);
  auto summary = wrapper_summary(r.err);
  CHECK(std::string(summary["session_id"].GetString()) == kCodexId);
  // The pending launch is gone once the launch has ended.
  CHECK(run_process({"/bin/ls", "-A", tmp / "state/pending"}).out.empty());
}

TEST_CASE("launch agents: an unclaimed Codex launch is recorded late, with a warning") {
  TempDir tmp;
  const std::string store = tmp / "state/session_provenance.jsonl";
  const RunResult r = launch_recorded_codex(tmp, {"exec", "--json", "go"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("tool call: unrecorded\n") != std::string::npos);
  CHECK(r.err.find("unguarded") != std::string::npos);
  CHECK(r.err.find("fleet-hooks install --agent codex") != std::string::npos);
  const auto lines = store_lines(store);
  REQUIRE(lines.size() == 1);
  CHECK(lines[0].find(std::string("\"session_id\":\"") + kCodexId) != std::string::npos);
  auto summary = wrapper_summary(r.err);
  CHECK(std::string(summary["session_id"].GetString()) == kCodexId);
}

TEST_CASE("launch agents: a captured Codex id names its keyed session and its rollout") {
  TempDir tmp;
  const std::string day = tmp / "codex-home/sessions/2026/11/26";
  REQUIRE(run_process({"/bin/mkdir", "-p", day}).exit_code == 0);
  const std::string rollout = day + "/rollout-2026-11-26T01-00-00-" + kCodexId + ".jsonl";
  const std::string done =
      R"({"timestamp":"t","type":"event_msg","payload":{"type":"task_complete","last_agent_message":")" +
      kMarker + "\"}}";
  const std::string codex = write_script(
      tmp / "codex", std::string("echo '{\"type\":\"thread.started\",\"thread_id\":\"") + kCodexId +
                         "\"}'\nsleep 0.5\nprintf '%s\\n' '" + done + "' >> " + rollout +
                         "\necho finished\nexec sleep 60\n");
  const RunResult r =
      run_process(launch({"--agent", "codex", "--completion-marker", kMarker, "--drain", "0.2",
                          "--grace", "1", "--session-key", "w2", "--state-dir", tmp / "state"},
                         {codex, "exec", "--json", "go"}),
                  {"", {{"CODEX_HOME", tmp / "codex-home"}}, ""});
  CHECK(r.exit_code == 0);
  auto summary = wrapper_summary(r.err);
  CHECK(summary["completion_seen"].GetBool());
  CHECK(std::string(summary["session_id"].GetString()) == kCodexId);
  CHECK(fleet::SessionStore(tmp / "state", "w2").read().value().session_id == kCodexId);
}

namespace {

// kCodexId's rollout under `home`/sessions holding the interrupted run's completion record.
std::string old_codex_rollout(const std::string& home) {
  const std::string day = home + "/sessions/2026/11/25";
  REQUIRE(run_process({"/bin/mkdir", "-p", day}).exit_code == 0);
  const std::string rollout = day + "/rollout-2026-11-25T23-59-01-" + kCodexId + ".jsonl";
  fleet::test::write_file(rollout, codex_done(kMarker) + "\n");
  return rollout;
}

}  // namespace

TEST_CASE("launch agents: a Codex worker resumed by --last runs on past its old task_complete") {
  TempDir tmp;
  const std::string rollout = old_codex_rollout(tmp / "codex-home");
  // codex exec --json resume --last: the id appears only in thread.started.
  const std::string codex = resumed_agent(
      tmp / "codex", rollout, codex_done(kMarker), "",
      std::string("echo '{\"type\":\"thread.started\",\"thread_id\":\"") + kCodexId + "\"}'\n");
  const RunResult r = run_process(
      launch({"--agent", "codex", "--completion-marker", kMarker, "--drain", "0.2", "--grace", "1"},
             {codex, "exec", "--json", "resume", "--last", "go on"}),
      {"", {{"CODEX_HOME", tmp / "codex-home"}}, ""});
  check_ended_by_new_record(r);
  CHECK(std::string(wrapper_summary(r.err)["session_id"].GetString()) == kCodexId);
}

TEST_CASE("launch agents: a Codex resume by --last records no ownership") {
  TempDir tmp;
  const std::string store = tmp / "state/session_provenance.jsonl";
  const RunResult r = launch_recorded_codex(tmp, {"exec", "--json", "resume", "--last", "go"});
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("warning") == std::string::npos);
  CHECK(store_lines(store).empty());
  CHECK(run_process({"/bin/ls", "-A", tmp / "state/pending"}).out.empty());
  CHECK(std::string(wrapper_summary(r.err)["session_id"].GetString()) == kCodexId);
}

TEST_CASE("launch agents: a Codex option's value is not read as the resumed id") {
  TempDir tmp;
  const std::string rollout = old_codex_rollout(tmp / "codex-home");
  const std::string codex = resumed_agent(tmp / "codex", rollout, codex_done(kMarker));
  const RunResult r =
      run_process(launch({"--agent", "codex", "--completion-marker", kMarker, "--drain", "0.2",
                          "--grace", "1", "--session-key", "w3", "--state-dir", tmp / "state"},
                         {codex, "exec", "--json", "resume", "-m", "gpt-5", kCodexId, "go on"}),
                  {"", {{"CODEX_HOME", tmp / "codex-home"}}, ""});
  check_ended_by_new_record(r);
  CHECK(std::string(wrapper_summary(r.err)["session_id"].GetString()) == kCodexId);
  CHECK(fleet::SessionStore(tmp / "state", "w3").read().value().session_id == kCodexId);
}

TEST_CASE("launch agents: a stale Codex resume with -m keeps its model in the fresh retry") {
  TempDir tmp;
  const std::string codex = write_script(
      tmp / "codex",
      "for a in \"$@\"; do if [ \"$a\" = resume ]; then\n"
      "  echo \"Error: thread/resume: thread/resume failed: no rollout found for thread id $6\" "
      ">&2\n  exit 1\nfi; done\necho \"args: $*\"\n");
  const RunResult r = run_process(
      launch({"--agent", "codex", "--retries", "1"},
             {codex, "exec", "--json", "resume", "-m", "gpt-5", kCodexId, "--all", "go"}));
  CHECK(r.exit_code == 0);
  CHECK(announced_pids(r.out).size() == 2);
  CHECK(r.out.find("args: exec --json -m gpt-5 go\n") != std::string::npos);
}

TEST_CASE("launch agents: a Codex worker's own output is not read as an API failure") {
  TempDir tmp;
  // A worker whose tests printed "500 passed" and whose answer mentions a rate limit, then a
  // turn that failed for good (codex exec --json, exit 1).
  const std::string codex = write_script(
      tmp / "codex",
      std::string("echo '{\"type\":\"thread.started\",\"thread_id\":\"") + kCodexId +
          "\"}'\n"
          "echo '{\"type\":\"item.completed\",\"item\":{\"id\":\"item_1\",\"type\":"
          "\"command_execution\",\"aggregated_output\":\"500 passed\",\"exit_code\":0,"
          "\"status\":\"completed\"}}'\n"
          "echo '{\"type\":\"item.completed\",\"item\":{\"id\":\"item_2\",\"type\":"
          "\"agent_message\",\"text\":\"The API rate limit is documented.\"}}'\n"
          "echo '{\"type\":\"turn.failed\",\"error\":{\"message\":\"unexpected status 400 Bad "
          "Request: model not found\"}}'\nexit 1\n");
  const RunResult r = run_process(launch({"--agent", "codex", "--retries", "2", "--backoff", "0"},
                                         {codex, "exec", "--json", "go"}));
  CHECK(r.exit_code == 1);
  CHECK(announced_pids(r.out).size() == 1);
  auto summary = wrapper_summary(r.err);
  CHECK(std::string(summary["failure_classes"][0].GetString()) == "fatal");
}

TEST_CASE("launch agents: codex exec --remote is refused, saying why") {
  TempDir tmp;
  const std::string codex = write_script(tmp / "codex", "echo ran\n");
  // codex-cli 0.171.0: `--remote <ADDR>` on exec and on exec resume.
  for (const Args& command :
       {Args{codex, "exec", "--remote", "ws://10.0.0.2:4500", "--json", "go"},
        Args{codex, "exec", "--json", "resume", "--remote=unix://", kCodexId, "go on"}}) {
    const RunResult r = run_process(launch({"--agent", "codex"}, command));
    CHECK(r.exit_code == 125);
    CHECK(r.out.find("ran") == std::string::npos);
    CHECK(r.err.find("--remote") != std::string::npos);
    CHECK(r.err.find("another Codex app server") != std::string::npos);
  }
  // The words after "--" are the prompt's.
  const RunResult r =
      run_process(launch({"--agent", "codex"}, {codex, "exec", "--json", "--", "--remote"}));
  CHECK(r.exit_code == 0);
}

TEST_CASE("launch agents: a compressed Codex rollout is said to be unwatchable") {
  TempDir tmp;
  const std::string day = tmp / "codex-home/sessions/2026/11/25";
  REQUIRE(run_process({"/bin/mkdir", "-p", day}).exit_code == 0);
  const std::string rollout = day + "/rollout-2026-11-25T23-59-01-" + kCodexId + ".jsonl.zst";
  fleet::test::write_file(rollout, "\x28\xb5\x2f\xfd compressed");
  const std::string codex = write_script(tmp / "codex", "echo working\nsleep 0.5\necho finished\n");
  const RunResult r = run_process(
      launch({"--agent", "codex", "--completion-marker", kMarker, "--drain", "0.2", "--grace", "1"},
             {codex, "exec", "--json", "resume", kCodexId, "go on"}),
      {"", {{"CODEX_HOME", tmp / "codex-home"}}, ""});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("working\nfinished\n") != std::string::npos);
  const std::size_t said = r.err.find("cannot read " + rollout);
  CHECK(said != std::string::npos);
  CHECK(r.err.find("compressed", said) != std::string::npos);
  CHECK(r.err.find("cannot read", said + 1) == std::string::npos);  // said once
  CHECK_FALSE(wrapper_summary(r.err)["completion_seen"].GetBool());
}

namespace {

constexpr const char* kQwenId = "7b3e9c1a-2f4d-4a6b-8c9d-0e1f2a3b4c5d";

// `qwen -o stream-json` as Qwen Code 0.24.4 prints a turn: init, the answer as an "assistant"
// event, then the "result" event; here the worker says the marker first in passing, works on,
// reports its result and then idles: only the result event may end it. A resume of an id other
// than kQwenId fails as Qwen Code's does.
std::string fake_qwen(const std::string& path) {
  return write_script(
      path,
      "id=; prev=\nfor a in \"$@\"; do\n"
      "  if { [ \"$prev\" = -r ] || [ \"$prev\" = --resume ]; } && [ \"$a\" != " +
          std::string(kQwenId) +
          " ]; then\n"
          "    echo \"No saved session found with ID $a. Run \\`qwen --resume\\` without an ID to "
          "choose from existing sessions.\" >&2; exit 1\n  fi\n"
          "  case \"$prev\" in --session-id|-r|--resume) id=$a ;; esac; prev=$a\n"
          "done\necho \"args: $*\"\n"
          "echo '{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"'$id'\"}'\n"
          "echo '{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"" +
          kMarker +
          "\"}]}}'\n"
          "sleep 1\necho still working\n"
          "printf '%s\\n' '{\"type\":\"result\",\"subtype\":\"success\",\"session_id\":\"'$id'\","
          "\"result\":\"built it\\n" +
          kMarker + "\"}'\necho finished\nexec sleep 60\n");
}

// Ended by the result event: not before it (the worker said "still working" after its first
// answer), and stopped after it, as it idles.
void check_ended_by_result(const RunResult& r) {
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("still working\n") != std::string::npos);
  CHECK(r.out.find("finished\n") != std::string::npos);
  auto summary = wrapper_summary(r.err);
  CHECK(summary["completion_seen"].GetBool());
  CHECK(std::string(summary["kill_reason"].GetString()) == "completed_then_stopped");
}

}  // namespace

TEST_CASE("launch agents: a Qwen Code worker is done at its result event on stdout") {
  TempDir tmp;
  const std::string qwen = fake_qwen(tmp / "qwen");
  const RunResult r = run_process(
      launch({"--agent", "qwen", "--completion-marker", kMarker, "--drain", "0.2", "--grace", "1"},
             {qwen, "-o", "stream-json", "-r", kQwenId, "go on"}));
  check_ended_by_result(r);
  CHECK(std::string(wrapper_summary(r.err)["session_id"].GetString()) == kQwenId);

  // With --stdout final its stdout is kept until the end, and still watched as it passes.
  const RunResult final_stdout =
      run_process(launch({"--agent", "qwen", "--completion-marker", kMarker, "--drain", "0.2",
                          "--grace", "1", "--stdout", "final"},
                         {qwen, "-o", "stream-json", "-r", kQwenId, "go on"}));
  check_ended_by_result(final_stdout);
}

TEST_CASE("launch agents: a Qwen Code command that prints no result event cannot be watched") {
  TempDir tmp;
  const std::string qwen = fake_qwen(tmp / "qwen");
  const RunResult r = run_process(launch({"--agent", "qwen", "--completion-marker", kMarker},
                                         {qwen, "-o", "json", "-r", kQwenId, "go on"}));
  CHECK(r.exit_code == 125);
  CHECK(r.err.find("add --output-format stream-json to the command") != std::string::npos);
  CHECK(r.out.find("args:") == std::string::npos);  // nothing ran
}

TEST_CASE("launch agents: Qwen Code's own resume form, id option and stale-session text") {
  TempDir tmp;
  const std::string qwen = fake_qwen(tmp / "qwen");
  const std::string gone = "5f2c9a10-3b4d-4e6f-8a7b-1c2d3e4f5a6b";
  mark_pending(tmp / "state", "q1", gone);
  const RunResult r =
      run_process(launch({"--agent", "qwen", "--session-key", "q1", "--state-dir", tmp / "state",
                          "--assign-session-id", "--retries", "1", "--completion-marker", kMarker,
                          "--drain", "0.2", "--grace", "1"},
                         {qwen, "-o", "stream-json", "--yolo", "go"}));
  CHECK(r.exit_code == 0);
  CHECK(announced_pids(r.out).size() == 2);
  auto summary = wrapper_summary(r.err);
  CHECK(std::string(summary["failure_classes"][0].GetString()) == "stale_session");
  const std::string fresh = summary["session_id"].GetString();
  CHECK(fresh != gone);
  CHECK(r.err.find("No saved session found with ID " + gone + ".") != std::string::npos);
  CHECK(r.out.find("args: --session-id " + fresh + " -o stream-json --yolo go\n") !=
        std::string::npos);
  CHECK(summary["completion_seen"].GetBool());
}

TEST_CASE("launch agents: a run that makes its CLI skip the hooks is warned of, and still run") {
  // Claude Code with --bare or an inherited CLAUDE_CODE_SIMPLE runs no hook while its MCP
  // servers stay: the worker's own dispatches would run unguarded.
  TempDir tmp;
  const std::string claude = write_script(tmp / "claude", "echo ran\n");
  RunResult r = run_process(
      launch({"--member", "m1", "--state-dir", tmp / "state"}, {claude, "--bare", "-p", "hi"}));
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("ran\n") != std::string::npos);
  CHECK_MESSAGE(
      r.err.find("launch-wrapper: warning: with its command line's --bare, Claude Code "
                 "runs no hook: the suite's hooks do not run in this agent") != std::string::npos,
      r.err);
  r = run_process(launch({"--member", "m1", "--state-dir", tmp / "state"}, {claude, "-p", "hi"}),
                  {"", {{"CLAUDE_CODE_SIMPLE", "1"}}, ""});
  CHECK(r.exit_code == 0);
  CHECK_MESSAGE(
      r.err.find("with $CLAUDE_CODE_SIMPLE in its environment, Claude Code runs no hook") !=
          std::string::npos,
      r.err);
  r = run_process(launch({"--member", "m1", "--state-dir", tmp / "state", "--agent", "opencode"},
                         {write_script(tmp / "opencode", "echo ran\n"), "run", "--pure", "hi"}));
  CHECK_MESSAGE(
      r.err.find("with its command line's --pure, OpenCode loads no plugin") != std::string::npos,
      r.err);
  r = run_process(launch({"--member", "m1", "--state-dir", tmp / "state"}, {claude, "-p", "hi"}));
  CHECK_MESSAGE(r.err.find("warning") == std::string::npos, r.err);
}
