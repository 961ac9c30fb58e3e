// launch-wrapper's completion watch and resume-pending lifecycle with real processes and
// transcripts written the way Claude Code writes them.

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cctype>
#include <chrono>
#include <csignal>
#include <memory>

#include "base/json.h"
#include "fixtures.h"
#include "launch/session_state.h"
#include "launch_output.h"
#include "process.h"
#include "temp_dir.h"

using fleet::test::assistant_line;
using fleet::test::BackgroundProcess;
using fleet::test::read_file;
using fleet::test::run_process;
using fleet::test::RunResult;
using fleet::test::split_lines;
using fleet::test::TempDir;
using fleet::test::wrapper_summary;
using fleet::test::write_file;
using fleet::test::write_script;
using Args = std::vector<std::string>;
using Clock = std::chrono::steady_clock;

namespace {

const std::string kWrapper = FLEET_LAUNCH_WRAPPER;
const std::string kMarker = "%%L3_DONE::b2fc2669%%";

const std::string kOldCompletion = assistant_line("Finished.\\n" + kMarker);
const std::string kUserWithMarker =
    R"({"type":"user","message":{"role":"user","content":"When done, print )" + kMarker + R"("}})";
const std::string kBlobWithMarker =
    R"({"type":"api-request-blob","messages":[{"role":"assistant","content":[{"type":"text","text":")" +
    kMarker + R"("}]}]})";

