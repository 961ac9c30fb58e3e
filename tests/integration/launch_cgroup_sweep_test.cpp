// launch-wrapper's launch cgroups (fleet-launch-<token>) with real processes: a cgroup whose
// wrapper was SIGKILLed while its agent ran on is removed once empty — by the launch's
// guardian (launch_cgroup_layouts_test), or, when the guardian was killed too, by the next
// launch.
// Skipped where no cgroup can be made (not root,
// no cgroup2 mount), as the containment tests use the cgroup mode only there.

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <functional>
#include <random>

#include "emulator.h"
#include "launch_output.h"
#include "proc_table.h"
#include "process.h"
#include "process/cgroup_v2.h"
#include "temp_dir.h"

using fleet::test::announced_pids;
using fleet::test::BackgroundProcess;
using fleet::test::read_file;
using fleet::test::run_process;
using fleet::test::running;
using fleet::test::TempDir;
using fleet::test::write_script;

namespace {

const std::string kWrapper = FLEET_LAUNCH_WRAPPER;

bool cgroup_possible() {
  return ::geteuid() == 0 &&
         read_file("/proc/self/mountinfo").find(" - cgroup2 ") != std::string::npos;
}

bool exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

bool wait_until(const std::function<bool()>& done, int timeout_ms = 15000) {
  for (int waited = 0; waited < timeout_ms; waited += 10) {
    if (done()) return true;
    ::usleep(10000);
  }
  return done();
}

// The processes of the launch-wrapper program whose environment holds `entry` ("NAME=value"),
// but `wrapper`: its guardian.
std::vector<pid_t> guardians(pid_t wrapper, const std::string& entry) {
  char program[PATH_MAX];
  REQUIRE(::realpath(kWrapper.c_str(), program) != nullptr);
  std::vector<pid_t> found;
  for (pid_t pid : fleet::test::all_pids()) {
    const std::string proc = "/proc/" + std::to_string(pid);
    char exe[PATH_MAX] = {};
    if (pid == wrapper || ::readlink((proc + "/exe").c_str(), exe, sizeof exe - 1) <= 0 ||
        std::string(exe) != program) {
      continue;
    }
    std::string environ(1, '\0');  // each entry between two NULs
    environ.append(read_file(proc + "/environ"));
    std::string wanted(1, '\0');
    wanted.append(entry).push_back('\0');
    if (environ.find(wanted) != std::string::npos) found.push_back(pid);
  }
  return found;
}

// The value after "token=" in `out`.
std::string announced_token(const std::string& out) {
  const std::size_t at = out.find("token=");
  if (at == std::string::npos) return "";
  return out.substr(at + 6, 32);
}

}  // namespace

TEST_CASE(
    "containment: a SIGKILLed wrapper and guardian leave an empty cgroup the next launch removes") {
  if (!cgroup_possible()) {
    MESSAGE("skipped: no cgroup can be made here (needs root and a cgroup2 mount)");
    return;
  }
  fleet::test::skip_under_emulator(
      "the guardian is found by its /proc/<pid>/exe, which names the emulator's binfmt "
      "interpreter here, not launch-wrapper");
  const std::optional<std::string> own = fleet::own_cgroup_directory();
  REQUIRE(own);
  TempDir tmp;
  const std::string go = tmp / "go";
  const std::string agent =
      write_script(tmp / "agent", "echo \"token=$FLEET_LAUNCH_TOKEN\"\nwhile [ ! -e " + go +
                                      " ]; do sleep 0.01; done\n");
  // The default announce mode, no --member: nothing records the launch.
  const std::string marker = "FLEET_TEST_SWEEP=" + std::to_string(::getpid()) + "-" +
                             std::to_string(std::random_device()());
  BackgroundProcess w({kWrapper, "--quiet", "--", agent},
                      {"", {{"FLEET_TEST_SWEEP", marker.substr(marker.find('=') + 1)}}, ""});
  REQUIRE(w.wait_for_output("token="));
  const std::string token = announced_token(w.result().out);
  REQUIRE(token.size() == 32);
  const std::string cgroup = *own + "/fleet-launch-" + token;
  REQUIRE(exists(cgroup));
  const std::vector<pid_t> pids = announced_pids(w.result().out);
  REQUIRE(pids.size() == 1);
  const std::vector<pid_t> guardian = guardians(w.pid(), marker);
  REQUIRE(guardian.size() == 1);
  ::kill(guardian[0], SIGKILL);  // the guardian dies (before the wrapper: it would notice)
  w.signal(SIGKILL);             // the wrapper dies; its agent runs on
  REQUIRE(w.wait());
  CHECK(running(pids[0]));
  fleet::test::write_file(go, "");
  REQUIRE(wait_until([&] { return !running(pids[0]); }));
  REQUIRE(wait_until([&] {
    return read_file(cgroup + "/cgroup.events").find("populated 0") != std::string::npos;
  }));

  // A launch cgroup is swept from 2 s after it was made (a wrapper without the lock, of an
  // older version, leaves it empty only for a moment then).
  ::sleep(2);
  const fleet::test::RunResult next = run_process({kWrapper, "--quiet", "--", "/bin/true"});
  CHECK(next.exit_code == 0);
  CHECK_MESSAGE(!exists(cgroup), cgroup, " is still there");
  if (exists(cgroup)) ::rmdir(cgroup.c_str());
}
