#include "process/child_process.h"

#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <optional>

#include "child.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::read_all;
using fleet::test::reap;

namespace {

sigset_t empty_mask() {
  sigset_t mask;
  sigemptyset(&mask);
  return mask;
}

}  // namespace

TEST_CASE("child_process: the held child keeps its pid across exec and leads its group") {
  HeldChild child = spawn_held({"/bin/sh", "-c", "echo $$; echo oops >&2; exit 7"},
                               environment_with({}), empty_mask());
  CHECK(::getpgid(child.pid) == child.pid);
  CHECK_FALSE(release_child(child));
  CHECK(read_all(child.out.get()) == std::to_string(child.pid) + "\n");
  CHECK(read_all(child.err.get()) == "oops\n");
  const int status = reap(child.pid);  // a variable: macOS's WEXITSTATUS takes an lvalue
  CHECK(WEXITSTATUS(status) == 7);
}

TEST_CASE("child_process: the child does not run before it is released") {
  fleet::test::TempDir tmp;
  const std::string marker = tmp / "ran";
  HeldChild child =
      spawn_held({"/bin/sh", "-c", "touch " + marker}, environment_with({}), empty_mask());
  ::usleep(100000);
  CHECK(::access(marker.c_str(), F_OK) != 0);
  abort_child(child);                  // it exits without running the command
  const int status = reap(child.pid);  // a variable: macOS's WEXITSTATUS takes an lvalue
  CHECK(WEXITSTATUS(status) == 125);
  CHECK(::access(marker.c_str(), F_OK) != 0);
}

TEST_CASE("child_process: exec failures come back as an ExecFailure") {
  HeldChild missing = spawn_held({"no-such-command-xyz"}, environment_with({}), empty_mask());
  const std::optional<ExecFailure> not_found = release_child(missing);
  REQUIRE(not_found);
  CHECK(not_found->error == ENOENT);
  CHECK(not_found->exit_status() == 127);
  const int missing_status = reap(missing.pid);  // a variable: macOS's WEXITSTATUS takes one
  CHECK(WEXITSTATUS(missing_status) == 127);
  fleet::test::TempDir tmp;
  fleet::test::write_file(tmp / "plain.txt", "not a program\n");  // mode 0644: no x bit
  HeldChild not_exec = spawn_held({tmp / "plain.txt"}, environment_with({}), empty_mask());
  const std::optional<ExecFailure> failed = release_child(not_exec);
  REQUIRE(failed);
  CHECK(failed->exit_status() == 126);
  const int not_exec_status = reap(not_exec.pid);
  CHECK(WEXITSTATUS(not_exec_status) == 126);
}

TEST_CASE("child_process: environment and PATH search") {
  HeldChild child = spawn_held({"sh", "-c", "echo \"$FLEET_TEST_VAR\""},
                               environment_with({"FLEET_TEST_VAR=hello there"}), empty_mask());
  CHECK_FALSE(release_child(child));
  CHECK(read_all(child.out.get()) == "hello there\n");
  reap(child.pid);
  const auto env = environment_with({"PATH=/x", "NEW_ONE=1"});
  CHECK(std::count(env.begin(), env.end(), "PATH=/x") == 1);
  CHECK(std::count_if(env.begin(), env.end(),
                      [](const std::string& e) { return e.starts_with("PATH="); }) == 1);
}
