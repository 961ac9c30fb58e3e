// The signal router (process/signal_router.h; platform seam, Linux home): the signals are
// blocked and read from a signalfd; the wrapper is a child subreaper.
#include "process/signal_router.h"

#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <unistd.h>
#include <cerrno>

#include "base/error.h"

namespace fleet {

SignalRouter::SignalRouter() {
  sigset_t handled;
  sigemptyset(&handled);
  for (int sig : kForwardedSignals) sigaddset(&handled, sig);
  sigaddset(&handled, SIGCHLD);
  if (::sigprocmask(SIG_BLOCK, &handled, &original_mask_) != 0) throw_errno("cannot block signals");
  fd_.reset(::signalfd(-1, &handled, SFD_CLOEXEC | SFD_NONBLOCK));
  if (!fd_) throw_errno("cannot create a signalfd");
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  struct sigaction original_sigpipe {};
  ::sigaction(SIGPIPE, &ignore, &original_sigpipe);
  original_actions_.emplace_back(SIGPIPE, original_sigpipe);
  sigemptyset(&child_default_signals_);
  if (original_sigpipe.sa_handler != SIG_IGN) sigaddset(&child_default_signals_, SIGPIPE);
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
}

SignalRouter::~SignalRouter() {
  for (const auto& [sig, action] : original_actions_) ::sigaction(sig, &action, nullptr);
  fd_.reset();
  ::sigprocmask(SIG_SETMASK, &original_mask_, nullptr);
}

bool SignalRouter::adopts_orphans() {
  return true;
}

int SignalRouter::next() {
  struct signalfd_siginfo info {};
  for (;;) {
    const ssize_t n = ::read(fd_.get(), &info, sizeof info);
    if (n == sizeof info) return static_cast<int>(info.ssi_signo);
    if (n < 0 && errno == EINTR) continue;
    return 0;
  }
}

}  // namespace fleet
