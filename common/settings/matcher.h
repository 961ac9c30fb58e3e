#pragma once
// Claude Code's hook matchers (doc/resume-guard.md, "Wiring it into Claude Code"): "" and "*" match
// every tool; a matcher made only of letters, digits and `_ - | , space` is a list of exact tool
// names separated by `|` or `,`; anything else is an unanchored JavaScript regular expression
// (js_regex.h: `new RegExp(matcher)`, evaluated in linear time, so a matcher from a settings
// file can never make fleet-hooks hang).
// Failing: never throws; how far an answer can be trusted is read_matcher's result.

#include <string>
#include <string_view>

namespace fleet {

// True when `matcher` selects the tool `tool_name`. An invalid regular expression matches
// nothing (Claude Code logs "Invalid regex pattern in hook matcher" and skips the hook); so
// does one that matcher_problem reports as beyond this checker.
bool matcher_matches(std::string_view matcher, std::string_view tool_name);

// True when the matcher is read as exact tool names rather than a regular expression.
bool matcher_is_plain(std::string_view matcher);

// How far matcher_matches can be trusted for `matcher`.
enum class MatcherReading {
  exact,        // it answers what Claude Code does
  invalid,      // not a valid JavaScript RegExp: Claude Code runs the hook for no tool
  unsupported,  // a backreference, lookaround, inline modifier, or repetition counts too large
                // to expand: fleet-hooks cannot tell which tools it selects
};
MatcherReading read_matcher(std::string_view matcher);

}  // namespace fleet
