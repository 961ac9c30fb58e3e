#pragma once
// Small facts of the running system (platform seam, README.md).

#include <cstddef>
#include <optional>
#include <string>

namespace fleet::platform {

// The absolute path of the running executable; nullopt when it cannot be known.
std::optional<std::string> executable_path();

// Fills `size` bytes with random bytes from the kernel's generator. False (errno set) when
// it cannot.
bool fill_random(unsigned char* bytes, std::size_t size);

// The directory the system keeps for this user alone while they are logged in, if it has one
// (Linux: /run/user/<uid>; macOS: the user's temporary directory, confstr
// _CS_DARWIN_USER_TEMP_DIR), without a trailing slash. The caller checks it is private.
std::optional<std::string> user_runtime_directory();

// The name of the per-machine directory of the Claude Code plugin's binaries on this machine
// ("linux-<the kernel's arch>"), as the plugin's hook command computes it; nullopt when
// unknown, or where the plugin has none.
std::optional<std::string> plugin_machine_directory();

// The abbreviation of signal `sig` without "SIG" ("TERM", "KILL"); nullopt for a number the
// system names no signal (Linux: sigabbrev_np; macOS: sys_signame, upper-cased).
std::optional<std::string> signal_abbreviation(int sig);

}  // namespace fleet::platform
