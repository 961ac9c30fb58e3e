// own_cgroup_directory and relative_cgroup_path name the same cgroup that
// /proc/self/mountinfo and /proc/self/cgroup name, whether they found the mount the quick way
// (/sys/fs/cgroup or /sys/fs/cgroup/unified in the initial cgroup namespace) or by reading
// the mount table.

#include <doctest/doctest.h>
#include <sys/stat.h>

#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "process/cgroup_v2.h"
#include "temp_dir.h"

namespace {

// This process's cgroup v2 directories according to the mount table: one per cgroup2 mount
// that shows the process's cgroup (mount points and roots without escapes, as on test hosts).
std::vector<std::string> directories_from_mount_table(const std::string& path) {
  std::vector<std::string> found;
  std::istringstream lines(fleet::test::read_file("/proc/self/mountinfo"));
  for (std::string line; std::getline(lines, line);) {
    const std::size_t dash = line.find(" - cgroup2 ");
    if (dash == std::string::npos) continue;
    std::istringstream fields(line.substr(0, dash));
    std::string id, parent, device, root, mount_point;
    fields >> id >> parent >> device >> root >> mount_point;
    if (root != "/" && !path.starts_with(root)) continue;
    const std::string below = root == "/" ? path : path.substr(root.size());
    found.push_back(mount_point + (below == "/" ? "" : below));
  }
  return found;
}

}  // namespace

TEST_CASE("cgroup_v2: this process's cgroup directory is the one the mount table names") {
  std::string path;
  std::istringstream lines(fleet::test::read_file("/proc/self/cgroup"));
  for (std::string line; std::getline(lines, line);) {
    if (line.starts_with("0::")) path = line.substr(3);
  }
  const std::optional<std::string> directory = fleet::own_cgroup_directory();
  if (path.empty()) {
    CHECK_FALSE(directory);
    return;
  }
  const std::vector<std::string> expected = directories_from_mount_table(path);
  if (expected.empty()) {
    CHECK_FALSE(directory);
    return;
  }
  REQUIRE(directory);
  bool listed = false;
  for (const std::string& candidate : expected) listed = listed || candidate == *directory;
  CHECK_MESSAGE(listed, *directory);
  CHECK(fleet::relative_cgroup_path(*directory + "/fleet-launch-x") ==
        (path == "/" ? "" : path) + "/fleet-launch-x");
  CHECK_FALSE(fleet::relative_cgroup_path("/tmp/not-a-cgroup"));
}
