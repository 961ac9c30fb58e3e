// The platform seam's contract (common/platform/README.md): the same cases run on Linux and
// on macOS, each against the home built for its system.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cstring>
#include <optional>
#include <string>
#include <thread>

#include "emulator.h"
#include "environment_child.h"
#include "platform/file_times.h"
#include "platform/process_table.h"
#include "platform/system_facts.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::TempDir;

namespace {

// A child that sleeps until killed, in a process group of its own.
pid_t start_sleeper() {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);
    for (;;) ::pause();
  }
  REQUIRE(pid > 0);
  ::setpgid(pid, pid);
  return pid;
}

// Waits for `pid` to exit without reaping it (it stays a zombie).
void wait_exited(pid_t pid) {
  siginfo_t info{};
  REQUIRE(::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOWAIT) == 0);
}

}  // namespace

TEST_CASE("platform process table: this process") {
  const auto self = platform::read_process(::getpid());
  REQUIRE(self);
  CHECK_FALSE(self->dead);
  CHECK(self->parent == ::getppid());
  // qemu-user answers /proc/self/stat itself and leaves the group 0 there.
  if (*fleet::test::emulator() == '\0') CHECK(self->group == ::getpgrp());
  CHECK(self->owner == ::geteuid());
  CHECK(self->start > 0);
  // The command name is the start of the executable's name (the kernel cuts it short).
  const auto executable = platform::executable_path();
  REQUIRE(executable);
  const std::string base = executable->substr(executable->rfind('/') + 1);
  REQUIRE_FALSE(self->name.empty());
  CHECK(base.starts_with(self->name));
  // The same process reads the same every time.
  CHECK(platform::read_process(::getpid())->start == self->start);
}

TEST_CASE("platform process table: a child, its exit and its reaping") {
  const auto self = platform::read_process(::getpid());
  REQUIRE(self);
  const pid_t child = start_sleeper();
  const auto running = platform::read_process(child);
  REQUIRE(running);
  CHECK_FALSE(running->dead);
  CHECK(running->parent == ::getpid());
  CHECK(running->group == child);
  CHECK(running->start >= self->start);  // started after us
  const std::vector<pid_t> pids = platform::process_ids();
  CHECK(std::find(pids.begin(), pids.end(), child) != pids.end());
  CHECK(std::find(pids.begin(), pids.end(), ::getpid()) != pids.end());

  ::kill(child, SIGKILL);
  wait_exited(child);
  const auto zombie = platform::read_process(child);
  REQUIRE(zombie);
  CHECK(zombie->dead);
  CHECK(zombie->start == running->start);

  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  CHECK_FALSE(platform::read_process(child));
  CHECK_FALSE(platform::read_process(0));
  CHECK_FALSE(platform::read_process(-1));
}

TEST_CASE("platform process table: arguments and environment") {
  char* const argv[] = {const_cast<char*>("sh"), const_cast<char*>("-c"),
                        const_cast<char*>("read line"), const_cast<char*>("an argument"), nullptr};
  char* const envp[] = {const_cast<char*>("FLEET_PLATFORM_TEST=yes"), const_cast<char*>("EMPTY="),
                        nullptr};
  // The child waits on a pipe of ours (and starts nothing) until it is killed.
  const std::string program = fleet::test::environment_child_program();
  REQUIRE(!program.empty());
  int input[2];
  REQUIRE(::pipe(input) == 0);
  const pid_t child = ::fork();
  if (child == 0) {
    ::dup2(input[0], 0);
    ::execve(program.c_str(), argv, envp);
    ::_exit(127);
  }
  ::close(input[0]);
  REQUIRE(child > 0);
  // Until it has exec'd, the child shows this process's arguments.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  std::optional<std::string> arguments;
  while (std::chrono::steady_clock::now() < deadline) {
    arguments = platform::read_arguments(child);
    if (arguments && arguments->starts_with("sh")) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  const std::string expected("sh\0-c\0read line\0an argument\0", 28);
  CHECK(arguments == expected);
  CHECK(platform::read_environment(child) == std::string("FLEET_PLATFORM_TEST=yes\0EMPTY=\0", 31));
  ::kill(child, SIGKILL);
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  ::close(input[1]);
  CHECK_FALSE(platform::read_arguments(child));
  CHECK_FALSE(platform::read_environment(child));
}

TEST_CASE("platform process table: the boot id") {
  const auto boot = platform::read_boot_id();
  REQUIRE(boot);
  CHECK(boot->size() == 36);  // a UUID, on both systems
  CHECK(boot->find_first_of(" \n") == std::string::npos);
  CHECK(platform::read_boot_id() == boot);
}

TEST_CASE("platform system facts: the executable and random bytes") {
  const auto executable = platform::executable_path();
  REQUIRE(executable);
  REQUIRE(executable->starts_with("/"));
  CHECK(::access(executable->c_str(), X_OK) == 0);

  unsigned char first[600] = {};
  unsigned char second[600] = {};
  REQUIRE(platform::fill_random(first, sizeof first));  // more than one getentropy call
  REQUIRE(platform::fill_random(second, sizeof second));
  CHECK(std::memcmp(first, second, sizeof first) != 0);
  // The last bytes are filled too (not left zero): 8 zero bytes by chance is 2^-64.
  CHECK(std::any_of(first + 592, first + 600, [](unsigned char b) { return b != 0; }));
}

TEST_CASE("platform system facts: the user's runtime directory") {
  const auto directory = platform::user_runtime_directory();
  if (directory) {
    CHECK(directory->starts_with("/"));
    CHECK((directory->size() == 1 || !directory->ends_with("/")));
  }
}

TEST_CASE("platform file times: stamps, generation and the coarse clock") {
  TempDir dir;
  const std::int64_t before = platform::coarse_realtime_ns();
  const std::string path = dir / "file";
  const int fd = ::open(path.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
  REQUIRE(fd >= 0);
  REQUIRE(::write(fd, "x", 1) == 1);
  struct stat st {};
  REQUIRE(::fstat(fd, &st) == 0);
  const platform::FileTimes made = platform::file_times(st);
  // A file changed after the coarse clock was read is stamped no earlier.
  CHECK(made.ctime_sec * 1000000000 + made.ctime_nsec >= before);
  CHECK(made.mtime_sec * 1000000000 + made.mtime_nsec >= before);
  CHECK(platform::file_generation(fd) == platform::file_generation(fd));

  const struct timespec times[2] = {{1000, 250000000}, {1234567, 500000000}};
  REQUIRE(::futimens(fd, times) == 0);
  REQUIRE(::fstat(fd, &st) == 0);
  const platform::FileTimes set = platform::file_times(st);
  CHECK(set.mtime_sec == 1234567);
  CHECK(set.mtime_nsec == 500000000);
  CHECK(set.ctime_sec * 1000000000 + set.ctime_nsec >= before);
  ::close(fd);
}
