// The process table from sysctl and libproc (platform seam, macOS home).
#include "platform/process_table.h"

#include <libproc.h>
#include <sys/proc.h>
#include <sys/sysctl.h>
#include <algorithm>
#include <cstring>

#include "process/procargs2.h"

namespace fleet::platform {
namespace {

constexpr std::size_t kMaxStrings = 256 * 1024;

// What sysctl KERN_PROCARGS2 shows of a process (its own user's, or any for root), read at
// once into a buffer of kern.argmax bytes, as ps(1) does: asked for its size first, a process
// that exec'd meanwhile would show the tail of a larger area.
std::optional<ProcessStrings> read_process_strings(pid_t pid) {
  if (pid <= 0) return std::nullopt;
  // Read once: a token scan reads every process.
  static const int argmax = [] {
    int value = 0;
    std::size_t value_size = sizeof value;
    int argmax_name[] = {CTL_KERN, KERN_ARGMAX};
    return ::sysctl(argmax_name, 2, &value, &value_size, nullptr, 0) == 0 ? value : 0;
  }();
  if (argmax <= 0) return std::nullopt;
  int name[] = {CTL_KERN, KERN_PROCARGS2, static_cast<int>(pid)};
  // Kept between calls, for the same reason (1 MiB on macOS 13-15).
  static std::string area;
  area.resize(std::max(area.size(), static_cast<std::size_t>(argmax)));
  std::size_t size = area.size();
  if (::sysctl(name, 3, area.data(), &size, nullptr, 0) != 0) return std::nullopt;
  return parse_procargs2(std::string_view(area.data(), std::min(size, area.size())), kMaxStrings);
}

}  // namespace

// sysctl KERN_PROC_PID shows zombies too (p_stat SZOMB), which proc_pidinfo does not.
std::optional<ProcessEntry> read_process(pid_t pid) {
  if (pid <= 0) return std::nullopt;
  int name[] = {CTL_KERN, KERN_PROC, KERN_PROC_PID, static_cast<int>(pid)};
  struct kinfo_proc info {};
  std::size_t size = sizeof info;
  if (::sysctl(name, 4, &info, &size, nullptr, 0) != 0 || size < sizeof info) return std::nullopt;
  ProcessEntry entry;
  entry.name.assign(info.kp_proc.p_comm,
                    ::strnlen(info.kp_proc.p_comm, sizeof info.kp_proc.p_comm));
  entry.dead = info.kp_proc.p_stat == SZOMB;
  entry.parent = info.kp_eproc.e_ppid;
  entry.group = info.kp_eproc.e_pgid;
  const struct timeval& started = info.kp_proc.p_starttime;
  entry.start = static_cast<std::uint64_t>(started.tv_sec) * 1000000 +
                static_cast<std::uint64_t>(started.tv_usec);
  entry.owner = info.kp_eproc.e_ucred.cr_uid;
  return entry;
}

std::optional<std::string> read_arguments(pid_t pid) {
  std::optional<ProcessStrings> strings = read_process_strings(pid);
  if (!strings) return std::nullopt;
  return std::move(strings->arguments);
}

std::optional<std::string> read_environment(pid_t pid) {
  std::optional<ProcessStrings> strings = read_process_strings(pid);
  if (!strings) return std::nullopt;
  return std::move(strings->environment);
}

std::optional<std::string> read_boot_id() {
  char id[64] = {};
  std::size_t size = sizeof id - 1;
  if (::sysctlbyname("kern.bootsessionuuid", id, &size, nullptr, 0) != 0) return std::nullopt;
  std::string text(id, ::strnlen(id, sizeof id));
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  if (text.empty()) return std::nullopt;
  return text;
}

std::vector<pid_t> process_ids() {
  // Asked twice when processes were started in between; a little room for more.
  for (int attempt = 0; attempt < 3; ++attempt) {
    const int count = ::proc_listallpids(nullptr, 0);
    if (count <= 0) return {};
    std::vector<pid_t> pids(static_cast<std::size_t>(count) + 64);
    const int got = ::proc_listallpids(pids.data(), static_cast<int>(pids.size() * sizeof(pid_t)));
    if (got <= 0) return {};
    if (static_cast<std::size_t>(got) < pids.size()) {
      pids.resize(static_cast<std::size_t>(got));
      return pids;
    }
  }
  return {};
}

}  // namespace fleet::platform
