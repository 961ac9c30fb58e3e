#include "proc_table.h"

#include <dirent.h>
#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "temp_dir.h"

namespace fleet::test {

std::optional<ProcStat> proc_stat(pid_t pid) {
  const std::string text = read_file("/proc/" + std::to_string(pid) + "/stat");
  const std::size_t close = text.rfind(')');
  if (close == std::string::npos || close + 4 > text.size()) return std::nullopt;
  ProcStat stat;
  stat.state = text[close + 2];
  stat.ppid = static_cast<pid_t>(std::strtol(text.c_str() + close + 4, nullptr, 10));
  return stat;
}

std::vector<pid_t> all_pids() {
  std::vector<pid_t> pids;
  DIR* dir = ::opendir("/proc");
  REQUIRE(dir != nullptr);
  while (const dirent* entry = ::readdir(dir)) {
    char* end = nullptr;
    const long pid = std::strtol(entry->d_name, &end, 10);
    if (end != entry->d_name && *end == '\0') pids.push_back(static_cast<pid_t>(pid));
  }
  ::closedir(dir);
  return pids;
}

bool running(pid_t pid) {
  const auto stat = proc_stat(pid);
  return stat && stat->state != 'Z' && stat->state != 'X';
}

}  // namespace fleet::test
