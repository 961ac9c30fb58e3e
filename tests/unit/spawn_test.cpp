// spawn: the one way the suite starts a program. What a caller observes: exec failures as
// errno and 126/127, the descriptors and signal state the child gets, the hold, the
// caller's death, and placement in a cgroup.

#include "process/spawn.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <cstdlib>
#include <optional>
#include <sstream>

#include "base/files.h"
#include "child.h"
#include "emulator.h"
#include "process/cgroup_v2.h"
#include "process/child_process.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::read_all;

namespace {

// Runs `argv` (not held) with its stdout on a pipe; returns what it printed.
std::string output_of(const std::vector<std::string>& argv, SpawnOptions options = {}) {
  Pipe out = make_pipe();
  options.stdout_fd = out.write_end.get();
  Spawned child = spawn(argv, environment_with({}), options);
  CHECK_FALSE(child.release());
  out.write_end.reset();
  const std::string text = read_all(out.read_end.get());
  wait_child(child.pid());
  return text;
}

// The hexadecimal signal set of a /proc/<pid>/status line such as "SigBlk:".
unsigned long long status_mask(const std::string& status, const std::string& field) {
  const std::size_t at = status.find(field);
  REQUIRE(at != std::string::npos);
  return std::strtoull(status.c_str() + at + field.size(), nullptr, 16);
}

unsigned long long bit(int sig) {
  return 1ULL << (sig - 1);
}

// The errno of a failed exec, 0 when it succeeded.
int exec_error(const std::optional<ExecFailure>& failed) {
  return failed ? failed->error : 0;
}

}  // namespace

TEST_CASE("spawn: exec failures come back with their errno - and the child exits 127 or 126") {
  fleet::test::TempDir tmp;
  Spawned missing = spawn({"no-such-command-xyz"}, environment_with({}), {});
  CHECK(exec_error(missing.release()) == ENOENT);
  CHECK(WEXITSTATUS(wait_child(missing.pid())) == 127);

  fleet::test::write_file(tmp / "plain.txt", "not a program\n");  // no x bit
  Spawned plain = spawn({tmp / "plain.txt"}, environment_with({}), {});
  CHECK(exec_error(plain.release()) == EACCES);
  CHECK(WEXITSTATUS(wait_child(plain.pid())) == 126);

  // Executable but neither ELF nor #!: an error, never handed to /bin/sh.
  fleet::test::write_file(tmp / "noshebang", "touch " + (tmp / "ran") + "\n");
  REQUIRE(::chmod((tmp / "noshebang").c_str(), 0755) == 0);
  Spawned bad = spawn({tmp / "noshebang"}, environment_with({}), {});
  CHECK(exec_error(bad.release()) == ENOEXEC);
  CHECK(WEXITSTATUS(wait_child(bad.pid())) == 126);
  CHECK(::access((tmp / "ran").c_str(), F_OK) != 0);

  CHECK(ExecFailure{ENOENT}.exit_status() == 127);
  CHECK(ExecFailure{EACCES}.exit_status() == 126);
  CHECK(ExecFailure{ENOEXEC}.exit_status() == 126);
}

TEST_CASE("spawn: the child's failed execs leave the caller's errno alone") {
  // Many PATH entries: the child's execve fails many times while it shares our memory.
  fleet::test::ScopedEnv path("PATH", "/nonexistent/a:/nonexistent/b:/nonexistent/c:/x/d");
  Spawned child = spawn({"no-such-command-xyz"}, environment_with({}), {});
  errno = 4242;
  CHECK(exec_error(child.release()) == ENOENT);
  CHECK(errno == 4242);
  wait_child(child.pid());
}

