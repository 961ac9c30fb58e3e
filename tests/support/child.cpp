#include "child.h"

#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

#include "process_name.h"

namespace fleet::test {

pid_t spawn_group_leader(const char* name, bool ignore_term) {
  int ready[2];
  REQUIRE(::pipe(ready) == 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::setpgid(0, 0);
    if (name != nullptr) name_this_process(name);
    // The test runner's signal handlers (doctest reports a "crash" and exits) are not the
    // child's: a signal must end it as it ends a process, so its parent sees WIFSIGNALED.
    for (const int sig : {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGABRT}) ::signal(sig, SIG_DFL);
    if (ignore_term) ::signal(SIGTERM, SIG_IGN);
    (void)!::write(ready[1], "r", 1);
    for (;;) ::pause();
  }
  ::setpgid(pid, pid);
  char byte = 0;
  REQUIRE(::read(ready[0], &byte, 1) == 1);
  ::close(ready[0]);
  ::close(ready[1]);
  return pid;
}

int reap(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return 0;
  }
  return status;
}

std::string read_all(int fd) {
  std::string out;
  char buffer[4096];
  ssize_t n;
  while ((n = ::read(fd, buffer, sizeof buffer)) > 0)
    out.append(buffer, static_cast<std::size_t>(n));
  return out;
}

}  // namespace fleet::test
