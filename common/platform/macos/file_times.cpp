// File time stamps (platform seam, macOS home).
#include "platform/file_times.h"

#include <time.h>

namespace fleet::platform {

FileTimes file_times(const struct stat& st) {
  return FileTimes{st.st_ctimespec.tv_sec, st.st_ctimespec.tv_nsec, st.st_mtimespec.tv_sec,
                   st.st_mtimespec.tv_nsec};
}

// APFS keeps a generation only for the superuser (st_gen): none is used.
std::uint32_t file_generation(int) {
  return 0;
}

std::int64_t coarse_realtime_ns() {
  struct timespec now {};
  ::clock_gettime(CLOCK_REALTIME, &now);
  return static_cast<std::int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec - 10000000;
}

}  // namespace fleet::platform
