#include "process/process_identity.h"

#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>
#include <csignal>

#include "child.h"

using namespace fleet;
using fleet::test::reap;
using fleet::test::spawn_group_leader;

TEST_CASE("process_identity: this process") {
  const auto self = identify_process(::getpid());
  REQUIRE(self);
  CHECK(self->pid == ::getpid());
  CHECK(self->starttime_ticks > 0);
  CHECK(self->boot_id == current_boot_id());
  REQUIRE(current_boot_id());
  CHECK(current_boot_id()->size() == 36);
  CHECK(check_process(*self) == Liveness::same);
}

TEST_CASE("process_identity: a command name with spaces and parentheses") {
  const pid_t pid = spawn_group_leader("a) b (c) 1 2");
  const auto identity = identify_process(pid);
  REQUIRE(identity);
  const auto self = identify_process(::getpid());
  // Started after us, so its start time is not earlier.
  CHECK(identity->starttime_ticks >= self->starttime_ticks);
  ::kill(pid, SIGKILL);
  reap(pid);
}

TEST_CASE("process_identity: gone - reused - another boot") {
  const pid_t pid = spawn_group_leader("identity-test");
  const auto identity = identify_process(pid);
  REQUIRE(identity);
  ProcessIdentity other_start = *identity;
  other_start.starttime_ticks += 1;
  CHECK(check_process(other_start) == Liveness::reused);
  ProcessIdentity other_boot = *identity;
  other_boot.boot_id = "00000000-0000-0000-0000-000000000000";
  CHECK(check_process(other_boot) == Liveness::reused);

  ::kill(pid, SIGKILL);
  // A zombie is not alive, but its pid still names it.
  for (int i = 0; i < 200 && check_process(*identity) != Liveness::exited; ++i) ::usleep(5000);
  CHECK(check_process(*identity) == Liveness::exited);
  CHECK(check_process(other_start) == Liveness::reused);
  CHECK_FALSE(identify_process(pid));
  reap(pid);
  CHECK(check_process(*identity) == Liveness::gone);
  CHECK_FALSE(identify_process(pid));
}

TEST_CASE("process_identity: stopping a group with TERM") {
  const pid_t pid = spawn_group_leader("stop-term");
  CHECK(group_alive(pid));
  const StopResult result = stop_process_group(pid, std::chrono::seconds(10));
  CHECK(result.was_alive);
  CHECK(result.gone);
  CHECK_FALSE(result.killed);
  const int status = reap(pid);  // a variable: macOS's wait macros take one
  CHECK(WIFSIGNALED(status));
  CHECK_FALSE(group_alive(pid));
}

TEST_CASE("process_identity: a group that ignores TERM gets KILL after the grace period") {
  const pid_t pid = spawn_group_leader("stop-kill", true);
  const auto start = std::chrono::steady_clock::now();
  const StopResult result = stop_process_group(pid, std::chrono::milliseconds(300));
  CHECK(std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(300));
  CHECK(result.killed);
  CHECK(result.gone);
  const int status = reap(pid);
  CHECK((WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL));
}

TEST_CASE("process_identity: never signals init or everything") {
  CHECK_FALSE(group_alive(0));
  CHECK_FALSE(group_alive(1));
  CHECK_FALSE(stop_process_group(1, std::chrono::milliseconds(0)).was_alive);
  CHECK_FALSE(stop_process_group(0, std::chrono::milliseconds(0)).was_alive);
  CHECK_FALSE(stop_process_group(-1, std::chrono::milliseconds(0)).was_alive);
}
