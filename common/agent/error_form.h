#pragma once
// How an agent CLI reports its failures (one ErrorForm per CLI, in its AgentProfile; judged by
// launch/error_class.h): the texts and exit statuses that call for a retry, or for none.

#include <span>
#include <string_view>

#include "base/enum_names.h"

namespace fleet {

enum class ErrorClass {
  stale_session,  // the resumed session is gone (each CLI's text for it is in its ErrorForm)
  retryable,      // HTTP 429/500/502/503/529, "overloaded", "rate limit": try again later
  fatal,          // anything else: retrying would repeat the failure
};
template <>
struct EnumNames<ErrorClass> {
  static constexpr std::array<std::string_view, 3> names{"stale_session", "retryable", "fatal"};
};

// A text in the agent's output tail and what it means.
struct ErrorText {
  std::string_view text;
  ErrorClass error_class;
};

// An exit status of the agent and what it means, whatever its output says.
struct ExitMeaning {
  int status;
  ErrorClass error_class;
  std::string_view meaning;  // for a person: "authentication failed"
  // A failure the CLI already retried itself (Gemini's 429/5xx): the wrapper does not stack
  // its retries on top, and the summary's not_retried says so.
  bool retried_by_cli = false;
};

// How a CLI reports its failures.
struct ErrorForm {
  std::span<const ErrorText> texts;  // the first that occurs decides, before anything else
  std::span<const ExitMeaning> exits;
  // Whether the generic rules apply (below): false for a CLI that retries those itself.
  bool generic_rules;
  // What of the agent's stdout is the CLI's own report of a failure, the rest being the
  // worker's own output (its answer, its tools' results): the JSON lines whose "type" is one
  // of `stdout_events` (Codex's "error", "turn.failed"), and the lines that are not JSON when
  // `plain_stdout` (Claude Code prints its API error as the answer). stderr is read whole.
  std::span<const std::string_view> stdout_events = {};
  bool plain_stdout = false;
};

}  // namespace fleet
