#pragma once
// The wrapper's signals, received synchronously: the signals it forwards to the agent's
// process group (TERM, INT, HUP, QUIT, USR1, USR2) and SIGCHLD are read from a descriptor, so
// they are handled in the event loop between reads, never in a handler. How they reach the
// descriptor is the platform's (platform seam, platform/README.md): Linux blocks them and
// reads a signalfd; macOS sets them to SIG_IGN (SIGCHLD stays as it was) and reads kqueue's
// EVFILT_SIGNAL, which records a signal sent to the process whatever its disposition.

#include <sys/types.h>
#include <csignal>
#include <optional>
#include <utility>
#include <vector>

#include "base/files.h"

namespace fleet {

inline constexpr int kForwardedSignals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};

class SignalRouter {
 public:
  // Starts receiving the signals on fd(); also ignores SIGPIPE (a gone reader shows up as
  // EPIPE) and, where the system has one (Linux), makes this process a child subreaper, so the
  // agent's orphaned descendants are reparented to it and reaped here. A forwarded signal is
  // received even when this process ignored it before (a child keeps it ignored). Throws Error.
  SignalRouter();
  // Puts the mask and the dispositions back as they were.
  ~SignalRouter();
  SignalRouter(const SignalRouter&) = delete;
  SignalRouter& operator=(const SignalRouter&) = delete;

  // Readable (poll POLLIN) while a signal is pending.
  int fd() const { return fd_.get(); }

  // The mask a child should get back before exec (the one in force before this object).
  const sigset_t& original_mask() const { return original_mask_; }

  // The signals a child should set back to SIG_DFL before exec: those this object ignores
  // that were not ignored before it (a child inherits the dispositions it had before).
  const sigset_t& child_default_signals() const { return child_default_signals_; }

  // Whether the agent's orphaned descendants are reparented to this process (a child
  // subreaper: Linux). Where they are not (macOS: to launchd), having no child left says
  // nothing of whether descendants of the agent still run.
  static bool adopts_orphans();

  // The next pending signal, 0 when none is pending.
  int next();

  // Waits up to `timeout_ms` (-1: forever) for a pending signal; 0 when none came.
  int wait(int timeout_ms);

  // Sleeps `seconds`, reaping exited children; returns the terminating signal (TERM, INT,
  // HUP, QUIT) that cut the sleep short, or 0.
  int sleep(double seconds);

 private:
  UniqueFd fd_;
  sigset_t original_mask_{};
  sigset_t child_default_signals_{};
  std::vector<std::pair<int, struct sigaction>> original_actions_;  // to put back
  std::vector<int> pending_;  // signals read from fd_ and not yet returned by next()
};

// Reaps every exited child without blocking; returns the wait status of `pid` when `pid` was
// among them, else nullopt.
std::optional<int> reap_children(pid_t pid);

// Reaps every exited child without blocking (orphaned descendants of a subreaper).
void reap_exited_children();

// TERM, INT, HUP and QUIT: the forwarded signals that ask the agent to stop.
bool is_stop_signal(int sig);

}  // namespace fleet
