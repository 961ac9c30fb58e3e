// The platform seam's contract for launch-wrapper's mechanisms (common/platform/README.md):
// the same cases run on Linux and on macOS, each against the home built for its system.
#include <doctest/doctest.h>

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>

#include "platform/anonymous_file.h"
#include "platform/file_watch.h"
#include "platform/system_facts.h"
#include "platform/verified_signal.h"
#include "process/spawn.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::TempDir;

namespace {

// Whether `fd` becomes readable within `ms`.
bool readable_within(int fd, int ms) {
  struct pollfd ready = {fd, POLLIN, 0};
  return ::poll(&ready, 1, ms) == 1 && (ready.revents & POLLIN) != 0;
}

void append(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::app) << text;
}

std::size_t entries(const std::string& directory) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(directory)) ++n;
  return n;
}

}  // namespace

TEST_CASE("platform signal names: the abbreviation without SIG") {
  CHECK(platform::signal_abbreviation(SIGTERM) == "TERM");
  CHECK(platform::signal_abbreviation(SIGKILL) == "KILL");
  CHECK(platform::signal_abbreviation(SIGUSR1) == "USR1");
  CHECK_FALSE(platform::signal_abbreviation(0));
  CHECK_FALSE(platform::signal_abbreviation(100000));
}

TEST_CASE("platform anonymous file: private, nameless, read back") {
  TempDir tmp;
  const UniqueFd fd = platform::open_anonymous_file(tmp.path());
  REQUIRE(fd);
  CHECK(entries(tmp.path()) == 0);  // no name left in the directory
  struct stat st {};
  REQUIRE(::fstat(fd.get(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  CHECK((::fcntl(fd.get(), F_GETFD) & FD_CLOEXEC) != 0);
  REQUIRE(::pwrite(fd.get(), "spooled", 7, 0) == 7);
  char back[8] = {};
  REQUIRE(::pread(fd.get(), back, 7, 0) == 7);
  CHECK(std::string(back) == "spooled");
  CHECK_FALSE(platform::open_anonymous_file(tmp.path() + "/missing"));
}

TEST_CASE("platform verified signal: sent only when the check says so") {
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    for (;;) ::pause();
  }
  CHECK_FALSE(platform::signal_verified(child, SIGTERM, [] { return false; }));
  int status = 0;
  CHECK(::waitpid(child, &status, WNOHANG) == 0);  // not signalled: still running
  CHECK(platform::signal_verified(child, SIGTERM, [] { return true; }));
  REQUIRE(::waitpid(child, &status, 0) == child);
  CHECK(WIFSIGNALED(status));
  CHECK(WTERMSIG(status) == SIGTERM);
  // The pid names no process now: nothing is sent, whatever the check says.
  CHECK_FALSE(platform::signal_verified(child, SIGTERM, [] { return true; }));
}

TEST_CASE("platform file watch: a write to the file and a file made in the directory wake it") {
  TempDir tmp;
  const std::string file = tmp.path() + "/session.jsonl";
  append(file, "{}\n");
  platform::FileWatch watch(true);
  REQUIRE(watch.fd() >= 0);
  watch.watch_directory(tmp.path());
  REQUIRE(watch.watch_file(file));
  CHECK(watch.watching_file());
  CHECK_FALSE(readable_within(watch.fd(), 0));
  append(file, "{\"more\":1}\n");
  CHECK(readable_within(watch.fd(), 5000));
  watch.drain();
  CHECK_FALSE(readable_within(watch.fd(), 0));
  watch.forget_file();
  CHECK_FALSE(watch.watching_file());
  append(tmp.path() + "/other.jsonl", "{}\n");  // created in the watched directory
  CHECK(readable_within(watch.fd(), 5000));
  watch.drain();
  CHECK_FALSE(watch.watch_file(tmp.path() + "/missing.jsonl"));
}

TEST_CASE("platform file watch: none when not enabled") {
  platform::FileWatch watch(false);
  CHECK(watch.fd() == -1);
  CHECK_FALSE(watch.watch_file("/"));
}

TEST_CASE("platform descriptors: closed from the first one asked") {
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    const int kept = ::dup2(STDERR_FILENO, 20);
    const int closed = ::dup2(STDERR_FILENO, 21);
    close_descriptors_from(21);
    const bool ok = kept == 20 && closed == 21 && ::fcntl(20, F_GETFD) >= 0 &&
                    ::fcntl(21, F_GETFD) < 0 && errno == EBADF;
    ::_exit(ok ? 0 : 1);
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}
