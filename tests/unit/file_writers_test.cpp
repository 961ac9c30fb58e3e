#include "process/file_writers.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <algorithm>

#include "fixtures.h"
#include "temp_dir.h"

using namespace fleet;
using fleet::test::TempDir;
using fleet::test::write_file;

namespace {

// A child that opens `path` with `flags`, says so on a pipe and waits until it is closed.
struct Holder {
  pid_t pid = -1;
  int ready = -1;
  int stop = -1;

  Holder(const std::string& path, int flags) {
    int ready_pipe[2];
    int stop_pipe[2];
    REQUIRE(::pipe(ready_pipe) == 0);
    REQUIRE(::pipe(stop_pipe) == 0);
    pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      for (int fd = 3; fd < 1024; ++fd) {  // only its pipes: not the parent's descriptors
        if (fd != ready_pipe[1] && fd != stop_pipe[0]) ::close(fd);
      }
      char byte = 'r';
      if (::open(path.c_str(), flags) < 0 || ::write(ready_pipe[1], &byte, 1) != 1) ::_exit(1);
      while (::read(stop_pipe[0], &byte, 1) > 0) {
      }
      ::_exit(0);
    }
    ::close(ready_pipe[1]);
    ::close(stop_pipe[0]);
    ready = ready_pipe[0];
    stop = stop_pipe[1];
    char byte = 0;
    REQUIRE(::read(ready, &byte, 1) == 1);
  }

  ~Holder() {
    ::close(stop);
    ::close(ready);
    ::waitpid(pid, nullptr, 0);
  }
};

std::vector<FileWriter> writers_of(const std::string& path) {
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  return processes_writing(st.st_dev, st.st_ino);
}

bool has_pid(const std::vector<FileWriter>& writers, pid_t pid) {
  return std::any_of(writers.begin(), writers.end(),
                     [&](const FileWriter& w) { return w.pid == pid; });
}

}  // namespace

TEST_CASE(
    "file_writers: a process holding a file for writing is seen - a reader and this one are not") {
  TempDir tmp;
  const std::string path = tmp / "f";
  write_file(path, "x\n");
  const int own = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  REQUIRE(own >= 0);
  CHECK(writers_of(path).empty());  // this process is left out
  {
    const Holder reader(path, O_RDONLY);
    CHECK_FALSE(has_pid(writers_of(path), reader.pid));
    const Holder appender(path, O_WRONLY | O_APPEND);
    const auto writers = writers_of(path);
    REQUIRE(has_pid(writers, appender.pid));
    CHECK(describe(writers.front()).find("pid " + std::to_string(appender.pid)) == 0);
    // Still seen once the file was renamed over: the descriptor holds the old inode.
    struct stat old {};
    REQUIRE(::stat(path.c_str(), &old) == 0);
    write_file(tmp / "g", "y\n");
    REQUIRE(::rename((tmp / "g").c_str(), path.c_str()) == 0);
    CHECK(has_pid(processes_writing(old.st_dev, old.st_ino), appender.pid));
    CHECK(writers_of(path).empty());
  }
  ::close(own);
}
