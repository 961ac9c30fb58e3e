// launch-wrapper with real processes: the announce line, the registry, verified kills,
// signal forwarding, exit codes, retries, output pass-through and provenance at launch.

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <csignal>
#include <memory>
#include <random>
#include <set>

#include "base/ids.h"
#include "base/json.h"
#include "base/timestamp.h"
#include "child.h"
#include "emulator.h"
#include "launch/registry.h"
#include "launch_output.h"
#include "process.h"
#include "store/provenance_record.h"
#include "temp_dir.h"

using fleet::test::announced_pids;
using fleet::test::BackgroundProcess;
using fleet::test::read_file;
using fleet::test::read_pid_file;
using fleet::test::run_process;
using fleet::test::RunResult;
using fleet::test::spawn_group_leader;
using fleet::test::split_lines;
using fleet::test::TempDir;
using fleet::test::wrapper_summary;
using fleet::test::write_script;
using Args = std::vector<std::string>;

namespace {

const std::string kWrapper = FLEET_LAUNCH_WRAPPER;

Args wrapper(std::initializer_list<std::string> options,
             std::initializer_list<std::string> command) {
  Args argv = {kWrapper};
  argv.insert(argv.end(), options);
  argv.push_back("--");
  argv.insert(argv.end(), command);
  return argv;
}

// Is there a process `pid` (a zombie counts)?
bool alive(pid_t pid) {
  return pid > 0 && ::kill(pid, 0) == 0;
}

bool wait_dead(pid_t pid, int timeout_ms = 10000) {
  for (int waited = 0; waited < timeout_ms; waited += 10) {
    if (!alive(pid)) return true;
    ::usleep(10000);
  }
  return !alive(pid);
}

}  // namespace

TEST_CASE("launch-wrapper: the announce line comes first even when the agent writes at once") {
  const int runs = fleet::test::full_or_reduced(1000, 100);
  for (int run = 0; run < runs; ++run) {
    const RunResult r = run_process(wrapper({"--quiet"}, {"/bin/echo", "early"}));
    REQUIRE(r.exit_code == 0);
    const auto lines = split_lines(r.out);
    REQUIRE_MESSAGE(lines.size() == 2, r.out);
    REQUIRE(lines[0].starts_with("FLEET_PID:"));
    REQUIRE(lines[0].find_first_not_of("0123456789", 10) == std::string::npos);
    REQUIRE(lines[1] == "early");
  }
}

TEST_CASE("launch-wrapper: the announced pid is the agent's own and --announce-prefix") {
  const RunResult r = run_process(wrapper({"--quiet"}, {"/bin/sh", "-c", "echo $$"}));
  const auto lines = split_lines(r.out);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == "FLEET_PID:" + lines[1]);
  const RunResult custom = run_process(
      wrapper({"--quiet", "--announce-prefix", "AGENT="}, {"/bin/sh", "-c", "echo $$"}));
  const auto custom_lines = split_lines(custom.out);
  REQUIRE(custom_lines.size() == 2);
  CHECK(custom_lines[0] == "AGENT=" + custom_lines[1]);
}

TEST_CASE("launch-wrapper: the registry record exists while the agent runs and is removed after") {
  TempDir tmp;
  const RunResult r = run_process(wrapper({"--quiet", "--member", "m1", "--state-dir", tmp.path()},
                                          {"/bin/cat", tmp / "launch/m1.json"}));
  CHECK(r.exit_code == 0);
  const auto record = fleet::parse_launch_record(r.out.substr(r.out.find('\n') + 1));
  REQUIRE_MESSAGE(record, record.problem());
  CHECK(record->process.pid == announced_pids(r.out).at(0));
  CHECK(record->pgid == record->process.pid);
  CHECK(record->member == "m1");
  CHECK(record->command == Args{"/bin/cat", tmp / "launch/m1.json"});
  CHECK(::access((tmp / "launch/m1.json").c_str(), F_OK) != 0);
}

