#pragma once
// Knowing that a pid still names the process we recorded, and stopping process groups
// (doc/launch-wrapper.md): a pid plus its start time plus the boot id identifies one process
// for the life of the machine. The process table is read through platform/process_table.h
// (Linux: /proc/<pid>/stat, the start time in clock ticks since boot).

#include <sys/types.h>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fleet {

struct ProcessIdentity {
  pid_t pid = 0;
  std::uint64_t starttime_ticks = 0;
  std::string boot_id;

  bool operator==(const ProcessIdentity&) const = default;
};

// The boot id (platform/process_table.h; Linux: /proc/sys/kernel/random/boot_id) without the
// newline; nullopt when unreadable. Read once a process (it is the same for the process's
// whole life): the guard's dispatch call needs it for each handover it leaves.
std::optional<std::string> current_boot_id();

// The identity of a running process, nullopt when it does not exist (or is a zombie).
std::optional<ProcessIdentity> identify_process(pid_t pid);

// One process as an ancestor walk sees it: who it is, its parent, its name, its owner.
struct ProcessLink {
  pid_t pid = 0;
  std::uint64_t starttime_ticks = 0;
  pid_t parent = 0;
  std::string name;  // its command name (Linux: comm, at most 15 bytes)
  uid_t owner = 0;   // its effective uid
};

// The link of a running process, nullopt when it does not exist (or is a zombie).
std::optional<ProcessLink> process_link(pid_t pid);

// The command line of a running process (platform/process_table.h; Linux: /proc/<pid>/cmdline),
// one string an argument (as the process shows it: a program may rewrite its own); empty when it
// cannot be read.
std::vector<std::string> process_arguments(pid_t pid);

// The value of `name` in the environment process `pid` was started with (platform/
// process_table.h; Linux: /proc/<pid>/environ: what it was given, not what it set since);
// nullopt when unset or unreadable.
std::optional<std::string> process_environment_variable(pid_t pid, std::string_view name);

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

// Stopping process group `pgid`, the one way the suite does it: SIGTERM, then SIGKILL once
// `grace` has passed. These are the steps, for an event loop that waits on other things
// meanwhile (the agent's supervisor); stop_process_group below runs them to the end.
class GroupStop {
 public:
  using Clock = std::chrono::steady_clock;
  // `send` delivers a signal to the group (default: kill(-pgid, sig)).
  GroupStop(pid_t pgid, std::chrono::milliseconds grace, std::function<void(int)> send = {});

  // Sends SIGTERM and starts the grace period; only the first call does anything.
  void begin();
  bool begun() const { return begun_; }
  // When SIGKILL is due: nullopt before begin() and once SIGKILL was sent.
  std::optional<Clock::time_point> kill_due() const;
  // Sends SIGKILL when it is due (once); true when it did.
  bool kill_if_due(Clock::time_point now = Clock::now());
  // Sends SIGKILL now (once).
  void kill();
  bool killed() const { return killed_; }

 private:
  void send(int sig) const;

  pid_t pgid_;
  std::chrono::milliseconds grace_;
  std::function<void(int)> send_;
  bool begun_ = false;
  bool killed_ = false;
  Clock::time_point kill_due_{};
};

struct StopResult {
  bool was_alive = false;  // the group had members when asked to stop
  bool killed = false;     // SIGKILL was needed after the grace period
  bool gone = false;       // no member is left
};

// Stops process group `pgid` with GroupStop and waits: up to `grace` for it to empty after
// SIGTERM, then up to `kill_wait` more after SIGKILL. Does not reap children: a caller whose
// child leads the group must reap it (a zombie leader keeps the group alive), which `reap`
// does when given.
StopResult stop_process_group(pid_t pgid, std::chrono::milliseconds grace,
                              std::chrono::milliseconds kill_wait = std::chrono::seconds(5),
                              void (*reap)() = nullptr);

}  // namespace fleet
