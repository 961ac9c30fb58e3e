#pragma once
// launch-wrapper's launch, step by step as README.md's "launch-wrapper" numbers them: plan
// what to run (launch_plan.h), run one attempt (launch_attempt.h: serialize, stop the
// previous agent, start held, record, announce, supervise, clean up), retry only when the
// failure calls for it (retry_policy.h), and report the summary (launch_summary.h).

#include "launch/launch_options.h"

namespace fleet {

// Runs the launch. Returns the exit status: the agent's, 128+signal when a signal ended it,
// 126/127 when it could not be executed, 125 when the wrapper itself failed (with a message
// on stderr). Throws Error for invalid options, before anything is started.
int run_launch(const LaunchOptions& options);

}  // namespace fleet
