#pragma once
// Which processes have a file open for writing, as the system shows them (platform seam:
// Linux /proc/<pid>/fd and fdinfo, macOS proc_pidinfo): a writer that takes no lock
// (AutoSkillit's open('a') + one write + close) can only be seen this way.
// Only processes whose descriptors this process may read are seen: its own user's (all of
// them for root), in its pid namespace. Failing: never throws; what cannot be read is skipped.

#include <sys/types.h>
#include <string>
#include <vector>

namespace fleet {

struct FileWriter {
  pid_t pid = 0;
  int fd = -1;
  std::string command;  // its command name, for messages

  bool operator==(const FileWriter&) const = default;
};

// The processes other than this one that have the file (`dev`, `ino`) open for writing
// (O_WRONLY or O_RDWR), one entry per descriptor. A file that was renamed over or unlinked
// is still found through the descriptors that hold it.
std::vector<FileWriter> processes_writing(dev_t dev, ino_t ino);

// "pid 123 (python3)" for messages.
std::string describe(const FileWriter& writer);

}  // namespace fleet
