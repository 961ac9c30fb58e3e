// A file without a name (platform/anonymous_file.h; platform seam, Linux home).
#include "platform/anonymous_file.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

namespace fleet::platform {

UniqueFd open_anonymous_file(const std::string& directory) {
  UniqueFd fd(::open(directory.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600));
  if (fd) return fd;
  std::string path = directory + "/launch-wrapper-stdout.XXXXXX";
  fd.reset(::mkostemp(path.data(), O_CLOEXEC));
  if (fd) ::unlink(path.c_str());
  return fd;
}

}  // namespace fleet::platform
