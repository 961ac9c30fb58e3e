// launch-wrapper with real processes, where a stop must reach exactly the launch's processes:
// a recorded pid that now names another group's unreaped leader, agents that escape their
// process group (setsid, double fork), a stop from outside that a retry must not undo, and a
// launcher that keeps only the first announce line.

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <csignal>
#include <cstring>
#include <map>
#include <random>

#include "base/json.h"
#include "base/timestamp.h"
#include "emulator.h"
#include "launch/registry.h"
#include "launch_output.h"
#include "proc_table.h"
#include "process.h"
#include "temp_dir.h"

using fleet::test::all_pids;
using fleet::test::announced_pids;
using fleet::test::BackgroundProcess;
using fleet::test::proc_stat;
using fleet::test::read_file;
using fleet::test::read_pid_file;
using fleet::test::run_process;
using fleet::test::running;
using fleet::test::RunOptions;
using fleet::test::RunResult;
using fleet::test::split_lines;
using fleet::test::TempDir;
using fleet::test::wrapper_summary;
using fleet::test::write_script;
using Args = std::vector<std::string>;

namespace {

const std::string kWrapper = FLEET_LAUNCH_WRAPPER;

bool wait_not_running(pid_t pid, int timeout_ms = 15000) {
  for (int waited = 0; waited < timeout_ms; waited += 10) {
    if (!running(pid)) return true;
    ::usleep(10000);
  }
  return !running(pid);
}

// Running processes whose environment holds `entry` ("NAME=value"): everything a test's
// launch started, wherever it went (every descendant inherits the test's marker variable).
std::vector<pid_t> running_with_env(const std::string& entry) {
  std::vector<pid_t> found;
  for (pid_t pid : all_pids()) {
    if (pid == ::getpid()) continue;
    const std::string environ = read_file("/proc/" + std::to_string(pid) + "/environ");
    if (("\0" + environ).find(std::string("\0", 1) + entry + std::string("\0", 1)) ==
            std::string::npos &&
        !environ.starts_with(entry + std::string("\0", 1))) {
      continue;
    }
    if (running(pid)) found.push_back(pid);
  }
  return found;
}

bool wait_none_running_with_env(const std::string& entry, int timeout_ms = 60000) {
  for (int waited = 0; waited < timeout_ms; waited += 20) {
    if (running_with_env(entry).empty()) return true;
    ::usleep(20000);
  }
  return running_with_env(entry).empty();
}

void kill_all_with_env(const std::string& entry) {
  for (pid_t pid : running_with_env(entry)) ::kill(pid, SIGKILL);
}

// A variable only this test's processes carry.
std::string unique_marker() {
  std::random_device random;
  return "FLEET_TEST_MARK=" + std::to_string(random()) + "-" + std::to_string(random());
}

RunOptions with_marker(const std::string& marker) {
  const std::size_t eq = marker.find('=');
  return {"", {{marker.substr(0, eq), marker.substr(eq + 1)}}, ""};
}

// What a launcher such as apra-fleet does to stop an agent: SIGKILL to every process of
// `root`'s tree, leaves first, `root` last (the tree as /proc shows it at that moment).
void kill_tree_leaves_first(pid_t root) {
  std::multimap<pid_t, pid_t> children;
  for (pid_t pid : all_pids()) {
    if (const auto stat = proc_stat(pid)) children.emplace(stat->ppid, pid);
  }
  std::vector<pid_t> order;  // post-order: children before their parent
  const auto visit = [&](auto&& self, pid_t pid) -> void {
    const auto [begin, end] = children.equal_range(pid);
    for (auto it = begin; it != end; ++it) self(self, it->second);
    order.push_back(pid);
  };
  visit(visit, root);
  for (pid_t pid : order) ::kill(pid, SIGKILL);
}

// A process group that has nothing to do with any launch, whose leader has exited and is
// left unreaped by its parent (this test), while a member of the group still runs: what a
// supervisor that starts children with start_new_session=True leaves behind.
struct ZombieLeaderGroup {
  pid_t leader = 0;
  pid_t member = 0;
  fleet::ProcessIdentity identity;  // the leader's, taken while it ran

