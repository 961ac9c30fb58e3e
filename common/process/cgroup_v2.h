#pragma once
// cgroup v2 as this process sees it (platform seam, platform/README.md): where the unified
// hierarchy is mounted (from /proc/self/mountinfo: on hybrid layouts it is e.g.
// /sys/fs/cgroup/unified, never assumed), which cgroup a process is in (/proc/<pid>/cgroup,
// the "0::" line). Nothing here throws: what cannot be read or found is nullopt. A system
// without cgroups (macOS) has none: no own cgroup, no members, nothing frozen or found.

#include <sys/types.h>
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "process/pseudo_file.h"

namespace fleet {

// The directory of this process's own cgroup v2; nullopt when there is none.
std::optional<std::string> own_cgroup_directory();

// The pids listed in <cgroup>/cgroup.procs (none when it cannot be read).
std::vector<pid_t> cgroup_members(const std::string& cgroup);

// Freezes the cgroup (writes 1 to cgroup.freeze) and waits up to `timeout` for cgroup.events
// to say "frozen 1": only then can no member fork or leave. False when the write fails or
// the cgroup is not frozen in time (the cgroup may be left freezing: thaw it either way).
bool freeze_cgroup(const std::string& cgroup, std::chrono::milliseconds timeout);

// Waits until the cgroup holds no process, in it or below it (cgroup.events says "populated
// 0"), or is gone: woken by inotify on cgroup.events, which the kernel touches when that
// changes, and looking again every `recheck` besides. True when it is empty, false when gone.
bool wait_unpopulated(const std::string& cgroup, std::chrono::milliseconds recheck);

// Thaws the cgroup (writes 0 to cgroup.freeze).
void thaw_cgroup(const std::string& cgroup);

// The cgroup v2 path of `pid` relative to the hierarchy's root; nullopt when unknown.
std::optional<std::string> cgroup_of(pid_t pid);

// The path of the cgroup directory `cgroup` relative to its hierarchy's root; nullopt when
// it is not below a cgroup2 mount.
std::optional<std::string> relative_cgroup_path(const std::string& cgroup);

}  // namespace fleet
