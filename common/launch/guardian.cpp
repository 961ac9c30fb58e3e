#include "launch/guardian.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <string>

#include "base/error.h"
#include "process/cgroup_v2.h"
#include "process/spawn.h"

namespace fleet {
namespace {

// Lines: "watch <token> <cgroup>" or "done".
[[noreturn]] void guard(int from_wrapper, LaunchGuardian::Duty duty) {
  Containment current;
  bool done = false;
  std::string buffer;
  char chunk[512];
  while (!done) {
    const ssize_t n = ::read(from_wrapper, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    buffer.append(chunk, static_cast<std::size_t>(n));
    for (std::size_t newline; (newline = buffer.find('\n')) != std::string::npos;) {
      const std::string line = buffer.substr(0, newline);
      buffer.erase(0, newline + 1);
      if (line == "done") done = true;
      if (line.starts_with("watch ")) {
        const std::size_t space = line.find(' ', 6);
        current.token = line.substr(6, space == std::string::npos ? std::string::npos : space - 6);
        current.cgroup = space == std::string::npos ? "" : line.substr(space + 1);
      }
    }
  }
  // The wrapper died without saying it is done: with `stop` nothing of its launch may
  // outlive it.
  if (!done && duty == LaunchGuardian::Duty::stop && !current.token.empty())
    stop_contained(current, std::chrono::milliseconds(0));
  // Its cgroup goes once empty (the wrapper removed it itself when its run ended as a rule).
  if (!current.cgroup.empty() && wait_unpopulated(current.cgroup, std::chrono::seconds(1)))
    remove_containment(current);
  ::_exit(0);
}

}  // namespace

LaunchGuardian::LaunchGuardian(Duty duty) {
  Pipe to_guardian = make_pipe(), sync = make_pipe();
  UniqueFd read_end = std::move(to_guardian.read_end), sync_read = std::move(sync.read_end),
           sync_write = std::move(sync.write_end);
  pipe_ = std::move(to_guardian.write_end);
  const pid_t middle = ::fork();
  if (middle < 0) throw_errno("cannot fork the guardian");
  if (middle == 0) {
    ::setsid();
    if (::fork() != 0) ::_exit(0);  // the guardian is reparented away from the wrapper
    (void)!::chdir("/");            // it may outlive the wrapper: it keeps no directory busy
    // Hold nothing of the launcher's: its pipes must see end of file when the wrapper ends.
    // The wrapper may have been started with 0, 1 or 2 closed, so the pipe's read end may be
    // one of them: lift it above 2 before /dev/null takes their places.
    const int from_wrapper = ::fcntl(read_end.get(), F_DUPFD_CLOEXEC, 3);
    if (from_wrapper < 0) ::_exit(1);
    const int null = ::open("/dev/null", O_RDWR | O_CLOEXEC);
    for (int fd = 0; fd <= 2; ++fd) {
      if (fd != null) ::dup2(null, fd);
    }
    if (from_wrapper != 3) ::dup2(from_wrapper, 3);
    close_descriptors_from(4);  // also the sync pipe: the wrapper may go on now
    guard(3, duty);
  }
  sync_write.reset();
  // The middle's exit status once the guardian has been reparented: the wrapper may become
  // a subreaper from then on.
  int status = 0;
  while (::waitpid(middle, &status, 0) < 0 && errno == EINTR) {
  }
  closed_ = std::move(sync_read);
}

LaunchGuardian::~LaunchGuardian() {
  static const char done[] = "done\n";
  (void)!::write(pipe_.get(), done, sizeof done - 1);
  // End of file once the guardian has closed everything it inherited, the launcher's pipes
  // among them, which must see end of file when the wrapper exits. Waited for only here:
  // it takes the guardian's first moment on a CPU, which the launch need not wait for.
  char byte;
  while (::read(closed_.get(), &byte, 1) < 0 && errno == EINTR) {
  }
}

void LaunchGuardian::watch(const Containment& containment) {
  const std::string line = "watch " + containment.token + " " + containment.cgroup + "\n";
  (void)!::write(pipe_.get(), line.data(), line.size());
}

}  // namespace fleet