TEST_CASE("launch-wrapper: a new launch stops the member's previous agent and its grandchildren") {
  TempDir tmp;
  const std::string grandchild_file = tmp / "grandchild";
  BackgroundProcess first(wrapper(
      {"--member", "m", "--state-dir", tmp.path(), "--grace", "5"},
      {"/bin/sh", "-c", "sleep 300 & echo $! > " + grandchild_file + "; echo started; wait"}));
  REQUIRE(first.wait_for_output("started"));
  const pid_t agent = announced_pids(first.result().out).at(0);
  const pid_t grandchild = std::stoi(read_pid_file(grandchild_file));
  CHECK(alive(agent));
  CHECK(alive(grandchild));

  const RunResult second =
      run_process(wrapper({"--member", "m", "--state-dir", tmp.path()}, {"/bin/echo", "second"}));
  CHECK(second.exit_code == 0);
  CHECK(second.err.find("was stopped") != std::string::npos);
  CHECK(wait_dead(agent));
  CHECK(wait_dead(grandchild));
  REQUIRE(first.wait());
  CHECK(first.result().exit_code == 128 + SIGTERM);
  CHECK(std::string(wrapper_summary(first.result().err)["kill_reason"].GetString()) ==
        "superseded");
}

TEST_CASE(
    "launch-wrapper: the record survives a wrapper crash and the next launch stops the orphan") {
  TempDir tmp;
  BackgroundProcess crashed(wrapper({"--member", "m", "--state-dir", tmp.path()},
                                    {"/bin/sh", "-c", "echo started; exec sleep 300"}));
  REQUIRE(crashed.wait_for_output("started"));
  const pid_t orphan = announced_pids(crashed.result().out).at(0);
  crashed.signal(SIGKILL);
  REQUIRE(crashed.wait());
  ::usleep(100000);
  CHECK(alive(orphan));  // the agent outlived its wrapper
  CHECK(::access((tmp / "launch/m.json").c_str(), F_OK) == 0);

  const RunResult next =
      run_process(wrapper({"--quiet", "--member", "m", "--state-dir", tmp.path()}, {"/bin/true"}));
  CHECK(next.exit_code == 0);
  CHECK(next.err.find("agent pid " + std::to_string(orphan) + " was stopped") != std::string::npos);
  CHECK(wait_dead(orphan));
}

TEST_CASE("launch-wrapper: a record naming a reused pid is cleared and nothing is signalled") {
  TempDir tmp;
  const pid_t unrelated = spawn_group_leader();  // nothing to do with any launch
  ::usleep(20000);
  const fleet::LaunchRegistry registry(tmp.path(), "m");
  SUBCASE("another start time") {
    fleet::ProcessIdentity identity = fleet::identify_process(unrelated).value();
    identity.starttime_ticks += 7;
    registry.write({"m", identity, unrelated, "", fleet::utc_timestamp_now(), {"old"}});
  }
  SUBCASE("another boot") {
    fleet::ProcessIdentity identity = fleet::identify_process(unrelated).value();
    identity.boot_id = "00000000-0000-4000-8000-000000000000";
    registry.write({"m", identity, unrelated, "", fleet::utc_timestamp_now(), {"old"}});
  }
  const RunResult r = run_process(
      wrapper({"--member", "m", "--state-dir", tmp.path(), "--grace", "1"}, {"/bin/true"}));
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("nothing was signalled") != std::string::npos);
  ::usleep(200000);
  CHECK(alive(unrelated));
  ::kill(unrelated, SIGKILL);
  ::waitpid(unrelated, nullptr, 0);
}

TEST_CASE("launch-wrapper: a corrupt registry record is reported - replaced - never used") {
  TempDir tmp;
  const pid_t unrelated = spawn_group_leader();  // nothing to do with any launch
  ::mkdir((tmp / "launch").c_str(), 0700);
  fleet::test::write_file(tmp / "launch/m.json",
                          "{\"pid\": " + std::to_string(unrelated) + ", \"pgid\": oops");
  const RunResult r = run_process(
      wrapper({"--member", "m", "--state-dir", tmp.path()}, {"/bin/cat", tmp / "launch/m.json"}));
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("unreadable") != std::string::npos);
  CHECK(r.out.find("\"member\":\"m\"") != std::string::npos);  // the new record
  CHECK(alive(unrelated));
  ::kill(unrelated, SIGKILL);
  ::waitpid(unrelated, nullptr, 0);
}

