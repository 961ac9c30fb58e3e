#pragma once
// The strings area macOS's sysctl KERN_PROCARGS2 shows of a process (platform/macos/
// process_table.cpp reads it): a pure parser, so that every system's tests run it.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace fleet {

// A process's arguments and environment, each string ended by its NUL (as Linux's
// /proc/<pid>/cmdline and environ), each part at most `max_bytes` long.
struct ProcessStrings {
  std::string arguments;
  std::string environment;
};

// Parses `area`: argc (a native int), the executable's path, NUL padding, argc arguments, then
// the environment, each string ended by a NUL and the environment by an empty string. A
// process that shortened its arguments in place (setproctitle, Node's process.title) leaves a
// run of NULs after them: they are skipped, since no environment string is empty. nullopt when
// `area` is too short to hold argc and the path.
std::optional<ProcessStrings> parse_procargs2(std::string_view area, std::size_t max_bytes);

}  // namespace fleet
