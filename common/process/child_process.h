#pragma once
// Starting the agent as a held child: created in its own process group with its stdout and
// stderr on pipes, waiting until the parent has announced and recorded its pid, then exec'd
// (the pid stays the same across exec). An exec failure comes back to the parent as an
// ExecFailure (spawn.h); anything else that fails throws Error.
// A layer over spawn.h.

#include <sys/types.h>
#include <csignal>
#include <string>
#include <vector>

#include "base/files.h"
#include "process/spawn.h"

namespace fleet {

struct HeldChild {
  pid_t pid = 0;           // also its process group id
  UniqueFd out;            // read end of the child's stdout
  UniqueFd err;            // read end of the child's stderr
  bool in_cgroup = false;  // it was started inside the cgroup given to spawn_held
  Spawned process;         // held until release_child or abort_child
};

// Starts the held child. `argv[0]` is searched on PATH as execvp does, except that a file
// the kernel cannot execute (ENOEXEC: a bad ELF, a script without #!) is an error (126),
// never handed to /bin/sh; `env` ("NAME=value") is its whole environment; `child_mask` is
// the signal mask it gets back before exec, and the signals in `default_signals` go back to
// their default (nullptr: SIGPIPE, which the wrapper ignores for itself; the signal router
// says which, SignalRouter::child_default_signals; every other disposition passes through
// unchanged). With `die_with_parent` the child gets SIGKILL when the wrapper
// dies (PR_SET_PDEATHSIG). With `cgroup_fd` (a cgroup v2 directory) the child is created
// inside that cgroup (clone3 with CLONE_INTO_CGROUP: no migration of a running process,
// which is slow); `in_cgroup` says whether that worked (else it is created as usual).
// Throws Error.
HeldChild spawn_held(const std::vector<std::string>& argv, const std::vector<std::string>& env,
                     const sigset_t& child_mask, const sigset_t* default_signals = nullptr,
                     bool die_with_parent = false, int cgroup_fd = -1);

// Lets the child exec: nullopt once the exec succeeded, else the failure.
std::optional<ExecFailure> release_child(HeldChild& child);

// The child exits 125 without running the command (the caller still reaps it).
void abort_child(HeldChild& child);

// "NAME=value" for every variable of this process, with `overrides` ("NAME=value") replacing
// or adding entries.
std::vector<std::string> environment_with(const std::vector<std::string>& overrides);

}  // namespace fleet