TEST_CASE("launch-wrapper: each forwarded signal reaches the agent's group") {
  for (const auto& [sig, name] : std::vector<std::pair<int, std::string>>{{SIGTERM, "TERM"},
                                                                          {SIGINT, "INT"},
                                                                          {SIGHUP, "HUP"},
                                                                          {SIGQUIT, "QUIT"},
                                                                          {SIGUSR1, "USR1"},
                                                                          {SIGUSR2, "USR2"}}) {
    BackgroundProcess w(wrapper({"--quiet"}, {"/bin/sh", "-c",
                                              "trap 'echo got-" + name + "; exit 0' " + name +
                                                  "; echo ready; while :; do sleep 0.05; done"}));
    REQUIRE(w.wait_for_output("ready"));
    w.signal(sig);
    REQUIRE(w.wait());
    CHECK_MESSAGE(w.result().out.find("got-" + name) != std::string::npos, name);
    CHECK_MESSAGE(w.result().exit_code == 0,
                  name);  // the wrapper survived and exited with the agent
  }
}

TEST_CASE("launch-wrapper: exit codes") {
  TempDir tmp;
  fleet::test::write_file(tmp / "not-executable", "echo hi\n");
  CHECK(run_process(wrapper({"--quiet"}, {"/bin/sh", "-c", "exit 3"})).exit_code == 3);
  CHECK(run_process(wrapper({"--quiet"}, {"/bin/sh", "-c", "kill -KILL $$"})).exit_code == 137);
  CHECK(run_process(wrapper({"--quiet"}, {"/bin/sh", "-c", "kill -TERM $$"})).exit_code == 143);
  const RunResult missing = run_process(wrapper({"--quiet"}, {"no-such-agent-command"}));
  CHECK(missing.exit_code == 127);
  CHECK(missing.err.find("no-such-agent-command") != std::string::npos);
  CHECK(run_process(wrapper({"--quiet"}, {tmp / "not-executable"})).exit_code == 126);
  const RunResult no_command = run_process({kWrapper, "--quiet"});
  CHECK(no_command.exit_code == 125);
  CHECK(no_command.err.find("no command") != std::string::npos);
  CHECK(run_process({kWrapper, "--quiet", "--"}).exit_code == 125);
  const RunResult bad_member =
      run_process(wrapper({"--member", "../x", "--state-dir", tmp.path()}, {"/bin/true"}));
  CHECK(bad_member.exit_code == 125);
  CHECK(bad_member.err.find("member name") != std::string::npos);
  CHECK(bad_member.out.empty());  // nothing was started
  CHECK(run_process({kWrapper, "--no-such-option", "--", "/bin/true"}).exit_code == 125);
  CHECK(run_process({kWrapper, "--version"}).out.find("launch-wrapper 0.") == 0);
  CHECK(run_process({kWrapper, "--help"}).out.find("--record-provenance") != std::string::npos);
}

TEST_CASE("launch-wrapper: a command that cannot run is refused before anything is announced") {
  TempDir tmp;
  fleet::test::write_file(tmp / "not-executable", "echo hi\n");
  ::mkdir((tmp / "a-directory").c_str(), 0755);
  const std::string state = tmp / "state";
  struct Case {
    std::string command;
    int exit_code;
  };
  for (const Case& c : {Case{"no-such-agent-command", 127}, Case{tmp / "no-such-file", 127},
                        Case{tmp / "not-executable", 126}, Case{tmp / "a-directory", 126}}) {
    for (const std::string announce : {"agent", "wrapper"}) {
      const RunResult r = run_process(wrapper({"--member", "m1", "--state-dir", state, "--announce",
                                               announce, "--summary-file", tmp / "summary.json"},
                                              {c.command, "-p", "hi"}));
      INFO(c.command, " --announce ", announce);
      CHECK(r.exit_code == c.exit_code);
      CHECK(r.out.empty());  // no FLEET_PID line: no pid a launcher could hold
      CHECK(r.err.find("cannot run '" + c.command + "'") != std::string::npos);
      auto doc = wrapper_summary(r.err);
      CHECK(doc["attempts"].GetUint() == 0);
      CHECK(doc["exit_code"].GetInt() == c.exit_code);
      CHECK(std::string(doc["kill_reason"].GetString()) == "exec_failed");
      CHECK(doc["pids"].Size() == 0);
      CHECK(read_file(tmp / "summary.json").find("\"attempts\":0") != std::string::npos);
      CHECK(::access((state + "/launch/m1.json").c_str(), F_OK) != 0);  // nothing recorded
    }
  }
}

