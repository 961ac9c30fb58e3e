#include "launch/containment.h"

#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>
#include <csignal>
#include <string>

using namespace fleet;

namespace {

// A process in its own session whose environment carries `entry` (and nothing else).
pid_t spawn_with_environment(const std::string& entry) {
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::setsid();
    std::string copy = entry;
    char* env[] = {copy.data(), nullptr};
    ::execle("/bin/sleep", "sleep", "300", static_cast<char*>(nullptr), env);
    ::_exit(127);
  }
  // Wait until it has exec'd (its environ is the new one).
  for (int i = 0; i < 2000; ++i) {
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/exe", pid);
    char target[256] = {};
    if (::readlink(path, target, sizeof target - 1) > 0 &&
        std::string(target).find("sleep") != std::string::npos)
      break;
    ::usleep(5000);
  }
  return pid;
}

bool reaped_by(pid_t pid, int sig) {
  int status = 0;
  for (int i = 0; i < 1000; ++i) {
    if (::waitpid(pid, &status, WNOHANG) == pid)
      return WIFSIGNALED(status) && WTERMSIG(status) == sig;
    ::usleep(5000);
  }
  return false;
}

}  // namespace

TEST_CASE("containment: modes and the token") {
  CHECK(from_string<ContainmentMode>("token") == ContainmentMode::token);
  CHECK(from_string<ContainmentMode>("auto") == ContainmentMode::automatic);
  CHECK(from_string<ContainmentMode>("cgroup") == ContainmentMode::cgroup);
  CHECK_FALSE(from_string<ContainmentMode>("none"));
  const Containment a = create_containment(ContainmentMode::token);
  const Containment b = create_containment(ContainmentMode::token);
  CHECK(a.token.size() == 32);
  CHECK(a.token != b.token);
  CHECK(a.cgroup.empty());
  CHECK_FALSE(containment_problem(a));
  CHECK(containment_environment_entry(a).ends_with(a.token));
}

TEST_CASE("containment: a recorded containment is used only when it is a launch's own") {
  Containment c;
  c.token = "0123456789abcdef0123456789abcdef";
  CHECK_FALSE(containment_problem(c));
  c.token = "0123";
  CHECK(containment_problem(c));
  c.token = "0123456789ABCDEF0123456789abcdef";
  CHECK(containment_problem(c));
  c.token = "0123456789abcdef0123456789abcdef";
  c.cgroup = "/sys/fs/cgroup";  // the whole hierarchy: never
  CHECK(containment_problem(c));
  c.cgroup = "/tmp/fleet-launch-0123456789abcdef0123456789abcdef";  // not on a cgroup2 mount
  CHECK(containment_problem(c));
  c.cgroup = "/sys/fs/cgroup/../fleet-launch-0123456789abcdef0123456789abcdef";
  CHECK(containment_problem(c));
  c.cgroup = "/sys/fs/cgroup/fleet-launch-ffffffffffffffffffffffffffffffff";  // another token
  CHECK(containment_problem(c));
}

TEST_CASE("containment: the token finds a process in another session - another token not") {
  const Containment ours = create_containment(ContainmentMode::token);
  const Containment other = create_containment(ContainmentMode::token);
  const pid_t inside =
      spawn_with_environment(std::string(kLaunchTokenVariable) + "=x," + ours.token);
  const pid_t outside =
      spawn_with_environment(std::string(kLaunchTokenVariable) + "=" + other.token);
  const pid_t prefix =
      spawn_with_environment(std::string(kLaunchTokenVariable) + "=" + ours.token + "0");
  const ContainedStop stop = stop_contained(ours, std::chrono::seconds(5));
  CHECK(stop.found == 1);
  CHECK(stop.gone);
  CHECK(reaped_by(inside, SIGTERM));
  CHECK(::kill(outside, 0) == 0);
  CHECK(::kill(prefix, 0) == 0);
  ::kill(outside, SIGKILL);
  ::kill(prefix, SIGKILL);
  ::waitpid(outside, nullptr, 0);
  ::waitpid(prefix, nullptr, 0);
}

TEST_CASE("containment: a sweep removes an empty cgroup only when its maker is gone") {
  const Containment probe = create_containment(ContainmentMode::automatic);
  if (probe.cgroup.empty()) {
    MESSAGE("skipped: no cgroup can be made here (needs root or a delegated cgroup)");
    return;
  }
  remove_containment(probe);
  // Made by a process that has exited since (a SIGKILLed wrapper): its lock went with it.
  int report[2];
  REQUIRE(::pipe(report) == 0);
  const pid_t maker = ::fork();
  REQUIRE(maker >= 0);
  if (maker == 0) {
    const Containment made = create_containment(ContainmentMode::automatic);
    (void)!::write(report[1], made.cgroup.data(), made.cgroup.size());
    ::_exit(0);
  }
  ::close(report[1]);
  char buffer[512] = {};
  REQUIRE(::read(report[0], buffer, sizeof buffer - 1) > 0);
  ::close(report[0]);
  ::waitpid(maker, nullptr, 0);
  const std::string abandoned = buffer;
  // Made by this process, which is still running and may start an agent in it any moment.
  const Containment live = create_containment(ContainmentMode::automatic);
  REQUIRE_FALSE(live.cgroup.empty());
  ::sleep(2);  // older than the sweep's minimum age
  const Containment next = create_containment(ContainmentMode::automatic);
  CHECK(::access(abandoned.c_str(), F_OK) != 0);
  CHECK(::access(live.cgroup.c_str(), F_OK) == 0);
  ::rmdir(abandoned.c_str());
  remove_containment(live);
  remove_containment(next);
  CHECK(::access(live.cgroup.c_str(), F_OK) != 0);
}
