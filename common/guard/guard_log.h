#pragma once
// The guard log: every deny and advisory of resume-guard (never a silent pass), one JSON
// object per line in guard_log.jsonl beside the provenance store, so that a verdict leaves a
// trace a user can find even where the agent CLI shows the advisory nowhere (Codex exec).
// Private like the store, appended under the store's lock protocol and bounded by rotation
// (store/rotating_jsonl.h; doc/files.md, guard_log.jsonl). Only the resume-guard hook writes
// it: `fleet-hooks replay` and `query` decide without logging.
// Failing: log_guard_decision never throws (the guard's path): a line that cannot be
// appended is a line for stderr, and the verdict stands. Reading a line that is no entry is
// nullopt.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "guard/resume_guard.h"
#include "guard/resume_request.h"
#include "hook/hook_protocol.h"

namespace fleet {

// The size at which the log is rotated to guard_log.jsonl.1: at most about twice this is kept.
inline constexpr std::uint64_t kGuardLogLimitBytes = 256 * 1024;

// One line of the log.
struct GuardLogEntry {
  std::string time;     // ISO-8601 UTC, as base/timestamp.h writes it
  std::string verdict;  // "deny" or "advisory"
  std::string rule;     // GuardDecision::rule
  std::string caller;   // the caller the guard judged (the hook input's session_id)
  std::string session;  // the resume_session_id as given
  std::string tool;     // the tool called
  std::string agent;    // the agent CLI that ran the hook (--agent)
  std::string kitchen;  // the current kitchen; "" when none (the key is then left out)
  std::string reason;   // the deny's reason, or the advisory's text
};

// <state_dir>/guard_log.jsonl
std::string guard_log_path(const std::string& state_dir);

// The entry as one line of JSON, without '\n'. Each field is cut to a few KiB (a hook input
// can be megabytes), so a line stays far below the log's limit.
std::string guard_log_line(const GuardLogEntry& entry);

// The entry a line of the log holds; nullopt when it is not a JSON object with a string
// `time`, `verdict` and `rule`.
std::optional<GuardLogEntry> parse_guard_log_line(std::string_view line);

// Appends `decision` on `request` (read from `hook`) to the log of the state directory the
// guard judged with (guard_state_dir), creating that directory (0700) when missing. Does
// nothing for a silent decision. nullopt when logged or nothing to log; else the line for
// stderr saying why it was not logged.
std::optional<std::string> log_guard_decision(const HookFields& hook, const ResumeRequest& request,
                                              const GuardDecision& decision,
                                              const GuardOptions& options);

// How `fleet-hooks log` shows the log.
struct GuardLogView {
  bool json = false;                         // the lines as they are, not text for a person
  std::optional<std::int64_t> since_micros;  // only entries at or after this time
};

struct GuardLogCounts {
  std::size_t shown = 0;
  std::size_t skipped = 0;  // lines that are no entry (or, with a `since`, have no valid time)
};

// What `view` prints for one line of the log, '\n'-terminated: the line itself (json), or
// "<time> <verdict> <rule> caller=<caller> session=<session>: <reason>". nullopt for a blank
// line, an entry before `since`, and a line that is no entry (counted in `counts`).
std::optional<std::string> view_guard_log_line(std::string_view line, const GuardLogView& view,
                                               GuardLogCounts& counts);

}  // namespace fleet
