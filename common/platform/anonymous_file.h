#pragma once
// A file without a name (platform seam, README.md): nobody else can open it, and it is gone
// once its descriptor is closed, also when the process is killed.

#include <string>

#include "base/files.h"

namespace fleet::platform {

// A new empty file in `directory`, mode 0600, open for reading and writing, close-on-exec,
// with no name (Linux: O_TMPFILE, else a mkostemp file unlinked at once; macOS: a mkstemp
// file unlinked at once). An empty UniqueFd (errno set) when none can be made.
UniqueFd open_anonymous_file(const std::string& directory);

}  // namespace fleet::platform
