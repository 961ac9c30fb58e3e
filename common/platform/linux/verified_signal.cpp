// Signalling a process only while it is the one meant (platform/verified_signal.h; platform
// seam, Linux home): pinned by a pidfd, checked, then signalled through the pidfd.
#include "platform/verified_signal.h"

#include <sys/syscall.h>
#include <unistd.h>
#include <cerrno>
#include <csignal>

#include "base/files.h"

namespace fleet::platform {

bool signal_verified(pid_t pid, int sig, const std::function<bool()>& still_the_one) {
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (pidfd < 0 && errno != ENOSYS) return false;  // gone
  const UniqueFd pinned(pidfd);
  if (!still_the_one()) return false;
  if (pinned) return ::syscall(SYS_pidfd_send_signal, pinned.get(), sig, nullptr, 0) == 0;
  return ::kill(pid, sig) == 0;  // kernels before 5.3: the window is the check above
}

}  // namespace fleet::platform
