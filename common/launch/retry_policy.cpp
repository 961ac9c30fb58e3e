#include "launch/retry_policy.h"

#include <cmath>

#include "base/timestamp.h"

namespace fleet {

RetryDecision decide_retry(const AttemptResult& attempt, int number, const RetryOptions& options,
                           bool parent_gone, bool fresh_retry_done, bool resumes) {
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
  if (*decision.failure == ErrorClass::stale_session && !fresh_retry_done && resumes) {
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