TEST_CASE("launch-wrapper: left-over processes in the group are stopped unless --leave-children") {
  TempDir tmp;
  const std::string pid_file = tmp / "left";
  const Args agent = {"/bin/sh", "-c", "sleep 300 & echo $! > " + pid_file};
  RunResult r = run_process(wrapper({"--quiet", "--grace", "2"}, {agent[0], agent[1], agent[2]}));
  CHECK(r.exit_code == 0);
  CHECK(wait_dead(std::stoi(read_pid_file(pid_file))));

  ::unlink(pid_file.c_str());
  r = run_process(wrapper({"--quiet", "--leave-children"}, {agent[0], agent[1], agent[2]}));
  CHECK(r.exit_code == 0);
  const pid_t left = std::stoi(read_pid_file(pid_file));
  CHECK(alive(left));
  ::kill(left, SIGKILL);
}

TEST_CASE("launch-wrapper: 10 MB of output on each stream passes through unchanged") {
  TempDir tmp;
  std::string data(10 << 20, '\0');
  std::mt19937 random(7);
  for (auto& c : data) c = static_cast<char>(random());
  fleet::test::write_file(tmp / "data", data);
  const RunResult r = run_process(wrapper(
      {"--quiet"}, {"/bin/sh", "-c", "cat " + tmp / "data" + "; cat " + tmp / "data" + " >&2"}));
  CHECK(r.exit_code == 0);
  const std::size_t first_line = r.out.find('\n') + 1;
  CHECK(r.out.size() - first_line == data.size());
  CHECK(r.out.compare(first_line, std::string::npos, data) == 0);
  CHECK(r.err == data);
}

TEST_CASE("launch-wrapper: retries follow the failure class") {
  TempDir tmp;
  const std::string flaky = write_script(
      tmp / "flaky", "n=$(cat " + tmp / "count" + " 2>/dev/null || echo 0)\n" +
                         "echo $((n + 1)) > " + tmp / "count" + "\n" +
                         "if [ \"$n\" -lt \"$1\" ]; then echo \"$2\" >&2; exit 1; fi\necho done\n");
  const auto run = [&](std::initializer_list<std::string> options, const std::string& failures,
                       const std::string& message) {
    ::unlink((tmp / "count").c_str());
    Args argv = {kWrapper};
    argv.insert(argv.end(), options);
    argv.insert(argv.end(), {"--backoff", "0.01", "--", flaky, failures, message});
    return run_process(argv);
  };

  SUBCASE("retryable: retried with a new announce line each time") {
    const RunResult r =
        run({"--retries", "3"}, "2", "API Error: 529 {\"type\":\"overloaded_error\"}");
    CHECK(r.exit_code == 0);
    const auto pids = announced_pids(r.out);
    CHECK(pids.size() == 3);
    CHECK(std::set<pid_t>(pids.begin(), pids.end()).size() == 3);
    auto doc = wrapper_summary(r.err);
    CHECK(doc["attempts"].GetUint() == 3);
    CHECK(doc["failure_classes"].Size() == 2);
  }
  SUBCASE("no retry without --retries") {
    const RunResult r = run({}, "1", "API Error: 503");
    CHECK(r.exit_code == 1);
    CHECK(announced_pids(r.out).size() == 1);
  }
  SUBCASE("fatal: never retried") {
    const RunResult r = run({"--retries", "3"}, "1", "Error: invalid API key");
    CHECK(r.exit_code == 1);
    CHECK(announced_pids(r.out).size() == 1);
  }
  SUBCASE("retries run out") {
    const RunResult r = run({"--retries", "2"}, "9", "rate limit reached");
    CHECK(r.exit_code == 1);
    CHECK(announced_pids(r.out).size() == 3);
  }
}

TEST_CASE("launch-wrapper: a stale resume is retried once as a fresh session") {
  TempDir tmp;
  const std::string claude =
      write_script(tmp / "claude",
                   "for a in \"$@\"; do if [ \"$a\" = --resume ]; then\n"
                   "  echo \"No conversation found with session ID: $2\" >&2; exit 1; fi; done\n"
                   "echo \"args: $*\"\n");
  const RunResult r = run_process(
      wrapper({"--retries", "1", "--assign-session-id"}, {claude, "--resume", "abc", "-p", "hi"}));
  CHECK(r.exit_code == 0);
  CHECK(announced_pids(r.out).size() == 2);
  const std::size_t args = r.out.find("args: ");
  REQUIRE(args != std::string::npos);
  const std::string line = r.out.substr(args, r.out.find('\n', args) - args);
  CHECK(line.find("--resume") == std::string::npos);
  CHECK(line.find("-p hi") != std::string::npos);
  CHECK(line.find("--session-id ") != std::string::npos);
  auto doc = wrapper_summary(r.err);
  CHECK(std::string(doc["failure_classes"][0].GetString()) == "stale_session");
  CHECK(line.find(doc["session_id"].GetString()) != std::string::npos);
}

