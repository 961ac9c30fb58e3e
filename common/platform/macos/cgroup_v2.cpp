// cgroup v2 (process/cgroup_v2.h; platform seam, macOS home): macOS has no cgroups. No
// process has one, so a launch is contained by its token alone (launch/containment.h), and a
// recorded cgroup is never one to act on (relative_cgroup_path says it is on no cgroup2 mount).
#include "process/cgroup_v2.h"

namespace fleet {

std::optional<std::string> own_cgroup_directory() {
  return std::nullopt;
}

std::vector<pid_t> cgroup_members(const std::string&) {
  return {};
}

bool freeze_cgroup(const std::string&, std::chrono::milliseconds) {
  return false;
}

bool wait_unpopulated(const std::string&, std::chrono::milliseconds) {
  return false;  // gone: there is none
}

void thaw_cgroup(const std::string&) {}

std::optional<std::string> cgroup_of(pid_t) {
  return std::nullopt;
}

std::optional<std::string> relative_cgroup_path(const std::string&) {
  return std::nullopt;
}

}  // namespace fleet