  ~ZombieLeaderGroup() {
    if (member > 0) ::kill(member, SIGKILL);
    if (leader > 0) ::waitpid(leader, nullptr, 0);
  }
};

void start_zombie_leader_group(ZombieLeaderGroup& group) {
  int report[2], hold[2];
  REQUIRE(::pipe(report) == 0);
  REQUIRE(::pipe(hold) == 0);
  const pid_t leader = ::fork();
  REQUIRE(leader >= 0);
  if (leader == 0) {
    ::close(report[0]);
    ::close(hold[1]);
    ::setsid();
    const pid_t member = ::fork();
    if (member == 0) {
      ::execl("/bin/sleep", "sleep", "1000", static_cast<char*>(nullptr));
      ::_exit(127);
    }
    (void)!::write(report[1], &member, sizeof member);
    char byte;
    (void)!::read(hold[0], &byte, 1);  // exits when the test lets it
    ::_exit(0);
  }
  ::close(report[1]);
  ::close(hold[0]);
  group.leader = leader;
  REQUIRE(::read(report[0], &group.member, sizeof group.member) == sizeof group.member);
  ::close(report[0]);
  group.identity = fleet::identify_process(leader).value();
  ::close(hold[1]);  // the leader exits now and stays a zombie: nobody reaps it
  for (int i = 0; i < 1000; ++i) {
    const auto stat = proc_stat(leader);
    if (stat && stat->state == 'Z') break;
    ::usleep(5000);
  }
  REQUIRE(proc_stat(leader)->state == 'Z');
  REQUIRE(running(group.member));
}

}  // namespace

TEST_CASE("containment: a record naming another group's zombie leader never signals it") {
  for (int run = 0; run < 5; ++run) {
    TempDir tmp;
    ZombieLeaderGroup group;
    start_zombie_leader_group(group);
    const fleet::LaunchRegistry registry(tmp.path(), "m");
    fleet::ProcessIdentity recorded = group.identity;
    recorded.starttime_ticks += 7;  // the agent that once had this pid started earlier
    registry.write({"m", recorded, group.leader, "", fleet::utc_timestamp_now(), {"old"}, {}});

    const RunResult status =
        run_process({kWrapper, "status", "--member", "m", "--state-dir", tmp.path()});
    CHECK(status.exit_code == 1);
    CHECK_MESSAGE(status.out.find("\"state\":\"pid_reused\"") != std::string::npos, status.out);

    const RunResult stop =
        run_process({kWrapper, "stop", "--member", "m", "--state-dir", tmp.path(), "--grace", "1"});
    CHECK(stop.exit_code == 0);
    CHECK_MESSAGE(stop.out.starts_with("pid_reused"), stop.out);
    ::usleep(100000);
    CHECK(running(group.member));

    registry.write({"m", recorded, group.leader, "", fleet::utc_timestamp_now(), {"old"}, {}});
    const RunResult next = run_process(
        {kWrapper, "--member", "m", "--state-dir", tmp.path(), "--grace", "1", "--", "/bin/true"});
    CHECK(next.exit_code == 0);
    CHECK(next.err.find("nothing was signalled") != std::string::npos);
    ::usleep(100000);
    CHECK(running(group.member));
  }
}

TEST_CASE("containment: a record naming our own zombie leader stops what is left of its group") {
  TempDir tmp;
  ZombieLeaderGroup group;
  start_zombie_leader_group(group);
  const fleet::LaunchRegistry registry(tmp.path(), "m");
  registry.write({"m", group.identity, group.leader, "", fleet::utc_timestamp_now(), {"old"}, {}});
  const RunResult status =
      run_process({kWrapper, "status", "--member", "m", "--state-dir", tmp.path()});
  CHECK(status.exit_code == 1);
  CHECK_MESSAGE(status.out.find("\"state\":\"exited\"") != std::string::npos, status.out);
  const RunResult stop =
      run_process({kWrapper, "stop", "--member", "m", "--state-dir", tmp.path(), "--grace", "1"});
  CHECK_MESSAGE(stop.out.starts_with("not_running"), stop.out);
  CHECK(wait_not_running(group.member));
}

namespace {

// An agent that leaves a process group behind it twice: `setsid sleep` and a double fork
// into a new session. Each escapee's pid goes to a file; "ready" once both run.
std::string escaping_agent(const TempDir& tmp, const std::string& tail) {
  return write_script(tmp / "agent", "setsid sleep 1000 & echo $! > " + tmp / "escapee1" +
                                         "\n"
                                         "(setsid sh -c 'sleep 1000 & echo $! > " +
                                         tmp / "escapee2" + "' &)\n" + "while [ ! -s " +
                                         tmp / "escapee2" +
                                         " ]; do sleep 0.01; done\n"
                                         "echo ready\n" +
                                         tail);
}

Args with_containment(Args options, const std::string& mode) {
  options.insert(options.begin() + 1, {"--containment", mode});
  return options;
}

bool cgroup_possible() {
  return ::geteuid() == 0 &&
         read_file("/proc/self/mountinfo").find(" - cgroup2 ") != std::string::npos;
}

std::vector<std::string> modes() {
  std::vector<std::string> result = {"token"};
  if (cgroup_possible()) result.push_back("cgroup");
  return result;
}

}  // namespace

