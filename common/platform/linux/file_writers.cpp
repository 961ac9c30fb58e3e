// Which processes write a file, from /proc/<pid>/fd and fdinfo (process/file_writers.h;
// platform seam, Linux home).
#include "process/file_writers.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <optional>
#include <string_view>

namespace fleet {
namespace {

struct DirCloser {
  void operator()(DIR* dir) const { ::closedir(dir); }
};
using Dir = std::unique_ptr<DIR, DirCloser>;

// The number a /proc entry is named with; -1 for any other name.
long number_of(const char* name) {
  char* end = nullptr;
  const long value = std::strtol(name, &end, 10);
  return end != name && *end == '\0' && value >= 0 ? value : -1;
}

// What /proc/<pid>/fdinfo/<fd> says about a descriptor.
struct FdInfo {
  bool writable = false;       // opened O_WRONLY or O_RDWR
  std::optional<ino_t> inode;  // "ino:" (Linux 5.14 and later)
};

std::optional<FdInfo> read_fdinfo(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  char buffer[512];
  const ssize_t n = ::read(fd, buffer, sizeof buffer - 1);
  ::close(fd);
  if (n <= 0) return std::nullopt;
  buffer[n] = '\0';
  FdInfo info;
  const std::string_view text(buffer, static_cast<std::size_t>(n));
  const auto number_after = [&](std::string_view key, int base) -> std::optional<unsigned long> {
    const std::size_t at = text.find(key);
    if (at == std::string_view::npos) return std::nullopt;
    return std::strtoul(buffer + at + key.size(), nullptr, base);
  };
  const auto flags = number_after("flags:", 8);
  if (!flags) return std::nullopt;
  info.writable = (*flags & O_ACCMODE) != O_RDONLY;
  if (const auto inode = number_after("\nino:", 10)) info.inode = static_cast<ino_t>(*inode);
  return info;
}

std::string command_of(const std::string& process) {
  std::ifstream comm(process + "/comm");
  std::string command;
  std::getline(comm, command);
  return command;
}

// The descriptors of process `pid` (its /proc directory `process`) that hold the file open
// for writing. The file behind a descriptor is stat'ed only when fdinfo cannot rule it out
// (another inode): a file on a mount that hangs is never touched.
void add_writers(pid_t pid, const std::string& process, dev_t dev, ino_t ino,
                 std::vector<FileWriter>& writers) {
  const Dir fds(::opendir((process + "/fd").c_str()));
  if (!fds) return;  // another user's process, or gone
  while (const dirent* entry = ::readdir(fds.get())) {
    const long fd = number_of(entry->d_name);
    if (fd < 0) continue;
    const std::optional<FdInfo> info = read_fdinfo(process + "/fdinfo/" + entry->d_name);
    if (!info || !info->writable || (info->inode && *info->inode != ino)) continue;
    struct stat st {};
    if (::stat((process + "/fd/" + entry->d_name).c_str(), &st) != 0) continue;
    if (st.st_dev == dev && st.st_ino == ino && S_ISREG(st.st_mode)) {
      writers.push_back({pid, static_cast<int>(fd), command_of(process)});
    }
  }
}

}  // namespace

std::vector<FileWriter> processes_writing(dev_t dev, ino_t ino) {
  std::vector<FileWriter> writers;
  const Dir proc(::opendir("/proc"));
  if (!proc) return writers;
  const pid_t self = ::getpid();
  while (const dirent* entry = ::readdir(proc.get())) {
    const long pid = number_of(entry->d_name);
    if (pid <= 0 || pid == self) continue;
    add_writers(static_cast<pid_t>(pid), std::string("/proc/") + entry->d_name, dev, ino, writers);
  }
  return writers;
}

}  // namespace fleet