TEST_CASE("launch-wrapper: a stale resume of a command that is not Claude Code is not retried") {
  TempDir tmp;
  // The agent behind a shell: the wrapper cannot tell which options are Claude Code's, and
  // removing "-c" (as if it were --continue) would break the shell's command line.
  const std::string script = "echo \"No conversation found with session ID: s-1\" >&2; exit 1";
  const RunResult r = run_process(wrapper({"--retries", "1", "--summary-file", tmp / "summary"},
                                          {"/bin/sh", "-c", script, "--resume", "s-1"}));
  CHECK(r.exit_code == 1);
  CHECK(announced_pids(r.out).size() == 1);
  CHECK(r.err.find("not Claude Code") != std::string::npos);
  auto doc = wrapper_summary(r.err);
  CHECK(doc["attempts"].GetUint() == 1);
  CHECK(std::string(doc["failure_classes"][0].GetString()) == "stale_session");
  REQUIRE(doc.HasMember("not_retried"));
  const std::string why = doc["not_retried"].GetString();
  CHECK(why.find("/bin/sh") != std::string::npos);
  CHECK(why.find("claude") != std::string::npos);
  CHECK(read_file(tmp / "summary").find("\"not_retried\"") != std::string::npos);
}

TEST_CASE("launch-wrapper: TERM during the backoff ends the wrapper") {
  TempDir tmp;
  const std::string failing = write_script(tmp / "failing", "echo 'API Error: 529' >&2; exit 1\n");
  BackgroundProcess w(wrapper({"--retries", "5", "--backoff", "30"}, {failing}));
  for (int i = 0; i < 1000 && w.result().err.find("retrying in") == std::string::npos; ++i) {
    w.wait_for_output("never printed", 20);
  }
  REQUIRE(w.result().err.find("retrying in") != std::string::npos);
  w.signal(SIGTERM);
  REQUIRE(w.wait(10000));
  CHECK(w.result().exit_code == 128 + SIGTERM);
  CHECK(announced_pids(w.result().out).size() == 1);
}

TEST_CASE(
    "launch-wrapper: provenance is recorded before the agent runs - caller from the environment") {
  TempDir tmp;
  const std::string store = tmp / "session_provenance.jsonl";
  // Named claude: the assigned id goes on Claude Code's command line only.
  const std::string agent =
      write_script(tmp / "claude", "grep -q \"\\\"session_id\\\":\\\"$2\\\"\" " + store +
                                       " && echo recorded-before-start\n");
  // Claude Code gives the MCP servers it starts CLAUDE_CODE_SESSION_ID.
  const RunResult r = run_process(fleet::test::under_agent_cli(
      tmp.path(), "claude", {{"CLAUDE_CODE_SESSION_ID", "c0ffee00-0000-4000-8000-000000000001"}},
      wrapper({"--quiet", "--record-provenance", "--assign-session-id", "--state-dir", tmp.path(),
               "--recipe-name", "implement", "--step-name", "build", "--kitchen-id", "k1",
               "--dispatch-id", "d-1"},
              {agent, "-p", "hi"})));
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("recorded-before-start") != std::string::npos);
  const auto lines = split_lines(read_file(store));
  REQUIRE(lines.size() == 1);
  const auto record = fleet::parse_provenance_line(lines[0]);
  REQUIRE(record);
  CHECK(record->caller_session_id == "c0ffee00-0000-4000-8000-000000000001");
  CHECK(record->recipe_name == "implement");
  CHECK(record->step_name == "build");
  CHECK(record->kitchen_id == "k1");
  CHECK(record->dispatch_id == "d-1");
  CHECK(fleet::is_uuid(record->session_id));

  // Resuming that session writes no second record.
  const RunResult resumed = run_process(fleet::test::under_agent_cli(
      tmp.path(), "claude", {{"CLAUDE_CODE_SESSION_ID", "c0ffee00-0000-4000-8000-000000000001"}},
      wrapper({"--quiet", "--record-provenance", "--state-dir", tmp.path(), "--recipe-name",
               "implement"},
              {"/bin/echo", "--resume", record->session_id})));
  CHECK(resumed.exit_code == 0);
  CHECK(split_lines(read_file(store)).size() == 1);

  // Without a caller nothing is started.
  const RunResult no_caller = run_process(wrapper(
      {"--record-provenance", "--assign-session-id", "--state-dir", tmp.path()}, {"/bin/echo"}));
  CHECK(no_caller.exit_code == 125);
  CHECK(no_caller.out.empty());
  CHECK(no_caller.err.find("--caller-session-id") != std::string::npos);
}

