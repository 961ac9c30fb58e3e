#include "process/process_identity.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "base/files.h"

namespace fleet {
namespace {

constexpr auto kPollInterval = std::chrono::milliseconds(10);

struct ProcStat {
  std::string name;  // comm, between the first '(' and the last ')'
  char state = '?';
  pid_t ppid = 0;
  pid_t pgid = 0;
  std::uint64_t starttime = 0;
  uid_t uid = 0;  // the owner of /proc/<pid>/stat: the process's effective uid
};

// Reads a small file in one go; nullopt when it cannot be read or is empty. With `owner`,
// also the file's owner.
std::optional<std::string> read_small_file(const char* path, uid_t* owner = nullptr) {
  UniqueFd fd(::open(path, O_RDONLY | O_CLOEXEC));
  if (!fd) return std::nullopt;
  struct stat st {};
  if (owner != nullptr) {
    if (::fstat(fd.get(), &st) != 0) return std::nullopt;
    *owner = st.st_uid;
  }
  char buffer[1024];
  ssize_t n;
  do {
    n = ::read(fd.get(), buffer, sizeof buffer - 1);
  } while (n < 0 && errno == EINTR);
  if (n <= 0) return std::nullopt;
  return std::string(buffer, static_cast<std::size_t>(n));
}

// /proc/<pid>/<file> of NUL-separated strings (cmdline, environ), up to kMaxProcStrings bytes;
// nullopt when it cannot be read (another user's process, gone).
constexpr std::size_t kMaxProcStrings = 256 * 1024;
std::optional<std::string> read_proc_strings(pid_t pid, const char* file) {
  if (pid <= 0) return std::nullopt;
  const std::string path = "/proc/" + std::to_string(pid) + "/" + file;
  UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd) return std::nullopt;
  std::string text;
  char buffer[4096];
  while (text.size() < kMaxProcStrings) {
    const ssize_t n = ::read(fd.get(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::nullopt;
    if (n == 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
  }
  return text;
}

// /proc/<pid>/stat: "pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt
// majflt cmajflt utime stime cutime cstime priority nice num_threads itrealvalue starttime".
// comm may hold spaces and ')', so fields are counted from the last ')'.
std::optional<ProcStat> read_proc_stat(pid_t pid) {
  if (pid <= 0) return std::nullopt;
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
  ProcStat stat;
  const std::optional<std::string> read = read_small_file(path, &stat.uid);
  if (!read) return std::nullopt;
  const std::string& text = *read;
  const std::size_t open = text.find('(');
  const std::size_t close = text.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open) return std::nullopt;
  stat.name = text.substr(open + 1, close - open - 1);
  const char* cursor = text.c_str() + close + 1;
  // Field 3 is the state; fields 4..22 follow.
  for (int field = 3; field <= 22; ++field) {
    while (*cursor == ' ') ++cursor;
    if (*cursor == '\0') return std::nullopt;
    if (field == 3) stat.state = *cursor;
    if (field == 4) stat.ppid = static_cast<pid_t>(std::strtol(cursor, nullptr, 10));
    if (field == 5) stat.pgid = static_cast<pid_t>(std::strtol(cursor, nullptr, 10));
    if (field == 22) stat.starttime = std::strtoull(cursor, nullptr, 10);
    while (*cursor != ' ' && *cursor != '\0') ++cursor;
  }
  return stat;
}

bool is_dead_state(char state) {
  return state == 'Z' || state == 'X' || state == 'x';
}

// True when a member of `pgid` that is not a zombie exists, by scanning /proc.
bool group_has_live_member(pid_t pgid) {
  DIR* dir = ::opendir("/proc");
  if (dir == nullptr) return true;  // cannot tell: assume alive
  bool alive = false;
  while (const dirent* entry = ::readdir(dir)) {
    char* end = nullptr;
    const long pid = std::strtol(entry->d_name, &end, 10);
    if (end == entry->d_name || *end != '\0') continue;
    const auto stat = read_proc_stat(static_cast<pid_t>(pid));
    if (stat && stat->pgid == pgid && !is_dead_state(stat->state)) {
      alive = true;
      break;
    }
  }
  ::closedir(dir);
  return alive;
}

// Waits until the group is empty (true) or `deadline` has passed (false).
bool wait_group_gone(pid_t pgid, std::chrono::steady_clock::time_point deadline, void (*reap)()) {
  for (;;) {
    if (reap != nullptr) reap();
    if (!group_alive(pgid)) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(kPollInterval);
  }
}

}  // namespace

std::optional<std::string> current_boot_id() {
  std::optional<std::string> id = read_small_file("/proc/sys/kernel/random/boot_id");
  if (!id) return std::nullopt;
  while (!id->empty() && (id->back() == '\n' || id->back() == ' ')) id->pop_back();
  if (id->empty()) return std::nullopt;
  return id;
}

std::optional<ProcessIdentity> identify_process(pid_t pid) {
  const auto stat = read_proc_stat(pid);
  if (!stat || is_dead_state(stat->state)) return std::nullopt;
  // Without a boot id the identity is recorded with an empty one, which no reader of a
  // record accepts: such a process is never signalled on the record's word.
  return ProcessIdentity{pid, stat->starttime, current_boot_id().value_or("")};
}

std::optional<ProcessLink> process_link(pid_t pid) {
  const auto stat = read_proc_stat(pid);
  if (!stat || is_dead_state(stat->state)) return std::nullopt;
  return ProcessLink{pid, stat->starttime, stat->ppid, stat->name, stat->uid};
}

std::vector<std::string> process_arguments(pid_t pid) {
  std::vector<std::string> arguments;
  const std::optional<std::string> text = read_proc_strings(pid, "cmdline");
  if (!text) return arguments;
  for (std::size_t at = 0; at < text->size();) {
    const std::size_t end = std::min(text->find('\0', at), text->size());
    arguments.emplace_back(*text, at, end - at);
    at = end + 1;
  }
  return arguments;
}

std::optional<std::string> process_environment_variable(pid_t pid, std::string_view name) {
  const std::optional<std::string> text = read_proc_strings(pid, "environ");
  if (!text) return std::nullopt;
  for (std::size_t at = 0; at < text->size();) {
    const std::size_t end = std::min(text->find('\0', at), text->size());
    const std::string_view entry(text->data() + at, end - at);
    if (entry.size() > name.size() && entry.substr(0, name.size()) == name &&
        entry[name.size()] == '=')
      return std::string(entry.substr(name.size() + 1));
    at = end + 1;
  }
  return std::nullopt;
}

Liveness check_process(const ProcessIdentity& recorded) {
  const std::optional<std::string> boot = current_boot_id();
  if (!boot || recorded.boot_id != *boot) return Liveness::reused;
  const auto stat = read_proc_stat(recorded.pid);
  if (!stat) return Liveness::gone;
  if (stat->starttime != recorded.starttime_ticks) return Liveness::reused;
  return is_dead_state(stat->state) ? Liveness::exited : Liveness::same;
}

bool group_alive(pid_t pgid) {
  if (pgid <= 1) return false;
  if (::kill(-pgid, 0) != 0 && errno == ESRCH) return false;
  return group_has_live_member(pgid);
}

GroupStop::GroupStop(pid_t pgid, std::chrono::milliseconds grace, std::function<void(int)> send)
    : pgid_(pgid), grace_(grace), send_(std::move(send)) {}

void GroupStop::send(int sig) const {
  if (send_) {
    send_(sig);
  } else if (pgid_ > 1) {
    ::kill(-pgid_, sig);
  }
}

void GroupStop::begin() {
  if (begun_) return;
  begun_ = true;
  kill_due_ = Clock::now() + grace_;
  send(SIGTERM);
}

std::optional<GroupStop::Clock::time_point> GroupStop::kill_due() const {
  if (!begun_ || killed_) return std::nullopt;
  return kill_due_;
}

bool GroupStop::kill_if_due(Clock::time_point now) {
  if (!begun_ || killed_ || now < kill_due_) return false;
  kill();
  return true;
}

void GroupStop::kill() {
  if (killed_) return;
  begun_ = killed_ = true;
  send(SIGKILL);
}

StopResult stop_process_group(pid_t pgid, std::chrono::milliseconds grace,
                              std::chrono::milliseconds kill_wait, void (*reap)()) {
  StopResult result;
  if (pgid <= 1) {
    result.gone = true;
    return result;
  }
  result.was_alive = group_alive(pgid);
  if (!result.was_alive) {
    result.gone = true;
    return result;
  }
  GroupStop stop(pgid, grace);
  stop.begin();
  if (wait_group_gone(pgid, *stop.kill_due(), reap)) {
    result.gone = true;
    return result;
  }
  result.killed = true;
  stop.kill();
  result.gone = wait_group_gone(pgid, std::chrono::steady_clock::now() + kill_wait, reap);
  return result;
}

}  // namespace fleet
