#pragma once
// Containment of one launch: every process the agent starts, including the ones that leave
// its process group or session (setsid, double fork), can be found and stopped later — by
// the wrapper when the agent's run ends, by `launch-wrapper stop`, by the member's next
// launch — even after the wrapper itself was killed. Two mechanisms:
// - a cgroup v2 per launch (a child of the wrapper's own cgroup, found through
//   /proc/self/mountinfo and /proc/self/cgroup) where one can be created and entered;
//   processes cannot leave it without privilege, and cgroup.kill stops them all at once;
// - always, a random token in the agent's environment (FLEET_LAUNCH_TOKEN=<token>), which
//   every descendant inherits: processes are found by reading each one's environment
//   (platform/process_table.h) and each match is checked again (same token, same start time)
//   right before it is signalled (platform/verified_signal.h: through a pidfd on Linux, so a
//   pid that was reused in between is never signalled).
// A system without cgroups (macOS: process/cgroup_v2.h has none there) has the token only.

#include <sys/types.h>
#include <array>
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "base/enum_names.h"
#include "base/files.h"

namespace fleet {

inline constexpr char kLaunchTokenVariable[] = "FLEET_LAUNCH_TOKEN";

enum class ContainmentMode {
  automatic,  // a cgroup when one can be created and entered, and the token
  cgroup,     // a cgroup is required: the launch fails (125) when none can be made
  token,      // the token only (no cgroup is tried)
};
template <>
struct EnumNames<ContainmentMode> {
  static constexpr std::array<std::string_view, 3> names{"auto", "cgroup", "token"};
};

struct Containment {
  std::string token;   // 32 lowercase hex digits
  std::string cgroup;  // absolute path of the launch's cgroup directory, "" when none

  bool operator==(const Containment&) const = default;
};

// A new token, and with `automatic`/`cgroup` a new cgroup directory named
// fleet-launch-<token> below the wrapper's own cgroup, which this process holds (a flock on
// the directory) until it is removed or the process ends. First removes the abandoned ones
// there: empty, at least 2 s old, held by nobody (their wrapper is gone). With `automatic`,
// a cgroup that cannot be created leaves `cgroup` empty; with `cgroup` that throws Error.
Containment create_containment(ContainmentMode mode);

// The cgroup's directory, opened for spawn_held; an empty UniqueFd when there is none or it
// cannot be opened (the agent is then moved into the cgroup after it starts).
UniqueFd open_containment_directory(const Containment& containment);

// Moves `pid` (a held child that has not forked yet) into the cgroup. With `required`
// false, a failure removes the cgroup and clears `containment.cgroup` (token only); with
// `required` true it throws Error.
void enter_containment(Containment& containment, pid_t pid, bool required);

// The environment entry that carries the token.
std::string containment_environment_entry(const Containment& containment);

// nullopt when a recorded containment may be used for a stop: the token is 32 hex digits and
// the cgroup ("" allowed) is a directory named fleet-launch-<token> on a cgroup2 mount.
// Otherwise what is wrong (the record must not be used for any kill).
std::optional<std::string> containment_problem(const Containment& containment);

struct ContainedStop {
  unsigned found = 0;   // processes of the launch found running
  bool killed = false;  // SIGKILL was needed
  bool gone = true;     // none is left running
};

// Stops every running process of the launch: SIGTERM, up to `grace` for them to exit, then
// SIGKILL and up to `kill_wait` more; finally removes the cgroup when it is empty. `reap` is
// called while waiting (the wrapper reaps its own children). Never signals a process that
// does not carry the token or sit in the cgroup at the moment it is signalled. With
// `search_environments` false only the cgroup is searched (the wrapper knows no process of
// the launch is left outside it: it has no child left, and it is their subreaper).
ContainedStop stop_contained(const Containment& containment, std::chrono::milliseconds grace,
                             std::chrono::milliseconds kill_wait = std::chrono::seconds(5),
                             void (*reap)() = nullptr, bool search_environments = true);

// Removes the launch's cgroup directory when it is empty (nothing when there is none).
void remove_containment(const Containment& containment);

}  // namespace fleet
