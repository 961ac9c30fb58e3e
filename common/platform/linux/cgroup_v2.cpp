// cgroup v2 (process/cgroup_v2.h; platform seam, Linux home): /proc/self/mountinfo,
// /proc/<pid>/cgroup, cgroupfs, and inotify on cgroup.events.
#include "process/cgroup_v2.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "base/files.h"

namespace fleet {
namespace {

// mountinfo escapes space, tab, newline and backslash as \ooo.
std::string unescape_mount_field(const std::string& field) {
  std::string out;
  for (std::size_t i = 0; i < field.size(); ++i) {
    if (field[i] == '\\' && i + 3 < field.size()) {
      const std::string digits = field.substr(i + 1, 3);
      if (digits.find_first_not_of("01234567") == std::string::npos) {
        out.push_back(static_cast<char>(std::stoi(digits, nullptr, 8)));
        i += 3;
        continue;
      }
    }
    out.push_back(field[i]);
  }
  return out;
}

struct CgroupMount {
  std::string root;         // the part of the hierarchy mounted ("/" as a rule)
  std::string mount_point;  // where it is mounted
};

// The cgroup v2 mounts of this process's mount namespace, from /proc/self/mountinfo:
// "id parent major:minor root mount-point options [optional...] - fstype source superopts".
std::vector<CgroupMount> read_cgroup2_mounts() {
  std::vector<CgroupMount> mounts;
  const std::string text = read_pseudo_file("/proc/self/mountinfo").value_or("");
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    start = end + 1;
    const std::size_t dash = line.find(" - ");
    if (dash == std::string::npos || line.compare(dash + 3, 8, "cgroup2 ") != 0) continue;
    std::vector<std::string> fields;
    std::size_t pos = 0;
    while (pos < dash && fields.size() < 5) {
      const std::size_t space = line.find(' ', pos);
      fields.push_back(line.substr(pos, space - pos));
      pos = space + 1;
    }
    if (fields.size() == 5) {
      mounts.push_back({unescape_mount_field(fields[3]), unescape_mount_field(fields[4])});
    }
  }
  return mounts;
}

// Read once per process: mounts do not move under a running wrapper.
const std::vector<CgroupMount>& cgroup2_mounts() {
  static const std::vector<CgroupMount> mounts = read_cgroup2_mounts();
  return mounts;
}

// The usual mount, known without reading /proc/self/mountinfo (which the kernel formats
// mount by mount: the slowest read of a launch): /sys/fs/cgroup, or /sys/fs/cgroup/unified
// on hybrid layouts, when it is a cgroup2 file system showing the hierarchy's root (kernfs
// gives the root directory inode 1) and this process is in the initial cgroup namespace,
// so that /proc/self/cgroup paths are relative to that same root. Else nullopt: in a
// container's own cgroup namespace, or elsewhere, cgroup2_mounts() finds the mounts.
const std::optional<CgroupMount>& usual_cgroup2_mount() {
  static const std::optional<CgroupMount> usual = []() -> std::optional<CgroupMount> {
    constexpr ino_t kInitialCgroupNamespace = 0xEFFFFFFBU;  // PROC_CGROUP_INIT_INO
    struct stat st {};
    if (::stat("/proc/self/ns/cgroup", &st) != 0 || st.st_ino != kInitialCgroupNamespace)
      return std::nullopt;
    for (const char* mount_point : {"/sys/fs/cgroup", "/sys/fs/cgroup/unified"}) {
      struct statfs fs {};
      if (::statfs(mount_point, &fs) == 0 && fs.f_type == CGROUP2_SUPER_MAGIC &&
          ::stat(mount_point, &st) == 0 && st.st_ino == 1) {
        return CgroupMount{"/", mount_point};
      }
    }
    return std::nullopt;
  }();
  return usual;
}

// The directory of the cgroup at `path` (relative to the hierarchy's root) below `mount`,
// when the mount shows it.
std::optional<std::string> directory_below(const CgroupMount& mount, const std::string& path) {
  std::string relative = path;
  if (mount.root != "/") {
    if (!path.starts_with(mount.root)) return std::nullopt;
    relative = path.substr(mount.root.size());
  }
  return mount.mount_point + (relative == "/" ? "" : relative);
}

bool is_cgroup_directory(const std::optional<std::string>& directory) {
  struct stat st {};
  return directory && ::stat((*directory + "/cgroup.procs").c_str(), &st) == 0;
}

// `cgroup`'s path relative to the root of `mount`'s hierarchy, when below it.
std::optional<std::string> relative_below(const CgroupMount& mount, const std::string& cgroup) {
  if (!cgroup.starts_with(mount.mount_point + "/")) return std::nullopt;
  const std::string below = cgroup.substr(mount.mount_point.size());
  return mount.root == "/" ? below : mount.root + below;
}

// The cgroup v2 path in a /proc/<pid>/cgroup file (its "0::" line); nullopt when there is none.
std::optional<std::string> unified_path(const std::string& proc_cgroup_file) {
  const std::string text = read_pseudo_file(proc_cgroup_file).value_or("");
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (text.compare(start, 3, "0::") == 0) return text.substr(start + 3, end - start - 3);
    start = end + 1;
  }
  return std::nullopt;
}

}  // namespace

