#include "process/child_process.h"

#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>

#include "temp_dir.h"

using namespace fleet;

namespace {

std::string read_all(int fd) {
  std::string out;
  char buffer[4096];
  ssize_t n;
  while ((n = ::read(fd, buffer, sizeof buffer)) > 0)
    out.append(buffer, static_cast<std::size_t>(n));
  return out;
}

sigset_t empty_mask() {
  sigset_t mask;
  sigemptyset(&mask);
  return mask;
}

int wait_status(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return status;
}

}  // namespace

TEST_CASE("child_process: the held child keeps its pid across exec and leads its group") {
  HeldChild child = spawn_held({"/bin/sh", "-c", "echo $$; echo oops >&2; exit 7"},
                               environment_with({}), empty_mask());
  CHECK(::getpgid(child.pid) == child.pid);
  CHECK(release_child(child) == 0);
  CHECK(read_all(child.out.get()) == std::to_string(child.pid) + "\n");
  CHECK(read_all(child.err.get()) == "oops\n");
  CHECK(WEXITSTATUS(wait_status(child.pid)) == 7);
}

TEST_CASE("child_process: the child does not run before it is released") {
  fleet::test::TempDir tmp;
  const std::string marker = tmp / "ran";
  HeldChild child =
      spawn_held({"/bin/sh", "-c", "touch " + marker}, environment_with({}), empty_mask());
  ::usleep(100000);
  CHECK(::access(marker.c_str(), F_OK) != 0);
  abort_child(child);  // it exits without running the command
  CHECK(WEXITSTATUS(wait_status(child.pid)) == 125);
  CHECK(::access(marker.c_str(), F_OK) != 0);
}

TEST_CASE("child_process: exec failures come back as errno") {
  HeldChild missing = spawn_held({"no-such-command-xyz"}, environment_with({}), empty_mask());
  CHECK(release_child(missing) == ENOENT);
  CHECK(WEXITSTATUS(wait_status(missing.pid)) == 127);
  fleet::test::TempDir tmp;
  fleet::test::write_file(tmp / "plain.txt", "not a program\n");  // mode 0644: no x bit
  HeldChild not_exec = spawn_held({tmp / "plain.txt"}, environment_with({}), empty_mask());
  const int error = release_child(not_exec);
  CHECK(error != 0);
  CHECK(exec_failure_exit_code(error) == 126);
  CHECK(WEXITSTATUS(wait_status(not_exec.pid)) == 126);
  CHECK(exec_failure_exit_code(ENOENT) == 127);
}

TEST_CASE("child_process: environment and PATH search") {
  HeldChild child = spawn_held({"sh", "-c", "echo \"$FLEET_TEST_VAR\""},
                               environment_with({"FLEET_TEST_VAR=hello there"}), empty_mask());
  CHECK(release_child(child) == 0);
  CHECK(read_all(child.out.get()) == "hello there\n");
  wait_status(child.pid);
  const auto env = environment_with({"PATH=/x", "NEW_ONE=1"});
  CHECK(std::count(env.begin(), env.end(), "PATH=/x") == 1);
  CHECK(std::count_if(env.begin(), env.end(),
                      [](const std::string& e) { return e.starts_with("PATH="); }) == 1);
}