TEST_CASE("spawn: the child gets the given 0 - 1 - 2 and none of the caller's close-on-exec fds") {
  Pipe in = make_pipe(), out = make_pipe(), err = make_pipe(), unrelated = make_pipe();
  SpawnOptions options;
  options.stdin_fd = in.read_end.get();
  options.stdout_fd = out.write_end.get();
  options.stderr_fd = err.write_end.get();
  const std::string probe = "read line; echo \"out $line\"; echo err >&2; test -e /proc/$$/fd/" +
                            std::to_string(unrelated.write_end.get()) + " && echo leaked";
  Spawned child = spawn({"/bin/sh", "-c", probe}, environment_with({}), options);
  CHECK_FALSE(child.release());
  in.read_end.reset();
  out.write_end.reset();
  err.write_end.reset();
  REQUIRE(::write(in.write_end.get(), "hello\n", 6) == 6);
  in.write_end.reset();
  CHECK(read_all(out.read_end.get()) == "out hello\n");
  CHECK(read_all(err.read_end.get()) == "err\n");
  CHECK(WEXITSTATUS(wait_child(child.pid())) != 0);  // `test` failed: the fd was closed
}

TEST_CASE("spawn: signal mask and dispositions in the child") {
  sigset_t blocked, before;
  sigemptyset(&blocked);
  sigaddset(&blocked, SIGUSR1);
  ::sigprocmask(SIG_BLOCK, &blocked, &before);
  struct sigaction ignore {
  }, old_pipe{}, old_usr2{};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &old_pipe);
  ::sigaction(SIGUSR2, &ignore, &old_usr2);

  SUBCASE("by default: the caller's mask - ignored signals stay ignored") {
    const std::string status = output_of({"cat", "/proc/self/status"});
    CHECK((status_mask(status, "SigBlk:") & bit(SIGUSR1)) != 0);
    CHECK((status_mask(status, "SigIgn:") & bit(SIGPIPE)) != 0);
    CHECK((status_mask(status, "SigIgn:") & bit(SIGUSR2)) != 0);
  }
  SUBCASE("a given mask - and given signals back to their default") {
    SpawnOptions options;
    options.mask = sigset_t{};
    sigemptyset(&*options.mask);
    sigaddset(&*options.mask, SIGHUP);
    sigaddset(&options.default_signals, SIGPIPE);
    const std::string status = output_of({"cat", "/proc/self/status"}, options);
    CHECK(status_mask(status, "SigBlk:") == bit(SIGHUP));
    CHECK((status_mask(status, "SigIgn:") & bit(SIGPIPE)) == 0);
    CHECK((status_mask(status, "SigIgn:") & bit(SIGUSR2)) != 0);
  }
  // The caller's own state is as it was.
  sigset_t now;
  ::sigprocmask(SIG_SETMASK, nullptr, &now);
  CHECK(sigismember(&now, SIGUSR1) == 1);
  CHECK(sigismember(&now, SIGTERM) == sigismember(&before, SIGTERM));
  ::sigaction(SIGPIPE, &old_pipe, nullptr);
  ::sigaction(SIGUSR2, &old_usr2, nullptr);
  ::sigprocmask(SIG_SETMASK, &before, nullptr);
}

TEST_CASE("spawn: a new process group - or the caller's") {
  Spawned own = spawn({"sleep", "5"}, environment_with({}), {});
  CHECK(::getpgid(own.pid()) == own.pid());
  SpawnOptions same;
  same.new_process_group = false;
  Spawned shared = spawn({"sleep", "5"}, environment_with({}), same);
  CHECK(::getpgid(shared.pid()) == ::getpgrp());
  for (const Spawned* child : {&own, &shared}) {
    ::kill(child->pid(), SIGKILL);
    wait_child(child->pid());
  }
}

