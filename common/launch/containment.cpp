#include "launch/containment.h"

#include "process/cgroup_v2.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <ctime>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "base/error.h"
#include "base/files.h"
#include "platform/process_table.h"
#include "platform/system_facts.h"
#include "platform/verified_signal.h"
#include "process/process_identity.h"

namespace fleet {
namespace {

constexpr char kCgroupPrefix[] = "fleet-launch-";
constexpr auto kPollInterval = std::chrono::milliseconds(20);

using Clock = std::chrono::steady_clock;

bool is_hex_token(const std::string& token) {
  return token.size() == 32 && token.find_first_not_of("0123456789abcdef") == std::string::npos;
}

std::string new_token() {
  unsigned char bytes[16];
  if (!platform::fill_random(bytes, sizeof bytes))
    throw_errno("cannot read random bytes for the launch token");
  static const char digits[] = "0123456789abcdef";
  std::string token;
  for (unsigned char b : bytes) {
    token.push_back(digits[b >> 4]);
    token.push_back(digits[b & 15]);
  }
  return token;
}

// Whether the environment `pid` was started with (platform/process_table.h: Linux
// /proc/<pid>/environ, macOS KERN_PROCARGS2) holds FLEET_LAUNCH_TOKEN with `token` among its
// comma-separated values (a launch inside a launch carries both tokens).
bool carries_token(pid_t pid, const std::string& token) {
  const std::string environ = platform::read_environment(pid).value_or("");
  const std::string name = std::string(kLaunchTokenVariable) + "=";
  std::size_t pos = 0;
  while (pos < environ.size()) {
    std::size_t end = environ.find('\0', pos);
    if (end == std::string::npos) end = environ.size();
    if (environ.compare(pos, name.size(), name) == 0) {
      std::size_t value = pos + name.size();
      while (value < end) {
        std::size_t comma = environ.find(',', value);
        if (comma == std::string::npos || comma > end) comma = end;
        if (environ.compare(value, comma - value, token) == 0 && comma - value == token.size())
          return true;
        value = comma + 1;
      }
    }
    pos = end + 1;
  }
  return false;
}

// A process found by the scan, with its start time then.
struct Found {
  pid_t pid;
  std::uint64_t starttime;
};

class Finder {
 public:
  Finder(const Containment& containment, bool search_environments)
      : containment_(containment), search_environments_(search_environments) {
    if (!containment_.cgroup.empty()) relative_ = relative_cgroup_path(containment_.cgroup);
  }

  // Running processes of the launch.
  std::vector<Found> scan() const {
    std::vector<Found> found;
    const pid_t self = ::getpid();
    const auto consider = [&](pid_t pid) {
      if (pid == self) return;
      for (const Found& f : found) {
        if (f.pid == pid) return;
      }
      if (!belongs(pid)) return;
      const auto identity = identify_process(pid);  // nullopt for zombies
      if (identity) found.push_back({pid, identity->starttime_ticks});
    };
    if (!containment_.cgroup.empty()) {
      for (pid_t pid : cgroup_members(containment_.cgroup)) consider(pid);
    }
    if (search_environments_ && is_hex_token(containment_.token)) {
      for (pid_t pid : platform::process_ids()) {
        if (pid > 0) consider(pid);
      }
    }
    return found;
  }

  // Sends `sig` to `process` only if, checked right before (platform/verified_signal.h: a
  // pidfd pins it on Linux), it still belongs to the launch and has the start time it had
  // when found.
  void signal(const Found& process, int sig) const {
    platform::signal_verified(process.pid, sig, [&] {
      const auto identity = identify_process(process.pid);
      return identity && identity->starttime_ticks == process.starttime && belongs(process.pid);
    });
  }

 private:
  bool belongs(pid_t pid) const {
    if (relative_) {
      const std::optional<std::string> where = cgroup_of(pid);
      if (where && (*where == *relative_ || where->starts_with(*relative_ + "/"))) return true;
    }
    return is_hex_token(containment_.token) && carries_token(pid, containment_.token);
  }