TEST_CASE("launch-wrapper: two simultaneous launches of one member never both run") {
  TempDir tmp;
  const std::string log = tmp / "log";
  const Args command = {"/bin/sh", "-c",
                        "echo start $$ >> " + log + "; trap 'echo end $$ >> " + log +
                            "; exit 143' TERM; echo ready; while :; do sleep 0.05; done"};
  const auto launch = [&] {
    return std::make_unique<BackgroundProcess>(
        wrapper({"--member", "m", "--state-dir", tmp.path(), "--grace", "5"},
                {command[0], command[1], command[2]}));
  };
  auto a = launch();
  auto b = launch();
  REQUIRE(a->wait_for_output("FLEET_PID:"));
  REQUIRE(b->wait_for_output("FLEET_PID:"));
  // One of them is superseded by the other.
  BackgroundProcess* loser = nullptr;
  BackgroundProcess* winner = nullptr;
  for (int i = 0; i < 1000 && loser == nullptr; ++i) {
    if (a->wait(10))
      loser = a.get(), winner = b.get();
    else if (b->wait(10))
      loser = b.get(), winner = a.get();
  }
  REQUIRE(loser != nullptr);
  CHECK(loser->result().exit_code == 143);
  REQUIRE(winner->wait_for_output("ready"));
  const pid_t winner_agent = announced_pids(winner->result().out).at(0);
  CHECK(alive(winner_agent));
  CHECK_FALSE(alive(announced_pids(loser->result().out).at(0)));

  // Never two agents alive at once: every start after the first follows an end.
  int running = 0;
  for (const auto& line : split_lines(read_file(log))) {
    running += line.starts_with("start") ? 1 : -1;
    CHECK_MESSAGE(running <= 1, read_file(log));
  }

  // status and stop from outside.
  const RunResult status =
      run_process({kWrapper, "status", "--member", "m", "--state-dir", tmp.path()});
  CHECK(status.exit_code == 0);
  CHECK(status.out.find("\"state\":\"alive\"") != std::string::npos);
  const RunResult stop =
      run_process({kWrapper, "stop", "--member", "m", "--state-dir", tmp.path()});
  CHECK(stop.exit_code == 0);
  CHECK(stop.out.find("stopped") == 0);
  REQUIRE(winner->wait());
  CHECK(winner->result().exit_code == 143);
  CHECK(run_process({kWrapper, "status", "--member", "m", "--state-dir", tmp.path()}).exit_code ==
        1);
  CHECK(run_process({kWrapper, "stop", "--member", "m", "--state-dir", tmp.path()})
            .out.find("no_record") == 0);
}

TEST_CASE("launch-wrapper: the agent's PWD names the directory it starts in") {
  // A dispatcher that starts the wrapper in a project without updating PWD (Node's spawn with
  // `cwd`): OpenCode 1.18.33 takes its project from $PWD, so the agent must get the real one.
  TempDir tmp;
  const std::string project = tmp / "project";
  ::mkdir(project.c_str(), 0755);
  const RunResult r =
      run_process(wrapper({"--quiet"}, {"/usr/bin/env"}), {"", {{"PWD", tmp.path()}}, project});
  REQUIRE(r.exit_code == 0);
  const auto lines = split_lines(r.out);
  CHECK_MESSAGE(std::count(lines.begin(), lines.end(), "PWD=" + project) == 1, r.out);
  CHECK(std::count_if(lines.begin(), lines.end(),
                      [](const std::string& line) { return line.starts_with("PWD="); }) == 1);
}