bool freeze_cgroup(const std::string& cgroup, std::chrono::milliseconds timeout) {
  if (write_pseudo_file(cgroup + "/cgroup.freeze", "1")) return false;
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const std::string events = read_pseudo_file(cgroup + "/cgroup.events").value_or("");
    if (events.starts_with("frozen 1") || events.find("\nfrozen 1") != std::string::npos)
      return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    ::usleep(5000);
  }
}

bool wait_unpopulated(const std::string& cgroup, std::chrono::milliseconds recheck) {
  const std::string events = cgroup + "/cgroup.events";
  UniqueFd watch(::inotify_init1(IN_CLOEXEC | IN_NONBLOCK));
  if (watch) ::inotify_add_watch(watch.get(), events.c_str(), IN_MODIFY);
  for (;;) {
    const std::optional<std::string> text = read_pseudo_file(events);
    if (!text) return false;
    if (text->starts_with("populated 0") || text->find("\npopulated 0") != std::string::npos)
      return true;
    struct pollfd ready = {watch.get(), POLLIN, 0};
    if (::poll(&ready, watch ? 1 : 0, static_cast<int>(recheck.count())) > 0) {
      char drain[4096];
      while (::read(watch.get(), drain, sizeof drain) > 0) {
      }
    }
  }
}

void thaw_cgroup(const std::string& cgroup) {
  write_pseudo_file(cgroup + "/cgroup.freeze", "0");
}

std::optional<std::string> own_cgroup_directory() {
  const std::string path = unified_path("/proc/self/cgroup").value_or("");
  if (path.empty() || path.find(" (deleted)") != std::string::npos) return std::nullopt;
  if (const auto& usual = usual_cgroup2_mount()) {
    std::optional<std::string> directory = directory_below(*usual, path);
    if (is_cgroup_directory(directory)) return directory;
  }
  for (const CgroupMount& mount : cgroup2_mounts()) {
    std::optional<std::string> directory = directory_below(mount, path);
    if (is_cgroup_directory(directory)) return directory;
  }
  return std::nullopt;
}

std::vector<pid_t> cgroup_members(const std::string& cgroup) {
  std::vector<pid_t> pids;
  const std::string text = read_pseudo_file(cgroup + "/cgroup.procs").value_or("");
  const char* cursor = text.c_str();
  while (*cursor != '\0') {
    char* end = nullptr;
    const long pid = std::strtol(cursor, &end, 10);
    if (end == cursor) break;
    if (pid > 0) pids.push_back(static_cast<pid_t>(pid));
    cursor = end;
    while (*cursor == '\n') ++cursor;
  }
  return pids;
}

std::optional<std::string> cgroup_of(pid_t pid) {
  return unified_path("/proc/" + std::to_string(pid) + "/cgroup");
}

std::optional<std::string> relative_cgroup_path(const std::string& cgroup) {
  if (const auto& usual = usual_cgroup2_mount()) {
    if (std::optional<std::string> relative = relative_below(*usual, cgroup)) return relative;
  }
  for (const CgroupMount& mount : cgroup2_mounts()) {
    if (std::optional<std::string> relative = relative_below(mount, cgroup)) return relative;
  }
  return std::nullopt;
}

}  // namespace fleet
