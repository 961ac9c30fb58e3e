#include "process/signal_router.h"

#include <poll.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <chrono>

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
  ::sigaction(SIGPIPE, &ignore, &original_sigpipe_);
  ::prctl(PR_SET_CHILD_SUBREAPER, 1);
}

SignalRouter::~SignalRouter() {
  ::sigaction(SIGPIPE, &original_sigpipe_, nullptr);
  fd_.reset();
  ::sigprocmask(SIG_SETMASK, &original_mask_, nullptr);
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

int SignalRouter::wait(int timeout_ms) {
  struct pollfd ready = {fd_.get(), POLLIN, 0};
  int n;
  do {
    n = ::poll(&ready, 1, timeout_ms);
  } while (n < 0 && errno == EINTR);
  return n > 0 ? next() : 0;
}

int SignalRouter::sleep(double seconds) {
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return 0;
    const int sig = wait(static_cast<int>(left.count()));
    if (sig == SIGCHLD) reap_exited_children();
    if (is_stop_signal(sig)) return sig;
  }
}

void reap_exited_children() {
  reap_children(-1);
}

bool is_stop_signal(int sig) {
  return sig == SIGTERM || sig == SIGINT || sig == SIGHUP || sig == SIGQUIT;
}

std::optional<int> reap_children(pid_t pid) {
  std::optional<int> status;
  for (;;) {
    int child_status = 0;
    const pid_t reaped = ::waitpid(-1, &child_status, WNOHANG);
    if (reaped <= 0) return status;
    if (reaped == pid) status = child_status;
  }
}

}  // namespace fleet