// Single-quoted for sh.
std::string sq(const std::string& text) {
  return "'" + text + "'";
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace

TEST_CASE("completion watch: a resumed agent survives its old marker and the user's echo of it") {
  TempDir tmp;
  const std::string log = tmp / "t.jsonl";
  write_file(log, kUserWithMarker + "\n" + kOldCompletion + "\n");  // the previous run
  const std::string agent =
      write_script(tmp / "agent",
                   "sleep 0.3\nprintf '%s\\n' " + sq(kUserWithMarker) + " >> " + log + "\n" +
                       "printf '%s\\n' " + sq(kBlobWithMarker) + " >> " + log + "\n" +
                       "sleep 2\ntouch " + tmp / "alive-before-completion" + "\n" +
                       "printf '%s\\n' " + sq(assistant_line("Done again.\\n" + kMarker)) + " >> " +
                       log + "\n" + "touch " + tmp / "completion-written" + "\nsleep 60\n");
  const auto start = Clock::now();
  const RunResult r = run_process({kWrapper, "--completion-marker", kMarker, "--session-log", log,
                                   "--drain", "1", "--grace", "2", "--", agent, "--resume", "s-1"});
  const double elapsed = seconds_since(start);
  CHECK(r.exit_code == 0);
  CHECK(::access((tmp / "alive-before-completion").c_str(), F_OK) == 0);
  CHECK(::access((tmp / "completion-written").c_str(), F_OK) == 0);
  CHECK(elapsed >= 2.3);  // not before the new assistant record
  CHECK(elapsed < 30.0);  // and within the drain (+ grace) after it, with room for a slow machine
  const auto doc = wrapper_summary(r.err);
  CHECK(std::string(doc["kill_reason"].GetString()) == "completed_then_stopped");
  CHECK(doc["completion_seen"].GetBool());
}

TEST_CASE("completion watch: an agent that exits within the drain exits naturally with 0") {
  TempDir tmp;
  const std::string log = tmp / "t.jsonl";
  const std::string agent =
      write_script(tmp / "agent", "printf '%s\\n' " + sq(assistant_line(kMarker)) + " >> " + log +
                                      "\nsleep 0.2\nexit 4\n");
  const RunResult r = run_process({kWrapper, "--completion-marker", kMarker, "--session-log", log,
                                   "--drain", "10", "--", agent});
  CHECK(r.exit_code == 0);  // completion was seen
  CHECK(std::string(wrapper_summary(r.err)["kill_reason"].GetString()) == "natural_exit");
}

TEST_CASE("completion watch: markers in user records and request blobs never count") {
  TempDir tmp;
  const std::string log = tmp / "t.jsonl";
  const std::string agent = write_script(
      tmp / "agent", "printf '%s\\n%s\\n%s\\n' " + sq(kUserWithMarker) + " " + sq(kBlobWithMarker) +
                         " " + sq(assistant_line("I will print " + kMarker + " later")) + " >> " +
                         log + "\nsleep 1.5\nexit 3\n");
  const RunResult r = run_process({kWrapper, "--completion-marker", kMarker, "--session-log", log,
                                   "--drain", "0.2", "--", agent});
  CHECK(r.exit_code == 3);
  CHECK_FALSE(wrapper_summary(r.err)["completion_seen"].GetBool());
  // --marker-anywhere accepts the inline mention.
  write_file(log, "");
  const RunResult anywhere = run_process({kWrapper, "--completion-marker", kMarker, "--session-log",
                                          log, "--marker-anywhere", "--drain", "0.2", "--", agent});
  CHECK(anywhere.exit_code == 0);
}

TEST_CASE("completion watch: a line written in two pieces counts only once complete") {
  TempDir tmp;
  const std::string log = tmp / "t.jsonl";
  const std::string line = assistant_line(kMarker);
  const std::string agent = write_script(
      tmp / "agent", "printf '%s' " + sq(line.substr(0, 30)) + " >> " + log +
                         "\nsleep 1.5\ntouch " + tmp / "alive-after-half" + "\nprintf '%s\\n' " +
                         sq(line.substr(30)) + " >> " + log + "\nsleep 60\n");
  const RunResult r = run_process({kWrapper, "--completion-marker", kMarker, "--session-log", log,
                                   "--drain", "0.5", "--", agent});
  CHECK(r.exit_code == 0);
  CHECK(::access((tmp / "alive-after-half").c_str(), F_OK) == 0);
}

TEST_CASE("completion watch: transcript file and directory created after launch - poll path") {
  for (const bool inotify : {true, false}) {
    TempDir tmp;
    const std::string config = tmp / "config";
    const std::string cwd = tmp / "work dir";
    ::mkdir(cwd.c_str(), 0755);
    // Claude Code's layout: $CLAUDE_CONFIG_DIR/projects/<munged cwd>/<session id>.jsonl
    std::string munged = cwd;
    for (char& c : munged) {
      if (!std::isalnum(static_cast<unsigned char>(c))) c = '-';
    }
    const std::string dir = config + "/projects/" + munged;
    const std::string agent =
        write_script(tmp / "agent",
                     "sleep 0.5\nmkdir -p " + sq(dir) + "\nsleep 0.5\nprintf '%s\\n' " +
                         sq(assistant_line(kMarker)) + " > " + sq(dir) + "/s-42.jsonl\nsleep 60\n");
    Args argv = {kWrapper, "--completion-marker", kMarker, "--session-id", "s-42", "--drain",
                 "0.3",    "--poll-ms",           "50"};
    if (!inotify) argv.push_back("--no-inotify");
    argv.push_back("--");
    argv.push_back(agent);
    const auto start = Clock::now();
    const RunResult r = run_process(argv, {"", {{"CLAUDE_CONFIG_DIR", config}}, cwd});
    CHECK_MESSAGE(r.exit_code == 0, r.err);
    CHECK(seconds_since(start) < 30.0);
    CHECK(wrapper_summary(r.err)["completion_seen"].GetBool());
  }
}

TEST_CASE("completion watch: a marker without a transcript to watch is a usage error") {
  const RunResult r = run_process({kWrapper, "--completion-marker", kMarker, "--", "/bin/true"});
  CHECK(r.exit_code == 125);
  CHECK(r.err.find("--session-log") != std::string::npos);
}

TEST_CASE("session lifecycle: drains - resume - suspension - fresh id - success clears") {
  TempDir tmp;
  const std::string state_dir = tmp / "state";
  const std::string claude =
      write_script(tmp / "claude",
                   "echo \"args: $*\"\necho \"reason: $FLEET_RESUME_REASON\"\necho \"note: "
                   "$FLEET_RESUME_NOTE\"\n"
                   "if [ -f " +
                       tmp / "finish" + " ]; then exit 0; fi\necho ready\nsleep 60\n");
  const fleet::SessionStore store(state_dir, "truck-1");
  const auto launch = [&](Args extra) {
    Args argv = {kWrapper,
                 "--session-key",
                 "truck-1",
                 "--state-dir",
                 state_dir,
                 "--assign-session-id",
                 "--drain",
                 "0.5",
                 "--grace",
                 "2",
                 "--resume-note-arg",
                 "--append-system-prompt"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    argv.insert(argv.end(), {"--", claude, "-p", "work"});
    return std::make_unique<BackgroundProcess>(argv);
  };
  const auto interrupt = [&](int sig) {
    auto w = launch({});
    REQUIRE(w->wait_for_output("ready"));
    w->signal(sig);
    REQUIRE(w->wait());
    return w;
  };

  // First launch: active with its assigned id; a shutdown that outlasts the drain.
  auto first = interrupt(SIGTERM);
  CHECK(first->result().exit_code == 128 + SIGTERM);
  auto state = store.read().value();
  const std::string id = state.session_id;
  CHECK(fleet::test::split_lines(first->result().out)[1] ==
        "args: --session-id " + id + " -p work");
  CHECK(fleet::to_string(state.state) == "resume_pending");
  CHECK(fleet::to_string(state.resume_reason) == "shutdown_timeout");
  CHECK(state.restart_failure_count == 1);
  CHECK_FALSE(state.last_resume_marked_at.empty());

  // Second: resumes the same id, with the reason and note; a restart that times out.
  auto second = interrupt(SIGUSR1);
  const std::string out = second->result().out;
  CHECK(out.find("args: --resume " + id + " --append-system-prompt This session") !=
        std::string::npos);
  CHECK(out.find("--session-id") == std::string::npos);
  CHECK(out.find("reason: shutdown_timeout") != std::string::npos);
  CHECK(out.find("note: This session (" + id + ") is being resumed") != std::string::npos);
  state = store.read().value();
  CHECK(fleet::to_string(state.state) == "resume_pending");
  CHECK(fleet::to_string(state.resume_reason) == "restart_timeout");
  CHECK(state.restart_failure_count == 2);

  // Third interrupted restart: suspended.
  interrupt(SIGUSR1);
  state = store.read().value();
  CHECK(fleet::to_string(state.state) == "suspended");
  CHECK(state.restart_failure_count == 3);

  // Suspended: a fresh session with a new id, said on stderr; it finishes and clears the state.
  write_file(tmp / "finish", "");
  auto fresh = launch({});
  REQUIRE(fresh->wait());
  CHECK(fresh->result().exit_code == 0);
  CHECK(fresh->result().err.find("suspended") != std::string::npos);
  state = store.read().value();
  CHECK(state.session_id != id);
  CHECK(fresh->result().out.find("args: --session-id " + state.session_id) != std::string::npos);
  CHECK(fleet::to_string(state.state) == "active");
  CHECK(state.restart_failure_count == 0);
}

TEST_CASE("session lifecycle: an agent that finishes within the drain leaves no resume pending") {
  TempDir tmp;
  const std::string state_dir = tmp / "state";
  // TERM starts a drain instead of reaching the agent, which finishes its turn by itself.
  write_script(tmp / "agent2", "echo ready\nsleep 0.3\nexit 0\n");
  BackgroundProcess w({kWrapper, "--session-key", "k", "--state-dir", state_dir, "--session-id",
                       "s-9", "--drain", "10", "--", tmp / "agent2"});
  REQUIRE(w.wait_for_output("ready"));
  w.signal(SIGTERM);
  REQUIRE(w.wait());
  CHECK(w.result().exit_code == 0);
  const auto state = fleet::SessionStore(state_dir, "k").read().value();
  CHECK(fleet::to_string(state.state) == "active");
  CHECK(state.session_id == "s-9");
  CHECK(state.restart_failure_count == 0);
}

TEST_CASE("session lifecycle: a stale resume retried as a fresh session moves the key to it") {
  TempDir tmp;
  const std::string state_dir = tmp / "state";
  const fleet::SessionStore store(state_dir, "truck-2");
  fleet::SessionState dead;
  dead.session_key = "truck-2";
  dead.session_id = "dead-1";
  dead.state = fleet::SessionStatus::resume_pending;
  dead.resume_reason = fleet::ResumeReason::shutdown_timeout;
  dead.last_resume_marked_at = "2026-01-01T00:00:00Z";
  dead.restart_failure_count = 1;
  store.write(dead);
  // Claude Code when the resumed session no longer exists; otherwise a turn that takes long.
  const std::string claude =
      write_script(tmp / "claude",
                   "for a in \"$@\"; do if [ \"$a\" = --resume ]; then\n"
                   "  echo 'No conversation found with session ID: dead-1' >&2; exit 1; fi; done\n"
                   "echo \"args: $*\"\necho ready\nsleep 60\n");
  BackgroundProcess w({kWrapper, "--session-key", "truck-2", "--state-dir", state_dir,
                       "--assign-session-id", "--retries", "1", "--drain", "0.5", "--grace", "2",
                       "--", claude, "-p", "work"});
  REQUIRE(w.wait_for_output("ready"));
  const std::string out = w.result().out;
  const std::string prefix = "args: --session-id ";
  const std::size_t at = out.find(prefix);
  REQUIRE(at != std::string::npos);
  const std::string fresh =
      out.substr(at + prefix.size(), out.find(' ', at + prefix.size()) - (at + prefix.size()));
  CHECK(fresh != "dead-1");
  // While the fresh session runs, the key already names it.
  CHECK(store.read().value().session_id == fresh);
  w.signal(SIGTERM);
  REQUIRE(w.wait());
  CHECK(w.result().exit_code == 128 + SIGTERM);
  const auto summary = wrapper_summary(w.result().err);
  CHECK(std::string(summary["session_id"].GetString()) == fresh);
  CHECK(std::string(summary["kill_reason"].GetString()) == "drain_timeout");
  // The drain ran out: the session the agent ran is the one to resume next time.
  const auto state = store.read().value();
  CHECK(state.session_id == fresh);
  CHECK(fleet::to_string(state.state) == "resume_pending");
  CHECK(fleet::to_string(state.resume_reason) == "shutdown_timeout");
  CHECK(state.restart_failure_count == 1);
}
