// A file without a name (platform/anonymous_file.h; platform seam, macOS home): macOS has no
// O_TMPFILE, so a new file is made with mkostemp and unlinked at once.
#include "platform/anonymous_file.h"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

namespace fleet::platform {

UniqueFd open_anonymous_file(const std::string& directory) {
  std::string path = directory + "/launch-wrapper-stdout.XXXXXX";
  UniqueFd fd(::mkostemp(path.data(), O_CLOEXEC));  // mode 0600
  if (fd) ::unlink(path.c_str());
  return fd;
}

}  // namespace fleet::platform
