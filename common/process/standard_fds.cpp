#include "process/standard_fds.h"

#include <fcntl.h>
#include <unistd.h>
#include <cerrno>

namespace fleet {

void occupy_standard_fds() {
  for (int fd = 0; fd <= 2; ++fd) {
    if (::fcntl(fd, F_GETFD) >= 0 || errno != EBADF) continue;
    // open returns the lowest free descriptor: `fd` itself, the lower ones being open.
    const int null = ::open("/dev/null", O_RDWR);
    if (null >= 0 && null != fd) ::close(null);
  }
}

}  // namespace fleet
