#pragma once
// What an agent's failure calls for, judged from the tail of its output: retry fresh, retry
// later, or give up.

#include <string_view>

#include "base/enum_names.h"

namespace fleet {

enum class ErrorClass {
  stale_session,  // "No conversation found with session ID": the resumed session is gone
  retryable,      // HTTP 429/500/502/503/529, "overloaded", "rate limit": try again later
  fatal,          // anything else: retrying would repeat the failure
};
template <>
struct EnumNames<ErrorClass> {
  static constexpr std::array<std::string_view, 3> names{"stale_session", "retryable", "fatal"};
};

// Classifies `output` (the end of what the agent printed). A status code counts only as a
// whole number on a line that also says "error", "status", "http" or "api"
// (case-insensitive), so "processed 500 files" is not a server error.
ErrorClass classify_failure(std::string_view output);

}  // namespace fleet
