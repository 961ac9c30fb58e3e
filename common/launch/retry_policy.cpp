#include "launch/retry_policy.h"

#include <cmath>

#include "base/timestamp.h"
#include "launch/command_line.h"
#include "launch/launch_plan.h"

namespace fleet {

namespace {

// A stale resume of a command whose options the wrapper does not know: not retried.
void refuse_fresh_retry(RetryDecision& decision, const std::string& attempt_n,
                        const std::string& program) {
  decision.not_retried = "a stale-session retry rewrites only a Claude Code command line ('" +
                         program + "' is not claude)";
  decision.notice = attempt_n +
                    " failed: the resumed session no longer exists, but the command is not "
                    "Claude Code ('" +
                    program + "'), so its resume options cannot be removed safely: no retry";
}

}  // namespace

RetryDecision decide_retry(const AttemptResult& attempt, int number, const RetryOptions& options,
                           bool parent_gone, bool fresh_retry_done,
                           const std::vector<std::string>& command) {
  RetryDecision decision;
  // Only an agent that exited by itself with a failure is retried: never one that was
  // stopped (a signal to the wrapper, another launch, a kill from outside, a closed output)
  // or could not be executed.
  const bool failed_by_itself = attempt.exit_code != 0 && !attempt.ended_by_signal &&
                                attempt.kill_reason == KillReason::natural_exit;
  if (!failed_by_itself || number > options.retries) return decision;
  const std::string attempt_n = "attempt " + std::to_string(number);
  if (parent_gone) {
    decision.notice = attempt_n + " failed and the wrapper's parent is gone: no retry";
    return decision;
  }
  decision.failure = classify_failure(attempt.output_tail);
  const bool stale = *decision.failure == ErrorClass::stale_session && !fresh_retry_done &&
                     resumes_session(command);
  if (stale && !is_claude_code(command)) {
    refuse_fresh_retry(decision, attempt_n, command.front());
  } else if (stale) {
    decision.step = RetryStep::fresh_session;
    decision.notice =
        attempt_n + " failed: the resumed session no longer exists; retrying as a fresh session";
  } else if (*decision.failure == ErrorClass::retryable) {
    decision.step = RetryStep::backoff;
    decision.delay_seconds = options.backoff_seconds * std::pow(2.0, number - 1);
    decision.notice = attempt_n + " failed with a retryable error (exit " +
                      std::to_string(attempt.exit_code) + "); retrying in " +
                      seconds_text(decision.delay_seconds);
  }
  return decision;
}

}  // namespace fleet
