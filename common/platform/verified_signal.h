#pragma once
// Signalling a process only while it is the one meant (platform seam, README.md): the pid is
// checked right before the signal is sent. Linux pins the process with a pidfd first, so the
// signal reaches the process checked even if it exits and its pid is reused meanwhile;
// macOS has nothing to pin a process with, so a pid reused between the check and kill(2) —
// microseconds, and macOS hands out pids in order, reusing one only after the others up to
// 99999 — would get it.

#include <sys/types.h>
#include <functional>

namespace fleet::platform {

// Sends `sig` to `pid` when `still_the_one()`, asked right before, says it is still the
// process meant; true when sent. Nothing is sent to a pid that names no process.
bool signal_verified(pid_t pid, int sig, const std::function<bool()>& still_the_one);

}  // namespace fleet::platform
