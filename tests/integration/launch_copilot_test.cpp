// launch-wrapper --agent copilot with small fake agents that behave as GitHub Copilot CLI
// 1.0.102 does (doc/copilot.md): `--session-id <uuid>` names a new session but resumes one that
// exists, `--resume` also takes an id's prefix, a session's name or nothing (the latest
// session), an unknown resume says "No session, task, or name matched", and a session's events
// are $COPILOT_HOME/session-state/<id>/events.jsonl. The caller a Copilot session gives its MCP
// servers (COPILOT_AGENT_SESSION_ID) is the launch's caller.

#include <doctest/doctest.h>
#include <sys/stat.h>

#include "launch_output.h"
#include "process.h"
#include "store/provenance_store.h"
#include "temp_dir.h"

using fleet::test::announced_pids;
using fleet::test::run_process;
using fleet::test::RunResult;
using fleet::test::TempDir;
using fleet::test::wrapper_summary;
using fleet::test::write_file;
using fleet::test::write_script;
using Args = std::vector<std::string>;

namespace {

const std::string kWrapper = FLEET_LAUNCH_WRAPPER;
constexpr const char* kId = "0cb916db-26aa-40f2-86b5-1ba81b225fd2";
const std::string kMarker = "%%W1_DONE%%";

Args launch(Args options, const Args& command) {
  Args argv = {kWrapper, "--agent", "copilot"};
  argv.insert(argv.end(), options.begin(), options.end());
  argv.push_back("--");
  argv.insert(argv.end(), command.begin(), command.end());
  return argv;
}

// Copilot's events file of session `id` under the Copilot directory `home`, with its folder.
std::string events_file(const std::string& home, const std::string& id) {
  const std::string folder = home + "/session-state/" + id;
  REQUIRE(run_process({"/bin/mkdir", "-p", folder}).exit_code == 0);
  return folder + "/events.jsonl";
}

// An answer as Copilot records it (1.0.102), its text ending in `text`.
std::string answer(const std::string& text) {
  return R"({"type":"assistant.message","data":{"messageId":"m","content":"ok\n)" + text +
         R"(","toolRequests":[]},"id":"e","timestamp":"t"})";
}

}  // namespace

TEST_CASE("launch copilot: a resume the launch cannot verify is refused, saying why") {
  TempDir tmp;
  const std::string copilot = write_script(tmp / "copilot", "echo ran\n");
  const std::vector<std::pair<std::string, std::string>> env = {
      {"COPILOT_HOME", tmp / "copilot-home"}};
  struct Refused {
    Args command;
    const char* why;
  };
  const std::string existing = events_file(tmp / "copilot-home", kId);
  write_file(existing, answer("earlier") + "\n");
  for (const Refused& refused : std::vector<Refused>{
           {{copilot, "-p", "go", "--resume", "0cb916d"}, "not a full session id"},
           {{copilot, "-p", "go", "--resume=my feature"}, "not a full session id"},
           {{copilot, "-r", "0cb916db", "-p", "go"}, "not a full session id"},
           {{copilot, "--resume", "-p", "go"}, "does not name"},
           {{copilot, "-p", "go", "--continue"}, "does not name"},
           {{copilot, "--connect", kId, "-p", "go"}, "remote session"},
           {{copilot, "--session-id", kId, "-p", "go"}, "names a session that exists"},
       }) {
    CAPTURE(refused.command);
    const RunResult r = run_process(launch({}, refused.command), {"", env, ""});
    CHECK(r.exit_code == 125);
    CHECK(r.out.find("ran") == std::string::npos);
    CHECK_MESSAGE(r.err.find(refused.why) != std::string::npos, r.err);
  }
  // A full id is verifiable, and a new id is a new session.
  for (const Args& runs :
       {Args{copilot, "-p", "go", "--resume", kId},
        Args{copilot, "--resume=" + std::string(kId), "-p", "go"},
        Args{copilot, "--session-id", "11111111-2222-4333-8444-555555555555", "-p", "go"}}) {
    CAPTURE(runs);
    const RunResult r = run_process(launch({}, runs), {"", env, ""});
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("ran\n") != std::string::npos);
  }
}

