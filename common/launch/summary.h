#pragma once
// The one-line JSON report launch-wrapper prints on stderr (and to --summary-file) when it
// is done: what happened to the launch, for the dispatcher and for people.

#include <sys/types.h>
#include <optional>
#include <string>
#include <vector>

#include "base/enum_names.h"
#include "launch/error_class.h"
#include "launch/session_state.h"
#include "launch/stdout_spool.h"

namespace fleet {

// Why the launch's last agent ended (doc/launch-wrapper.md, step 9).
enum class KillReason {
  natural_exit,            // the agent exited by itself
  completed_then_stopped,  // its completion marker was seen and the drain ran out
  signal,                  // a stop signal sent to the wrapper ended it
  killed,                  // a signal from outside the wrapper ended it
  output_closed,           // the launcher's end of stdout or stderr closed during the run
  drain_timeout,           // with a session key: TERM/USR1 and the drain ran out
  superseded,              // another launch of the member, or `launch-wrapper stop`, replaced it
  exec_failed,             // the command could not be executed
};
template <>
struct EnumNames<KillReason> {
  static constexpr std::array<std::string_view, 8> names{
      "natural_exit",  "completed_then_stopped", "signal",     "killed",
      "output_closed", "drain_timeout",          "superseded", "exec_failed"};
};

// With --stdout final: what reached the wrapper's stdout when the launch ended.
struct FinalStdout {
  unsigned attempt = 0;  // the attempt whose stdout it was (0: none started)
  SpoolDelivery delivery;
};

struct LaunchSummary {
  std::string member;  // "" when none
  std::string session_id;
  std::string session_key;                     // "" when none
  std::optional<SessionStatus> session_state;  // the session's state afterwards, when changed
  int exit_code = 0;
  KillReason kill_reason = KillReason::natural_exit;
  std::string signal;        // with `killed`: the signal from outside ("SIGKILL")
  std::string output_spool;  // with `output_closed`: the file the output went on to
  std::optional<FinalStdout> final_stdout;
  bool completion_seen = false;
  std::vector<pid_t> pids;                  // one per attempt that started
  std::vector<ErrorClass> failure_classes;  // of the failed attempts that were classified
  std::string not_retried;                  // why a failure that calls for a retry was not retried
  unsigned attempts = 0;
};

// {"event":"launch-wrapper.summary", ...} plus a newline.
std::string launch_summary_json(const LaunchSummary& summary);

}  // namespace fleet
