// File time stamps and generations (platform seam, Linux home).
#include "platform/file_times.h"

#include <linux/fs.h>
#include <sys/ioctl.h>
#include <time.h>

namespace fleet::platform {

FileTimes file_times(const struct stat& st) {
  return FileTimes{st.st_ctim.tv_sec, st.st_ctim.tv_nsec, st.st_mtim.tv_sec, st.st_mtim.tv_nsec};
}

std::uint32_t file_generation(int fd) {
  // The kernel writes an int, whatever the ioctl's declared type. Unsupported: stays 0.
  std::uint32_t generation = 0;
  if (::ioctl(fd, FS_IOC_GETVERSION, &generation) != 0) return 0;
  return generation;
}

std::int64_t coarse_realtime_ns() {
  struct timespec now {};
  ::clock_gettime(CLOCK_REALTIME_COARSE, &now);
  return static_cast<std::int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
}

}  // namespace fleet::platform
