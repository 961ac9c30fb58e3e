// Making a file's data durable (platform seam, macOS home).
#include "platform/file_sync.h"

#include <fcntl.h>
#include <unistd.h>

namespace fleet::platform {

int sync_file_data(int fd) {
  if (::fcntl(fd, F_FULLFSYNC) == 0) return 0;
  return ::fsync(fd);
}

}  // namespace fleet::platform
