#include "launch/retry_policy.h"

#include <cmath>

#include "base/timestamp.h"
#include "launch/command_line.h"

namespace fleet {

namespace {

// A stale resume of a command whose options the wrapper does not know: not retried.
void refuse_fresh_retry(RetryDecision& decision, const std::string& attempt_n,
                        const std::string& program, const AgentProfile& agent) {
  const std::string cli(agent.display_name);
  decision.not_retried = "a stale-session retry rewrites only a " + cli + " command line ('" +
                         program + "' is not " + std::string(agent.programs.front()) + ")";
  decision.notice =
      attempt_n + " failed: the resumed session no longer exists, but the command is not " + cli +
      " ('" + program + "'), so its resume options cannot be removed safely: no retry";
}

// A failure the exit status explains: said, and not retried.
void explain_exit(RetryDecision& decision, const std::string& attempt_n, const ExitMeaning& exit,
                  const AgentProfile& agent) {
  const std::string why = std::string(agent.display_name) + " exit " + std::to_string(exit.status) +
                          ": " + std::string(exit.meaning);
  decision.notice = attempt_n + " failed (" + why + "): no retry";
  if (exit.retried_by_cli) decision.not_retried = why;
}

}  // namespace

RetryDecision decide_retry(const AttemptResult& attempt, int number, const RetryOptions& options,
                           bool parent_gone, bool fresh_retry_done,
                           const std::vector<std::string>& command, const AgentProfile& agent) {
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
  const Classified classified =
      classify_failure(failure_output(attempt.stdout_tail, attempt.stderr_tail, agent.errors),
                       attempt.exit_code, agent.errors);
  decision.failure = classified.error_class;
  const bool stale = *decision.failure == ErrorClass::stale_session && !fresh_retry_done &&
                     resumes_session(command, agent);
  if (stale && !is_agent_command(command, agent)) {
    refuse_fresh_retry(decision, attempt_n, command.front(), agent);
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
  } else if (classified.exit != nullptr) {
    explain_exit(decision, attempt_n, *classified.exit, agent);
  }
  return decision;
}

}  // namespace fleet
