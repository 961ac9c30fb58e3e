// Making a file's data durable (platform seam, Linux home).
#include "platform/file_sync.h"

#include <unistd.h>

namespace fleet::platform {

int sync_file_data(int fd) {
  return ::fdatasync(fd);
}

}  // namespace fleet::platform
