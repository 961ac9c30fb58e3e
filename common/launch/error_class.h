#pragma once
// What an agent's failure calls for, judged from the tail of its output and its exit status
// in the words of its CLI (ErrorForm, in each CLI's AgentProfile): retry fresh, retry
// later, or give up.

#include <span>
#include <string>
#include <string_view>

#include "agent/error_form.h"

namespace fleet {

struct Classified {
  ErrorClass error_class = ErrorClass::fatal;
  const ExitMeaning* exit = nullptr;  // the exit status's entry in ErrorForm::exits, if any
};

// What a failure is judged from: the lines of `stdout_tail` the form reads (ErrorForm), then
// all of `stderr_tail`.
std::string failure_output(std::string_view stdout_tail, std::string_view stderr_tail,
                           const ErrorForm& form);

// Classifies a failure: `output` (the end of what the agent printed) against the form's texts
// (the CLI's stale-session text among them), then `exit_status` against its exits, then the
// generic rules when the form has them: HTTP 429, 500, 502, 503, 529, "overloaded", "rate
// limit" are retryable. A status code counts only as a whole number on a line that also says
// "error", "status", "http" or "api" (case-insensitive), so "processed 500 files" is not a
// server error. Anything else is fatal.
Classified classify_failure(std::string_view output, int exit_status, const ErrorForm& form);

}  // namespace fleet
