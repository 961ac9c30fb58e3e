#pragma once
// Finding the program a command line names, as execvp does (without its /bin/sh fallback):
// the same search serves the exec in the child (spawn.h) and the check a launcher makes
// before it announces anything (launch-wrapper fails with 127 or 126 before it starts, as
// env(1) and timeout(1) do).

#include <optional>
#include <string>
#include <vector>

namespace fleet {

// An exec that failed, or would fail.
struct ExecFailure {
  int error = 0;  // the exec's errno
  // What the child exited with: 127 when the command does not exist, 126 when it exists but
  // cannot be executed (as a shell reports it).
  int exit_status() const;
  // Why, for a person (strerror).
  std::string reason() const;
};

// The paths execvp would try for `name`, in order: `name` itself when it holds a '/', else
// each $PATH entry (an empty entry is the current directory) joined with it.
std::vector<std::string> exec_candidates(const std::string& name);

// Whether an exec of `name` can find a program: nullopt when a candidate is a regular file
// this process may execute, else the failure the exec would report (ENOENT: none exists;
// EACCES: one exists but is not an executable file). A file the kernel then refuses to
// execute (ENOEXEC: a bad ELF, a script without #!) is only found out by the exec itself.
std::optional<ExecFailure> find_command(const std::string& name);

}  // namespace fleet
