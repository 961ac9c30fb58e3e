#pragma once
// The guardian of a launch announced with the wrapper's own pid (--announce wrapper): a small
// process outside the wrapper's process tree that stops the current attempt's containment
// the moment the wrapper dies without saying it is done (SIGKILL from a launcher, a crash).
// So a launcher that holds only the wrapper's pid stops everything by killing it. It learns
// each attempt's containment through a pipe only the wrapper writes to; end of file on that
// pipe before "done" is the wrapper's death.

#include <sys/types.h>

#include "base/files.h"
#include "launch/containment.h"

namespace fleet {

class LaunchGuardian {
 public:
  // Forks the guardian (double fork, its own session, stdin/stdout/stderr on /dev/null, so
  // it holds none of the launcher's pipes). Call it before the wrapper becomes a child
  // subreaper, so the guardian is not reparented into the wrapper's tree. Throws Error.
  LaunchGuardian();
  // Tells the guardian the wrapper is done (it exits without stopping anything).
  ~LaunchGuardian();
  LaunchGuardian(const LaunchGuardian&) = delete;
  LaunchGuardian& operator=(const LaunchGuardian&) = delete;

  // The containment to stop if the wrapper dies from now on.
  void watch(const Containment& containment);

 private:
  UniqueFd pipe_;
};

}  // namespace fleet