  const Containment& containment_;
  bool search_environments_;
  std::optional<std::string> relative_;  // the cgroup's path in its hierarchy
};

bool wait_empty(const Finder& finder, Clock::time_point deadline, void (*reap)()) {
  for (;;) {
    if (reap != nullptr) reap();
    if (finder.scan().empty()) return true;
    if (Clock::now() >= deadline) return false;
    std::this_thread::sleep_for(kPollInterval);
  }
}

void remove_cgroup_tree(const std::string& directory) {
  // As a rule it is empty and has no child: one rmdir, no listing.
  if (::rmdir(directory.c_str()) == 0 || errno == ENOENT) return;
  DIR* dir = ::opendir(directory.c_str());
  if (dir == nullptr) return;
  std::vector<std::string> children;
  while (const dirent* entry = ::readdir(dir)) {
    if (entry->d_type == DT_DIR &&
        std::strncmp(entry->d_name, kCgroupPrefix, sizeof kCgroupPrefix - 1) == 0) {
      children.emplace_back(entry->d_name);
    }
  }
  ::closedir(dir);
  for (const std::string& child : children) remove_cgroup_tree(directory + "/" + child);
  // A process that was just killed keeps the cgroup populated until it is released (a
  // zombie until its parent reaps it): wait a little for that, not for live processes.
  const auto deadline = Clock::now() + std::chrono::seconds(2);
  while (::rmdir(directory.c_str()) != 0 && errno == EBUSY && Clock::now() < deadline) {
    if (read_pseudo_file(directory + "/cgroup.events").value_or("").find("populated 1") !=
            std::string::npos &&
        !cgroup_members(directory).empty()) {
      bool any_alive = false;
      for (pid_t pid : cgroup_members(directory)) any_alive = any_alive || identify_process(pid);
      if (any_alive) return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

// The launch cgroups this process made, each held by an exclusive flock on its directory
// until it is removed or the process ends (the kernel drops the lock then, also after a
// SIGKILL): a cgroup nobody holds has no live wrapper.
std::mutex held_mutex;
std::map<std::string, UniqueFd> held_cgroups;

// Creates the cgroup `directory` and takes its lock. False (errno set) when it cannot be
// created, or when a sweep got to it first (then the sweep removes it).
bool create_held_cgroup(const std::string& directory) {
  if (::mkdir(directory.c_str(), 0755) != 0) return false;
  UniqueFd fd(::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!fd || ::flock(fd.get(), LOCK_EX | LOCK_NB) != 0 ||
      ::faccessat(fd.get(), "cgroup.procs", F_OK, 0) != 0) {
    errno = EBUSY;
    return false;
  }
  const std::lock_guard<std::mutex> guard(held_mutex);
  held_cgroups[directory] = std::move(fd);
  return true;
}

// Lets go of the lock of a cgroup this process made once the directory is gone.
void release_held_cgroup(const std::string& directory) {
  if (::access(directory.c_str(), F_OK) == 0 || errno != ENOENT) return;
  const std::lock_guard<std::mutex> guard(held_mutex);
  held_cgroups.erase(directory);
}

// An empty fleet-launch-* cgroup whose wrapper is gone: nobody holds its lock (it is taken
// here and kept until the rmdir), and it is more than kSweepAge old — a wrapper that holds no
// lock (an older version) leaves its cgroup empty only for the moment between making it and
// starting the agent in it.
constexpr time_t kSweepAge = 2;

bool remove_if_abandoned(const std::string& path, time_t now) {
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  struct stat st {};
  if (!fd || ::fstat(fd.get(), &st) != 0 || now - st.st_mtime < kSweepAge ||
      ::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) {
    return false;
  }
  return read_pseudo_file(path + "/cgroup.events").value_or("").find("populated 0") !=
             std::string::npos &&
         ::rmdir(path.c_str()) == 0;
}

// Removes the abandoned fleet-launch-* cgroups below `parent` (the wrapper's own cgroup):
// those of wrappers that were killed, whose agents have exited since.
void collect_abandoned_cgroups(const std::string& parent) {
  DIR* dir = ::opendir(parent.c_str());
  if (dir == nullptr) return;
  std::vector<std::string> candidates;
  while (const dirent* entry = ::readdir(dir)) {
    if (std::strncmp(entry->d_name, kCgroupPrefix, sizeof kCgroupPrefix - 1) == 0 &&
        entry->d_type == DT_DIR) {
      candidates.push_back(parent + "/" + entry->d_name);
    }
  }
  ::closedir(dir);
  const time_t now = ::time(nullptr);
  for (const std::string& path : candidates) remove_if_abandoned(path, now);
}

}  // namespace

Containment create_containment(ContainmentMode mode) {
  Containment containment;
  containment.token = new_token();
  if (mode == ContainmentMode::token) return containment;
  const std::optional<std::string> own = own_cgroup_directory();
  if (!own) {
    if (mode == ContainmentMode::cgroup)
      throw Error("--containment cgroup: no cgroup v2 hierarchy holds this process");
    return containment;
  }
  collect_abandoned_cgroups(*own);
  // A sweep that takes a new cgroup for abandoned is practically impossible (see kSweepAge);
  // then the launch tries another token.
  for (int tries = 1;; ++tries) {
    const std::string directory = *own + "/" + kCgroupPrefix + containment.token;
    if (create_held_cgroup(directory)) {
      containment.cgroup = directory;
      return containment;
    }
    if (errno != EBUSY || tries == 3) {
      if (mode == ContainmentMode::cgroup)
        throw_errno("--containment cgroup: cannot create the cgroup " + directory);
      return containment;
    }
    containment.token = new_token();
  }
}

UniqueFd open_containment_directory(const Containment& containment) {
  if (containment.cgroup.empty()) return UniqueFd();
  return UniqueFd(::open(containment.cgroup.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
}

void enter_containment(Containment& containment, pid_t pid, bool required) {
  if (containment.cgroup.empty()) return;
  const std::optional<std::string> failed =
      write_pseudo_file(containment.cgroup + "/cgroup.procs", std::to_string(pid));
  if (!failed) return;
  const std::string directory = containment.cgroup;
  ::rmdir(directory.c_str());
  release_held_cgroup(directory);
  containment.cgroup.clear();
  if (required) {
    throw Error("--containment cgroup: cannot move the agent into its cgroup (" + *failed + ")");
  }
}

std::string containment_environment_entry(const Containment& containment) {
  const char* inherited = std::getenv(kLaunchTokenVariable);
  std::string value = containment.token;
  if (inherited != nullptr && *inherited != '\0') value = std::string(inherited) + "," + value;
  return std::string(kLaunchTokenVariable) + "=" + value;
}

std::optional<std::string> containment_problem(const Containment& containment) {
  if (!is_hex_token(containment.token)) return "the launch token is not 32 hex digits";
  if (containment.cgroup.empty()) return std::nullopt;
  const std::string suffix = std::string("/") + kCgroupPrefix + containment.token;
  if (!containment.cgroup.ends_with(suffix) ||
      containment.cgroup.find("/..") != std::string::npos ||
      containment.cgroup.find("//") != std::string::npos) {
    return "the cgroup " + containment.cgroup + " is not the launch's own (fleet-launch-<token>)";
  }
  if (!relative_cgroup_path(containment.cgroup))
    return "the cgroup " + containment.cgroup + " is not on a cgroup v2 mount";
  return std::nullopt;
}

ContainedStop stop_contained(const Containment& containment, std::chrono::milliseconds grace,
                             std::chrono::milliseconds kill_wait, void (*reap)(),
                             bool search_environments) {
  ContainedStop result;
  if (containment_problem(containment)) return result;
  // Only the cgroup to search: as a rule it is empty, and then one rmdir removes it (the
  // kernel refuses while a process, even a zombie, or a child cgroup is in it).
  if (!search_environments && !containment.cgroup.empty() &&
      (::rmdir(containment.cgroup.c_str()) == 0 || errno == ENOENT)) {
    release_held_cgroup(containment.cgroup);
    return result;
  }
  const Finder finder(containment, search_environments);
  std::vector<Found> found = finder.scan();
  result.found = static_cast<unsigned>(found.size());
  if (!found.empty()) {
    for (const Found& process : found) finder.signal(process, SIGTERM);
    if (!wait_empty(finder, Clock::now() + grace, reap)) {
      result.killed = true;
      const auto deadline = Clock::now() + kill_wait;
      for (;;) {
        // No cgroup.kill (Linux < 5.14): freeze the cgroup so that no member forks while
        // the scan below finds and kills each one (verified like every other signal), thaw.
        const bool fallback =
            !containment.cgroup.empty() &&
            write_pseudo_file(containment.cgroup + "/cgroup.kill", "1").has_value();
        if (fallback) freeze_cgroup(containment.cgroup, std::chrono::milliseconds(500));
        for (const Found& process : finder.scan()) finder.signal(process, SIGKILL);
        if (fallback) thaw_cgroup(containment.cgroup);
        if (wait_empty(finder, std::min(deadline, Clock::now() + std::chrono::milliseconds(200)),
                       reap) ||
            Clock::now() >= deadline) {
          break;
        }
      }
    }
    result.gone = finder.scan().empty();
  }
  if (result.gone) remove_containment(containment);
  return result;
}

void remove_containment(const Containment& containment) {
  if (containment.cgroup.empty() || containment_problem(containment)) return;
  remove_cgroup_tree(containment.cgroup);
  release_held_cgroup(containment.cgroup);
}

}  // namespace fleet
