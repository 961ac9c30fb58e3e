#pragma once
// The one-line JSON report launch-wrapper prints on stderr (and to --summary-file) when it
// is done: what happened to the launch, for the dispatcher and for people.

#include <sys/types.h>
#include <string>
#include <vector>

namespace fleet {

struct LaunchSummary {
  std::string member;  // "" when none
  std::string session_id;
  std::string session_key;    // "" when none
  std::string session_state;  // the session's state afterwards, "" when unchanged/none
  int exit_code = 0;
  std::string kill_reason;   // natural_exit, completed_then_stopped, signal, killed,
                             // output_closed, drain_timeout, superseded, exec_failed
  std::string signal;        // with `killed`: the signal from outside ("SIGKILL")
  std::string output_spool;  // with `output_closed`: the file the output went on to
  bool completion_seen = false;
  std::vector<pid_t> pids;                   // one per attempt that started
  std::vector<std::string> failure_classes;  // of the failed attempts that were classified
  unsigned attempts = 0;
};

// {"event":"launch-wrapper.summary", ...} plus a newline.
std::string launch_summary_json(const LaunchSummary& summary);

}  // namespace fleet
