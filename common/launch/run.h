#pragma once
// launch-wrapper's launch, step by step as doc/launch-wrapper.md numbers them: plan
// what to run (plan.h), run one attempt (attempt.h: serialize, stop the
// previous agent, start held, record, announce, supervise, clean up), retry only when the
// failure calls for it (retry_policy.h), and report the summary (summary.h).

#include <optional>
#include <string>

#include "launch/options.h"

namespace fleet {

// What a launch came to.
struct LaunchOutcome {
  // The agent's exit status, 128+signal when a signal ended it, 126/127 when it could not
  // be executed.
  int exit_status = 0;
  // The summary line (JSON, with '\n'), already written to --summary-file when one is given:
  // the program prints it on stderr unless --quiet.
  std::string summary;
  // Why --summary-file could not be written, when it could not (the launch's status stands).
  std::optional<std::string> summary_file_problem;
};

// Runs the launch; what it says while it runs goes to `notice`. Throws Error when the options
// cannot make a launch (before anything is started) or when the wrapper itself fails (a
// previous agent that cannot be stopped, no cgroup where one is required, unwritable state):
// the member's record of this launch is released first.
LaunchOutcome run_launch(const LaunchOptions& options, const LaunchNotice& notice);

}  // namespace fleet