TEST_CASE("containment: escapees are stopped when the agent's run ends") {
  fleet::test::skip_under_emulator(
      "an escapee is not handed to the wrapper as subreaper (PR_SET_CHILD_SUBREAPER) and clone3 "
      "is not emulated, so neither containment sees it (seen with qemu-user 7.2)");
  for (const std::string& mode : modes()) {
    for (int run = 0; run < 3; ++run) {
      TempDir tmp;
      const std::string marker = unique_marker();
      const RunResult r = run_process(
          with_containment({kWrapper, "--quiet", "--grace", "2", "--", escaping_agent(tmp, "")},
                           mode),
          with_marker(marker));
      CHECK_MESSAGE(r.exit_code == 0, mode, r.err);
      CHECK_MESSAGE(wait_none_running_with_env(marker), mode);
      kill_all_with_env(marker);
    }
  }
}

TEST_CASE("containment: --leave-children leaves the escapees alone") {
  TempDir tmp;
  const std::string marker = unique_marker();
  const RunResult r =
      run_process({kWrapper, "--quiet", "--leave-children", "--", escaping_agent(tmp, "")},
                  with_marker(marker));
  CHECK(r.exit_code == 0);
  const pid_t escapee = std::stoi(read_pid_file(tmp / "escapee1"));
  ::usleep(100000);
  CHECK(running(escapee));
  kill_all_with_env(marker);
}

TEST_CASE("containment: launch-wrapper stop reaches the escapees") {
  for (const std::string& mode : modes()) {
    TempDir tmp;
    const std::string marker = unique_marker();
    BackgroundProcess w(with_containment({kWrapper, "--member", "m", "--state-dir", tmp.path(),
                                          "--grace", "2", "--", escaping_agent(tmp, "wait\n")},
                                         mode),
                        with_marker(marker));
    REQUIRE(w.wait_for_output("ready"));
    const pid_t escapee = std::stoi(read_pid_file(tmp / "escapee1"));
    CHECK(running(escapee));
    const RunResult stop =
        run_process({kWrapper, "stop", "--member", "m", "--state-dir", tmp.path(), "--grace", "2"});
    CHECK_MESSAGE(stop.out.starts_with("stopped"), stop.out);
    CHECK_MESSAGE(wait_none_running_with_env(marker), mode);
    REQUIRE(w.wait());
    kill_all_with_env(marker);
  }
}

TEST_CASE("containment: after the wrapper was SIGKILLed, the next launch and stop find them") {
  for (const std::string& mode : modes()) {
    for (const std::string finder : {"launch", "stop"}) {
      TempDir tmp;
      const std::string marker = unique_marker();
      BackgroundProcess w(with_containment({kWrapper, "--member", "m", "--state-dir", tmp.path(),
                                            "--", escaping_agent(tmp, "exec sleep 1000\n")},
                                           mode),
                          with_marker(marker));
      REQUIRE(w.wait_for_output("ready"));
      w.signal(SIGKILL);  // before it could clean up after its agent
      REQUIRE(w.wait());
      const pid_t escapee = std::stoi(read_pid_file(tmp / "escapee2"));
      CHECK(running(escapee));
      if (finder == "launch") {
        const RunResult next = run_process({kWrapper, "--member", "m", "--state-dir", tmp.path(),
                                            "--grace", "2", "--", "/bin/true"});
        CHECK(next.exit_code == 0);
      } else {
        const RunResult stop = run_process(
            {kWrapper, "stop", "--member", "m", "--state-dir", tmp.path(), "--grace", "2"});
        CHECK_MESSAGE(stop.exit_code == 0, stop.out);
      }
      CHECK_MESSAGE(wait_none_running_with_env(marker), (mode + " " + finder));
      kill_all_with_env(marker);
    }
  }
}

