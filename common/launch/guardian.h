#pragma once
// The guardian of a launch: a small process outside the wrapper's process tree that takes
// over what the wrapper can no longer do once it dies without saying it is done (SIGKILL from
// a launcher, a crash). It learns each attempt's containment through a pipe only the wrapper
// writes to; end of file on that pipe before "done" is the wrapper's death. Then:
// - with `stop` (a launch announced with the wrapper's own pid, --announce wrapper) it stops
//   the containment at once, so a launcher that holds only the wrapper's pid stops everything
//   by killing it;
// - either way it removes the launch's cgroup once the last process in it has exited (the
//   kernel removes no empty cgroup by itself, on any layout of cgroup v2). So does it when
//   the wrapper is done but left processes in the cgroup (--leave-children).

#include <sys/types.h>

#include "base/files.h"
#include "launch/containment.h"

namespace fleet {

class LaunchGuardian {
 public:
  enum class Duty {
    stop,  // stop the containment when the wrapper dies, then remove its cgroup
    tidy,  // remove the containment's cgroup once it is empty
  };

  // Forks the guardian (double fork, its own session, stdin/stdout/stderr on /dev/null, so
  // it holds none of the launcher's pipes). Call it before the wrapper becomes a child
  // subreaper, so the guardian is not reparented into the wrapper's tree. Throws Error.
  explicit LaunchGuardian(Duty duty);
  // Tells the guardian the wrapper is done (it stops nothing; it exits once the cgroup it
  // watches is gone).
  ~LaunchGuardian();
  LaunchGuardian(const LaunchGuardian&) = delete;
  LaunchGuardian& operator=(const LaunchGuardian&) = delete;

  // The containment to stop if the wrapper dies from now on.
  void watch(const Containment& containment);

 private:
  UniqueFd pipe_;
  UniqueFd closed_;  // end of file once the guardian holds nothing it inherited
};

}  // namespace fleet
