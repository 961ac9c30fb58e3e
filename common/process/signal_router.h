#pragma once
// The wrapper's signals, received synchronously: the signals it forwards to the agent's
// process group (TERM, INT, HUP, QUIT, USR1, USR2) and SIGCHLD are blocked and read from a
// signalfd, so they are handled in the event loop between reads, never in a handler.

#include <sys/types.h>
#include <csignal>
#include <optional>

#include "base/files.h"

namespace fleet {

inline constexpr int kForwardedSignals[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2};

class SignalRouter {
 public:
  // Blocks the signals and opens the signalfd; also ignores SIGPIPE (a gone reader shows up
  // as EPIPE) and makes this process a child subreaper, so the agent's orphaned descendants
  // are reparented to it and reaped here. Throws Error.
  SignalRouter();
  ~SignalRouter();
  SignalRouter(const SignalRouter&) = delete;
  SignalRouter& operator=(const SignalRouter&) = delete;

  int fd() const { return fd_.get(); }

  // The mask a child should get back before exec (the one in force before this object).
  const sigset_t& original_mask() const { return original_mask_; }

  // Whether SIGPIPE was ignored before this object (a child should inherit that).
  bool sigpipe_was_ignored() const { return original_sigpipe_.sa_handler == SIG_IGN; }

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
  struct sigaction original_sigpipe_ {};
};

// Reaps every exited child without blocking; returns the wait status of `pid` when `pid` was
// among them, else nullopt.
std::optional<int> reap_children(pid_t pid);

// Reaps every exited child without blocking (orphaned descendants of a subreaper).
void reap_exited_children();

// TERM, INT, HUP and QUIT: the forwarded signals that ask the agent to stop.
bool is_stop_signal(int sig);

}  // namespace fleet