TEST_CASE("containment: a stop from outside is final - no retry whatever the tail says") {
  for (int run = 0; run < 3; ++run) {
    TempDir tmp;
    const std::string marker = unique_marker();
    const std::string agent =
        write_script(tmp / "agent",
                     "echo 'API Error: 529 {\"type\":\"overloaded_error\"}' >&2\n"
                     "sleep 1000 & echo ready\nwhile :; do sleep 0.05; done\n");
    BackgroundProcess w({kWrapper, "--retries", "3", "--backoff", "0.01", "--", agent},
                        with_marker(marker));
    REQUIRE(w.wait_for_output("ready"));
    const pid_t agent_pid = announced_pids(w.result().out).at(0);
    kill_tree_leaves_first(agent_pid);
    REQUIRE(w.wait());
    CHECK(announced_pids(w.result().out).size() == 1);
    CHECK(w.result().exit_code == 128 + SIGKILL);
    auto doc = wrapper_summary(w.result().err);
    CHECK(std::string(doc["kill_reason"].GetString()) == "killed");
    REQUIRE(doc.HasMember("signal"));
    CHECK(std::string(doc["signal"].GetString()) == "SIGKILL");
    CHECK(doc["attempts"].GetUint() == 1);
    CHECK(wait_none_running_with_env(marker));
    kill_all_with_env(marker);
  }
}

namespace {

// Attempt 1 fails with a retryable error; attempt 2 starts processes that leave its group,
// says "attempt-2-ready" and runs until stopped.
std::string flaky_agent(const TempDir& tmp) {
  return write_script(tmp / "agent",
                      "n=$(cat " + tmp / "count" + " 2>/dev/null || echo 0)\n" +
                          "n=$((n + 1)); echo $n > " + tmp / "count" + "\n" +
                          "if [ $n -lt 2 ]; then echo 'API Error: 529 overloaded' >&2; exit 1; fi\n"
                          "setsid sleep 1000 &\n"
                          "(setsid sh -c 'sleep 1000 & sleep 1000' &)\n"
                          "sleep 1000 &\n"
                          "echo attempt-$n-ready\n"
                          "while :; do sleep 0.05; done\n");
}

// A launcher that implements apra-fleet's contract: it keeps the first FLEET_PID line only.
pid_t first_announced(BackgroundProcess& launch) {
  REQUIRE(launch.wait_for_output("FLEET_PID:"));
  return announced_pids(launch.result().out).at(0);
}

}  // namespace

TEST_CASE("announce wrapper: a launcher holding the first pid stops every attempt") {
  for (int run = 0; run < 5; ++run) {
    TempDir tmp;
    const std::string marker = unique_marker();
    BackgroundProcess launch({kWrapper, "--announce", "wrapper", "--retries", "2", "--backoff",
                              "0.01", "--", flaky_agent(tmp)},
                             with_marker(marker));
    const pid_t held = first_announced(launch);
    CHECK(held == launch.pid());
    REQUIRE(launch.wait_for_output("attempt-2-ready"));
    CHECK(announced_pids(launch.result().out).size() == 1);  // no second line to tell apart
    SUBCASE("kill -9 of the tree, leaves first") {
      kill_tree_leaves_first(held);
    }
    SUBCASE("kill -9 of the pid alone") {
      ::kill(held, SIGKILL);
    }
    REQUIRE(launch.wait());
    CHECK_MESSAGE(wait_none_running_with_env(marker), launch.result().err);
    kill_all_with_env(marker);
  }
}

TEST_CASE("announce wrapper: the summary and the exit code are those of the last attempt") {
  TempDir tmp;
  const std::string agent =
      write_script(tmp / "agent",
                   "n=$(cat " + tmp / "count" + " 2>/dev/null || echo 0)\n" + "echo $((n + 1)) > " +
                       tmp / "count" + "\n" +
                       "if [ $n -lt 1 ]; then echo 'API Error: 529' >&2; exit 1; fi\necho done\n");
  const RunResult r = run_process(
      {kWrapper, "--announce", "wrapper", "--retries", "2", "--backoff", "0.01", "--", agent});
  CHECK(r.exit_code == 0);
  const auto lines = split_lines(r.out);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0].starts_with("FLEET_PID:"));
  CHECK(lines[1] == "done");
  CHECK(wrapper_summary(r.err)["attempts"].GetUint() == 2);
  CHECK(r.err.find("attempt 2: agent pid ") != std::string::npos);
}

namespace {

// An agent that leaves escapees (setsid, double fork) and runs until stopped.
std::string escaping_runner(const TempDir& tmp) {
  return write_script(tmp / "runner",
                      "setsid sleep 1000 &\n"
                      "(setsid sh -c 'sleep 1000 & sleep 1000' &)\n"
                      "echo runner-ready\n"
                      "while :; do sleep 0.05; done\n");
}

}  // namespace