TEST_CASE("spawn: a held child runs nothing until released - aborted - it exits 125") {
  fleet::test::TempDir tmp;
  const std::string marker = tmp / "ran";
  SpawnOptions options;
  options.hold = true;
  for (int round = 0; round < 20; ++round) {
    Spawned held = spawn({"/bin/sh", "-c", "touch " + marker}, environment_with({}), options);
    ::usleep(2000);
    CHECK(::access(marker.c_str(), F_OK) != 0);
    held.abort();
    CHECK(WEXITSTATUS(wait_child(held.pid())) == 125);
    CHECK(::access(marker.c_str(), F_OK) != 0);
  }
  Spawned released = spawn({"/bin/sh", "-c", "touch " + marker}, environment_with({}), options);
  CHECK_FALSE(released.release());
  CHECK(WEXITSTATUS(wait_child(released.pid())) == 0);
  CHECK(::access(marker.c_str(), F_OK) == 0);
  {
    Spawned dropped = spawn({"/bin/sh", "-c", "exit 0"}, environment_with({}), options);
    const pid_t pid = dropped.pid();
    dropped = Spawned();  // destroyed unreleased: aborted
    CHECK(WEXITSTATUS(wait_child(pid)) == 125);
  }
}

namespace {

// Forks a caller that spawns `argv` with `options` (released when `release`), reports the
// child's pid and exits at once. This process is the subreaper that inherits the child.
pid_t spawn_from_dying_caller(const std::vector<std::string>& argv, SpawnOptions options,
                              bool release) {
  fleet::test::skip_under_emulator(
      "the orphaned child is not handed to this subreaper (PR_SET_CHILD_SUBREAPER), so it "
      "cannot be waited for (seen with qemu-user 7.2)");
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
  Pipe report = make_pipe();
  const pid_t caller = ::fork();
  REQUIRE(caller >= 0);
  if (caller == 0) {
    Spawned child = spawn(argv, environment_with({}), options);
    if (release && child.release()) ::_exit(1);
    const pid_t pid = child.pid();
    (void)!::write(report.write_end.get(), &pid, sizeof pid);
    ::_exit(0);  // no destructor: the child is left as it is
  }
  report.write_end.reset();
  pid_t pid = 0;
  REQUIRE(::read(report.read_end.get(), &pid, sizeof pid) == sizeof pid);
  CHECK(WEXITSTATUS(wait_child(caller)) == 0);
  return pid;
}

}  // namespace

TEST_CASE("spawn: a held child whose caller dies exits 125 without running") {
  fleet::test::TempDir tmp;
  SpawnOptions options;
  options.hold = true;
  const pid_t pid =
      spawn_from_dying_caller({"/bin/sh", "-c", "touch " + (tmp / "ran")}, options, false);
  const int status = wait_child(pid);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 125);
  CHECK(::access((tmp / "ran").c_str(), F_OK) != 0);
}

TEST_CASE("spawn: die_with_parent kills the child when its caller dies") {
  SpawnOptions options;
  options.hold = true;
  options.die_with_parent = true;
  const pid_t pid = spawn_from_dying_caller({"sleep", "60"}, options, true);
  const int status = wait_child(pid);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGKILL);
}

TEST_CASE("spawn: created inside a cgroup v2 when one is given") {
  fleet::test::skip_under_emulator(
      "qemu-user does not emulate clone3 (ENOSYS), so spawn falls back to fork outside the "
      "cgroup, as it does on a kernel older than 5.7");
  const std::optional<std::string> own = own_cgroup_directory();
  const std::string cgroup = own.value_or("") + "/fleet-spawn-test-" + std::to_string(::getpid());
  if (!own || ::mkdir(cgroup.c_str(), 0755) != 0) {
    MESSAGE("no writable cgroup v2 here: placement not tested");
    return;
  }
  const UniqueFd directory(::open(cgroup.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  SpawnOptions options;
  options.hold = true;
  options.cgroup_fd = directory.get();
  Spawned child = spawn({"true"}, environment_with({}), options);
  CHECK(child.in_cgroup());
  const std::optional<std::string> placed = cgroup_of(child.pid());  // before it runs anything
  REQUIRE(placed);
  CHECK(placed == relative_cgroup_path(cgroup));
  CHECK_FALSE(child.release());
  wait_child(child.pid());
  CHECK(::rmdir(cgroup.c_str()) == 0);
}
