#pragma once
// A file's time stamps and generation, and the clock they are stamped from (platform seam,
// README.md).

#include <sys/stat.h>
#include <cstdint>

namespace fleet::platform {

struct FileTimes {
  std::int64_t ctime_sec = 0;
  std::int64_t ctime_nsec = 0;
  std::int64_t mtime_sec = 0;
  std::int64_t mtime_nsec = 0;
};

FileTimes file_times(const struct stat& st);

// The inode's generation number where the file system keeps one (Linux: FS_IOC_GETVERSION);
// 0 where it does not, or cannot be asked.
std::uint32_t file_generation(int fd);

// A wall clock (ns since the epoch) that is never past the time stamp the kernel gives a
// file changed after it was read (Linux: CLOCK_REALTIME_COARSE, the clock file times come
// from; macOS: CLOCK_REALTIME less 10 ms, covering any truncation of the stamps).
std::int64_t coarse_realtime_ns();

}  // namespace fleet::platform
