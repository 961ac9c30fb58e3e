#pragma once
// Knowing that a pid still names the process we recorded, and stopping process groups
// (README.md, "launch-wrapper"): a pid plus its start time (clock ticks since boot, field 22
// of /proc/<pid>/stat) plus the boot id identifies one process for the life of the machine.

#include <sys/types.h>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace fleet {

struct ProcessIdentity {
  pid_t pid = 0;
  std::uint64_t starttime_ticks = 0;
  std::string boot_id;

  bool operator==(const ProcessIdentity&) const = default;
};

// /proc/sys/kernel/random/boot_id without the newline; "" when unreadable.
std::string current_boot_id();

// The identity of a running process, nullopt when it does not exist (or is a zombie). The
// start time is field 22 of /proc/<pid>/stat, parsed after the last ')' (the command name may
// contain spaces and parentheses).
std::optional<ProcessIdentity> identify_process(pid_t pid);

enum class Liveness {
  same,    // the recorded process is alive
  exited,  // the recorded process has exited and is a zombie waiting to be reaped (its pid,
           // and so its process group id, cannot be reused until then)
  gone,    // no process has the pid (ESRCH)
  reused,  // the pid now names another process, alive or zombie (other start time or boot)
};

// Whether `recorded` still names the same process. A zombie's start time is compared too:
// a zombie with another start time is another process (`reused`), never `gone`.
Liveness check_process(const ProcessIdentity& recorded);

// True while any process is in group `pgid` (kill(-pgid, 0) does not fail with ESRCH).
// EPERM counts as alive: something is there, and it is not ours.
bool group_alive(pid_t pgid);

struct StopResult {
  bool was_alive = false;  // the group had members when asked to stop
  bool killed = false;     // SIGKILL was needed after the grace period
  bool gone = false;       // no member is left
};

// Stops process group `pgid`: SIGTERM, up to `grace` for it to empty, then SIGKILL and up
// to `kill_wait` more. Does not reap children: a caller whose child leads the group must
// reap it (a zombie leader keeps the group alive), which `reap` does when given.
StopResult stop_process_group(pid_t pgid, std::chrono::milliseconds grace,
                              std::chrono::milliseconds kill_wait = std::chrono::seconds(5),
                              void (*reap)() = nullptr);

}  // namespace fleet
