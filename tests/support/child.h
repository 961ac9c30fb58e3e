#pragma once
// Test support for the tests of process control: children a test forks from itself (a
// process-group leader that waits to be signalled), how they ended, and what a descriptor
// delivers until its end.

#include <sys/types.h>

#include <string>

namespace fleet::test {

// A child that leads its own process group and waits for signals, named `name` where the
// system names processes (process_name.h; nullptr keeps the test's name), ignoring SIGTERM
// when asked. Returns once the child is set up (it reports
// through a pipe), so no signal can arrive too early.
pid_t spawn_group_leader(const char* name = nullptr, bool ignore_term = false);

// Waits for the child `pid` (through EINTR); its wait status (WIFEXITED, WTERMSIG, ...), 0 when
// it cannot be waited for.
int reap(pid_t pid);

// Everything `fd` delivers until end of file (or an error).
std::string read_all(int fd);

}  // namespace fleet::test
