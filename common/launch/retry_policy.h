#pragma once
// Whether a launch tries again after an attempt, and how (doc/launch-wrapper.md, step
// 8), as a pure function of the attempt, its number and the options: only a failure whose
// output calls for it is retried — a stale resume once as a fresh session, a retryable error
// after an exponential backoff — and a stop is never undone by a retry.

#include <optional>
#include <string>
#include <vector>

#include "agent/agent_profile.h"
#include "base/enum_names.h"
#include "launch/attempt.h"
#include "launch/error_class.h"
#include "launch/options.h"

namespace fleet {

enum class RetryStep {
  finish,         // no retry: the launch ends with this attempt's exit code
  fresh_session,  // at once, as a fresh session (the resumed session no longer exists)
  backoff,        // after `delay_seconds`, with the same command
};
template <>
struct EnumNames<RetryStep> {
  static constexpr std::array<std::string_view, 3> names{"finish", "fresh_session", "backoff"};
};

struct RetryDecision {
  RetryStep step = RetryStep::finish;
  std::optional<ErrorClass> failure;  // the attempt's failure class, when it was classified
  double delay_seconds = 0;           // with backoff
  std::optional<std::string> notice;  // a line for a person, when there is one
  // Why a failure that calls for a retry was not retried ("" when none was refused): the
  // summary's `not_retried`.
  std::string not_retried;
};

// What follows attempt `number` (1 for the first) of `command`. `parent_gone`: the wrapper's
// parent is no longer the one that started it; `fresh_retry_done`: a stale resume was
// retried already. The failure is classified in the words of `agent`'s CLI (its ErrorForm).
// A stale resume is retried as a fresh session only when `command` resumes a session and is
// that CLI's own (command_line.h): the retry rewrites its options. A failure the CLI retried
// itself (Gemini's 429/5xx) is not retried again.
RetryDecision decide_retry(const AttemptResult& attempt, int number, const RetryOptions& options,
                           bool parent_gone, bool fresh_retry_done,
                           const std::vector<std::string>& command, const AgentProfile& agent);

}  // namespace fleet
