#pragma once
// Starting a program: the one place the suite creates a child and execs a command in it
// (the held agent of child_process.h and the shell of subprocess.h are layers over it).
//
// On x86-64 the child shares the parent's memory until it execs (clone3 with CLONE_VM on a
// small stack of its own, as posix_spawn does): no page table of the parent is copied and
// none of its pages become copy-on-write, so a start costs the same whatever the parent's
// size, and the parent does not fault on its own pages afterwards. Between clone and exec
// the child makes only raw system calls (no errno, no allocation, no lock: nothing the
// parent uses), with every signal blocked until just before exec. Elsewhere it forks.
//
// The child can be created inside a cgroup v2 (CLONE_INTO_CGROUP: no migration of a running
// process), be held before exec until the parent releases it, and reports a failed exec as
// its errno through a close-on-exec pipe (end of file: the exec succeeded), then exits
// 127 (not found) or 126 (found, not executable).

#include <sys/types.h>
#include <csignal>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/files.h"
#include "process/command_search.h"

namespace fleet {

// A close-on-exec pipe (throws Error when none can be made).
struct Pipe {
  UniqueFd read_end;
  UniqueFd write_end;
};
Pipe make_pipe();

struct SpawnOptions {
  // Put on the child's descriptors 0, 1 and 2 (-1: inherited as they are). Each must be
  // above 2 or already the descriptor it goes to.
  int stdin_fd = -1;
  int stdout_fd = -1;
  int stderr_fd = -1;
  bool new_process_group = true;  // the child leads a new process group (its pid)
  // The child's signal mask at exec (nullopt: the caller's mask).
  std::optional<sigset_t> mask;
  // Signals set back to SIG_DFL in the child before exec (e.g. SIGPIPE that the caller
  // ignores; signals with a handler are reset by exec itself).
  sigset_t default_signals{};
  // The child gets SIGKILL when the caller dies (PR_SET_PDEATHSIG); if the caller is gone
  // before that is in place, the child exits 125 without exec.
  bool die_with_parent = false;
  // A cgroup v2 directory to create the child in; Spawned::in_cgroup() says whether that
  // worked (else the child is created where the caller is).
  int cgroup_fd = -1;
  // The child waits before exec until release(); abort() (or the caller's death) makes it
  // exit 125 without exec.
  bool hold = false;
};

// A started child until it has exec'd (or exited).
class Spawned {
 public:
  Spawned();
  Spawned(Spawned&&) noexcept;
  Spawned& operator=(Spawned&&) noexcept;
  ~Spawned();  // abort() when it was neither released nor aborted

  pid_t pid() const;
  bool in_cgroup() const;

  // Lets a held child exec (a child that is not held execs at once), then waits until it
  // has: nullopt once the exec succeeded, else the failure (the child has exited with its
  // exit_status() then). Call once.
  std::optional<ExecFailure> release();

  // A held child that was not released exits 125 without exec. Waits until the child no
  // longer uses this process's memory; the caller still reaps it.
  void abort();

 private:
  struct State;
  explicit Spawned(std::unique_ptr<State> state);
  friend Spawned spawn(const std::vector<std::string>&, const std::vector<std::string>&,
                       const SpawnOptions&);
  void finish(bool released);
  std::unique_ptr<State> state_;
};

// Starts `argv` with exactly the environment `env` ("NAME=value"). `argv[0]` is searched on
// PATH as execvp does, except that a file the kernel cannot execute (ENOEXEC: a bad ELF, a
// script without #!) is an error (126), never handed to /bin/sh. Throws Error when no child
// can be created (exec failures are reported by release()).
Spawned spawn(const std::vector<std::string>& argv, const std::vector<std::string>& env,
              const SpawnOptions& options);

// Closes every descriptor from `first` up (a process that must hold nothing it inherited;
// Linux: close_range; macOS: each one below getdtablesize()).
void close_descriptors_from(int first);

// Waits for `pid` to exit (retrying on EINTR); returns its wait status.
int wait_child(pid_t pid);

}  // namespace fleet
