// Which processes write a file, from proc_pidinfo's descriptor lists (process/file_writers.h;
// platform seam, macOS home).
#include "process/file_writers.h"

#include <libproc.h>
#include <sys/proc_info.h>
#include <sys/stat.h>
#include <unistd.h>

#include "platform/process_table.h"

namespace fleet {
namespace {

constexpr std::uint32_t kOpenForWriting = 0x0002;  // FWRITE in fi_openflags

// The vnode descriptors of process `pid`; empty when they cannot be read.
std::vector<proc_fdinfo> descriptors_of(pid_t pid) {
  const int size = ::proc_pidinfo(pid, PROC_PIDLISTFDS, 0, nullptr, 0);
  if (size <= 0) return {};
  std::vector<proc_fdinfo> fds(static_cast<std::size_t>(size) / sizeof(proc_fdinfo) + 16);
  const int got = ::proc_pidinfo(pid, PROC_PIDLISTFDS, 0, fds.data(),
                                 static_cast<int>(fds.size() * sizeof(proc_fdinfo)));
  if (got <= 0) return {};
  fds.resize(static_cast<std::size_t>(got) / sizeof(proc_fdinfo));
  return fds;
}

}  // namespace

std::vector<FileWriter> processes_writing(dev_t dev, ino_t ino) {
  std::vector<FileWriter> writers;
  const pid_t self = ::getpid();
  for (const pid_t pid : platform::process_ids()) {
    if (pid <= 0 || pid == self) continue;
    for (const proc_fdinfo& fd : descriptors_of(pid)) {
      if (fd.proc_fdtype != PROX_FDTYPE_VNODE) continue;
      struct vnode_fdinfowithpath info {};
      if (::proc_pidfdinfo(pid, fd.proc_fd, PROC_PIDFDVNODEPATHINFO, &info, sizeof info) !=
          static_cast<int>(sizeof info))
        continue;
      if ((info.pfi.fi_openflags & kOpenForWriting) == 0) continue;
      const struct vinfo_stat& st = info.pvip.vip_vi.vi_stat;
      if (static_cast<dev_t>(st.vst_dev) == dev && static_cast<ino_t>(st.vst_ino) == ino &&
          S_ISREG(st.vst_mode)) {
        const auto entry = platform::read_process(pid);
        writers.push_back({pid, fd.proc_fd, entry ? entry->name : ""});
      }
    }
  }
  return writers;
}

}  // namespace fleet
