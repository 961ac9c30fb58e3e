#pragma once
// The files of the caller handovers (doc/resume-guard.md, "Caller handover"): the directory
// private to the user they live in, and how one is left (written once, then only its time
// renewed) and read back (bounded, without following a link), with the age bound every kind
// of handover shares. process/caller_handover.h leaves and finds them by the processes'
// ancestry, process/call_handover.h by the dispatch call's id and the caller's session.
// Failing: reading never throws (a file that cannot be read is none); leaving one throws Error.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "base/result.h"

namespace fleet {

// From the pre-tool hook to the dispatcher's launch, a permission prompt included.
inline constexpr std::chrono::seconds kHandoverMaxAge{600};
// A handover dated this far after now (a clock set back) still counts; later, never.
inline constexpr std::chrono::seconds kHandoverClockSlack{5};
inline constexpr std::size_t kMaxHandoverBytes = 4096;

// The directory of this user's handovers (not created): fleet-hooks in the user's runtime
// directory (platform/system_facts.h: Linux /run/user/<uid>; macOS the user's temporary
// directory) when it is the user's and private; else ~/.local/state/fleet-hooks/handover under the
// user's own $HOME, a name no other user can take first; /tmp/fleet-hooks-<uid> only without
// either.
std::string handover_directory();

// `dir`, created (0700) when missing, when it is private to this user; else why not (another
// owner, access for group or others, a symbolic link, not a directory). Checked once a process
// for the directory last found private (the guard leaves up to three handovers there a call;
// only this user can change a directory private to them).
Result<std::string> private_directory(const std::string& dir);

// Why `path` is not a directory private to this user; nullopt when it is.
std::optional<std::string> private_problem(const std::string& path);

// Milliseconds since the epoch.
std::int64_t unix_ms(std::chrono::system_clock::time_point time);

// Leaves `content` at `path` with time `now`: renews the time of the same content (false),
// else replaces the file (true). Throws Error.
bool renew_or_replace(const std::string& path, const std::string& content,
                      std::chrono::system_clock::time_point now);

// Writes `content` into a new file at `path` with time `now` (one write: for a handover read
// only after its writer has exited); one already there is renewed or replaced. Throws Error.
void leave_new_file(const std::string& path, const std::string& content,
                    std::chrono::system_clock::time_point now);

// The content of the handover file at `path` (at most kMaxHandoverBytes) and its time (ms).
std::optional<std::pair<std::string, std::int64_t>> read_handover(const std::string& path);

// Whether a handover left at `left_at_ms` counts at `now_ms` (kHandoverMaxAge, with slack).
bool handover_counts(std::int64_t left_at_ms, std::int64_t now_ms);

}  // namespace fleet
