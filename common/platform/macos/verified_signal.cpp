// Signalling a process only while it is the one meant (platform/verified_signal.h; platform
// seam, macOS home): no pidfd, so the check is made right before kill(2).
#include "platform/verified_signal.h"

#include <csignal>

namespace fleet::platform {

bool signal_verified(pid_t pid, int sig, const std::function<bool()>& still_the_one) {
  if (!still_the_one()) return false;
  return ::kill(pid, sig) == 0;
}

}  // namespace fleet::platform
