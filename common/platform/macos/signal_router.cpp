// The signal router (process/signal_router.h; platform seam, macOS home): kqueue's
// EVFILT_SIGNAL records every signal sent to the process, whatever its disposition (the kernel
// notes it before it looks at the disposition), so the forwarded signals are set to SIG_IGN
// (nothing is delivered, nothing stays pending) and read from the kqueue; SIGCHLD keeps its
// disposition (SIG_DFL: exited children stay to be reaped). No subreaper: the agent's
// orphaned descendants go to launchd.
#include "process/signal_router.h"

#include <fcntl.h>
#include <sys/event.h>
#include <sys/time.h>
#include <unistd.h>
#include <cerrno>

#include "base/error.h"

namespace fleet {

SignalRouter::SignalRouter() {
  if (::sigprocmask(SIG_BLOCK, nullptr, &original_mask_) != 0)
    throw_errno("cannot read the signal mask");
  fd_.reset(::kqueue());
  if (!fd_ || ::fcntl(fd_.get(), F_SETFD, FD_CLOEXEC) != 0) throw_errno("cannot create a kqueue");
  // Registered before the dispositions change, so that no signal sent meanwhile is missed.
  std::vector<struct kevent> changes;
  for (int sig : kForwardedSignals) {
    struct kevent change {};
    EV_SET(&change, sig, EVFILT_SIGNAL, EV_ADD | EV_CLEAR, 0, 0, nullptr);
    changes.push_back(change);
  }
  struct kevent child_change {};
  EV_SET(&child_change, SIGCHLD, EVFILT_SIGNAL, EV_ADD | EV_CLEAR, 0, 0, nullptr);
  changes.push_back(child_change);
  if (::kevent(fd_.get(), changes.data(), static_cast<int>(changes.size()), nullptr, 0, nullptr) !=
      0) {
    throw_errno("cannot watch signals with kqueue");
  }
  // A forwarded signal is received however it was disposed of before (as Linux's signalfd
  // receives a blocked signal that was ignored); the child gets back SIG_DFL for those that
  // were not ignored, and keeps SIG_IGN for those that were.
  sigemptyset(&child_default_signals_);
  struct sigaction ignore {};
  ignore.sa_handler = SIG_IGN;
  for (int sig : kForwardedSignals) {
    struct sigaction before {};
    ::sigaction(sig, &ignore, &before);
    original_actions_.emplace_back(sig, before);
    if (before.sa_handler != SIG_IGN) sigaddset(&child_default_signals_, sig);
  }
  struct sigaction before_sigpipe {};
  ::sigaction(SIGPIPE, &ignore, &before_sigpipe);
  original_actions_.emplace_back(SIGPIPE, before_sigpipe);
  if (before_sigpipe.sa_handler != SIG_IGN) sigaddset(&child_default_signals_, SIGPIPE);
}

SignalRouter::~SignalRouter() {
  // While ignored, nothing was left pending: putting the dispositions back delivers nothing.
  for (const auto& [sig, action] : original_actions_) ::sigaction(sig, &action, nullptr);
  fd_.reset();
  ::sigprocmask(SIG_SETMASK, &original_mask_, nullptr);
}

bool SignalRouter::adopts_orphans() {
  return false;
}

int SignalRouter::next() {
  if (pending_.empty()) {
    struct kevent events[16];
    const struct timespec now {};
    int n;
    do {
      n = ::kevent(fd_.get(), nullptr, 0, events, 16, &now);
    } while (n < 0 && errno == EINTR);
    for (int i = 0; i < n; ++i) {
      if (events[i].filter == EVFILT_SIGNAL) pending_.push_back(static_cast<int>(events[i].ident));
    }
  }
  if (pending_.empty()) return 0;
  const int sig = pending_.front();
  pending_.erase(pending_.begin());
  return sig;
}

}  // namespace fleet