TEST_CASE("launch copilot: a stale resume is retried as a new session with its own id") {
  TempDir tmp;
  const std::string copilot = write_script(tmp / "copilot",
                                           "for a in \"$@\"; do if [ \"$a\" = --resume ]; then\n"
                                           "  echo \"Error: No session, task, or name matched '" +
                                               std::string(kId) +
                                               "'.\" >&2\n"
                                               "  exit 1\nfi; done\necho \"args: $*\"\n");
  const RunResult r = run_process(
      launch({"--retries", "1", "--assign-session-id"}, {copilot, "-p", "go", "--resume", kId}),
      {"", {{"COPILOT_HOME", tmp / "copilot-home"}}, ""});
  CHECK(r.exit_code == 0);
  CHECK(announced_pids(r.out).size() == 2);
  CHECK_MESSAGE(r.out.find("args: --session-id ") != std::string::npos, r.out);
  CHECK(r.out.find(kId, r.out.find("args:")) == std::string::npos);
  auto summary = wrapper_summary(r.err);
  CHECK(std::string(summary["failure_classes"][0].GetString()) == "stale_session");
}

TEST_CASE("launch copilot: a resumed worker runs on past its old answer in events.jsonl") {
  TempDir tmp;
  const std::string events = events_file(tmp / "copilot-home", kId);
  // The earlier run's answer holds the marker, and its session.shutdown follows it.
  write_file(events, answer(kMarker) + "\n" + R"({"type":"session.shutdown","data":{}})" + "\n");
  const std::string copilot = write_script(
      tmp / "copilot", "printf '%s\\n' '{\"type\":\"session.resume\",\"data\":{}}' >> " + events +
                           "\nsleep 1\necho still working\nprintf '%s\\n' '" + answer(kMarker) +
                           "' >> " + events + "\necho finished\nexec sleep 60\n");
  const RunResult r =
      run_process(launch({"--completion-marker", kMarker, "--drain", "0.2", "--grace", "1"},
                         {copilot, "-p", "go on", "--resume", kId}),
                  {"", {{"COPILOT_HOME", tmp / "copilot-home"}}, ""});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("still working\nfinished\n") != std::string::npos);
  auto summary = wrapper_summary(r.err);
  CHECK(summary["completion_seen"].GetBool());
  CHECK(std::string(summary["kill_reason"].GetString()) == "completed_then_stopped");
}

TEST_CASE("launch copilot: the caller is the Copilot session its dispatcher runs under") {
  TempDir tmp;
  const std::string copilot = write_script(tmp / "copilot", "echo ran\n");
  const Args record = {"--record-provenance", "--assign-session-id", "--recipe-name",
                       "implement",           "--state-dir",         tmp / "state"};
  // Copilot CLI 1.0.102 gives its MCP servers COPILOT_AGENT_SESSION_ID (the main session). A
  // Copilot CLI started from a Claude Code shell passes Claude Code's variable on too: the
  // variable of the nearest CLI, Copilot's own, names the caller.
  const RunResult r = run_process(
      fleet::test::under_agent_cli(tmp.path(), "copilot",
                                   {{"COPILOT_AGENT_SESSION_ID", "c0pi1075-l3"}},
                                   launch(record, {copilot, "-p", "go"})),
      {"", {{"COPILOT_HOME", tmp / "copilot-home"}, {"CLAUDE_CODE_SESSION_ID", "c1aude-l3"}}, ""});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const std::string worker = wrapper_summary(r.err)["session_id"].GetString();
  const auto found = fleet::lookup_session(tmp / "state/session_provenance.jsonl", worker);
  REQUIRE(found.status == fleet::StoreLookup::Status::found);
  CHECK(found.record.caller_session_id == "c0pi1075-l3");
  // Without a Copilot CLI above it, its variable is not taken: nothing runs.
  const RunResult alone = run_process(
      launch(record, {copilot, "-p", "go"}),
      {"",
       {{"COPILOT_HOME", tmp / "copilot-home"}, {"COPILOT_AGENT_SESSION_ID", "c0pi1075-l3"}},
       ""});
  CHECK(alone.exit_code == 125);
  CHECK(alone.out.find("ran") == std::string::npos);
  CHECK_MESSAGE(
      alone.err.find("no agent CLI process was recognised above this launch") != std::string::npos,
      alone.err);
  CHECK(alone.err.find("COPILOT_AGENT_SESSION_ID=c0pi1075-l3") != std::string::npos);
}