TEST_CASE("announce wrapper: started with stdin or stderr closed, kill -9 of the pid stops all") {
  // The launcher gave the wrapper no stdin (or no stderr): the guardian must still hold the
  // launch's token, so kill -9 of the announced wrapper pid alone leaves nothing running.
  for (const std::string closing : {"exec 0<&-", "exec 2>&-", "exec 0<&- 2>&-"}) {
    TempDir tmp;
    const std::string marker = unique_marker();
    BackgroundProcess launch({"/bin/sh", "-c", closing + "; exec \"$@\"", "sh", kWrapper,
                              "--announce", "wrapper", "--", escaping_runner(tmp)},
                             with_marker(marker));
    const pid_t held = first_announced(launch);
    CHECK(held == launch.pid());
    REQUIRE(launch.wait_for_output("runner-ready"));
    CHECK(running_with_env(marker).size() >= 4);
    ::kill(held, SIGKILL);
    REQUIRE(launch.wait());
    CHECK_MESSAGE(wait_none_running_with_env(marker), closing);
    kill_all_with_env(marker);
  }
}

TEST_CASE("containment: an agent shell that exits 137 after an outside kill is not retried") {
  // The agent is a shell (or npx) in front of the real agent: the launcher kills the real
  // agent, the shell exits 128+SIGKILL normally, and the tail says "retry".
  for (const int sig : {SIGKILL, SIGTERM}) {
    TempDir tmp;
    const std::string marker = unique_marker();
    const std::string agent = write_script(
        tmp / "agent", "sh -c 'echo $$ > " + tmp / "child" +
                           "; echo \"API Error: 529 {\\\"type\\\":\\\"overloaded_error\\\"}\" >&2;"
                           " echo ready; exec sleep 1000' &\nwait $!\n");
    BackgroundProcess w({kWrapper, "--retries", "3", "--backoff", "0.01", "--", agent},
                        with_marker(marker));
    REQUIRE(w.wait_for_output("ready"));
    const pid_t child = std::stoi(read_pid_file(tmp / "child"));
    ::kill(child, sig);
    REQUIRE(w.wait());
    CHECK_MESSAGE(announced_pids(w.result().out).size() == 1, w.result().err);
    CHECK(w.result().exit_code == 128 + sig);
    auto doc = wrapper_summary(w.result().err);
    CHECK(std::string(doc["kill_reason"].GetString()) == "killed");
    REQUIRE(doc.HasMember("signal"));
    CHECK(std::string(doc["signal"].GetString()) == (sig == SIGKILL ? "SIGKILL" : "SIGTERM"));
    CHECK(doc["attempts"].GetUint() == 1);
    CHECK(wait_none_running_with_env(marker));
    kill_all_with_env(marker);
  }
}

TEST_CASE("retries: a wrapper whose launcher exited before the failure does not retry") {
  TempDir tmp;
  const std::string marker = unique_marker();
  const std::string agent = write_script(
      tmp / "agent", "while [ ! -e " + tmp / "go" +
                         " ]; do sleep 0.02; done\necho 'API Error: 529 overloaded' >&2\nexit 1\n");
  // The launcher starts the wrapper in the background, waits until it has announced (it is
  // running: a wrapper orphaned before its main ran cannot tell), and exits: the wrapper is
  // orphaned.
  const std::string script = "\"$@\" >" + tmp / "out" + " 2>" + tmp / "err" +
                             " & while ! grep -q FLEET_PID " + tmp / "out" +
                             "; do sleep 0.01; done; echo $!";
  const RunResult launcher = run_process(
      {"/bin/sh", "-c", script, "sh", kWrapper, "--retries", "3", "--backoff", "0.01", "--", agent},
      with_marker(marker));
  REQUIRE(launcher.exit_code == 0);
  const pid_t wrapper = std::stoi(launcher.out);
  fleet::test::write_file(tmp / "go", "");
  CHECK(wait_not_running(wrapper, 60000));
  const std::string err = read_file(tmp / "err");
  CHECK_MESSAGE(err.find("the wrapper's parent is gone: no retry") != std::string::npos, err);
  CHECK(wrapper_summary(err)["attempts"].GetUint() == 1);
  CHECK(announced_pids(read_file(tmp / "out")).size() == 1);
  kill_all_with_env(marker);
}
