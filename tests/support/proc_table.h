#pragma once
// Test support: the processes of this machine as /proc shows them — every pid, a process's
// state and parent, and whether it still runs (a zombie does not).

#include <sys/types.h>

#include <optional>
#include <vector>

namespace fleet::test {

// A process's state letter ('R', 'S', 'Z', ...) and parent, from /proc/<pid>/stat.
struct ProcStat {
  char state = '?';
  pid_t ppid = 0;
};

// The stat of `pid`; nullopt when there is no such process (or it is unreadable).
std::optional<ProcStat> proc_stat(pid_t pid);

// Every pid in /proc now; REQUIREs that /proc can be read.
std::vector<pid_t> all_pids();

// Is `pid` alive and not a zombie?
bool running(pid_t pid);

}  // namespace fleet::test
