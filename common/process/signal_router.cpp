// The signal router's waiting and reaping, the same on every system (its constructor,
// destructor and next() are the platform's: platform/<home>/signal_router.cpp).
#include "process/signal_router.h"

#include <poll.h>
#include <sys/wait.h>
#include <cerrno>
#include <chrono>

namespace fleet {

int SignalRouter::wait(int timeout_ms) {
  if (const int sig = next(); sig != 0) return sig;
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
