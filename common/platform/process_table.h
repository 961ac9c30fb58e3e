#pragma once
// The process table as the suite reads it (platform seam, README.md): one process's parent,
// group, start time, name and owner, its arguments and environment; the boot id; the pids. Only
// what the system shows every user: nothing here needs privilege.

#include <sys/types.h>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fleet::platform {

struct ProcessEntry {
  std::string name;         // its command name (Linux: comm, 15 bytes; macOS: p_comm, 16)
  bool dead = false;        // a zombie (or dying): exited, not yet reaped
  pid_t parent = 0;         // its parent's pid
  pid_t group = 0;          // its process group
  std::uint64_t start = 0;  // its start time, only ever compared on the same boot (Linux:
                            // clock ticks since boot; macOS: microseconds since the epoch)
  uid_t owner = 0;          // its effective uid
};

// The entry of process `pid`, zombies included; nullopt when no process has that pid.
std::optional<ProcessEntry> read_process(pid_t pid);

// The id of this boot, the same for every process until the machine restarts, without
// trailing white space; nullopt when it cannot be read.
std::optional<std::string> read_boot_id();

// The command line of process `pid`: its arguments, each ended by a NUL, as the process shows
// them (a program may rewrite its own), at most 256 KiB; nullopt when it cannot be read
// (another user's process, gone).
std::optional<std::string> read_arguments(pid_t pid);

// The environment process `pid` was started with (not what it set since): "NAME=value"
// strings, each ended by a NUL, at most 256 KiB; nullopt when it cannot be read.
std::optional<std::string> read_environment(pid_t pid);

// The pids of the processes there are (those this process may see); empty when unknown.
std::vector<pid_t> process_ids();

}  // namespace fleet::platform
