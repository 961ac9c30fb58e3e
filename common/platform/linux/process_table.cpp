// The process table from /proc (platform seam, Linux home).
#include "platform/process_table.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include "base/files.h"

namespace fleet::platform {
namespace {

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

bool is_dead_state(char state) {
  return state == 'Z' || state == 'X' || state == 'x';
}

}  // namespace

// /proc/<pid>/stat: "pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt
// majflt cmajflt utime stime cutime cstime priority nice num_threads itrealvalue starttime".
// comm may hold spaces and ')', so fields are counted from the last ')'. The owner of the
// file is the process's effective uid.
std::optional<ProcessEntry> read_process(pid_t pid) {
  if (pid <= 0) return std::nullopt;
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/stat", static_cast<int>(pid));
  ProcessEntry entry;
  const std::optional<std::string> read = read_small_file(path, &entry.owner);
  if (!read) return std::nullopt;
  const std::string& text = *read;
  const std::size_t open = text.find('(');
  const std::size_t close = text.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open) return std::nullopt;
  entry.name = text.substr(open + 1, close - open - 1);
  const char* cursor = text.c_str() + close + 1;
  // Field 3 is the state; fields 4..22 follow.
  for (int field = 3; field <= 22; ++field) {
    while (*cursor == ' ') ++cursor;
    if (*cursor == '\0') return std::nullopt;
    if (field == 3) entry.dead = is_dead_state(*cursor);
    if (field == 4) entry.parent = static_cast<pid_t>(std::strtol(cursor, nullptr, 10));
    if (field == 5) entry.group = static_cast<pid_t>(std::strtol(cursor, nullptr, 10));
    if (field == 22) entry.start = std::strtoull(cursor, nullptr, 10);
    while (*cursor != ' ' && *cursor != '\0') ++cursor;
  }
  return entry;
}

std::optional<std::string> read_arguments(pid_t pid) {
  return read_proc_strings(pid, "cmdline");
}

std::optional<std::string> read_environment(pid_t pid) {
  return read_proc_strings(pid, "environ");
}

std::optional<std::string> read_boot_id() {
  std::optional<std::string> id = read_small_file("/proc/sys/kernel/random/boot_id");
  if (!id) return std::nullopt;
  while (!id->empty() && (id->back() == '\n' || id->back() == ' ')) id->pop_back();
  if (id->empty()) return std::nullopt;
  return id;
}

std::vector<pid_t> process_ids() {
  std::vector<pid_t> pids;
  DIR* dir = ::opendir("/proc");
  if (dir == nullptr) return pids;
  while (const dirent* entry = ::readdir(dir)) {
    char* end = nullptr;
    const long pid = std::strtol(entry->d_name, &end, 10);
    if (end == entry->d_name || *end != '\0') continue;
    pids.push_back(static_cast<pid_t>(pid));
  }
  ::closedir(dir);
  return pids;
}

}  // namespace fleet::platform
